"""The time window and statistic a result question asks for: "within the last 24 hours",
"since yesterday", "today", "mean … over the past 24h" (words in ``data/chart_windows.yaml``).

``asked(question)`` reads them as a ``window`` key ("24h", "3d", "7d" for "this week",
"yesterday", "today"), an ``Aggregate`` (the mean, the highest or the lowest), the
``Threshold``s each result is compared with ("<4", "plus de 5,5", "abaixo de 4 mmol/L") and
the unit the answer is asked in, the optional arguments of ``get_patient_chart``;
``bounds(window, now, zone)`` turns a key into the window's start and the words an answer
names it by. Calendar windows ("since yesterday", "today") start at midnight in the site's
time zone (``SITE_TIMEZONE``).
"""
from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta, tzinfo
from enum import Enum
from functools import cache, lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ...datafiles import safe_yaml
from ...knowledge.analytes import fold
from ...languages import N_, english, message
from ..chart.records import DATA

# "24h", "3d", "today", "yesterday" (since yesterday), "since-0" (since Monday: 0-6, Monday first),
# "admission": since the start of the encounter in progress (tools/chart/admission.py)
# "y2025": that calendar year; "night" (since the evening before), "morning" (since this
# morning), "shift" (the last shift): the ward's day (``ward_day``)
WINDOW_KEY = re.compile(
    r"^(\d{1,5})(h|d)$|^(today|yesterday|admission|night|morning|shift|weekend)$|^since-([0-6])$"
    r"|^y((?:19|20)\d{2})$"
    # since a month named ("depuis mai", "desde agosto de 2025"): from its first midnight
    r"|^m(1[0-2]|[1-9])(?:-((?:19|20)\d{2}))?$"
    # a calendar month named ("in October", "en octobre", "em outubro de 2025"): that month
    r"|^c(1[0-2]|[1-9])(?:-((?:19|20)\d{2}))?$"
    # one day named ("on 3rd May", "le 3 mai", "em 3 de maio", "el 3 de mayo"): that day
    r"|^on(1[0-2]|[1-9])-(3[01]|[12]\d|[1-9])(?:-((?:19|20)\d{2}))?$"
    # since one day named ("since 1 December", "depuis le 1er décembre", "desde el 1 de
    # diciembre", "desde 1 de dezembro"): from that day's midnight to now
    r"|^from(1[0-2]|[1-9])-(3[01]|[12]\d|[1-9])(?:-((?:19|20)\d{2}))?$"
)
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_LONGEST = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # days a month can have
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")


class Aggregate(str, Enum):
    """A statistic asked of the results in a window."""

    MEAN = "mean"
    MAX = "max"  # the highest value in the window
    MIN = "min"  # the lowest


class Comparator(str, Enum):
    LT = "lt"
    LE = "le"
    GT = "gt"
    GE = "ge"

    def holds(self, value: float, limit: float) -> bool:
        return {"lt": value < limit, "le": value <= limit,
                "gt": value > limit, "ge": value >= limit}[self.value]


@dataclass(frozen=True)
class Threshold:
    """"<4", "above 5.5 mmol/L": a comparison asked of each result; ``unit`` None when the
    question wrote none (the answer reads it from the number and the chart)."""

    comparator: Comparator
    value: float
    unit: str | None = None

    def key(self) -> str:
        """The tool argument: "lt:4", "ge:5.5:mmol/L"."""
        tail = f":{self.unit}" if self.unit else ""
        return f"{self.comparator.value}:{self.value:g}{tail}"

    @classmethod
    def of_key(cls, key: str | None) -> Threshold | None:
        m = THRESHOLD_KEY.match(key or "")
        if not m:
            return None
        return cls(Comparator(m.group(1)), float(m.group(2)), m.group(3) or None)

    @classmethod
    def of_keys(cls, keys: str | None) -> tuple[Threshold, ...]:
        """"lt:3.5,gt:5.5" -> both; () when any part is unreadable (never half a question)."""
        found = [cls.of_key(k) for k in (keys or "").split(",") if k]
        return tuple(t for t in found if t) if all(found) else ()


def keys_of(thresholds: tuple[Threshold, ...]) -> str | None:
    """The tool argument for every threshold asked ("lt:3.5,gt:5.5"); None for none."""
    return ",".join(t.key() for t in thresholds) or None


