"""Deterministic entity extraction for INPUT_ASSEMBLY (drugs, patients, doses, actions).

Drugs are the knowledge core's (``knowledge/mentions.py``: its names, shorthands and each
language's spellings, misspellings one edit away). Also here: patient ids, person names, action
keywords, dose and frequency, allergy reaction and severity. Measured on
``data/extraction_cases.yaml`` by ``tests/agent/test_extraction.py``.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache, lru_cache
from typing import Any

from .. import knowledge
from ..knowledge import analytes
from ..knowledge.mentions import DrugMention, find_drugs, normalise
from ..languages import answer_language, frequency
from ..reading import handover, spoken
from ..reading.dosage import Allergy, Dose
from ..reading.drugs import (
    allergen_named,
    declined_drugs,
    members_over_classes,
    unglued,
    without_declined,
)
from ..reading.entities import Entities
from ..reading.first_names import first_name_people
from ..reading.kind_asked import kind_asked
from ..reading.lower_names import (
    given_names as census_given_names,
)
from ..reading.lower_names import (
    lower_ordered_for,
    lower_titled_people,
    order_object_people,
    ordered_for_lower,
    particled_lower_people,
    placed_people,
)
from ..reading.numbers import in_digits
from ..reading.pasted import question_after
from ..reading.people import (
    addressed_people,
    beside_people,
    capitals_people,
    colleagues_asking,
    dotted_initials_people,
    fold_accents,
    handle_people,
    heading_names,
    initialled_people,
    initials_people,
    is_place,
    leading_lower_people,
    lone_names,
    lower_pair_people,
    named_people,
    not_name_words,
    paired_names,
    people_data,
    possessed_people,
    possessor_people,
    questioned_people,
    relatives_names,
    staff_possessed,
    subject_names,
    titled_initials,
    unshouted,
)
from ..reading.per_kg import per_kg_in_mg
from ..reading.request import Conversation, Request, Words, Workflow, assemble, results_asked
from ..reading.slips import unslipped
from ..reading.subject import as_the_patient, without_identifiers
from ..reading.unknown_words import (
    about_lower_names,
    is_word,
    leading_lower_name,
    subject_lower_names,
    trailing_lower_names,
    unknown_names,
)
from ..reading.ward import Ward, read_ward
from ..reading.word_names import word_name_people, word_names
from ..tools.chart.answers import chart_focus
from ..tools.chart.in_context import ChartInContext, InContext
from ..tools.words.dosing import AS_NEEDED, INFUSION, NUMBER, amount, dose_pattern, range_pattern
from ..tools.words.windows import Asked, asked
from ..tools.writes.drafts import dictated_handover
from . import languages, order_lines, several_asks, ward_requests
from .prompts import rules
from .routes import route_pattern
from .therapeutic_trials import tried_on_her

_PATIENT_REF = re.compile(r"\bPatient/([A-Za-z0-9\-.]{1,64})")
# "MRN 88412", "MRN of 88412-A", "medical record number: S653", "patient id #x-1"; a site's
# record number in fr/pt/es: "IPP 100587", "prontuário 100712", "NHC 100587", "historia 100712",
# Latin America's "expediente 100587"; written with or without its accents (the text is not folded)
_PATIENT_ID = re.compile(
    r"\b(?:patient\s+id|patient\s+#|id|mrn|medical\s+record\s+number|ipp|nip|nda|"
    r"(?:n[o°º.]*\s*)?(?:prontu[aá]rio|processo|registro|expediente)|nhc|"
    r"hist[oó]ria(?:\s+cl[ií]nica)?|"
    r"(?:n[o°º.]*\s*)?dossier)"
    # its digits grouped by spaces as a ward types them ("mrn 100 231", "MRN: 100 587") are one
    # number, never its first group alone
    r"(?:\s+(?:of|is|number|no\.?))?[:#\s]+(\d{3}\s\d{3}(?:\s\d{3,4})?(?![\w.,/-])|"
    r"[A-Za-z0-9][A-Za-z0-9\-.]{1,63})\b",
    re.I,
)
# "MRN-100712": an MRN written with its prefix is one id, whatever follows
_MRN_WORD = re.compile(r"\b(mrn-[a-z0-9][a-z0-9\-]*[a-z0-9])\b", re.I)
# "pt 100845", "patient #100845", "#100845", "paciente 100845": a record number of five digits or
# more after a patient's word or a number sign (a dose, a count or a year is shorter)
# A hospital's own words for it too ("hosp no 100933", "unit no. 100-933", "NHS no 943 476 5919",
# "hospital number: 100933"), its digits grouped as written
_RECORD_NUMBER = re.compile(
    r"(?:\b(?:patient|pt|paciente|patiente|doente|(?:hosp(?:ital)?|unit|record|chart|case|reg"
    r"(?:istration)?)\.?\s*(?:no|num|number|nbr|#)|nhs(?:\s*(?:no|number))?)\.?\s*[:#]?\s*|#\s*)"
    r"(\d{5,10}|\d{3}[ -]\d{3}(?:[ -]\d{3,4})?)\b", re.I)
# MedAgentBench's record numbers: one capital letter and seven digits ("S6534835", "S2874099"),
# an id wherever it stands; a lab, a vitamin or a type ("B12", "T2DM", "G6PD") has fewer digits
_LETTERED_RECORD = re.compile(r"(?<![\w-])([A-Z]\d{7})(?![\w-])")
# a record number typed as its digits alone opening the message, before a dash, a colon or a
# comma, or before a verb asking of it ("100587 is his inr in range?", "100712 : elle est
# allergique à quoi ?", "100 231 - her k?"); a dose ("100000 units"), a count or a year has no
# such mark after it, and digits inside the sentence stay numbers
_OPENING_NUMBER = re.compile(
    r"^\s*(\d{6,10}|\d{3} \d{3}(?: \d{3,4})?)(?=\s*[-\u2013:,](?!\s*\d)|"
    r"\s+(?:is|has|was|est|a|é|e|tem|es|está|esta|tiene)\s)")
_UUID = re.compile(r"\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b", re.I)
# an id typed in part, as the ward shortens a long one: its first group after a patient's word
# ("pt 8cd61d7a", "paciente 3ec5a571"), or its first two or more groups anywhere
# ("330f6d34-ac8b"), or its first group alone anywhere when it mixes digits and the letters a-f
# as no word and no number does ("latest CBG for 96b29be4?"); whose it is, planning decides (a
# part of another patient's id is never hers)
_PARTIAL_UUID = re.compile(
    r"(?:\b(?:pt|patient|patiente|paciente|doente)\.?[:#\s]+([0-9a-f]{8})"
    r"|\b([0-9a-f]{8}(?:-[0-9a-f]{4}){1,3}"
    r"|(?=[0-9a-f]{0,7}[a-f])(?=[0-9a-f]{0,7}[0-9])[0-9a-f]{8}))(?![\w-])", re.I)
_SHORT_ID = re.compile(r"\b[a-z]{2,5}-\d{2,6}\b")  # "abc-123"; covid-19 is in not_patient_ids
# "patient xyz-789": an id-shaped word (a digit in it) right after "patient"; a bare
# "covid-19" elsewhere in the sentence is a disease, never a patient. The word is taken whole or
# not at all: a longer one (a UUID) is never cut at a hyphen into the id of someone else.
_PATIENT_WORD_ID = re.compile(
    r"\bpatient\s+([a-z]{1,8}-?\d[a-z0-9\-]{0,30})(?![a-z0-9\-])", re.I
)
# "patient pt-warfarin", "patient pt-jw-1958": a hyphenated word right after "patient" is an id
# (an EHR's ids need no digit) unless it is an ordinary compound ("patient self-reported",
# "patient follow-up": ``not_patient_id_prefixes``)
_PATIENT_HYPHEN_ID = re.compile(r"\bpatient\s+([a-z][a-z0-9]{0,11}(?:-[a-z0-9]+){1,6})\b", re.I)
# a name word: capitalised, digits allowed at its end (Synthea's "Dennise990 Beahan375"), a
# second capital inside it read as part of it ("McDermott", "MacLeod", "DeShawn"), never as the
# end of the name
_NAME_WORD = r"[A-Z][a-z'\-]+(?:[A-Z][a-z'\-]+)?\d*(?![\w])"
_NAME = re.compile(
    r"\b(?:[Pp]atient|[Ff]ind|[Ss]earch for|[Ll]ook up|[Nn]amed|[Nn]ame|[Cc]alled|"
    r"Mr\.?|Mrs\.?|Ms\.?|for|of|about|on|to)\s+"
    rf"((?:{_NAME_WORD})(?:\s+{_NAME_WORD}){{1,2}})")
_TITLES = {"mr", "mrs", "ms", "miss", "mr.", "mrs.", "ms.", "mister", "missus"}
# a title spelt out or typed lower case ("mister okoro in bed 11", dictated) names someone too
# a surname's word: "O'Brien", "N'Diaye", "McAllister" are one word, never an initial
_SURNAME = r"(?:[A-Z]['\u2019])?[A-Z][a-z'\-]+(?:[A-Z][a-z'\-]+)?"
_TITLED = re.compile(
    r"\b(?:Mr|Mrs|Ms|Miss|(?i:mrs|mister|missus))\.?\s+"
    rf"({_SURNAME}(?:\s+{_SURNAME})?(?![\w])|[a-z][a-z'\-]+)"
)
# "how old is mr little", "bloods for ms jones?": "mr"/"ms" in small letters is a title after a
# word that asks about someone (never after a drug: "nifedipine mr 30", "morphine ms"; never
# opening a question: "is mr better today?")
_TITLED_LOWER = re.compile(r"(?<![\w'])(?:\w+\s+is|for|of|about|and|with|to|saw|see|seen)\s+"
                           r"(?:mr|ms)\.?\s+([a-z][a-z'\-]+)(?![\w\-])")
_INITIAL = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|MR|MRS|MS)\.?\s+([A-Z])\.?(?:\s+([A-Z][a-z'\-]+))?"
                      r"(?![\w\-]|['\u2019][A-Z])")
_POSSESSIVE = re.compile(r"\b([A-Z][a-z\-]+\s+[A-Z][a-z\-]+)['\u2019]s\b")  # given name + surname
# "Ama Banks' magnesium": a surname ending in s owns with the apostrophe alone (its surname no
# word of the assistant's: "Daily Weights' trend" names no one)
_POSSESSIVE_BARE = re.compile(r"\b([A-Z][a-z\-]+\s+[A-Z][a-z\-]*s)['\u2019](?![\w'\u2019])")
# "James Wilson: penicillin allergy"
_ADDRESSED = re.compile(r"^\s*([A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+){1,2})\s*:")
_POSS = re.compile(r"['\u2019]s?$")
_JOINED = re.compile(r"\b(?:with|and|plus|together)\b|[+&]", re.I)
_DURATION = re.compile(
    r"(?:\bx\s*|\bfor\s+)(\d+)\s*(d\b|days?\b|w\b|wks?\b|weeks?\b|months?\b|/7|/52|/12)", re.I
)
# a count of days written right after the frequency of an order ("500 bd 7 days"), never a time
# gone by ("2 weeks ago")
_AFTER_FREQUENCY = re.compile(
    r"\b(?:od|bd|bid|tds|tid|qds|qid|daily|nocte|mane|q\d{1,2}h|prn|a day|per day)\s*,?\s+"
    r"(\d+)\s*(days?|weeks?|wks?|months?)\b(?!\s+(?:ago|before|back))", re.I)


@cache
def _course_after_frequency() -> re.Pattern[str]:
    """A count of days said bare after the order's frequency (``course_after_frequency``)."""
    return re.compile(rules()["course_after_frequency"], re.I)


@cache
def _course_of_one() -> re.Pattern[str]:
    """One week or month said with its article in English (``course_of_one``)."""
    return re.compile(rules()["course_of_one"], re.I)


_FRACTION_UNITS = {"/7": "days", "/52": "weeks", "/12": "months"}  # "for 5/7": five days
# the ward's bare fractions of a week, year or month ("bd 3/7", "2/52", "6/12"); never a date
# ("3/7/2026"), a pressure ("120/70"), "24/7" (always) or an interval ("12/12h", "8/8 h")
_BARE_FRACTION = re.compile(
    # ... nor the Brazilian interval after "de" ("1 g de 12/12": every 12 hours)
    r"(?<![\d/.,])(?<!\bde )(?!24/7)(\d{1,2})\s?(/7|/52|/12)(?![\d/.,]|\s*h)", re.I
)


def find_patient_ids(text: str) -> list[str]:
    """Explicit ids only: "Patient/…", "MRN …", "patient id …", "patient xyz-789", a UUID;
    never a disease or lab written like an id (covid-19, H1N1, HbA1c: ``not_patient_ids``)."""
    refs = [i.rstrip(".") for i in _PATIENT_REF.findall(text)]
    said = _MRN_WORD.findall(text) + _PATIENT_ID.findall(text) + _PATIENT_WORD_ID.findall(text)
    said += _RECORD_NUMBER.findall(text)
    said += _LETTERED_RECORD.findall(text) + _OPENING_NUMBER.findall(text)
    said += _hyphen_ids(text)
    said += _UUID.findall(text) + _SHORT_ID.findall(text)
    # a bare run of groups holds a letter ("20261205-1430" is a time stamp)
    said += [a or b for a, b in _PARTIAL_UUID.findall(text) if a or re.search("[a-f]", b, re.I)]
    said = [i.rstrip(".") for i in said if _id_shaped(i)]
    found = list(dict.fromkeys(i for i in refs + said if _key(i) not in _not_ids()))
    # "pt-jw-1958" also holds the short id "jw-1958": the id is the whole word
    return [i for i in found if not any(i != j and _part_of(i, j) for j in found)]


def _part_of(short: str, long: str) -> bool:
    """``short`` is a run of ``long``'s hyphen-separated groups ("jw-1958" of "pt-jw-1958")."""
    return f"-{short.lower().strip('-')}-" in f"-{long.lower()}-"


