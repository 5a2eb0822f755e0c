"""A dictated message read back to the form a typed one has: spoken punctuation, numbers said as
words and unit words ("start amoxicillin five hundred milligrams three times a day full stop"
→ "start amoxicillin 500 mg three times a day."), so the one reading of doses, times and
readings sees what it sees in a typed order. The words are data (``data/spoken.yaml``).

A number word becomes digits only where a number is meant: before a unit or a count ("one
gram", "two puffs", "five days"), after a word that takes a value ("at seven", "pulse eighty
eight", "make it eighty"), or in a reading said "over" ("one sixty over ninety five" → 160/95);
"no one", "the one dose" and "which one" stay words.
"""
from __future__ import annotations

import re
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml

DATA = Path(__file__).with_name("data") / "spoken.yaml"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data: dict[str, Any] = safe_yaml(DATA.read_text())
    return data


def _words(table: dict[str, Any]) -> str:
    return "|".join(re.escape(w) for w in sorted(table, key=len, reverse=True))


@lru_cache(maxsize=1)
def _number_words() -> dict[str, int]:
    n = _data()["numbers"]
    return {**n["units"], **n["teens"], **n["tens"], **n["scales"]}


@lru_cache(maxsize=1)
def _run() -> re.Pattern[str]:
    """A run of number words ("eight hundred and fifty", "two point five", "one sixty")."""
    word = _words(_number_words())
    return re.compile(rf"(?<![\w'])(?:{word})(?:(?:\s+and)?[\s-]+(?:{word}|point))*"
                      rf"(?:\s+point(?:\s+(?:{word}))+)?(?![\w'])", re.I)


def value(said: str) -> float | None:
    """The number a run of number words says: "eight hundred and fifty" 850, "ninety five" 95,
    "one sixty" 160 (a reading's hundreds said alone), "two point five" 2.5."""
    words = [w for w in re.split(r"[\s-]+", said.lower()) if w and w != "and"]
    table = _number_words()
    if "point" in words:
        at = words.index("point")
        whole, decimals = words[:at], words[at + 1:]
        if not decimals or any(table.get(w, 10) > 9 for w in decimals):
            return None
        head = value(" ".join(whole)) if whole else 0.0
        return None if head is None else float(f"{head:g}." + "".join(
            str(table[w]) for w in decimals))
    if any(w not in table for w in words):
        return None
    if len(words) >= 2 and table[words[0]] < 10 and 10 <= table[words[1]] < 100:
        rest = value(" ".join(words[1:]))  # "one sixty", "one twenty five"
        return None if rest is None or rest >= 100 else table[words[0]] * 100 + rest
    total, part = 0, 0
    for w in words:
        n = table[w]
        if n == 1000:
            total, part = total + max(part, 1) * 1000, 0
        elif n == 100:
            part = max(part, 1) * 100
        elif not _fits(part % 100, n):
            return None  # "five six", "ninety ninety" are no number
        else:
            part += n
    return float(total + part)


def _fits(low: int, n: int) -> bool:
    """``n`` (under 100) may follow the last two digits said: a unit after tens ("ninety
    five"), anything after nothing or hundreds."""
    return low == 0 or (n < 10 and low >= 20 and low % 10 == 0)


def _digits(number: float) -> str:
    return f"{number:g}"


@lru_cache(maxsize=1)
def _units() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w/])({_words(_data()['units'])})(?![\w/])", re.I)


@lru_cache(maxsize=1)
def _before() -> re.Pattern[str]:
    words = _words({w: 1 for w in _data()["before_a_number"]})
    return re.compile(rf"(?:^|(?<![\w']))(?:{words})\s*$", re.I)


@lru_cache(maxsize=1)
def _after() -> re.Pattern[str]:
    words = _words({w: 1 for w in _data()["after_a_number"]})
    return re.compile(rf"^\s*(?:{words})(?![\w])", re.I)


