"""The EHR's view of its own data: patients and practitioners for the launcher and
picker, and raw resource fetches for the access policy, read straight from HAPI
(the sandbox is the EHR, so it reads its database without an access token)."""
from __future__ import annotations

import requests

from smart_docgemma.tools.chart.records import patient_facts, problems


class Directory:
    """Reads from the upstream FHIR base with one ``requests.Session`` per sandbox app."""

    def __init__(self, base_url: str, timeout_s: float = 30):
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.http = requests.Session()
        self.http.headers.update({"Accept": "application/fhir+json"})

    def fetch(self, path: str) -> dict | None:
        """``GET {base}/{path}`` as JSON, or None when it is not there (or not readable)."""
        try:
            res = self.http.get(f"{self.base_url}/{path.lstrip('/')}", timeout=self.timeout_s)
        except requests.RequestException:
            return None
        return res.json() if res.status_code == 200 else None

    def exists(self, rtype: str, rid: str) -> bool:
        resource = self.fetch(f"{rtype}/{rid}")
        return bool(resource) and resource.get("resourceType") == rtype

    def patient_exists(self, rid: str) -> bool:
        return self.exists("Patient", rid)

    def list_patients(self, count: int = 100) -> list[dict]:
        """``[{id, label, age, gender, problems}]`` sorted by family name, for pickers: the main
        problems are each patient's newest active disorders (one Condition search for all)."""
        patients = self._search("Patient", {"_count": count, "_sort": "family"})
        problems = self._main_problems()
        out = []
        for r in patients:
            facts = patient_facts(r)
            out.append({"id": r["id"], "label": _patient_label(r), "age": facts["age"],
                        "gender": facts["gender"], "deceased": facts["deceased"],
                        "problems": problems.get(f"Patient/{r['id']}", [])})
        return out

    def _main_problems(self, per_patient: int = 3) -> dict[str, list[str]]:
        # one page: HAPI caps _count at 200 (a sandbox of a few patients stays under it)
        found = self._search("Condition", {"clinical-status": "active", "_count": 200,
                                           "_elements": "subject,code,onset,category"})
        by_patient: dict[str, list[dict]] = {}
        for c in found:
            by_patient.setdefault((c.get("subject") or {}).get("reference", ""), []).append(c)
        return {ref: [p.text for p in problems(conds) if p.kind == "disorder"][:per_patient]
                for ref, conds in by_patient.items()}

    def list_practitioners(self, count: int = 100) -> list[dict]:
        return [{"id": r["id"], "label": _human_name(r) or r["id"]}
                for r in self._search("Practitioner", {"_count": count})]

    def _search(self, rtype: str, params: dict) -> list[dict]:
        try:
            res = self.http.get(f"{self.base_url}/{rtype}", params=params, timeout=self.timeout_s)
            res.raise_for_status()
        except requests.RequestException:
            return []
        return [e["resource"] for e in res.json().get("entry") or [] if "resource" in e]


def _human_name(resource: dict) -> str:
    names = resource.get("name") or []
    if not names:
        return ""
    name = names[0]
    text = name.get("text") or " ".join(
        [*name.get("prefix", []), *name.get("given", []), name.get("family", "")]
    )
    return text.strip()


def _patient_label(resource: dict) -> str:
    parts = [
        _human_name(resource) or resource["id"],
        resource.get("birthDate"),
        resource.get("gender"),
    ]
    return f"{' · '.join(p for p in parts if p)} ({resource['id']})"
