"""Numbers dictated in words, as digits: the value of a run of number words in the first of
French, Spanish, Portuguese and English that reads it whole (text2num, MIT), and a vital sign's
value dictated right after its word ("pouls nonante-six": "pouls 96"). The table of number words
(``tools/data/numbers.yaml``) is shared with the reading of a message (``reading/numbers.py``),
which puts a dose's, a count's and a time's number words in digits; a vital sign's value is read
here too, because the vital-sign tool reads the words it is given (``ward_words.readings``)."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from text_to_num import alpha2digit

from ...datafiles import safe_yaml
from ...languages import fold

DATA = Path(__file__).parents[1] / "data" / "numbers.yaml"
LANGUAGES = ("fr", "es", "pt", "en")


@cache
def table() -> dict[str, Any]:
    """The number words, per language, and the words around them (``tools/data/numbers.yaml``)."""
    found: dict[str, Any] = safe_yaml(DATA.read_text(encoding="utf-8"))
    return found


def value(words: str) -> str | None:
    """The digits of a run of number words, in the first language that reads it whole."""
    for lang in LANGUAGES:
        said: str = alpha2digit(words, lang, threshold=0)
        if re.fullmatch(r"\d+", said.strip()):
            return said.strip()
    return None


@cache
def _after_sign() -> re.Pattern[str]:
    """A run of number words right after a vital sign's word (``sign_before``)."""
    signs = "|".join(re.escape(w) for w in sorted(table()["sign_before"], key=len, reverse=True))
    pair = "|".join(re.escape(w) for w in table()["sign_pair"])
    run = _run()
    return re.compile(rf"(?<![\w-])(?P<sign>{signs})\s*(?:(?:a|à|de|of|at|:)\s+)?(?P<run>{run})"
                      rf"(?![\w-])(?:\s+(?:{pair})\s+(?P<second>{run})(?![\w-]))?", re.I)


@cache
def _run() -> str:
    words = sorted({w for ws in table()["words"].values() for w in ws}, key=len, reverse=True)
    number = "|".join(re.escape(w) for w in words if w not in {"et", "e", "y", "and"})
    return rf"(?:{number})(?:(?:\s+|-)(?:(?:et|e|y|and)(?:\s+|-))?(?:{number}))*"


@cache
def _tenth_after() -> re.Pattern[str]:
    """A temperature's tenths after its degrees: a word of the decimal point and a digit's word
    ("virgule cinq", "coma dos"), or a half ("e meio", "et demi"), with no span after it."""
    point = "|".join(re.escape(w) for w in table()["tenths_point"])
    half = table()["tenths_half"]
    return re.compile(rf"\s+(?:(?:{point})\s+(?P<tenth>{_run()})|(?P<half>{half}))"
                      rf"(?![\w-])(?!\s+(?:{table()['tenths_not_before']})(?![\w]))", re.I)


def _tenths(folded: str, m: re.Match[str]) -> tuple[str, int] | None:
    """The temperature ``m`` dictated with its tenths ("trente-huit cinq", "trinta e oito e
    meio", "trente-huit virgule deux") as "38.5" and where its words end; None otherwise."""
    if fold(m.group("sign")).lower() not in table()["sign_tenths"]:
        return None
    low, high = table()["tenths_degrees"]
    run = m.group("run").lower()
    whole = value(run)
    if whole is None:  # "trente-huit cinq": the degrees, then the tenth's word
        # "trinta e nove e dois", "treinta y nueve y dos": the joiner before the tenth dropped
        split = re.fullmatch(r"(.+?)(?:[\s-]+(?:et|e|y|and))?[\s-]+(\S+)", run)
        whole, tenth = (value(split.group(1)), value(split.group(2))) if split else (None, None)
        after = folded[m.end("run"):]
        if (whole is None or tenth is None or len(tenth) != 1 or re.match(
                rf"\s+(?:{table()['tenths_not_before']})(?![\w])", after, re.I)):
            return None
        return (f"{whole}.{tenth}", m.end("run")) if low <= int(whole) <= high else None
    said = _tenth_after().match(folded, m.end("run"))
    if said is None or not low <= int(whole) <= high:
        return None
    tenth = "5" if said.group("half") else value(said.group("tenth").lower())
    return (f"{whole}.{tenth}", said.end()) if tenth is not None and len(tenth) == 1 else None


@cache
def _decimal() -> re.Pattern[str]:
    """A number's words, a word of the decimal point and a number's words after it."""
    zero = "|".join(re.escape(w) for w in table()["decimal_zero"])
    run = rf"(?:(?:{zero})|{_run()})"
    point = "|".join(re.escape(w) for w in table()["tenths_point"])
    return re.compile(rf"(?<![\w-])(?P<whole>{run})\s+(?:{point})\s+"
                      rf"(?P<part>(?:(?:{zero})\s+)*{_run()}|{zero})(?![\w-])", re.I)


def _said(words: str) -> str | None:
    """The digits of a number's words, zero included."""
    return "0" if words.lower() in table()["decimal_zero"] else value(words.lower())


def decimals_in_digits(text: str) -> str:
    """``text`` with each number dictated with its decimal point in words in digits
    ("potássio três vírgula um": "potássio 3.1", "zéro virgule quarante-cinq": "0.45"); the
    rest as written."""
    folded = fold(text)
    if len(folded) != len(text):
        return text
    out, last = [], 0
    for m in _decimal().finditer(folded):
        whole = _said(m.group("whole"))
        words = m.group("part").split()
        zeros = 0
        while words and words[0].lower() in table()["decimal_zero"]:
            zeros, words = zeros + 1, words[1:]
        part = value(" ".join(words).lower()) if words else ""
        if whole is None or part is None or not (zeros or part):
            continue
        out += [text[last:m.start()], f"{whole}.{'0' * zeros}{part}".rstrip(".")]
        last = m.end()
    return "".join(out) + text[last:] if out else text


def signs_in_digits(text: str) -> str:
    """``text`` with a vital sign's value dictated in words right after its word as digits
    ("pouls nonante-six": "pouls 96"), when it is ``sign_least`` or more, and a temperature's
    tenths with it ("température trente-huit cinq": "température 38.5"); the rest as written."""
    folded = fold(text)
    if len(folded) != len(text):
        return text
    out, last = [], 0
    for m in _after_sign().finditer(folded):
        tenths = _tenths(folded, m)
        if tenths is not None:
            out += [text[last:m.start("run")], tenths[0]]
            last = tenths[1]
            continue
        digits = value(m.group("run").lower())
        if digits is None or int(digits) < table()["sign_least"]:
            continue
        out += [text[last:m.start("run")], digits]
        last = m.end("run")
        second = value(m.group("second").lower()) if m.group("second") else None
        if second is not None:  # "ciento sesenta sobre noventa": the pair's second number
            out += [text[last:m.start("second")], second]
            last = m.end("second")
    return "".join(out) + text[last:] if out else text
