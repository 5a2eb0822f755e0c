"""Every message of every case set in which the reader of names no list holds
(``reading/unknown_words.unknown_names``) reads a name: its false refusals are the lines that
name no person. No HAPI, no model.

    PYTHONPATH=$PWD python -m tests.reading.names_no_list_holds [SKIP ...] > names.txt
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.unknown_words import unknown_names

EVALUATION = Path(__file__).parents[2] / "smart_docgemma" / "evaluation"


def set_files() -> list[Path]:
    return sorted([*EVALUATION.glob("reading/*.yaml"), EVALUATION / "cases.yaml",
                   *EVALUATION.glob("languages/**/*.yaml"),
                   *EVALUATION.glob("medagentbench*.yaml")])


def main(skip: list[str]) -> int:
    seen = 0
    for path in set_files():
        if any(s in path.name for s in skip):
            continue
        for case in yaml.safe_load(path.read_text()) or []:
            if not isinstance(case, dict) or "query" not in case:
                continue
            for text in [*case.get("before", []), case["query"]]:
                seen += 1
                drugs = {w for d in find_drugs(text) for w in d.surface.split()}
                names = unknown_names(text, drugs) if unknown_names(text) else []
                if names:
                    print(path.name, case["id"], case.get("route"), names, text, sep=" | ")
    print(f"{seen} messages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
