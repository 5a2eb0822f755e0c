"""FHIR-side measurements: HAPI's own latency for one search (the floor under
any chart turn) and the chart prefetch, parallel vs sequential.

Both read the same scenario patients through the same code the app uses
(``FhirGateway`` / ``tools.chart.chart.fetch_chart``); only ``parallel=`` differs.
"""
from __future__ import annotations

import requests
from smart_docgemma.fhir import FhirGateway
from smart_docgemma.tools.chart.chart import SECTIONS, fetch_chart

from .stats import summary_ms, timed

PATIENTS = ("pt-ckd-elder", "pt-many-obs")


def hapi_search(fhir_base: str, n: int = 30) -> dict:
    """One Observation search (labs, newest first) over a plain keep-alive session."""
    url = f"{fhir_base}/Observation"
    params = {"patient": "pt-ckd-elder", "category": "laboratory", "_sort": "-date", "_count": 50}
    with requests.Session() as http:
        def search():
            res = http.get(url, params=params, headers={"Accept": "application/fhir+json"}, timeout=30)
            res.raise_for_status()
        return {**summary_ms(timed(search, n, warmup=2)), "query": "Observation?patient&category&_sort&_count=50"}


def prefetch(fhir_base: str, n: int = 12) -> tuple[dict, dict]:
    """``fetch_chart`` parallel vs sequential, alternating runs, per patient."""
    fhir = FhirGateway(fhir_base, None)
    parallel, sequential = {}, {}
    for patient in PATIENTS:
        fetch_chart(fhir, patient, parallel=True)  # warm HAPI's caches and the connection pool
        par, seq = [], []
        for _ in range(n):
            par.append(fetch_chart(fhir, patient, parallel=True).elapsed_ms / 1000)
            seq.append(fetch_chart(fhir, patient, parallel=False).elapsed_ms / 1000)
        parallel[patient], sequential[patient] = summary_ms(par), summary_ms(seq)
    searches = len(SECTIONS) + 1
    return ({**parallel["pt-ckd-elder"], "patient": "pt-ckd-elder", "requests": searches, "by_patient": parallel},
            {**sequential["pt-ckd-elder"], "patient": "pt-ckd-elder", "requests": searches, "by_patient": sequential})