THRESHOLD_KEY = re.compile(r"^(lt|le|gt|ge):(\d+(?:\.\d+)?)(?::([A-Za-z/\[\]]{1,12}))?$")


@dataclass(frozen=True)
class Asked:
    """What a question asks of a result's time: a window key, a statistic (None: the latest),
    a threshold each result is compared with, and the unit the answer is asked in."""

    window: str | None = None
    statistic: Aggregate | None = None
    thresholds: tuple[Threshold, ...] = ()  # "K < 3.5 or > 5.5": each is answered
    unit: str | None = None
    count: int | None = None  # how many results are asked ("last 3 Ks": 3); None: the default
    judge: bool = False  # the latest result judged against its reference range ("is that normal?")
    # several results asked in one read ("K, Na, creat", "u&e + lfts?"): the analytes' names
    analytes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime
    label: str  # "in the last 24 hours", "since yesterday", "today"
    # the label as a language-neutral message (``languages.message``): the answer's language
    said: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    data: dict[str, Any] = safe_yaml((DATA / "chart_windows.yaml").read_text(encoding="utf-8"))
    return data


def admission_fallback_days() -> int:
    """The days a statistic "this admission" is read over when no stay is in progress."""
    return int(_words()["admission_fallback_days"])


def _alt(words: Any) -> str:
    return "|".join(re.escape(str(w)) for w in sorted(words, key=lambda w: -len(str(w))))


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], ...]:
    w = _words()
    last, units, numbers = _alt(w["last"]), _alt(w["units"]), _alt(w["numbers"])
    amount = rf"(\d+(?:\.\d+)?|{numbers})"
    hours = _alt(u for u, h in w["units"].items() if h == 1)
    return (  # an amount written before "last" is read before "last" alone ("12 derniers mois")
        re.compile(
            rf"\b{amount}\s+(?:{last})\s+({units})\b"
        ),  # "12 derniers mois", "6 dernieres heures"
        re.compile(rf"\b{amount}\s*-?\s*({units})\s+(?:{last})\b"),  # "24 dernieres heures"
        re.compile(
            rf"\b(?:{last})\s+(?:{amount}\s*-?\s*)?({units})\b"
        ),  # "last 24 hours", "past day"
        re.compile(rf"\bwithin\s+(?:the\s+)?(?:{amount}\s*-?\s*)?({units})\b"),  # "within 24 h"
        re.compile(rf"(?:{last})\s+{amount}\s*-?\s*({units})\b"),  # "ultimas 24 horas"
        # "24h mean", "24-hour average"; never an order's interval ("de 12/12h", "q8h", "cada
        # 8 h", "every 6 hours", "toutes les 6 h") nor a clock time ahead or at ("hemograma
        # amanhã 7h", "NFS demain 7h", "às 7h", "a las 7h", "vers 6h"): no window of the past
        re.compile(rf"(?<![/\d.,q])(?<!cada )(?<!every )(?<!les )(?<!\bamanha )(?<!\bdemain )"
                   rf"(?<!\bmanana )(?<!\btomorrow )(?<!\btmrw )(?<!\bas )(?<!\ba las )(?<!\bat )"
                   rf"(?<!\bvers )"
                   # "a glicemia das 6h", "el potasio de las 6": an hour of the day (0-23) after
                   # "das"/"de las"/"de la" is the clock's; "das 24h", "das 48h" stay windows
                   r"(?!(?<=\bdas )(?:[01]?\d|2[0-3])(?!\d))"
                   r"(?!(?<=\bde las )(?:[01]?\d|2[0-3])(?!\d))"
                   r"(?!(?<=\bde la )(?:[01]?\d|2[0-3])(?!\d))"
                   # "FC 120 à 14h": the French "à" before an hour of the day is the clock's;
                   # "il y a 6h" (six hours ago) stays a span
                   r"(?!(?<=(?<!\by )\ba )(?:[01]?\d|2[0-3])(?!\d))"
                   rf"\b(\d+)\s*-?\s*({hours})\b"),
    )


