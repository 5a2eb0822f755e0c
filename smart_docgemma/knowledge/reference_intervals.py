"""Where a result stands against a reference range: the result's own (FHIR
``Observation.referenceRange``, and the laboratory's interpretation flag), else an adult interval
of ``data/reference_intervals.yaml`` (sourced), else none — never a guessed range.

    own_range({"low": {"value": 3.5}, "high": {"value": 5.1}})  # Interval(3.5, 5.1, …)
    adult("Potassium", "female")                                # Interval(3.7, 5.2, …)
    Interval(3.7, 5.2).place(5.6)                               # "above"

Pure data and functions: no FHIR client, no Flask.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from ..datafiles import safe_yaml

DATA = Path(__file__).with_name("data") / "reference_intervals.yaml"
Place = Literal["above", "below", "within"]


@dataclass(frozen=True)
class Interval:
    """A reference range in one unit; either limit may be absent (a one-sided limit)."""

    low: float | None = None
    high: float | None = None
    unit: str = ""
    source: str = ""  # "" for the result's own range (the laboratory's)
    note: str = ""  # "fasting": what the interval assumes
    # normal is strictly below ``high`` ("HbA1c normal below 5.7 %": 5.7 is above)
    below_high: bool = False

    def place(self, value: float) -> Place:
        """Where ``value`` (in this range's unit) stands."""
        high = self.high
        if high is not None and (value > high or (self.below_high and value >= high)):
            return "above"
        if self.low is not None and value < self.low:
            return "below"
        return "within"

    def text(self) -> str:
        """"3.7–5.2", "< 5.7", "≥ 60" (numbers as the source writes them)."""
        if self.low is not None and self.high is not None:
            return f"{_num(self.low)}–{_num(self.high)}"
        if self.high is not None:
            return f"{'<' if self.below_high else '≤'} {_num(self.high)}"
        return f"≥ {_num(self.low or 0)}"


def _num(value: float) -> str:
    return f"{value:g}"


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    found: dict[str, Any] = safe_yaml(DATA.read_text(encoding="utf-8"))
    return found


def adult(name: str, sex: str | None) -> Interval | None:
    """The adult interval of the analyte ``name`` (in its unit, ``knowledge/analytes``) for
    ``sex`` ("female"/"male"); None when the table has none, or gives it by sex and the sex is
    not known."""
    entry = (_table()["intervals"] or {}).get(name)
    if not entry:
        return None
    if "low" not in entry and "high" not in entry:
        entry = entry.get((sex or "").lower())
        if not entry:
            return None
    from .analytes import analyte

    return Interval(low=entry.get("low"), high=entry.get("high"), unit=analyte(name).unit,
                    source=str(_table()["source"]), note=str(entry.get("note") or ""),
                    below_high=name == "HbA1c")


def own_range(ranges: list[dict[str, Any]] | None) -> Interval | None:
    """The first reference range a result carries (``Observation.referenceRange``) with a
    numeric limit; None when it carries none."""
    for one in ranges or []:
        low, high = (one.get(k) or {} for k in ("low", "high"))
        if low.get("value") is None and high.get("value") is None:
            continue
        unit = str(low.get("unit") or high.get("unit") or low.get("code") or high.get("code") or "")
        return Interval(low=_float(low.get("value")), high=_float(high.get("value")), unit=unit)
    return None


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def flag_of(interpretations: list[dict[str, Any]] | None) -> str | None:
    """The laboratory's interpretation of a result ("High", "L", "Critical high"), as written;
    None when there is none."""
    for concept in interpretations or []:
        text = concept.get("text") or next(
            (c.get("display") or c.get("code") for c in concept.get("coding") or []
             if c.get("display") or c.get("code")), None)
        if text:
            return str(text)
    return None
