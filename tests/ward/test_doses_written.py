"""Weight-based doses as written, in four languages: the words go through extraction, the order's
arguments and its coded dosage exactly as a chat order does, and the dosage the card and the
MedicationRequest carry must read back as what was written (per day or per dose, the amount, the
doses a day). The cases (``cases/doses_written.yaml``) were written before the reading changed;
the holdout split was never tuned on."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml
from smart_docgemma.agent.extraction import extract
from smart_docgemma.knowledge import weight_dose
from smart_docgemma.reading.dosage import Dose
from smart_docgemma.tools.writes.orders import dosage_instruction

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "doses_written.yaml").read_text())["cases"]


def read_back(text: str) -> weight_dose.WeightDose | None:
    """The order as the chat would code it, read back from its dosage."""
    dose = extract(text).dose or Dose()
    notes = "; ".join(p for p in (dose.route, dose.duration and f"for {dose.duration}") if p)
    inst = dosage_instruction(dose.written or "", dose.frequency or "", notes or None)
    return weight_dose.from_dosage(inst)


def right(case: dict) -> bool:
    found = read_back(case["text"])
    return bool(found and found.per == case["per"] and found.mg_per_kg == case["mg_per_kg"]
                and found.doses_per_day == case["doses_per_day"])


def score() -> dict[tuple[str, str], tuple[int, int]]:
    """(split, lang) → (right, total): the figures docs/doses-and-ward-words.md reports."""
    total, good = Counter(), Counter()
    for case in CASES:
        key = (case["split"], case["lang"])
        total[key] += 1
        good[key] += right(case)
    return {k: (good[k], total[k]) for k in sorted(total)}


@pytest.mark.parametrize("case", CASES, ids=[c["text"] for c in CASES])
def test_a_weight_based_dose_reads_back_as_written(case):
    assert right(case), read_back(case["text"])


if __name__ == "__main__":
    for (split, lang), (ok, n) in score().items():
        print(f"{split:8} {lang}: {ok}/{n}")
