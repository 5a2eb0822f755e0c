"""What a Synthea patient's chart says, computed from the raw bundle (not by the app's code),
and the evaluation cases built on it.

``python -m tests.support.synthea_truth`` writes ``smart_docgemma/evaluation/synthea_cases.yaml``
(seed 42, the population the rules were tuned on); with
``--population 7:5 --population 8:3:65-95`` it writes ``synthea_unseen_cases.yaml`` (patients
never seen while tuning). For each patient the loader puts on the server, the same chart
questions in five phrasing sets (``PHRASINGS``; which were tuned on is in ``SPLITS``), each with
the text a right answer must contain (the latest value and its date, the active medication
names, the allergy).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

_EVALUATION = Path(__file__).resolve().parents[2] / "smart_docgemma" / "evaluation"
CASES_FILE = _EVALUATION / "synthea_cases.yaml"
# the same questions on populations of other seeds, patients never seen while tuning: seed 7
# (all ages) and seed 8 aged 65-95 (drug answers with age and kidney context); SEED:SIZE[:AGES]
UNSEEN_CASES_FILE = _EVALUATION / "synthea_unseen_cases.yaml"
UNSEEN_POPULATIONS = ("7:5", "8:3:65-95")
ELDERLY_UNSEEN = UNSEEN_POPULATIONS[1]  # the one the default test run generates (~20 s, cached)
_TAG = re.compile(r"\s*\([a-z /]+\)\s*$")
SOCIAL = re.compile(
    r"employment|labor force|education|criminal|stress|social contact|violence|"
    r"intimate partner|housing|received certificate|medication review due|refugee|"
    r"misuses drugs|unhealthy alcohol|served in armed forces|risk activity",
    re.I,
)
LOINC = {
    "potassium": {"2823-3", "6298-4"},
    "egfr": {"33914-3", "62238-1", "98979-8", "48643-1", "48642-3", "69405-9"},
    "hba1c": {"4548-4", "17856-6"},
    "creatinine": {"2160-0", "38483-4"},
    "sodium": {"2951-2", "2947-0"},
}


def _code(cc: dict | None) -> str:
    return next((c.get("code") for c in (cc or {}).get("coding") or [] if c.get("code")), "")


def _text(cc: dict | None) -> str:
    cc = cc or {}
    return cc.get("text") or next((c.get("display") for c in cc.get("coding") or []), "") or ""


def _num(value) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


@dataclass
class Truth:
    """The facts the cases check, from one patient's bundle."""

    id: str
    name: str
    gender: str
    active_meds: list[str] = field(default_factory=list)
    stopped_only_meds: list[str] = field(default_factory=list)
    allergies: list[str] = field(default_factory=list)
    latest: dict[str, tuple[str, str]] = field(default_factory=dict)  # lab -> (value, date)
    bp: tuple[str, str] | None = None  # ("120/80", date)
    newest_disorder: str | None = None
    newest_vaccine: tuple[str, str] | None = None
    latest_encounter: str | None = None


def truth(path: Path) -> Truth:
    resources = [e["resource"] for e in json.loads(path.read_text())["entry"]]
    by: dict[str, list[dict]] = {}
    for r in resources:
        by.setdefault(r["resourceType"], []).append(r)
    patient = by["Patient"][0]
    name = next(iter(patient.get("name") or []), {})
    t = Truth(
        patient["id"],
        " ".join([*name.get("given", []), name.get("family", "")]),
        patient.get("gender", ""),
    )
    meds = by.get("MedicationRequest", [])
    active = {
        _text(m.get("medicationCodeableConcept")) for m in meds if m.get("status") == "active"
    }
    t.active_meds = sorted(a for a in active if a)
    t.stopped_only_meds = sorted(
        {_text(m.get("medicationCodeableConcept")) for m in meds} - active - {""}
    )
    t.allergies = [
        _TAG.sub("", _text(a.get("code")))
        for a in by.get("AllergyIntolerance", [])
        if _code(a.get("clinicalStatus")) == "active"
    ]
    _observations(t, by.get("Observation", []))
    disorders = [
        c
        for c in by.get("Condition", [])
        if _code(c.get("clinicalStatus")) == "active"
        and not SOCIAL.search(_text(c.get("code")))
        and not re.search(r"\((finding|situation)\)$", _text(c.get("code")))
    ]
    if disorders:
        newest = max(disorders, key=lambda c: c.get("onsetDateTime", ""))
        t.newest_disorder = _TAG.sub("", _text(newest.get("code")))
    shots = by.get("Immunization", [])
    if shots:
        s = max(shots, key=lambda i: i.get("occurrenceDateTime", ""))
        t.newest_vaccine = (_text(s.get("vaccineCode")), s["occurrenceDateTime"][:10])
    encounters = by.get("Encounter", [])
    if encounters:
        t.latest_encounter = max(e["period"]["start"] for e in encounters)[:10]
    return t


