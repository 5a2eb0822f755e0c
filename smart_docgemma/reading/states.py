"""The patient's state the clinician says in the conversation: pregnant, breastfeeding.

"she's breastfeeding - ok to give codeine?" asks of a woman the chart may not say breastfeeds;
the safety checks weigh what was said beside the chart (``HookData.stated``), so the finding does
not depend on whether the state was ever coded. The words are in ``data/states.yaml`` (four
languages); a negation just before the word says she is not, and the clinician's latest message
that says either way wins ("she's pregnant" then "sorry, not pregnant").
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from ..languages import fold

_DATA = Path(__file__).parent / "data" / "states.yaml"
_BEFORE = 4  # the words before a state word a negation is read in ("she is not currently pregnant")


@lru_cache(maxsize=1)
def _words() -> dict:
    return safe_yaml(_DATA.read_text(encoding="utf-8"))


def _plain(text: str) -> str:
    """Folded, lower case, signs but a clause's ends as spaces: "isn't" is "isn t",
    "breast-feeding" stays joined, "?" "," "." ";" "!" are kept (a clause's question)."""
    spaced = re.sub(r"\s[-\u2013\u2014]+\s", " , ", fold(text).lower())  # "X - ok to give Y?"
    spaced = re.sub(r"([?.,;!])", r" \1 ", spaced)
    return " ".join(re.sub(r"[^\w\s?.,;!-]", " ", spaced).split())


def _asks_it(low: str, start: int, end: int) -> bool:
    """The state word is asked, not said: its clause ends in "?" and puts it after a verb of
    being asked of her ("is she pregnant?", "could she be breastfeeding?", "est-elle enceinte ?",
    "ela esta gravida?"); "can I give codeine while breastfeeding?" says it."""
    head = re.split(r"[?.,;!]", low[:start])[-1].split()
    tail = re.match(r"[^?.,;!]*([?.,;!]|$)", low[end:])
    asked = bool(tail and tail.group(1) == "?")
    return asked and len(head) <= 5 and bool(set(head) & set(_words()["asking"]))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    # a word of four letters or fewer is whole ("aki", "erc": not "akinesia", "ercp"); a longer
    # one is a prefix ("dialys": dialysis, dialysé, dialyse)
    return {state: re.compile(r"\b(?:" + "|".join(
        re.escape(w) + (r"\b" if len(w) <= 4 else r"\w*") for w in words) + r")")
            for state, words in _words()["states"].items()}


def said_in(text: str) -> dict[str, bool]:
    """Each state one message says: True (she is), False (she is not); absent when unsaid."""
    low, out = _plain(text), {}
    for state, pattern in _patterns().items():
        for m in pattern.finditer(low):
            before = " " + " ".join(low[:m.start()].split()[-_BEFORE:]) + " "
            after = low[m.end():m.end() + 12]
            if any(f" {t}" in f" {after}" for t in _words()["tests"]) or _asks_it(
                    low, m.start(), m.end()):
                continue  # "pregnancy test negative", "is she pregnant?" say nothing of it
            out[state] = not any(f" {n} " in before for n in _words()["negations"])
    if "pregnant" not in out and _gestation().search(" ".join(fold(text).lower().split())):
        out["pregnant"] = True  # "she's 12/40", "28 SA": her weeks of pregnancy
    return out


@lru_cache(maxsize=1)
def _gestation() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in _words()["gestation"]))


def said_weight(text: str) -> float | None:
    """Her weight said with its unit in ``text`` (kg), None when none is said: "weighs 22kg
    now", "wt 22 kg", "elle pèse 22 kg"; never a per-kg dose ("15 mg/kg")."""
    words = "|".join(re.escape(w) for w in sorted(_words()["weight_words"], key=len, reverse=True))
    m = re.search(rf"(?<![a-z])(?:{words})\s*[:=]?\s*(\d{{1,3}}(?:[.,]\d{{1,2}})?)\s*"
                  r"(?:kg|kgs|kilos?|kilogram\w*)(?![a-z/])", " ".join(fold(text).lower().split()))
    return float(m.group(1).replace(",", ".")) if m else None


def stated(messages: list[str]) -> tuple[str, ...]:
    """The states the clinician's messages leave said, oldest to newest (the latest wins)."""
    now: dict[str, bool] = {}
    for text in messages:
        now.update(said_in(text))
    return tuple(sorted(state for state, yes in now.items() if yes))
