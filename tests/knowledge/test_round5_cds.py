"""The fifth round's labelled order-sign cases (dose caps, the hyperkalaemia and CYP2C9 gaps, the
ONC pairs, units and dates of what the chart says, children's doses and ages, asthma) sent as an
EHR sends them (signed JWT, draft order, full prefetch) to the real CDS service over HTTP.

A case is a hit when a card at its expected level (or above) names its ``about`` words; a
negative is a hit when no card is a warning or critical; a card above a case's level is a false
critical. ``round5.yaml`` was written before the rules; its holdout split was never tuned on. Both
splits' figures, by kind, are printed."""

from __future__ import annotations

from collections import defaultdict

from tests.cds.test_cds_cards import SIGN, cards_of, ehr, hook  # noqa: F401 (fixture)

from .round5_cases import cases, draft, judge, prefetch


def measure(ehr, split: str) -> dict:
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    missed, criticals, false_criticals, relevant, need = {}, [], [], 0, 0
    for case in cases(split):
        patient = f"pt-{case['id']}"
        cards = cards_of(
            ehr.call(
                SIGN,
                hook("order-sign", patient, None, [draft(case, patient)], prefetch(case, patient)),
            )
        )
        verdict = judge(case, cards)
        by_kind[case["kind"]][0] += verdict == "hit"
        by_kind[case["kind"]][1] += 1
        if verdict != "hit":
            missed[case["id"]] = [(c["indicator"], c["summary"]) for c in cards]
        if case["expect"] != "none":
            need += 1
            relevant += verdict == "hit"
        if case["expect"] == "critical":
            criticals.append(any(c["indicator"] == "critical" for c in cards))
        else:
            false_criticals += [case["id"] for c in cards if c["indicator"] == "critical"]
    figures = {
        "cases": len(cases(split)),
        "relevant": f"{relevant}/{need}",
        "critical_recall": f"{sum(criticals)}/{len(criticals)}",
        "false_criticals": false_criticals,
        "by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_kind.items())},
        "missed": missed,
    }
    print(f"\nround-5 order-sign {split}: {figures}")
    return figures | {
        "rate": relevant / need,
        "recall": sum(criticals) / len(criticals),
        "quiet": all(v[0] == v[1] for k, v in by_kind.items() if k == "negative"),
    }


def test_tuned_cases_through_order_sign(ehr):
    m = measure(ehr, "tuned")
    assert m["rate"] >= 0.95 and m["recall"] >= 0.95 and not m["false_criticals"] and m["quiet"], m[
        "missed"
    ]


def test_held_out_cases_through_order_sign(ehr):
    m = measure(ehr, "holdout")
    assert m["rate"] >= 0.9 and m["recall"] >= 0.9 and not m["false_criticals"], m["missed"]


def test_a_french_reader_sees_the_ansm_grade_and_an_english_reader_the_disagreement(ehr):
    case = next(c for c in cases("tuned") if c["id"] == "r5-warf-fluconazole")
    patient = f"pt-{case['id']}"
    body = hook("order-sign", patient, None, [draft(case, patient)], prefetch(case, patient))
    [fr] = [c for c in cards_of(ehr.call(SIGN, body, language="fr")) if c["indicator"] == "critical"]
    assert "Niveau ANSM : précaution d'emploi" in fr["detail"]
    [en] = [c for c in cards_of(ehr.call(SIGN, body)) if c["indicator"] == "critical"]
    assert "Sources disagree" in en["detail"] and "drug-interaction-mcp" in en["detail"]
