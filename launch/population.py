"""Load a generated Synthea population into a FHIR server, with stable ids.

Synthea's bundles create every resource with ``POST`` and refer to each other by
``urn:uuid:`` (the server would assign new ids on every load), and they refer to hospitals and
practitioners *conditionally* (``Practitioner?identifier=…|…``), which fails with HTTP 412 once a
server holds two matches. The loader rewrites each bundle before sending it:

- every entry becomes ``PUT Type/<uuid>`` (the uuid Synthea gave it), so a second load updates
  the same resources and the ids are the same on every machine for the same seed;
- ``urn:uuid:X`` references become ``Type/X``; conditional references become ``Type/<id>`` of
  the hospital or practitioner that carries that identifier (those bundles load first);
- billing and audit resources nothing in the app reads (``SKIPPED_TYPES``) are left out, which
  halves the load time; patients whose chart is larger than ``max_resources`` are not loaded
  (listed in ``skipped`` with their size).

A patient whose bundle's last resource is already on the server is not sent again (each bundle
is one transaction: all of it is there or none).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import requests

from launch.synthea import Generated, PopulationSpec, SyntheaUnavailable, generate

SKIPPED_TYPES = frozenset({"Claim", "ExplanationOfBenefit", "SupplyDelivery", "Provenance"})
# per patient, after SKIPPED_TYPES: keeps the sandbox's first start in budget (loading runs at
# ~50-120 resources/s on 2 cores); DOCGEMMA_SYNTHEA_MAX_RESOURCES=6000 adds the 101-year-old
MAX_RESOURCES = int(os.environ.get("DOCGEMMA_SYNTHEA_MAX_RESOURCES", 1500))
_BYTES_PER_RESOURCE = 2000  # Synthea writes ~2.7 kB per resource: larger files are not parsed
_HEADERS = {"Content-Type": "application/fhir+json", "Accept": "application/fhir+json"}


class PopulationError(RuntimeError):
    """A bundle could not be loaded; the message names the file and the server's answer."""


@dataclass(frozen=True)
class SyntheaPatient:
    """One loaded patient: id, name, sex, birth date, and where its bundle is."""

    id: str
    name: str
    gender: str
    birth_date: str
    deceased: str | None
    resources: int
    file: Path

    def age(self, today: date | None = None) -> int | None:
        try:
            born = date.fromisoformat(self.birth_date[:10])
        except ValueError:
            return None
        end = date.fromisoformat(self.deceased[:10]) if self.deceased else (today or date.today())
        return end.year - born.year - ((end.month, end.day) < (born.month, born.day))


@dataclass
class LoadedPopulation:
    """What ``load_population`` put on the server (``loaded`` new, the rest already there)."""

    spec: PopulationSpec
    patients: list[SyntheaPatient] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)
    loaded: int = 0
    generate_s: float = 0.0
    load_s: float = 0.0

    def patient(self, patient_id: str) -> SyntheaPatient:
        return next(p for p in self.patients if p.id == patient_id)


# ------------------------------------------------------------------ rewriting
def identifier_index(bundles: list[dict]) -> dict[str, str]:
    """``Type?identifier=system|value`` → ``Type/id`` for every resource in ``bundles``."""
    index = {}
    for bundle in bundles:
        for entry in bundle.get("entry") or []:
            res = entry["resource"]
            for ident in res.get("identifier") or []:
                key = f"{res['resourceType']}?identifier={ident.get('system')}|{ident.get('value')}"
                index[key] = f"{res['resourceType']}/{res['id']}"
    return index


def rewrite(bundle: dict, index: dict[str, str]) -> dict:
    """A transaction of ``PUT Type/id`` entries with literal references (see module doc)."""
    entries = [
        e for e in bundle.get("entry") or [] if e["resource"]["resourceType"] not in SKIPPED_TYPES
    ]
    urns = {
        e["fullUrl"]: f"{e['resource']['resourceType']}/{e['resource']['id']}"
        for e in entries
        if str(e.get("fullUrl", "")).startswith("urn:uuid:")
    }
    out = []
    for entry in entries:
        res = _relink(entry["resource"], {**index, **urns})
        out.append(
            {
                "fullUrl": f"{res['resourceType']}/{res['id']}",
                "resource": res,
                "request": {"method": "PUT", "url": f"{res['resourceType']}/{res['id']}"},
            }
        )
    return {"resourceType": "Bundle", "type": "transaction", "entry": out}


def _relink(value, targets: dict[str, str]):
    if isinstance(value, dict):
        out = {k: _relink(v, targets) for k, v in value.items()}
        ref = value.get("reference")
        if isinstance(ref, str) and ref in targets:
            out["reference"] = targets[ref]
        return out
    if isinstance(value, list):
        return [_relink(v, targets) for v in value]
    return value


# ------------------------------------------------------------------ loading
def load_population(
    base_url: str, generated: Generated | None = None, max_resources: int = MAX_RESOURCES,
    workers: int = 1,
) -> LoadedPopulation:
    """Generate (or reuse) the population and load it; shared bundles first. ``workers`` > 1
    sends that many patients' bundles at once (each its own transaction and session): the
    server's cores work side by side; what is loaded, and the order ``patients`` and
    ``skipped`` list it in, are those of one worker."""
    generated = generated or generate()
    started = time.monotonic()
    population = LoadedPopulation(generated.spec, generate_s=generated.seconds)
    shared = [json.loads(p.read_text()) for p in generated.shared_files]
    index = identifier_index(shared)
    with requests.Session() as http:
        for path, bundle in zip(generated.shared_files, shared, strict=False):
            # two populations share some hospitals but not all: the last one being there says
            # nothing of the others, so every id is counted (one search per type)
            _send(http, base_url, path, rewrite(bundle, index), population, present=_all_present)
    # the hospitals and practitioners the patients refer to are all there before any patient
    parts = _each_patient(generated.patient_files, workers, lambda path: _load_patient(
        base_url, path, index, max_resources, generated.spec))
    for part in parts:  # in the files' order, whatever order they were loaded in
        population.patients += part.patients
        population.skipped += part.skipped
        population.counts.update(part.counts)
        population.loaded += part.loaded
    population.load_s = time.monotonic() - started
    return population


