"""How many common drug names get an RxNorm ingredient code on a card, offline.

    python -m smart_docgemma.knowledge.code_coverage [--split tuned|holdout|all] [-v]

Reads ``evaluation/drug_names_common.yaml`` (WHO EML core and common ward names, half holdout).
A name is coded when the knowledge core names its ingredients and every one of them has an RxNorm
ingredient code in the shipped tables (``rxnorm.yaml``, then the interaction data's mapping);
a name whose ingredients are named but not all coded is "uncoded"; one the core cannot name is
"unnamed". Prints the three counts and the names in the last two.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml
from . import vocabulary
from .identity import identify

LIST = Path(__file__).parent.parent / "evaluation" / "drug_names_common.yaml"


@dataclass(frozen=True)
class Coded:
    name: str
    split: str
    ingredients: tuple[str, ...]
    codes: tuple[str | None, ...]

    @property
    def status(self) -> str:
        if not self.ingredients:
            return "unnamed"
        return "coded" if all(self.codes) else "uncoded"


def names(path: Path = LIST) -> list[tuple[str, str]]:
    data: dict[str, Any] = safe_yaml(path.read_text())
    return [(str(row["name"]), str(row["split"])) for row in data["names"]]


def coded(name: str, split: str = "all") -> Coded:
    ident = identify(text=name.replace("/", " / "))
    ings = tuple(i.name for i in ident.ingredients) if ident.identified else ()
    return Coded(name, split, ings, tuple(vocabulary.rxcui(i) for i in ings))


def report(split: str = "all", verbose: bool = False) -> dict[str, Any]:
    rows = [coded(n, s) for n, s in names() if split in ("all", s)]
    out: dict[str, Any] = {"split": split, "names": len(rows)}
    for status in ("coded", "uncoded", "unnamed"):
        out[status] = sum(r.status == status for r in rows)
    out["coded_percent"] = round(100 * out["coded"] / max(len(rows), 1), 1)
    if verbose:
        out["uncoded_names"] = [f"{r.name} ({', '.join(r.ingredients)})" for r in rows
                                if r.status == "uncoded"]
        out["unnamed_names"] = [r.name for r in rows if r.status == "unnamed"]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tuned", "holdout", "all"), default="all")
    parser.add_argument("-v", action="store_true", help="list the names not coded")
    args = parser.parse_args(argv)
    for key, value in report(args.split, args.v).items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
