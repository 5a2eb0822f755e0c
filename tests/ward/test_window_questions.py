"""Window questions in four languages, read as the chat reads them without a model
(``planning.chart_args``) and answered from typed chart data: a threshold answered with each value
past it and its time (or none, with how many were read and the latest), a true mean with its
count in the unit asked, blood pressure as a mean systolic/diastolic, nothing in the window said
with the latest before it. The cases (``cases/window_questions.yaml``) were written before the
answers were first run; the holdout split was never tuned on."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml
from smart_docgemma.agent import ward_requests
from smart_docgemma.agent.extraction import asks_chart, read
from smart_docgemma.agent.planning import chart_args
from smart_docgemma.languages import answering
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.args import PatientChartArgs
from smart_docgemma.tools.chart import answers
from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient
from smart_docgemma.tools.words.windows import Aggregate, Asked, Threshold, asked

FILE = yaml.safe_load((Path(__file__).parent / "cases" / "window_questions.yaml").read_text())
CASES, ZONE = FILE["cases"], ZoneInfo("America/New_York")
NOW = datetime.fromisoformat(FILE["now"]).replace(tzinfo=ZONE)


@dataclass(frozen=True)
class Result:
    """One result placed ``hours_ago`` before now: a LOINC code, a value and its unit."""

    loinc: str
    value: float
    unit: str
    hours_ago: float


@dataclass(frozen=True)
class Pressure:
    systolic: float
    diastolic: float
    hours_ago: float


GLUCOSE, POTASSIUM, TEMPERATURE, SATURATION = "2339-0", "2823-3", "8310-5", "59408-5"
CHARTS: dict[str, list[Result] | list[Pressure]] = {
    "glucose_low": [Result(GLUCOSE, 3.2, "mmol/L", 4), Result(GLUCOSE, 5.6, "mmol/L", 20),
                    Result(GLUCOSE, 7.1, "mmol/L", 30), Result(GLUCOSE, 4.8, "mmol/L", 60)],
    "glucose_ok": [Result(GLUCOSE, 5.1, "mmol/L", 2), Result(GLUCOSE, 6.0, "mmol/L", 26),
                   Result(GLUCOSE, 3.0, "mmol/L", 80)],
    "glucose_old": [Result(GLUCOSE, 5.5, "mmol/L", 100)],
    "potassium": [Result(POTASSIUM, 4.1, "mmol/L", 5), Result(POTASSIUM, 5.8, "mmol/L", 30),
                  Result(POTASSIUM, 4.6, "mmol/L", 50), Result(POTASSIUM, 3.9, "mmol/L", 100)],
    "bp": [Pressure(140, 90, 3), Pressure(150, 95, 30), Pressure(130, 80, 100),
           Pressure(170, 100, 200)],
    # vital signs charted as a series (Synthea's units: "Cel", "%")
    "temperature": [Result(TEMPERATURE, 38.4, "Cel", 6), Result(TEMPERATURE, 37.1, "Cel", 20),
                    Result(TEMPERATURE, 38.9, "Cel", 50), Result(TEMPERATURE, 38.6, "Cel", 90)],
    "saturation": [Result(SATURATION, 95, "%", 2), Result(SATURATION, 89, "%", 8),
                   Result(SATURATION, 93, "%", 30)],
}


def _at(hours_ago: float) -> str:
    return (NOW - timedelta(hours=hours_ago)).isoformat(timespec="seconds")


def observation(i: int, item: Result | Pressure) -> dict[str, Any]:
    """The FHIR Observation a chart holds for one typed result (a BP panel with components)."""
    def quantity(code: str, value: float, unit: str) -> dict[str, Any]:
        return {"code": {"coding": [{"system": "http://loinc.org", "code": code}]},
                "valueQuantity": {"value": value, "unit": unit, "code": unit}}
    base = {"resourceType": "Observation", "id": f"o{i}", "status": "final",
            "effectiveDateTime": _at(item.hours_ago)}
    if isinstance(item, Pressure):
        return {**base, "code": {"coding": [{"system": "http://loinc.org", "code": "85354-9"}]},
                "component": [quantity("8480-6", item.systolic, "mm[Hg]"),
                              quantity("8462-4", item.diastolic, "mm[Hg]")]}
    return {**base, **quantity(item.loinc, item.value, item.unit)}


def answer(case: dict[str, Any]) -> str:
    """The chart tool's answer to the words, as planning asks it (no model)."""
    args = PatientChartArgs(**chart_args(read(case["text"]), "p1"))
    asked = Asked(args.window, Aggregate(args.statistic) if args.statistic else None,
                  Threshold.of_keys(args.threshold), args.unit)
    observations = [observation(i, r) for i, r in enumerate(CHARTS[case["chart"]])]
    return answers.answer(args.focus, ChartData(patient=ChartPatient(id="p1")), asked=asked,
                          observations=observations, now=NOW, tz=ZONE)


