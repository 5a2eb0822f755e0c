"""A follow-up to a pending medication card, in four languages, read as the chat reads it: the
fields it changes or gives are applied to the order as drafted, and the re-drafted order's coded
dosage says what the clinician meant; a request of its own leaves the card alone. The cases
(``cases/pending_card.yaml``) were written before the reading; the holdout split never tuned on.
The whole loop (the card withdrawn, one pending, the check run again) is
``test_pending_card_chat.py`` against HAPI."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml
from smart_docgemma import knowledge
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.agent.planning import _order_notes
from smart_docgemma.approval.types import PendingOrder
from smart_docgemma.knowledge.weight_dose import repeat_per_day
from smart_docgemma.reading.dosage import Dose
from smart_docgemma.tools.writes.orders import coded_order

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "pending_card.yaml").read_text())["cases"]


def pending(words: str) -> PendingOrder:
    """The card a chat order of ``words`` drafts (the arguments the fast path gives the tool)."""
    ent = extract(words)
    dose = ent.dose or Dose()
    return PendingOrder("p1", "pat", ent.drugs[0], knowledge.generic(ent.drugs[0]), dose.written,
                        dose.frequency, _order_notes(dose))


def outcome(case: dict) -> dict | None:
    """What the re-drafted order codes (None: not an amendment)."""
    card = pending(case["pending"])
    change = amendments.read(read(case["say"]), card)
    if change is None:
        return None
    args = amendments.redraft(card, change)
    order = coded_order(args["dosage"], args["frequency"], args["notes"])
    inst, supply = order.dosage, order.dispense.get("expectedSupplyDuration") or {}
    route = ((inst.get("route") or {}).get("coding") or [{}])[0].get("display", "")
    return {"dose": inst["doseAndRate"][0]["doseQuantity"]["value"],
            "per_day": repeat_per_day(inst["timing"]["repeat"]),
            "route": "oral" if route == "Oral route" else None, "days": supply.get("value")}


def right(case: dict) -> bool:
    found = outcome(case)
    if case.get("new"):
        return found is None
    want = {"dose": case["dose"], "per_day": case["per_day"], "route": case.get("route"),
            "days": case.get("days")}
    return found == want


def score() -> dict[tuple[str, str], tuple[int, int]]:
    total, good = Counter(), Counter()
    for case in CASES:
        key = (case["split"], case["lang"])
        total[key] += 1
        good[key] += right(case)
    return {k: (good[k], total[k]) for k in sorted(total)}


@pytest.mark.parametrize("case", CASES, ids=[f"{c['pending']} → {c['say']}" for c in CASES])
def test_a_follow_up_redrafts_the_pending_order_as_meant(case):
    assert right(case), outcome(case)


if __name__ == "__main__":
    for (split, lang), (ok, n) in score().items():
        print(f"{split:8} {lang}: {ok}/{n}")
