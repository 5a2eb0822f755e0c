"""A clinician in a real SMART launch (the sandbox's OAuth server and FHIR proxy, real HAPI),
asking the app without a model (code only) and deciding the cards it shows."""
from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import requests

from tests.support.launch_context import new_patient
from tests.support.servers import serve
from tests.support.smart_browser import Browser, ehr_launch, finish

NO_CACHE = {"Cache-Control": "no-cache", "Accept": "application/fhir+json"}
SITE_ZONE = "America/New_York"


class Clinician:
    """A browser logged into the app for one patient, as one practitioner."""

    def __init__(self, app_url: str, fhir_base: str, sandbox, patient: str, practitioner: str = "dr-okafor"):
        self.url, self.fhir, self.patient, self.browser = app_url, fhir_base, patient, Browser()
        _, hop3 = ehr_launch(self.browser, sandbox, app_url, patient=patient, practitioner=practitioner)
        page = finish(self.browser, hop3, app_url)
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)

    def ask(self, message: str) -> str:
        """The turn's HTML after the whole stream was read."""
        res = self.browser.http.post(f"{self.url}/api/chat", files={"message": (None, message)},
                                     headers={"X-CSRF-Token": self.csrf}, timeout=120)
        assert res.status_code == 200, res.text
        done = [json.loads(d) for e, d in re.findall(r"^event: (\w+)\ndata: (.*)$", res.text, re.M) if e == "done"]
        return done[0]["html"]

    def approve(self, pid: str) -> requests.Response:
        return self.browser.http.post(f"{self.url}/proposals/{pid}/approve",
                                      data={"csrf_token": self.csrf, "version": "1"},
                                      headers={"X-Requested-With": "fetch"}, timeout=60)

    def proposal(self, pid: str) -> dict:
        return self.browser.http.get(f"{self.url}/proposals/{pid}", headers={"Accept": "application/json"},
                                     timeout=30).json()


def cards(html: str) -> list[str]:
    return re.findall(r'id="proposal-([0-9a-f]{32})"', html)


def answer_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def written(fhir_base: str, rtype: str, pid: str) -> list[dict]:
    """What HAPI holds for proposal ``pid`` (its identifier), bypassing the search cache."""
    res = requests.get(f"{fhir_base}/{rtype}", params={"identifier": f"urn:docgemma:proposal|{pid}"},
                       headers=NO_CACHE, timeout=30)
    return [e["resource"] for e in res.json().get("entry") or []]


def of_patient(fhir_base: str, rtype: str, patient: str) -> list[dict]:
    res = requests.get(f"{fhir_base}/{rtype}", params={"patient": patient, "_count": 50}, headers=NO_CACHE,
                       timeout=30)
    return [e["resource"] for e in res.json().get("entry") or []]


def provenance(fhir_base: str, target: str) -> list[dict]:
    res = requests.get(f"{fhir_base}/Provenance", params={"target": target}, headers=NO_CACHE, timeout=30)
    return [e["resource"] for e in res.json().get("entry") or []]


def result(fhir_base: str, patient: str, loinc: str, value: float, unit: str, hours_ago: float) -> None:
    """A lab result placed ``hours_ago`` before now (the protocols read the latest)."""
    at = (datetime.now(UTC) - timedelta(hours=hours_ago)).isoformat(timespec="seconds")
    body = {"resourceType": "Observation", "status": "final",
            "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category",
                                      "code": "laboratory"}]}],
            "code": {"coding": [{"system": "http://loinc.org", "code": loinc}]},
            "subject": {"reference": f"Patient/{patient}"}, "effectiveDateTime": at,
            "valueQuantity": {"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}}
    requests.post(f"{fhir_base}/Observation", json=body, headers={"Content-Type": "application/fhir+json"},
                  timeout=30).raise_for_status()


@pytest.fixture(scope="module")
def ward_app(tmp_path_factory, sandbox):
    """The app without a model (code only), trusting the sandbox, in the site's time zone."""
    from smart_docgemma import create_app

    tmp = tmp_path_factory.mktemp("ward")
    app = create_app({"TESTING": True, "SECRET_KEY": "ward-secret", "DATABASE_URL": f"sqlite:///{tmp / 'a.sqlite'}",
                      "CACHE_PATH": str(tmp / "cache"), "ENDPOINT": None, "ISS_ALLOWLIST": [sandbox.fhir_url],
                      "SITE_TIMEZONE": SITE_ZONE})
    with serve(app) as server:
        yield app, server.url


@pytest.fixture
def patient(fhir_base):
    return new_patient(fhir_base, family=f"Ward{uuid.uuid4().hex[:6]}")


@pytest.fixture
def doctor(ward_app, sandbox, fhir_base, patient):
    return Clinician(ward_app[1], fhir_base, sandbox, patient)


@pytest.fixture
def nurse(ward_app, sandbox, fhir_base, patient):
    return Clinician(ward_app[1], fhir_base, sandbox, patient, practitioner="nurse-ali")
