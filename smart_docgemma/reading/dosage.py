"""A dose as the clinician wrote it, typed: amount, unit, basis, doses a day, route, duration.

Extraction (``agent/extraction.find_dose``) reads the words; this is the value it hands on, so
the tools' arguments, the clarification and the cards read fields, never a dict of words. The
order's one written form (``written``: "500 mg", "50 mg/kg/day", "50 mg/kg") is what the
medication tools take; the typed parts beside it are read from that form once.
"""
from __future__ import annotations

import re
from enum import Enum
from typing import Any

from pydantic import model_validator
from pydantic.dataclasses import dataclass

from ..tools.writes.orders import parse_timing


class Basis(str, Enum):
    """What one amount covers: a single administration or a whole day."""

    PER_DOSE = "per_dose"
    PER_DAY = "per_day"


# the order of the fields as written (the model's hints list them in this order)
_SAID = ("dose", "frequency", "route", "infusion", "duration", "as_needed")
_AMOUNT = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*([^\s\d]\S*)?")


@dataclass(frozen=True)
class Dose:
    """One order's dose. ``written`` and the word fields are as the order carries them; the
    amount, unit, basis and doses a day are read from them."""

    @model_validator(mode="before")
    @classmethod
    def _stored_before(cls, data: Any) -> Any:
        """A turn stored before the dose was typed kept it as a dict with ``dose`` for the
        written dose: read back, it is ``written``."""
        if isinstance(data, dict) and "dose" in data and "written" not in data:
            return {**{k: v for k, v in data.items() if k != "dose"}, "written": data["dose"]}
        return data

    written: str | None = None  # "500 mg", "50 mg/kg/day": the order's dose, None when unsaid
    frequency: str | None = None  # as written ("tid", "2 fois par jour"), or its meaning
    route: str | None = None  # "oral", "IV"
    infusion: str | None = None  # "over 2 hours": one dose given over that time
    duration: str | None = None  # "7 days"
    as_needed: str | None = None  # "as needed for pain"
    # a loading dose said before the maintenance ("200mg stat then 100mg od": "200mg stat"); the
    # card carries the maintenance and says the loading dose is not on it
    loading: str | None = None

    @property
    def amount(self) -> float | None:
        m = _AMOUNT.match(self.written or "")
        return float(m.group(1).replace(",", ".")) if m else None

    @property
    def unit(self) -> str | None:
        """The amount's unit without its basis ("mg" of "50 mg/kg/day")."""
        m = _AMOUNT.match(self.written or "")
        unit = m.group(2) if m else None
        return unit.split("/")[0] if unit else None

    @property
    def per_kg(self) -> bool:
        return "/kg" in (self.written or "")

    @property
    def basis(self) -> Basis:
        return Basis.PER_DAY if (self.written or "").endswith("/day") else Basis.PER_DOSE

    @property
    def doses_a_day(self) -> float | None:
        """Doses a day the frequency is coded as ("tid", "8/8h", "en 3 prises": 3)."""
        timing = parse_timing(self.frequency or "") if self.frequency else None
        hours = {"h": 1, "d": 24, "wk": 168}
        if not timing or timing.get("periodUnit") not in hours or not timing.get("period"):
            return None
        per = timing["frequency"] * 24 / (timing["period"] * hours[timing["periodUnit"]])
        return round(float(per), 3)

    def said(self) -> dict[str, str]:
        """The fields written, in the order written (the model's hints, tests' comparisons)."""
        values = {"dose": self.written, "frequency": self.frequency, "route": self.route,
                  "infusion": self.infusion, "duration": self.duration,
                  "as_needed": self.as_needed}
        return {k: v for k in _SAID if (v := values[k]) is not None}

    @classmethod
    def of_said(cls, found: dict[str, str | None] | None) -> Dose | None:
        """The dose of extraction's words (keys ``dose``, ``frequency``, ``route`` …)."""
        if not found:
            return None
        return cls(written=found.get("dose"), frequency=found.get("frequency"),
                   route=found.get("route"), infusion=found.get("infusion"),
                   duration=found.get("duration"), as_needed=found.get("as_needed"),
                   loading=found.get("loading"))


@dataclass(frozen=True)
class Allergy:
    """What the clinician said of an allergy: the reaction as written and the severity,
    verification and criticality their words state (None when unsaid)."""

    reaction: str | None = None
    severity: str | None = None
    verification: str | None = None
    criticality: str | None = None

    def said(self) -> dict[str, str]:
        values = {"reaction": self.reaction, "severity": self.severity,
                  "verification": self.verification, "criticality": self.criticality}
        return {k: v for k, v in values.items() if v is not None}

    @classmethod
    def of_said(cls, found: dict[str, str | None] | None) -> Allergy | None:
        if not found:
            return None
        return cls(reaction=found.get("reaction"), severity=found.get("severity"),
                   verification=found.get("verification"), criticality=found.get("criticality"))
