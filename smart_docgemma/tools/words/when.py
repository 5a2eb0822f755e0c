"""When an order is for, from the clinician's words, in the site's time zone.

"tomorrow at 8am", "the next day at 08:00", "tomorrow morning", "in 3 months", "in 2 weeks",
"today at 14:00", "stat"/"now" → an aware ``datetime`` (or ``None`` when nothing is said: the
order is for whenever the lab runs it). The site's zone is the ``SITE_TIMEZONE`` setting; the
words (next day, today, parts of the day, clock forms) of every language are ``data/when.yaml``
("demain à 7h", "amanhã às 8h", "mañana a las 8", "in am", "at 0600").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ... import errors
from ...datafiles import safe_yaml
from ...languages import fold

DATA = Path(__file__).parent.parent / "data"
MORNING = 8  # the hour of "tomorrow" said without a clock time or a part of the day

_UNITS = {
    "minute": "minutes",
    "min": "minutes",
    "hour": "hours",
    "hr": "hours",
    "h": "hours",
    "day": "days",
    "d": "days",
    "week": "weeks",
    "wk": "weeks",
    "month": "months",
    "mo": "months",
    "year": "years",
}
# "in 2 hours", and the figure written against its unit as the ward types it ("recheck in 2h",
# "dans 4h", "em 30min"): a span from now, never the clock hour 02:00
_IN = re.compile(
    r"\b(?:in|after|dans|em|en|daqui a|dentro de)\s+"
    r"(?:(\d{1,3})\s*|(a|an|one|two|three|four|six|twelve)\s+)"
    r"(minute|min|hour|hr|h|day|d|week|wk|month|mo|year)s?\b",
    re.I,
)
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "twelve": 12}
# "ya"/"já" is now only at the end of an order ("hemocultivos x2 ya"); before a verb it is
# "already" ("ya se sacaron los hemocultivos?")
_NOW = re.compile(r"\b(stat|now|immediately|right away|maintenant|agora|ahora|urgente?)\b"
                  r"|\b(?:ya|ja)(?: mismo)?(?=[\s!.]*$)", re.I)


# an order repeated each day for a number of days ("INR daily for 3 days", "U&E daily x3",
# "NFS tous les jours pendant 3 jours", "INR diário por 3 dias", "INR diario por 3 días")
_DAILY = re.compile(
    r"\b(?:daily|every day|each day|tous les jours|chaque jour|quotidien(?:ne)?|todos os dias|"
    r"diariamente|diario|todos los dias|cada dia)\b"
    r"(?:\s*(?:for|x|pendant|por|durante|during)\s*(\d{1,2})\s*(?:days?|d|jours?|j|dias?)?\b)?")
MOST_DAYS = 14  # a longer series is a standing order, placed in the EHR


def daily_count(text: str | None) -> int | None:
    """How many days an order said daily is for ("daily for 3 days": 3); None when not said
    daily with a number of days, or for more than ``MOST_DAYS``."""
    m = _DAILY.search(_low(text))
    n = int(m.group(1)) if m and m.group(1) else None
    return n if n and 1 <= n <= MOST_DAYS else None


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    """``data/when.yaml``: the time words of every language."""
    found: dict[str, Any] = safe_yaml((DATA / "when.yaml").read_text(encoding="utf-8"))
    return found


@lru_cache(maxsize=8)
def _any(key: str) -> re.Pattern[str]:
    words = sorted(_table()[key], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(words)})(?![a-z])")


@lru_cache(maxsize=1)
def _clocks() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(c) for c in _table()["clocks"])


@lru_cache(maxsize=1)
def _parts() -> tuple[tuple[re.Pattern[str], int], ...]:
    return tuple((re.compile(rf"(?<![a-z])(?:{'|'.join(words)})(?![a-z])"), int(hour))
                 for hour, words in _table()["day_parts"].items())


def _low(text: str | None) -> str:
    return " ".join(fold(text or "").lower().split())


def starts(text: str | None) -> int | None:
    """Where the first time expression of ``text`` begins (folded, spaces collapsed), or None."""
    low = _low(text)
    patterns = (_any("day_after_next"), _any("next_day"), _any("today"), _any("next_week"),
                *_weekdays().values(), _IN,
                _NOW, _DAILY, *_clocks(), *(p for p, _ in _parts()))
    found = [m.start() for pattern in patterns if (m := pattern.search(low))]
    return min(found) if found else None


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
        raise errors.DocGemmaError(
            f"The SITE_TIMEZONE setting {name!r} is not a known time zone."
        ) from exc


def parse(text: str | None, site_zone: str | None, now: datetime | None = None) -> When:
    """The time ``text`` names, relative to ``now`` (default: the present) in the site's zone."""
    tz = zone(site_zone)
    now = (now or datetime.now(tz)).astimezone(tz)
    low = _low(text)
    if not low.strip():
        return When(None, "")
    if daily_count(low):  # the series' first day: the next morning unless a day is said
        low = _DAILY.sub(" ", low)
        low = low if low.strip() and (_day(low, now) or _clock(low)) else "tomorrow"
    later = _IN.search(low)
    if later:
        n = int(later.group(1)) if later.group(1) else _WORDS[later.group(2).lower()]
        unit = _UNITS[later.group(3).lower()]
        return When(_add(now, n, unit), f"in {n} {unit}")
    day = _day(low, now)
    clock = _clock(low)
    if day is None and clock is None:
        return When(now, "stat (at once)") if _NOW.search(low) else When(None, "")
    day = day or now.date()
    at = datetime.combine(day, clock or time(MORNING), tz)
    if at < now and not _any("next_day").search(low) and not _any("today").search(low):
        at += timedelta(days=1)  # "at 8am" said at 10:00 is tomorrow's 8am
    elif at < now and clock is None and day == now.date():
        at = now  # "K and creat today" said at noon: today, as soon as possible, never 08:00 past
    return When(at, f"{at:%Y-%m-%d %H:%M} ({tz.key})")


