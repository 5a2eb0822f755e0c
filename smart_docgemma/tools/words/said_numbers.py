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
    words = sorted({w for ws in table()["words"].values() for w in ws}, key=len, reverse=True)
    number = "|".join(re.escape(w) for w in words if w not in {"et", "e", "y", "and"})
    run = rf"(?:{number})(?:(?:\s+|-)(?:(?:et|e|y|and)(?:\s+|-))?(?:{number}))*"
    signs = "|".join(re.escape(w) for w in sorted(table()["sign_before"], key=len, reverse=True))
    pair = "|".join(re.escape(w) for w in table()["sign_pair"])
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
        if digits is None or int(digits) < table()["sign_least"]:
            continue
        out += [text[last:m.start(1)], digits]
        last = m.end(1)
        second = value(m.group(2).lower()) if m.group(2) else None
        if second is not None:  # "ciento sesenta sobre noventa": the pair's second number
            out += [text[last:m.start(2)], second]
            last = m.end(2)
    return "".join(out) + text[last:] if out else text
