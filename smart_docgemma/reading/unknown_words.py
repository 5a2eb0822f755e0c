"""A name no list holds: a capitalised word that no vocabulary knows is read as a person.

The other readers of ``people.py`` find a person by where a name stands (two capitalised words,
a title, a possessive, an article before a first name). A first name alone in another place —
"Tião, potássio?", "l'INR de Mamadou ?", "Priya allergies?" — stands nowhere they look, and was
answered from the chart in context. This reader is the general fail-safe behind them: a word
written like a name (a capital, then small letters) that is not a word of English, French,
Portuguese or Spanish (the word lists of ``pyspellchecker``), not a word of the assistant's own
vocabulary (the rule tables, the ward's tests, the chart's terms, the analytes), not a drug
named in the message, and not one letter from a word of that vocabulary ("Potasium", a typo of a
clinical word), is a person. A person not shown to be the patient in context is refused, so a
word misread here costs a question asked again, never a chart answered for someone else.

Not read as a name: a word after a colleague's title ("Dr Otieno", "Nurse Tânia": the title
names staff, not a patient), a word before a dose ("Zytiga 1000mg": a drug the lists lack), a
place ("from Accra", "Clinique Pasteur") and the words of a sentence in capitals.

A word all in capitals leading a short message ("PACO, INR?", "TIÃO k?", "ENGRACIA alergias")
cannot be told from an abbreviation by its shape (ORIF, OPAT, ANCA are written the same way). It
is a name unless it is one of the ward's abbreviations (``data/abbreviations.yaml``), a word of
the vocabulary or a typo of one, a drug, a common word of the four languages (by the word
lists' frequencies: "URGENT", "HOLA"), or unpronounceable ("HBPM"); the answer then asks who is
meant, in one sentence, and answers nothing from the chart in context.
"""
from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import Levenshtein
from spellchecker import SpellChecker

from ..datafiles import safe_yaml
from ..knowledge.mentions import normalise
from .people import (
    DATA,
    PACKAGE,
    fold_accents,
    gives_it,
    is_place,
    not_name_words,
    people_data,
)

LANGUAGES = ("en", "fr", "pt", "es")
# a capital, then small letters (a hyphen or an apostrophe inside: "N'Guessan", "Jean-Luc")
_NAME_SHAPED = re.compile(r"[A-ZÀ-Ý](?:[a-zà-ÿ]|['\u2019\-](?=[A-Za-zÀ-ÿ]))+")
_TOKEN = re.compile(r"[\w'\u2019\-]+|[^\w\s]")
# a word standing before a place ("back from Accra", "sent up from St Mary's", "vient de Lyon")
_PLACE_BEFORE = {"from", "in", "at", "to", "st", "saint", "santa", "sao", "san", "sainte",
                 "hopital", "hospital", "clinique", "clinica", "clinic", "centre", "center",
                 "rua", "calle", "rue", "avenue", "avenida", "mount", "mt"}


# the assistant's own words beyond the vocabulary of ``people.not_name_words``: its translated
# messages (fr/pt/es; the word lists lack many common Spanish words: "tiene", "puede") and its
# drug, class, disease, glossary and follow-up tables
OWN_WORDS = (
    "translations/fr/LC_MESSAGES/messages.po",
    "translations/pt/LC_MESSAGES/messages.po",
    "translations/es/LC_MESSAGES/messages.po",
    "knowledge/data/names.yaml",
    "knowledge/data/drug_words.yaml",
    "knowledge/data/classes.yaml",
    "knowledge/data/disease.yaml",
    "knowledge/data/glossary.yaml",
    "agent/data/amendments.yaml",
    # the clinicians' words of each language the rules read ("pensaba", "agregale", "doente")
    "agent/rules/fr.yaml",
    "agent/rules/pt.yaml",
    "agent/rules/es.yaml",
)


@lru_cache(maxsize=1)
def own_words() -> frozenset[str]:
    words: set[str] = set()
    for rel in OWN_WORDS:
        text = (PACKAGE / rel).read_text(encoding="utf-8").lower()
        words |= {fold_accents(w) for w in re.findall(r"[a-zà-ÿ]{3,}", text)}
    extra = people_data()["not_names_alone"]
    return frozenset(words | {fold_accents(str(w)).lower() for w in extra})


