"""The prescriber check reads a session's role at most every five minutes, and a worker keeps
the roles of the last five minutes' sessions only: a worker serving clinicians all day must
not hold a role for every session it has ever served."""
from __future__ import annotations

from smart_docgemma.checks import prescriber
from smart_docgemma.checks.prescriber import TTL_S, Verdict


def test_the_role_cache_holds_only_the_sessions_of_the_last_five_minutes(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(prescriber.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(prescriber, "_seen", {})
    every = 10.0  # a new session every 10 s, for 1,000 s
    for i in range(100):
        prescriber._keep((f"s{i}", "Practitioner/dr-okafor"), Verdict(True, "on record"))
        clock[0] += every
    assert len(prescriber._seen) == TTL_S / every
    assert ("s99", "Practitioner/dr-okafor") in prescriber._seen
    assert ("s0", "Practitioner/dr-okafor") not in prescriber._seen