@dataclass(frozen=True)
class Clock:
    """The time of day a reading was said to be taken, before it is placed in a day: ``at``, and
    whether the words put it the day before ("last night at 22:00", "hier", "ontem", "ayer")."""

    at: time
    day_before: bool = False
    # a part of today said with no clock ("poids 72 kg ce matin", "this morning"): its hour is
    # the part's, so a reading said before that hour was taken today, by now (never the day
    # before); a clock said ("ce matin à 8h") is placed as said
    part_of_today: bool = False

    def words(self) -> str:
        """The clock as the tools read it back ("06:00", "22:00 yesterday", "this morning")."""
        if self.part_of_today and self.at.minute == 0 and self.at.hour in _TODAY_PARTS:
            return _TODAY_PARTS[self.at.hour]
        return f"{self.at:%H:%M}" + (" yesterday" if self.day_before else "")


# a part of today read back in words the reader places again as that part of today
_TODAY_PARTS = {8: "this morning", 12: "today noon", 14: "this afternoon", 18: "this evening",
                22: "tonight"}


def clock_said(text: str | None) -> Clock | None:
    """The clock time ``text`` says a reading was taken at ("cbg 3.2 at 0600", "à 6h", "a las
    0500", "last night at 22:00"); None when no time is said."""
    low = _low(text)
    clock = _clock(low)
    if clock is None:
        return None
    evening_of_last_night = clock.hour >= 12 and bool(_any("last_night").search(low))
    before = bool(_any("yesterday").search(low)) or evening_of_last_night
    today = (not before and not any(p.search(low) for p in _clocks())
             and bool(_any("today").search(low)))
    return Clock(clock, before, today)


def taken(text: str | None, site_zone: str | None, now: datetime | None = None) -> datetime | None:
    """When a reading was taken, from its words: the latest such time not after ``now``; None
    when no time is said."""
    said = clock_said(text)
    return placed(said, site_zone, now) if said is not None else None


def placed(said: Clock, site_zone: str | None, now: datetime | None = None) -> datetime:
    """The clock said, placed at its latest time not after ``now`` in the site's zone."""
    tz = zone(site_zone)
    now = (now or datetime.now(tz)).astimezone(tz)
    at = datetime.combine(now.date(), said.at, tz)
    if at > now and said.part_of_today and not said.day_before:
        return now.replace(second=0, microsecond=0)  # "ce matin" said at 07:00: today, by now
    if at > now or said.day_before:
        at -= timedelta(days=1)  # "at 2200" said at 10:00 was last night
    return at


