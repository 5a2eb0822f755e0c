"""A minimal CDS client ("mini-EHR") for the tests, sharing no code with the service.

It has its own ES384 key pair and JWKS (PyJWT + cryptography), signs a fresh
JWT per call with ``aud`` = the exact endpoint URL, and speaks plain HTTP.
"""
from __future__ import annotations

import json
import time
import uuid
from contextlib import contextmanager

import jwt
import requests
from cryptography.hazmat.primitives.asymmetric import ec

ISSUER = "https://ehr.example.test"
KID = "test-ehr-key-1"


class MiniEHR:
    def __init__(self, base_url: str, issuer: str = ISSUER):
        self.base_url = base_url.rstrip("/")
        self.issuer = issuer
        self.key = ec.generate_private_key(ec.SECP384R1())

    def jwks(self) -> dict:
        public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(self.key.public_key()))
        public.update({"kid": KID, "use": "sig", "alg": "ES384"})
        return {"keys": [public]}

    def token(self, aud: str, **overrides) -> str:
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": aud, "iat": now, "exp": now + 300, "jti": str(uuid.uuid4())}
        claims.update(overrides.pop("claims", {}))
        headers = {"kid": KID, "typ": "JWT"}
        headers.update(overrides.pop("headers", {}))
        return jwt.encode(claims, self.key, algorithm="ES384", headers=headers)

    def url(self, path: str = "") -> str:
        return f"{self.base_url}/cds-services{path}"

    def discovery(self, token: str | None = None) -> requests.Response:
        url = self.url()
        return requests.get(url, headers=_auth(token or self.token(url)), timeout=10)

    def call(self, service_id: str, body: dict, token: str | None = None, language: str | None = None
             ) -> requests.Response:
        url = self.url(f"/{service_id}")
        headers = {**_auth(token or self.token(url)), **({"Accept-Language": language} if language else {})}
        return requests.post(url, json=body, headers=headers, timeout=30)

    def feedback(self, service_id: str, items: list[dict]) -> requests.Response:
        url = self.url(f"/{service_id}/feedback")
        return requests.post(url, json={"feedback": items}, headers=_auth(self.token(url)), timeout=10)


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def bundle(*resources: dict, with_type: bool = True) -> dict:
    b = {"resourceType": "Bundle", "entry": [{"resource": r} for r in resources]}
    if with_type:
        b["type"] = "searchset"
    return b


def med_request(rid: str, text: str, rxnorm: str, patient: str, intent: str | None = "order",
                status: str = "active") -> dict:
    mr = {"resourceType": "MedicationRequest", "id": rid, "status": status,
          "subject": {"reference": f"Patient/{patient}"},
          "medicationCodeableConcept": {"text": text, "coding": [
              {"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": rxnorm, "display": text}]}}
    if intent:
        mr["intent"] = intent
    return mr


def allergy(rid: str, text: str, patient: str, code: str = "764146007") -> dict:
    return {"resourceType": "AllergyIntolerance", "id": rid, "patient": {"reference": f"Patient/{patient}"},
            "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical",
                                           "code": "active"}]},
            "code": {"text": text, "coding": [{"system": "http://snomed.info/sct", "code": code, "display": text}]},
            "criticality": "high"}


def condition(rid: str, code: str, text: str, patient: str) -> dict:
    return {"resourceType": "Condition", "id": rid, "subject": {"reference": f"Patient/{patient}"},
            "clinicalStatus": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/condition-clinical",
                                           "code": "active"}]},
            "code": {"text": text, "coding": [{"system": "http://snomed.info/sct", "code": code, "display": text}]}}


@contextmanager
def app_behind_mini_ehr(app_config: dict):
    """The app served over real HTTP, trusting a fresh ``MiniEHR`` as its CDS client; yields the EHR."""
    from smart_docgemma import create_app

    from tests.support.servers import free_port, serve

    port = free_port()
    client = MiniEHR(f"http://127.0.0.1:{port}")
    app_config["CDS_ISSUERS"] = {ISSUER: {"jwks": client.jwks()}}
    with serve(create_app(app_config), port=port):
        yield client

