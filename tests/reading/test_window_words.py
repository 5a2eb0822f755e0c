"""Window questions in the four languages, as typed: the span just passed and the threshold, read
only where a mean or a threshold is asked (an order's "in 2 days" is ahead). Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.tools.words.windows import Aggregate, asked


@pytest.mark.parametrize(("text", "window", "mean"), [
    ("mean egfr this yr", "365d", True), ("DFG moyen sur 12 mois ?", "360d", True),
    ("FG medio en el último año", "365d", True), ("moyenne du potassium sur 1 an", "365d", True),
    ("média de potássio em 1 ano", "365d", True), ("media de potasio en 1 año", "365d", True),
    ("any K >5.5 last 3 mo", "90d", False), ("kaliémie cette année > 5 ?", "365d", False),
])
def test_a_span_in_any_language(text, window, mean):
    said = asked(text)
    assert said.window == window
    assert (said.statistic == Aggregate.MEAN) is mean


@pytest.mark.parametrize("text", ["K in 6 months", "repeat HbA1c en 3 meses", "NFS sur 2 jours"])
def test_a_span_without_a_mean_or_threshold_is_no_window(text):
    assert asked(text).window is None


@pytest.mark.parametrize(("text", "value"), [
    ("¿potasio mayor a 5,5 en los últimos 3 meses?", 5.5), ("glucemia menor a 4 hoy", 4.0),
])
def test_spanish_thresholds_with_a(text, value):
    assert [t.value for t in asked(text).thresholds] == [value]


@pytest.mark.parametrize(("text", "focus"), [
    ("mean K this past year", "lab:Potassium"), ("avg k over the last 6 months?", "lab:Potassium"),
    ("K moyen sur 6 mois", "lab:Potassium"), ("média do K nos últimos 6 meses", "lab:Potassium"),
    ("promedio de K últimos 6 meses", "lab:Potassium"), ("vitamin k", None),
    ("mean k-space", None), ("average kg", None),
])
def test_k_with_a_mean_is_potassium(text, focus):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(text) == focus