def _not_names(ids: list[str], names: list[str]) -> list[str]:
    """"MRN of Omega729 McDermott739": a word of a person's name (Synthea's names end in digits)
    is the name, not an id."""
    words = {w.lower() for name in names for w in name.split()}
    return [i for i in ids if i.lower() not in words]


def _hyphen_ids(text: str) -> list[str]:
    prefixes = frozenset(rules()["not_patient_id_prefixes"])
    return [
        i for i in _PATIENT_HYPHEN_ID.findall(text) if i.split("-", 1)[0].lower() not in prefixes
    ]


def _key(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", word.lower())


def _id_shaped(word: str) -> bool:
    """A digit or a hyphen in it: "mrn chart" or "id please" are words, not ids."""
    return any(c.isdigit() for c in word) or "-" in word


@lru_cache(maxsize=1)
def _not_ids() -> frozenset[str]:
    return frozenset(_key(w) for w in rules()["not_patient_ids"])


# letters the name patterns do not hold (Vietnamese, Yoruba tone marks, combining accents)
_BEYOND_LATIN1 = re.compile(r"[\u0250-\u036f\u1e00-\u1eff]")


# a birth date's dotted short form before a date ("F.N." fecha de nacimiento, "D.N." data de
# nascimento, "F. nac.", "D.O.B."): never an initial of a name ("Samuel F.", "Okoro D.")
# "b. 1 Aug 1953" (born), "nasc. 08/02/1985", "nac. 3/3/1990": the abbreviation before a date
_BORN_ABBREVIATION = re.compile(
    r"(?i)(?<![\w.])(?:f\.\s?n\.?|d\.\s?n\.?|f\.\s?nac\.?|d\.o\.b\.?|b\.|nasc\.|nac\.)"
    r"(?=\s*[:\-]?\s*\d)")


# the same short forms spelled out for the birth date's reading, in their own language (the day
# first after "nasc." and "nac.")
_BORN_SHORT = re.compile(r"(?i)(?<![\w.])(?:b|nasc|nac)\.(?=\s*[:\-]?\s*\d)")
_BORN_SPELLED = {"b.": "born", "nasc.": "nascido", "nac.": "nacido"}


def find_names(text: str, drugs: list[DrugMention], written: str | None = None) -> list[str]:
    """Person names: two or three capitalised words after "patient", "find", "for" …; a
    surname after Mr/Mrs/Ms/Miss; a possessive name anywhere ("Kwame Asante's INR"). Never a
    drug, a keyword or a disease named after a person ("Parkinson's"), and without the "'s".
    ``written``: the message with its accents, for the names no word list holds."""
    drug_words = {w for d in drugs for w in d.surface.split()}
    # "Bi-Profénid" (read "bi profenid"): a brand written with its hyphen is its words joined
    drug_words |= {d.surface.replace(" ", "-") for d in drugs if " " in d.surface}
    # "st john's wort": a word of a drug's name is no person, with its "'s" or without
    drug_words |= {normalise(_POSS.sub("", w)) for w in drug_words}
    if _BEYOND_LATIN1.search(text):  # "Nguyễn", "Adébáyọ̀": read as the name's letters alone
        text = fold_accents(text)
    text = _BORN_ABBREVIATION.sub(" dob ", text)  # "Okoro Samuel F.N. 03-11-1962": no initial
    found = [(m.group(1), 2) for m in _NAME.finditer(text)]
    found += [(m.group(1), 1) for m in _TITLED.finditer(text)]
    found += [(m.group(1), 2) for m in _POSSESSIVE.finditer(text)]
    found += [(m.group(1), 2) for m in _POSSESSIVE_BARE.finditer(text)
              if normalise(m.group(1).split()[-1]) not in not_name_words() | drug_words]
    found += [(m.group(1), 2) for m in _ADDRESSED.finditer(text)]
    found += [(m.group(1), 2) for m in _named_born().finditer(text)]  # "Jane Doe, DOB 1950-01-02"
    found += [(f"{m.group(2)} {m.group(1)}", 2) for m in _inverted_born().finditer(text)
              if not m.group(1).isupper()]
    found += [(name, 2) for name in _capitals_born(text, drug_words)]  # "LIND531, NANCEE600 dob"
    # a drug only guessed from a word (fuzzy) never hides a name typed right before its birth
    # date ("mrn joanie sawayn dob …": the surname is near Savaysa); one spelt exactly still does
    exact_words = {w for d in drugs if d.match != "fuzzy" for w in d.surface.split()}
    exact_words |= {normalise(_POSS.sub("", w)) for w in exact_words}
    typed_born = _typed_born(text, exact_words)
    # "refer Avril Bernier to ortho": a month's name written as a given name before a surname
    found += [(m.group(1), 2) for m in _CAPITALISED_RUN.finditer(text)
              if _as_a_name(m.group(1).split())]
    # "is April allergic to anything?", "refer avril to ortho": alone, where only a person stands
    month_slotted = [name for m in _MONTH_IN_A_PERSONS_PLACE.finditer(text)
                     for name in m.groups() if name
                     and _month_named(languages.fold(name).lower())]
    found += [(name, 1) for name in month_slotted]
    found += [(name, 2) for name in typed_born]  # "beverley mosciski dob …"
    found += [(name, 2) for name in _mrn_of_dated(text, drug_words)]  # "mrn lily dubuque 08/04/…"
    found += [(m.group(1), 2) for m in languages.name_pattern().finditer(text)]
    found += [
        (m.group("name") or m.group("cap") or m.group("low"), 1)
        for m in languages.title_pattern().finditer(languages.fold(text))
        if _past_particles(m.group("name") or m.group("cap") or m.group("low")).lower()
        not in not_name_words()
    ]
    # "Mr O", "Mrs T's bloods", "Mr J Smith": a title and an initial name someone
    found += [(" ".join(g for g in m.groups() if g), 1) for m in _INITIAL.finditer(text)]
    found += [(name, 1 + (" " in name)) for name in initialled_people(text, drug_words)]
    found += _loud_names(text, drug_words)
    # a person anywhere in the sentence
    found += [(name, 2) for name in named_people(text, drug_words)]
    found += [(name, 2) for name in possessed_people(text, drug_words)]  # "grace adeyemi's"
    found += [(name, 1) for name in possessor_people(text, drug_words)]  # "okoro's hba1c?"
    found += [(name, 2) for name in questioned_people(text, drug_words)]  # "is esther banda on"
    found += [(name, 1) for name in addressed_people(text, drug_words)]  # "what about Grace?"
    found += [(name, 2) for name in lower_pair_people(text, drug_words)]  # "e a grace adeyemi,"
    found += [(name, 1) for name in dotted_initials_people(text)]  # "et pour S.O., …"
    found += [(name, 1) for name in lone_names(text, drug_words)]  # "quanto pesa o Kofi?"
    found += [(name, 1) for name in paired_names(text, drug_words)]  # "Robert and Margaret"
    found += [(name, 1) for name in heading_names(text, drug_words)]  # "Adeyemi : allergies ?"
    found += [(name, 1) for name in subject_names(text, drug_words)]  # "Adeyemi tiene …"
    found += [(name, 1) for name in capitals_people(text, drug_words)]  # "THOMPSON MARGARET"
    found += [(name, 2) for name in handle_people(text, drug_words)]  # "g.adeyemi"
    found += [(name, 2) for name in leading_lower_people(text, drug_words)]  # "grace adeyemi wt"
    # "Tião, potássio?": read as written, since the word lists hold words with their accents
    found += [(languages.fold(name), 1) for name in unknown_names(written or text, drug_words)]
    found += [(name, 1) for name in trailing_lower_names(text, drug_words)]  # "a1c for okoro"
    found += [(name, 1) for name in leading_lower_name(written or text, drug_words)]  # "okafor a1c"
    found += [(name, 1) for name in subject_lower_names(text, drug_words)]  # "is okoro on"
    found += [(name, 1) for name in about_lower_names(text, drug_words)]  # "what about robert -"
    # "Grace - allergies?", "l'INR de Désiré ?", "PACO, INR?": a given name that is also a word
    # a drug only guessed from the word ("Socorro" near "Zocor") never hides the name
    exact = {w for d in drugs if d.match != "fuzzy" for w in d.surface.split()}
    word_named = [languages.fold(n) for n in word_name_people(written or text, exact)]
    found += [(n, 1) for n in word_named]
    names = []
    for span, least in found:
        if is_place(span, text):  # "Mercy Hospital", "Hospital Santa Maria": where, not who
            continue
        if _product_form(span, text, drugs):  # "Augmentin Duo Forte": the drug's form, no one
            continue
        spelt = [_POSS.sub("", w) for w in _to_possessive(span.split())]
        words = [w for n, w in enumerate(spelt) if w.lower() not in _TITLES | languages.titles()
                 and (normalise(w) not in drug_words or _brand_as_surname(spelt, n, drug_words)
                      # "D. Socorro": a titled name, never simvastatin
                      or w in word_named
                      or (span in typed_born and normalise(w) not in exact_words))]
        # "mrs" before an ordinary word; a name typed before its birth date was read already
        if span[:1].islower() and span not in typed_born and span not in month_slotted and any(
                normalise(w) in not_name_words() for w in words
                if w.lower() not in languages.surname_particles()):
            continue
        # (a month's name typed before a surname and a birth date, or written as a name before
        # one, is the given name: "avril bernier dob …", "refer Avril Bernier to ortho")
        month_named = span in typed_born or span in month_slotted or _as_a_name(words)
        if len(words) >= least and not any(
                w.lower() in _guard_names()
                and not (month_named and _month_named(languages.fold(w).lower()))
                and not _saint_of_a_surname(words, n, span, text)
                for n, w in enumerate(words)):
            names.append(" ".join(words))
    # "how old is mr little": after a title, a surname that is also a word is the surname
    names += [m.group(1) for m in _TITLED_LOWER.finditer(text)
              if m.group(1) not in _guard_names() and normalise(m.group(1)) not in drug_words]
    names = [n for n in names if not any(_within(n, other) for other in names)]
    # "le Dr Aimé Diouf, son pneumologue, demande …": the colleague asking is no patient
    asking = {languages.fold(w).lower() for n in colleagues_asking(written or text)
              for w in n.split()}
    names = [n for n in names if not {languages.fold(w).lower() for w in n.split()} <= asking]
    names += beside_people(text)  # "his wife asks if she can …", "bed 4"
    names += staff_possessed(text)  # "Dr Mensah's INR?", "Sister Grace's patient"
    names += lower_titled_people(text, drug_words)  # "what's ms macdonald-ross on?"
    names += particled_lower_people(text, drug_words)  # "hba1c de mohammed bin salman"
    names += ordered_for_lower(text, drug_words)  # "check inr for grace tomorrow"
    names += lower_ordered_for(text, drug_words)  # "check k for samuel"
    names += order_object_people(text, drug_words)  # "refer samuel to diabetes clinic"
    # "tom needs his inr checked", "is tom's inr ok?" (never the surname of a name read whole:
    # "Kwame Asante's last INR")
    names += [n for n in placed_people(text, drug_words)
              if not any(_within(n, other) for other in names)]
    # "what is tom on?", "hba1c of michael?", "y carmen, ¿qué toma?": a given name anywhere
    folded = {languages.fold(n).casefold() for n in names}
    names += [n for n in first_name_people(written or text, drug_words)
              if languages.fold(n).casefold() not in folded
              and not any(_within(languages.fold(n), languages.fold(o)) for o in names)]
    # "JM needs his metformin checked": initials as letters ("J M"), a title's letters kept
    names += initials_people(text, drug_words)
    said = {w.rstrip(".") for name in names for w in name.split()}
    names += [n for n in titled_initials(text)  # "et Mme A. du 14", "Mr M,": with the title
              if n.split()[-1].rstrip(".") not in said]
    # "mr thompson's potassium": the possessive is no part of the name
    names = [re.sub(r"(?<=\w)['\u2019]s$", "", n) for n in names]
    # "his wife Abena says …", "o filho dele, o Kwame, disse …": the relative's own name is read
    # with the relative (``beside_people``: refused as the subject, nothing when reporting for
    # the patient), never as a patient of its own
    theirs = relatives_names(text)
    names = [n for n in names if languages.fold(n.split()[0]).lower() not in theirs]
    # ... and the colleague asking stays no patient whichever reader found the name ("Amparo, la
    # enfermera de guardia, dice …": also a given name anywhere)
    names = [n for n in names if not {languages.fold(w).lower() for w in n.split()} <= asking]
    return list({n.casefold(): n for n in reversed(names)}.values())[::-1]


def _saint_of_a_surname(words: list[str], n: int, span: str, text: str) -> bool:
    """``words[n]`` is a saint's word opening a surname of two right after a title ("Mrs St
    John", "Mr St Clair"): the two are the surname, never a place (without a title, "at St
    George's" is where)."""
    if not (n + 1 < len(words) and words[n + 1][:1].isupper()
            and languages.fold(words[n]).lower().rstrip(".")
            in {str(w) for w in people_data()["place_saints"]}):
        return False
    titles = "|".join(re.escape(t.rstrip(".")) for t in _TITLES)
    return bool(re.search(rf"(?i)\b(?:{titles})\.?\s+{re.escape(span)}", text))


def _product_form(span: str, text: str, drugs: list[DrugMention]) -> bool:
    """``span`` is only a product's form (``reading/data/people.yaml`` ``product_forms``) written
    right after a drug named ("Augmentin Duo Forte", "Voltaren Retard"); "Mr Forte" is not."""
    forms = {str(w) for w in people_data()["product_forms"]}
    if not span or any(w.lower() not in forms for w in span.split()):
        return False
    return any(re.search(rf"(?<!\w){re.escape(d.surface)}\s+{re.escape(span)}(?!\w)", text,
                         re.I) for d in drugs if d.surface)


def _past_particles(span: str) -> str:
    """The first word of a titled name past its surname's particles ("dos" of "dos Santos")."""
    words = span.split()
    rest = [w for w in words if w.lower() not in languages.surname_particles()]
    return (rest or words)[0]


def _brand_as_surname(words: list[str], n: int, drug_words: set[str]) -> bool:
    """A drug's brand written as a surname ("Mg for Ira Bayer?"): capitalised, right after a
    capitalised first name that is no drug, title or word of the assistant's."""
    if n == 0 or not words[n][:1].isupper():
        return False
    first = words[n - 1]
    return (first[:1].isupper() and normalise(first) not in drug_words
            and first.lower() not in _TITLES | languages.titles() | _guard_names()
            and normalise(first) not in not_name_words())


def _to_possessive(words: list[str]) -> list[str]:
    """A name ends at its possessive: "Mrs Thompson's K?" names Thompson, and K is what is asked
    of her (never the initial of a "Thompson K")."""
    end = next((n + 1 for n, w in enumerate(words) if _POSS.search(w)), len(words))
    return words[:end]


def _loud_names(text: str, drug_words: set[str]) -> list[tuple[str, int]]:
    """A message typed in capitals read as if a name were written as one ("DOES AMARA NWOSU
    HAVE …"): the runs of capitalised words, a title's surname, a first name addressed; cut at
    a possessive, of words of three letters or more that are no vocabulary word. The possessive
    and lone-word rules are not applied there: every word is capitalised."""
    loud = unshouted(text)
    if loud == text:
        return []
    spans = [(n, 2) for n in named_people(loud, drug_words)]
    spans += [(n, 1) for n in addressed_people(loud, drug_words)]
    spans += [(m.group(1), 1) for m in _TITLED.finditer(loud)]
    out = []
    for span, least in spans:
        words: list[str] = []
        for word in span.split():
            bare = _POSS.sub("", word)
            if len(bare) < 3 or normalise(bare) in not_name_words():
                break
            words.append(bare)
            if bare != word:
                break
        if len(words) >= least:
            out.append((" ".join(words), least))
    return out


def _within(name: str, other: str) -> bool:
    """``name`` is part of a longer name found ("Asante" of "Kwame Asante's")."""
    return name != other and set(name.lower().split()) < set(other.lower().split())


def born_words() -> str:
    """The birth date's words of every language, as one alternation."""
    return _born_words()


@lru_cache(maxsize=1)
def _born_words() -> str:
    return "|".join(
        re.escape(w) for w in sorted(rules()["birth_date_words"], key=len, reverse=True)
    )


# between a name and its birth date's word: "Jane Doe, DOB …", "Jane Doe - DOB …", "Jane Doe (DOB …"
_BEFORE_BORN = r"\s*[,(\-\u2013?.;]?\s*"


@lru_cache(maxsize=1)
def _named_born() -> re.Pattern[str]:
    """Two or three name words right before a birth date's word: a person, whatever precedes."""
    return re.compile(
        rf"\b((?:{_NAME_WORD})(?:\s+{_NAME_WORD}){{1,2}}){_BEFORE_BORN}(?i:{_born_words()})\b"
    )


@lru_cache(maxsize=1)
def _inverted_born() -> re.Pattern[str]:
    """"McDermott739, Omega729 - DOB 1995-02-20": a surname, a comma and the given name(s) right
    before a birth date's word, as patient lists and wristbands write a patient."""
    word = f"(?:{_NAME_WORD}|{_CAPS_WORD})"
    return re.compile(
        rf"\b({word}),\s*((?:{word})(?:\s+{word})?){_BEFORE_BORN}"
        rf"(?i:{_born_words()})\b"
    )


_LOWER_BORN_WORD = r"[a-z][a-z'\-]+\d*"


@lru_cache(maxsize=1)
def _lower_born() -> re.Pattern[str]:
    return re.compile(
        # the birth date's word is a word of its own: "cutanee en 2019" is a rash's year, never
        # "cuta" born ("nee en") in 2019
        rf"(?<![\w/-])((?:{_LOWER_BORN_WORD}\s+){{0,3}}{_LOWER_BORN_WORD}){_BEFORE_BORN}"
        rf"(?<![a-z])(?i:{_born_words()})(?![a-z])"
    )


# a name written in capitals, as wristbands and patient lists write a surname ("LIND531, NANCEE600")
_CAPS_WORD = r"[A-Z][A-Z'\-]+\d*"


@lru_cache(maxsize=1)
def _caps_born() -> re.Pattern[str]:
    return re.compile(
        rf"(?<![\w/-])({_CAPS_WORD}(?:\s+{_CAPS_WORD}){{1,2}}){_BEFORE_BORN}"
        rf"(?<![A-Za-z])(?i:{_born_words()})\b"
    )


def _capitals_born(text: str, drug_words: set[str]) -> list[str]:
    """A name in capitals right before a birth date's word ("NANCEE LIND DOB …"), or before it
    with the surname first ("LIND531, NANCEE600 - DOB …"), when none of its words is a word of the
    assistant's vocabulary or a drug ("CBC BMP DOB" names no one)."""
    stop = not_name_words() | _guard_names() | drug_words
    spans = [m.group(1) for m in _caps_born().finditer(text)]
    spans += [f"{m.group(2)} {m.group(1)}" for m in _inverted_born().finditer(text)
              if m.group(1).isupper()]
    return [s for s in spans
            if not any(normalise(w) in stop or w.lower() in stop for w in s.split())]


def _typed_born(text: str, drug_words: set[str]) -> list[str]:
    """A name typed in lower case right before a birth date's word ("mrn for beverley mosciski dob
    07/09/1986"): the last two or three words there when none is a word of the assistant's
    vocabulary, a drug, a title or a guard word ("check his dob" names no one)."""
    stop = not_name_words() | _guard_names() | _TITLES | languages.titles() | drug_words
    names = []
    for m in _lower_born().finditer(text):
        words = m.group(1).split()
        tail: list[str] = []
        for word in reversed(words):
            if normalise(word) in stop or word in stop or len(tail) == 3:
                # a given name that is also a word, before a surname no list holds ("ella batz
                # born …", "grace adeyemi dob …"), a month's name among them ("avril bernier dob
                # …", "june hartmann dob …": a month is no name before a surname only in a date)
                if len(tail) == 1 and (languages.fold(word).lower() in word_names()
                                       or _month_named(languages.fold(word).lower())):
                    tail.insert(0, word)
                break
            tail.insert(0, word)
        if len(tail) >= 2:
            names.append(" ".join(tail))
    return names


def _month_named(word: str) -> bool:
    """A month's whole name in any language that is also a census given name ("avril", "april",
    "june", "may", "abril"); never a month's first letters ("marcus", "junior")."""
    return word in _month_words() and word in census_given_names()


# a month's name where only a person stands: the subject of "is … allergic / on", the one "what
# is … on?" asks of, the one referred or sent somewhere; never before a day or a year ("is May 3
# ok", "refer in June 2027")
_MONTH_IN_A_PERSONS_PLACE = re.compile(
    r"(?i)(?:\b(?:is|does|has|was|did)\s+([a-z]+)\s+(?:still\s+)?(?:on|allergic|taking|diabetic|"
    r"pregnant|due|having|getting)\b"
    r"|\bwhat(?:'s|s| is| was)\s+([a-z]+)\s+on\b"
    r"|\b(?:refer|send)\s+([a-z]+)\s+(?:to|for)\b)(?!\s*\d)")


_CAPITALISED_RUN = re.compile(r"(?<![\w'])([A-Z][a-z]+(?:\s+[A-Z][a-z'\-]+){1,2})(?![\w'])")


def _as_a_name(words: list[str]) -> bool:
    """Two or three words written as a name ("Avril Bernier"), the first a month's name that is
    a given name and the others no month, word of the assistant's or guard word ("April
    Smith"; never "April Monday", "June INR")."""
    if not 2 <= len(words) <= 3 or not all(w[:1].isupper() and w[1:2].islower() for w in words):
        return False
    rest = [languages.fold(w).lower() for w in words[1:]]
    return _month_named(languages.fold(words[0]).lower()) and not any(
        w in _month_words() or w in not_name_words() or w in _guard_names() for w in rest)


_MONTHS = {
    m: i
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_DATE_FORMS = (
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), ("y", "m", "d")),
    # "03/11/1962", "03.11.1962", "03-11-1962" (a ward list's dashes)
    (re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})"), ("a", "b", "y")),
    (re.compile(r"(\d{1,2})[/.](\d{1,2})[/.](\d{2})(?![\d/.])"), ("a", "b", "y")),
    # "3 Nov 83", "7-Mar-45", "Jan 21 97": a month's name with a year of two digits too; "5 de
    # diciembre de 2021", "3 de novembro de 1983": the "de" Spanish and Portuguese write around it
    (re.compile(r"(\d{1,2})(?:\s+de)?(?:\s+|-)([a-z]{3,10})\.?,?(?:\s+de)?(?:\s+|-)"
                r"(\d{4}|\d{2}(?!\d))"), ("d", "mon", "y")),
    (re.compile(r"([a-z]{3,10})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}|\d{2}(?!\d))"),
     ("mon", "d", "y")),
)