def _meant(text: str, start: int, end: int, said: str) -> bool:
    """A run of number words is a number here: a unit or a count after it, a word taking a value
    before it, "over" after it (a reading), or more than one word."""
    before, after = text[:start], text[end:]
    # "over" or a spoken slash after it: a reading ("one thirty eight slash eighty six")
    if _after().match(after) or _before().search(before) or _SLASH_READING.match(after):
        return True
    words = said.lower().split()
    return len(words) > 1 and words[0] not in ("one", "oh")


def _numbers(text: str) -> str:
    out, last = [], 0
    for m in _run().finditer(text):
        said = m.group(0)
        number = value(said)
        if number is None or not _meant(text, m.start(), m.end(), said):
            continue
        out += [text[last:m.start()], _digits(number)]
        last = m.end()
    return "".join(out) + text[last:]


@lru_cache(maxsize=1)
def _clock_said() -> re.Pattern[str]:
    n = _data()["numbers"]
    hours = _words({w: v for w, v in n["units"].items() if 0 < v < 10})
    minutes = _words({**n["teens"], **n["tens"], **n["units"]})
    return re.compile(rf"(?<![\w'])(?:{_words({w: 1 for w in _data()['clock_leads']})})\s+"
                      rf"({hours})\s+(hundred|(?:{minutes})(?:[\s-]+(?:{minutes}))?)"
                      rf"(?:\s+hours)?(?![\w'])", re.I)


def _clock(m: re.Match[str]) -> str:
    """"oh six hundred" 06:00, "zero five thirty" 05:30; the words left as said when their
    minutes are no minutes ("oh six ninety") or an amount follows ("oh five hundred mg": an
    "oh" before a dose)."""
    hour = _number_words()[m.group(1).lower()]
    said = m.group(2).lower()
    minutes = 0.0 if said == "hundred" else value(said)
    if minutes is None or minutes >= 60 or _after().match(m.string[m.end():]):
        return m.group(0)
    return f"{hour:02d}:{int(minutes):02d}"


# a spoken slash before a diastolic said in tens ("one thirty eight slash eighty six")
_SLASH_READING = re.compile(r"\s*(?:over\b|/\s*(?:twenty|thirty|forty|fourty|fifty|sixty|seventy|"
                            r"eighty|ninety|one hundred|\d{2,3})(?![\w']))", re.I)
_HALF_HOUR = re.compile(
    r"(?<![\w'])(at|@)\s+half\s+(one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|1[0-2]|[1-9])(?![\w'])(?!\s*(?:mg|g|mcg|ml|units?|tabs?|tablets?|an? hour)\b)",
    re.I)


def as_typed(text: str) -> str:
    """``text`` with its spoken punctuation, number words and unit words written as typed."""
    data = _data()
    punct = data["punctuation"]
    text = re.sub(rf"\s*(?<![\w])({_words(punct)})(?![\w])",
                  lambda m: punct[m.group(1).lower()], text, flags=re.I)
    fractions = data["numbers"]["fractions"]
    # never a Gram stain ("a gram-negative rod", "gram positive cocci"): no amount
    units = rf"(?:{_words(data['units'])})\b(?!-|\s+(?:negative|positive|stain))"
    text = re.sub(rf"(?<![\w])({_words(fractions)})\s+(?={units})",
                  lambda m: fractions[m.group(1).lower()] + " ", text, flags=re.I)
    text = _units().sub(lambda m: data["units"][m.group(1).lower()], text)
    text = _clock_said().sub(_clock, text)  # "at oh six hundred": 06:00
    # "at half five" (British speech for half past five): 05:30, never half of five
    text = _HALF_HOUR.sub(r"\1 half past \2", text)
    text = _numbers(text)
    # a reading said "160 over 95" (or "160 slash 95") is written 160/95
    text = re.sub(r"(?<![\w.])(\d{2,3})\s+over\s+(\d{2,3})(?![\w.])", r"\1/\2", text)
    text = re.sub(r"(?<![\w./])(\d{2,3})/\s+(\d{2,3})(?![\w./])", r"\1/\2", text)
    # a decimal point said between figures ("62 point 5 kg", "38 virgule 5") is written 62.5
    points = _words({w: 1 for w in data["decimal_points"]})
    text = re.sub(rf"(?<![\w.,])(\d+)\s+(?:{points})\s+(\d+)(?![\w.,])", r"\1.\2", text,
                  flags=re.I)
    return _marked(text)


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH_SAID = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
               r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")