def _each_patient(paths: list[Path], workers: int, load) -> list[LoadedPopulation]:
    """``load(path)`` of every patient file, ``workers`` at a time, results in ``paths`` order
    (the first error raised, as one worker raises it)."""
    if workers <= 1 or len(paths) <= 1:
        return [load(p) for p in paths]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(load, paths))


def _load_patient(
    base_url: str, path: Path, index: dict, max_resources: int, spec: PopulationSpec
) -> LoadedPopulation:
    """One patient's bundle sent (a session of its own: a worker thread may run it); what it
    loaded or skipped, as a population of one."""
    population = LoadedPopulation(spec)
    with requests.Session() as http:
        _load_patient_with(http, base_url, path, index, max_resources, population)
    return population


def _load_patient_with(
    http, base_url: str, path: Path, index: dict, max_resources: int, population: LoadedPopulation
) -> None:
    if path.stat().st_size > max_resources * _BYTES_PER_RESOURCE * 2:
        # not parsed: Synthea writes ~2.7 kB a resource, so the count said is an estimate
        population.skipped.append(
            f"{path.name.rsplit('_', 1)[0].replace('_', ' ')} "
            f"({path.stat().st_size // 1_000_000} MB bundle, about "
            f"{path.stat().st_size // 2700:,} resources > {max_resources:,})"
        )
        return
    bundle = json.loads(path.read_text())
    size = sum(
        e["resource"]["resourceType"] not in SKIPPED_TYPES for e in bundle.get("entry") or []
    )
    patient = next(
        e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Patient"
    )
    if size > max_resources:
        population.skipped.append(f"{_name(patient)} ({size} resources > {max_resources})")
        return
    tx = rewrite(bundle, index)
    _send(http, base_url, path, tx, population)
    population.patients.append(
        SyntheaPatient(
            id=patient["id"],
            name=_name(patient),
            gender=patient.get("gender", ""),
            birth_date=patient.get("birthDate", ""),
            deceased=patient.get("deceasedDateTime"),
            resources=size,
            file=path,
        )
    )


def _send(
    http, base_url: str, path: Path, tx: dict, population: LoadedPopulation, present=None
) -> None:
    population.counts.update(e["resource"]["resourceType"] for e in tx["entry"])
    if (present or _last_present)(http, base_url, tx["entry"]):
        return
    try:
        res = http.post(base_url.rstrip("/"), data=json.dumps(tx), headers=_HEADERS, timeout=600)
    except requests.RequestException as exc:
        raise PopulationError(
            f"{path.name}: could not reach {base_url} ({exc.__class__.__name__})"
        ) from exc
    if res.status_code >= 400:
        raise PopulationError(f"{path.name}: server answered {res.status_code}: {res.text[:500]}")
    population.loaded += len(tx["entry"])


def _last_present(http, base_url: str, entries: list[dict]) -> bool:
    return _present(http, base_url, entries[-1]["request"]["url"])


def _all_present(http, base_url: str, entries: list[dict]) -> bool:
    by_type: dict[str, list[str]] = {}
    for e in entries:
        by_type.setdefault(e["resource"]["resourceType"], []).append(e["resource"]["id"])
    for rtype, ids in by_type.items():
        for start in range(0, len(ids), 100):  # ~3.7 kB of ids per URL
            chunk = ids[start : start + 100]
            try:
                res = http.get(
                    f"{base_url.rstrip('/')}/{rtype}",
                    params={"_id": ",".join(chunk), "_summary": "count"},
                    headers=_HEADERS,
                    timeout=30,
                )
            except requests.RequestException:
                return False
            if res.status_code != 200 or res.json().get("total") != len(chunk):
                return False
    return True


def _present(http, base_url: str, ref: str) -> bool:
    try:
        return (
            http.get(f"{base_url.rstrip('/')}/{ref}", headers=_HEADERS, timeout=30).status_code
            == 200
        )
    except requests.RequestException:
        return False


def _name(patient: dict) -> str:
    name: dict = next(iter(patient.get("name") or []), {})
    return " ".join([*name.get("given", []), name.get("family", "")]).strip() or patient["id"]


def main(argv: list[str] | None = None) -> int:
    """``python -m launch.population FHIR_BASE_URL``: generate (once) and load the population."""
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 1:
        print("usage: python -m launch.population FHIR_BASE_URL", file=sys.stderr)
        return 2
    try:
        population = load_population(args[0])
    except (SyntheaUnavailable, PopulationError) as exc:
        print(f"population not loaded: {exc}", file=sys.stderr)
        return 1
    for p in population.patients:
        print(
            f"{p.id}  {p.name}, {p.age()} y {p.gender}{' (deceased)' if p.deceased else ''}, "
            f"{p.resources} resources"
        )
    print(
        f"generated in {population.generate_s:.0f} s, {population.loaded} resources loaded in "
        f"{population.load_s:.0f} s; skipped: {', '.join(population.skipped) or 'none'}"
    )
    if population.skipped:  # say why, and how to load them
        print(f"skipped: over the cap of {MAX_RESOURCES:,} resources a patient (billing and "
              "audit resources aside); DOCGEMMA_SYNTHEA_MAX_RESOURCES=<n> raises it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
