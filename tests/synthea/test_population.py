"""The Synthea population: generated once (cached), loaded with stable ids, listed by the sandbox."""

from __future__ import annotations

import json

import requests
from launch.population import SKIPPED_TYPES, identifier_index, load_population, rewrite
from launch.synthea import PopulationSpec, command, generate


def test_generation_is_cached_and_keyed_by_seed_size_and_pinned_dates(synthea):
    again = generate(synthea.spec)
    assert again.seconds == 0.0 and again.directory.name == "fhir"  # the cache, not a new run
    assert synthea.spec.key in str(again.directory)
    cmd = command(PopulationSpec(size=3, seed=7), again.directory, "cp")
    assert cmd[cmd.index("-s") + 1] == "7" and cmd[cmd.index("-cs") + 1] == "7"
    assert cmd[cmd.index("-p") + 1] == "3"
    # the simulation's "today" and the day its lives stop: both pinned, whatever today is
    assert cmd[cmd.index("-r") + 1] == cmd[cmd.index("-e") + 1] == synthea.spec.reference_date


def test_rewrite_makes_every_entry_a_put_with_literal_references(synthea):
    generated = generate(synthea.spec)
    shared = [json.loads(p.read_text()) for p in generated.shared_files]
    index = identifier_index(shared)
    bundle = json.loads(synthea.patients[0].file.read_text())
    tx = rewrite(bundle, index)
    known = {e["request"]["url"] for e in tx["entry"]} | set(index.values())
    refs = _refs(tx)
    assert tx["type"] == "transaction" and all(e["request"]["method"] == "PUT" for e in tx["entry"])
    assert not {e["resource"]["resourceType"] for e in tx["entry"]} & SKIPPED_TYPES
    assert refs and all(r in known for r in refs)  # no urn:uuid, no conditional reference left


def _refs(value) -> list[str]:
    if isinstance(value, dict):
        own = [value["reference"]] if isinstance(value.get("reference"), str) else []
        return own + [r for v in value.values() for r in _refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in _refs(v)]
    return []


def test_patients_have_stable_ids_and_a_second_load_sends_nothing(fhir_base, synthea):
    assert len(synthea.patients) >= 4
    for patient in synthea.patients:
        assert patient.file.name.endswith(f"_{patient.id}.json")  # Synthea's own uuid is the id
        res = requests.get(f"{fhir_base}/Patient/{patient.id}", timeout=30)
        assert res.status_code == 200 and res.json()["birthDate"] == patient.birth_date
    assert {p.age() is not None for p in synthea.patients} == {True}
    assert len({p.gender for p in synthea.patients}) == 2  # both sexes, ages from teens to 60s
    assert min(p.age() for p in synthea.patients) < 18 < 60 < max(p.age() for p in synthea.patients)
    again = load_population(fhir_base)
    assert again.loaded == 0 and [p.id for p in again.patients] == [p.id for p in synthea.patients]


def test_launcher_lists_synthea_patients_with_age_sex_and_main_problems(sandbox, synthea):
    page = requests.get(f"{sandbox.url}/", timeout=30).text
    elder = max(synthea.patients, key=lambda p: p.age())
    listed = {p["id"]: p for p in sandbox.app.extensions["sandbox"].upstream.list_patients()}
    entry = listed[elder.id]
    assert entry["age"] == elder.age() and entry["gender"] == elder.gender
    assert entry["problems"] and not any(
        "(finding)" in p or "employment" in p.lower() for p in entry["problems"]
    )
    assert elder.id in page and entry["problems"][0] in page


def test_patients_sent_by_several_workers_are_listed_in_the_files_order():
    import time
    from pathlib import Path

    from launch.population import _each_patient

    paths = [Path(f"p{n}.json") for n in range(6)]

    def load(path):  # the first files finish last
        time.sleep(0.01 * (6 - int(path.stem[1:])))
        return path.stem

    assert _each_patient(paths, 3, load) == [p.stem for p in paths]
    assert _each_patient(paths, 1, load) == [p.stem for p in paths]
