"""A drug named in the chart of the patient in context is about her: safety by content.

Whatever the verb, the mood or the language ("aspirine pour la fièvre chez ce petit ?", "INR 3,4 -
suspendo a varfarina?"), a message that names a drug in her chart and makes no other request runs
the one safety check of that drug against her chart — unless it asks general knowledge of the drug
("how does warfarin work?", "demi-vie de l'apixaban ?": ``data/requests.yaml``).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml
from ..knowledge import classes
from ..languages import fold

DATA = Path(__file__).with_name("data")


@lru_cache(maxsize=1)
def _requests() -> dict[str, Any]:
    """``data/requests.yaml``, read once."""
    data: dict[str, Any] = safe_yaml((DATA / "requests.yaml").read_text())
    return data


@lru_cache(maxsize=1)
def _general() -> re.Pattern[str]:
    said = _requests()["general_knowledge"]
    phrases = sorted({str(p).lower() for ps in said.values() for p in ps}, key=len, reverse=True)
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])")


def asks_general_knowledge(folded: str) -> bool:
    """The message (accent folded) asks about the drug in general, not for this patient."""
    low = folded.lower()
    return bool(_general().search(low) or _WHAT_IT_DOES.search(low))


# "What do ACE inhibitors do?", "what does metformin do?": what a drug does, asked of the drug;
# "what do I do?", "what should we do?" ask for a plan for her and stay hers
_WHAT_IT_DOES = re.compile(r"\bwhat (?:do|does) (?!i\b|we\b|you\b)[\w\s-]{2,40}\bdo\s*\?")


def members_over_classes(names: list[str]) -> set[str]:
    """The class names among ``names`` that describe another drug named beside them ("the other
    quinolone - levofloxacin 500 od": levofloxacin, the quinolone its description): a class
    named with one of its members is that member, not a second drug."""
    return {n for n in names if (key := classes.named(n))
            and any(key in classes.of(m) for m in names if m != n and not classes.named(m))}


# a class said as the one she has ("the ACE inhibitor", "¿le dejamos el IECA?", "son IEC", "o
# IECA dela"), not one more of it ("an ACE inhibitor", "un IECA", "another statin")
_DEFINITE = (r"(?:the|her|his|their|this|that|current|el|la|los|las|su|sus|le|les|son|sa|ses|"
             r"ce|cet|cette|o|a|os|as|seu|sua|seus|suas|esse|essa|este|esta|ese|esa)")


def hers_of_class(folded: str, surfaces: dict[str, str], taking: list[str]) -> set[str]:
    """The class names among ``surfaces`` (name → as written) said with a definite article or a
    possessive while she takes a member of the class: the member she takes is meant, so the
    class is no second drug to check beside it."""
    low = folded.lower()
    return {name for name, surface in surfaces.items()
            if (key := classes.named(name)) and any(key in classes.of(t) for t in taking)
            and re.search(rf"(?<![\w]){_DEFINITE}\s+{re.escape(surface.lower())}(?![\w])", low)}


def ordered_drug(folded: str, mentions: list[tuple[str, str]], dose: str | None) -> str | None:
    """The drug an order with several drugs named orders: the one written right before the dose
    ("add losartan 50mg od, bp still high on the lisinopril" orders losartan; lisinopril is what
    she is on). ``mentions``: (generic name, surface as written, normalised); None when no dose
    is written or no drug stands before it."""
    low = re.sub(r"[^\w.,/]+", " ", folded.lower())
    # the dose's own number, not an age or a time before it ("6yo … give aspirin 300mg")
    amount = re.match(r"\s*(\d+(?:[.,]\d+)?)", dose or "")
    number = (re.search(rf"(?<![\d.,]){re.escape(amount.group(1))}(?!\d)", low) if amount
              else None) or re.search(r"\d", low)
    if not dose or not number:
        return None
    before = low[: number.start()]
    placed = [(before.rfind(surface), name) for name, surface in mentions
              if surface and surface in before]
    if not placed:
        return None
    at, name = max(placed)
    replaced = _replaced().search(before)
    return None if replaced and at > replaced.start() else name


def replaced_drugs(folded: str, mentions: list[tuple[str, str]]) -> tuple[str, ...]:
    """The drugs named after a word of replacing ("enalapril 10 c/12h en vez del lisinopril":
    lisinopril), which an order replaces and never orders."""
    low = re.sub(r"[^\w.,/]+", " ", folded.lower())
    said = _replaced().search(low)
    if not said:
        return ()
    return tuple(name for name, surface in mentions if low.find(surface, said.end()) >= 0)


def declined_drugs(folded: str, mentions: list[tuple[str, str]]) -> tuple[str, ...]:
    """The drugs written right after a word declining them ("not the amox, the doxy - 100mg bd",
    "don't give ibuprofen - paracetamol 1g qds instead"): never the drug an order names."""
    low = re.sub(r"[^\w.,/]+", " ", folded.lower())
    return tuple(name for name, surface in mentions
                 if surface and _declined(surface).search(low))


def without_declined(folded: str, mentions: list[tuple[str, str]]) -> str:
    """``folded`` without each declining phrase and the drug it declines, nor the sign after it
    ("not the amox, the doxy 100mg bd" -> "the doxy 100mg bd"): what is asked besides."""
    low = folded.lower()
    for _, surface in mentions:
        if surface:
            low = _declined(surface, signs=True).sub(" ", low)
    return low.strip()


@lru_cache(maxsize=512)
def _declined(surface: str, signs: bool = False) -> re.Pattern[str]:
    table = _requests()
    words = sorted(map(str, table["declined_drug"]), key=len, reverse=True)
    articles = "|".join(map(re.escape, table["declined_articles"]))
    gap = r"[^\w]+" if signs else r"\s+"  # as written ("don't") or with its signs as spaces
    said = "|".join(re.escape(w).replace(r"\ ", gap) for w in words)
    # with its signs, the dose written for the declined drug goes with it ("pas d'aspirine
    # 250 mg, paracétamol 300 mg": the order's dose is the paracetamol's)
    tail = rf"(?:{_DOSE_AFTER})?[\s,;:-]*" if signs else ""
    return re.compile(rf"(?<![\w])(?:{said}){gap}(?:(?:{articles}){gap})?{re.escape(surface)}"
                      rf"(?![\w]){tail}")


_DOSE_AFTER = r"\s*\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|ug|ml|ui|iu|units?)?(?![\w])"


@lru_cache(maxsize=1)
def _replaced() -> re.Pattern[str]:
    """The words after which a drug named is the one an order replaces (``replaced_drug``)."""
    said = _requests()["replaced_drug"]
    return re.compile(r"(?<![\w])(?:" + "|".join(re.escape(str(p)) for p in said) + r")(?![\w])")


@lru_cache(maxsize=4)
def _any_word(key: str) -> re.Pattern[str]:
    """Any word of the list ``key`` of ``requests.yaml`` (``stop_words``, ``hold_words``)."""
    said = _requests()[key]
    return re.compile(r"(?<![\w/])(?:" + "|".join(re.escape(str(w)) for w in said)
                      + r")(?![\w/])")


def says_hold(text: str) -> bool:
    """``text`` holds a drug for a time ("hold warfarin tonight", "omit the dose")."""
    return bool(_any_word("hold_words").search(fold(text).lower()))


def says_stop(text: str) -> bool:
    """``text`` (a clause) stops or holds something ("hold warfarin tonight")."""
    return bool(_any_word("stop_words").search(fold(text).lower()))


@lru_cache(maxsize=1)
def _stops() -> re.Pattern[str]:
    said = _requests()["stop_words"]
    words = "|".join(re.escape(str(w)) for w in said)
    # the stop word, then at most two words ("the", "his", "her", "le", "a") before the drug
    return re.compile(rf"(?<![\w/])(?:{words})(?![\w/])((?:\s+[\w']+){{0,2}}?)\s+$")


def stopped_drugs(folded: str, mentions: list[tuple[str, str]]) -> tuple[str, ...]:
    """The drugs an instruction stops or holds ("hold warfarin tonight", "stop the metformin and
    start gliclazide"); none in a question ("suspendo a varfarina?")."""
    low = re.sub(r"[^\w/?']+", " ", folded.lower())
    out = []
    for name, surface in mentions:
        at = low.find(surface)
        # a question asks of the drug ("suspendo a varfarina?"); one asked before it is another
        # request of the message ("INR? and stop the aspirin")
        if at < 0 or "?" in low[at:]:
            continue
        begins = low.rfind("?", 0, at) + 1
        stop = _stops().search(low[begins:at]) if at > begins else None
        # "stop taking aspirin he says": what she stopped, told (a reconciliation), no instruction
        if stop and not re.search(r"\b(?:taking|prendre|tomar|tomando)\b", stop.group(1)) and \
                not _started_between(stop.group(1)):
            out.append(name)
    return tuple(dict.fromkeys(out))


# an order word between a stop and a drug starts that drug ("stop lisinopril, start labetalol")
_STARTS = re.compile(r"\b(?:start|add|begin|commence|initiate|commencer|debuter|ajouter|"
                     r"iniciar|comecar|empezar|adicionar|anadir|agregar)\b")


def _started_between(between: str) -> bool:
    """An order word between the stop word and the drug: the drug is started, not stopped
    ("stop lisinopril, start labetalol"); a list of drugs stopped stays stopped ("stop aspirin
    and warfarin")."""
    return bool(_STARTS.search(between))


@lru_cache(maxsize=1)
def _unknown() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str]]:
    said = _requests()["unknown_drug"]
    frames = "|".join(re.escape(f) for f in sorted(said["frames"], key=len, reverse=True))
    safe = "|".join(rf"{re.escape(a)}\s+(?P<w{i}>[a-z][a-z-]{{3,}})\s+{re.escape(b)}\b"
                    for i, (a, b) in enumerate(said["safe_frames"]))
    # "zorbitex ok for her?": the word the message opens with, asked as safe for her
    asked = "|".join(re.escape(f) for f in said["asked_after"])
    place = re.compile(rf"(?<![\w-])(?:(?:{frames})\s+(?P<after>[a-z][a-z-]{{3,}})\b|{safe})"
                       rf"|^\W*(?P<lead>[a-z][a-z-]{{3,}})\s+(?:{asked})\b")
    dosed = re.compile(r"(?<![\w-])(?P<w>[a-z][a-z-]{3,})\s+\d+(?:[.,]\d+)?\s*"
                       r"(?:mg|mcg|micrograms?|g|ml|units?|iu|ui)\b")
    return place, dosed, frozenset(str(w) for w in said["not_drugs"])


