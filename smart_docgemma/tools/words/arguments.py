"""A tool's text arguments read into typed values, in one place.

A write tool's arguments stay text at its boundary, because a model or an MCP client fills
them ("basic metabolic panel, stat", "ortho", "BP 150/95 HR 88"). Each tool that takes such
text reads it here, once, with the ward's tables (``ward_words``), so a call from the agent's
fast path, from the model and from an MCP client is read the same way, by the same function;
no tool module calls a word reader of the tables itself
(``tests/reading/test_read_once.py``). The agent's own reading of the clinician's message is
``reading/`` (the floor above): it hands these tools the names it read (a lab table key, a
specialty key), which read back as themselves.

    order = lab_order("basic metabolic panel, stat", None)
    order.tests, order.priority     # ("basic metabolic panel",), "stat"
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ward_words
from .ward_words import Reading


@dataclass(frozen=True)
class LabOrder:
    """A lab order's text arguments read: the tests (keys of the lab table) and the priority
    said with them or in the time words."""

    tests: tuple[str, ...]
    priority: str | None = None


def lab_order(test: str, when_words: str | None = None) -> LabOrder:
    """The tests ``test`` names and the priority ``when_words`` says ("now, stat")."""
    return LabOrder(tuple(ward_words.lab_tests(test)), ward_words.priority(when_words))


def specialty(text: str | None) -> str | None:
    """The first specialty ``text`` names (a key of the referral table), or None."""
    found = ward_words.specialties(text or "")
    return found[0] if found else None


def readings(text: str | None) -> tuple[Reading, ...]:
    """Each vital sign ``text`` states with a value, in the recorded unit."""
    return tuple(ward_words.readings(text))
