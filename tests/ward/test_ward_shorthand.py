"""Ward shorthand in four languages, read as the chat reads it without a model: a bare list of
tests with a time is a lab order for that day and hour in the site's zone, "stat trop" a stat
troponin; readings to record in every language's vital words, each with the time it was taken;
a question is neither. The cases (``cases/ward_shorthand.yaml``) were written before the reading
changed; the holdout split was never tuned on."""
from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml
from smart_docgemma.agent import ward_requests
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.words import ward_words, when
from smart_docgemma.tools.words.windows import asked

FILE = yaml.safe_load((Path(__file__).parent / "cases" / "ward_shorthand.yaml").read_text())
CASES, ZONE = FILE["cases"], "America/New_York"
NOW = datetime.fromisoformat(FILE["now"]).replace(tzinfo=ZoneInfo(ZONE))


def outcome(case: dict) -> dict:
    """What the chat would do with the words: the kind, and the order's or the readings' fields."""
    text = case["text"]
    acts = ward_requests.actions(text, read_ward(text), asked(text))
    if "order_lab" in acts:
        args = ward_requests.arguments("order_lab_test", read(text), "p") or {}
        at = when.parse(args.get("when"), ZONE, NOW).at
        out = {"kind": "order", "tests": args.get("test", "").split(" and ")}
        if "day" in case:
            out.update(day=(at.date() - NOW.date()).days if at else None, at=f"{at:%H:%M}" if at else None)
        if "priority" in case:
            out["priority"] = args.get("priority")
        return out
    if "record_vital" in acts:
        out = {"kind": "record", "vitals": sorted(r.vital for r in ward_words.readings(text))}
        if "taken" in case:
            taken = when.taken(text, ZONE, NOW) if hasattr(when, "taken") else None
            out["taken"] = f"{taken:%H:%M}" if taken and taken.date() == NOW.date() else None
        return out
    return {"kind": "none"}


def expected(case: dict) -> dict:
    keys = {"order": ("tests", "day", "at", "priority"), "record": ("vitals", "taken"), "none": ()}[case["kind"]]
    want = {"kind": case["kind"], **{k: case[k] for k in keys if k in case}}
    if "vitals" in want:
        want["vitals"] = sorted(want["vitals"])
    return want


def score() -> dict[tuple[str, str], tuple[int, int]]:
    total, good = Counter(), Counter()
    for case in CASES:
        key = (case["split"], case["lang"])
        total[key] += 1
        good[key] += outcome(case) == expected(case)
    return {k: (good[k], total[k]) for k in sorted(total)}


@pytest.mark.parametrize("case", CASES, ids=[c["text"] for c in CASES])
def test_ward_shorthand_is_read_as_meant(case):
    assert outcome(case) == expected(case)


if __name__ == "__main__":
    for (split, lang), (ok, n) in score().items():
        print(f"{split:8} {lang}: {ok}/{n}")
