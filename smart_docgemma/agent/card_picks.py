"""Which pending card a follow-up points at when several were drafted, and a cancel taken back.

"cancel the first one", "annule la première", "muda a segunda para 2x/dia": the card is the one
at that place among the session's pending medication cards, oldest first ("the last one" is the
newest); what is left of the message once the pointer is taken out is the cancel or the change,
read as it would be of that card alone. "actually keep it", "desfaz", "vuelve a ponerlo" right
after a cancel bring the cancelled card back; "no, the other one" brings it back and withdraws
the card still pending in its place. The words are data (``agent/data/amendments.yaml``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .languages import fold
from .prompts import load

_AROUND = (r"(?:no|nope|nah|non|nao|ok|okay|please|pls|svp|stp|por favor|sorry|actually|en fait|"
           r"finalement|finalmente|afinal|al final|enfin|bon|bueno|wait|attends|espera|oops|oh|"
           r"ah|ops|opa|uy|ay|sim|si|oui|yes|yeah|hmm|mais|but|pero|mas|oups|oopsie|"
           # "je le veux quand même", "no, mejor déjala", "quero mesmo assim"
           r"quand meme|tout compte fait|after all|mesmo assim|de todas formas|de todos modos|"
           r"igual|mejor|melhor|plutot|better)")
_SEP = r"[\s,.!;:\u2014\u2013-]"


@dataclass(frozen=True)
class Pointed:
    """The place of the card a message points at (1 = oldest; -1 = newest) and the message
    without the pointer ("cancel the first one" → 1, "cancel")."""

    place: int
    rest: str


def _folded(message: str) -> str:
    return " ".join(fold(message).lower().replace("\u2019", "'").split())


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(str(w)) for w in sorted(words, key=lambda w: -len(str(w))))


@lru_cache(maxsize=1)
def _ordinals() -> tuple[tuple[int, re.Pattern[str]], ...]:
    data = load("amendments")
    articles = _alternation([*data["card_articles"], "el", "lo", "los", "las"])
    nouns = _alternation(data["card_ordinal_nouns"])
    out = []
    for place, words in data["card_ordinals"].items():
        out.append((int(place), re.compile(
            rf"(?<![\w'])(?:(?:{articles})\s*)?(?:{_alternation(words)})(?:\s+(?:{nouns}))?"
            r"(?![\w'-])(?!\s+(?:thoughts?|pensee|dose|doses|dosis|time|fois|vez|day|jour|dia|"
            r"week|semaine|semana|line|ligne|linea|linha))")))
    return tuple(out)


def pointed(message: str) -> Pointed | None:
    """The card's place a message names, with the rest of the message; None when it names none
    or more than one."""
    low = _folded(message)
    found = [(place, m) for place, pattern in _ordinals() for m in pattern.finditer(low)]
    if len(found) != 1:
        return None
    place, m = found[0]
    rest = " ".join(f"{low[:m.start()]} {low[m.end():]}".split())
    return Pointed(place, rest)


@lru_cache(maxsize=2)
def _whole(key: str) -> re.Pattern[str]:
    said = _alternation(load("amendments")[key])
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{said})(?:{_SEP}+(?:{said}))*"
                      rf"(?:{_SEP}*{_AROUND})*[\s.!]*$")


def restores(message: str) -> bool:
    """The message only takes the last cancel back ("actually keep it", "desfaz"; after a "no"
    or a "wait", "no, espera, déjalo")."""
    folded = _folded(message)
    if _whole("restore_words").match(folded):
        return True
    if _NO_FIRST.match(folded) and _whole("restore_after_no").match(folded):
        return True
    return bool(_WAIT.search(folded) and _whole("restore_after_wait").match(folded))


# a "no" or a "wait" opening the message: "deixa ficar" then takes the cancel back ...
_NO_FIRST = re.compile(r"^\s*(?:no|non|nao|wait|espera|attends|hold on|pera)\b")
# ... and a "wait" or a "better" anywhere: "déjalo" ("no, déjalo" alone is "drop it")
_WAIT = re.compile(r"\b(?:wait|espera|attends|hold on|pera|mejor|melhor|better|plutot)\b")


def points_at_other(message: str) -> bool:
    """The message only says the other card was meant ("no, the other one", "non, l'autre"), or
    chooses the first back ("go with the first one", "fica com o primeiro")."""
    folded = _folded(message)
    return bool(_whole("other_card_words").match(folded) or _first_chosen().match(folded))


@lru_cache(maxsize=1)
def _first_chosen() -> re.Pattern[str]:
    data = load("amendments")
    choose, first = _alternation(data["choose_card_words"]), _alternation(data["first_card_words"])
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{choose})\s+(?:{first})"
                      rf"(?:{_SEP}*{_AROUND})*[\s.!]*$")