@lru_cache(maxsize=1)
def _word_lists() -> tuple[SpellChecker, ...]:
    """The four languages' word lists (loaded once, when a name-shaped word first needs them)."""
    return tuple(SpellChecker(language=lang, distance=1) for lang in LANGUAGES)


def is_word(word: str) -> bool:
    """``word`` in lower case, with or without its accents, is a word of one of the four
    languages."""
    low = word.lower().replace("\u2019", "'")
    forms = {low, fold_accents(low), re.sub(r"'s$", "", low)}
    if any(fold_accents(f) in own_words() for f in forms):
        return True
    if re.search(r"[-']", low):  # "X-ray", "Pouvez-vous", "Queixa-se": each part a word or short
        parts = [p for p in re.split(r"[-']", low) if p]
        return all(len(p) <= 2 or is_word(p) for p in parts)
    return any(f in lists for lists in _word_lists() for f in forms)


@lru_cache(maxsize=1)
def _vocabulary_by_length() -> dict[int, frozenset[str]]:
    """The assistant's vocabulary words of five letters or more, by length (a typo is at most
    one letter longer or shorter)."""
    by: dict[int, set[str]] = {}
    for w in not_name_words():
        if len(w) >= 5:
            by.setdefault(len(w), set()).add(w)
    return {n: frozenset(ws) for n, ws in by.items()}


def near_vocabulary(word: str) -> bool:
    """``word`` is one letter away from a vocabulary word of five letters or more (a typo of a
    clinical word: "Potasium", "Kreatinine"), or is one."""
    key = normalise(word)
    if key in not_name_words():
        return True
    if len(key) < 5:
        return False
    by = _vocabulary_by_length()
    near = (w for n in (len(key) - 1, len(key), len(key) + 1) for w in by.get(n, ()))
    return any(Levenshtein.distance(key, w, score_cutoff=1) <= 1 for w in near)


@lru_cache(maxsize=1)
def _staff_titles() -> frozenset[str]:
    """Words after which a name is a colleague's ("Dr", "Nurse", "enfermeira", "Dra.")."""
    return frozenset(normalise(str(w)) for w in people_data()["not_after"])