@lru_cache(maxsize=1)
def _month_words() -> dict[str, int]:
    return {str(w): int(n) for n, words in rules()["month_words"].items() for w in words}


def _month(word: str) -> int:
    """A month written as a word in any language, else by its first three letters; 0: none."""
    return _month_words().get(word) or _MONTHS.get(word[:3]) or 0


def find_birth_date(text: str) -> str | None:
    """The ISO date right after a birth date's word ("DOB 1958-12-14", "born Dec 14, 1958",
    "date of birth 14/12/1958"); None when absent or when day and month cannot be told apart."""
    readings = find_birth_dates(text)
    return readings[0] if len(readings) == 1 else None


def find_birth_dates(text: str) -> tuple[str, ...]:
    """Every reading of the birth date said: one ISO date, or two for "07/09/1986" written after
    an English word (the US month first or the day first: both are searched, and two patients
    found are asked about, never guessed between). After a French, Portuguese or Spanish word
    ("née le 07/09/1986", "fecha de nacimiento") the day comes first, as those languages write
    it."""
    m = re.search(
        rf"(?<![a-z])({_born_words()})(?![a-z])\s*(?:of|on|is|:|-|=|le|em|el|en)?\s*(.{{0,24}})",
        # a date said in words ("dob feb third nineteen eighty one") read as typed
        spoken.dates_said(_BORN_SHORT.sub(lambda a: f" {_BORN_SPELLED[a.group(0).lower()]} ",
                                          languages.fold(text)).lower()),
    )
    if not m:
        return _dated_name(languages.fold(text))
    day_first = m.group(1) in rules()["birth_date_words_day_first"]
    for pattern, parts in _DATE_FORMS:
        found = pattern.match(m.group(2).strip())
        if found:
            return _iso(dict(zip(parts, found.groups(), strict=False)), day_first)
    return ()


# "o Robert Mensah de 12/03/1950", "Mensah R (12/03/1950)": a full date of a past year right
# after a name, with no birth date's word: read as the birth date (either order of day and month)
_NAME_DATE = re.compile(rf"{_NAME_WORD}(?:\s+[A-Z]\.?)?\s*"
                        r"(?:,|\(|-|\bde\b|\bdu\b|\bdo\b|\bda\b)?\s*"
                        r"(\d{1,2})[/.-](\d{1,2})[/.-]((?:19|20)\d\d|\d\d)(?![\d/.-])")


# "mrn lily dubuque 08/04/1978", "MRN for heath o'connell 11/23/1943", "mrn jose candelaria 16
# mar 1985": an identifier asked of two or three words typed in lower case, then a full date
# (in figures or with its month's name, the year of four figures): that name, born that day
_MRN_OF_DATED = re.compile(
    r"^\W*(?:mrn|id|medical record number)\s*(?:for|of|de|do|da|del|:)?\s+"
    r"([a-z][a-z'\-]+(?:\s+[a-z][a-z'\-]+){1,2})\s*[,(\-]?\s*"
    r"(\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d\d"
    r"|\d{1,2}(?:\s+|-)[a-z]{3,9}\.?,?(?:\s+|-)(?:19|20)\d\d"
    r"|[a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d)\b", re.I)
# "donte hagenes 12/09/98 mrn", "Ira Bayer 7-Mar-45 mrn?": the name and its date first, the
# identifier asked last (the date of two or four figures, with or without the month's name)
_DATED_THEN_MRN = re.compile(
    r"^\W*([a-z][a-z'\-]+(?:\s+[a-z][a-z'\-]+){1,2})\s*[,(\-]?\s*(?:dob\s*:?\s*)?"
    r"(\d{1,2}[/.-]\d{1,2}[/.-](?:(?:19|20)\d\d|\d\d)|\d{1,2}(?:\s+|-)[a-z]{3,9}\.?(?:\s+|-)"
    r"(?:(?:19|20)\d\d|\d\d))\s*[,)\-:]?\s*(?:mrn|id|medical record number)\W*$", re.I)


# "whats peter lindqvists mrn, born may 28 98": the name owning the MRN asked, its birth date
# after it (a possessive "s" typed without its apostrophe is left off: the search reads a
# surname's first letters, so "lindqvist" finds Lindqvist and "evan" Evans)
_NAME_MRN_BORN = re.compile(
    r"^\W*(?:(?:what'?s|whats|wats|what is|get|find|need)\s+(?:the\s+)?)?"
    r"([a-z][a-z\-]+\s+[a-z][a-z\-]+?)(?:['\u2019]?s)?\s+"
    r"(?:mrn|medical record number|record number)\b\W*(?:born|dob|d\.?\s?o\.?\s?b\.?)(?![a-z])",
    re.I)


