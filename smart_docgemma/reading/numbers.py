"""Numbers written in words, read as digits where a dose, a count or a time follows them.

"Augmentin un gramme deux fois par jour pendant huit jours", "Brufen seiscentos miligramas de 12
em 12 horas", "ciprofloxacino quinientos mg cada doce horas": clinicians dictate and type doses in
words. Every reader of a dose, a frequency and a duration reads digits, so the turn's text has
its spelled numbers put in digits once, before it is read (``agent/extraction.read``): a run of
number words (``data/numbers.yaml``) directly before a unit, a form or a time
becomes its value (text2num, MIT, gives each language's value). A number word anywhere else
("un IEC", "trois fois par jour", "dos veces") is left as written, so an article is never a
dose and a count of doses stays in the words the card shows.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from text_to_num import alpha2digit

from ..datafiles import safe_yaml
from ..languages import fold

DATA = Path(__file__).with_name("data") / "numbers.yaml"
LANGUAGES = ("fr", "es", "pt", "en")


@cache
def _table() -> dict:
    found: dict = safe_yaml(DATA.read_text(encoding="utf-8"))
    return found


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


def value(words: str) -> str | None:
    """The digits of a run of number words, in the first language that reads it whole."""
    for lang in LANGUAGES:
        said = alpha2digit(words, lang, threshold=0)
        if re.fullmatch(r"\d+", said.strip()):
            return said.strip()
    return None


@cache
def _after_sign() -> re.Pattern[str]:
    """A run of number words right after a vital sign's word (``sign_before``)."""
    words = sorted({w for ws in _table()["words"].values() for w in ws}, key=len, reverse=True)
    number = "|".join(re.escape(w) for w in words if w not in {"et", "e", "y", "and"})
    run = rf"(?:{number})(?:(?:\s+|-)(?:(?:et|e|y|and)(?:\s+|-))?(?:{number}))*"
    signs = "|".join(re.escape(w) for w in sorted(_table()["sign_before"], key=len, reverse=True))
    pair = "|".join(re.escape(w) for w in _table()["sign_pair"])
    return re.compile(rf"(?<![\w-])(?:{signs})\s*(?:(?:a|à|de|of|at|:)\s+)?({run})(?![\w-])"
                      rf"(?:\s+(?:{pair})\s+({run})(?![\w-]))?", re.I)


def signs_in_digits(text: str) -> str:
    """``text`` with a vital sign's value dictated in words right after its word as digits
    ("pouls nonante-six": "pouls 96"), when it is ``sign_least`` or more; the rest as written."""
    folded = fold(text)
    if len(folded) != len(text):
        return text
    out, last = [], 0
    for m in _after_sign().finditer(folded):
        digits = value(m.group(1).lower())
        if digits is None or int(digits) < _table()["sign_least"]:
            continue
        out += [text[last:m.start(1)], digits]
        last = m.end(1)
        second = value(m.group(2).lower()) if m.group(2) else None
        if second is not None:  # "ciento sesenta sobre noventa": the pair's second number
            out += [text[last:m.start(2)], second]
            last = m.end(2)
    return "".join(out) + text[last:] if out else text


def in_digits(text: str) -> str:
    """``text`` with each run of number words before a unit, a form or a time as its digits,
    and each unit written in full after a number as its symbol; the rest as written (accents
    kept: the words are found on the folded text, whose letters stand where the text's do)."""
    folded = fold(text)
    if len(folded) != len(text):
        return text
    # a sign's value first: "TA ciento sesenta sobre noventa" is a pressure, never 160 sachets
    said = signs_in_digits(text)
    return _symbols(_digits(said, fold(said)))


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