def _day(low: str, now: datetime) -> date | None:
    if _any("day_after_next").search(low):
        return (now + timedelta(days=2)).date()
    if _any("next_day").search(low):
        return (now + timedelta(days=1)).date()
    if _any("today").search(low):
        return now.date()
    if _any("next_week").search(low):
        return (now + timedelta(days=7)).date()
    for weekday, pattern in _weekdays().items():  # the next such day after today
        if pattern.search(low):
            return (now + timedelta(days=(weekday - now.weekday() - 1) % 7 + 1)).date()
    return None


@lru_cache(maxsize=1)
def _weekdays() -> dict[int, re.Pattern[str]]:
    said = _table()["weekdays"]
    return {int(day): re.compile(r"(?<![a-z])(?:" + "|".join(map(re.escape, words)) + r")(?![a-z])")
            for day, words in said.items()}


def _clock(low: str) -> time | None:
    """The clock time the words say, else the hour of the part of the day they name."""
    for pattern in _clocks():
        m = pattern.search(low)
        if m:
            said = m.groupdict()
            if said.get("frac") or said.get("minus"):
                return _in_words(said, low[m.end():])
            half = said.get("half")
            hour = int(said["h"])
            h = (hour % 12 + (12 if half.startswith("p") else 0) if half
                 else _half_said_after(low[m.end():], hour))
            if 0 <= h < 24:
                return time(h, int(said.get("m") or 0))
    part = next((hour for pattern, hour in _parts() if pattern.search(low)), None)
    return time(part) if part is not None else None


def _half_said_after(rest: str, hour: int) -> int:
    """The hour with the half of the day said in words right after it ("10 de la noche": 22,
    "3h da tarde": 15, "10h du soir": 22); as said when none is ("a las 10": 10)."""
    halves = _table()["clock_halves"]
    if not 1 <= hour <= 11:
        return hour
    if _opens(rest, halves["evening"]) or (
            _opens(rest, halves["night"]) and hour >= int(halves["night_from"])):
        return hour + 12
    return hour


def _opens(rest: str, words: list[str]) -> bool:
    """``rest`` begins (spaces aside) with one of ``words``."""
    return re.match(rf"\s*(?:{'|'.join(map(re.escape, words))})(?![a-z])", rest) is not None


def _in_words(said: dict[str, str | None], rest: str = "") -> time | None:
    """"7 y media" 07:30, "quarter past 7" 07:15, "quarter to 8" and "8 menos cuarto" 07:45;
    the half of the day said after it counts as after an hour ("9 e meia da noite" 21:30, "9 y
    media de la noche" 21:30), as ``_half_said_after`` reads it."""
    hour, minutes = _half_said_after(rest, int(said["h"] or 0)), _table()["fractions"]
    # a fraction in words ("quarter"), or the minutes in figures ("10 past 6", "20 minutes to 7")
    if said.get("minus"):
        hour, minute = hour - 1, 60 - _minutes(str(said["minus"]), minutes)
    else:
        minute = _minutes(str(said["frac"]), minutes)
    return time(hour % 24, minute) if 0 <= hour < 24 and 0 < minute < 60 else None


def _minutes(said: str, fractions: dict[str, int]) -> int:
    return int(said) if said.isdigit() else int(fractions[said])


def _add(now: datetime, n: int, unit: str) -> datetime:
    if unit in ("months", "years"):
        months = n * (12 if unit == "years" else 1)
        year, month = divmod(now.month - 1 + months, 12)
        day = min(now.day, 28)
        return now.replace(year=now.year + year, month=month + 1, day=day)
    return now + timedelta(**{unit: n})


def series(first: When, days: int) -> list[When]:
    """``first`` and the same clock time on each of the ``days`` - 1 days after it (an
    unscheduled time stays one)."""
    if first.at is None or days <= 1:
        return [first]
    ats = [first.at + timedelta(days=k) for k in range(days)]
    return [When(at, f"{at:%Y-%m-%d %H:%M} ({at.tzinfo})") for at in ats]