def routed(case: dict[str, Any]) -> bool:
    """The chat reads the words as a chart question, never as something to write."""
    text = case["text"]
    actions = ward_requests.actions(text, read_ward(text), asked(text))
    return not actions and asks_chart(text, actions, [])


def passes(case: dict[str, Any]) -> bool:
    text = answer(case)
    return routed(case) and all(e in text for e in case["expect"])


@pytest.mark.parametrize("case", CASES,
                         ids=[f"{c['split']}-{c['lang']}-{c['text']}" for c in CASES])
def test_window_question_is_a_chart_question(case: dict[str, Any]) -> None:
    assert routed(case), case["text"]


@pytest.mark.parametrize("case", CASES,
                         ids=[f"{c['split']}-{c['lang']}-{c['text']}" for c in CASES])
def test_window_question_answered(case: dict[str, Any]) -> None:
    text = answer(case)
    missing = [e for e in case["expect"] if e not in text]
    assert not missing, f"{case['text']!r} -> {text!r}: missing {missing}"


def test_a_failed_read_is_never_none_found() -> None:
    """Observations that could not be read: said, never "none under 4"."""
    args = PatientChartArgs(**chart_args(read("any glucose <4 in the last 48h?"), "p1"))
    d = ChartData(patient=ChartPatient(id="p1"), unavailable={"observations": "HTTP 503"})
    asked = Asked(args.window, None, Threshold.of_keys(args.threshold))
    text = answers.answer(args.focus, d, asked=asked, observations=[], now=NOW, tz=ZONE)
    assert "NOT AVAILABLE" in text and "None under" not in text


def test_a_threshold_in_a_unit_that_cannot_be_converted_is_said() -> None:
    """"K < 4 mg/dL": said, never answered as 4 mmol/L."""
    text = answer({"text": "any K < 4 mg/dL in the last 48h?", "chart": "potassium"})
    assert "4 mg/dL cannot be compared with potassium results" in text and "None under" not in text


def in_language(lang: str, text: str, chart: str) -> str:
    with answering(lang):
        return answer({"text": text, "chart": chart})


def test_window_answers_speak_the_answer_language() -> None:
    """A French or Spanish window answer is in that language, with the same numbers and times
    as the English one; English is unchanged."""
    low = in_language("fr", "une glycémie <4 sur les dernières 48h ?", "glucose_low")
    assert ("1 valeur inférieure à 4 mmol/L au cours des 48 dernières heures (sur 3 lues) : "
            "3.2 à 06:00 (2026-12-04).") in low
    none = in_language("fr", "glycémie < 4 dans les 48 dernières heures ?", "glucose_ok")
    assert "Aucune valeur inférieure à 4 mmol/L au cours des 48 dernières heures" in none
    assert "(2 valeurs, la dernière 5.1 à 08:00 (2026-12-04))" in none
    bp = in_language("es", "¿presión arterial media esta semana?", "bp")
    assert ("Presión arterial media en los últimos 7 días: 140/88 mmHg, media de 3 mediciones."
            in bp)
    mean = in_language("es", "glucemia media en mg/dL en las últimas 48h", "glucose_low")
    assert ("Media de glucemia en las últimas 48 horas: 95.5 mg/dL (5.3 mmol/L como se "
            "registró) (media de 3 resultados).") in mean
    for text in (low, none, bp, mean):
        assert not any(w in text for w in ("None ", "Mean ", " in the last ", " values ", " of "))
    english = in_language("en", "any glucose <4 in the last 48h?", "glucose_low")
    assert "1 value under 4 mmol/L in the last 48 hours (of 3 read): 3.2 at 06:00" in english


def figures() -> dict[tuple[str, str], tuple[int, int]]:
    """(split, language) -> (passed, cases), a case passing when routed to the chart and
    answered with every expected word: the figures docs/doses-and-ward-words.md reports."""
    out: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    for case in CASES:
        key = (case["split"], case["lang"])
        total[key] += 1
        out[key] += passes(case)
    return {k: (out[k], total[k]) for k in sorted(total)}


if __name__ == "__main__":
    for (split, lang), (ok, n) in figures().items():
        print(f"{split:8} {lang}: {ok}/{n}")
