"""When an order is for, from the clinician's words, in the site's time zone.

"tomorrow at 8am", "the next day at 08:00", "tomorrow morning", "in 3 months", "in 2 weeks",
"today at 14:00", "stat"/"now" → an aware ``datetime`` (or ``None`` when nothing is said: the
order is for whenever the lab runs it). The site's zone is the ``SITE_TIMEZONE`` setting; the
words for parts of the day are ``day_parts`` below (data, so a site can say "morning" is 07:00).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ... import errors

# the hour a part of the day stands for when no clock time is said ("recheck tomorrow morning")
DAY_PARTS = {"morning": 8, "am": 8, "noon": 12, "midday": 12, "afternoon": 14, "evening": 18, "night": 22}
_UNITS = {"minute": "minutes", "min": "minutes", "hour": "hours", "hr": "hours", "h": "hours", "day": "days",
          "d": "days", "week": "weeks", "wk": "weeks", "month": "months", "mo": "months", "year": "years"}
_AT = re.compile(r"\bat\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?"
                 r"|\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)|\b(\d{1,2}):(\d{2})\b", re.I)
_IN = re.compile(r"\b(?:in|after)\s+(\d{1,3}|a|an|one|two|three|four|six|"
                 r"twelve)\s+(minute|min|hour|hr|h|day|d|week|wk|month|mo|year)s?\b", re.I)
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12}
_NOW = re.compile(r"\b(stat|now|immediately|right away)\b", re.I)
_NEXT_DAY = re.compile(r"\b(tomorrow|next day|following day|the day after)\b", re.I)
_TODAY = re.compile(r"\b(today|this)\b", re.I)


@dataclass(frozen=True)
class When:
    """An order's time: ``at`` (None: unscheduled) and how the clinician's words were read."""

    at: datetime | None
    said: str  # "tomorrow at 08:00 (Europe/London)", "stat", "" when nothing was said

    def fhir(self) -> str | None:
        return self.at.isoformat(timespec="seconds") if self.at else None


def zone(name: str | None) -> ZoneInfo:
    """The site's zone; an unknown name is a configuration error, said, never UTC in silence."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise errors.DocGemmaError(f"The SITE_TIMEZONE setting {name!r} is not a known time zone.") from exc


def parse(text: str | None, site_zone: str | None, now: datetime | None = None) -> When:
    """The time ``text`` names, relative to ``now`` (default: the present) in the site's zone."""
    tz = zone(site_zone)
    now = (now or datetime.now(tz)).astimezone(tz)
    low = (text or "").lower()
    if not low.strip():
        return When(None, "")
    later = _IN.search(low)
    if later:
        n = _WORDS.get(later.group(1), None) or int(later.group(1))
        return When(_add(now, n, _UNITS[later.group(2)]), f"in {n} {_UNITS[later.group(2)]}")
    day = _day(low, now)
    clock = _clock(low)
    if day is None and clock is None:
        return When(now, "now (stat)") if _NOW.search(low) else When(None, "")
    day = day or now.date()
    at = datetime.combine(day, clock or time(DAY_PARTS["morning"]), tz)
    if at < now and not _NEXT_DAY.search(low) and not re.search(r"\btoday\b", low):
        at += timedelta(days=1)  # "at 8am" said at 10:00 is tomorrow's 8am
    return When(at, f"{at:%Y-%m-%d %H:%M} ({tz.key})")


def _day(low: str, now: datetime) -> date | None:
    if _NEXT_DAY.search(low):
        return (now + timedelta(days=1)).date()
    if _TODAY.search(low) and re.search(r"\btoday\b|\bthis (morning|afternoon|evening)\b", low):
        return now.date()
    return None


def _clock(low: str) -> time | None:
    m = _AT.search(low)
    if m:
        hour, minute, half = (m.group(1), m.group(2), m.group(3)) if m.group(1) else \
            (m.group(4), m.group(5), m.group(6)) if m.group(4) else (m.group(7), m.group(8), None)
        h = int(hour) % 12 + (12 if half and half.startswith("p") else 0) if half else int(hour)
        if 0 <= h < 24:
            return time(h, int(minute or 0))
    part = next((DAY_PARTS[p] for p in DAY_PARTS if p != "am" and re.search(rf"\b{p}\b", low)), None)
    return time(part) if part is not None else None


def _add(now: datetime, n: int, unit: str) -> datetime:
    if unit in ("months", "years"):
        months = n * (12 if unit == "years" else 1)
        year, month = divmod(now.month - 1 + months, 12)
        day = min(now.day, 28)
        return now.replace(year=now.year + year, month=month + 1, day=day)
    return now + timedelta(**{unit: n})
