"""Chart at a glance: the launch patient's problems, medications, allergies, vitals and
lab trends, shaped for the page — with small trend plots drawn on the server.

The data comes from ``tools.chart.chart.chart_summary(...).data``, a ``ChartData`` (the same fetch
the agent uses). Plots are inline SVG computed here and drawn by ``templates/chat/_sparkline.html``:
no JavaScript, no chart library, no CDN, readable in a 360 px sidebar, and a text equivalent for
screen readers.

Labs are ordered by what a clinician scans first in these settings (K+, eGFR,
creatinine, HbA1c, INR, glucose, sodium, haemoglobin); others follow by how
many results exist. A shaded band marks the usual adult range where one is
well defined for the unit found; the latest value outside it is flagged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..tools.chart.chartdata import ChartData, ChartSeries

# Potassium, eGFR, creatinine, HbA1c, INR, glucose, sodium, haemoglobin (fixture and Synthea codes)
LAB_PRIORITY = ["2823-3", "6298-4", "33914-3", "62238-1", "98979-8", "2160-0", "38483-4", "4548-4",
                "6301-6", "2339-0", "2345-7", "2951-2", "2947-0", "718-7"]
VITAL_ORDER = [
    "8480-6",
    "8462-4",
    "8867-4",
    "9279-1",
    "59408-5",
    "2708-6",
    "8310-5",
    "29463-7",
    "39156-5",
]
# code: (low, high, unit) — usual adult reference intervals, only used when the unit matches.
RANGES = {
    "2823-3": (3.5, 5.1, "mmol/L"),
    "6298-4": (3.5, 5.1, "mmol/L"),
    "2951-2": (135, 145, "mmol/L"),
    "2947-0": (135, 145, "mmol/L"),
    "33914-3": (60, None, "mL/min/1.73m2"),
    "62238-1": (60, None, "mL/min/1.73m2"),
    "98979-8": (60, None, "mL/min/1.73m2"),
    "4548-4": (None, 5.7, "%"),
}
MAX_LABS = 6
WIDTH, HEIGHT, PAD = 132, 36, 4


@dataclass
class Sparkline:
    """Geometry for one trend plot (SVG user units; y grows downwards)."""

    points: str  # "x,y x,y …" for <polyline>
    last: tuple[float, float]
    band: tuple[float, float] | None  # (y_top, height) of the reference band
    width: int = WIDTH
    height: int = HEIGHT


def sparkline(
    values: list[float], low: float | None = None, high: float | None = None
) -> Sparkline | None:
    """Scale ``values`` (oldest → newest) into the plot box; None for fewer than 2 values."""
    if len(values) < 2:
        return None
    bounds = [*values, *(v for v in (low, high) if v is not None)]
    lo, hi = min(bounds), max(bounds)
    span = (hi - lo) or abs(hi) or 1.0
    lo, hi = lo - span * 0.08, hi + span * 0.08

    def y(v: float) -> float:
        return round(HEIGHT - PAD - (v - lo) / (hi - lo) * (HEIGHT - 2 * PAD), 1)

    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    coords = [(round(PAD + i * step, 1), y(v)) for i, v in enumerate(values)]
    band = None
    if low is not None or high is not None:
        top, bottom = y(high if high is not None else hi), y(low if low is not None else lo)
        band = (top, round(bottom - top, 1))
    return Sparkline(points=" ".join(f"{x},{yy}" for x, yy in coords), last=coords[-1], band=band)


UNIT_WORDS = {
    "mm[Hg]": "mmHg",
    "Cel": "°C",
    "[degF]": "°F",
    "[lb_av]": "lb",
    "[in_i]": "in",
    "{INR}": "",
    "{beats}/min": "/min",
    "{breaths}/min": "/min",
    "10*3/uL": "×10³/µL",
    "10*9/L": "×10⁹/L",
}


def display_unit(unit: str) -> str:
    """A UCUM code as a clinician writes it: ``mm[Hg]`` → mmHg, ``mL/min/{1.73_m2}`` → mL/min/1.73
    m²."""
    if unit in UNIT_WORDS:
        return UNIT_WORDS[unit]
    text = unit.replace("{", "").replace("}", "").replace("_", " ")
    return re.sub(r"(\d)m2\b", r"\1 m²", text).replace("m2", "m²")


def _unit(unit: str) -> str:
    return "".join(ch for ch in unit.lower() if ch not in " {}_")


def _flag(code: str, value: float, unit: str) -> str | None:
    low, high, expected = RANGES.get(code, (None, None, None))
    if expected is None or _unit(unit) != _unit(expected):
        return None
    if low is not None and value < low:
        return "low"
    if high is not None and value > high:
        return "high"
    return None


def trend(entry: ChartSeries) -> dict:
    """One lab or vital series → what the template shows (latest, direction, plot, flag)."""
    code, unit = entry.code, entry.unit
    values = [p.value for p in entry.series]
    low, high, expected = RANGES.get(code, (None, None, None))
    in_unit = expected is not None and _unit(unit) == _unit(expected)
    latest = entry.latest
    words = ", ".join(f"{v:g}" for v in values[-6:])
    return {"code": code, "name": entry.name, "unit": display_unit(unit), "latest": latest,
            "count": entry.count,
            "direction": entry.direction, "flag": _flag(code, latest.value, unit),
            "plot": sparkline(values, low if in_unit else None, high if in_unit else None),
            "values": words,  # the template says them in the page's language
            "description": f"{entry.name} {words} {display_unit(unit)}".strip()
            + (f", latest {latest.date}" if latest.date else "")}


def _lab_rank(entry: ChartSeries) -> tuple:
    code = entry.code
    return (LAB_PRIORITY.index(code) if code in LAB_PRIORITY else len(LAB_PRIORITY), -entry.count)


def glance(data: ChartData) -> dict:
    """The chart-at-a-glance view model from ``chart_summary(...).data``: its entries as they
    are (the template reads their attributes), the series as plots."""
    labs = sorted(data.labs, key=_lab_rank)
    vitals = sorted(
        data.vitals,
        key=lambda e: VITAL_ORDER.index(e.code) if e.code in VITAL_ORDER else len(VITAL_ORDER),
    )
    return {
        "patient": data.patient,
        "problems": data.problems,
        "medications": data.medications,
        "allergies": data.allergies,
        "labs": [trend(e) for e in labs[:MAX_LABS]],
        "more_labs": max(0, len(labs) - MAX_LABS),
        "vitals": [trend(e) for e in vitals],
        "unavailable": data.unavailable,
    }