def unknown_names(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The name-shaped words of ``text`` that no vocabulary knows, each read as a person."""
    tokens = _TOKEN.findall(text or "")
    drugs = {normalise(w) for w in drug_words}
    alone = [w for w in shouted_alone(tokens, drugs) if not is_place(w, text)]
    if not text or not re.search(r"[a-zà-ÿ]{2,}", text):
        return alone  # a sentence in capitals: its other words are shouted, not names
    found = []
    for n, word in enumerate(tokens):
        if not _NAME_SHAPED.fullmatch(word) or len(word) < 3 or not _a_name(tokens, n, drugs):
            continue
        found.append(re.sub(r"['\u2019]s$", "", word))
    found += _shouted_owner(tokens, drugs)
    return [w for w in found if not is_place(w, text)] + alone


# a chart question, then whom it is for in lower case at the message's end ("a1c for okoro",
# "hba1c de okoro?", "peso do kofi", "el potasio de mensah")
_TRAILING_LOWER = re.compile(r"^(?P<asked>.{1,40}?)\s+(?:for|pour|para|pra|de|do|da|del|du|of)"
                             r"\s+(?:(?:o|a|la|le|el|mr|mrs|ms|m|mme|sr|sra)\.?\s+)?"
                             r"(?P<name>[a-z][a-z'\-]{2,})\s*[?.!]?\s*$")


def trailing_lower_names(text: str,
                         drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A word in lower case ending a chart question after "for"/"de" ("a1c for okoro", "hba1c
    de okoro?") that no word list, vocabulary or drug knows: the one it is asked for."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    m = _TRAILING_LOWER.match(fold_accents(text or "").strip())
    if not m or not focus_of(m.group("asked")):
        return []
    name = m.group("name")
    drugs = {normalise(w) for w in drug_words}
    known = is_word(name) or near_vocabulary(name) or normalise(name) in drugs
    return [] if known or name in abbreviations() else [name]


# one word in lower case opening a short chart question ("okafor a1c", "mensah - inr?", "okoro
# k pls"): where a surname stands on a ward list
_LEADING_LOWER = re.compile(r"^\s*(?P<name>[a-z\u00e0-\u00ff][a-z\u00e0-\u00ff'\-]{3,})"
                            r"\s*[,:\-]?\s+(?P<asked>(?:\S+\s*){1,3})$")


def leading_lower_name(text: str,
                       drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One lower-case word opening a short chart question ("okafor a1c", "mensah inr?") that no
    word list, vocabulary, abbreviation or drug knows: the one it is asked of (her own surname is
    hers, matched later; a surname one letter from hers is asked about)."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    m = _LEADING_LOWER.match(text or "")
    if not m or re.search(r"(?<![a-z])\d", m.group("asked")):
        return []  # "okoro 5.2": a value said, no question
    if clitic_verb(m.group("name")) or verb_form(m.group("name")):
        return []  # "repásame su tratamiento": an imperative with its pronoun, no name
    name = fold_accents(re.sub(r"['\u2019]s$", "", m.group("name")))
    drugs = {normalise(w) for w in drug_words}
    if (is_word(name) or near_vocabulary(name) or normalise(name) in drugs
            or name in abbreviations() or name in own_words()):
        return []
    return [name] if focus_of(fold_accents(m.group("asked"))) else []


# a word in lower case standing where a question's subject stands ("what dose of metformin is
# okoro on", "does mensah have any allergies", "is adeyemi allergic to anything"): between the
# verb that opens the question and what she takes or has
_SUBJECT_LOWER = re.compile(r"(?<![\w'\u2019])(?:is|does|has|was|did|whats|what's|what is)\s+"
                            r"(?P<name>[a-z][a-z'\-]{2,})"
                            r"\s+(?:still\s+|already\s+|currently\s+|now\s+)?"
                            r"(?:on|taking|take|have|had|got|allergic|using)(?![\w])")


def subject_lower_names(text: str,
                        drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A word in lower case as a question's subject ("is okoro on", "does mensah have") that no
    word list, vocabulary or drug knows: the one it is asked of."""
    drugs = {normalise(w) for w in drug_words}
    folded = fold_accents(text or "")
    out = []
    for m in _SUBJECT_LOWER.finditer(folded):
        name = m.group("name")
        known = is_word(name) or near_vocabulary(name) or normalise(name) in drugs
        if not known and name not in abbreviations():
            out.append(name)
        elif not _known_subject(name, drugs):
            out.append(name)  # "whats amara on": a word of a list, rare, where a name stands
    for pattern in _taking_subject():
        for m in pattern.finditer(folded):
            if not _known_subject(m.group("name"), drugs):
                out.append(m.group("name"))
    return list(dict.fromkeys(out))


def _known_subject(name: str, drugs: set[str]) -> bool:
    """``name`` where a question's subject stands is a word, not a person: the assistant's own
    vocabulary, a drug, a ward abbreviation, a word the four languages use often ("she", "mum",
    "everyone", "elle", "ela") or a word of the rules that must never be a name. A rare word of
    one list ("amara", Spanish 2,199 in the counts) is a given name there."""
    return (name in own_words() or normalise(name) in not_name_words()
            or normalise(name) in drugs or name in abbreviations() or common_word(name)
            or bool(_NOUN_ENDING.search(name)) or name in _not_lower_subjects())


@lru_cache(maxsize=1)
def _not_lower_subjects() -> frozenset[str]:
    said = people_data()
    return frozenset(fold_accents(str(w)).lower()
                     for k in ("not_lower_names", "bed_persons", "follow_pronouns")
                     for w in said[k])


@lru_cache(maxsize=1)
def _taking_subject() -> tuple[re.Pattern[str], ...]:
    """One lower-case word as the subject of a verb of taking, opening the message ("amara
    prend quoi ?", "okoro takes what?") or after "what"/"que" and the verb at its end ("qué
    toma samuel?", "o que a fatima toma?", "what does esther take?")."""
    said = people_data()
    takes = "|".join(re.escape(fold_accents(str(w))) for w in sorted(
        {*said["relative_takes"], *said["lower_subject_verbs"]}, key=len, reverse=True))
    articles = "|".join(re.escape(str(w)) for w in said["lower_subject_articles"])
    name = r"(?P<name>[a-z][a-z'\-]{2,})"
    what = r"(?:what|que|qu'est-ce que|qu'est ce que|o que|lo que)"
    return (
        re.compile(rf"^[\s¿¡]*{name}\s+(?:{takes})\s+(?:quoi|what|o que|que|qual|cual)\b"),
        re.compile(rf"(?<![\w'])(?:que|what)\s+(?:{takes})\s+(?:(?:{articles})\s+)?{name}"
                   r"\s*[?.!]?\s*$"),
        re.compile(rf"(?<![\w']){what}\s+(?:(?:{articles})\s+)?{name}\s+(?:{takes}|take|is on)"
                   r"\s*[?.!]?\s*$"),
        re.compile(r"(?<![\w'])what\s+(?:does|is)\s+" + name + r"\s+(?:take|taking|on)"
                   r"\s*[?.!]?\s*$"),
    )


# a word in lower case asked about before a dash, a colon, a comma or a question mark ("what
# about robert - any allergies?", "quick one about okoro - is his metformin ok?"): where a
# name stands when the clinician turns to someone
_ABOUT_LOWER = re.compile(r"(?<![\w'\u2019])(?:what about|how about|about|regarding)\s+"
                          r"(?P<name>[a-z][a-z'\-]{2,})\s*(?=[-\u2013:,?])")
# a word the four languages use this often is a word before it is a name ("what about tomorrow
# - INR?"); given names that are also words ("robert" 1,305, "margaret" 795 in the English list)
# are rarer
_TURNED_TO_COMMON = 5000


def about_lower_names(text: str,
                      drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A lower-case word turned to after "what about"/"about" and before a dash or a question
    mark that no vocabulary, drug or ward abbreviation knows and no language uses often."""
    drugs = {normalise(w) for w in drug_words}
    out = []
    for m in _ABOUT_LOWER.finditer(fold_accents(text or "")):
        name = m.group("name")
        if (name in own_words() or near_vocabulary(name) or normalise(name) in drugs
                or name in abbreviations() or turned_to_common(name)):
            continue
        out.append(name)
    return out


def turned_to_common(word: str) -> bool:
    """A word the lists use often, or a noun by its ending ("mobility", "nutrition", "dressing"):
    the ward's topics turned to ("what about mobility - PT?") are no names."""
    return bool(_NOUN_ENDING.search(word)) or frequency(word) >= _TURNED_TO_COMMON


def frequency(word: str) -> int:
    """How often the four languages' lists use ``word`` (lower case): the most of any list."""
    return max(lists.word_frequency[word] for lists in _word_lists())


_NOUN_ENDING = re.compile(r"(?:ity|tion|sion|ment|ness|ing|ance|ence|ism|ics|ogy|ure|age|ies)$")


# "of" before an owner, in the four languages ("INR de PACO?", "the K of FATOU?")
_OF = {"of", "for", "de", "do", "da", "del", "du", "des", "dos", "das"}


def _shouted_owner(tokens: list[str], drugs: set[str]) -> list[str]:
    """The last word of a question, in capitals, right after "of"/"de" ("INR de PACO?"): a
    name when it reads as a word (four letters or more, two in five of them vowels: never
    "HBPM", "NFS") and no vocabulary knows it. The word lists are not asked ("paco" is Spanish
    slang): a word in capitals amid small letters is a name or an abbreviation."""
    words = [t for t in tokens if t not in ("?", "¿")]
    if len(words) < 2 or "?" not in tokens or words[-2].lower() not in _OF:
        return []
    word = words[-1]
    low = fold_accents(word.lower())
    vowels = sum(c in "aeiouy" for c in low)
    if (not re.fullmatch(r"[A-ZÀ-Ý]{4,}", word) or vowels * 5 < len(low) * 2
            or normalise(low) in drugs or low in own_words() or near_vocabulary(low)):
        return []
    return [word]


# a word in capitals standing first in a short message, before its question ("PACO, INR?",
# "TIÃO k?", "ENGRACIA alergias"): where a name stands, by the ward's way of writing it
_SHOUTED = re.compile(r"[A-ZÀ-Ý]{3,12}")
_SHORT = 8  # words of a message a name alone leads
# a word of the four languages as common as this (per pyspellchecker's frequency counts) is a
# word said loud ("URGENT", "PLEASE", "HOLA"), not a name; names and slang fall below it
# ("dolores" 1,415 in English, "paco" 292 in Spanish, "marcel" 403)
_COMMON = 3000


@lru_cache(maxsize=1)
def abbreviations() -> frozenset[str]:
    """The ward's abbreviations in capitals (``data/abbreviations.yaml``), folded lower case."""
    said = safe_yaml((DATA / "abbreviations.yaml").read_text(encoding="utf-8"))
    return frozenset(fold_accents(str(w)).lower() for ws in said["abbreviations"].values()
                     for w in ws)


def common_word(word: str) -> bool:
    """``word`` (lower case) is a common word of one of the four languages."""
    forms = {word, fold_accents(word)}
    return any(lists.word_frequency[f] >= _COMMON for lists in _word_lists() for f in forms)


def shouted_name(word: str, drugs: set[str] | frozenset[str] = frozenset()) -> bool:
    """``word``, written in capitals, reads as a name: pronounceable (one in four letters a
    vowel, not all: never "HBPM", "NFS", "AAA"), not an abbreviation of the ward, a drug, a
    word of the assistant's vocabulary or a typo of one, nor a common word of the four
    languages."""
    low = fold_accents(word.lower())
    vowels = sum(c in "aeiouy" for c in low)
    if not _SHOUTED.fullmatch(word) or vowels * 4 < len(low) or vowels == len(low):
        return False
    return not (low in abbreviations() or normalise(low) in drugs or low in own_words()
                or near_vocabulary(low) or common_word(low))


def is_shouted(name: str) -> bool:
    """``name`` is one word in capitals: by its shape a name or an abbreviation alike."""
    return _SHOUTED.fullmatch(name) is not None


def shouted_alone(tokens: list[str], drugs: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The first word of a short message, in capitals, followed by what is asked ("PACO, INR?",
    "BERT - K?", "DOLORES inr pls"): a name when ``shouted_name`` says it reads as one. By its
    shape it cannot be told from an abbreviation, so it is asked about, never answered from the
    chart in context."""
    words = [t for t in tokens if re.match(r"\w", t)]
    if not 2 <= len(words) <= _SHORT or not tokens or tokens[0] != words[0]:
        return []
    return [words[0]] if shouted_name(words[0], drugs) else []


# the endings of clinical terms in the four languages ("Gonalgie droite", "Cervicalgia",
# "Pancreatite", "Hyperkaliémie"): a word of seven letters or more ending so is no name
_CLINICAL_ENDINGS = re.compile(
    r"(?:algies?|algias?|itis|emies?|emias?|ectomie|ectomy|ectomia|pathie|pathy|patias?|plegie|"
    r"plegia|penie|penia|cytose|cytosis|uries?|urias?|scopie|scopy|scopia|graphie|graphy|grafia|"
    r"rragie|rrhagia|rragia|rrhee|rrhoea|rrhea|megalie|megaly|megalia|sclerose|sclerosis|"
    r"stenose|stenosis|osis|ectasie|ectasis|dynie|dynia|oedeme|edema|edeme|ites|itis)$")


def _clinical(word: str) -> bool:
    low = fold_accents(word.lower())
    return len(low) >= 7 and bool(_CLINICAL_ENDINGS.search(low))


def _a_name(tokens: list[str], n: int, drugs: set[str]) -> bool:
    """``tokens[n]`` (name-shaped) is not a word, a drug, a typo of the vocabulary, a colleague
    after a title, a drug before its dose or a place after its preposition."""
    word = re.sub(r"['\u2019]s$", "", tokens[n])
    before = [normalise(fold_accents(t)) for t in tokens[max(0, n - 2):n] if t.strip(".")]
    after = tokens[n + 1] if n + 1 < len(tokens) else ""
    if normalise(word) in drugs or is_word(word) or near_vocabulary(word) or _clinical(word):
        return False
    if verb_form(word, after) or clitic_verb(word):
        return False
    if any(b in _staff_titles() for b in before[-2:]) or (before and before[-1] in _PLACE_BEFORE):
        return False
    if _given_object(before) and normalise(fold_accents(after.lower())) not in \
            people_data()["given_object_owned"]:
        return False
    if _given_bare(before, after):
        return False
    if len(before) == 2 and before[0] in drugs and before[1] in people_data()["example_words"]:
        return False  # "un AINE tipo Zorbax?": a drug of the kind named, never a person
    return not re.match(r"\d", after) and not eponym(before, after)


def _given_object(before: list[str]) -> bool:
    """The two words before are a verb of giving and the one given to ("giving him Disprin"):
    the word is the thing given, never a person (unless a noun of medicines follows it)."""
    said = people_data()
    return (len(before) == 2 and before[0] in said["given_object_verbs"]
            and before[1] in said["given_object_pronouns"])


def _given_bare(before: list[str], after: str) -> bool:
    """The word right after the clinician's verb of giving, with no one given to between ("shall
    we give Ecosprin?", "can I give Feverall for the temp"), ends its clause or goes on with what
    it is for: the thing given, never a person ("can I give Kofi his meds" keeps Kofi)."""
    return gives_it(before) and normalise(fold_accents(after.lower())) in \
        people_data()["given_object_after"]


def eponym(before: list[str], after: str) -> bool:
    """The word between ``before`` (folded) and ``after`` names a test, a sign or a score
    ("positive Lachman test", "signe de Lasègue"), not a person."""
    nouns = frozenset(people_data()["eponym_nouns"])
    after_noun = normalise(fold_accents(after.lower())) in nouns
    # "de"/"of" only: "a test for Okafor" names a person
    return after_noun or (len(before) == 2 and before[-1] in {"de", "of", "du", "d"}
                          and before[-2] in nouns)


def _infinitive_is_word(stem: str) -> bool:
    said = people_data()["verb_endings"]
    return any(stem + end in lists for end in said["infinitives"] for lists in _word_lists())


def verb_form(word: str, after: str = "") -> bool:
    """``word`` is a conjugated verb the word lists lack ("Pensaba", "Planeaba", "Agregamos";
    "Creo" before "que"): an ending no given name has, on a stem of ``verb_stem`` letters or more
    whose infinitive is a word of the lists."""
    said = people_data()
    low = word.lower()
    ends = list(said["verb_endings"]["endings"])
    if fold_accents(after.lower()) in said["verb_before_que"]["followers"]:
        ends += said["verb_before_que"]["endings"]
    least = int(said["verb_stem"]) if len(low) > 4 else 3
    for end in sorted(ends, key=len, reverse=True):
        stem = low[: -len(end)]
        if low.endswith(end) and len(stem) >= least and _infinitive_is_word(fold_accents(stem)):
            return True
    return False


def clitic_verb(word: str) -> bool:
    """``word`` is an imperative with its pronoun after it ("Indícale", "Agrégale", "Hazme"):
    one of the short ones listed, or written with an accent, a pronoun at its end, and before
    the pronoun four letters or more ending in a or e whose verb (-ar, -er, -ir) the Spanish or
    Portuguese list holds."""
    said = people_data()
    low = word.lower()
    folded = fold_accents(low)
    if folded in said["clitic_verbs"]:
        return True
    if folded == low:
        return False  # no accent: "Estela", "Paula" stay names
    for clitic in sorted(said["clitics"], key=len, reverse=True):
        rest = folded[: -len(clitic)]
        if folded.endswith(clitic) and len(rest) >= 4 and rest[-1] in "ae":
            lists = _word_lists()[2:]  # pt, es
            if any(rest[:-1] + end in w for end in ("ar", "er", "ir") for w in lists):
                return True
    return False

