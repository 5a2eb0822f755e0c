"""The labelled clinical set through the real CDS order-sign endpoint, over HTTP with signed JWTs.

Each case is one draft order against a chart sent as prefetch. A clinician reads the cards:
an established interaction, allergy conflict, pregnancy or renal problem must be a card at
the expected level; a negative control must raise nothing to act on; an order that cannot be
identified must say so ("Could not check …"), never come back as an empty list."""
from __future__ import annotations

from tests.cds.test_cds_cards import SIGN, cards_of, ehr, hook  # noqa: F401 (fixture)

from .cases import clinical, medication_request, prefetch

RANK = {"critical": 0, "warning": 1, "info": 2}


def sign(ehr, case: dict) -> list[dict]:
    patient = f"pt-{case['id']}"
    order = medication_request(case["order"], "draft-1", patient)
    return cards_of(ehr.call(SIGN, hook("order-sign", patient, None, [order], prefetch=prefetch(case, patient))))


def top(cards: list[dict]) -> str | None:
    levels = [c["indicator"] for c in cards if not c["summary"].startswith("Could not check")]
    return min(levels, key=RANK.__getitem__, default=None)


def test_clinical_set_through_order_sign(ehr):
    data = clinical()
    assert len(data["positives"]) >= 60 and len(data["negatives"]) >= 15 and len(data["unidentifiable"]) >= 5
    missed, false_alarms, silent = [], [], []
    for case in data["positives"]:
        level = top(sign(ehr, case))
        if level is None or RANK[level] > RANK[case["expect"]]:
            missed.append((case["id"], case["expect"], level))
    for case in data["negatives"]:
        level = top(sign(ehr, case))
        if level in ("critical", "warning"):
            false_alarms.append((case["id"], level))
    for case in data["unidentifiable"]:
        cards = sign(ehr, case)
        if not (len(cards) == 1 and cards[0]["summary"].startswith("Could not check")):
            silent.append((case["id"], [c["summary"] for c in cards]))
    critical = [c for c in data["positives"] if c["expect"] == "critical"]
    recall = 1 - sum(1 for m in missed if m[1] == "critical") / len(critical)
    print(f"\nCDS order-sign: critical recall {recall:.3f} ({len(critical)} critical cases), "
          f"{len(missed)} positives below their level {missed}, false alarms {false_alarms}, silent {silent}")
    assert recall >= 0.95, missed
    assert not [f for f in false_alarms if f[1] == "critical"], false_alarms
    assert not silent, silent
