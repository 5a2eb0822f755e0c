"""The drug-class labelled order-sign cases (``data/drugclass.yaml``) sent as an EHR sends them
(signed JWT, the draft order and the full prefetch: Patient, active orders coded by RxNorm or as
text, problems coded by SNOMED CT, eGFR, dated weight) to the real CDS service over HTTP.

A case is a hit when a card at its expected level names what it must (the drug already active,
the condition, "Reye", "mg/kg" …); a negative is a hit when no card is a warning or critical.
``drugclass.yaml`` was written before the rules; its holdout split was never tuned on. The
figures of both splits are printed."""
from __future__ import annotations

from tests.cds.test_cds_cards import SIGN, cards_of, ehr, hook  # noqa: F401 (fixture)

from .drugclass_cases import draft, judge, order_cases, prefetch


def measure(ehr, split: str) -> dict:
    results, criticals, false_criticals = {}, [], []
    for case in order_cases(split):
        patient = f"pt-{case['id']}"
        cards = cards_of(ehr.call(SIGN, hook("order-sign", patient, None, [draft(case, patient)],
                                             prefetch(case, patient))))
        results[case["id"]] = judge(case, cards), [(c["indicator"], c["summary"]) for c in cards]
        if case["expect"] == "critical":
            criticals.append(any(c["indicator"] == "critical" for c in cards))
        if case["expect"] in ("none", "warning", "info"):
            false_criticals += [case["id"] for c in cards if c["indicator"] == "critical"]
    need = [c for c in order_cases(split) if c["expect"] != "none"]
    quiet = sum(results[c["id"]][0] == "hit" for c in order_cases(split) if c["expect"] == "none")
    relevant = sum(results[c["id"]][0] == "hit" for c in need)
    figures = {"cases": len(results), "relevant": f"{relevant}/{len(need)}",
               "critical_recall": f"{sum(criticals)}/{len(criticals)}",
               "false_criticals": false_criticals,
               "negatives_quiet": quiet,
               "missed": {k: v for k, v in results.items() if v[0] != "hit"}}
    print(f"\ndrug-class order-sign {split}: {figures}")
    return figures | {"rate": relevant / len(need), "recall": sum(criticals) / len(criticals)}


def test_tuned_cases_through_order_sign(ehr):
    m = measure(ehr, "tuned")
    assert m["rate"] >= 0.9 and m["recall"] >= 0.95 and not m["false_criticals"], m["missed"]


def test_held_out_cases_through_order_sign(ehr):
    m = measure(ehr, "holdout")
    assert m["rate"] >= 0.9 and m["recall"] >= 0.95 and not m["false_criticals"], m["missed"]