def unrecognised_drug(folded: str, known: set[str]) -> str | None:
    """The word in a drug's place that no drug vocabulary knows ("start zorbitex 20mg od":
    "zorbitex"), given the accent-folded message and every word the message's other readings
    know (drugs, tests, frequencies); None when the message has none."""
    place, dosed, not_drugs = _unknown()
    low = folded.lower()
    words = [w for m in place.finditer(low) for w in m.groupdict().values() if w]
    words += [m.group("w") for m in dosed.finditer(low)]
    return next((w for w in words if w not in not_drugs and w not in known), None)


# a drug's name typed against its dose ("amox500tds", "pcm1g qds", "amoxicillin500mg"): the name,
# the amount with its unit, and what follows, read as three words
_GLUED = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z-]{2,})(\d+(?:[.,]\d+)?)"
                    r"(mg|g|mcg|ml|iu|units?)?([A-Za-z]{1,6})?(?![\w-])", re.I)


def unglued(text: str) -> str:
    """``text`` with each drug name typed against its dose set apart ("amox500tds" -> "amox
    500 tds"); a word whose letters are not a drug's whole name is left as written ("HbA1c",
    "B12", "T4", "CO2")."""
    from ..knowledge.mentions import find_drugs

    def apart(m: re.Match[str]) -> str:
        name, amount, unit, tail = m.groups()
        found = find_drugs(name.lower())
        if len(found) != 1 or found[0].surface != name.lower() or not found[0].name:
            return m.group(0)
        return " ".join(w for w in (name, amount + (unit or ""), tail) if w)

    return _GLUED.sub(apart, text)


