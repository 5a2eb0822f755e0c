"""The labelled order names (RxNorm SCD/SBD, salts, combinations, brands, misspellings,
international names) → the expected ingredients: precision and recall on the tuned and the
held-out part. Expected names are compared in the core's own spelling (a label's
"clavulanic acid" is the core's "clavulanate")."""
from __future__ import annotations

from smart_docgemma.knowledge import identify, vocabulary

from .cases import orders


def spelled(name: str) -> str:
    return "/".join(vocabulary.lookup(name)) or name


def score(cases: list[dict]) -> tuple[float, float, list]:
    tp = fp = fn = 0
    wrong = []
    for case in cases:
        expected = {spelled(n) for n in case["expect"]}
        got = set(identify(text=case["text"]).names)
        tp, fp, fn = tp + len(expected & got), fp + len(got - expected), fn + len(expected - got)
        if got != expected:
            wrong.append((case["text"], sorted(expected), sorted(got)))
    return tp / ((tp + fp) or 1), tp / ((tp + fn) or 1), wrong


def test_order_names_precision_and_recall():
    data = orders()
    assert len(data["tuned"]) + len(data["held_out"]) >= 150 and len(data["held_out"]) >= 45
    for part, floor in (("tuned", 0.97), ("held_out", 0.9)):
        precision, recall, wrong = score(data[part])
        print(f"\n{part}: {len(data[part])} names, precision {precision:.3f}, recall {recall:.3f}; wrong: {wrong}")
        assert precision >= floor and recall >= floor, wrong
