"""Load the scenario patients in ``fhir_fixtures/`` into a FHIR server.

Each file is a transaction Bundle whose entries PUT client-assigned ids, so
loading is idempotent: a second load updates the same resources instead of
adding copies. Every bundle is validated before anything is uploaded (the
``fhir.resources`` R4B models check structure and types; our own checks add
what HAPI would otherwise reject late: ids with at least one letter, PUT
requests whose URL matches the resource), so a broken fixture fails with the
file name and the problem rather than a half-loaded server.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import requests
from fhir.resources.R4B import get_fhir_model_class
from pydantic import ValidationError

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fhir_fixtures"
_ID = re.compile(r"^(?=.*[A-Za-z])[A-Za-z0-9\-.]{1,64}$")


class FixtureError(ValueError):
    """A fixture file is not a loadable transaction bundle (message names the file)."""


def bundle_files(directory: Path = FIXTURES_DIR) -> list[Path]:
    """Fixture bundles in load order (practitioners first: others reference them)."""
    return sorted(directory.glob("[0-9][0-9]-*.json"))


def validate(path: Path) -> dict:
    """Parse and check one bundle; raises FixtureError naming the file and the problem."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise FixtureError(f"{path.name}: not readable JSON ({exc})") from exc
    if data.get("resourceType") != "Bundle" or data.get("type") != "transaction":
        raise FixtureError(f"{path.name}: must be a Bundle of type transaction")
    for i, entry in enumerate(data.get("entry") or []):
        _check_entry(path.name, i, entry)
    return data


def _check_entry(name: str, index: int, entry: dict) -> None:
    resource = entry.get("resource") or {}
    rtype, rid = resource.get("resourceType"), resource.get("id", "")
    where = f"{name} entry {index} ({rtype}/{rid})"
    if not _ID.match(rid):
        raise FixtureError(f"{where}: id must be alphanumeric with at least one letter")
    request = entry.get("request") or {}
    if request.get("method") != "PUT" or request.get("url") != f"{rtype}/{rid}":
        raise FixtureError(f"{where}: request must be PUT {rtype}/{rid} (idempotent loading)")
    try:
        get_fhir_model_class(rtype).model_validate(resource)
    except (KeyError, ValidationError) as exc:
        first = str(exc).splitlines()[:3]
        raise FixtureError(f"{where}: invalid FHIR R4 resource: {' '.join(first)}") from exc


def load_fixtures(base_url: str, directory: Path = FIXTURES_DIR,
                  session: requests.Session | None = None) -> dict[str, int]:
    """Validate every bundle, then POST each as a transaction; returns counts by type."""
    bundles = [(path, validate(path)) for path in bundle_files(directory)]
    http = session or requests.Session()
    counts: Counter = Counter()
    for path, data in bundles:
        res = http.post(base_url.rstrip("/"), json=data, timeout=120,
                        headers={"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"})
        if res.status_code >= 400:
            raise FixtureError(f"{path.name}: server answered {res.status_code}: {res.text[:500]}")
        counts.update(e["resource"]["resourceType"] for e in data["entry"])
    return dict(counts)


def main(argv: list[str] | None = None) -> int:
    """``python -m launch.fixtures BASE_URL``: load the fixtures into a server."""
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 1:
        print("usage: python -m launch.fixtures FHIR_BASE_URL", file=sys.stderr)
        return 2
    counts = load_fixtures(args[0])
    print(", ".join(f"{n} {t}" for t, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