def _observations(t: Truth, observations: list[dict]) -> None:
    for lab, codes in LOINC.items():
        hits = [o for o in observations if _code(o.get("code")) in codes and "valueQuantity" in o]
        if hits:
            o = max(hits, key=lambda o: o.get("effectiveDateTime", ""))
            t.latest[lab] = (_num(o["valueQuantity"]["value"]), o["effectiveDateTime"][:10])
    panels = [o for o in observations if _code(o.get("code")) == "85354-9"]
    if panels:
        o = max(panels, key=lambda o: o.get("effectiveDateTime", ""))
        parts = {
            _code(c.get("code")): _num(c["valueQuantity"]["value"])
            for c in o.get("component") or []
        }
        t.bp = (f"{parts.get('8480-6')}/{parts.get('8462-4')}", o["effectiveDateTime"][:10])


# ------------------------------------------------------------------ cases
TUNED = {
    "summary": "summarise this patient",
    "meds": "what are {her} active medications?",
    "potassium": "last potassium?",
    "egfr": "what is {her} eGFR trend",
    "bp": "BP today?",
    "allergies": "any allergies?",
    "problems": "problem list please",
    "interactions": "any drug interactions in {her} current meds?",
    "hba1c": "when was {her} last HbA1c",
    "immunizations": "immunisations?",
    "admissions": "recent admissions?",
    "creatinine": "latest creatinine",
}
HOLDOUT = {  # written with TUNED, before any run; its first run is the holdout figure in the docs
    "summary": "give me an overview of this patient's chart",
    "meds": "current meds?",
    "potassium": "what was the most recent k+",
    "egfr": "how is {her} renal function trending",
    "bp": "what's {her} blood pressure",
    "allergies": "is {she} allergic to anything?",
    "problems": "what conditions does {she} have",
    "interactions": "check {her} medication list for interactions",
    "hba1c": "latest a1c?",
    "immunizations": "which vaccines has {she} had",
    "admissions": "has {she} been admitted recently",
    "creatinine": "most recent creatinine result",
}


# Written after the first run (HOLDOUT scored 67 % routes, 58 % answers there, then became tuning
# material) and before any rule was changed for it; never tuned on.
HOLDOUT2 = {
    "summary": "quick rundown of this patient please",
    "meds": "what is {she} taking at the moment?",
    "potassium": "{her} k level?",
    "egfr": "is {her} kidney function getting worse",
    "bp": "latest blood pressure reading",
    "allergies": "does {she} have any known allergies",
    "problems": "what's on {her} problem list",
    "interactions": "do any of {her} current medications interact",
    "hba1c": "what was {her} most recent HbA1c result",
    "immunizations": "is {she} up to date with {her} vaccinations",
    "admissions": "any hospital admissions this year?",
    "creatinine": "{her} creatinine please",
}


# HOLDOUT2 and HOLDOUT3 were written before the round that tuned on them (their first runs are
# the holdout figures in docs/synthea-and-charts.md); HOLDOUT4 after it, never tuned on.
HOLDOUT3 = yaml.safe_load((Path(__file__).with_name("synthea_holdout3.yaml")).read_text())
HOLDOUT4 = yaml.safe_load((Path(__file__).with_name("synthea_holdout4.yaml")).read_text())
PHRASINGS = (("t", TUNED), ("h", HOLDOUT), ("h2", HOLDOUT2), ("h3", HOLDOUT3), ("h4", HOLDOUT4))
SPLITS = {"t": "tuned", "h": "tuned", "h2": "tuned", "h3": "tuned", "h4": "holdout"}