def _mrn_of_dated(text: str, drug_words: set[str]) -> list[str]:
    """The name of "mrn <name> <date>" when none of its words is the assistant's vocabulary, a
    drug or a title ("mrn for check 01/02/1970" names no one)."""
    folded = languages.fold(text)
    m = (_MRN_OF_DATED.search(folded) or _DATED_THEN_MRN.search(folded)
         or _NAME_MRN_BORN.search(folded))
    stop = not_name_words() | _guard_names() | _TITLES | languages.titles()
    # a drug's brand may be a surname ("Ira Bayer"): beside a first name that is no word of the
    # assistant's, before a date and an MRN asked, it is the surname
    if not m or any(normalise(w) in stop or w.lower() in stop for w in m.group(1).split()):
        return []
    if all(normalise(w) in drug_words for w in m.group(1).split()):
        return []
    return [m.group(1)]


def _past_dates(said: str) -> tuple[str, ...]:
    """The days a date typed in any of ``_DATE_FORMS`` may be, before today."""
    for pattern, parts in _DATE_FORMS:
        found = pattern.fullmatch(said)
        if found:
            dated = _iso(dict(zip(parts, found.groups(), strict=False)))
            return tuple(d for d in dated if d < datetime.now(UTC).date().isoformat())
    return ()


def _dated_name(text: str) -> tuple[str, ...]:
    dated = _MRN_OF_DATED.search(text) or _DATED_THEN_MRN.search(text)
    if dated and _mrn_of_dated(text, set()):
        return _past_dates(dated.group(2).lower())
    m = _NAME_DATE.search(text)
    if not m or int(_century(m.group(3))) >= datetime.now(UTC).year:
        return ()
    return _iso({"a": m.group(1), "b": m.group(2), "y": m.group(3)})


def _century(year: str) -> str:
    """A birth year of two digits in its century: this century's when not ahead of this year
    ("20" is 2020), else the last ("71" is 1971)."""
    if len(year) != 2:
        return year
    now = datetime.now(UTC).year
    return str(2000 + int(year) if 2000 + int(year) <= now else 1900 + int(year))


def _iso(parts: dict[str, str], day_first: bool = False) -> tuple[str, ...]:
    if "mon" in parts:
        dates = [(_month(parts["mon"]), int(parts["d"]))]
    elif "m" in parts:
        dates = [(int(parts["m"]), int(parts["d"]))]
    else:  # a/b: the day is the one over 12; both readings when neither is, unless day first
        a, b = int(parts["a"]), int(parts["b"])
        dates = [(b, a)] if day_first or a > 12 else [(a, b), (b, a)]
    return tuple(dict.fromkeys(
        f"{int(_century(parts['y'])):04d}-{month:02d}-{day:02d}"
        for month, day in dates if 1 <= month <= 12 and 1 <= day <= 31
    ))


@lru_cache(maxsize=4096)
def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A compiled rule pattern, kept: the rule tables hold hundreds of phrases, more than
    ``re``'s own cache keeps beside the rest of the app, so every question compiled them again."""
    return re.compile(pattern, flags)


@lru_cache(maxsize=1)
def _guard_names() -> frozenset[str]:
    words = {"check", "the", "fda", "what", "id", "chart", "record", "safety", "interactions"}
    return frozenset(words) | frozenset(rules()["not_names"])


def find_actions(text: str) -> list[str]:
    # "medical record number" names an identifier: its "record" reads no chart, records nothing
    low = _identifier_phrases().sub(" ", f" {text.lower()} ")
    low = _plan_conditions().sub(" ", low)  # "y si no mejora": a plan's condition, no question
    if not _DOSED.search(low):  # "ne pas débuter de spironolactone": no order; with a dose
        # the message orders another drug ("não iniciar AINE; só paracetamol 1 g de 6/6h")
        low = _negated_orders().sub(" ", low)
    if "?" in low:  # "el potasio sube con la espironolactona?": a question, no dose change
        low = _dose_changes().sub(" ", low)
    low = _idioms().sub(" ", low)  # "has he put on weight": no order
    found = [action for action, pattern in _action_patterns().items() if pattern.search(low)]
    if ("?" in low and _supposed().search(low)) or _before_order().search(low):
        # "… if I add clarithro?", "son K avant que je start la spironolactone": checked, not
        # ordered
        found = [a for a in found if a not in ("prescribe", "prescribe_drug", "administer")]
    return found


