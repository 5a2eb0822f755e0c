"""``python -m smart_docgemma.evaluation.multistep [--fhir URL] [--split S] [--family F]
[--tasks FILE ...] [--out FILE]``: the multi-step tasks run without a model (degraded mode,
unless ``--endpoint``), approved, and graded against FHIR; prints a line per task and the
figures, writes the whole report as JSON with ``--out``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .run import TaskResult, evaluate, summarise
from .tasks import load_tasks


def _line(r: TaskResult) -> None:
    mark = "PASS" if r.complete else "fail"
    failed = "; ".join(f"{c.name}: {', '.join(c.detail)[:160]}" for c in r.checkpoints if not c.ok)
    print(
        f"{mark} {r.id:32} {r.passed}/{len(r.checkpoints)} {r.seconds:6.1f}s {r.error or failed}"[
            :400
        ],
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m smart_docgemma.evaluation.multistep")
    ap.add_argument(
        "--fhir", default=os.environ.get("FHIR_UPSTREAM_URL", "http://127.0.0.1:8080/fhir")
    )
    ap.add_argument("--endpoint", default="", help="a model server (default: none, degraded mode)")
    ap.add_argument("--tasks", nargs="*", type=Path, help="task files (default: every family's)")
    ap.add_argument("--split", choices=("tuned", "holdout"))
    ap.add_argument("--family", action="append", help="only these families (repeatable)")
    ap.add_argument("--id", action="append", help="only these task ids (repeatable)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    tasks = [
        t
        for t in load_tasks(args.tasks)
        if (not args.split or t.split == args.split)
        and (not args.family or t.family in args.family)
        and (not args.id or t.id in args.id)
    ]
    report = summarise(evaluate(tasks, args.fhir, args.endpoint, progress=_line))
    for key, fig in report.items():
        if key != "results":
            print(
                f"{key:40} tasks {fig['complete']}/{fig['tasks']}  "
                f"checkpoints {fig['passed']}/{fig['checkpoints']}"
            )
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