# an allergy's words, in the four languages (accents folded, lower case), and what may stand
# between them and the substance ("allergic to the", "allergie à la", "alergia a", "allergy:")
_ALLERGY_WORD = (r"(?:allerg\w*|alerg\w*|hypersensib\w*|hipersensib\w*|intoleran\w*|"
                 r"reaction|reacao|reaccion)")
_BETWEEN = (r"(?:[\s:,\-]+(?:to|a|as|au|aux|ao|aos|al|de|do|dos|da|das|del|du|des|la|las|le|"
            r"les|los|l|d|o|os|the|with|con|com|avec|all|any|his|her|ses|sus|seus|suas))*"
            r"[\s:,\-]+")


def allergen_named(message: str, surfaces: list[str]) -> bool:
    """A drug of ``surfaces`` (as written) stands beside the allergy's words ("allergic to
    amoxicillin", "amoxicillin allergy", "alérgica à dipirona", "allergy: codeine"): the
    substance an allergy card records. A message with no allergy word (a follow-up: "add it")
    keeps its one drug."""
    # "à l'amoxicilline", "d'amoxicilline": the elided article stands apart from the drug
    low = re.sub(r"\b([ld])['\u2019]", r"\1 ", fold(message).lower())
    if not re.search(_ALLERGY_WORD, low):
        return True
    # a drug with its dose after the allergy's word is the order it explains ("sorry, she's
    # allergic - clarithromycin 500 bd instead"), never the substance recorded
    return any(re.search(rf"{_ALLERGY_WORD}{_BETWEEN}{re.escape(fold(s).lower())}(?!\s*\d)"
                         rf"|{re.escape(fold(s).lower())}[\s:,\-]+(?:\w+\s+)?{_ALLERGY_WORD}",
                         low) for s in surfaces)
