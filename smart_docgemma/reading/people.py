"""Who a message names: every run of two or three capitalised words that are not words of the
assistant's vocabulary is a person, wherever it stands in the sentence ("does Grace Adeyemi have
any allergies?", "et Margaret Thompson, elle prend quoi ?").

Reading names this widely is the fail-safe side: a person named who is not shown to be the patient
in context is another patient (``subject.subject_of``), and a question about another patient is
refused, never answered from the chart in context. A capitalised clinical phrase ("Basic Metabolic
Panel") is not a name because its words are the vocabulary's: the rule tables, the ward's test
names, the chart's terms and the analytes, read from their data files.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from ..knowledge import analytes
from ..knowledge.mentions import normalise
from ..tools.words import when

DATA = Path(__file__).with_name("data")
PACKAGE = Path(__file__).resolve().parent.parent
# the data files whose words are the assistant's vocabulary (not names)
VOCABULARY_FILES = (
    "agent/data/rules.yaml",
    "tools/data/ward.yaml",
    "tools/data/chart_questions.yaml",
    "tools/data/chart_terms.yaml",
    "tools/data/chart_windows.yaml",
    "tools/data/class_terms.yaml",
    "tools/data/protocols.yaml",
    "knowledge/data/analytes.yaml",
)
# a capitalised word, a second capital inside it ("McDermott", "DeShawn") and digits at its end
# (Synthea's "Omega729") read as part of it
_WORD = r"[A-ZÀ-Ý][a-zà-ÿ'\-]+(?:[A-ZÀ-Ý][a-zà-ÿ'\-]+)?\d*"
_RUN = re.compile(rf"(?<![\w/-])({_WORD}(?:[ \t]+{_WORD})+)(?![\w/-])")


@lru_cache(maxsize=1)
def not_name_words() -> frozenset[str]:
    said = safe_yaml((DATA / "people.yaml").read_text())["not_name_words"]
    words = {normalise(str(w)) for ws in said.values() for w in ws}
    for rel in VOCABULARY_FILES:
        # a pattern's escapes are no letters of its words ("\\bbloods\\b" holds "bloods")
        said = re.sub(r"\\+[a-z]", " ", (PACKAGE / rel).read_text().lower())
        words |= {normalise(w) for w in re.findall(r"[a-zà-ÿ]{3,}", said)}
    # an analyte's short name is no first name, however short ("low Mg?", "Hb?")
    words |= {normalise(w) for a in analytes.table().values() for w in (a.name, *a.words)}
    return frozenset(words)


def _stop(drug_words: set[str] | frozenset[str]) -> frozenset[str]:
    """The words no name is: the vocabularies' and the message's drugs (the union made once for
    a message's drugs, not again by each reader of names)."""
    return _stop_of(frozenset(normalise(w) for w in drug_words))


@lru_cache(maxsize=64)
def _stop_of(drugs: frozenset[str]) -> frozenset[str]:
    return not_name_words() | drugs


def named_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two or three consecutive capitalised words none of which is a vocabulary word or a drug
    ("Grace Adeyemi", "Maria Silva"); the possessive "'s" dropped."""
    stop = _stop(drug_words)
    found: list[str] = []
    for m in _RUN.finditer(text or ""):
        part: list[str] = []
        for word in [*m.group(1).split(), ""]:
            bare = re.sub(r"['\u2019]s?$", "", word)
            if bare and normalise(bare) not in stop:
                part.append(bare)
                continue
            if 2 <= len(part) <= 3:
                found.append(" ".join(part))
            part = []
    return list(dict.fromkeys(found))


# the words of more data files that may head a message ("Pneumonia: …", "Constantes : …"):
# a heading word is a person only when it is none of these either
HEADING_FILES = (
    "agent/rules/fr.yaml",
    "agent/rules/pt.yaml",
    "agent/rules/es.yaml",
    "knowledge/data/disease.yaml",
    "tools/data/problem_plans.yaml",
    "tools/data/care_gaps.yaml",
    "reading/data/requests.yaml",
)
# "Adeyemi : allergies ?", "Thompson, Margaret - última creatinina?": a surname (with its given
# name after a comma) heading the message before a colon, a comma or a dash
_HEADING = re.compile(rf"^[\s¿¡]*({_WORD})(?:\s*,\s*({_WORD}))?\s*(?::|,|\s[-\u2013]\s)")


# "Surname, Given" opening the message before what is asked ("Mensah, Roberta INR?"): her
# surname does not make the given name after it hers
_SURNAME_GIVEN = re.compile(rf"^[\s¿¡]*({_WORD})\s*,\s*({_WORD})(?=[\s:,?]|\s[-\u2013]\s)")


@lru_cache(maxsize=1)
def _heading_stop() -> frozenset[str]:
    words = set(_people_data()["headings"])
    for rel in HEADING_FILES:
        text = (PACKAGE / rel).read_text(encoding="utf-8").lower()
        words |= {normalise(w) for w in re.findall(r"[a-zà-ÿ]{3,}", text)}
    return frozenset(normalise(w) for w in words) | not_name_words()


def heading_names(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A person heading the message as a ward list writes one: a surname alone before a colon,
    a comma or a dash ("Adeyemi : allergies ?"), or "Surname, Given" ("Thompson, Margaret -
    …"); never a word of four letters or fewer, a heading word ("Constantes :", "Plan :"), a
    vocabulary word, a disease nor a drug."""
    stop = _heading_stop() | {normalise(w) for w in drug_words}
    pair = _SURNAME_GIVEN.match(text or "")
    if pair and not ({normalise(w) for w in pair.groups()} & stop) and len(pair.group(1)) > 4:
        return [f"{pair.group(2)} {pair.group(1)}"]
    m = _HEADING.match(text or "")
    if not m:
        return []
    words = [w for w in m.groups() if w]
    if any(len(w) <= 4 or normalise(w) in stop for w in words):
        return []
    return [" ".join(reversed(words))]


# two lower-case words opening a short chart question ("samuel okafor a1c", "fatima diallo
# allergies?"): what is asked comes after them, in at most four words
_LEADING = re.compile(r"^\s*([a-z][a-z'\-]{2,})\s+([a-z][a-z'\-]{2,})\s*[,:\-]?\s+"
                      r"((?:\S+\s*){1,4})$")


def leading_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two lower-case words typed before a short chart question ("samuel okafor a1c", "esther
    banda bp?"): a person typed without capitals when neither word is a vocabulary word nor a
    drug and the words after them ask the chart ("repeat serum potassium", "how is samuel
    doing" name no one)."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    m = _LEADING.match(fold_accents(text or ""))
    stop = _stop(drug_words)
    if not m or {normalise(m.group(1)), normalise(m.group(2))} & stop:
        return []
    if re.search(r"['\u2019]", m.group(1)):
        return []  # "what's kofi's weight": a contraction opens a question, never a given name
    # what is asked starts right after them ("… a1c", "… allergies?"), never a clause ("algum
    # problema nos remédios dele?", "algo preocupante en sus medicamentos?")
    asked = m.group(3).split()[0].strip("?.!:,")
    # "samuel okafor's a1c?": the possessive is no part of the name
    name = re.sub(r"['\u2019]s$", "", f"{m.group(1)} {m.group(2)}")
    return [name] if asked and focus_of(asked) else []


# a title and an initial ("et Mme A. du 14", "Mr M", "la Sra. P."): someone not shown to be her
# (never a colleague's: "ask Dr O")
_INITIALLED = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mme|Mlle|M|Sr|Sra|Srta|Dona|D|Don)\.?\s+"
                         r"([A-Z])\.?(?![\w'\-])")
# two or three words in capitals in a message that is not ("THOMPSON MARGARET kaliémie ?"), or a
# surname in capitals before a given name ("MENSAH Robert"): how charts and wristbands write one
_CAPS_RUN = re.compile(r"(?<![\w'-])([A-ZÀ-Ý]{4,}(?:\s+[A-ZÀ-Ý]{4,}){1,2}|[A-ZÀ-Ý]{4,}\s+"
                       r"[A-ZÀ-Ý][a-zà-ÿ]+)(?![\w'-])")
_VOWELS = re.compile(r"[AEIOUYÀ-Ý]", re.I)


def titled_initials(text: str) -> list[str]:
    """A title and an initial ("Mme A.", "Mr M"): a person, whose initial alone never shows her."""
    return [" ".join(m.group(0).split()) for m in _INITIALLED.finditer(text or "")]


def capitals_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A name in capitals ("THOMPSON MARGARET", "MENSAH Robert") in a message that is not all
    capitals: words of four letters or more with two vowels each, none a vocabulary word, a
    heading word nor a drug ("NFS CRP", "AINS", "HBPM" are not)."""
    if not text or text.upper() == text:
        return []
    stop = _heading_stop() | {normalise(w) for w in drug_words}
    found = []
    for m in _CAPS_RUN.finditer(text):
        words = m.group(1).split()
        if all(len(_VOWELS.findall(w)) >= 2 and normalise(w) not in stop for w in words):
            found.append(" ".join(w.capitalize() for w in words))
    return found


def subject_names(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A surname opening the message as the subject of its verb ("Adeyemi tiene alergia a la
    penicilina?", "Okoro a fait son HbA1c ?"): five letters or more, no vocabulary or heading
    word, no drug, and a subject's verb (``subject_verbs``) right after it."""
    said = _people_data()
    verbs = "|".join(re.escape(v) for v in said["subject_verbs"] if v != "a")
    # French "a" (has) only before what follows it in French ("Okoro a fait", "a une allergie"):
    # "Draft a discharge summary" is an English imperative and its article
    after_a = "|".join(re.escape(w) for w in said["after_french_a"])
    # ... or a French question's inverted verb ("Adébáyọ̀ a-t-il un bilan ?", "Okoro prend-il …")
    inverted = r"[a-z]+(?:-t)?-(?:il|elle)\b"
    m = re.match(rf"^[\s¿¡]*({_WORD})\s+(?:(?:{verbs})\b|a\s+(?:{after_a})\b|{inverted})",
                 fold_accents(text or ""))
    if not m or len(m.group(1)) < 5:
        return []
    stop = _heading_stop() | {normalise(w) for w in drug_words}
    return [] if normalise(m.group(1)) in stop else [m.group(1)]


_LOWER = r"([a-zà-ÿ][a-zà-ÿ\-]{2,})"
_POSSESSED = re.compile(rf"(?<![\w']){_LOWER}\s+{_LOWER}['\u2019]s\b")


def possessed_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two words written in lower case before a possessive "'s" ("and grace adeyemi's meds?"),
    neither a vocabulary word nor a drug: a person typed without capitals. Only the possessive
    is read this way: two unknown lower-case words alone may be a typo, a possessive names
    someone."""
    stop = _stop(drug_words)
    # "from san jose's", "at st george's": a saint's possessive names a place
    saints = {str(w) for w in _people_data()["place_saints"]}
    return [
        f"{m.group(1)} {m.group(2)}"
        for m in _POSSESSED.finditer(text or "")
        if not {normalise(m.group(1)), normalise(m.group(2))} & stop
        and fold_accents(m.group(1)).lower().rstrip(".") not in saints
    ]


_ONE_POSSESSED = re.compile(r"(?<![\w'\u2019])([a-z][a-z\-]{3,})['\u2019]s\b")


def possessor_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One word in lower case owning something ("okoro's hba1c?", "and mensah's INR"): a person
    typed without capitals when it is no vocabulary word, drug, relative or role
    (``not_possessors``: "consultant's plan", "the pharmacist's advice")."""
    said = _people_data()
    stop = _stop(drug_words) | {
        normalise(str(w)) for w in [*said["not_possessors"],
                                    *(w for ws in said["relatives"].values() for w in ws)]}
    # "the renal clinic at st george's": a saint's possessive names a place
    saints = {str(w) for w in said["place_saints"]}
    return [m.group(1) for m in _ONE_POSSESSED.finditer(text or "")
            if normalise(m.group(1)) not in stop
            and _word_before(text or "", m.start()) not in saints]


def _word_before(text: str, at: int) -> str:
    """The accent-folded lower-case word right before ``at`` ("st" in "st george's"), its full
    stop dropped; "" at the start."""
    words = fold_accents(text[:at]).lower().split()
    return words[-1].rstrip(".") if words else ""


@lru_cache(maxsize=1)
def _lower_pair() -> tuple[re.Pattern[str], ...]:
    """Two lower-case words addressed at the start of the message or of a clause ("e a grace
    adeyemi, o que ela toma?", "and samuel okoro?"), or the subject of a verb of taking opening
    it ("margaret thompson toma amlodipino?", "esther banda takes insulin?") or after a word
    opening a question about them ("pode ver se a grace adeyemi tem alergia?")."""
    lead, opens, article = (_words_of(k) for k in ("addressing", "lower_subject_leads",
                                                   "lower_subject_articles"))
    pair = r"([a-z][a-z'\-]{2,})\s+([a-z][a-z'\-]{2,})"
    takes = "|".join(re.escape(w) for w in sorted(
        {*_people_data()["relative_takes"], *_people_data()["lower_subject_verbs"]},
        key=len, reverse=True))
    return (
        re.compile(rf"(?:^[\s¿¡]*|[,;.?!]\s*[¿¡]?)(?:{lead})\s+{pair}(?=\s*(?:[,;:?!.]|$))"),
        re.compile(rf"^[\s¿¡]*{pair}\s+(?:{takes})\b"),
        re.compile(rf"(?<![\w'])(?:{opens})\s+(?:(?:{article})\s+)?{pair}\s+(?:{takes})\b"),
    )


# the Portuguese "é" ("it is"), which folds to the "e" ("and") that addresses someone: "dá
# pra fazer uma Benzetacil nela? é amigdalite bacteriana" names an illness, "e a grace
# adeyemi?" a person
_COPULA = re.compile(r"(?<![\w])[éÉ](?![\w])")


def lower_pair_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A person typed in lower case where a name is said: addressed on its own ("e a grace
    adeyemi, …") or the subject of a verb of taking at the start ("margaret thompson toma …"),
    when neither word is a vocabulary word nor a drug."""
    # "e o deste doente?": a word for a patient names no one by name
    persons = [*_people_data()["not_lower_names"], *_people_data()["bed_persons"]]
    stop = (_stop(drug_words)
            | {normalise(w) for w in persons})
    folded = fold_accents(text or "")
    found = [f"{m.group(1)} {m.group(2)}" for p in _lower_pair() for m in p.finditer(folded)
             if not {normalise(m.group(1)), normalise(m.group(2))} & stop
             and not _COPULA.search((text or "")[m.start():m.start(1)])]
    return list(dict.fromkeys(found))


# a person's initials with their full stops ("et pour S.O., …", "R. M. - INR?"): never a route, a
# frequency or an abbreviation written the same way ("1 g I.V.", "b.d.", "N.B.")
_DOTTED_INITIALS = re.compile(r"(?<![\w.])([A-Z])\.\s?([A-Z])\.(?:\s?([A-Z])\.)?(?![\w])")


def dotted_initials_people(text: str) -> list[str]:
    """Initials with their full stops that are no listed abbreviation (``not_initials``): a
    person, hers only when each initial begins a word of her name (``subject.is_own_name``)."""
    stop = {str(w).lower() for w in _people_data()["not_initials"]}
    found = []
    for m in _DOTTED_INITIALS.finditer(text or ""):
        letters = [g for g in m.groups() if g]
        if "".join(letters).lower() not in stop:
            found.append("".join(f"{g}." for g in letters))  # "S.O.": one word, never a title
    return list(dict.fromkeys(found))


_ASKED_OF = re.compile(
    r"(?i)^[\s¿]*(?:is|was|does|did|has|and is|and does)\s+"
    # "is the younger james wilson (1990) on": one of two told apart, by a word or a year
    r"(?:the\s+(?:other|younger|older|elder|second|first)\s+)?([a-z][a-z'\-]{2,})\s+"
    r"([a-z][a-z'\-]{2,})\s+(?:\(\s*(?:b\.?\s*|born\s+|dob\s+)?[\d/.-]{4,10}\s*\)\s+)?"
    r"(?:still\s+)?(?:on|taking|take|have|had|got|allergic)\b"
)


def questioned_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two lower-case words asked about as the question's subject ("is esther banda on insulin
    or not", "does grace adeyemi have allergies"): a person typed without capitals when neither
    is a vocabulary word nor a drug ("is she still on", "does this patient have" are not)."""
    stop = _stop(drug_words)
    m = _ASKED_OF.match(fold_accents(text or ""))
    if not m or {normalise(m.group(1)), normalise(m.group(2))} & stop:
        return []
    return [f"{m.group(1)} {m.group(2)}"]


@lru_cache(maxsize=1)
def people_data() -> dict:
    """``data/people.yaml``, read once."""
    data: dict = safe_yaml((DATA / "people.yaml").read_text())
    # a relative who tells reports for her, as one who says does
    data["relative_acts"] = [*data["relative_acts"], *data["relative_tells"]]
    return data


_people_data = people_data


def _words_of(key: str) -> str:
    said = _people_data()[key]
    words = [w for ws in (said.values() if isinstance(said, dict) else [said]) for w in ws]
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


def _of_the_patient() -> str:
    """The patient named after a relative ("a filha dele", "la mère de la patiente", "a mãe da
    paciente", "the mother of the patient"): the relative is someone else (people.yaml)."""
    return rf"\s+(?:{_words_of('of_the_patient')})"


@lru_cache(maxsize=1)
def _addressed() -> re.Pattern[str]:
    """A first name alone after an addressing phrase, at the start of the message or after a
    comma ("what about Grace, …", "et pour Margaret ?"), or alone after a final comma
    ("…, Amara?")."""
    lead = _words_of("addressing")
    little = rf"(?:(?i:{_words_of('addressing_adjectives')})\s+)?"  # "et la petite Aïcha"
    name = rf"{little}([A-Z][a-z'\-]{{2,}})"
    return re.compile(
        rf"(?:^[\s¿¡]*|[,;.?!]\s*[¿¡]?)(?i:{lead})\s+{name}(?=\s*(?:[,;:?!.]|$))|,\s*{name}\s*\?\s*$"
    )


_TITLED_BEFORE = re.compile(r"(?i)\b(?:dr|doctor|prof|professor|nurse|sister|st|saint)\.?\s*$")
_OWNS = re.compile(r"(?<![\w'])([A-Z][a-z\-]{2,})['\u2019]s\b")


def addressed_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """One capitalised first name addressed on its own ("what about Grace?") or owning something
    ("how's Kofi's weight?"), not a vocabulary word, an eponym ("Parkinson's") nor a drug."""
    stop = _stop(drug_words)
    folded = fold_accents(text or "")
    found = [m.group(1) or m.group(2) for m in _addressed().finditer(folded)]
    found += [m.group(1) for m in _OWNS.finditer(folded) if not _TITLED_BEFORE.search(
        folded[: m.start()])]  # "Dr Smith's advice", "St John's wort": no patient
    return [n for n in dict.fromkeys(found) if normalise(n) not in stop]


_FEMALE = {"wife", "mother", "mum", "mom", "daughter", "sister", "granddaughter", "grandmother"}
_MALE = {"husband", "father", "dad", "son", "brother", "grandson", "grandfather"}


# the relative reports or asks for the patient ("his wife says he …", "sa fille demande si on
# peut lui donner …"): the question is about the patient (``_ASKS_OF_SELF`` reads "asks if she")
_REPORTS = (r"(?:says|said|asks|asked|wants|reports|dit|demande|veut|signale|diz|disse|pergunta|"
            r"quer|relata|dice|dijo|pregunta|quiere|refiere|"
            # the progressive asking of the patient ("her daughter is asking if mum could have
            # naproxen"); "her roommate is asking for ibuprofen" asks for herself
            r"(?:(?:is|was|keeps) (?:asking|wondering)|has asked) (?:if|whether|about))\b")
# ... with the relative's own name between ("her daughter Ada says she …", "sa fille Awa dit
# qu'elle …", "a filha dela, a Ada, diz que …"): a capitalised name, an article before it in
# Portuguese, Spanish and French
_NAMED_BETWEEN = r"(?:\s*,?\s+(?:(?:a|o|la|el|le)\s+)?(?-i:[A-Z][a-z'\-]{2,})\s*,?)?"


# after "de la 3": a decimal, a unit, an age or a pregnancy's weeks, never a bed ("la paciente de
# 83 años", "paciente de 32 semanas", "patiente de 28 SA")
# ("12 SA", weeks of amenorrhoea, is a term; "la dame de la 12 sa créatinine" is her possessive)
# ... nor a count of children ("la madre de 3 hijos", "mere de 2 enfants"), now that a relative
# before a bed's number is the bed's ("el marido de la 7")
# (nor a weight: "esta gordo de 4 kilos mas")
_NOT_A_BED = (r"[\d/]|[.,]\d|\s*(?:mg|ml|g|h|%|kg|kgs|kilos?|quilos?|libras|lbs?|cm|ans|anos|"
              r"years|y|mois|meses|months|jours|dias|"
              r"days|semanas?|semaines?|sem|weeks?|wks?|horas?|heures?|hours?|hs|hij[oa]s|filh[oa]s|"
              r"enfants|children|kids)\b"
              r"|\s*sa\b(?!\s+(?!(?:de|et|d)\b)[^\W\d_]{2,})")


_BED_HOLDS = (r"\s*[-\u2013\u2014:,]?\s*(?:mr|mrs|ms|miss|mme|mlle|madame|monsieur|m|sr|sra|"
              r"srta|senor|senora|senhor|senhora|dona|don)\.?\s+(?-i:[A-Z][a-z'\-]{2,})")


# a character of the same clause: no stop, comma or "and" opening another ("receta paracetamol
# y avisa a su hija" gives the daughter nothing)
_SAME_CLAUSE = r"(?:(?!\b(?:and|then|et|puis|e|depois|y|luego)\b)[^,.;?!])"


@lru_cache(maxsize=1)
def _told_apart() -> str:
    """Someone told apart by the service they are on or their coming and going ("le petit de la
    pédiatrie", "la dame qui sort demain"); never "the patient" so described ("le patient qui
    sort demain" is hers)."""
    return (rf"(?:the|that|le|la|l'|o|a|el|aquele|aquela|ce|cette)\s*"
            rf"(?!(?:patient|patiente|paciente|doente|pt)\b)"
            rf"(?:{_words_of('other_persons')}|rapaz|moca|chico|chica|gars|mec)\s+"
            rf"(?:(?:from|on|in|de la|de l'|du|des|da|do|del|de)\s*(?:{_words_of('services')})"
            rf"|(?:qui|que|who|that)\s+(?:[\w']+\s+){{0,2}}?"
            rf"(?:{_words_of('comings_and_goings')}))")


@lru_cache(maxsize=1)
def _departed() -> re.Pattern[str]:
    """A patient's own noun gone in the past tense ("le patient qui est sorti hier", "o doente que
    saiu ontem", "the patient who was discharged"): someone other than the one in the open chart,
    unless they came back in the same message ("… voltou hoje com febre" is her, readmitted)."""
    return re.compile(
        rf"(?i)(?<![\w'])((?:the|that|le|la|l'|o|a|el|aquele|aquela|ce|cette)\s*"
        rf"(?:patient|patiente|paciente|doente|pt|enfermo|enferma|malade)\s+(?:qui|que|who|that)\s+"
        rf"(?:[\w']+\s+){{0,2}}?(?:{_words_of('departed')}))(?![\w'])"
        rf"(?!.*\b(?:{_words_of('came_back')})\b)")


@lru_cache(maxsize=1)
def _arrived() -> re.Pattern[str]:
    """A patient's own noun told apart by an arrival and when it was ("el paciente que ingresó
    ayer por la noche", "le patient arrivé cette nuit", "the patient admitted last night"): one
    patient of the ward described, not shown to be the one in the open chart. "this patient",
    "ce patient", a pronoun ("he was admitted last night") and an arrival told with its reason
    ("the patient who was admitted with chest pain has K 5.9") are not descriptions."""
    noun = (r"(?:the|that|le|la|l'|o|a|el|aquele|aquela|aquel|aquella)\s*"
            r"(?:patient|patiente|paciente|doente|pt|enfermo|enferma|malade)\s+")
    return re.compile(
        rf"(?i)(?<![\w'])({noun}(?:(?:qui|que|who|that)\s+(?:[\w']+\s+){{0,2}}?"
        rf"(?:{_words_of('arrived')})|(?:{_words_of('arrived_participles')}))"
        rf"\s+(?:[\w']+\s+){{0,1}}?(?:{_words_of('arrived_when')})(?![\w']))")


@lru_cache(maxsize=1)
def _beside() -> tuple[re.Pattern[str], ...]:
    """Someone beside the patient as the subject: "for his wife", "can her son take …", "his
    wife's meds", "son mari peut …", "a esposa dele pode …", "bed 4". A relative counts only with
    a possessive ("his", "sa", "su", "dele"): "pour la femme enceinte" asks of women in general."""
    rel = rf"(?:{_words_of('relatives')})"
    # ... unless the relative named reports for the patient ("her daughter Ama says she …")
    reports = rf"(?!\s*,?\s*(?:{_words_of('relative_acts')})(?![\w']))"
    # a surname's possessive too: "Okoro's daughter is diabetic too" is the daughter
    own = (r"(?:his|her|their|the patient'?s|sa|son|ses|su|sus|seu|sua|seus|suas|"
           r"[\w-]{3,}['\u2019]s)\s+"
           # "her twin sister", "his older brother", "sa petite sœur", "su hermana mayor"
           rf"(?:(?:{_words_of('relative_adjectives')})\s+)?")
    after = _of_the_patient()
    # "her bf", "his other half": a partner's short name, a relative only after a possessive
    # ("bf" alone is also breastfeeding)
    theirs = rf"(?:{own}({rel}|{_words_of('possessed_relatives')})|({rel}){after})"
    modal = r"(?:can|could|may|should|peut|pourrait|pode|poderia|puede|podria)"
    # "baby has a fever", "the baby's weight": a child's word alone, no possessive, is the
    # patient in a child's chart, never a relative of hers
    kids = rf"(?:{_words_of('children')})(?![a-z])"
    # the relative opens the message and a drug is asked for them further on ("sa fille est sous
    # AVK aussi, elle peut prendre de l'aspirine ?", "su hijo es hipertenso, le puedo dar …")
    asked = (r"(?:can|could|may|should|peut|pourrait|peux|pode|poderia|posso|puede|podria|puedo)"
             r"(?:\s+\w+){0,2}?\s+(?:take|have|give|use|start|prendre|donner|avoir|utiliser|"
             r"tomar|dar|usar|fazer|iniciar|empezar|comecar)\b")
    # ... or the relative's own drug told before the question ("mrs <her name>'s sister is here
    # too, she takes ibuprofen daily - ok?"): "she/he takes/is on" is the relative's
    told = (r"(?:she|he|they|elle|il|ela|ele|ella|el)\s+(?:takes|is on|uses|has been taking|"
            r"prend|est sous|toma|usa|esta tomando|esta con)\b")
    title = r"(?:(?:mr|mrs|ms|miss|dr|mme|m|sr|sra|dona|don)\.?\s+)?"
    reported = rf"(?:{_REPORTS}|(?:{_words_of('relative_tells')})(?![\w']))"
    return (
        re.compile(rf"(?i)^[\s¿¡]*(?:(?:and|et|e|y)\s+)?(?:(?:o|a|la|le)\s+)?{title}{theirs}\b"
                   rf"(?!{_NAMED_BETWEEN}\s+{reported})[^?]*?\b(?:{asked}|{told})"),
        re.compile(rf"(?i)\b(?:for|pour|para|pra|pro|p/)\s*(?:(?:o|a|la|le)\s+)?{theirs}\b"),
        # the relative asks of a drug for their own illness ("her mum wants to know if lisinopril
        # is safe for her own bp", "his dad asks if it's ok for himself"): "her own" after the
        # relative is the relative's; "mum says she manages her own meds" reports for her
        re.compile(rf"(?i)\b{theirs}\s+(?:{_words_of('relative_acts')})\b[^.;!]*?"
                   r"\bfor\s+(?:(?:her|his|their)\s+own|herself|himself|themselves)\b"),
        # a drug given to them ("mets de l'ibuprofène à sa fille", "receta ibuprofeno … a su
        # hermana", "dá dipirona ao marido dela"): the one given it is the relative
        re.compile(rf"(?i)\b(?:{_words_of('giving_verbs')})\b{_SAME_CLAUSE}*?\s(?:a|au|ao|al|to)\s+"
                   rf"(?:(?:o|a)\s+)?{theirs}\b"),
        re.compile(rf"(?i)\b(?:(?:o|a|la|le)\s+)?{theirs}\s+{modal}\b"),
        re.compile(rf"(?i)\b(?:can|could|may|should)\s+(?:his|her|their)\s+({rel})\b"),
        re.compile(rf"(?i)\b(?:his|her|their)\s+({rel})['\u2019]s\b"),
        # ... or a relative without a possessive opening the message or a clause, with what is
        # measured or kept of them after it ("hubby's INR?", "wife's K 5.9 - do anything?",
        # "and mum's meds?"); "mum's here", "mum's worried" say where or how the relative is
        re.compile(rf"(?i)(?:^|[,;¿]\s*|\b(?:and|also|what about|how about)\s+)(?!{kids})({rel})"
                   rf"['\u2019]s\s+(?:(?:latest|last|current|recent|usual|regular)\s+)?"
                   rf"(?:{_words_of('relative_measures')}|k|potassium|creat\w*|egfr|a1c|bloods|temp)"
                   rf"(?![\w'])"),
        # "son frère a de la fièvre", "his daughter has a rash", "su hija tiene tos": the
        # relative's own illness is the subject
        re.compile(rf"(?i)\b{theirs}\s+(?:{_words_of('relative_verbs')})\s+(?:[\w']+\s+){{0,3}}?"
                   rf"(?:{_words_of('relative_states')})\b"),
        # ... or a relative without a possessive opening the message or a clause, ill in their
        # own right ("mum's asthmatic, can she have …", "dad has gout too - colchicine ok for
        # him?"); "mum's worried about his fever", "mum says he's asthmatic" report for her
        re.compile(rf"(?i)(?:^|[,;¿]\s*|\b(?:and|also|plus)\s+)(?!{kids})({rel})"
                   rf"(?:['\u2019]s|\s+(?:{_words_of('relative_verbs')}))\s+"
                   rf"(?:(?!(?:his|her|their|the|son|sa|ses|su|sus|seu|sua)\b)[\w']+\s+){{0,2}}?"
                   rf"(?:{_words_of('relative_states')})\b"),
        re.compile(rf"(?i)\b{theirs}\s+(?:{_words_of('relative_takes')})\b"),
        # the relative as a question's subject ("what does his sister weigh", "how old is her
        # son", "what dose does his son take"), unless they act for the patient ("does his wife
        # give him his tablets")
        re.compile(rf"(?i)\b(?:does|did|do|is|was|has|had)\s+{theirs}\b"
                   rf"(?!\s*,?\s*(?:{_words_of('relative_acts')}|{_words_of('relative_helps')})"
                   rf"(?![\w']))"),
        # ... or what is measured or kept of them ("the weight of his sister", "combien pèse sa
        # sœur", "o peso da irmã dele", "las alergias de su hija")
        re.compile(rf"(?i)\b(?:{_words_of('relative_measures')})\s+(?:(?:of|de|du|da|do|del|d')\s*)?"
                   rf"(?:(?:la|le|l'|o|a|el|the)\s*)?{theirs}\b"),
        # "while breastfeeding his baby brother", "amamentando o irmão dele": the one fed
        re.compile(rf"(?i)\b(?:{_words_of('feeding_verbs')})\s+(?:(?:o|a|la|le|el|al|ao)\s+)?"
                   rf"(?:(?:his|her|their|sa|son|ses|su|sus|seu|sua)\s+)?"
                   rf"({_words_of('fed_relatives')})\b"),
        # a handover line's bed followed by whom it holds ("Bed 3 - Mrs Bayer, 81, …") is that
        # person's bed: the title and name say who it is, and are read as any name is
        re.compile(rf"(?i)\b((?:{_words_of('beds')})\s*#?\s*\d+[a-z]?)\b(?!{_BED_HOLDS})"),
        # a side room written short, its letters joined to its number ("faith in SR2", "the
        # lady in sr4"): never a slow-release strength, which has a space or a unit ("SR 20mg")
        re.compile(rf"(?i)\b((?:{_words_of('joined_beds')})\d{{1,2}}[a-z]?)\b"
                   r"(?!\s*(?:mg|mcg|g|ml)\b)"),
        re.compile(rf"(?i)(?<![\w'])({_words_of('elsewhere')})(?![\w'])"),
        # "a senhora da cama ao lado", "du lit d'en face": a bed beside hers is another's
        re.compile(rf"(?i)(?<![\w'])((?:{_words_of('beds')})\s+(?:{_words_of('bed_beside')}))"
                   rf"(?![\w'])"),
        re.compile(rf"(?i)(?:^|[,;¿]\s*|\b(?:y|et|e|and)\s+)"
                   rf"(?:(?:{_words_of('bed_numbers_after')})\s+){{1,2}}(?:[A-Z]\.\s+)?"
                   rf"((?:de la|du|do|da|del|de|of)\s+\d{{1,3}})"
                   rf"(?!{_NOT_A_BED})"),
        re.compile(rf"(?i)\b(?:{_words_of('bed_persons')})(?:\s+[A-Z]\.)?\s+"
                   rf"((?:de la|du|do|da|del|de|of)\s+\d{{1,3}})(?!{_NOT_A_BED})"),
        # "le petit de la pédiatrie", "o rapaz da ortopedia", "la dame qui sort demain"
        re.compile(rf"(?i)(?<![\w'])({_told_apart()})(?![\w'])"),
        # "le patient qui est sorti hier", "o doente que saiu ontem": one who has left
        _departed(),
        # "el paciente que ingresó ayer por la noche", "the patient admitted last night"
        _arrived(),
        # "the patient you saw yesterday", "le patient d'hier", "el paciente de ayer"
        re.compile(rf"(?i)(?<![\w'])((?:the|that|my|our|le|la|l'|o|a|el|aquele|aquela|ce|cette|"
                   rf"ma|mon|mi|minha|meu)\s*"
                   rf"(?:{_words_of('other_persons')})\s+(?:[a-z]+(?:ique|ica|ico|ic|e)\s+)?"
                   # seen at a place before ("my patient in clinic yesterday")
                   r"(?:(?:in|at|on|from)\s+(?:the\s+)?(?:clinic|ed|a&e|ward|resus|opd|outpatients|"
                   r"theatre|the ward round)\s+)?"
                   rf"(?:(?:that|who|whom|you|i|we|que|qui|"
                   rf"j'ai|on a|tu as|vous avez|voce|usted|viste|vimos|saw|seen|admitted|"
                   rf"reviewed|vu|vue|vi|visto|atendi|atendeu)\s+){{0,3}}"
                   rf"(?:from\s+|de\s+|do\s+|d'\s*)?(?:{_words_of('seen_when')}))(?![\w'])"),
        # "le patient qu'on a vu aux urgences", "o doente que atendi no pronto-socorro", "el
        # paciente que vimos en urgencias": one seen at a place, with no time said
        re.compile(rf"(?i)(?<![\w'])((?:the|that|le|la|l'|o|a|el|ce|cette|aquele|aquela)\s*"
                   rf"(?:{_words_of('other_persons')})\s+"
                   r"(?:(?:that|who|whom|we|i|you|que|qui|qu['\u2019 ]\s?on|on|a|ai|"
                   r"j['\u2019 ]\s?ai|avons|nous avons|vous avez|tu as|have|ont)\s+){0,3}"
                   r"(?:vu|vue|vus|saw|seen|vi|vimos|viste|visto|vio|atendi|atendemos|atendeu|"
                   r"atendio|atendimos|examine|examinee)\s+"
                   r"(?:aux|au|a\s+l['\u2019 ]|a\s+la|en|em|no|na|al|in|at|on)\s*"
                   r"(?:the\s+|el\s+|las\s+|los\s+)?"
                   rf"(?:{_words_of('seen_where')}))(?![\w'])"),
        # "and her husband?", "e o marido dela?", "y su hija?": a relative addressed alone
        re.compile(rf"(?i)^[\s¿¡]*(?:and|what about|how about|et|et pour|e|e o|e a|y|y el|y la)"
                   rf"\s+(?:(?:his|her|their|the|sa|son|ses|su|sus|o|a|la|le|el|l['\u2019 ])\s*)?"
                   rf"({rel}|{_words_of('children')})"
                   rf"(?:{after})?\s*[?.!]*\s*$"),
        # "the lady in 14", "that man in bay 3", "the pt in 12b": a person of a numbered bed
        # (never a time: "review the patient in 2 days", "see the man in 1 hour")
        re.compile(rf"(?i)\b((?:the|that|this)\s+(?:(?:old|young|elderly|new)\s+)?"
                   rf"(?:{_words_of('other_persons')})\s+in\s+(?:(?:side\s+)?"
                   rf"(?:{_words_of('beds')}|cubicle)\s*#?\s*)?\d{{1,3}}[a-z]?)"
                   rf"(?!{_NOT_A_BED}|\s*(?:days?|d|weeks?|wks?|hours?|hrs?|mins?|minutes?|"
                   rf"months?|mo|years?|yrs?|am|pm|o'?clock)\b|:)"),
        # "her son Kofi takes …", "sa fille Aïcha a …", "o filho dela, Tiago, tem …": a relative
        # named by name is that relative, never the patient
        re.compile(rf"(?i)\b(?:{own}({rel})|({rel}){after})\s*,?\s+(?:(?:a|o|la|el|le)\s+)?"
                   rf"(?-i:[A-Z][a-z'\-]{{2,}})\b{reports}"),
        # "le fils de M. Mensah", "the daughter of Mrs Okoro", "la hija de la señora López": a
        # relative of someone named is that relative
        re.compile(rf"(?i)\b({rel})\s+(?:of|de|du|do|da|del)\s+(?:(?:la|le|o|a|el)\s+)?"
                   rf"(?:(?:mr|mrs|ms|m|mme|madame|monsieur|sr|sra|senhor|senhora|senor|senora|"
                   rf"dona|don)\.?\s+)?(?!(?:mrs?|ms|mme|madame|monsieur|sra?|senhora?|senora?|"
                   rf"dona|don)\b)(?-i:[A-Z][a-z'\-]{{2,}})\b{reports}"),
        # "pt 2 - INR?", "patient #3", "paciente 4": another patient by a number (never an age,
        # a dose or a time after it)
        re.compile(r"(?i)(?<![\w'])((?:pt|patient|patiente|paciente|doente)\s*(?:no\.?|number|#)?"
                   r"\s*\d{1,2})(?![\w.,/:]|\s*(?:mg|ml|g|h|hrs?|hours?|days?|d|weeks?|y|yo|y/o|"
                   r"years?|ans|anos|a[nñ]os|kg|%|mmol|/|-?year))"),
        # "le patient du Dr Diallo", "el paciente del Dr. Ramírez", "o doente do Dr Silva": a
        # colleague's patient, never shown to be her
        re.compile(rf"(?i)\b((?:{_words_of('bed_persons')}|pt|pcte)\s+(?:du|de la|del|do|da|de|of)"
                   r"\s+(?:dr|dra|docteur|doctor|doctora|doutor|doutora|prof|professor|pr)\.?"
                   r"\s+[a-z][a-z'\-]+)"),
        # "o filho da dona Margaret", "le fils de Mme Thompson", "the son of Mrs Thompson": her
        # relative named by her title and name is not her
        re.compile(rf"(?i)\b((?:{rel})\s+(?:da|do|de la|del|de|du|of)\s+(?:dona|seu|senhora|"
                   r"senhor|sra|sr|mme|madame|monsieur|mr|mrs|ms|senora|senor|don)\.?\s+"
                   rf"[a-z][a-z'\-]+)(?![a-z'\-])(?!\s+(?:{_words_of('relative_acts')})\b)"),
        # "the other pt", "l'autre patiente": someone named only as not her
        re.compile(rf"(?i)(?<![\w'])((?:{_words_of('others')})\s+(?:{_words_of('other_persons')}))"
                   r"(?![\w\-])"),
        # "the man next door", "la dame d'à côté"
        re.compile(rf"(?i)(?<![\w'])((?:{_NEARBY_ARTICLES})\s+{_DESCRIBED}"
                   rf"(?:{_words_of('other_persons')})\s+(?:{_words_of('nearby')}))(?![\w\-])"),
        # ... said the ward's way, with no article, opening a clause ("pt next door c/o chest
        # pain", "patient opposite needs …")
        re.compile(rf"(?i){_CLAUSE_START}((?:pt|patient|pcte|paciente|patiente|doente)\s+"
                   rf"(?:{_words_of('nearby')}))(?![\w\-])"),
        # a patient named by the clinician's own list: a time, a bed order or "other" before
        # "patient" ("my 3 o'clock patient", "my next patient", "mon patient de 15h")
        re.compile(rf"(?i)(?<![\w'])((?:my|our|mon|ma|meu|minha|mi)\s+"
                   rf"(?:\d{{1,2}}(?:[:.h]\d{{2}})?\s*(?:o'?clock|am|pm|h)?|next|previous|last|"
                   rf"earlier|later|morning|afternoon|ward round|clinic|outpatient|prochain|"
                   rf"proximo|siguiente)\s+(?:(?:clinic|opd|outpatient|ward)\s+)?"
                   rf"(?:{_words_of('other_persons')}))(?![\w\-])"),
        *_companion_patterns(modal),
    )


def _companion_patterns(modal: str) -> tuple[re.Pattern[str], ...]:
    """The one who came with her ("la acompañante", "o acompanhante", "l'accompagnant"): someone
    else by what they are, with an article and no possessive, when a drug is ordered for or
    given to them, or they are the subject of an illness or of "can": "receta paracetamol … para
    la acompañante", "l'accompagnant a mal à la tête". Only said beside her ("la acompañante
    está de acuerdo") they name no one the answer is for."""
    who = rf"(?:(?:the|la|el|a|o|le|l['\u2019 ])\s*)?({_words_of('companions')})"
    return (
        re.compile(rf"(?i)\b(?:for|pour|para|pra|pro|p/)\s*{who}\b"),
        re.compile(rf"(?i)\b(?:{_words_of('giving_verbs')})\b{_SAME_CLAUSE}*?\s"
                   rf"(?:a|au|ao|al|to|à)\s+{who}\b"),
        re.compile(rf"(?i)(?:^|[,;¿]\s*){who}\s+(?:{_words_of('relative_verbs')})\s+"
                   rf"(?:[\w']+\s+){{0,3}}?(?:{_words_of('relative_states')})\b"),
        re.compile(rf"(?i)(?:^|[,;¿]\s*){who}\s+{modal}\b"),
        # "la compañera de cuarto pregunta si puede tomar …", "a vizinha de quarto pediu dipirona"
        re.compile(rf"(?i)(?:^|[,;¿]\s*){who}\s+(?:{_words_of('companion_asks')})\s+"
                   rf"(?:si|se|if|whether)\s+(?:\w+\s+)?{modal}\b"),
        re.compile(rf"(?i)(?:^|[,;¿]\s*){who}\s+(?:{_words_of('companion_requests')})\b"),
    )


# the article before a person placed beside her or after her, contracted with "of" too ("e a do
# doente seguinte?", "celle du patient suivant", "la del paciente de al lado")
_NEARBY_ARTICLES = r"the|a|la|le|o|el|do|da|du|del|al|au|des|dos|das|los|las|les|of the"
# one word describing the person between the article and the noun ("the asthmatic lad from
# resus", "the old man next door")
_DESCRIBED = r"(?:[a-z\u00e0-\u00ff]{3,}\s+)?"


# where a clause opens: the message's start, a stop, a comma or a dash, "and"/"but"
_CLAUSE_START = (r"(?:^|[.;!?:,(\-\u2013\u2014]\s*|\b(?:and|but|also|et|mais|e|mas|y|pero)\s+)"
                 r"[\s¿¡]*(?:(?:o|a|la|le|el|os|as|les|los|las)\s+)?"
                 # a question put of the relative ("does Grace's mum have any allergies?", "what
                 # about her daughter - she's on lithium", "is his wife on warfarin too?")
                 r"(?:(?:does|did|do|is|has|was|can|could|would|what about|how about)\s+)?")


@lru_cache(maxsize=1)
def _opening_relative() -> re.Pattern[str]:
    """A relative with a possessive opening a clause, with a name beside it ("his wife Abena",
    "Samuel's brother", "sa fille", "a filha dele")."""
    rel = rf"(?:{_words_of('relatives')})"
    # "the wife's on aspirin as well": an English "the" before a spouse, a parent or a child
    # (never "the baby", who may be the patient)
    the = (r"the(?=\s+(?:wife|husband|partner|mother|father|mum|mom|dad|son|daughter|brother|"
           r"sister)\b)")
    own = rf"(?:his|her|their|the patient'?s|{the}|sa|son|ses|su|sus|[\w-]{{3,}}['\u2019]s)\s+"
    after = _of_the_patient()
    # "wife's on", "son's got": the contraction of "is"/"has", not a possessive
    contracted = (r"(?:['\u2019]s(?=\s+(?:on|got|been|taking|also|too|allergic|pregnant|"
                  r"diabetic|asthmatic|having)\b))?")
    return re.compile(rf"(?i){_CLAUSE_START}(?:{own}({rel})|({rel}){after})"
                      rf"(?:\s+(?-i:[A-Z][\w'\u2019\-]+))?{contracted}(?![\w'\u2019])"
                      r"(?!\s+(?:of|de|do|da|du)\s+(?:the|la|le|o|a)\s+pat)")


@lru_cache(maxsize=1)
def _relative_name() -> re.Pattern[str]:
    rel = rf"(?:{_words_of('relatives')})"
    own = (r"(?:his|her|their|the patient'?s|sa|son|ses|su|sus|seu|sua|seus|suas)\s+"
           rf"(?:(?:{_words_of('relative_adjectives')})\s+)?")
    return re.compile(rf"(?i)\b(?:{own}{rel}|{rel}{_of_the_patient()})\s*,?\s+"
                      r"(?:(?:a|o|la|el|le)\s+)?(?-i:([A-Z][a-z'\-]{2,}))\b")


def relatives_names(text: str) -> frozenset[str]:
    """The given names said right after a relative with a possessive ("his wife Abena", "sa
    fille Awa", "a filha dela, a Ada"), folded and in lower case: the relative's own name, read
    with the relative (``beside_people``), never a patient on its own."""
    folded = fold_accents(text or "")
    return frozenset(m.group(1).lower() for m in _relative_name().finditer(folded))


@lru_cache(maxsize=1)
def _relative_of_named() -> re.Pattern[str]:
    """A relative of someone named ("la madre de Grace", "the son of Mr Okoro", "o irmão do
    Kofi"): the relative, not the one named."""
    return re.compile(rf"(?i)\b(?:the|la|le|l'|a|o|el)\s*({_words_of('relatives')})()\s+"
                      r"(?:of|de|do|da|du|del|d')\s*(?:(?:mr|mrs|ms|mme|m|sr|sra|dona|don)\.?\s+)?"
                      r"(?-i:[A-ZÀ-Ý][\w-]+)")


@lru_cache(maxsize=1)
def _reporting() -> re.Pattern[str]:
    """What a relative does for the patient, right after them or after their name ("says", "is
    worried", "a appelé", ", a Ada, diz")."""
    return re.compile(rf"(?i)^{_NAMED_BETWEEN}\s*[,:\-\u2013\u2014]?\s*(?:(?:also|just|then|aussi|"
                      rf"tambem|tambien|ja|ya)\s+)?(?:{_words_of('relative_acts')})(?![\w'])")


@lru_cache(maxsize=1)
def _relative_owning() -> re.Pattern[str]:
    """A value of a relative's, pointed back to ("et celui de sa femme ?", "¿y el de la hija?",
    "o da mãe dela?", "and his daughter's?"): the relative is the one asked about."""
    rel = rf"(?:{_words_of('relatives')})"
    one = (r"(?:celui|celle|ceux|celles|the\s+one|that|those|o|a|os|as|el|la|lo|los|las)\s+"
           r"(?:de|do|da|del|du|d'|of)\s*")
    owner = r"(?:(?:sa|son|ses|su|sus|la|le|el|o|a|his|her|their|the)\s+)?"
    return re.compile(rf"(?i)(?:{one}{owner}({rel})|\b(?:his|her|their|the)\s+({rel})['\u2019]s?"
                      r"(?=\s*(?:[?.!]|$)))(?![\w'\u2019])")


def _relatives_as_subject(folded: str) -> list[str]:
    """Relatives who open a clause as its subject: what follows is asked of them, not of the
    patient, unless they report for her ("his wife says he …") or an English pronoun of the
    patient's other sex follows ("her husband is on warfarin — can she have aspirin?")."""
    out = []
    for m in (*_opening_relative().finditer(folded), *_relative_of_named().finditer(folded),
              *_relative_owning().finditer(folded)):
        rel, rest = (m.group(1) or m.group(2)), folded[m.end():]
        if _reporting().match(rest) or _pronoun_of_other_sex(rel.lower(), rest):
            continue
        out.append(rel)
    return out


def _pronoun_of_other_sex(rel: str, rest: str) -> bool:
    if rel in _FEMALE:
        return bool(re.search(r"(?i)\b(?:he|him|his|himself)\b", rest))
    if rel in _MALE:
        return bool(re.search(r"(?i)\b(?:she|her|hers|herself)\b", rest))
    return False


_ASKS_OF_SELF = re.compile(r"(?i)\b(\w+)\s+(?:asks|wants to know|wonders)\s+(?:if|whether)\s+"
                           r"(she|he)\s+(?:can|could|may|should)\b")


def beside_people(text: str) -> list[str]:
    """Relatives, friends, carers and beds the message asks about, as written ("wife", "bed 4"):
    each is someone other than the patient in context until shown otherwise."""
    folded = fold_accents(text or "")
    found = [next(g for g in m.groups() if g) for p in _beside() for m in p.finditer(folded)]
    found += across_patients(text or "")  # "all my patients", "both of them": no one chart
    found += _relatives_as_subject(folded)
    found = [f for f in found if not _theirs_taken(folded, f) and not _compared(folded, f)
             and not _also_for_her(folded, f) and not _gives_to_her(folded, f)
             and not _staff_placed(folded, f)]
    for m in _ASKS_OF_SELF.finditer(folded):  # "his wife asks if she can take ibuprofen"
        rel, pronoun = m.group(1).lower(), m.group(2).lower()
        if ((rel in _FEMALE and pronoun == "she") or (rel in _MALE and pronoun == "he")) \
                and not _gives_to_her(folded, m.group(1)):
            found.append(m.group(1))
    found += _asking_of_self(folded)
    found += _for_themself(folded)
    return list(dict.fromkeys(found))


def _staff_placed(folded: str, found: str) -> bool:
    """A ward or bay right after a colleague's title and name is where the colleague works
    ("sister wanjiru on ward 4 wants her latest egfr", "Dr Chen in bay 2 asks …"): no patient.
    The name is one or two words without a possessive, never a person's noun ("Dr Chen's patient
    on ward 4", "nurse says the man in bed 3" still name another patient)."""
    said = people_data()["staff_placed"]
    titles = "|".join(re.escape(w) for w in sorted(said["titles"], key=len, reverse=True))
    persons = "|".join(re.escape(w) for w in said["not_names"])
    return bool(re.search(
        rf"(?i)(?<![\w'])(?:{titles})\.?\s+(?:(?!(?:{persons})\b)[a-z][a-z-]*\s+){{1,2}}"
        rf"(?:on|in|from|at)\s+(?:the\s+)?{re.escape(found)}(?![\w'])", folded))


@lru_cache(maxsize=1)
def _for_themself_pattern() -> re.Pattern[str]:
    rel = rf"(?:{_words_of('relatives')})"
    return re.compile(rf"(?i)(?<![\w'])({rel})(?![\w'])[^.?!;]{{0,60}}?\bfor\s+"
                      r"(?:herself|himself|themselves|themself)\b")


def _for_themself(folded: str) -> list[str]:
    """A relative asking for something for themself ("mama Kofi is asking for paracetamol for
    herself", "his dad wants ibuprofen for himself"): the relative is the one asked about, never
    the patient, whose chart would answer with the patient's dose."""
    return [m.group(1) for m in _for_themself_pattern().finditer(folded)]


@lru_cache(maxsize=1)
def _asks_of_self() -> tuple[re.Pattern[str], ...]:
    """fr/pt/es "su hijo pregunta si él puede …", "el esposo de la paciente pregunta si él
    puede …", one pattern a sex (people.yaml)."""
    said = people_data()["asks_of_self"]

    def alt(words: list[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

    return tuple(
        re.compile(rf"(?i)(?<![\w'])({alt(said[sex]['relatives'])})(?:{_of_the_patient()})?\s+"
                   rf"(?:{alt(said['asks'])})\s+(?:(?:{alt(said['whether'])})\s+|"
                   rf"(?:{alt(said['whether_joined'])}))"
                   rf"(?:(?:{alt(said[sex]['pronouns'])})\s+(?:(?:{alt(said['also'])})\s+)?"
                   rf"(?:{alt(said['modals'])})(?![\w'])|"
                   # "la hermana de la paciente pregunta si puede tomar …": the subject unsaid
                   # and the patient's own medicines asked for ("las mismas pastillas")
                   rf"(?:{alt(said['modals'])})\s+(?:{alt(said['takes_unsaid'])})\s+"
                   rf"(?:[\w']+\s+){{0,2}}(?:{alt(said['the_same'])})(?![\w'])|"
                   # "a esposa dele quer saber se pode tomar o marevan dele tambem": the subject
                   # unsaid, the patient's drug named his and "also" last (the relative asks for
                   # herself; "se pode tomar dipirona tambem" may be the patient's, and stays his)
                   rf"(?:{alt(said['modals'])})\s+(?:{alt(said['takes_unsaid'])})\s+[^?.!,;]{{1,40}}?"
                   rf"\s(?:{alt(said['patients_own'])})\s+(?:{alt(said['also'])})\s*[?.!]*\s*$|"
                   # "su hijo quiere saber si puede tomar ibuprofeno él": the pronoun last
                   # ("… darle ibuprofeno a él": to him, the patient, is no pronoun of the asker)
                   rf"(?:{alt(said['modals'])})\s+[^?.!,;]{{1,40}}?(?<!\sa)\s(?:{alt(said[sex]['pronouns'])})"
                   r"(?:\s+(?:mismo|misma|mesmo|mesma|meme))?\s*[?.!]*\s*$)"
                   # "la maman demande si elle peut lui donner de l'aspirine": giving it to the
                   # patient, asked for the patient
                   r"(?!\s+(?:(?:lui|le|la|lhe|les|leur|him|her)\s+)?(?:donner|dar|darle|darla|"
                   r"dar-lhe|dar-le|passer|mettre|poner|ponerle|administrer|administrar|give)\b)")
        for sex in ("female", "male"))


def _asking_of_self(folded: str) -> list[str]:
    """Relatives asking whether they themself may take something: the ones asked about."""
    return [m.group(1) for p in _asks_of_self() for m in p.finditer(folded)]


@lru_cache(maxsize=1)
def _comparisons() -> re.Pattern[str]:
    words = sorted((fold_accents(w) for w in people_data()["compared_with"]), key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(w) for w in words)})"
                      r"(?:\s+(?:a|al|a la|au|le|la|el|o|the|de|do|da|del|du|pour|para|for))*\s*$")


def _compared(folded: str, someone: str) -> bool:
    """``someone`` (a bed, a room) is named only to compare the order with theirs ("igual que
    al de la cama 4", "comme pour le lit 6", "same as bed 2"): asked nothing."""
    low = folded.lower()
    at = low.find(someone.lower())
    before = low[:at].rstrip() if at > 0 else ""
    m = _comparisons().search(before[-40:])
    if not m:
        return False
    # the request must say its own order beside the comparison ("comme pour le lit 6, amoxicilline
    # 1 g x3/j"): "same as bed 6 please" alone asks to copy the other patient's chart
    own = before[: len(before) - len(before[-40:]) + m.start()] + " " + low[at + len(someone):]
    own = re.sub(r"\b(?:please|pls|plz|svp|stp|por favor|thanks|merci|obrigad[oa]|gracias)\b",
                 " ", own)
    return bool(re.search(r"\d|[a-z]{3,}", own))


@lru_cache(maxsize=1)
def _also_her() -> re.Pattern[str]:
    said = people_data()["also_her"]

    def alt(key: str) -> str:
        return "|".join(re.escape(w) for w in sorted(said[key], key=len, reverse=True))

    return re.compile(rf"(?<![a-z])(?:{alt('pronouns')})\s+(?:{alt('able')})(?![a-z])"
                      rf"[^.?!;]{{0,40}}?(?<![a-z])(?:{alt('too')})(?![a-z])")


# the relative gives the patient the drug ("can his mum give him calpol?", "his mum asks if she can
# give him calpol", "sa mère peut lui donner du doliprane ?"): the patient is the one asked about;
# never "can I give him …" after a relative ill in their own right ("his son has the same cough,
# can I give him amoxicillin?": him is the son), nor "give her baby …" (her baby is someone else)
_GIVES_HER = re.compile(
    r"(?i)^\s+(?:(?:asks|wants to know|wonders|demande|pergunta|pregunta)\s+(?:if|whether|si|se)\s+"
    r"(?:she|he|elle|il|ela|ele|ella|el)\s+)?"
    r"(?:(?:can|could|may|should|will|would|peut|pourrait|pode|poderia|puede|podria)\s+)?"
    r"(?:(?:give|administer|dar|dá|da)\s+(?:him|her|them|ele|ela)\b"
    r"(?!\s+(?:baby|son|daughter|brother|sister|little|own|twin)\b)"
    r"|(?:lui|lhe|le)\s+(?:donner|donne|dar|dá|da)\b)")


def _gives_to_her(folded: str, relative: str) -> bool:
    low = folded.lower()
    at = low.find(relative.lower())
    return at >= 0 and bool(_GIVES_HER.match(low[at + len(relative):]))


def _also_for_her(folded: str, relative: str) -> bool:
    """The relative's medicine is named to ask whether the patient may take it too ("sa fille
    prend de l'ibuprofène, elle peut en prendre aussi ?"): the question after the relative is
    hers."""
    low = folded.lower()
    at = low.find(relative.lower())
    return at >= 0 and bool(_also_her().search(low, at + len(relative)))


def _theirs_taken(folded: str, relative: str) -> bool:
    """The relative is named once, as the owner of what the patient takes ("she's been taking
    her mum's enalapril"): no one else is asked about."""
    said = re.compile(rf"(?i)(?<![\w'\u2019]){re.escape(relative)}(?![\w])")
    taken = re.compile(rf"(?i)\b(?:{_words_of('taking_theirs')})\s+(?:some\s+(?:of\s+)?)?"
                       rf"(?:his|her|their)\s+{re.escape(relative)}['\u2019]s\b")
    return len(said.findall(folded)) == 1 and bool(taken.search(folded))


_LOUD_WORD = re.compile(r"(?<![\w'\u2019])([A-ZÀ-Ý])([A-ZÀ-Ý'\u2019\-]+)(?![\w])")


def unshouted(text: str) -> str:
    """A message typed in capitals ("DOES AMARA NWOSU HAVE ANY ALLERGIES") with each word in
    capitals written as a name is ("Does Amara Nwosu Have Any Allergies"), so the capitalised
    runs above read the person in it; a message with a lower-case letter is returned as it is
    (its capitals are the clinician's: "BP", "INR", "Grace")."""
    if not text or any(c.islower() for c in text) or sum(c.isalpha() for c in text) < 6:
        return text or ""
    return _LOUD_WORD.sub(
        lambda m: m.group(1) + m.group(2).lower().replace("'S", "'s"), text
    )


_WITH_INITIAL = re.compile(r"(?<![\w'\u2019])([A-ZÀ-Ý][a-zà-ÿ'\-]{2,})\s+([A-HJ-Z])\.?"
                           r"(?=['\u2019]s\b|[^\w'\u2019\-]|$)")


def initialled_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A name and an initial ("Margaret T - creat?", "Grace A's allergies"), the name no
    vocabulary word nor drug, nor a word that names a thing by a letter ("Vitamin D", "Hepatitis
    B", "Troponin T", ``before_a_letter``); the name alone before a lab's letter ("Grace K?")."""
    stop = _stop(drug_words) | {
        normalise(str(w)) for w in _people_data()["before_a_letter"]}
    # "Grace K?": Grace asked her potassium, the letter no initial
    return [m.group(1) if _asked_letter(m) else f"{m.group(1)} {m.group(2)}"
            for m in _WITH_INITIAL.finditer(text or "")
            if normalise(m.group(1)) not in stop and not _a_side(m)]


def _a_side(m: re.Match[str]) -> bool:
    """The letter after a word is the side of a body part ("Cellulitis L leg", "pain R
    knee"), not an initial."""
    said = _people_data()
    after = re.match(r"\s*([a-z']+)", m.string[m.end():])
    return m.group(2) in said["sides"] and after is not None and (
        after.group(1) in said["body_parts"])


# initials owning something anywhere ("check KJ's meds"), as a clause's subject before its verb
# ("JM needs …", "…; AB is on …"), or after a word that names whom a message is about
# ("re: JM", "pt: AB", "for JM -")
_INITIALS = (re.compile(r"(?<![\w'\u2019])([A-Z]{2,3})['\u2019]s\b()"),
             re.compile(r"(?:^|[.;:,(]\s*)([A-Z]{2,3})\s+([a-z]+)\b"),
             re.compile(r"\b(?:re|pt|for|about)\s*:?\s+([A-Z]{2,3})(?![\w'\u2019])()"))


@lru_cache(maxsize=1)
def _short_vocabulary() -> frozenset[str]:
    """The vocabulary's words of two and three letters and ``not_initials``: capitals that
    are shorthand ("BP", "GP", "INR"), never a person's initials."""
    words = {str(w).lower() for w in _people_data()["not_initials"]}
    for rel in VOCABULARY_FILES:
        said = re.sub(r"\\+[a-z]", " ", (PACKAGE / rel).read_text().lower())
        words |= set(re.findall(r"(?<![a-z])[a-z]{2,3}(?![a-z])", said))
    return frozenset(words)


def initials_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A person's initials as the subject ("JM needs his metformin dose checked", "AB's INR?"):
    two or three capitals before a possessive or a subject's verb (``subject_verbs``), none of
    them shorthand of the vocabulary or the ward, nor a drug; returned as letters ("J M"), so
    her own initials read as hers."""
    verbs = {str(v) for v in _people_data()["subject_verbs"] if len(str(v)) > 1}
    stop = _short_vocabulary() | {normalise(w) for w in drug_words}
    found = [m for p in _INITIALS for m in p.finditer(text or "")]
    return list(dict.fromkeys(" ".join(m.group(1)) for m in found if m.group(1).lower() not in stop
                              and (not m.group(2) or m.group(2) in verbs)))


_LOWER_PAIR = re.compile(r"^\s*(?:(?:re|pt|patient|for|about)\s*:?\s+)?([a-z][a-z'\-]{2,})\s+"
                         r"([a-z][a-z'\-]{2,})\s*[-:,]?\s+(.+)$")


def leading_lower_people(text: str,
                         drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two words in lower case opening the message before a chart question ("grace adeyemi
    weight pls", "re: esther banda - k?"), neither a vocabulary word nor a drug: a person typed
    without capitals, like a possessive's (``possessed_people``)."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    m = _LOWER_PAIR.match(fold_accents(text or ""))
    said = _people_data()
    # a place or someone's role is no name ("room air sats?"); a reading with its value is
    # recorded, not asked of someone ("room air sats 94")
    places = {normalise(str(w)) for w in [*said["beds"], *said["not_possessors"]]}
    stop = (not_name_words() | places | {normalise(w) for w in drug_words}
            | {normalise(str(w)) for w in said["not_lower_names"]})
    # a short chart question after the name ("weight pls", "- k?"); a sentence after two
    # words ("algun metaanalisis sobre control intensivo de la TA …?") names no one; a number
    # is a value said, while a digit inside a test's name ("hba1c", "b12", "spo2") is none
    if not m or {normalise(m.group(1)), normalise(m.group(2))} & stop or re.search(
            r"(?<![a-z])\d", m.group(3)) or len(m.group(3).split()) > 4 or _inverted(m):
        return []
    if any(_ABSTRACT.search(w) for w in (m.group(1), m.group(2))):
        return []  # "grant application aside, what's his inr": a thing, no name
    return [f"{m.group(1)} {m.group(2)}"] if focus_of(m.group(3)) else []


# an abstract noun by its ending is no part of a name
_ABSTRACT = re.compile(r"(?:tion|sion|ment|ness|ity|ism|ogy)$")


def _inverted(m: re.Match[str]) -> bool:
    """One of the two words is a French verb with its pronoun after it ("peux-tu checker …"):
    a question put to the assistant, no name."""
    pronouns = "|".join(re.escape(str(p)) for p in _people_data()["inverted_pronouns"])
    return any(re.search(rf"[a-z]-(?:{pronouns})$", m.group(i)) for i in (1, 2))


def _asked_letter(m: re.Match[str]) -> bool:
    """The letter after a name is an analyte asked of that person, not an initial: "Thompson
    K?", "Maggie Thompson K" (the letter alone, or before a question mark, is a lab asked)."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    rest = m.string[m.end():].strip()
    if rest and not rest.startswith("?"):
        return False
    return (focus_of(f"{m.group(2)}{rest[:1]}") or "").startswith("lab:")


def is_beside(said: str) -> bool:
    """``said`` (a name ``beside_people`` read) is a relative, a friend or a bed, not a name."""
    named, seen = _beside_said()
    folded = fold_accents(said).strip()
    # "hers" of "and hers?" in a man's chart (``subject.pronoun_of_other_sex``): someone unnamed
    return is_across(said) or folded.lower() in _POSSESSIVES or bool(
        named.fullmatch(folded) or seen.fullmatch(folded) or _departed().fullmatch(folded))


_POSSESSIVES = frozenset({"hers", "his", "dela", "dele"})


@lru_cache(maxsize=1)
def _beside_said() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``is_beside``'s two readings, compiled once: a relative, bed or other person named, and
    another person seen at a time."""
    beds = (rf"(?:(?:{_words_of('beds')})\s*#?\s*\d+[a-z]?|(?:de la|du|do|da|del|de|of)\s+\d+"
            rf"|(?:{_words_of('beds')})\s+(?:{_words_of('bed_beside')}))")
    others = rf"(?:{_words_of('others')})\s+(?:{_words_of('other_persons')})"
    nearby = (rf"(?:{_NEARBY_ARTICLES})\s+{_DESCRIBED}(?:{_words_of('other_persons')})\s+"
              rf"(?:{_words_of('nearby')})")
    named = (rf"(?i)(?:{_words_of('relatives')})|(?:{_words_of('children')})"
             rf"|(?:{_words_of('elsewhere')})|{beds}|{others}"
             rf"|{nearby}|{_told_apart()}")
    seen = rf"(?i).*\b(?:{_words_of('other_persons')})\b.*\b(?:{_words_of('seen_when')})"
    return re.compile(named), re.compile(seen)


def fold_accents(text: str) -> str:
    """Accents dropped, case and length kept ("señora" → "senora")."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    )


@lru_cache(maxsize=1)
def _lone_words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    said = _people_data()
    # an auxiliary verb asking of someone stands where an article does ("did Kofi get …"), and
    # so does a word of whom the message is about ("quick one about Esther - …")
    before = {normalise(str(w)) for w in [*said["articles"], *said["verbs_before"],
                                          *said["about_words"]]}
    return (frozenset(said["not_after"]), frozenset(before), frozenset(said["not_before_last"]))


def gives_it(before: list[str]) -> bool:
    """The words before a capitalised word (folded) end with the clinician giving something:
    a verb of giving after "I", "we", "to" or a modal ("shall we give", "can I give", "ok to
    give", "can give"), so the word is the thing given; "did you give Kofi", "can you give
    Kofi" ask of a person."""
    said = _people_data()
    return (len(before) >= 2 and before[-1] in said["given_object_verbs"]
            and before[-2] in said["given_object_by"])


def _seen_before(tokens: list[str]) -> bool:
    """The words before a capitalised word end with a verb of meeting or seeing someone ("I
    saw", "spoke to", "j'ai vu", "atendi o")."""
    said = " ".join(normalise(fold_accents(t)) for t in tokens[-3:])
    return _seeing_at_end().search(said) is not None


@lru_cache(maxsize=1)
def _seeing_at_end() -> re.Pattern[str]:
    verbs = sorted({normalise(fold_accents(str(v))) for v in people_data()["seeing_verbs"]},
                   key=len, reverse=True)
    return re.compile(rf"(?:^|\s)(?:{'|'.join(map(re.escape, verbs))})(?:\s+(?:o|a|la|le|el))?$")


# punctuation kept as tokens: the first word of a sentence follows one, never an article
_TOKEN = re.compile(r"[\w'\u2019-]+(?:&[\w'\u2019-]+)*|[?.!;:,]")  # "u&e" one word


def lone_names(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A first name alone inside the sentence: a capitalised word after an article ("quanto pesa
    o Kofi?") or an auxiliary verb ("did Kofi get weighed?") or the last word of a question after
    a verb ("¿cuánto pesa Kofi?"), not the first word, not a vocabulary word nor a drug, and not
    after a colleague's title or a place ("Dr Smith"), nor a question's last word after a
    preposition ("any travel to Brazil?")."""
    stop = _stop(drug_words)
    not_after, articles, not_before_last = _lone_words()
    tokens = _TOKEN.findall(text or "")
    found = []
    for n, word in enumerate(tokens[1:], 1):
        bare = re.sub(r"['\u2019]s?$", "", word)  # "is Reye's syndrome …": the eponym
        if not re.fullmatch(_WORD, word) or normalise(bare) in stop or word[1:2] == "-":
            continue  # "X-ray", "T-wave", "B-cell": a letter and a word, never a name
        before = normalise(tokens[n - 1])
        # a question's last word after a preposition is a place ("any travel to Brazil?"),
        # after the clinician's verb of giving the thing given ("shall we give Ecosprin?")
        last = (n + 1 < len(tokens) and tokens[n + 1] == "?" and before not in not_before_last
                and not gives_it([normalise(t) for t in tokens[max(0, n - 2):n]])
                and not _example_of_drug(tokens, n, drug_words))
        seen = (_seen_before(tokens[:n]) or _the_named_person(tokens, n)
                or _topic_of_a_possessive(tokens, n))
        if before not in not_after and (before in articles or last or seen
                                        or ordered_for(tokens, n, drug_words)):
            found.append(word)
    return found


def _example_of_drug(tokens: list[str], n: int, drug_words: set[str] | frozenset[str]) -> bool:
    """``tokens[n]`` follows a drug or a class and a word of example ("¿le puedo dar un AINE
    tipo Naxen?", "un AINS genre Zorbax ?"): a drug of that kind, never a person."""
    return (n >= 2 and normalise(tokens[n - 1]) in _people_data()["example_words"]
            and normalise(tokens[n - 2]) in {normalise(w) for w in drug_words})


def _topic_of_a_possessive(tokens: list[str], n: int) -> bool:
    """The capitalised word ``tokens[n]`` follows "and" and comes before a possessive ("et
    Robert son INR …", "y Samuel su glucosa", "et Jean-Pierre, son INR ?"): the person whose
    result is asked."""
    said = _people_data()
    # ... a comma between them ("et Jean-Pierre, son INR ?", "y María José, su INR")
    after = n + 2 if n + 2 < len(tokens) and tokens[n + 1] == "," else n + 1
    return (after < len(tokens) and normalise(tokens[n - 1]) in said["topic_before"]
            and normalise(tokens[after]) in said["topic_possessives"])


def _the_named_person(tokens: list[str], n: int) -> bool:
    """The capitalised word ``tokens[n]`` stands between "the" and a person's noun ("the
    Thompson lady", "the Okoro boy"): a surname worn as a description."""
    nouns = _people_data()["named_persons"]
    return (normalise(tokens[n - 1]) == "the" and n + 1 < len(tokens)
            and normalise(tokens[n + 1]) in nouns)


def ordered_for(tokens: list[str], n: int, drug_words: set[str] | frozenset[str]) -> bool:
    """The capitalised word ``tokens[n]`` ends a drug's order after a word of whom it is for
    ("ibuprofeno 400 c/8h para Samuel", "paracetamol 1 g pour Robert", "for Kofi please"): the
    one it is for. Only with a drug named, a chart question or a ward order before it ("check K
    for Samuel", "refer to cardiology for Samuel", "FBC tomorrow for Samuel"), so "transfert pour
    Lyon" names no one."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader
    from .ward import read_ward

    said = _people_data()
    if not _ends_an_order(tokens[n + 1:]) or normalise(tokens[n - 1]) not in said["ordered_for"]:
        return False
    before = " ".join(tokens[:n - 1])
    # "same for kofi", "and for margaret?", "pareil pour Awa": the request just made, for her
    leads = {normalise(fold_accents(str(w))) for w in said["same_for_leads"]}
    if " ".join(normalise(fold_accents(t)) for t in tokens[:n - 1] if re.search(r"\w", t)) in leads:
        return True
    ward = read_ward(before)
    return (bool(drug_words) or focus_of(before) is not None
            or bool(ward.tests or ward.specialties or ward.readings))


def _ends_an_order(rest: list[str]) -> bool:
    """What follows the one an order is for closes it: nothing, a polite phrase ("por favor"),
    or its time ("check INR for Grace tomorrow", "FBC for Samuel in am pls")."""
    said = _people_data()
    words = [normalise(t) for t in rest if re.search(r"\w", t)]
    # "temp 38.5 for tom, please record": the charting asked after it closes it too
    closing = {*said["polite_after"], *said["for_closings"]}
    while words and words[-1] in closing:
        words.pop()
    return (not words or " ".join(words) in said["polite_after"]
            or when.starts(" ".join(words)) == 0)


# two capitalised words joined as people are ("Robert and Margaret both need …", "Margaret et
# Robert", "o Kofi e a Ama"): each a first name
_PAIRED = re.compile(r"(?<![\w'])([A-Z][a-z\u00e0-\u00ff'-]{2,})\s+(?:and|&|et|e|y)\s+"
                     r"(?:(?:o|a|la|le|el)\s+)?([A-Z][a-z\u00e0-\u00ff'-]{2,})(?![\w'])")


def paired_names(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Two first names joined by "and" ("Robert and Margaret both need their INR checked"):
    both, when neither is a vocabulary word nor a drug; one of them may be the patient's own,
    the other is then someone else, never folded into her request."""
    stop = _stop(drug_words)
    return [w for m in _PAIRED.finditer(text or "")
            if not {normalise(m.group(1)), normalise(m.group(2))} & stop for w in m.groups()]


def _phrases(key: str) -> re.Pattern[str]:
    """One of the accent-folded lower-case phrases of ``key``, as whole words."""
    words = sorted({fold_accents(str(w)).lower() for w in _people_data()[key]}, key=len,
                   reverse=True)
    return re.compile(rf"(?<![\w'\u2019])(?:{'|'.join(map(re.escape, words))})(?![\w'\u2019])")


@lru_cache(maxsize=1)
def _place_words() -> re.Pattern[str]:
    return _phrases("places")


def is_place(span: str, text: str = "") -> bool:
    """A run of capitalised words that names a place ("Mercy Hospital", "Hospital Santa Maria",
    "Clínica San José"): one of its words is a place's (``places``), or, in ``text``, a place's
    capitalised word stands right before or after it ("do Hospital Santa Maria")."""
    if _place_words().search(fold_accents(span).lower()):
        return True
    for m in re.finditer(rf"(?<![\w'\u2019]){re.escape(span)}(?![\w'\u2019])", text or ""):
        if _saint_named(span, text, m.start(), m.end()):
            return True
        near = (text[max(0, m.start() - 20):m.start()].split()[-1:]
                + text[m.end():m.end() + 20].split()[:1])
        if any(w[:1].isupper() and _place_words().fullmatch(fold_accents(w).lower().strip(",.?"))
               for w in near):
            return True
    return False


def _saint_named(span: str, text: str, start: int, end: int) -> bool:
    """``span`` opens with a saint's word and a capitalised word follows it, in the span or
    right after it in ``text`` ("Santa Casa", "San Roque", "Hospital São Lucas", "Santa" of "da
    Santa Casa"): a hospital, a church, a town, never a person. A title right before it keeps a
    surname of that form ("la señora San Martín", "Mrs St John"), as does a saint's word alone
    ("a dona Santa do leito 3")."""
    words = span.split()
    if fold_accents(words[0]).lower().rstrip(".") not in {
            str(w) for w in _people_data()["place_saints"]}:
        return False
    after = text[end:].split()[:1] if len(words) == 1 else words[1:2]
    if not (after and after[0][:1].isupper()):
        return False
    before = fold_accents(text[:start]).lower().split()[-1:]
    titles = {str(t) for ts in _people_data()["titles_by_sex"].values() for t in ts}
    return not (before and before[0].rstrip(".") in titles)


# a user name or an e-mail's name part: an initial or a given name, a dot or an underscore, a
# surname ("g.adeyemi", "grace_adeyemi", "s.okoro@hospital.org")
_HANDLE = re.compile(r"(?<![\w.@/:-])([a-z]|[a-z]{3,})[._]([a-z]{3,})(?=@|(?![\w.-])|\.(?!\w))")
_NOT_A_GIVEN = frozenset({"dr", "mr", "mrs", "ms", "www", "http", "https", "mailto"})


@lru_cache(maxsize=1)
def _not_handles() -> frozenset[str]:
    return frozenset(str(w) for w in _people_data()["not_handles"])


def handle_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The person a user name names ("g.adeyemi" → "G Adeyemi", "grace_adeyemi" → "Grace
    Adeyemi"), written as a name so the patient's own is recognised as hers; never a microbe
    ("e.coli", ``not_handles``), a vocabulary word or a drug."""
    stop = _stop(drug_words)
    found = []
    for m in _HANDLE.finditer(fold_accents(text or "").lower()):
        given, surname = m.groups()
        if (surname in _not_handles() or normalise(surname) in stop or given in _NOT_A_GIVEN
                or (len(given) > 1 and normalise(given) in stop)):
            continue
        found.append(f"{given.capitalize()} {surname.capitalize()}")
    return found


@lru_cache(maxsize=1)
def _across() -> re.Pattern[str]:
    return _phrases("across_patients")


def across_patients(text: str) -> list[str]:
    """A list across patients the message asks of ("all my patients", "both of them", "tous mes
    patients", "os dois", "mis pacientes"): not this chart."""
    return list(dict.fromkeys(m.group(0) for m in _across().finditer(
        fold_accents(text or "").lower().replace("\u2019", "'"))))


def is_across(said: str) -> bool:
    """``said`` (a name ``across_patients`` read) is a list across patients."""
    return bool(_across().fullmatch(fold_accents(said).lower().strip()))


@lru_cache(maxsize=1)
def _follow() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    opens = _phrases("follow_on")
    back = _phrases("back_to_her").pattern.replace(r"(?![\w'\u2019])", r"(?!\w)")
    return (re.compile(rf"^[\s¿¡]*{opens.pattern}"), _phrases("follow_pronouns"),
            re.compile(back))  # "this patient's INR": the possessive brings her back too


def brings_back(text: str) -> bool:
    """The message names the patient in context as whom it asks of ("and what about this
    patient's?", "e esta doente, …", "¿y la paciente?")."""
    return bool(_follow()[2].search(fold_accents(text or "").lower().replace("\u2019", "'")))


def follows_on(text: str) -> bool:
    """A short follow-up that goes on about whoever the last message was about: it opens with
    "and", "et", "e", "y" … or holds a third person's pronoun ("and is he allergic?", "et elle
    prend quoi ?", "¿y es alérgico a algo?"), in ten words or fewer, and does not bring the
    question back to the patient ("this patient", "la paciente")."""
    low = fold_accents(text or "").lower().replace("\u2019", "'")
    opens, pronouns, back = _follow()
    if len(low.split()) > 10 or back.search(low):
        return False
    return bool(opens.search(low) or pronouns.search(low))


def back_to_the_possessor(text: str, before: str) -> bool:
    """A follow-up about the patient, not the relative the message before named with her
    possessive: "can his wife take aspirin?" then "and his inr?", "a esposa dele …" then "e o
    INR dele?" (the wife cannot be "his"). Its pronouns are all of the possessor's sex and the
    relative is of the other; a relative of the same sex, no pronoun, or a mixed one stays the
    relative's (people.yaml possessor_back)."""
    said = _people_data()["possessor_back"]
    low = fold_accents(before or "").lower().replace("\u2019", "'")
    words = set(re.findall(r"[a-z]+", fold_accents(text or "").lower()))
    for sex, other in (("male", "female"), ("female", "male")):
        mine, theirs = said[sex], said[other]
        kin = "|".join(re.escape(w) for w in theirs["relatives"])
        ahead = "|".join(re.escape(w) for w in mine["before_relative"])
        behind = "|".join(re.escape(w) for w in mine["after_relative"])
        if not re.search(rf"\b(?:(?:{ahead})\s+(?:{kin})(?:'s)?|(?:{kin})\s+(?:{behind}))\b",
                         low):
            continue
        if words & set(mine["pronouns"]) and not words & set(theirs["pronouns"]):
            return True
    return False


# a colleague named as asking about the patient ("le Dr Aimé Diouf, son pneumologue, demande ses
# allergies", "la Dra. Luz Herrera, su obstetra, pregunta si …", "Nurse Joy Banda asks for her
# K"): a title of staff, one to three name words, an aside, a verb of asking — the one asking,
# not a patient asked about
_COLLEAGUE_ASKING = re.compile(
    r"(?i)\b(?:dr|dra|dre|doctor|doctora|docteur|doutor|doutora|nurse|sister|prof|professor|"
    r"infirmiere|infirmi\u00e8re|enfermeira|enfermera|midwife|sage-femme|parteira|matrona)\.?\s+"
    r"((?-i:[A-Z\u00c0-\u00dd][\w'-]+)(?:\s+(?-i:[A-Z\u00c0-\u00dd][\w'-]+)){0,2})"
    r"\s*(?:,[^,.;?]{1,40},)?\s+"
    r"(?:demande|asks|asked|is asking|wants|requests|requested|wonders|pede|pediu|pergunta|"
    r"perguntou|pide|pidio|pidi\u00f3|pregunta|pregunt\u00f3|quer|quiere|veut|voudrait|souhaite|"
    r"would like|gostaria|quisiera|se pregunta|called|rang|appelle|a appel\u00e9|ligou|"
    r"llam\u00f3)\b")


def _colleague_words() -> tuple[str, str, str]:
    """The staff roles and verbs of saying (``colleague_roles``, ``colleague_says``) as
    alternations, longest first, and a capitalised name's word: what both colleague readers
    match."""
    said = _people_data()
    roles = "|".join(re.escape(str(w)) for w in sorted(said["colleague_roles"], key=len,
                                                        reverse=True))
    verbs = "|".join(re.escape(str(w)) for w in sorted(said["colleague_says"], key=len,
                                                        reverse=True))
    return roles, verbs, r"(?-i:[A-Z\u00c0-\u00dd][\w'-]+)"


@lru_cache(maxsize=1)
def _colleague_apposed() -> re.Pattern[str]:
    """A name, then a staff role set off by commas, then a verb of saying or asking ("a Luz,
    enfermeira da noite, disse que …", "Joy, the night nurse, says …", "Amparo, la enfermera de
    guardia, dice …"): the colleague reporting, never a patient. Without the verb after the
    aside the name stays a person ("Joy, the nurse, has a headache" is about Joy)."""
    roles, verbs, name = _colleague_words()
    return re.compile(
        rf"(?i)(?<![\w'])({name}(?:\s+{name}){{0,2}})\s*,\s*(?:[^,.;?!]{{0,20}}?[\s'\u2019])?"
        rf"(?:{roles})(?![\w'])[^,.;?!]{{0,30}},\s*(?:{verbs})(?![\w'])")


@lru_cache(maxsize=1)
def _colleague_titled() -> re.Pattern[str]:
    """A staff role, then a name, then a verb of saying or asking ("el residente Juan pregunta
    …", "l'interne Paul demande …", "a enfermeira Graça disse …", "the pharmacist Victoria
    says …"): the colleague reporting, never a patient. The roles and verbs are the apposed
    reader's (``colleague_roles``, ``colleague_says``); without the verb right after the name
    (an aside set off by commas allowed) the name stays a person ("the nurse Joy has a
    headache")."""
    roles, verbs, name = _colleague_words()
    return re.compile(
        rf"(?i)(?<![\w])(?:{roles})\s+({name}(?:\s+{name}){{0,2}})\s*(?:,[^,.;?!]{{1,40}},)?\s+"
        rf"(?:{verbs})(?![\w'])")


def colleagues_asking(text: str) -> list[str]:
    """The names of colleagues who ask about the patient, as written: after a staff title
    ("le Dr Aimé Diouf, son pneumologue, demande …") or role ("el residente Juan pregunta …"),
    or before a role set off by commas ("a Luz, enfermeira da noite, disse …")."""
    return [m.group(1) for p in (_COLLEAGUE_ASKING, _colleague_apposed(), _colleague_titled())
            for m in p.finditer(fold_accents(text or "") if p is not _COLLEAGUE_ASKING
                                else text or "")]


# a title of staff, a name and a possessive ("Dr Mensah's INR?", "Sister Grace's patient"): the
# name is someone whose own chart is asked, or whose patient is meant, never the chart in context
# unless it is her own name; "Dr Otieno's letter" or "Nurse Joy's plan" name no patient
_STAFF_OWNS = re.compile(
    r"(?i)(?<![\w'])(dr|dra|doctor|doctora|docteur|doutor|doutora|nurse|sister|prof|professor|"
    r"matron|midwife)\.?\s+((?-i:[A-Z\u00c0-\u00dd][\w'\u2019-]+)"
    r"(?:\s+(?-i:[A-Z\u00c0-\u00dd][\w'\u2019-]+))?)['\u2019]s\s+(\w+)")


def staff_possessed(text: str) -> list[str]:
    """The people a staff title's possessive names: "Dr Mensah's INR?" asks of Mensah, "Sister
    Grace's patient" of her patient (read as "the patient of Sister Grace"); a word of
    ``people.yaml`` ``staff_owns`` after the possessive ("letter", "plan") names no one."""
    out = []
    for m in _STAFF_OWNS.finditer(text or ""):
        owned = fold_accents(m.group(3)).lower()
        if owned in people_data()["staff_patients"]:
            out.append(f"the patient of {m.group(1)} {m.group(2)}")
        elif owned not in people_data()["staff_owns"]:
            out.append(m.group(2))
    return out
