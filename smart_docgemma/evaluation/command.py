"""``docgemma-eval`` and ``python -m smart_docgemma.evaluation``: the case set against a live
OpenAI-compatible server.

    docgemma-eval --endpoint http://localhost:8000/v1 | --code-only [--model NAME] [--fhir URL]
                  [--cases FILE] [--only ID_OR_CATEGORY ...] [--out report.json]
    docgemma-eval --stored [--period day|week] [--cases FILE] [--out report.json]

``--stored`` scores the app's own stored turns instead (the database of the
app's configuration, ``DOCGEMMA_DATABASE_URL`` or the instance folder): the
questions that match a case, second looks, ratings and decisions per period,
and drift between the last two periods.

Without ``--fhir`` it starts HAPI FHIR the way the tests do
(``launch.upstream``: ``FHIR_UPSTREAM_URL``, Docker, or the local Java build)
and stops it afterwards; the scenario fixtures are loaded either way
(idempotent PUTs). Knowledge sources come from the app configuration
(``DOCGEMMA_OPENFDA_URL`` … default: the public APIs). Prints a Markdown table
per category and writes the full JSON report with ``--out``.
"""
from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from dataclasses import asdict

import yaml

from ..checkout import require
from .cases import load_cases
from .harness import evaluate
from .report import markdown, passed


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="docgemma-eval", description=__doc__.split("\n\n")[0])
    p.add_argument("--endpoint", help="OpenAI-compatible base URL (…/v1); required unless --stored")
    p.add_argument(
        "--code-only",
        action="store_true",
        help="no model: the agent's degraded mode, routing and arguments from code alone",
    )
    p.add_argument(
        "--stored", action="store_true", help="score the app's stored turns (no model, no FHIR)"
    )
    p.add_argument(
        "--period", choices=("day", "week"), default="week", help="with --stored: the drift period"
    )
    p.add_argument(
        "--model", help="model name served (default: DOCGEMMA_MODEL or MedGemma 1.5 4B IT)"
    )
    p.add_argument("--fhir", help="FHIR R4 base URL (default: start HAPI via launch.upstream)")
    p.add_argument("--cases", help="case file (YAML/JSON list; default: the bundled cases.yaml)")
    p.add_argument("--only", nargs="*", default=[], help="case ids, categories or tasks to run")
    p.add_argument("--dialect", choices=("auto", "json_schema", "json_object_schema"),
                   help="structured-output dialect (default: DOCGEMMA_SCHEMA_DIALECT or auto)")
    p.add_argument("--out", help="write the JSON report here")
    p.add_argument("--no-fixtures", action="store_true", help="do not (re)load fhir_fixtures/")
    p.add_argument("--keep-writes", action="store_true",
                   help="keep what approved proposals wrote and the results cases placed "
                        "(default: deleted once scored, and at the end of the run)")
    p.add_argument(
        "--synthea",
        nargs="*",
        metavar="SEED:SIZE[:AGES]",
        help="also load Synthea populations (launch.population): the default one "
        "(DOCGEMMA_SYNTHEA_*) without values, e.g. 7:5 8:3:65-95 for the unseen cases",
    )
    args = p.parse_args(argv)
    if not args.stored and not args.endpoint and not args.code_only:
        p.error(
            "--endpoint is required (or --code-only, or --stored to score the app's stored turns)"
        )
    return args


def _fhir(stack: ExitStack, args) -> str:
    base = args.fhir
    if base and args.no_fixtures and args.synthea is None:
        return base
    require("docgemma-eval")  # HAPI and the scenario patients come from the checkout
    from launch.fixtures import load_fixtures
    from launch.upstream import start_upstream

    if not base:
        upstream = start_upstream(port=0)
        stack.callback(upstream.stop)
        base = upstream.base_url
    if not args.no_fixtures:
        load_fixtures(base)
    if args.synthea is not None:
        from launch.population import load_population
        from launch.synthea import PopulationSpec, generate

        for spec in [PopulationSpec.parse(t) for t in args.synthea] or [None]:
            load_population(base, generate(spec))
    return base


def main(argv: list[str] | None = None, config: dict | None = None) -> int:
    args = parse_args(argv)
    try:
        cases = load_cases(args.cases)
    # a case file the contract refuses: say why, no traceback
    except (OSError, ValueError, yaml.YAMLError) as exc:
        print(f"docgemma-eval: {exc}", file=sys.stderr)
        return 2
    if args.stored:
        return _stored(args, cases, config)
    if args.only:
        cases = [
            c for c in cases if c.id in args.only or c.category in args.only or c.task in args.only
        ]
    if not cases:
        print("docgemma-eval: no cases selected", file=sys.stderr)
        return 2
    config = {"SCHEMA_DIALECT": args.dialect} if args.dialect else {}
    with ExitStack() as stack:
        fhir = _fhir(stack, args)
        report = evaluate(
            cases,
            endpoint="" if args.code_only else args.endpoint,
            fhir_base=fhir,
            model=args.model,
            config=config,
            progress=_progress,
            keep_writes=args.keep_writes,
        )
    print()
    print(markdown(report))
    print(
        f"\n{len(cases)} cases in {report['seconds']:.1f} s "
        f"against {report['endpoint']} ({report['model']})"
    )
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(report, fh, indent=2)
    return 0


def _stored(args, cases, config: dict | None) -> int:
    from .. import create_app
    from ..extensions import get_storage
    from .stored import markdown_periods, stored_report

    report = stored_report(get_storage(create_app(config)), cases, period=args.period)
    print(markdown_periods(report))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(report, fh, indent=2)
    return 0


def _progress(result) -> None:
    mark = "ok " if passed(asdict(result)) else "BAD"
    wrong = "; ".join(result.answer_missing + result.writes_wrong)
    print(
        f"{mark} {result.id:<14} route {result.route:<8} tools {','.join(result.tools) or '-':<45} "
        f"calls {result.model_calls}  {result.seconds:.2f} s"
        + (f"  [{wrong[:300]}]" if wrong else ""),
        file=sys.stderr,
    )