@lru_cache(maxsize=1)
def _fraction() -> re.Pattern[str]:
    """"past 6/12", "last 2/52": the ward's months, weeks and days after a word of ``last``."""
    return re.compile(rf"\b(?:{_alt(_words()['last'])}|over)\s+(\d{{1,2}})\s*/\s*"
                      rf"({_alt(_words()['fractions'])})(?![\d/])")


def _phrase(low: str, key: str) -> bool:
    return bool(_phrases(key).search(low))


@cache
def _phrases(key: str) -> re.Pattern[str]:
    """Any phrase of the list ``key``, whole (compiled once per list)."""
    said = "|".join(re.escape(p) for p in sorted(_words()[key], key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{said})(?![a-z])")


def asked(question: str) -> Asked:
    """The window and statistic of ``question``; ``Asked()`` when it names neither."""
    low = fold(question).replace("'", " ")
    statistic, limits, unit = _statistic(low), thresholds(low), _unit_asked(low)
    # "glucose in mg/dL over 2 days": a unit asked makes the values a result's, so the span is
    # the window just passed, as with a statistic or a threshold ("repeat u&e in 2 days" and
    # "ceftriaxone over 30 minutes" ask no unit and stay no window)
    window = _window(low) or (_span(low) if statistic or limits or unit else None)
    return Asked(window=window, statistic=statistic, thresholds=limits, unit=unit,
                 count=count_asked(low), judge=judged(low))


def judged(low: str) -> bool:
    """The folded question asks whether a result is normal, high or low ("is that normal?",
    "c'est trop haut ?", "¿está alto?")."""
    return bool(re.search(rf"(?<![a-z])(?:{_alt(_words()['judged'])})(?![a-z])", low))


def count_asked(low: str) -> int | None:
    """How many results the folded question asks ("last 3 ks", "the last two inrs", "k x3",
    "les 3 derniers k"); None when it names no number of results."""
    w = _words()
    number = rf"(\d{{1,2}}|{_alt(w['numbers'])})"
    not_time = rf"(?!\s*-?\s*(?:{_alt(w['units'])})\b)"
    for pattern in (rf"\b(?:{_alt(w['count_before'])})\s+{number}\b{not_time}",
                    # "les 72 dernières heures", "nas 48 últimas horas": a span, no count
                    rf"\b{number}\s+(?:{_alt(w['count_after'])})\b(?!\s+(?:{_alt(w['units'])})\b)",
                    rf"\bx\s?(\d{{1,2}})\b{not_time}"):
        m = re.search(pattern, low)
        if m:
            said = m.group(1)
            n = int(said) if said.isdigit() else int(w["numbers"].get(said, 0))
            return n if n > 1 else None
    return None


def _statistic(low: str) -> Aggregate | None:
    """The mean, else the highest or the lowest value asked ("highest K in 6 months", "lowest
    eGFR this year", "K max sur 1 an"); None: the values themselves."""
    if _mean(low):
        return Aggregate.MEAN
    if any(re.search(p, low) for p in _words()["not_extreme"]):
        return None  # "max dose", "maximum rate": a dose asked, not a result
    for key, statistic in (("highest", Aggregate.MAX), ("lowest", Aggregate.MIN)):
        if _phrase(low, key):
            return statistic
    return None


def statistic_of(question: str) -> Aggregate | None:
    """The mean, the highest or the lowest a question asks ("and the lowest?"), or None."""
    return _statistic(fold(question).replace("'", " "))


def without_statistic(question: str) -> str:
    """``question`` with the words of the statistic it asks blanked ("avg cbg last 24h": "cbg
    last 24h"), for a follow-up asking another one ("and the lowest?") to be read with it."""
    low = fold(question).replace("'", " ")
    for key in ("mean", "highest", "lowest"):
        low = _phrases(key).sub(" ", low)
    return " ".join(low.split())


def _span(low: str) -> str | None:
    """"sur 12 mois", "em 1 ano", "over 6 months": the span just passed, in hours' key."""
    w = _words()
    m = re.search(rf"\b(?:{_alt(w['span_words'])})\s+(?:(?:les|os|as|los|las|the)\s+)?"
                  rf"(\d+(?:\.\d+)?|{_alt(w['numbers'])})\s*-?\s*({_alt(w['units'])})\b", low)
    if not m:
        return None
    amount = m.group(1)
    n = float(amount) if amount[0].isdigit() else float(w["numbers"].get(amount, 1))
    return key_of(n * w["units"][m.group(2)])


_TIME_AFTER = r"(?!\s*(?:h|hr|hrs|hours?|heures?|horas?|d|days?|jours?|j|dias?)\b)"


@lru_cache(maxsize=1)
def _compare() -> re.Pattern[str]:
    words = _alt(_words()["compare"])
    units = _alt(_words()["units_asked"])
    number = r"(\d+(?:[.,]\d+)?)(?![\d.,])"  # whole: "48h" is never "4" then "8h"
    # an arrow ("1g bd -> 500 bd", "3.4 => 2.1") says a change, never "above"
    # ... and a sign may follow its analyte unspaced ("inr>3", "k<3.5"), a word never
    return re.compile(rf"(?:(?<![a-z])|(?=[<>≤≥]))(?<![-=])({words})\s*{number}{_TIME_AFTER}"
                      rf"\s*({units})?", re.I)


def thresholds(low: str) -> tuple[Threshold, ...]:
    """Every comparison with a number in the folded question ("<4", "moins de 4 mmol/l", "< 3.5
    or > 5.5"); a number followed by a time unit is a window, not a threshold ("over 48h")."""
    out = []
    for m in _compare().finditer(low):
        unit = _words()["units_asked"].get(m.group(3).lower()) if m.group(3) else None
        out.append(Threshold(Comparator(_words()["compare"][m.group(1).lower()]),
                             float(m.group(2).replace(",", ".")), unit))
    return tuple(out) or named_threshold(low)


def named_threshold(low: str) -> tuple[Threshold, ...]:
    """The comparison a word names of its own ("hypos": each glucose under 4 mmol/L), when the
    folded question states none."""
    for named in _words().get("named_thresholds") or ():
        if re.search(rf"\b(?:{_alt(named['words'])})\b", low):
            return (Threshold(Comparator(named["compare"]), float(named["value"]),
                              named["unit"]),)
    return ()


def _unit_asked(low: str) -> str | None:
    """"mean glucose in mg/dL": the unit an answer is asked in ("in"/"en"/"em" before it)."""
    units = _alt(_words()["units_asked"])
    m = re.search(rf"\b(?:in|en|em)\s+({units})", low)
    return _words()["units_asked"].get(m.group(1)) if m else None


def plausible_units(analyte: str, value: float) -> list[str]:
    """The units in which ``value`` is a plausible result of ``analyte`` (data table)."""
    table: dict[str, list[float]] = _words()["plausible"].get(analyte, {})
    return [u for u, (lo, hi) in table.items() if lo <= value <= hi]


def _since_day(low: str) -> str | None:
    """"since Monday", "depuis lundi", "desde segunda", "desde el lunes": from that day's
    midnight (the last one not after today)."""
    said = _words()["since_day"]
    days = "|".join(sorted(said["days"], key=len, reverse=True))
    m = re.search(rf"(?<![a-z])(?:{'|'.join(said['since'])})\s+(?:(?:le|o|a|el|last)\s+)?"
                  rf"({days})(?![a-z])", low)
    return f"since-{said['days'][m.group(1)]}" if m else None


def _since_month(low: str) -> str | None:
    """"since May", "depuis mai", "desde o mês de agosto", "desde enero de 2025": from the first
    midnight of that month (the last one not after today when no year is said)."""
    said = _words()["since_month"]
    months = _alt(_month_names())
    m = re.search(rf"(?<![a-z])(?:{_alt(_words()['since_day']['since'])})\s+"
                  rf"(?:(?:{_alt(said['lead'])})\s+)?({months})(?![a-z])"
                  rf"(?:\s+(?:de\s+|of\s+)?((?:19|20)\d{{2}})(?![\d/.-]))?", low)
    if not m:
        return None
    return f"m{_month_names()[m.group(1)]}" + (f"-{m.group(2)}" if m.group(2) else "")


def _month(low: str) -> str | None:
    """"in October", "en octobre", "em outubro de 2025", "durante enero": that calendar month as
    a window key ("c10", "c10-2025"), the last one not after today when no year is said."""
    said = _words()["since_month"]
    during, lead = _alt(_words()["year_words"]), _alt(said["lead"])
    year = r"(?:\s+(?:de\s+|of\s+)?((?:19|20)\d{2})(?![\d/.-]))?"
    forms = (rf"(?<![a-z])(?:{during})\s+(?:(?:{lead})\s+)?({_alt(_month_names())})(?![a-z]){year}",
             # (never a day's date: "30 de setembro de 1950", "the 3rd of May")
             rf"(?<![a-z])(?<!\d\s)(?<!\d(?:st|nd|rd|th|er)\s)(?:{_alt(said['of'])})\s*"
             rf"({_alt(said['months'])})(?![a-z]){year}")
    m = next((m for form in forms for m in re.finditer(form, low) if not _born(low, m)), None)
    if not m:
        return None
    return f"c{_month_names()[m.group(1)]}" + (f"-{m.group(2)}" if m.group(2) else "")


@lru_cache(maxsize=1)
def _month_names() -> dict[str, int]:
    """Every month word, in full and as charts cut them ("agosto", "aug", "janv")."""
    said = _words()["since_month"]
    return {**said["months"], **said["short"]}


def _day_named(low: str) -> str | None:
    """One day named by its month ("on 3rd May", "on May 3", "le 3 mai", "em 3 de maio", "el 3
    de mayo de 2026") as a window key ("on5-3", "on5-3-2026"); the last such day not after today
    when no year is said. A day written in digits only ("3/5") is left unread: day and month
    order differ by country."""
    months = _alt(_month_names())
    year = r"(?:,?\s+(?:de\s+|of\s+)?((?:19|20)\d{2})(?![\d/.-]))?"
    num = r"(3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th|er)?"
    since = _alt(_words()["since_day"]["since"])
    day_first = _alt(_words()["since_day"]["day_first"])
    forms = (
        rf"(?<![a-z])(?:on|le|em|no dia|dia|el|el dia)\s+(?:the\s+)?{num}\s+(?:of\s+|de\s+)?"
        rf"({months})(?![a-z]){year}",
        rf"(?<![a-z])on\s+({months})\s+{num}(?![\d]){year}",
        # after a word of since, the day starts the window ("depuis le 1er décembre", "desde
        # o dia 1 de dezembro", "since Dec 1st"), never that day alone
        rf"(?<![a-z])(?:{since})\s+(?:(?:le|o|el|the|o dia|el dia|dia)\s+)?{num}\s+"
        rf"(?:of\s+|de\s+)?({months})(?![a-z]){year}",
        rf"(?<![a-z])(?:{since})\s+({months})\s+{num}(?![\d]){year}",
        # after a word of since of a language that writes the day first, "d/m" is that day
        # ("desde 1/12", "depuis le 3/11/2025"); the month is read in digits below
        rf"(?<![a-z])(?:{day_first})\s+(?:(?:le|o|el|o dia|el dia|dia)\s+)?(3[01]|[12]\d|0?[1-9])"
        rf"/(1[0-2]|0?[1-9])(?:/((?:19|20)\d{{2}}))?(?![\d/])",
    )
    for k, form in sorted(enumerate(forms), key=lambda kf: -kf[0]):  # since before on
        m = re.search(form, low)
        if m:
            day, month = (m.group(1), m.group(2)) if k in (0, 2, 4) else (m.group(2), m.group(1))
            said = int(month) if k == 4 else _month_names()[month]
            held = m.group(3)
            if int(day) > _LONGEST[said - 1] or (
                    held and (said, int(day)) == (2, 29) and not calendar.isleap(int(held))):
                return None  # "on 31st June", "29 February 2026": no such day, no window
            lead = "from" if k >= 2 else "on"
            return f"{lead}{said}-{int(day)}" + (f"-{m.group(3)}" if m.group(3) else "")
    return None


def _year(low: str) -> str | None:
    """"in 2025", "em 2025", "durante 2024": that calendar year as a window key ("y2025")."""
    said = _alt(_words()["year_words"])
    m = next((m for m in re.finditer(rf"(?<![a-z])(?:{said})\s+((?:19|20)\d{{2}})(?![\d/.-])", low)
              if not _born(low, m)), None)
    return f"y{m.group(1)}" if m else None


def _born(low: str, m: re.Match[str]) -> bool:
    """The year or month said after a word of birth ("nacido en 1950", "né en mai 1943", "born
    in 1950"): when the patient was born, said to name her, never a window of her results."""
    return bool(re.search(rf"(?<![a-z])(?:{_alt(_words()['birth_words'])})\s*$", low[:m.start()]))


def _window(low: str) -> str | None:
    if _phrase(low, "admission"):
        return "admission"
    year = _year(low)
    if year:
        return year
    since = _day_named(low) or _since_day(low) or _since_month(low) or _month(low)
    if since:
        return since
    fraction = _fraction().search(low)
    if fraction:
        return key_of(int(fraction.group(1)) * _words()["fractions"][fraction.group(2)])
    if _phrase(low, "rolling_day"):  # "since this time yesterday": the last 24 hours
        return "24h"
    for key in ("night", "morning", "shift"):  # before "yesterday": "since yesterday evening"
        if _phrase(low, key):
            return key
    if _phrase(low, "since_yesterday"):
        return "yesterday"
    if _phrase(low, "weekend"):  # before "this week": "this weekend" is no week
        return "weekend"
    if _phrase(low, "this_week"):
        return "7d"
    if _phrase(low, "this_month"):
        return "30d"
    if _phrase(low, "this_year"):
        return "365d"
    for pattern in _patterns():
        m = pattern.search(low)
        if m:
            amount, unit = m.group(1), m.group(2)
            n = (
                float(amount)
                if amount and amount[0].isdigit()
                else float(_words()["numbers"].get(amount or "", 1))
            )
            return key_of(n * _words()["units"][unit])
    return "today" if _phrase(low, "today") else None


def _mean(low: str) -> bool:
    low = re.sub(_words()["clock_half"], " ", low)  # "a las 8 y media": a time, no mean
    if not _phrase(low, "mean"):
        return False
    return not any(re.search(p, low) for p in _words()["not_mean"])


def key_of(hours: float) -> str:
    """24 -> "24h"; whole days above two days -> "3d"."""
    whole = round(hours)
    return f"{whole // 24}d" if whole > 48 and whole % 24 == 0 else f"{max(whole, 1)}h"


def zone(name: str | None) -> tzinfo:
    """The site's time zone (an IANA name); UTC when unset or unknown."""
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def bounds(window: str, now: datetime, tz: tzinfo) -> Window:
    """The window a key names, ending ``now`` (aware)."""
    local = now.astimezone(tz)
    midnight = datetime.combine(local.date(), time(0), tzinfo=tz)
    if window == "today":
        return Window(midnight, now, "today", message(N_("today")))
    if window == "yesterday":
        return Window(midnight - timedelta(days=1), now, "since yesterday",
                      message(N_("since yesterday")))
    if window in ("night", "morning", "shift"):
        return ward_day(window, now, tz)
    if window == "weekend":
        return _weekend_bounds(midnight, now)
    m = WINDOW_KEY.match(window)
    if m and m.group(5):  # a calendar year: its first midnight to its last second (or now)
        year = int(m.group(5))
        start = datetime(year, 1, 1, tzinfo=tz)
        end = min(now, datetime(year + 1, 1, 1, tzinfo=tz) - timedelta(seconds=1))
        return Window(start, end, f"in {year}", message(N_("in %(year)s"), year=year))
    if m and m.group(6):
        return _since_month_bounds(int(m.group(6)), m.group(7), now, tz)
    if m and m.group(8):
        return _month_bounds(int(m.group(8)), m.group(9), now, tz)
    if m and m.group(10):
        return _day_bounds(int(m.group(10)), int(m.group(11)), m.group(12), now, tz)
    if m and m.group(13):
        return _from_day_bounds(int(m.group(13)), int(m.group(14)), m.group(15), now, tz)
    if m and m.group(4):  # since a day of the week: its last midnight not after today
        back = (local.weekday() - int(m.group(4))) % 7
        day = _DAYS[int(m.group(4))]
        return Window(midnight - timedelta(days=back), now, f"since {day}",
                      message(N_("since %(day)s"), day=day))
    if not m or not m.group(1):
        raise ValueError(f"not a window: {window!r}")
    n, unit = int(m.group(1)), m.group(2)
    span = timedelta(hours=n) if unit == "h" else timedelta(days=n)
    said = (message(N_("in the last %(n)s hours"), n=n) if unit == "h" and n != 1
            else message(N_("in the last hour")) if unit == "h"
            else message(N_("in the last %(n)s days"), n=n))
    return Window(now - span, now, english(said), said)


def _weekend_bounds(midnight: datetime, now: datetime) -> Window:
    """The last Saturday's midnight not after today to the Monday's midnight, or ``now`` while
    the weekend runs ("over the weekend" asked on a Tuesday: Saturday and Sunday)."""
    start = midnight - timedelta(days=(midnight.weekday() - 5) % 7)
    return Window(start, min(now, start + timedelta(days=2) - timedelta(seconds=1)),
                  "over the weekend", message(N_("over the weekend")))


def _since_month_bounds(month: int, year: str | None, now: datetime, tz: tzinfo) -> Window:
    """From the first midnight of ``month`` (of ``year``, else the last such not after today)
    to ``now``, named with its date ("since 1 May 2026")."""
    local = now.astimezone(tz)
    held = int(year) if year else local.year - (month > local.month)
    start = datetime(held, month, 1, tzinfo=tz)
    day = f"1 {_MONTHS[month - 1]} {held}"
    return Window(start, now, f"since {day}", message(N_("since %(day)s"), day=day))


def _month_bounds(month: int, year: str | None, now: datetime, tz: tzinfo) -> Window:
    """That calendar month (of ``year``, else the last such not after today): its first midnight
    to its last second, or ``now`` while it runs ("in October 2026")."""
    local = now.astimezone(tz)
    held = int(year) if year else local.year - (month > local.month)
    start = datetime(held, month, 1, tzinfo=tz)
    after = datetime(held + (month == 12), month % 12 + 1, 1, tzinfo=tz)
    named = f"{_MONTHS[month - 1]} {held}"
    return Window(start, min(now, after - timedelta(seconds=1)), f"in {named}",
                  message(N_("in %(month)s"), month=named))


def _day_bounds(month: int, day: int, year: str | None, now: datetime, tz: tzinfo) -> Window:
    """That day (of ``year``, else the last such not after today): its midnight to its last
    second, or ``now`` while it runs ("on 3 May 2026")."""
    local = now.astimezone(tz)
    held = int(year) if year else local.year - ((month, day) > (local.month, local.day))
    while not year and not calendar.isleap(held) and (month, day) == (2, 29):
        held -= 1  # "on 29 February": the last one there was
    try:
        start = datetime(held, month, day, tzinfo=tz)
    except ValueError as exc:  # "29 February 2026": no such day
        raise ValueError(f"not a day: {day} {_MONTHS[month - 1]} {held}") from exc
    named = f"{day} {_MONTHS[month - 1]} {held}"
    return Window(start, min(now, start + timedelta(days=1) - timedelta(seconds=1)),
                  f"on {named}", message(N_("on %(day)s"), day=named))


def _from_day_bounds(month: int, day: int, year: str | None, now: datetime,
                     tz: tzinfo) -> Window:
    """From that day's midnight (of ``year``, else the last such day not after today) to now
    ("depuis le 1er décembre")."""
    start = _day_bounds(month, day, year, now, tz).start
    named = f"{day} {_MONTHS[month - 1]} {start.year}"
    return Window(start, now, f"since {named}", message(N_("since %(day)s"), day=named))


def ward_day(window: str, now: datetime, tz: tzinfo) -> Window:
    """The night just passed (from ``night_starts`` o'clock the day before), this morning (from
    ``morning_starts`` o'clock today) or the last shift (``shift_hours`` back), ending ``now``,
    named with the time it starts so the answer says which window was read."""
    local, w = now.astimezone(tz), _words()
    if window == "shift":
        n = int(w["shift_hours"])
        said = message(N_("in the last shift (the last %(n)s h)"), n=n)
        return Window(now - timedelta(hours=n), now, english(said), said)
    day = local.date() - timedelta(days=1) if window == "night" else local.date()
    hour = int(w["night_starts"] if window == "night" else w["morning_starts"])
    start = datetime.combine(day, time(hour), tzinfo=tz)
    clock = f"{hour:02d}:00"
    said = (message(N_("overnight (since %(time)s yesterday)"), time=clock) if window == "night"
            else message(N_("since this morning (%(time)s)"), time=clock))
    return Window(start, now, english(said), said)
