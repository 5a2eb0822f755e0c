"""``docgemma-eval`` with the knowledge sources served from recorded real responses.

    FHIR_UPSTREAM_URL=http://127.0.0.1:8080/fhir python -m tests.bench.evaluation --code-only \
        [--out eval.json] [any other docgemma-eval option]

The figures of docs/evaluation-and-performance.md are measured this way, so a run needs no
network: the sources' base URLs (``DOCGEMMA_OPENFDA_URL`` …) point at the local recorded
server for this process. ``--fhir`` defaults to ``FHIR_UPSTREAM_URL`` when that is set.
After the per-category table it prints the tool accuracy of the case groups named in the docs
(the ``real-`` and ``hold2-`` cases, and the rest).
"""
from __future__ import annotations

import json
import os
import sys

from smart_docgemma.cli.evaluation import main as eval_main

from .knowledge import recorded_sources

GROUPS = ("real-", "hold2-")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--fhir" not in argv and os.environ.get("FHIR_UPSTREAM_URL"):
        argv += ["--fhir", os.environ["FHIR_UPSTREAM_URL"]]
    out = argv[argv.index("--out") + 1] if "--out" in argv else None
    with recorded_sources() as urls:
        os.environ.update({f"DOCGEMMA_{key}": url for key, url in urls.items()})
        code = eval_main(argv)
    if code == 0 and out:
        print(_groups(out))
    return code


def _groups(path: str) -> str:
    with open(path) as fh:
        results = json.load(fh)["results"]
    lines = []
    for prefix in GROUPS:
        rows = [r for r in results if r["id"].startswith(prefix)]
        lines.append(f"{prefix} cases, tools right: {sum(bool(r['tools_ok']) for r in rows)}/{len(rows)}")
    rest = [r for r in results if not r["id"].startswith(GROUPS)]
    lines.append(f"other cases, tools right: {sum(bool(r['tools_ok']) for r in rest)}/{len(rest)}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