@lru_cache(maxsize=1)
def _before_order() -> re.Pattern[str]:
    phrases = sorted(rules()["before_orders"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")


@lru_cache(maxsize=1)
def _supposed() -> re.Pattern[str]:
    phrases = sorted(rules()["hypothetical_orders"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")


_DOSED = re.compile(r"\d\s*(?:mg|g|mcg|ug|ui|iu|units?|mmol|meq|ml)(?![a-z])")


@lru_cache(maxsize=1)
def _negated_orders() -> re.Pattern[str]:
    phrases = sorted(rules()["negated_orders"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")


@lru_cache(maxsize=1)
def _dose_changes() -> re.Pattern[str]:
    phrases = sorted(rules()["dose_change_words"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")


@lru_cache(maxsize=1)
def _idioms() -> re.Pattern[str]:
    phrases = sorted(rules()["no_order_idioms"], key=len, reverse=True)
    said = [re.escape(p) for p in phrases] + list(rules()["no_order_patterns"])
    return re.compile(rf"(?<![a-z])(?:{'|'.join(said)})(?![a-z])")


@lru_cache(maxsize=1)
def _plan_conditions() -> re.Pattern[str]:
    phrases = sorted(rules()["plan_conditions"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")


def _labels_a_referral(text: str) -> bool:
    """"refer to ortho surgery, note: Situation: …": the note's only words are a label ("note:")
    after a referral already asked, so what follows is the referral's text. A note asked in words
    ("write a progress note: …") or a message that starts as a note ("note: stable, refer to …")
    is a note."""
    low = text.lower()
    label = re.search(r"(?<![a-z])[a-z]+ ?:", low)
    said = [p for p in rules()["actions"]["save_note"] if not p.rstrip().endswith(":")]
    asked = re.search(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in said)})(?![a-z])", low)
    return bool(label and not asked and "refer" in ward_requests.actions(text[: label.start()]))


@lru_cache(maxsize=1)
def _identifier_phrases() -> re.Pattern[str]:
    phrases = sorted(rules()["identifier_phrases"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")


@lru_cache(maxsize=1)
def _action_patterns() -> dict[str, re.Pattern[str]]:
    """One pattern per action, any of its phrases as a whole word (hundreds of phrases: built
    once, not escaped and looked up again on every question)."""
    return {action: re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(p) for p in phrases)})(?![a-z])")
            for action, phrases in rules()["actions"].items()}


_COUNTED = re.compile(rf"(?<![\w.,/])([2-4])\s*[x×]\s*{NUMBER}\s*(mg|g|mcg|ug|µg)(?![a-z])", re.I)
# the count after the strength ("paracetamol 500mg x 2 qds", "500 mg 2 tabs"), never a count of
# days, doses or times a day ("500mg x 7 days", "x 3/day", "x 2 doses", "x 2 times a day", "850
# mg x2 al día", "x2 par jour", "x3 ao dia": that many a day)
_COUNTED_AFTER = re.compile(
    rf"(?<![\w.,/]){NUMBER}\s*(mg|g|mcg|ug|µg)\s*(?:[x×]\s*([2-4])(?=\s+[a-z])|([2-4])\s*(?:tabs?|tablets?|caps?"
    r"|capsules?|cps?|comprim\w*|cpr|comp))(?![\w.,/])(?!\s*(?:/|d\b|days?|jours?|j\b|dias?|d[ií]as"
    r"|weeks?|wks?|semaines?|semanas?|doses?|dosis|times|fois|vezes|veces|per\b|a day|daily"
    r"|(?:al|ao|por|par|a)\s+(?:d[ií]a|j(?:our)?)\b))",
    re.I,
)


def _range_or_count(text: str) -> str | None:
    """A dose written as a range ("2.5-5 mg": both ends kept) or as a count of a strength
    ("2 x 500mg": 1000 mg, the strength said), else None."""
    ends = range_pattern(tuple(rules().get("dose_units") or ())).search(text)
    if ends:
        return f"{amount(ends.group(1))}-{amount(ends.group(2))} {ends.group(3).lower()}"
    counted, after = _COUNTED.search(text), _COUNTED_AFTER.search(text)
    if counted:
        times, each, unit = counted.group(1), amount(counted.group(2)), counted.group(3).lower()
    elif after:
        times, each = after.group(3) or after.group(4), amount(after.group(1))
        unit = after.group(2).lower()
    if counted or after:
        total = int(times) * float(each)
        shown = int(total) if total.is_integer() else round(total, 3)
        return f"{shown} {unit} ({times} × {each} {unit})"
    return None


def _per_day_divided(text: str, freq: str | None) -> str | None:
    """A day's amount divided over the doses a day said ("amoxicilina 1,5 g/dia em 3 tomadas":
    "500 mg (1.5 g/day in 3 doses)"), so a day's total is never carded as each dose; None when
    the amount is a dose's, or no more than one dose a day is said."""
    after = "|".join(rules().get("per_day_after_unit") or ())
    before = "|".join(rules().get("per_day_before_amount") or ())
    folded = languages.fold(text)
    m = re.search(rf"(?<![\w.,/]){NUMBER}\s*(mg|g|mcg|ug|µg)\s*(?:{after})(?![a-z])", folded, re.I)
    # the total named first ("total daily dose 900mg split into three"), "of" or ":" between
    m = m or (re.search(rf"\b(?:{before})\s*(?:of\s+|de\s+|[:=-]\s*)?{NUMBER}\s*(mg|g|mcg|ug|µg)"
                        rf"(?![a-z])", folded, re.I) if before else None)
    doses = Dose(frequency=freq).doses_a_day if freq else None
    if not m or not after or not doses or doses <= 1:
        return None
    total, unit = float(amount(m.group(1))), m.group(2).lower()
    each = total / doses
    if unit == "g" and each < 1:
        each, unit = each * 1000, "mg"
    return f"{round(each, 2):g} {unit} ({total:g} {m.group(2).lower()}/day in {doses:g} doses)"


def _without_day_total(text: str) -> str:
    """The words naming a day's total before its amount taken out when a frequency is said
    beside them ("total daily dose 1.5g split bd": the split is the frequency, never the "daily"
    of the total); the text as said otherwise ("total daily dose 900 mg" alone keeps it)."""
    before = "|".join(rules().get("per_day_before_amount") or ())
    stripped = re.sub(rf"\b(?:{before})\b", " ", text, flags=re.I) if before else text
    if stripped == text or not any(p.search(stripped) for p, _ in _frequencies()):
        return text
    return stripped


def _strength_count(text: str) -> str | None:
    """A bare strength counted in solid forms ("metformine 850 1 cp matin et soir": 850 mg,
    "amoxi 500 2 comp": 1000 mg), else None."""
    forms = "|".join(rules().get("strength_forms") or ())
    folded = languages.fold(text)
    # a colon or a comma may part the strength from its count ("Doliprane 500 : 2 cp",
    # "ibuprofeno 600, 1 comp."): the strength is still the product's, never a dose alone
    m = re.search(rf"(?<![\w.,/])(\d{{2,4}})\s*[,:;]?\s+(\d|½|un|une|uno|una|um|uma)\s*"
                  rf"(?:{forms})\b",
                  folded, re.I)
    # the form named first, its strength after "de"/"of" ("comprimidos de 500", "2 cp de 850",
    # "tabs of 500"): never a time, a rate or a count of days ("de 12/12h", "de 500 ml")
    named = re.search(rf"(?<![\w.,/])(?:(\d|½|un|une|uno|una|um|uma)\s+)?(?:{forms})\s+"
                      rf"(?:de|of|d')\s*(\d{{2,4}})(?:\s*mg\b)?(?![\w.,/:])"
                      r"(?!\s*(?:ml|l|g|mcg|ug|h|x|/|per\b))", folded, re.I)
    if not forms or not (m or named):
        return None
    if m:
        said, strength = m.group(2), float(m.group(1))
    else:
        assert named is not None
        said, strength = named.group(1) or "1", float(named.group(2))
    count = {"½": 0.5}.get(said, None)
    count = count if count is not None else float(said) if said.isdigit() else 1.0
    if count == 1:
        return f"{strength:g} mg"
    return f"{strength * count:g} mg ({said} × {strength:g} mg)"


def _after_then(text: str) -> str:
    """The words after the last "then" of a message ("40 iv then 40 po od": "40 po od"), ""
    without one."""
    found = list(_then().finditer(text))
    return text[found[-1].end():] if found else ""


@lru_cache(maxsize=1)
def _then() -> re.Pattern[str]:
    """The words of "then" (``loading_then``), compiled once: every dose read asks it."""
    words = sorted(rules().get("loading_then") or ("then",), key=len, reverse=True)
    return re.compile(rf"(?<![\w])(?:{'|'.join(map(re.escape, words))})(?![\w])", re.I)


def _loading_split(text: str) -> tuple[str, str] | None:
    """A loading dose then maintenance ("200mg stat then 100mg od"): the words of the loading
    dose and of the maintenance that follows, split at the first "then" after a dose with its
    unit that another dose with its unit follows; None otherwise."""
    words = "|".join(re.escape(w) for w in sorted(rules().get("loading_then") or (),
                                                    key=len, reverse=True))
    folded = languages.fold(text)
    m = re.search(rf"\d\s*(?:mg|g|mcg|units?)\b.*?[\s,;]((?:{words}))\s+(?=\d+(?:[.,]\d+)?\s*"
                  rf"(?:mg|g|mcg|units?)\b)", folded, re.I)
    if not m or not words or len(folded) != len(text):
        return None
    return text[: m.start(1)].rstrip(" ,;"), text[m.end(1):].strip()


def _tablet_fraction(text: str) -> str | None:
    """A fraction or count of one tablet of a stated strength ("half a tab of bisoprolol
    2.5mg": 1.25 mg, "1.5 tabs of metformin 500mg": 750 mg), with what it was worked from;
    None without both a fraction before a solid form word and one strength in mg."""
    fractions = rules().get("tablet_fractions") or {}
    forms = "|".join(rules().get("strength_forms") or ())
    said = "|".join(re.escape(f) for f in sorted(fractions, key=len, reverse=True))
    folded = languages.fold(text).lower()
    m = re.search(rf"(?<![\w.,])({said})\s+(?:(?:of\s+)?an?\s+|de\s+)?(?:{forms})\b", folded)
    strengths = re.findall(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*mg\b", folded)
    if not m or not forms or len(set(strengths)) != 1:
        return None
    part, strength = float(fractions[m.group(1)]), float(strengths[0].replace(",", "."))
    if part == 1:  # "1 tab atorvastatin 20mg": the strength is the dose
        return f"{strength:g} mg"
    return f"{part * strength:g} mg ({m.group(1)} × {strength:g} mg)"


_COUNTS = {"one": 1, "two": 2, "three": 3, "un": 1, "une": 1, "deux": 2, "um": 1, "uma": 1,
           "dois": 2, "duas": 2, "uno": 1, "una": 1, "dos": 2, "½": 0.5, "half": 0.5}


# the words a pair of numbers follows that is no product's strengths ("BP 160/100", "TA 16/9")
_NOT_A_PRODUCT = {"bp", "ta", "pa", "tension", "pressure", "tensao", "pressao", "presion", "fc",
                  "hr", "inr", "sats", "sat", "spo2", "rr", "fr", "gcs", "pain", "score", "dor",
                  "dolor", "douleur", "eva", "born", "dob", "ne", "nee", "nacido", "nascido"}


def _combination(text: str) -> str | None:
    """A combination product's two strengths after its name ("co-codamol 30/500 2 qds",
    "Augmentin 875/125 1 bd") with the count of units given: "2 × 30/500 mg", never the first
    number alone read as the dose. A vital sign ("BP 160/100"), a frequency ("8/8h"), a date or
    a ward fraction of a year or month ("qds 2/52", "nocte 6/12": the duration) is no strength."""
    low = languages.fold(text).lower()
    m = re.search(r"(?<![\w/.,])([a-z][\w\-]*)\s+(\d{1,4}(?:[.,]\d+)?)\s*/\s*(\d{2,4})\s*(?:mg)?"
                  r"(?![\d/.,]|\s*(?:h|hr|hrs|hours?|heures?|horas?|ml)\b)", low)
    if not m or m.group(1) in _NOT_A_PRODUCT or _BARE_FRACTION.fullmatch(
            f"{m.group(2)}/{m.group(3)}"):
        return None
    forms = "|".join(rules().get("strength_forms") or ())
    after = re.match(rf"\s*(?:x\s*)?(\d|{'|'.join(_COUNTS)})\s*(?:{forms})?(?![\w.,/])",
                     low[m.end():])
    count = (_COUNTS.get(after.group(1)) or float(after.group(1))) if after else 1
    return f"{count:g} × {m.group(2)}/{m.group(3)} mg"


def _longer_timing(said: str, freq: str | None, length: int) -> str | None:
    """The frequency as the order's timing tables read it when they read more of the words than
    the shorthands did ("3x daily", not "daily"; "alternate days", "t.d.s."), else ``freq``."""
    timed = frequency.written(said)
    if timed and (freq in (None, "as needed", "prn") or len(timed) > length):
        return timed
    return freq


def find_dose(text: str) -> dict[str, Any] | None:
    """Dose, frequency, route and duration as written ("500mg tid x7d", "1 g IV q8h",
    "40 mg at night", "2 puffs prn"); clinician shorthands (bd, od, nocte) read through
    ``frequencies`` in data/rules.yaml. A loading dose then maintenance is the maintenance,
    with the loading dose as written beside it (``loading``). In a dictated note of several
    sentences the order is read in the sentence that holds its dose ("… Je mets amoxicilline
    80 mg/kg/j en 2 prises. Revoir si fièvre …": "si fièvre" is the plan's, not the order's)."""
    text = _dose_sentence(text)
    split = _loading_split(text)
    if split:
        first, rest = split
        head = re.sub(r"\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|units?)\b.*", "", first, flags=re.I)
        found = _dose_of(f"{head} {rest}")
        loading = _dose_of(first)
        if found and found.get("dose") and loading and loading.get("dose"):
            said = re.sub(r"(\d)\s*(mg|g|mcg|units?)\b", r"\1 \2",
                          " ".join(first[len(head):].split()), flags=re.I)
            return {**found, "loading": said}
    return _dose_of(text)


def _dose_of(text: str) -> dict[str, Any] | None:
    """``find_dose`` of one dose's words."""
    dose = dose_pattern().search(text) or languages.dose(text)  # "2 bouffées", "1 comprimido"
    # "furosemide 40 iv then 40 po od": the order goes on by the route said after the "then"
    route = route_pattern().search(_after_then(text)) or route_pattern().search(text)
    duration = (_DURATION.search(text) or _AFTER_FREQUENCY.search(text)
                or _BARE_FRACTION.search(text))
    said = knowledge.weight_dose.without_basis(text) if knowledge.read_weight_dose(text) else text
    said = _without_day_total(said)
    found_at = [
        (meaning or m.group(0).lower(), len(m.group(0)))
        for pattern, meaning in _frequencies()
        if (m := pattern.search(said))
    ]
    hits = [h for h, _ in found_at]
    # "as needed" rides beside a frequency ("tds prn"), in ``as_needed``; alone it is the frequency
    freq = next((h for h in hits if h not in ("as needed", "prn")), hits[0] if hits else None)
    freq = _longer_timing(said, freq, dict(found_at).get(freq or "", 0))
    # "azitromicina 10mg/kg ao dia x 3 dias": a day's amount said with the word of once a day,
    # no split and no other frequency said, is given once a day
    by_weight = knowledge.read_weight_dose(text)
    if not freq and by_weight and not by_weight.doses_per_day and (
            knowledge.weight_dose.once_daily(text)):
        freq = "once daily"
    if not dose and not freq:
        return None
    liquid = _liquid(text)
    found = {
        "dose": _weight_based(text)
        or liquid
        or _tablet_fraction(text)
        or _per_day_divided(text, freq)
        or _combination(text)
        or _strength_count(text)
        or _range_or_count(text)
        or (f"{amount(dose.group(1))} {dose.group(2).lower()}"
            if dose and not _STRENGTH.search(text) else None),
        "frequency": freq,
    }
    if route:
        found["route"] = rules()["routes"].get(route.group(1).lower(), route.group(1).lower())
    over = INFUSION.search(text)  # "2 g IV over 2 hours": one dose given over that time
    if over:
        found["infusion"] = over.group(0).lower()
        found["frequency"] = found["frequency"] or "once"
    if duration:
        raw = duration.group(2).lower()
        unit = _FRACTION_UNITS.get(raw) or rules()["duration_units"][raw[0]]
        found["duration"] = f"{duration.group(1)} {unit}"
    elif languages.duration(text):  # "pendant 5 jours", "por 7 dias"
        found["duration"] = languages.duration(text)
    elif one := _course_of_one().search(text):  # "for a week", "for one month"
        found["duration"] = f"1 {one.group(1).lower()}s"
    elif course := _course_after_frequency().search(text):  # "bd po 10 days", "c/12h 7 días"
        unit = rules()["course_units"][course.group(2)[0].lower()]
        found["duration"] = f"{course.group(1)} {unit}"
    needed = as_needed(text) or languages.as_needed(text)  # "si besoin", "se dor", "si dolor"
    if needed and (needed != "as needed" or freq not in ("as needed", "prn")) and needed != freq:
        found["as_needed"] = needed
    return found


# a sentence ends at a full stop, "!", "?" or ";" before a capital: "c/8 hs. Control" does not
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[¿¡]?[A-ZÀ-Ý])")


def _reaction_with_drug(text: str, drugs: list[DrugMention]) -> bool:
    """A reaction of the rules' ``reactions`` (every language) linked to the one drug named by a
    word of ``reaction_with_drug`` ("urticaria com dipirona", "hives after codeine", "a dipirona
    deu urticária"), not said as treated or gone with it ("melhorou a urticária com loratadina")."""
    def joined(said: str) -> str:  # "co-trimoxazole" is found as "co trimoxazole"
        return re.sub(r"(?<=[a-z])-(?=[a-z])", " ", languages.fold(said).lower())
    named = {joined(d.surface) for d in drugs if d.name}
    if len(named) != 1 or "?" in text:
        return False
    low = re.sub(r"\b([ld])['\u2019]", r"\1 ", joined(text))
    links = rules()["reaction_with_drug"]
    if re.search(r"\b(?:" + "|".join(links["unless"]) + r")\b", low):
        return False
    reaction = "|".join(re.escape(languages.fold(r).lower()) for r in rules()["reactions"])
    severity = "|".join(re.escape(languages.fold(k).lower()) for k in rules()["severities"])
    drug = re.escape(next(iter(named)))
    article = r"(?:(?:a|o|as|os|la|el|los|las|le|les|l|the|un|une|um|uma|de|du|da|do|del)\s+)?"
    after = "|".join(re.escape(w) for w in links["after"])
    before = "|".join(re.escape(w) for w in links["before"])
    return bool(
        re.search(rf"\b(?:{reaction})(?:\s+(?:{severity}))?\s+(?:{after})\s+{article}{drug}\b", low)
        or re.search(rf"\b{drug}\s+(?:{before})\s+{article}(?:{reaction})\b", low))


def _history_beside_order(text: str) -> bool:
    """A note of several sentences whose order (a sentence with an order's words and a number)
    is not the sentence that says the allergy."""
    sentences = _SENTENCE_END.split(text)
    orders = {"prescribe", "prescribe_drug", "administer"}
    said = next((s for s in sentences if re.search(r"\d", s)
                 and orders & set(find_actions(s.lower()))), None)
    return (len(sentences) > 1 and said is not None
            and "document_allergy" not in find_actions(said.lower()))


def _dose_sentence(text: str) -> str:
    """The first sentence of ``text`` that holds a dose (the whole text when it is one sentence
    or none holds one)."""
    sentences = _SENTENCE_END.split(text)
    if len(sentences) < 2:
        return text
    return next((s for s in sentences if dose_pattern().search(s) or languages.dose(s)), text)


_NUM = r"(\d+(?:[.,]\d+)?)"
# a liquid's strength ("100mg/5ml", "250 mg/5 mL", "40 mg/ml"): never the dose itself
_STRENGTH = re.compile(rf"{_NUM}\s*mg\s*/\s*{_NUM}?\s*ml\b", re.I)
_VOLUME = re.compile(rf"(?<![/\d.,]){_NUM}\s*ml\b", re.I)
# a volume "of" a strength written without its units ("5 ml of 250/5", "10ml of the 125/5"): mg
# per mL, as a liquid's strength is said on the ward
_VOLUME_OF = re.compile(rf"(?<![/\d.,]){_NUM}\s*ml\s+of\s+(?:the\s+)?{_NUM}\s*(?:mg)?\s*/\s*"
                        rf"{_NUM}\s*(?:ml)?(?![\w/])", re.I)


def _liquid(text: str) -> str | None:
    """A volume of a liquid of stated strength ("ibuprofeno 100mg/5ml 7,5 ml de 8/8h"): the mg
    it holds, with the volume and strength it was worked from ("150 mg (7.5 mL of 100 mg/5 mL)").
    None without both: the strength alone is no dose, and is then not read as one."""
    bare = _VOLUME_OF.search(text)
    if bare:  # "5 ml of 250/5": the strength's mg and mL are the pharmacy's shorthand
        ml, mg, per = (float(g.replace(",", ".")) for g in bare.groups())
        return f"{round(ml * mg / per, 2):g} mg ({ml:g} mL of {mg:g} mg/{per:g} mL)"
    strength = _STRENGTH.search(text)
    if not strength:
        return None
    rest = text[: strength.start()] + " " + text[strength.end():]
    volume = _VOLUME.search(rest)
    if not volume:
        return None
    mg, per = (float(g.replace(",", ".")) if g else 1.0 for g in strength.groups())
    ml = float(volume.group(1).replace(",", "."))
    dose = round(ml * mg / per, 2)
    return f"{dose:g} mg ({ml:g} mL of {mg:g} mg/{per:g} mL)"


def _weight_based(text: str) -> str | None:
    """A dose by weight with its basis read in any language ("50 mg/kg/j", "50 mg/kg/día",
    "50 mg/kg por dose"), written as the order's one English form: "50 mg/kg/day" for a day's
    amount, "50 mg/kg" for a dose's; None when the dose is not by weight."""
    written = knowledge.read_weight_dose(text)
    if written is None:
        return None
    return f"{written.mg_per_kg:g} mg/kg" + ("/day" if written.per == "day" else "")


def gives_route_or_length(text: str) -> bool:
    """``text`` says an order's route or how long it runs ("iv, for 5 days", "VO, 5 jours",
    "IV por 7 días"): the fields a dose-less, frequency-less reply may still give."""
    return bool(route_pattern().search(text) or _DURATION.search(text)
                or _BARE_FRACTION.search(text)
                or languages.duration(text))


def as_needed(text: str) -> str | None:
    """"prn for back pain" → "as needed for back pain" (the reason kept as written)."""
    m = AS_NEEDED.search(text)
    if not m:
        return None
    return "as needed" + (f" for {m.group(1).strip()}" if m.group(1) else "")


def find_allergy(text: str) -> dict[str, Any] | None:
    """Reaction as written ("urticarial rash", not "rash"), severity, and the verification and
    criticality the clinician's words state (absent when they state none)."""
    low = text.lower()
    any_reaction, each = _reactions()
    reaction = (
        next((m for pattern in each if (m := pattern.search(low))), None)
        if any_reaction.search(low)
        else None
    )
    severity = next((v for pattern, v in _severities() if pattern.search(low)), None)
    if not reaction and not severity:
        return None
    stated = {"verification": _stated(low, "allergy_verification"),
              "criticality": _stated(low, "allergy_criticality")}
    return {
        "reaction": _reaction_as_written(reaction.group(0)) if reaction else None,
        "severity": severity,
        **{k: v for k, v in stated.items() if v},
    }


@lru_cache(maxsize=1)
def _reactions() -> tuple[re.Pattern[str], tuple[re.Pattern[str], ...]]:
    """Any reaction at all (most questions name none: one search), then one pattern per
    reaction, in the table's order (the first that matches is the one)."""
    qualifiers, reactions = rules()["reaction_qualifiers"], rules()["reactions"]
    return (
        re.compile(r"\b(?:" + "|".join(map(re.escape, reactions)) + r")\b"),
        tuple(re.compile(rf"(?:\b{qualifiers}\s+){{0,2}}\b{re.escape(r)}\b") for r in reactions),
    )


@lru_cache(maxsize=1)
def _severities() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(rf"\b{k}\b"), v) for k, v in rules()["severities"].items())


def _reaction_as_written(found: str) -> str:
    words = found.split()
    while len(words) > 1 and words[0] in rules()["severities"]:
        words.pop(0)  # "severe urticarial rash": severity is its own field
    return " ".join(words)


def _stated(low: str, table: str) -> str | None:
    return next((value for value, phrases in rules()[table].items()
                 if any(compiled(rf"\b{p}\b").search(low) for p in phrases)), None)


# The rule tables' phrase lists as patterns built once (the tables are data, read once): a
# pattern per phrase built on every question cost more than the rest of reading it.
@cache
def _any_phrase(*path: str, also_before: str = "") -> re.Pattern[str]:
    """Any phrase of the rule list at ``path`` ("no_known_allergy"; "chart_question",
    "patient_words") as whole words (no letter, nor ``also_before``, just before)."""
    phrases: Any = rules()
    for key in path:
        phrases = phrases[key]
    return re.compile(
        rf"(?<![a-z{also_before}])(?:" + "|".join(map(re.escape, phrases)) + r")(?![a-z])"
    )


def reconciliation_asked(text: str) -> bool:
    """A medication reconciliation named ("med rec", "reconcile his meds", "conciliation
    médicamenteuse", "reconciliação medicamentosa", "conciliación de medicamentos")."""
    return _any_phrase("chart_question", "reconcile_words").search(
        languages.fold(text).lower()) is not None


@lru_cache(maxsize=1)
def _frequencies() -> tuple[tuple[re.Pattern[str], str | None], ...]:
    return tuple((re.compile(rf"(?<![a-z]){p}(?![a-z])", re.I), meaning)
                 for p, meaning in rules()["frequencies"].items())


@lru_cache(maxsize=1)
def _unsupported() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    return tuple(
        (kind, tuple(map(re.compile, patterns)))
        for kind, patterns in rules()["unsupported"].items()
    )


def no_known_allergy(text: str) -> bool:
    """"NKDA", "no known drug allergies", "pas d'allergie connue", "sem alergias conhecidas",
    "sin alergias conocidas" (``no_known_allergy`` of the rules, every language; folded text)."""
    return bool(_any_phrase("no_known_allergy").search(languages.fold(text).lower()))


def _vaccination_asked(text: str, drugs: list[DrugMention]) -> bool:
    """Whether a vaccine was given is asked ("flu vaccine given this year?", "a-t-il reçu le
    vaccin ?", "¿le pusieron la vacuna?"): every drug named is a vaccine, with a word of having
    had it; "give him the flu vaccine" orders it."""
    low = text.lower()
    return (chart_focus(low) == "immunizations" and bool(drugs)
            and all("vaccin" in (d.name or "") for d in drugs)
            and _any_phrase("chart_question", "vaccinated_words").search(low) is not None)


# the procedures a list of tests may be ordered with: with one of them asked, the list is orders
_PROCEDURE_ORDERS = ("ECG orders", "imaging orders")


def _ordered_with_a_procedure(text: str) -> bool:
    """Tests asked beside a procedure this assistant does not order ("ECG and trop please",
    "bilan + ECG demain"): the message is a list of orders, unless it asks something."""
    return "?" not in text and any(k in _PROCEDURE_ORDERS for k in find_unsupported(text))


def find_unsupported(text: str) -> list[str]:
    """Actions this assistant does not perform (lab orders, referrals…), by ``unsupported``."""
    low = text.lower()
    return [kind for kind, patterns in _unsupported() if any(p.search(low) for p in patterns)]


def _several_results(text: str, tests: tuple[str, ...] | None) -> str:
    """"labs" when the text names several results at once ("u&e + lfts?", "a1c, egfr and
    lipids"; ``tests``: the tests its ward reading found, read once), else ""."""
    found = tests if tests is not None else read_ward(text).tests
    return "labs" if len(results_asked(text, found)) > 1 else ""


def asks_chart(text: str, actions: list[str], drugs: list[DrugMention],
               focus: str | None = None, window: Asked | None = None,
               tests: tuple[str, ...] | None = None) -> bool:
    """A question the chart answers (a focus of ``tools/data/chart_questions.yaml``) about the
    patient in context: it names the patient ("her", "he", "this patient", "latest"…) or is a bare
    noun phrase ("serum creatinine?", "vaccination history"), or names a patient by id or MRN (whose
    chart it is, planning decides). Never with a drug named, a write
    asked, or a definition asked ("what is eGFR?")."""
    chart, focus = rules()["chart_question"], chart_focus(text) or _several_results(text, tests)
    if not focus and kind_asked(text) is not None:
        focus = "medications"  # "is she on insulin?": her list, the kind in it
    # "potassium level?": potassium is a drug and the lab; asked as the lab, no drug is named
    drugs = [d for d in drugs if f"lab:{d.name}" != focus.lower()]
    # "any duplicate antiplatelets/anticoagulants?": a class asked of her whole list names no
    # drug to check on its own
    if focus in ("review", "medications"):  # "is he on any anticoagulants?": the kind on her list
        drugs = [d for d in drugs if not (d.name and knowledge.class_named(d.name))]
    if focus == "reason":
        return True  # "why is he on warfarin?": the drug is what is asked of her list
    # "is his med list safe?", "is his drug combo safe": the whole-list review (the medication
    # list's answer carries it) is the safety check asked
    # "happy with his current prescriptions?": "with his current" asks of no drug named here
    # "current rx - any concerns": an order word with no drug named orders nothing
    # "checa interação medicamentosa da prescrição": no drug named, her list's interactions asked
    # "quick scan of his tabs before ward round?", "review his meds before the CT": a scan's
    # word beside her list asked of names no image to analyse
    review = ({"safety", "give", "administer", "prescribe", "prescribe_drug", "check_interactions",
               "image"} if not drugs else {"safety", "image"})
    listed = focus in ("review", "medications")
    not_with = set(chart["not_with"]) - (review if listed else set())
    if drugs or set(actions) & not_with or not focus:
        return False
    if focus == "review":
        return True  # a whole-list review asked in a chart is of her list ("deprescribe?")
    if focus == "history" and len(_BARE_WORD.findall(text.lower())) <= 6:
        # "any hx of shoulder injury?": her past asked by its own words, a short question of
        # hers however many words name what is looked for
        return True
    if focus.startswith("lab") and _several_results(text, tests):
        return True  # "a1c, egfr and lipids pls": several of her results, never a definition
    low = f" {text.lower()} "
    if "this_patient" in actions or _any_phrase(
        "chart_question", "patient_words", also_before="'"
    ).search(low):
        return True
    # "what K was that based on?", "what date was that A1c from?": a result asked about with a
    # word pointing back at what was just said (a card, an answer) is hers
    asked_back = "?" in text or _any_phrase("chart_question", "past_asks").match(
        f" {languages.fold(text).lower().lstrip()}", 1)
    if asked_back and _any_phrase("chart_question", "points_back").search(low):
        return True
    if focus.startswith(("lab", "vitals")) and _any_phrase("chart_question", "tell_words").search(
        f" {languages.fold(text).lower()} "
    ):
        return True  # "checa o INR e me fala se precisa ajustar": her result, to be told
    if focus.startswith(("lab", "vitals")) and _any_phrase("chart_question", "trend_words").search(
        f" {languages.fold(text).lower()} "
    ):
        return True  # "eGFR - how has it changed?": her results over time
    # "the age of the patient with MRN of …", "Robert Mensah nascido em …, alergias?": a patient
    # named; planning decides whose. A name asked for its MRN or birth date is a patient
    # lookup, which the search answers without opening the chart it finds.
    # "Mensah, Robert (DOB …) INR": a name as wristbands write it too
    named = named_people(text) or find_names(text, drugs)
    if find_patient_ids(text) or (named and focus != "identifiers"):
        return True
    # "mean fingerstick glucose over the past 24h?":
    windowed = focus.startswith("lab:") or focus == "vitals:bp"
    # (a judgement alone, "is a high INR dangerous?", is no window)
    said = window if window is not None else asked(text)
    # "K+ in 4 hours please": a test ordered for hours ahead, no result asked (no question,
    # statistic, threshold or unit: "a1c in mmol/mol pls" asks her result in that unit)
    # ("any mag in the past 6 hrs": a window gone by is asked of her results, never ahead)
    ordered = (bool(tests) and "?" not in text and not said.statistic and not said.thresholds
               and not said.unit and not _any_phrase("chart_question", "past_window_words")
               .search(f" {languages.fold(text).lower()} "))
    if windowed and replace(said, judge=False, analytes=()) != Asked() and not ordered:
        return True  # results in a time window are a chart's, never a definition
    words = _BARE_WORD.findall(text.lower())  # already accent folded by extract()
    if focus.startswith(("lab:", "vitals")) and _judges_her_value(words, text.lower()):
        return True
    if focus.startswith(("lab:", "vitals")) and _earlier_result(text):
        return True  # "egfr? and the previous one?": her result before the one just given
    if focus == "medications" and _any_phrase("chart_question", "reconcile_words").search(
            languages.fold(low)):
        return True  # "let's do a med rec": her list, with its review
    if focus == "medications" and _any_phrase("chart_question", "taking_verbs").search(
            _TAKING_NOUN.sub(" ", low)):
        return True  # "que medicação faz?": her list, with a verb of taking
    if focus.startswith(("lab:", "vitals")) and _value_asked(text):
        return True  # "what's the INR?", "qual o INR?": her value, with the definite article
    if focus == "identifiers" and _CONFIRMS.search(low):
        return True  # "confirm dob 30/09/1950": her identity checked against the date said
    for lead in chart["follow_up_starts"]:  # "what about the INR?", "et la kaliémie ?"
        if words[: len(lead.split())] == lead.split():
            words = words[len(lead.split()):]
            break
    if words[:1] and words[0] in chart["articles"]:  # "o INR anterior?", "la K est haute ?"
        words = words[1:]
    if (focus == "age" and 0 < len(words) <= chart["bare_words"]
            and not set(words) & {*chart["general_words"], *chart["age_not_hers"]}):
        return True  # "¿qué edad tiene?", "quel âge ?": an age is someone's, hers here
    return 0 < len(words) <= chart["bare_words"] and words[0] not in chart["definition_starts"]


_BARE_WORD = re.compile(r"[a-z0-9+]+")
_CONFIRMS = re.compile(r"\b(?:confirm|check|verify|correct|right|matches|confirmer|confirmar|"
                       r"conferir|verifier|verificar)\b")


def _value_asked(text: str) -> bool:
    """``text`` asks a result with "what is the …" and at most ``bare_words`` words after it,
    none asking of values in general: "what's the INR?", "qual foi o K?", "cual es el Mg?";
    not "what is INR?" nor "what is the normal INR?"."""
    chart = rules()["chart_question"]
    words = " ".join(_BARE_WORD.findall(languages.fold(text).lower()))
    opener = _any_phrase("chart_question", "value_openers").match(words)
    rest = words[opener.end():].split() if opener else []
    return 0 < len(rest) <= chart["bare_words"] and not set(rest) & set(chart["general_words"])
# "toma" as a noun ("toma de muestra", "la toma de decisiones"): no verb of taking
_TAKING_NOUN = re.compile(r"(?:\b(?:la|una|a|uma)\s+)?\btoma\s+de\b")
# the actions that card a medication order (a conditional one waits)
_ORDER_ACTIONS = frozenset({"prescribe", "prescribe_drug", "administer", "order_line"})
# what a pasted summary's lines would write if read as requests ("NKDA", "BP 150/90", "repeat K")
_PASTED_WRITES = frozenset({"record_no_known_allergy", "document_allergy", "record_vital",
                            "order_lab", "refer", "save_note", "protocol"})


def _earlier_result(text: str) -> bool:
    """A short question of a result that points back at the one before it ("egfr? and the
    previous one?", "HbA1c ? et celle d'avant ?"): hers, as the follow-up that asks it is."""
    low = fold_accents(text.lower())
    return "?" in text and len(low.split()) <= 10 and bool(_back_pattern().search(low))


@lru_cache(maxsize=1)
def _back_pattern() -> re.Pattern[str]:
    back = sorted((fold_accents(str(w)).lower() for w in rules()["back_references"]), key=len,
                  reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, back)) + r")(?![\w-])")


def _judges_her_value(words: list[str], low: str) -> bool:
    """A yes/no question judging a result of hers ("is the INR therapeutic?", "are the sugars
    up?"), not of a value in general ("is a high INR dangerous?")."""
    chart = rules()["chart_question"]
    if not words or words[0] not in chart["state_starts"] or {"a", "an"} & set(words):
        return False
    return any(re.search(rf"(?<![\w']){re.escape(w)}(?![\w'])", low) for w in chart["value_states"])


def read(message: str, *, understood: str | None = None, chart: ChartInContext | None = None,
         conversation: Conversation | None = None) -> Request:
    """The turn's one reading of ``message`` (``understood``: the message completed by the
    question it answers), with the chart in context: the ``Request`` every later step reads."""
    # a dictated message is read as typed ("five hundred milligrams … full stop": "500 mg."), a
    # drug typed against its dose apart ("amox500tds"); numbers and units written in words in
    # any language in digits ("quinze milligrammes par kilo": "15 mg/kg")
    said = unglued(spoken.as_typed(in_digits(understood if understood is not None else message)))
    said = per_kg_in_mg(said)  # "amox 80/kg/d": a per-kg dose of a drug dosed in mg/kg
    said = unslipped(said)  # "magnesuim level?": a result's name typed with one slip
    chart = chart or ChartInContext()
    # a pasted handover block (or "I'll do the others myself") whose question names her: the
    # question alone is read, so nothing of the other patients' lines is answered or carded
    said = handover.question_of(said, chart.patient) or handover.beds_as_her(said, chart.patient)
    ward, window = _verbatim_note(read_ward(said), message), asked(said)
    focus = chart_focus(as_the_patient(said, chart.patient))
    workflow = _on_her_list(ward_requests.workflow_of(said), chart,
                            (conversation or Conversation()).pending_drug)
    workflow = _class_stopped_as_hers(workflow, chart)
    workflow = _scaled_or_bare_change(workflow, said, chart,
                                      (conversation or Conversation()).pending_drug)
    workflow = ward_requests.her_problem(workflow, said, chart)
    found = extract(said, ward=ward, window=window, focus=focus, workflow=workflow,
                    her=chart.patient)
    found = _with_ids_like_hers(found, said, chart.patient.id)
    foci = several_asks.chart_foci(as_the_patient(said, chart.patient), _part_asks_chart)
    if focus == "problems" and set(foci) <= {"problems"} and ward_requests.whole_plan_asked(
            workflow, said):
        foci = ("problems", "review")  # "problem list + plan": her list's review beside them
    if focus == "review" and set(foci) <= {"review"} and treatment_asked(said):
        # "something for her chest infection": what she must not be given is her allergies,
        # said beside her list's review, before any drug is named
        foci = ("review", "allergies")
    return assemble(message, said, found, ward, chart=chart, born_words=born_words(),
                    language=answer_language(), conversation=conversation, focus=focus,
                    words=read_words(message), workflow=workflow, foci=foci,
                    french=written_in_french(said))


def _verbatim_note(ward: Ward, message: str) -> Ward:
    """A referral's note is the clinician's own text, as written: read on the message itself,
    never on the words read as typed ("six weeks" stays "six weeks")."""
    if not ward.referral_note:
        return ward
    written = read_ward(message).referral_note
    return replace(ward, referral_note=written) if written else ward


def _on_her_list(workflow: Workflow, chart: ChartInContext,
                 pending: str | None = None) -> Workflow:
    """A dose change only of a drug on her active list, as the chart in context reads it ("sube
    la atorvastatina a 40" with atorvastatin pending on a card changes the card, not the list);
    none when the list was not read, so the dose is checked as before, never carded on a guess;
    none when the drug is the pending card's, which the conversation holds (the card changes,
    even when the list holds the drug too)."""
    change = workflow.dose_change
    if change is None or (change.drug in chart.drugs and change.drug != pending):
        if change is not None and change.factor is not None:
            # "reduz a metformina pra metade": her order's dose times the factor, in its unit;
            # no change carded when the order states no dose (asked, never guessed)
            dose = _her_dose_times(chart, change.drug, change.factor)
            return replace(workflow, dose_change=replace(change, dosage=dose) if dose else None)
        return workflow
    return replace(workflow, dose_change=None)


def _her_dose_times(chart: ChartInContext, drug: str, factor: float) -> str | None:
    """The dose of her one active order of ``drug`` times ``factor`` ("500 mg" halved: "250
    mg"; 1 g halved: "500 mg"), from the order's dose or its text; None when she has several
    orders of it or none states a dose."""
    orders = [m for m in chart.medications if drug in m.names]
    if len(orders) != 1:
        return None
    m = re.search(r"(\d+(?:[.,]\d+)?)\s*(mg|g|mcg)\b", f"{orders[0].dose} {orders[0].text}", re.I)
    if not m:
        return None
    value, unit = round(float(m.group(1).replace(",", ".")) * factor, 3), m.group(2).lower()
    if unit == "g" and value < 1:
        value, unit = round(value * 1000, 3), "mg"
    return f"{value:g} {unit}"


def _scaled_or_bare_change(workflow: Workflow, said: str, chart: ChartInContext,
                           pending: str | None = None) -> Workflow:
    """A dose change read against her list when the words alone give no new dose: "halve the
    amlodipine", "double his metformin" (the order's dose scaled), "amlodipine 10" on 5 mg (the
    drug and a bare number, its new dose); the order's frequency kept. Nothing when the list was
    not read, a change, switch or stop was already read, or the drug is the pending card's."""
    from ..reading.dose_change import bare, scaled

    if workflow.dose_change or workflow.switch or workflow.stop or not chart.medications:
        return workflow
    low = languages.fold(said).lower()
    mentions = [(str(d.name), d.surface) for d in find_drugs(low) if d.name]
    doses = {n: m.dose for m in chart.medications for n in m.names}
    change = scaled(low, mentions, doses) or bare(low, mentions, doses)
    if change is None or change.drug == pending:
        return workflow
    return replace(workflow, dose_change=change)


def _class_stopped_as_hers(workflow: Workflow, chart: ChartInContext) -> Workflow:
    """A stop said by a class ("suspender o IECA, tá grávida", "stop the NSAID") is a stop of the
    one member of it on her active list, as the chart in context reads it; as said when the list
    was not read or holds none or several of it (the stop then says which it cannot find)."""
    from ..knowledge import classes

    key = classes.named(workflow.stop) if workflow.stop else None
    if not key:
        return workflow
    members = [d for d in chart.drugs if key in classes.of(d)]
    return replace(workflow, stop=members[0]) if len(members) == 1 else workflow


def relief_asked(text: str) -> bool:
    """Pain relief asked with no drug's name ("something for the pain?", "a stronger
    painkiller", "qqch contre la douleur"), by the rules' ``relief_asked`` words; or a treatment
    of an infection (``treatment_asked``)."""
    return _said_of("relief_asked", text) or treatment_asked(text)


def treatment_asked(text: str) -> bool:
    """A treatment of an infection asked with no drug's name ("something for her chest
    infection", "which abx for her uti?"), by the rules' ``treatment_asked`` words."""
    return _said_of("treatment_asked", text)


def _said_of(key: str, text: str) -> bool:
    words = rules()["chart_question"][key]
    return compiled(rf"(?<![a-z])(?:{'|'.join(words)})(?![a-z])").search(
        languages.fold(text).lower()) is not None


def written_in_french(text: str) -> bool:
    """More French function words than English ones ("M. Thompson, il a eu sa kaliémie ?"):
    "M." is then Monsieur."""
    from ..grounding.answer_language import function_words

    words = re.findall(r"[a-z]+", languages.fold(text).lower())
    fr, en = (sum(w in function_words(lang) for w in words) for lang in ("fr", "en"))
    return fr > en


def _declined(text: str, drugs: list[DrugMention]) -> tuple[tuple[str, ...], str]:
    """The drugs a message declines beside another it names ("not the amox, the doxy …",
    "don't give ibuprofen - paracetamol 1g qds instead"), and the message without them."""
    mentions = [(d.name, d.surface) for d in drugs if d.name]
    declined = declined_drugs(text, mentions)
    if not declined or not {n for n, _ in mentions} - set(declined):
        return (), text
    return declined, without_declined(text, [m for m in mentions if m[0] in declined])


def _clause_ordered(asking: str, drugs: list[DrugMention], declined: tuple[str, ...]) -> str:
    """What is asked besides the drugs declined, from the clause naming the drug ordered on
    ("pas d'aspirine 250 mg chez lui, paracétamol 300 mg toutes les 6 h": "paracétamol 300 mg
    toutes les 6 h"); the whole of it when nothing was declined."""
    low = asking.lower()
    if not declined:
        return low
    clauses = re.split(r"\s*(?:[,;]|\s-\s)\s*", low)
    kept = [d.surface for d in drugs if d.name and d.name not in declined]
    at = next((n for n, c in enumerate(clauses) if any(s in c for s in kept)), 0)
    return ", ".join(clauses[at:])


def _all_declined(text: str, drugs: list[DrugMention]) -> bool:
    """Every drug named is declined ("don't start the apixaban yet")."""
    mentions = [(d.name, d.surface) for d in drugs if d.name]
    return bool(mentions) and set(declined_drugs(text, mentions)) == {n for n, _ in mentions}


def _part_asks_chart(part: str, focus: str) -> bool:
    """One request of a message of several ("K", "eGFR pls", "current meds") is a chart
    question about her, by the rules a whole message is read with."""
    ward, window = read_ward(part), asked(part)
    actions = find_actions(part) + ward_requests.actions(
        part, ward, window, ward_requests.workflow_of(part))
    return asks_chart(part, actions, find_drugs(part), focus, window)


def _with_ids_like_hers(found: Entities, said: str, hers: str | None) -> Entities:
    """A word written as her own id is ("pt-ckd-elder latest K" in the chart of pt-warfarin: the
    head and hyphen of her id, a letter after it) is an id: hers or another patient's, never a
    word of the question."""
    head = re.match(r"([A-Za-z][A-Za-z0-9]{0,7}-)[A-Za-z]", hers or "")
    if head is None:
        return found
    like = re.findall(rf"(?<![\w/-])({re.escape(head.group(1))}[A-Za-z0-9][\w-]*)", said, re.I)
    ids = list(dict.fromkeys([*found.patient_ids, *(i.rstrip("-") for i in like)]))
    ids = [i for i in ids if not any(i != j and _part_of(i, j) for j in ids)]
    return found if tuple(ids) == found.patient_ids else replace(found, patient_ids=tuple(ids))


def read_words(message: str) -> Words:
    """What ``message`` (as written) asks beyond its entities, by the rules' word lists."""
    low = languages.fold(message).lower()
    return Words(
        label=_any_word("label_words").search(low) is not None,
        her_state=_any_word("patient_context_words").search(low) is not None,
        her_medications=_any_word("own_medication_words").search(low) is not None,
        allergy_substance=_ALLERGY_SUBSTANCE.search(message) is not None,
        note_text=note_text(message), note_type=note_type(message), topic=topic(message),
        count=len(_WORDS.findall(message)),
    )


@cache
def _any_word(key: str) -> re.Pattern[str]:
    """Any word of the rules' list ``key`` as a whole word (``\\b`` either side)."""
    return re.compile("|".join(rf"\b{re.escape(w)}\b" for w in rules()[key]))


_ALLERGY_SUBSTANCE = re.compile(r"\ballerg\w*\s+(?:to|for)\s+\w{3,}|\b\w{3,}\s+allergy", re.I)
_WORDS = re.compile(r"[A-Za-z0-9]+")


# "what is she allergic to", "MRN-100712 - what's he allergic to", "which drugs is she allergic
# to": a wh-word opening the clause whose "allergic to" ends the message asks her allergies,
# typed with no question mark as busy clinicians type; a substance after it ("allergic to
# penicillin") or a colon and a list ("what she's allergic to: penicillin") is told, not asked
_WH_ALLERGIC_TO = re.compile(
    r"(?:^|[-,;:.!?]\s*)(?:what|which|whats|what's)\b[^-,;:.!?]*\ballergic\s+to\s*$", re.I)


def _asks_allergy(text: str, actions: list[str], ward: Ward) -> bool:
    """An allergy word in a question with no word of recording ("elle est allergique à
    quoi ?", "é alérgica a quê?", "¿es alérgico a la penicilina?", "what is she allergic to"
    with no mark): the chart's allergies are asked, in any wording; "allergic to penicillin? add
    it" still records."""
    asked = text.rstrip().endswith("?") or bool(_WH_ALLERGIC_TO.search(text.rstrip()))
    return ("document_allergy" in actions and "allergy_question" not in actions
            and asked and not ward.record_words)


# A reaction to a drug told with a word of recording and no allergy word ("reacted to co-amox
# in 2019 - rash. pls document", "rash with septrin, add to allergies", "codeine makes him vomit,
# note it"): the drug beside the reaction is the substance to record. The reaction and the drug
# stand together (at most three words between, either order) or the drug follows "reacted to";
# a dose after the drug is an order ("amoxicillin 500 tds, rash day 3 - document" is checked)
_REACTED_TO = re.compile(r"\breact(?:ed|s|ion)\s+(?:badly\s+|previously\s+)?(?:to|with)\s+", re.I)


# where or as what it is recorded ("add to her allergies", "pop it on his allergy list", "note it
# as an intolerance"): words of recording, no allergy told of a drug
_ADDED_TO_ALLERGIES = re.compile(
    r"\b(?:add|put|pop|stick)\s+(?:it\s+|this\s+|that\s+)?(?:to|on|in|into)\s+(?:her\s+|his\s+|their\s+|the\s+)?"
    r"(?:allerg(?:y|ies)|drug\s+allerg(?:y|ies))(?:\s+list|\s+section)?\b"
    r"|\b(?:note|record|document|add|log|chart|put|enter)\s+(?:it\s+|this\s+|that\s+)?(?:down\s+)?as\s+"
    r"(?:an?\s+)?(?:intolerance|allergy|adverse\s+reaction|drug\s+allergy)\b", re.I)


@cache
def _allergy_list_as_place() -> re.Pattern[str]:
    """The allergy list named as where it goes in French, Portuguese and Spanish ("coloca nas
    alergias dele", "mets-le dans ses allergies", "agregalo a sus alergias"; rules.yaml
    ``allergy_list_as_place``), matched on the folded message."""
    return re.compile(r"(?<![a-z])(?:" + "|".join(rules()["allergy_list_as_place"]) + ")")


def added_to_allergies(text: str) -> bool:
    """The allergy list named as where a reaction told goes, in any of the four languages."""
    return bool(_ADDED_TO_ALLERGIES.search(text)
                or _allergy_list_as_place().search(languages.fold(text).lower()))


def recording_words_out(text: str) -> str:
    """``text`` without the words saying where or as what it is recorded ("add to allergies",
    "note it as an intolerance", "coloca nas alergias"), so an allergy's word there names no
    drug's allergy."""
    text = _ADDED_TO_ALLERGIES.sub(" ", text)
    folded = languages.fold(text).lower()
    if len(folded) != len(text):
        return text
    return "".join(" " if any(m.start() <= n < m.end()
                              for m in _allergy_list_as_place().finditer(folded)) else c
                   for n, c in enumerate(text))


def _reaction_to_record(text: str, drugs: list[Any], ward: Ward) -> bool:
    """A reaction told of one drug named, with a word of recording and no question mark: an
    allergy (or intolerance) to record, as "allergic to co-amox - rash, document" is."""
    if len(drugs) != 1 or not ward.record_words or text.rstrip().endswith("?"):
        return False
    return reaction_beside(text, drugs[0].surface)


def reaction_beside(text: str, surface: str) -> bool:
    """The drug written ``surface`` stands beside a reaction told of it ("reacted to co-amox",
    "rash with septrin", "hives after the amoxil", "codeine makes him vomit", "septrin - rash"),
    joined by no word or a word that ties them, never by an order's ("hives, started on
    clarithromycin"); a dose after the drug makes it an order, never the allergen; an allergy
    told of another drug ("pen allergy, started on clarithromycin") leaves this one unrecorded."""
    low = text.lower()
    drug = r"[\s\-]+".join(map(re.escape, surface.lower().split()))  # "co amox": co-amox
    if not drug or re.search(rf"\b{drug}\W*\d", low):
        return False
    if not allergen_named(recording_words_out(text), [surface]):
        return False
    article = r"(?:(?:the|his|her|their|some|a|an)\W+)?"
    if re.search(_REACTED_TO.pattern + rf"{article}{drug}\b", low):
        return True
    told = [*rules()["reactions"], *rules()["reaction_verbs"]]
    reaction = r"\b(?:" + "|".join(map(re.escape, told)) + r")\b"
    ties = r"(?:(?:with|to|from|after|since|on|off)\W+)?"
    caused = (r"(?:(?:makes?|made|gave|gives|caused|causes|causing)\W+"
              r"(?:(?:him|her|them|a|an|some)\W+){0,2})?")
    return bool(re.search(rf"{reaction}\W+{ties}{article}{drug}\b|\b{drug}\W+{caused}{reaction}",
                          low))


def _no_known_allergy_asked(text: str, ward: Ward) -> bool:
    """"NKDA?", "is she NKA?", "sans allergie connue ?": the no-known-allergy words in a last
    sentence that asks, with no word of recording: whether her list holds none is asked, so it
    is read, never a record drafted ("NKDA", "NKDA, please record" record it)."""
    last = re.split(r"[\n.]", text.rstrip())[-1]
    asks = last.endswith("?") or bool(
        _any_phrase("no_known_allergy_asks").search(languages.fold(last).lower().replace("-", " ")))
    return asks and no_known_allergy(last) and not ward.record_words


def note_text(message: str) -> str | None:
    """The note's text: what follows the first colon ("Save a progress note: stable, …")."""
    head, sep, text = message.partition(":")
    return text.strip() if sep and len(text.strip()) >= 2 else None


def note_type(message: str) -> str:
    low = message.lower()
    return next((t for t in rules()["note_types"] if t in low), "clinical note")


def topic(message: str) -> str | None:
    """The condition or subject of a trials or literature question ("trials for glioblastoma")."""
    for pattern in rules()["topic_patterns"]:
        m = re.search(pattern, languages.fold(message), re.I)
        if m:
            return m.group(1).strip(" ,;:")[:100] or None
    return None


def _titled_names_out(text: str) -> str:
    """``text`` with the names written after a title blanked ("Bed 3 - Mrs Bayer" reads no
    drug): a titled word names someone. A short title that is also a word ("o seu Marevan":
    his Marevan) leaves its word a drug."""
    def blank(m: re.Match[str]) -> str:
        group = _named_group(m)
        if group == "cap":
            return m.group(0)
        start, end = m.start(group) - m.start(), m.end(group) - m.start()
        return m.group(0)[:start] + " " * (end - start) + m.group(0)[end:]

    return languages.title_pattern().sub(blank, _TITLED_CAP.sub(blank, text))


# an English title before a capitalised name ("Mrs Bayer", "Mr Glover")
_TITLED_CAP = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx|(?i:mrs))\.?\s+([A-Z][a-z'\-]+)")


def _named_group(m: re.Match[str]) -> int | str:
    if not m.re.groupindex:
        return 1
    return "name" if m.group("name") else "low" if m.group("low") else "cap"


def extract(text: str, *, ward: Ward | None = None, window: Asked | None = None,
            focus: str | None = "", workflow: Workflow | None = None,
            her: InContext | None = None) -> Entities:
    """All entities of one clinician message, read accent folded so that French, Portuguese and
    Spanish typed with or without accents read alike. ``ward``, ``window``, ``focus`` and
    ``workflow``: the message's ward words, time window, chart focus and workflow words, when
    already read (``read``); ``her``: the patient in context, whose own name asked about is read
    as "the patient" for what is asked ("what is amara on")."""
    said, text = text, languages.fold(text)
    # what is asked of her, without her own id, MRN, birth date or name ("born 30.09.1950 -
    # INR?" asks the INR as "INR?" does)
    asked_text = without_identifiers(text, her, born_words()) if her else text
    ward = ward if ward is not None else read_ward(said)
    window = window if window is not None else asked(said)
    # her own id names no drug ("id pt-warfarin meds?"), nor a name after a title ("Mrs
    # Bayer" is a person, never the aspirin brand)
    drugs = find_drugs(_titled_names_out(
        compiled(rf"(?i)(?<![\w-]){re.escape(her.id)}(?![\w-])").sub(" ", text)
        if her and her.id else text))
    # "Se programa tomografía": a word of the four languages is no misspelt drug (Prograf)
    drugs = [d for d in drugs if d.match != "fuzzy" or not is_word(d.surface)]
    described = members_over_classes([d.name for d in drugs if d.name])
    drugs = [d for d in drugs if d.name not in described]
    names = find_names(text, drugs, written=said)
    # a brand read as a surname ("Mg for Ira Bayer?") names her, no drug
    surnames = {w.lower() for n in names for w in n.split()}
    drugs = [d for d in drugs if d.surface.lower() not in surnames]
    joined = bool(_JOINED.search(text)) or languages.joined(text)
    # "flu vaccine given this year?", "has he had his pneumococcal vaccine?": her immunisations
    # asked, no vaccine to check or give
    vaccinated = _vaccination_asked(text, drugs)
    drugs = [] if vaccinated else drugs
    # "not the amox, the doxy - 100mg bd": the declined drug's words ask nothing of it
    declined, asking = _declined(text, drugs)
    # "Receita do dentista: '…'. Tudo certo pra ele?": the question after pasted text asks
    asking = question_after(asking) or asking
    actions = find_actions(asking)
    if drugs and tried_on_her(asking):  # "trial of losartan?": tried on her, no study searched
        actions = [a for a in actions if a not in ("trials", "literature")]
    if _all_declined(text, drugs):
        # "don't start the apixaban yet, just check it's ok": the one drug named is declined,
        # nothing is ordered, the drug is still checked
        actions = [a for a in actions if a not in _ORDER_ACTIONS]
    if no_known_allergy(text):  # "NKDA", "pas d'allergie connue": a fact, not an allergy
        actions = [a for a in actions if a not in ("document_allergy", "allergy_question", "chart")]
        if _no_known_allergy_asked(text, ward):  # "NKDA?": her allergy list asked, not recorded
            actions.append("allergy_question")
        elif "save_note" not in actions:
            actions.append("record_no_known_allergy")
    if any(compiled(p).search(text.lower()) for p in rules()["denied_allergy"]):
        actions = [a for a in actions if a != "document_allergy"]  # "not really allergic"
    if "document_allergy" in actions and _history_beside_order(text):
        # a dictated note's history ("refiere alergia a la penicilina. Le indico …"): the order
        # is the request, checked against the allergy on file; nothing is recorded unasked
        actions = [a for a in actions if a != "document_allergy"]
    if "document_allergy" in actions and drugs and not allergen_named(
            recording_words_out(text), [d.surface for d in drugs]):
        # "pen allergy (anaphylaxis). Started on clarithromycin": the allergy told is of no drug
        # named, so the drug told is checked and no allergy to it is recorded
        actions = [a for a in actions if a != "document_allergy"]
    if added_to_allergies(asking):
        # "rash with septrin, add to her allergies": the list named as where it goes is a record
        # ("add" orders nothing, "her allergies" asks nothing)
        actions = [a for a in actions if a not in (*_ORDER_ACTIONS, "allergy_question")]
        actions += [] if "document_allergy" in actions else ["document_allergy"]
    if ("document_allergy" not in actions and "allergy_question" not in actions
            and _reaction_to_record(asking, drugs, ward)):
        # "reacted to co-amox in 2019 - rash. pls document": recorded as "allergic to" is
        actions = [a for a in actions if a not in _ORDER_ACTIONS] + ["document_allergy"]
    if ("document_allergy" not in actions and ward.record_words
            and _reaction_with_drug(text, drugs)):
        # "fez urticária com dipirona ano passado, anota aí": a reaction had with the one drug
        # named, told to be recorded, is the allergy to it, with no allergy word said
        actions.append("document_allergy")
    if _asks_allergy(text, actions, ward):  # "a D. Grace é alérgica a quê?": asked, not recorded
        actions.append("allergy_question")
    # lab orders, referrals, vital signs, protocols (agent/ward_requests.py)
    actions += ward_requests.actions(said, ward, window, workflow)
    if "protocol" in actions:
        # "potassium 2.9 - urgent": the analyte's word before its value is the result, no drug
        drugs = ward_requests.value_drugs_out(said, drugs, workflow)
    if ward.tests and "order_lab" not in actions and _ordered_with_a_procedure(text):
        # "ECG and trop please": the tests ordered, the ECG said not done here
        actions.append("order_lab")
    if "save_note" not in actions and dictated_handover(text):
        actions.append("save_note")  # "handover for the night team: bed 7 …": theirs, as said
    if "refer" in actions and "save_note" in actions and _labels_a_referral(text):
        actions.remove("save_note")  # "refer to ortho, note: Situation: …": the referral's text
    # the dose of the drug ordered beside one declined ("pas d'aspirine 250 mg, paracétamol
    # 300 mg toutes les 6 h": 300 mg), never the declined drug's
    dose, low = find_dose(asking if declined else text), text.lower()
    # "cipro 500 bd": 500 mg; "shall we start lisinopril 5": 5 mg, its frequency asked
    if order_lines.bare_dose(low, drugs, dose):
        dose = {**(dose or {"frequency": None}), "dose": order_lines.bare_dose(low, drugs, dose)}
    if order_lines.order_line(_clause_ordered(asking, drugs, declined), actions,
                              [d for d in drugs if d.name not in declined],
                              dose):  # "salbutamol inh 2 puffs q4h prn wheeze"
        actions.append("order_line")
    if order_lines.pasted_list_asked(text, drugs):
        # a pasted list and a question after it: asked, every drug checked, nothing written
        actions = [a for a in actions if a not in _ORDER_ACTIONS | _PASTED_WRITES]
        actions += [] if "check_interactions" in actions else ["check_interactions"]
    if several_asks.conditional_order(text, [d.surface for d in drugs]):
        # "if K < 3.5 give sando-k", "consider vit K if INR >5": the order waits on a result
        # (shown with it, ``several_asks.chart_foci``); the drug is still checked
        actions = [a for a in actions if a not in _ORDER_ACTIONS]
    focus = chart_focus(asked_text) if focus == "" else focus
    if focus is None and kind_asked(asked_text) is not None:
        focus = "medications"  # "is she on insulin?", "her insulin?": her list, the kind in it
    if vaccinated and "chart_question" not in actions:
        actions.append("chart_question")
    if any(asks_chart(t, actions, drugs, focus or "", window, ward.tests)
           for t in {asked_text, text}):
        actions.append("chart_question")
    named = [d.name for d in drugs if d.name and f"lab:{d.name}" != (focus or "").lower()]
    if focus == "review":
        # "is she on anything that affects her potassium?": her list reviewed against the
        # result, which is no drug given
        named = [n for n in named if n.lower() not in {a.lower() for a in analytes.names()}]
    if "give" not in actions and order_lines.asks_about_drug(
        low, actions, named, bool((dose or {}).get("dose"))
    ):
        # "is the lisinopril ok for her?", "Puis-je lui donner de l'ibuprofène ?"
        actions.append("give")
    return Entities(
        drugs=tuple(d.name for d in drugs if d.name),
        # two drugs joined ("St John's wort with warfarin?", "warfarin + aspirin"): most likely a
        # question about taking them together; "X or Y", "X vs Y" compare and are not joined
        drug_pair=len({d.name for d in drugs if d.name}) >= 2 and joined,
        drug_mentions=tuple(drugs),
        ambiguous_drugs=tuple(d for d in drugs if d.match == "ambiguous"),
        patient_ids=tuple(_not_names(find_patient_ids(text), names)),
        patient_names=tuple(names),
        birth_date=find_birth_date(text),
        birth_dates=find_birth_dates(text),
        actions=tuple(actions),
        dose=Dose.of_said(languages.as_written(dose, text, said)),
        allergy=Allergy.of_said(find_allergy(text)),
        unsupported=tuple(find_unsupported(text)),
    )
