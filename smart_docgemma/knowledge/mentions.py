"""Drugs named in free text: a clinician's message, a chart's medication lines, an answer's
sentences.

Drug names come from the core's names (its brands, international names and the ~65k variants
of the MIT-licensed ``drug-named-entity-recognition`` dictionary, shipped as data and looked up
per span, never loaded whole), matched longest-n-gram first (up to 4 words, so "insulin
glargine" or "amoxicillin and clavulanate" stay one drug), plus the shorthands and each
language's names of ``data/drug_words.yaml`` and the spellings of ``spellings``. The
dictionary's own ``find_drugs`` only looks at one- and two-word spans and its fuzzy mode fails
on two-word spans (UnboundLocalError in 2.0.9), so misspellings are matched here with RapidFuzz
(Damerau-Levenshtein, one edit, words of 6+ letters) against the core's one-word names; two
edits let common words through ("pregnancy" → pregnanes) for no gain on the labelled set.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ..languages import UNDERSTOOD
from . import spellings
from . import vocabulary as core_names

# an apostrophe inside a word ("john's"), never one closing a quotation ("… lisinopril'.")
_WORD = re.compile(r"[a-z0-9](?:[a-z0-9']*[a-z0-9])?")


@dataclass(frozen=True)
class DrugMention:
    """One drug named in a text."""

    # the core's ingredient ("a/b" when the words name several); None when ambiguous
    name: str | None
    surface: str  # the words as written, normalised (lower case, punctuation as spaces)
    # fuzzy: one edit from one drug's name; prefix: the start of one drug's names, dose after
    match: Literal["exact", "fuzzy", "ambiguous", "prefix"]
    candidates: tuple[str, ...] = ()  # ambiguous: the drugs one edit away (the clinician chooses)


class WrittenNames:
    """Normalised span → generic name: the shorthands and each language's names of
    ``data/drug_words.yaml``, then the core's names (brands, international names, dictionary
    variants) looked up one span at a time, then the French, Portuguese and Spanish spellings."""

    def __init__(self, synonyms: dict[str, str], not_drugs: frozenset[str]):
        self.synonyms = synonyms
        self.not_drugs = not_drugs

    def get(self, span: str) -> str | None:
        if span in self.synonyms:
            return self.synonyms[span]
        if span in self.not_drugs:  # "potasio", "creatinina" in a lab question are not drugs
            return None
        names = core_names.lookup(span)
        return "/".join(names) if names else spellings.drug(span)

    def __contains__(self, span: str) -> bool:
        return self.get(span) is not None

    def __getitem__(self, span: str) -> str:
        found = self.get(span)
        if found is None:
            raise KeyError(span)
        return found


def _languages() -> tuple[str, ...]:
    return ("en", *UNDERSTOOD)  # a later language's entry for the same words wins


@lru_cache(maxsize=1)
def _not_drugs() -> frozenset[str]:
    return frozenset(w for lang in _languages() for w in spellings.drug_words(lang)["not_drugs"])


@lru_cache(maxsize=1)
def written_names() -> WrittenNames:
    """The names, built once per process (the core's tables load with them, ~1-3 s)."""
    synonyms: dict[str, str] = {}
    for lang in _languages():
        synonyms.update(spellings.drug_words(lang)["drug_synonyms"])
    return WrittenNames({normalise(k): v for k, v in synonyms.items()}, _not_drugs())


def normalise(text: str) -> str:
    """Lower case, hyphens, slashes, commas and plus signs as spaces: the form of ``surface``."""
    return " ".join(_WORD.findall(re.sub(r"[-/,+]", " ", text.lower())))


def find_drugs(text: str) -> list[DrugMention]:
    """The drugs ``text`` names, each once, in the order written."""
    tokens = normalise(text).split()
    names, i = written_names(), 0
    found: list[DrugMention] = []
    standing = _standing_names(text)
    seen: dict[str, int] = {}
    while i < len(tokens):
        seen[tokens[i]] = seen.get(tokens[i], 0) + 1
        if (tokens[i], seen[tokens[i]]) in standing:
            found.append(DrugMention(standing[(tokens[i], seen[tokens[i]])], tokens[i], "exact"))
            i += 1
            continue
        exact = _longest(tokens, i, names)
        if exact and _a_person(tokens, i, exact):
            i += 1
            continue
        if exact:
            paired = _combination(found, tokens, i, exact, names)
            found[-1:] = [paired] if paired else found[-1:]
            found += [] if paired else [exact]
            i += len(exact.surface.split())
            continue
        close = list(dict.fromkeys(names[c] for c in _fuzzy(tokens[i])))
        dosed = i + 1 < len(tokens) and tokens[i + 1][0].isdigit() or _joined(tokens, i, names)
        started = None if close else _started(tokens[i], generic_only=not dosed)
        if started:
            found.append(DrugMention(started, tokens[i], "prefix"))
        elif len(close) == 1:
            found.append(DrugMention(close[0], tokens[i], "fuzzy"))
        elif close:  # two real drugs one edit away: the clinician chooses, code never guesses
            found.append(DrugMention(None, tokens[i], "ambiguous", tuple(close)))
        i += 1
    return _dedupe(found)


def _a_person(tokens: list[str], i: int, found: DrugMention) -> bool:
    """``found`` is a short name that reads as a person here (``person_names``: "this gent")."""
    rule = (spellings.drug_words("en").get("person_names") or {}).get(found.surface)
    if not rule or i == 0 or tokens[i - 1] not in rule["after"]:
        return False
    following = [*tokens[i + 1: i + 3], "", ""]
    # a dose after it ("this gent 5 mg/kg", "gent 240mg"), never an age ("a nice gent, 82")
    dosed = bool(re.fullmatch(r"\d+(?:\.\d+)?(?:mg|g|mcg)", following[0])) or (
        bool(re.fullmatch(r"\d+(?:\.\d+)?", following[0])) and following[1] in ("mg", "g", "mcg"))
    return following[0] not in rule["drug_after"] and not dosed


def _standing_names(text: str) -> dict[tuple[str, int], str]:
    """The short names of ``clause_names`` that stand as a drug in ``text`` ("para 1g qds"), by
    (word, its occurrence among the message's words) -> the ingredient."""
    table = spellings.drug_words("en").get("clause_names") or {}
    out: dict[tuple[str, int], str] = {}
    for word, ingredient in table.items():
        count = 0
        for m in re.finditer(rf"(?i)\b{re.escape(word)}\b", text):
            count += 1
            before = text[:m.start()].rstrip()
            clause = not before or before[-1] in "-;,.:+(" or re.search(
                r"(?i)\b(?:and|then|plus|also)$", before)
            dosed = re.match(r"\s*\d+(?:[.,]\d+)?\s*(?:g|mg|gm|grams?)\b(?!\s*(?:de|of|d')\b)",
                             text[m.end():], re.I)
            if clause and dosed:
                out[(word.lower(), count)] = str(ingredient)
    return out


# words joining the two ingredients of one product ("amoxi com clavulanato", "amoxicilina con
# ácido clavulánico", "amoxicillin with clavulanic acid")
_JOINING = frozenset({"with", "and", "plus", "con", "com", "avec", "et", "e", "y", "acide",
                      "acido", "ac", "mas"})


def _joined(tokens: list[str], i: int, names: WrittenNames) -> bool:
    """A drug follows ``tokens[i]`` after joining words ("amoxi com clavulanato"): the start of
    a name is then read as it is before a dose."""
    k = i + 1
    while k < len(tokens) and k <= i + 2 and tokens[k] in _JOINING:
        k += 1
    return k > i + 1 and k < len(tokens) and _longest(tokens, k, names) is not None


def _combination(found: list[DrugMention], tokens: list[str], i: int, second: DrugMention,
                 names: WrittenNames) -> DrugMention | None:
    """The drug written just before ``second`` and it as one product the tables name
    ("amoxicillin" + "clavulanate": amoxicillin-clavulanate), when only joining words stand
    between them; else None."""
    if not found or not found[-1].name or not second.name:
        return None
    first = found[-1]
    before = tokens[max(0, i - 3):i]
    at = max((k for k, t in enumerate(before) if t == first.surface.split()[-1]), default=None)
    if at is None or not all(t in _JOINING for t in before[at + 1:]):
        return None
    both = names.get(normalise(f"{first.name} {second.name}")) or names.get(
        normalise(f"{first.name} and {second.name}"))
    if not both or both in (first.name, second.name):
        return None
    start = i - len(before) + at + 1 - len(first.surface.split())
    return DrugMention(both, " ".join([*tokens[start:i], second.surface]), "exact")


def _longest(tokens: list[str], i: int, names: WrittenNames) -> DrugMention | None:
    """The longest span from ``tokens[i]`` that names a drug (four words at most; one word of
    three letters or more, as "ca" or "mg" name nothing)."""
    for n in (4, 3, 2, 1):
        span = " ".join(tokens[i : i + n])
        if len(tokens) - i >= n and span in names and (n > 1 or len(span) > 2):
            return DrugMention(names[span], span, "exact")
    return None


@lru_cache(maxsize=1)
def _fuzzy_choices() -> list[str]:
    return [k for k in core_names.single_words() if k.isalpha() and len(k) >= 5]


@lru_cache(maxsize=4096)
def _fuzzy(token: str) -> tuple[str, ...]:
    """The one-word variants within one edit (a transposition counts as one), closest first.
    Kept per token: a search over every drug word costs ~0.2 ms, and a real chart's medication
    names ("Fluticasone propionate 0.25 MG/ACTUAT Dry Powder Inhaler") bring a dozen such
    words to every turn's brief."""
    if len(token) < 6 or not token.isalpha() or token in _guard() or token in _lab_words():
        return ()  # "kalium" is potassium, never "valium" misspelt
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    hits = process.extract(token, _fuzzy_choices(), scorer=DamerauLevenshtein.distance,
                           score_cutoff=1, limit=5)
    found = [h[0] for h in sorted(hits, key=lambda h: h[1])]
    return tuple(found or spellings.near(token))  # French, Portuguese, Spanish spellings


@lru_cache(maxsize=4096)
def _started(token: str, generic_only: bool = False) -> str | None:
    """The one ingredient whose one-word names begin with ``token`` ("amoxi" → amoxicillin,
    "paracet" → its ingredient): at least 5 letters with a dose written after it, else at least
    6 letters of an ingredient's own name ("fluclox for cellulitis?", "clinda instead?"; a
    brand's start is an ordinary word too often: "proven", "deltas"); not a guarded word, not a
    name itself; None when two ingredients share the start ("predni": prednisone or
    prednisolone, the clinician says which). A combination beginning so too ("amoxiclav")
    names its single ingredient by its own name, so "amoxi" is the ingredient alone."""
    shortest = 6 if generic_only else 5
    if len(token) < shortest or not token.isalpha() or token in _guard() or (
        token in _lab_starts()
    ):
        return None
    names = written_names()
    drugs = {names[w] for w in _fuzzy_choices() if w.startswith(token) and w in names
             and (not generic_only or _own_name(w, names[w]))}
    single = {d for d in drugs if "/" not in d}
    combined = drugs - single
    if len(single) == 1 and all(next(iter(single)) in c.split("/") for c in combined):
        return single.pop()
    return None


def _own_name(word: str, ingredient: str) -> bool:
    """``word`` is the ingredient's own name, or one of a combination's ("flucloxacillin"), not
    a brand's."""
    return word in normalise(ingredient).split()


@lru_cache(maxsize=1)
def _lab_words() -> frozenset[str]:
    """The analytes' one-word names in every language ("kalium", "kaliemie", "natremia")."""
    from . import analytes

    words = {w for a in analytes.table().values() for w in (a.name.lower(), *a.words)}
    return frozenset(normalise(w) for w in words if " " not in w)


@lru_cache(maxsize=1)
def _lab_starts() -> frozenset[str]:
    """Starts of the analytes' names and words ("potas 3.2" is a result, not potassium
    ordered): never read as a drug's start."""
    from . import analytes

    words = {w for a in analytes.table().values() for w in (a.name.lower(), *a.words)}
    return frozenset(w[:n] for w in words for n in range(5, len(w) + 1))


@lru_cache(maxsize=1)
def _guard() -> frozenset[str]:
    """Words never read as a misspelt drug: ``not_drugs`` and the dictionary's stopwords. The
    agent's request words ("prescribe", "interactions") are kept out by ``not_drugs`` too
    (tests/agent/test_extraction.py checks every one of them)."""
    return _not_drugs() | core_names.stopwords()


def _dedupe(items: list[DrugMention]) -> list[DrugMention]:
    seen, out = set(), []
    for item in items:
        if item.name not in seen:
            seen.add(item.name)
            out.append(item)
    return out
