"""A given name anywhere in a message is a person: "what is tom on?", "also peter - any
allergies?", "hba1c of michael?", "et pour jean, la kaliémie ?", "¿cuánto pesa lucía?".

The readers of ``people`` and ``lower_names`` look for a name where a patient stands (opening
the message, after "for", as an order's object, as an owner), and each new wording put a name
somewhere none of them looked: the chart in context was then answered for someone else. Here the
name's place does not matter; what it is does: a given name of the census lists (the ``names``
package), of ``data/word_names.yaml`` or of the short forms of ``people.yaml``, that is no word
the ward uses. A given name that is also a word is read as the word (``people.yaml``
``given_names_as_words`` and ``names_also_words``, the words the four languages use most, the
assistant's own vocabulary, drugs, abbreviations, times). A colleague's name ("d/w james (reg)",
"per sarah the pharmacist", "Dr Peter"), a relative's ("his wife mary says …", read by the
relative readers), an eponym ("bell's palsy", "allen test") and a place ("St Mary's") are no
patient. The patient's own given name is hers (``subject`` matches it later); any other is
refused, so a word misread costs a question asked again, never a chart answered for someone
else."""
from __future__ import annotations

import re
from functools import lru_cache

from ..knowledge.mentions import normalise
from ..tools.words import when
from .lower_names import (
    NAME_AS_WORD,
    clinical_word,
    not_placed,
    short_given_names,
    ward_name_words,
)
from .lower_names import given_names as census_names
from .people import fold_accents, is_place, not_name_words, people_data
from .unknown_words import abbreviations, frequency, own_words
from .word_names import word_names

_TOKEN = re.compile(r"[\w'\u2019/&-]+|[?.!;:,()]")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_ELIDED = re.compile(r"^[ldj]['\u2019]")  # "l'infirmière Tânia"


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    ward = {str(w) for w in people_data()["first_name_context"]["ward_given_names"]}
    return frozenset(census_names() | short_given_names() | word_names() | ward)


@lru_cache(maxsize=1)
def _words_first() -> frozenset[str]:
    """Given names that are words of the ward or of the four languages first."""
    said = people_data()
    words = {fold_accents(str(w)).lower() for key in ("given_names_as_words", "names_also_words",
                                                      "order_reasons")
             for w in said[key]}
    relatives = {fold_accents(str(w)).lower() for ws in said["relatives"].values() for w in ws}
    named = {str(w) for w in said["first_name_context"]["names_in_vocabulary"]}
    return frozenset(words | relatives | ward_name_words() | not_placed() | (own_words() - named)
                     | abbreviations())


@lru_cache(maxsize=1)
def _context() -> dict[str, frozenset[str]]:
    said = people_data()["first_name_context"]
    relatives = {fold_accents(str(w)).lower() for words in people_data()["relatives"].values()
                 for w in words}
    relatives -= {str(w) for w in said.get("honorific_relatives") or ()}
    staff = {normalise(str(w)) for w in people_data()["not_after"]}
    return {
        "before": frozenset(str(w) for w in said["colleague_before"]) | staff
        | frozenset(str(w) for w in people_data()["place_saints"])
        | frozenset(relatives),
        "after": frozenset(str(w) for w in said["colleague_after"]),
        "eponym": frozenset(str(w) for w in said["eponym_after"]),
        "first": frozenset(str(w) for w in said["names_first"]),
        "word_before_first": frozenset(str(w) for w in said["word_before_first"]),
        "two_letters": frozenset(str(w) for w in said["two_letter_names"]),
    }


def _is_name(word: str, drugs: set[str]) -> bool:
    """``word`` is a given name and no word the ward or the four languages use first."""
    key = fold_accents(_POSSESSIVE.sub("", word)).lower()
    if len(key) < 3 and key not in _context()["two_letters"]:
        return False
    if key not in _names() or key in _words_first():
        return False
    if word.isupper() and len(key) <= 4:  # "TIA", "ED", "DOT", "ANA": the ward's letters
        return False
    common = frequency(key) >= NAME_AS_WORD and key not in _context()["first"]
    return not (common or key in not_name_words() or clinical_word(key)
                or normalise(key) in drugs or when.starts(key) == 0)


def _beside_someone_else(tokens: list[str], n: int) -> bool:
    """The name of a colleague, a relative or an eponym, by the words around it."""
    ctx = _context()
    # an abbreviation's full stop is its own token ("st. mary's"): read through it
    before = [_ELIDED.sub("", fold_accents(t).lower().rstrip(".")) for t in tokens[max(0, n - 4):n]
              if t != "."][-3:]
    if before and before[-1] in ctx["before"]:
        return True  # "Dr Peter", "St Mary", "his wife mary"
    if any(w in ctx["before"] for w in before[-2:-1]) and before[-1] in {"with", "to", "by"}:
        return True  # "d/w james", "spoke to linda"
    after = [fold_accents(t).lower() for t in tokens[n + 1:n + 3]]
    if after[:1] and after[0].strip("()") in ctx["after"]:
        return True  # "james (reg)", "sarah the pharmacist" (below)
    if after[:1] == ["("] and after[1:2] and after[1] in ctx["after"]:
        return True
    if after[:1] == ["the"] and any(fold_accents(w).lower() in ctx["after"]
                                     for w in tokens[n + 2:n + 3]):
        return True
    if after == ["on", "call"]:
        return True
    word = tokens[n]
    if before[-1:] and before[-1] in ctx["word_before_first"] and (
            fold_accents(word).lower() in ctx["first"]):
        return True  # "una linda niña": the word
    eponym = after[:1] and after[0] in ctx["eponym"]
    return bool(eponym) or (bool(_POSSESSIVE.search(word)) and bool(after[:1])
                            and after[0] in ctx["eponym"])


def first_name_people(text: str,
                      drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Every given name of ``text``, in any case and anywhere, that is no word first and no
    colleague's, relative's, eponym's or place's name (hers is matched later)."""
    drugs = {normalise(w) for w in drug_words}
    tokens = _TOKEN.findall(text or "")
    out = []
    for n, word in enumerate(tokens):
        if not word[:1].isalpha() or not _is_name(word, drugs):
            continue
        bare = _POSSESSIVE.sub("", word)
        if _beside_someone_else(tokens, n) or is_place(bare, text):
            continue
        out.append(bare)
    return list(dict.fromkeys(out))
