"""Given names that are also words ("Grace", "Hope", "Désiré", "Luz", "Dolores"), and a name
in capitals alone before a comma or a dash ("PACO, INR?").

The word-list reader of ``unknown_words.py`` lets every dictionary word go, so a patient called
Hope or Pilar was answered from the chart in context. Such a word is a name only where a name
stands: alone before a comma or a dash at the start of a clause ("Grace - allergies?",
"PRECIOUS, a1c?"), after "of"/"de" ("l'INR de Désiré ?"), after a courtesy title ("Dona
Rosário"), as an owner ("Hope's K"), or before a surname no word list holds ("Faith Okonkwo").
Written in small letters, or opening a sentence that goes on in small letters ("Comfort
measures only?", "Will his INR be back?"), it is the word. After a colleague's title ("Dr
Blessing") it names staff, not a patient. A person read here who is not the patient in context
is refused, so a word misread costs a question asked again, never a chart answered for
someone else.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from ..knowledge.mentions import normalise
from .people import fold_accents, people_data
from .unknown_words import is_word, near_vocabulary, own_words

_DATA = Path(__file__).with_name("data") / "word_names.yaml"
_TOKEN = re.compile(r"[\w'\u2019\-]+|[^\w\s]")
_OF = {"of", "for", "de", "do", "da", "del", "du", "des", "dos", "das", "d"}
_OPENERS = {"and", "et", "e", "y", "also", "aussi", "tambem", "tambien"}
_STOPS = {",", "-", "\u2013", "\u2014", "?", ":"}
# said before a name of someone else's courtesy, in the four languages
_COURTESY = {"seu", "don", "dona", "d", "dna", "sr", "sra", "srta", "senhor", "senhora", "senor",
             "senora", "mr", "mrs", "ms", "miss", "mme", "mlle", "madame", "monsieur", "m"}


@lru_cache(maxsize=1)
def word_names() -> frozenset[str]:
    """The given names of the four languages that are also words, without accents, and the
    short forms of given names (``people.yaml`` ``short_names``: "Sam", "Peggy"), which the
    word lists may hold too."""
    data = safe_yaml(_DATA.read_text(encoding="utf-8"))["word_names"]
    short = [w for forms in people_data()["short_names"].values() for w in forms if len(w) > 2]
    return frozenset(fold_accents(str(w)).lower()
                     for w in [*short, *(w for words in data.values() for w in words)])


@lru_cache(maxsize=1)
def _staff_titles() -> frozenset[str]:
    return frozenset(normalise(str(w)) for w in people_data()["not_after"])


def _key(word: str) -> str:
    return fold_accents(re.sub(r"['\u2019]s$", "", word)).lower()


def _capitalised(word: str) -> bool:
    return bool(re.fullmatch(r"[A-ZÀ-Ý][a-zà-ÿ]+|[A-ZÀ-Ý]{3,}(?:['\u2019]s)?", word)) or bool(
        re.fullmatch(r"[A-ZÀ-Ý][a-zà-ÿ]+['\u2019]s", word))


def _a_surname(word: str) -> bool:
    """A capitalised word no list holds, after a given name ("Faith Okonkwo")."""
    return (bool(re.fullmatch(r"[A-ZÀ-Ý][a-zà-ÿ'\-]{2,}", word)) and not is_word(word)
            and not near_vocabulary(word))


def _before(tokens: list[str], n: int) -> str:
    """The word before ``tokens[n]``, past a title's full stop ("D. Socorro", "Sra. Pilar")."""
    back = n - 2 if n > 1 and tokens[n - 1] == "." else n - 1
    return _key(tokens[back]) if back >= 0 else ""


def _titled(tokens: list[str], n: int) -> bool:
    return _before(tokens, n) in _COURTESY


def _stands_as_name(tokens: list[str], n: int) -> bool:
    """``tokens[n]``, a word-name, stands where a name stands."""
    word = tokens[n]
    before = _before(tokens, n)
    after = tokens[n + 1] if n + 1 < len(tokens) else ""
    if before in _staff_titles():
        return False
    opens = n == 0 or before in _OPENERS or tokens[n - 1] in _STOPS | {"¿", "¡", "/"}
    if re.search(r"['\u2019]s$", word) or before in _COURTESY:
        return True
    if before in _OF and n > 1:
        return True
    if opens and (after in _STOPS or not after):
        return True
    if opens and _acts_after(tokens[n + 1:]):  # "Hope is asking about her K"
        return True
    return bool(after) and _a_surname(after)


@lru_cache(maxsize=1)
def _acts() -> re.Pattern[str]:
    data = safe_yaml(_DATA.read_text(encoding="utf-8"))["acts_after_a_name"]
    acts = sorted({fold_accents(str(a)).lower() for a in [*data,
                                                         *people_data()["relative_acts"]]},
                  key=len, reverse=True)
    return re.compile(r"(?:" + "|".join(map(re.escape, acts)) + r")(?![\w'])")


def _acts_after(rest: list[str]) -> bool:
    """The words after a word-name begin with an act of a person ("is asking", "says")."""
    return bool(_acts().match(fold_accents(" ".join(rest[:5])).lower()))


def word_name_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The given names that are also words where ``text`` writes them as a name."""
    tokens = _TOKEN.findall(text or "")
    drugs = {normalise(w) for w in drug_words}
    heading = shouted_headings(tokens, drugs)
    if not re.search(r"[a-zà-ÿ]{2,}", text or ""):
        return heading  # a sentence in capitals: its other words are shouted, not names
    found = []
    for n, word in enumerate(tokens):
        key = _key(word)
        if not _capitalised(word) or key not in word_names() or not _stands_as_name(tokens, n):
            continue
        if normalise(key) in drugs and not _titled(tokens, n):
            continue  # a drug's name, unless a courtesy title makes it a person's ("D. Socorro")
        found.append(re.sub(r"['\u2019]s$", "", word))
    return found + heading


def shouted_headings(tokens: list[str], drugs: set[str]) -> list[str]:
    """A word in capitals alone opening the message before a comma or a dash ("PACO, INR?",
    "MBEKI - K?"): a name when it is a word-name, or reads as a word (four letters or more,
    two in five of them vowels: never "HBPM") that no list or vocabulary holds."""
    if len(tokens) < 3 or tokens[1] not in {",", "-", "\u2013", "\u2014"}:
        return []
    word = tokens[0]
    low = fold_accents(word).lower()
    if not re.fullmatch(r"[A-ZÀ-Ý]{3,}", word) or normalise(low) in drugs:
        return []
    if low in word_names():
        return [word]
    vowels = sum(c in "aeiouy" for c in low)
    if (len(low) < 4 or vowels * 5 < len(low) * 2 or low in own_words() or is_word(low)
            or near_vocabulary(low)):
        return []
    return [word]
