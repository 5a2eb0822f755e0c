"""The MedAgentBench-style ward set with a scripted model: the oracle server of
``tests/bench/oracle.py`` routing as the case expects, and answering with the tool results its
prompt carried (``Restating``), so the figures show whether the right tools ran, the right values
reached the model and the right writes reached FHIR once approved.

    FHIR_UPSTREAM_URL=http://127.0.0.1:8080/fhir python -m tests.bench.medagentbench [--out mab.json]

(the Synthea population of seed 42 and the fixtures loaded). The code-only figures come from
``python -m smart_docgemma.evaluation --code-only … --cases smart_docgemma/evaluation/medagentbench.yaml``.
"""
from __future__ import annotations

import argparse
import json
import os

from smart_docgemma.evaluation import evaluate, load_cases, markdown
from smart_docgemma.evaluation.cases import CASES_FILE

from tests.bench.oracle import OracleModelServer

CASES = CASES_FILE.with_name("medagentbench.yaml")


class Restating(OracleModelServer):
    """The oracle's routing, and an answer that restates the tool results the prompt carried."""

    def answer(self, case, name, body, schema):
        if name != "":
            return super().answer(case, name, body, schema)
        return json.dumps(body.get("messages", [])[-1].get("content", ""))[1:-1].replace("\\n", "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.medagentbench")
    p.add_argument("--fhir", default=os.environ.get("FHIR_UPSTREAM_URL", "http://127.0.0.1:8080/fhir"))
    p.add_argument("--out")
    args = p.parse_args(argv)
    cases = load_cases(CASES)
    with Restating(cases) as srv:
        report = evaluate(cases, endpoint=srv.url, fhir_base=args.fhir, config={"SCHEMA_DIALECT": "json_schema"})
    print(markdown(report))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(report, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
