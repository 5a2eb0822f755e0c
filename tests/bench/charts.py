"""Real-size charts: the chart summary and one focused question on each Synthea patient.

Run: ``python -m tests.bench.charts --fhir http://127.0.0.1:8080/fhir [--n 30]
[--max-resources 6000]`` — loads the Synthea population (``launch.population``; cached
generation, idempotent PUTs) into that server, then times, per patient, the whole chart
summary (``tools.chart.chart.chart_summary``: fetch in parallel + summarise) and "last potassium?"
(``run_chart`` with ``focus=lab:Potassium``), end to end as the tool runs them. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import sys

from launch.population import load_population
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.chart import chart_summary, run_chart

from .stats import summary_ms, timed

BASELINE = "pt-ckd-elder"  # a scenario fixture of a few dozen resources, timed alongside


def bench(fhir_base: str, n: int = 30, max_resources: int = 6000) -> dict:
    from launch.fixtures import load_fixtures

    load_fixtures(fhir_base)
    population = load_population(fhir_base, max_resources=max_resources)
    fhir = FhirGateway(fhir_base, None)
    ctx = ToolContext(patient_id=None, scopes=None, fhir=fhir)
    rows = []
    for p in sorted(population.patients, key=lambda p: p.resources):
        ctx.patient_id = p.id
        ask = PatientChartArgs(patient_id=p.id, focus="lab:Potassium")
        rows.append(
            {
                "patient": p.id,
                "age": p.age(),
                "resources": p.resources,
                "summary_ms": summary_ms(timed(lambda: chart_summary(fhir, p.id), n, warmup=2)),
                "calls": chart_summary(fhir, p.id).data.calls,
                "last_potassium_ms": summary_ms(timed(lambda: run_chart(ask, ctx), n, warmup=2)),
                "last_potassium_calls": run_chart(ask, ctx).data.calls,
            }
        )
    baseline = {
        "patient": BASELINE,
        "summary_ms": summary_ms(timed(lambda: chart_summary(fhir, BASELINE), n, warmup=2)),
    }
    return {"fhir": fhir_base, "n": n, "patients": rows, "fixture_baseline": baseline}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.charts")
    p.add_argument("--fhir", required=True)
    p.add_argument("--n", type=int, default=30)
    p.add_argument("--max-resources", type=int, default=6000)
    args = p.parse_args(argv)
    print(json.dumps(bench(args.fhir, args.n, args.max_resources), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