def expectations(t: Truth, key: str) -> tuple[list[str], list[str]]:
    """(answer_contains, answer_excludes) for one question on one patient."""
    lab = {"potassium": "Potassium", "egfr": "eGFR", "hba1c": "HbA1c", "creatinine": "Creatinine"}
    if key in lab:
        hit = t.latest.get(key)
        return ([hit[0], hit[1]] if hit else [f"No {lab[key]} result"]), []
    if key == "meds":
        return (t.active_meds or ["none recorded"]), t.stopped_only_meds[:2]
    if key == "allergies":
        return (t.allergies or ["none recorded"]), []
    if key == "bp":
        return ([t.bp[0], t.bp[1]] if t.bp else ["No blood pressure"]), []
    if key in ("problems", "summary"):
        return [x for x in (t.name.split()[0], t.newest_disorder) if x], []
    if key == "immunizations":
        return (list(t.newest_vaccine) if t.newest_vaccine else ["none recorded"]), []
    if key == "admissions":
        return [t.latest_encounter] if t.latest_encounter else ["No encounters"], []
    if key == "interactions":
        if len(t.active_meds) < 2:
            return ["no pair to check"], []
        return ["active medications", "pairs checked"], []
    raise KeyError(key)


def cases(truths: list[Truth], unseen: bool = False) -> list[dict]:
    """Every phrasing set on every patient; on an ``unseen`` population every case is holdout."""
    out = []
    for t in truths:
        pron = {"her": "her", "she": "she"} if t.gender == "female" else {"her": "his", "she": "he"}
        for tag, phrasings in PHRASINGS:
            split = "holdout" if unseen else SPLITS[tag]
            for key, text in phrasings.items():
                contains, excludes = expectations(t, key)
                case = {
                    "id": f"syn-{tag}-{key}-{t.id[:8]}",
                    "category": "single_tool",
                    "route": "tool",
                    "tools": ["get_patient_chart"],
                    "query": text.format(**pron),
                    "patient": t.id,
                    "split": split,
                    "answer_contains": contains,
                }
                if excludes:
                    case["answer_excludes"] = excludes
                out.append(case)
    return out


def loaded_truths(spec) -> list[Truth]:
    """The truths of the patients the loader puts on a server (charts ≤ MAX_RESOURCES)."""
    from launch.population import MAX_RESOURCES, SKIPPED_TYPES
    from launch.synthea import generate

    truths = []
    for path in generate(spec).patient_files:
        entries = json.loads(path.read_text())["entry"]
        if (
            sum(e["resource"]["resourceType"] not in SKIPPED_TYPES for e in entries)
            <= MAX_RESOURCES
        ):
            truths.append(truth(path))
    return truths


def spec_of(text: str):
    """``SEED:SIZE[:AGES]`` ("8:3:65-95") as a PopulationSpec."""
    from launch.synthea import PopulationSpec

    return PopulationSpec.parse(text)


def main(argv: list[str] | None = None) -> int:
    """Write the case file of one or more populations (any seed but 42 writes the unseen set)."""
    import argparse

    from launch.synthea import DEFAULT_SEED, DEFAULT_SIZE

    p = argparse.ArgumentParser(prog="python -m tests.support.synthea_truth")
    p.add_argument("--population", action="append", metavar="SEED:SIZE[:AGES]",
                   help=f"repeatable; default {DEFAULT_SEED}:{DEFAULT_SIZE}")
    p.add_argument("--out", type=Path, help="default: synthea_cases.yaml, or the unseen file")
    args = p.parse_args(argv)
    specs = [spec_of(t) for t in args.population or [f"{DEFAULT_SEED}:{DEFAULT_SIZE}"]]
    unseen = any(s.seed != DEFAULT_SEED for s in specs)
    out = args.out or (UNSEEN_CASES_FILE if unseen else CASES_FILE)
    truths = [t for spec in specs for t in loaded_truths(spec)]
    made = "".join(f" --population {t}" for t in args.population or [])
    header = (
        f"# Chart questions on Synthea populations ({', '.join(s.key for s in specs)}),\n"
        f"# generated by `python -m tests.support.synthea_truth{made}` from the bundles:\n"
        "# expected texts are the latest values and dates, the active medications, the allergies\n"
        "# as the bundles hold them."
        + (
            "\n# Split holdout: seeds the rules were not written on; phrasing sets h3 and h4 were\n"
            "# tuned on after their first run here (docs/synthea-and-charts.md).\n"
            if unseen
            else "\n"
        )
        + f"# Run: docgemma-eval --code-only --synthea {' '.join(args.population or [])}"
        f"{' ' if args.population else ''}--cases smart_docgemma/evaluation/{out.name}\n"
    )
    dumper = type("NoAliases", (yaml.SafeDumper,), {"ignore_aliases": lambda self, data: True})
    text = yaml.dump(
        cases(truths, unseen),
        Dumper=dumper,
        sort_keys=False,
        allow_unicode=True,
        width=200,
        default_flow_style=None,
    )
    out.write_text(header + text)
    print(f"{out}: {len(truths)} patients, {len(text.split(chr(10) + '- id')) } cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
