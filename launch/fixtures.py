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
from fhir.resources.R4B.bundle import Bundle
from pydantic import ValidationError

# The scenario patients are the checkout's fhir_fixtures/ (the sandbox runs from the checkout).
FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fhir_fixtures"
_ID = re.compile(r"^(?=.*[A-Za-z])[A-Za-z0-9\-.]{1,64}$")
_REF = re.compile(r"^[A-Z][A-Za-z]+/[A-Za-z0-9\-.]{1,64}$")


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
    if (
        not isinstance(data, dict)
        or data.get("resourceType") != "Bundle"
        or data.get("type") != "transaction"
    ):
        raise FixtureError(f"{path.name}: must be a Bundle of type transaction")
    try:
        Bundle.model_validate(data)  # the R4B models validate every nested resource too
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3]
        )
        raise FixtureError(f"{path.name}: invalid FHIR R4 Bundle: {problems}") from exc
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


def references(value) -> list[str]:
    """Every literal ``reference`` string inside a resource (any depth)."""
    if isinstance(value, dict):
        own = [value["reference"]] if isinstance(value.get("reference"), str) else []
        return own + [r for v in value.values() for r in references(v)]
    if isinstance(value, list):
        return [r for v in value for r in references(v)]
    return []


def check_references(bundles: list[tuple[Path, dict]]) -> None:
    """Each reference must name a resource in the same or an earlier file.

    HAPI enforces referential integrity on write (HAPI-1094), so a dangling
    reference would otherwise fail mid-load, after earlier files were stored.
    """
    known: set[str] = set()
    for path, data in bundles:
        resources = [e["resource"] for e in data.get("entry") or []]
        known.update(f"{r['resourceType']}/{r['id']}" for r in resources)
        for r in resources:
            for ref in references(r):
                if not _REF.match(ref) or ref not in known:
                    raise FixtureError(
                        f"{path.name}: {r['resourceType']}/{r['id']} refers to {ref!r}, "
                        "which is not a resource in this or an earlier fixture file"
                    )


def load_fixtures(base_url: str, directory: Path = FIXTURES_DIR,
                  session: requests.Session | None = None) -> dict[str, int]:
    """Validate every bundle, then POST each as a transaction; returns counts by type."""
    bundles = [(path, validate(path)) for path in bundle_files(directory)]
    if not bundles:
        raise FixtureError(f"{directory}: no fixture bundles (NN-name.json)")
    check_references(bundles)
    http = session or requests.Session()
    counts: Counter = Counter()
    try:
        for path, data in bundles:  # serially, in file order: later files reference earlier ones
            _post_transaction(http, base_url.rstrip("/"), path, data)
            counts.update(e["resource"]["resourceType"] for e in data["entry"])
    finally:
        if session is None:
            http.close()
    return dict(counts)


def _post_transaction(http: requests.Session, base_url: str, path: Path, data: dict) -> None:
    """POST one transaction Bundle to the server base (FHIR R4 §3.1.0.11 transaction)."""
    try:
        res = http.post(
            base_url,
            data=json.dumps(data),
            timeout=120,
            headers={"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"},
        )
    except requests.RequestException as exc:
        raise FixtureError(
            f"{path.name}: could not reach {base_url} ({exc.__class__.__name__})"
        ) from exc
    if res.status_code >= 400:
        raise FixtureError(f"{path.name}: server answered {res.status_code}: {res.text[:500]}")


def main(argv: list[str] | None = None) -> int:
    """``python -m launch.fixtures BASE_URL``: load the fixtures into a server."""
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 1:
        print("usage: python -m launch.fixtures FHIR_BASE_URL", file=sys.stderr)
        return 2
    try:
        counts = load_fixtures(args[0])
    except FixtureError as exc:
        print(f"fixtures not loaded: {exc}", file=sys.stderr)
        return 1
    print(", ".join(f"{n} {t}" for t, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
