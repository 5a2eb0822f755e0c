"""Numbers written in words, read as digits where a dose, a count or a time follows them.

"Augmentin un gramme deux fois par jour pendant huit jours", "Brufen seiscentos miligramas de 12
em 12 horas", "ciprofloxacino quinientos mg cada doce horas": clinicians dictate and type doses in
words. Every reader of a dose, a frequency and a duration reads digits, so the turn's text has
its spelled numbers put in digits once, before it is read (``agent/extraction.read``): a run of
number words (``tools/data/numbers.yaml``) directly before a unit, a form or a time
becomes its value (text2num, MIT, gives each language's value). A number word anywhere else
("un IEC", "trois fois par jour", "dos veces") is left as written, so an article is never a
dose and a count of doses stays in the words the card shows.
"""
from __future__ import annotations

import re
from functools import cache

from ..languages import fold
from ..tools.words.said_numbers import decimals_in_digits, signs_in_digits, value
from ..tools.words.said_numbers import table as _table


@cache
def _spelled() -> re.Pattern[str]:
    words = sorted({w for ws in _table()["words"].values() for w in ws}, key=len, reverse=True)
    joiners = {"et", "e", "y", "and"}
    number = "|".join(re.escape(w) for w in words if w not in joiners)
    run = rf"(?:{number})(?:(?:\s+|-)(?:(?:et|e|y|and)(?:\s+|-))?(?:{number}))*"
    after = "".join(_table()["after"].split())
    # ... or the first number of an interval said "de seis em seis horas" ("every six hours"),
    # whose second number the unit follows
    interval = rf"\s+(?:em|en)\s+(?:{run})\s+(?:horas?|heures?|h)(?![\w])"
    # ... or a clock hour said in words after its preposition ("às sete e meia", "a las ocho de
    # la mañana"): each preposition a fixed-width look-behind
    table = _table()
    before = "|".join(rf"(?<=(?<![\w-]){re.escape(w)}\s)" for w in table["clock_before"])
    clock = rf"(?:{before})({run})(?=\s+(?:{table['clock_after']})(?![\w]))"
    return re.compile(rf"(?<![\w-])({run})(?=\s+(?:de\s+|d')?(?:{after})(?![\w])|{interval})"
                      rf"|{clock}", re.I)


def in_digits(text: str) -> str:
    """``text`` with each run of number words before a unit, a form or a time as its digits,
    and each unit written in full after a number as its symbol; the rest as written (accents
    kept: the words are found on the folded text, whose letters stand where the text's do)."""
    folded = fold(text)
    if len(folded) != len(text):
        return text
    # a sign's value first: "TA ciento sesenta sobre noventa" is a pressure, never 160 sachets
    said = signs_in_digits(text)
    # a number with its decimal point in words ("três vírgula um"): one value, never two numbers
    said = decimals_in_digits(said)
    return _symbols(_millions(_digits(said, fold(said))))


@cache
def _million() -> re.Pattern[str]:
    table = _table()
    units = r"ui|u\.i\.|iu|u|units?|unites?|unidades?|unidad"
    return re.compile(
        rf"(?<![\w.,])(\d{{1,2}}(?:[.,]\d{{1,2}})?)\s*(?:{table['million_words']})(?![\w])"
        rf"(?!\s+(?:de\s+|d')?(?:{table['million_not_before']}))"
        rf"(?:\s+(?:de\s+|d'|d\u2019)?(?:{units})(?![\w]))?", re.I)


def _millions(text: str) -> str:
    """A dose said in millions of units ("2.4 millones", "1,2 milhao de UI", "2,4 MUI") as its
    units in figures ("2400000 UI")."""
    def units(m: re.Match[str]) -> str:
        value = round(float(m.group(1).replace(",", ".")) * 1_000_000)
        return f"{value} UI"
    return _million().sub(units, text)


def _digits(text: str, folded: str) -> str:
    out, last = [], 0
    for m in _spelled().finditer(folded):
        group = 1 if m.group(1) is not None else 2
        digits = value(m.group(group).lower())
        if digits is None:
            continue
        out += [text[last:m.start(group)], digits]
        last = m.end(group)
    return "".join(out) + text[last:] if out else text



@cache
def _units() -> tuple[tuple[re.Pattern[str], str], ...]:
    table = _table()
    said = [(re.compile(rf"(?<=\d)\s*(?:{words})(?![\w])", re.I), f" {unit}")
            for unit, words in table["units"].items()]
    per_kg = re.compile(rf"(?<=\d)\s*(mg|g|mcg|ml)\s+{table['per_kg']}(?![\w])", re.I)
    return (*said, (per_kg, r" \1/kg"))


def _symbols(text: str) -> str:
    """``text`` with a unit written in full after a number as its symbol ("600 miligramas":
    "600 mg"; "15 mg par kilo": "15 mg/kg"), matched on the folded text."""
    for pattern, symbol in _units():
        folded = fold(text)
        if len(folded) != len(text):
            return text
        spans = [(m.start(), m.end(), m.expand(symbol)) for m in pattern.finditer(folded)]
        for start, end, said in reversed(spans):
            text = text[:start] + said + text[end:]
    return text
