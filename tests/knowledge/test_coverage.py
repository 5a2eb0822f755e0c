"""Coverage of the drug knowledge, measured and held: every RxNorm code Synthea can prescribe
(its modules, read from the Synthea jar), every code of a Synthea population of the project's
seed (42, 40 living patients) and every ingredient of the WHO Model List of Essential Medicines
(core list, ``tools/data/who_eml_core.yaml``) is identified and classified — FDA pharmacologic
class (``pharm_classes.json``) or a class of ``classes.yaml``. What is not is listed here; a test
fails when a list grows (a regression), and says when one shrinks (update the list)."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
import yaml
from launch.synthea import PopulationSpec, classpath, generate
from smart_docgemma import knowledge as k

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
EML = Path(k.__file__).parent.parent / "tools" / "data" / "who_eml_core.yaml"
# Synthea's placeholder code for an investigational drug (not an RxNorm concept)
UNIDENTIFIED_SYNTHEA = {"999999"}
# identified, in no FDA class of the 2019 NDC file nor a class of classes.yaml (measured 2026-11-27)
UNCLASSIFIED_SYNTHEA = {"abobotulinumtoxina", "ado-trastuzumab emtansine", "bictegravir", "botulinum toxins",
                        "epoetin alfa", "fosfomycin", "leronlimab", "norethynodrel", "pancrelipase", "remdesivir",
                        "sodium fluoride", "tacrine", "trihexyphenidyl", "vasopressins", "vitamin b 12", "zalcitabine"}
UNIDENTIFIED_EML = {"senna", "ferrous salt", "calamine", "urea", "ethanol", "oral rehydration salts",
                    "copper-containing device", "fluorescein", "oxytocin", "glucose", "water for injection", "iodine",
                    "nicotinamide", "retinol", "riboflavin", "thiamine"}


def classified(ingredient: str) -> bool:
    return bool(k.classes_of(ingredient) or k.pharmacologic(ingredient))


def _walk(node, out: dict[str, str]) -> None:
    if isinstance(node, dict):
        if node.get("system") == "RxNorm" and "code" in node:
            out[str(node["code"])] = node.get("display") or ""
        for v in node.values():
            _walk(v, out)
    elif isinstance(node, list):
        for v in node:
            _walk(v, out)


# Maven resolves the Synthea jar (a JVM) on a fresh machine, and the population test runs
# Synthea itself: both stay out of the fast loop.
@pytest.fixture(scope="module")
def synthea_codes() -> dict[str, str]:
    """Every RxNorm code (with its display) in the modules of the Synthea jar Maven resolved."""
    jar = next(p for p in classpath().split(":") if Path(p).name.startswith("synthea-"))
    codes: dict[str, str] = {}
    with zipfile.ZipFile(jar) as z:
        for name in z.namelist():
            if name.startswith("modules/") and name.endswith(".json"):
                _walk(json.loads(z.read(name)), codes)
    return codes


def gaps(codes: dict[str, str]) -> tuple[set[str], set[str]]:
    unidentified, unclassified = set(), set()
    for code, display in codes.items():
        ident = k.identify(concept={"coding": [{"system": RXNORM, "code": code, "display": display}]})
        if not ident.identified:
            unidentified.add(code)
        unclassified |= {n for n in ident.names if not classified(n)}
    return unidentified, unclassified


def test_every_code_synthea_prescribes_is_identified_and_classified(synthea_codes):
    unidentified, unclassified = gaps(synthea_codes)
    print(f"\nSynthea modules: {len(synthea_codes)} RxNorm codes, {len(unidentified)} unidentified "
          f"{sorted(unidentified)}, {len(unclassified)} ingredients unclassified {sorted(unclassified)}")
    assert len(synthea_codes) > 400
    assert unidentified <= UNIDENTIFIED_SYNTHEA, unidentified - UNIDENTIFIED_SYNTHEA
    assert unclassified <= UNCLASSIFIED_SYNTHEA, unclassified - UNCLASSIFIED_SYNTHEA


@pytest.mark.slow
def test_every_code_of_a_population_of_the_project_seed_is_identified_and_classified():
    population = generate(PopulationSpec(size=40, seed=42))
    codes: dict[str, str] = {}
    for path in population.patient_files:
        for entry in json.loads(path.read_text())["entry"]:
            resource = entry["resource"]
            if resource["resourceType"] == "MedicationRequest":
                for c in (resource.get("medicationCodeableConcept") or {}).get("coding", []):
                    codes[c["code"]] = c.get("display") or ""
    unidentified, unclassified = gaps(codes)
    print(f"\nSynthea seed 42, 40 patients: {len(codes)} RxNorm products, unidentified {sorted(unidentified)}, "
          f"unclassified {sorted(unclassified)}")
    assert not unidentified - UNIDENTIFIED_SYNTHEA and unclassified <= UNCLASSIFIED_SYNTHEA
    # packs once left unidentified are ingredients with RxNorm codes now
    for code in ("748856", "748879", "751905", "757594", "831533", "749762"):
        ident = k.identify(concept={"coding": [{"system": RXNORM, "code": code}]})
        assert ident.identified and all(i.rxcui for i in ident.ingredients), (code, ident)


def test_every_who_essential_medicine_is_identified_and_classified():
    eml = yaml.safe_load(EML.read_text())
    names = list(dict.fromkeys(p.strip() for items in eml["sections"].values() for it in items
                               for p in it.split("+")))
    unidentified = {n for n in names if not k.identify(text=n).identified}
    found = [i for n in names for i in k.identify(text=n).ingredients]
    unclassified = sorted({i.name for i in found if not classified(i.name)})
    uncoded = sorted({i.name for i in found if not i.rxcui})
    print(f"\nWHO EML core: {len(names)} medicines, unidentified {sorted(unidentified)}; "
          f"{len(unclassified)} ingredients unclassified {unclassified}; {len(uncoded)} without an RxNorm code")
    assert unidentified <= UNIDENTIFIED_EML, unidentified - UNIDENTIFIED_EML
    assert len(unclassified) <= 55 and len(uncoded) <= 107  # measured 2026-12-05 (111 on 11-27)
    for name in ("prasugrel", "ticagrelor"):
        assert k.identify(text=name).ingredients[0].rxcui
