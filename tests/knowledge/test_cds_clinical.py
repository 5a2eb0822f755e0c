"""The labelled clinical sets through the real CDS order-sign endpoint, over HTTP with signed JWTs,
the charts read from a real HAPI FHIR server (no prefetch: the service fetches what it needs).

Each case is one draft order against a chart. A clinician reads the cards: an established
interaction, allergy, pregnancy, dose, kidney or age problem must be a card at the expected
level; a negative control must raise nothing to act on; an order that cannot be identified must
say so ("Could not check …"), never come back as an empty list. ``clinical.yaml`` is the tuned
set, ``clinical_holdout.yaml`` the held-out one (written first, never used to change a rule);
their figures are printed apart."""
from __future__ import annotations

import pytest
from smart_docgemma.knowledge import looks_french

from tests.cds.test_cds_cards import SELECT, SIGN, cards_of, ehr, hook  # noqa: F401 (fixture)

from .cases import clinical, holdout, load_into_hapi, order

RANK = {"critical": 0, "warning": 1, "info": 2}


@pytest.fixture(scope="module")
def charts(fhir_base):
    cases = [c for data in (clinical(), holdout()) for part in data.values() for c in part]
    load_into_hapi(fhir_base, cases)
    return fhir_base


def sign(ehr, fhir_base: str, case: dict) -> list[dict]:
    patient = f"pt-{case['id']}"
    cards = cards_of(ehr.call(SIGN, hook("order-sign", patient, fhir_base, [order(case, patient)])))
    for c in cards:  # English cards carry no French (the sources line names documents by their titles)
        said = "\n".join([c["summary"], *(c.get("detail", "").split("\n\n**Sources:**")[:1])])
        assert not looks_french(said), (case["id"], said)
    return cards


def top(cards: list[dict]) -> str | None:
    levels = [c["indicator"] for c in cards if not c["summary"].startswith("Could not check")]
    return min(levels, key=RANK.__getitem__, default=None)


def measure(ehr, fhir_base: str, data: dict) -> dict:
    missed, false_alarms, silent = [], [], []
    for case in data["positives"]:
        level = top(sign(ehr, fhir_base, case))
        if level is None or RANK[level] > RANK[case["expect"]]:
            missed.append((case["id"], case["expect"], level))
    for case in data["negatives"]:
        level = top(sign(ehr, fhir_base, case))
        if level in ("critical", "warning"):
            false_alarms.append((case["id"], level))
    for case in data["unidentifiable"]:
        cards = sign(ehr, fhir_base, case)
        if not (len(cards) == 1 and cards[0]["summary"].startswith("Could not check")):
            silent.append((case["id"], [c["summary"] for c in cards]))
    critical = [c for c in data["positives"] if c["expect"] == "critical"]
    return {"recall": 1 - sum(1 for m in missed if m[1] == "critical") / len(critical), "critical": len(critical),
            "cases": sum(len(v) for v in data.values()), "missed": missed, "false_alarms": false_alarms,
            "silent": silent}


def check(name: str, m: dict) -> None:
    print(f"\nCDS order-sign {name}: {m['cases']} cases, critical recall {m['recall']:.3f} ({m['critical']} "
          f"critical), below their level {m['missed']}, false alarms {m['false_alarms']}, silent {m['silent']}")
    assert m["recall"] >= 0.95, m["missed"]
    assert not [f for f in m["false_alarms"] if f[1] == "critical"], m["false_alarms"]
    assert not m["silent"], m["silent"]


def test_tuned_set_through_order_sign(ehr, charts):
    data = clinical()
    assert len(data["positives"]) >= 60 and len(data["negatives"]) >= 15 and len(data["unidentifiable"]) >= 5
    check("tuned", measure(ehr, charts, data))


def test_a_french_speaking_clinician_also_gets_the_ansm_text(ehr, charts):
    case = next(c for c in clinical()["positives"] if c["id"] == "sertraline-tramadol")
    patient = f"pt-{case['id']}"
    url = ehr.url(f"/{SIGN}")
    res = ehr.call(SIGN, hook("order-sign", patient, charts, [order(case, patient)]), language="fr")
    [card] = [c for c in cards_of(res) if "tramadol" in c["summary"]]
    assert "Texte source (ANSM)" in card["detail"] and "sérotoninergique" in card["detail"], url
    [english] = [c for c in sign(ehr, charts, case) if "tramadol" in c["summary"]]
    # the French card's summary is French; the English card's sentence is kept in its detail
    assert "Texte source" not in english["detail"] and english["summary"] in card["detail"]
    assert card["summary"] != english["summary"]


def test_order_select_shows_the_dose_kidney_and_age_findings_with_their_evidence(ehr, charts):
    cases = {c["id"]: c for c in clinical()["positives"]}
    expected = {"apap-6g": ("critical", "Ordered: 6000 mg a day"),
                "gabapentin-crcl20": ("warning", "CrCl: 20 (2026-11-01)"),
                "age-oxybutynin-86": ("warning", "Age 86"), "triple-naproxen": ("critical", "ramipril")}
    for cid, (level, evidence) in expected.items():
        patient = f"pt-{cid}"
        res = ehr.call(SELECT, hook("order-select", patient, charts, [order(cases[cid], patient)]))
        [card] = [c for c in cards_of(res) if c["indicator"] == level]
        assert evidence in card["detail"], (cid, card["detail"])


def test_held_out_set_through_order_sign(ehr, charts):
    data = holdout()
    assert sum(len(v) for v in data.values()) >= 40
    check("held out", measure(ehr, charts, data))


def test_patient_view_names_a_triple_whammy_among_active_medications(ehr, charts):
    meds = ["lisinopril 10 MG Oral Tablet", "furosemide 40 MG Oral Tablet", "ibuprofen 400 MG Oral Tablet"]
    load_into_hapi(charts, [{"id": "pv-triple", "medications": meds}])
    res = ehr.call("docgemma-patient-view", hook("patient-view", "pt-pv-triple", charts))
    [card] = [c for c in cards_of(res) if "triple whammy" in c["summary"]]
    assert card["indicator"] == "critical" and "acetaminophen" in card["detail"]
    assert all(d in card["summary"] for d in ("lisinopril", "furosemide", "ibuprofen"))


def test_patient_view_cards_of_a_thesaurus_only_pair_are_english(ehr, charts):
    meds = ["clonidine hydrochloride 0.1 MG Oral Tablet", "bisoprolol fumarate 5 MG Oral Tablet"]
    load_into_hapi(charts, [{"id": "pv-clonidine", "medications": meds}])
    cards = cards_of(ehr.call("docgemma-patient-view", hook("patient-view", "pt-pv-clonidine", charts)))
    [card] = [c for c in cards if "clonidine" in c["summary"]]
    detail = card["detail"].split("\n\n**Sources:**")[0]
    assert card["indicator"] == "critical" and "heart failure" in detail and not looks_french(detail)
