"""Where a chart summary's time goes, per Synthea patient (the population must be loaded).

Run: ``python -m tests.bench.chartprofile --fhir http://127.0.0.1:8080/fhir [--n 20]`` —
for each loaded Synthea patient (``launch.population``, no load is made here) and each chart
section (``tools.chart.chart.SECTIONS``) it times, one request at a time:

- ``hapi_ms``: until HAPI's response headers arrived (HAPI's search), with the headers the
  app's gateway sends (``fhir.ONE_PAGE``);
- ``body_ms``: reading the body after the headers, and ``parse_ms``: ``json.loads`` of it;
- ``kb``: the body's size;

then, for the whole chart, the parallel fetch (``fetch_chart``) against the sum of the
sections, and the summarising alone (``summarise`` of a fetched chart: records, text, sources).
Medians and p95 over ``n`` runs, in ms. Prints JSON.

``--ab``: instead, the whole chart summary (``chart_summary``) of the largest loaded chart and
of the fixture pt-ckd-elder with and without the one-page header, alternating request by
request in one process, so both see the same load: what the header is worth on a shared
machine, where runs minutes apart differ more than the change.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any
from urllib.parse import urlencode

import requests
from launch.population import load_population
from smart_docgemma import fhir as fhir_module
from smart_docgemma.fhir import ONE_PAGE, FhirGateway
from smart_docgemma.tools.chart.chart import SECTIONS, chart_summary, fetch_chart, summarise

from .stats import summary_ms, timed

HEADERS = {"Accept": "application/fhir+json", **ONE_PAGE}  # as the gateway sends a one-page search


def section_profile(session: requests.Session, base: str, patient: str,
                    rtype: str, params: dict[str, Any], n: int) -> dict[str, Any]:
    """HAPI time, body time, parse time and size of one section's search."""
    url = f"{base}/{rtype}?" + urlencode({"patient": patient, **params}, doseq=True)
    hapi, body, parse, size = [], [], [], 0
    for i in range(n + 1):
        started = time.perf_counter()
        res = session.get(url, headers=HEADERS, stream=True)
        headers_at = time.perf_counter()
        raw = res.content
        read_at = time.perf_counter()
        json.loads(raw)
        parsed_at = time.perf_counter()
        if i == 0:
            continue  # warm-up
        hapi.append(headers_at - started)
        body.append(read_at - headers_at)
        parse.append(parsed_at - read_at)
        size = len(raw)
    return {"hapi_ms": summary_ms(hapi), "body_ms": summary_ms(body)["p50"],
            "parse_ms": summary_ms(parse)["p50"], "kb": round(size / 1024, 1)}


def patient_profile(fhir: FhirGateway, base: str, patient: str, n: int) -> dict[str, Any]:
    session = requests.Session()
    sections = {key: section_profile(session, base, patient, rtype, params, n)
                for key, (rtype, params) in SECTIONS.items()}
    fetched = fetch_chart(fhir, patient)
    return {
        "sections": sections,
        "sum_of_sections_p50_ms": round(sum(s["hapi_ms"]["p50"] + s["body_ms"] + s["parse_ms"]
                                            for s in sections.values()), 1),
        "parallel_fetch_ms": summary_ms(timed(lambda: fetch_chart(fhir, patient), n)),
        "summarise_ms": summary_ms(timed(lambda: summarise(fetched, base), n)),
        "resources_read": sum(len(v) for v in fetched.sections.values()),
    }


def one_page_ab(fhir: FhirGateway, patient: str, n: int) -> dict[str, Any]:
    """``chart_summary`` with the one-page header and without, alternating (after 4 of each)."""
    saved, samples = dict(ONE_PAGE), {"no-store": [], "default": []}
    try:
        for i in range(n + 4):
            for mode in ("no-store", "default") if i % 2 else ("default", "no-store"):
                fhir_module.ONE_PAGE.clear()
                fhir_module.ONE_PAGE.update(saved if mode == "no-store" else {})
                started = time.perf_counter()
                chart_summary(fhir, patient)
                if i >= 4:
                    samples[mode].append(time.perf_counter() - started)
    finally:
        fhir_module.ONE_PAGE.clear()
        fhir_module.ONE_PAGE.update(saved)
    return {mode: summary_ms(values) for mode, values in samples.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.chartprofile")
    p.add_argument("--fhir", required=True)
    p.add_argument("--n", type=int, default=20)
    p.add_argument("--max-resources", type=int, default=1500)
    p.add_argument("--ab", action="store_true", help="one-page header A/B, interleaved")
    args = p.parse_args(argv)
    base = args.fhir.rstrip("/")
    population = load_population(base, max_resources=args.max_resources)
    fhir = FhirGateway(base, None)
    if args.ab:
        largest = max(population.patients, key=lambda p: p.resources)
        print(json.dumps({"fhir": base, "n": args.n, "load": os.getloadavg(),
                          largest.id: one_page_ab(fhir, largest.id, args.n),
                          "pt-ckd-elder": one_page_ab(fhir, "pt-ckd-elder", args.n)}, indent=1))
        return 0
    out = {p.id: {"resources": p.resources, **patient_profile(fhir, base, p.id, args.n)}
           for p in sorted(population.patients, key=lambda p: p.resources)}
    print(json.dumps({"fhir": base, "n": args.n, "patients": out}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