@lru_cache(maxsize=1)
def _date_said() -> re.Pattern[str]:
    """A month's name, its day said in words (an ordinal, after tens or not, or a number) and
    its year said in words or figures ("feb third nineteen eighty one", "may twenty third twenty
    twenty three", "jan 21st nineteen thirty five", "september twenty seventh 2021")."""
    number = _words(_number_words())
    ordinal = _words(_data()["ordinals"])
    day = (rf"(?:(?:twenty|thirty)[\s-]+)?(?:{ordinal})|\d{{1,2}}(?:st|nd|rd|th)?"
           rf"|(?:{number})(?:[\s-]+(?:{number}))?")
    return re.compile(rf"(?<![\w'])({_MONTH_SAID})\.?\s+(?:the\s+)?({day}),?\s+"
                      rf"((?:19|20)\d\d|(?:{number})(?:(?:\s+and)?[\s-]+(?:{number}))*)(?![\w'])",
                      re.I)


def _day_said(said: str) -> int | None:
    words = re.split(r"[\s-]+", said.lower())
    ordinals = _data()["ordinals"]
    if words[-1] in ordinals:
        tens = value(" ".join(words[:-1])) if len(words) > 1 else 0
        return None if tens is None else int(tens) + ordinals[words[-1]]
    if said[:1].isdigit():
        return int(re.match(r"\d+", said).group(0))  # type: ignore[union-attr]
    n = value(said)
    return None if n is None else int(n)


def _year_said(said: str) -> int | None:
    """"nineteen eighty one" 1981, "twenty twenty three" 2023, "nineteen oh five" 1905, "two
    thousand and five" 2005; None for anything else."""
    if said.isdigit():  # "september twenty seventh 2021"
        return int(said)
    words = [w for w in re.split(r"[\s-]+", said.lower()) if w]
    table = _number_words()
    if "thousand" in words:
        n = value(said)
        return int(n) if n and 1900 <= n <= 2099 else None
    if len(words) < 2 or words[0] not in {"nineteen", "twenty"}:
        return None
    rest = words[1:]
    if rest[0] in {"oh", "zero"} and len(rest) == 2 and table.get(rest[1], 10) < 10:
        return table[words[0]] * 100 + table[rest[1]]
    n = value(" ".join(rest))
    return table[words[0]] * 100 + int(n) if n is not None and 10 <= n < 100 else None


def dates_said(text: str) -> str:
    """``text`` with a date said in words written in figures after its month ("dob feb third
    nineteen eighty one" → "dob feb 3 1981"); a month and day without a year said in words
    ("may twenty third") and words that make no date stay as said."""
    def typed(m: re.Match[str]) -> str:
        day, year = _day_said(m.group(2)), _year_said(m.group(3))
        month = _MONTHS.index(m.group(1)[:3].lower()) + 1
        try:  # "feb thirty first" is no day
            said = date(year or 0, month, day or 0)
        except ValueError:
            return m.group(0)
        return f"{m.group(1)} {said.day} {said.year}"
    return _date_said().sub(typed, text)


@lru_cache(maxsize=1)
def _unmarked() -> re.Pattern[str]:
    words = _words({w: 1 for w in _data()["asked_without_mark"]})
    # on a line of its own or after a comma or a dash ("amio 200 tds - any issues"), never
    # after a word ("no issues" states)
    return re.compile(rf"(?:^|(?<=[\n,;:.\-\u2013])\s*)(?:{words})[\s.!]*$", re.I)


def _marked(text: str) -> str:
    """A question typed without its mark at the end ("…\nany problems") with its mark."""
    last = text.rstrip().rsplit("\n", 1)[-1]
    if "?" in last or not _unmarked().search(text):
        return text
    return text.rstrip().rstrip(".!") + "?"
