"""What the evaluation counts as written before approval, on a real HAPI: a resource the run
before put back in the same second as this turn's start is none of this turn's (the probe33_mix
floor failed in CI when a stopped order's put-back of the set before landed in the second its
first case started); a resource written after the start is."""
from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
import requests
from smart_docgemma.evaluation import ward_run
from smart_docgemma.fhir import FhirGateway

pytestmark = pytest.mark.slow


def _put(base: str, rid: str) -> None:
    body = {"resourceType": "Observation", "id": rid, "status": "final",
            "code": {"text": "probe"}, "subject": {"reference": "Patient/pt-jw-1958"}}
    requests.put(f"{base}/Observation/{rid}", json=body, timeout=30).raise_for_status()


def test_a_write_before_the_turn_s_start_in_the_same_second_is_not_the_turn_s(fhir_base):
    fhir = FhirGateway(fhir_base, None)
    _put(fhir_base, "unapproved-before")
    time.sleep(0.05)
    since = datetime.now(UTC)
    time.sleep(0.05)
    _put(fhir_base, "unapproved-after")
    early = ward_run.unapproved(fhir, "pt-jw-1958", since, set(), set())
    try:
        assert "Observation/unapproved-after" in early
        assert "Observation/unapproved-before" not in early
    finally:
        for rid in ("unapproved-before", "unapproved-after"):
            requests.delete(f"{fhir_base}/Observation/{rid}", timeout=30)
