"""Who a request is about: the patient in context, or someone else — fail-safe.

A person or id the message names is the patient in context only when shown to be: her own FHIR id
or MRN, or every word of her name (with her birth date, when one is given). Anyone else named is
another patient, and the request is refused with the reason in one sentence: a wrong birth date
with her name is a namesake, said so ("born 1950-09-30 in this chart, not 1951-09-30").

Once the subject is known, the identifiers that named the patient in context are not part of the
question ("MRN-100587 any allergies on file?" asks for the allergies, not the MRN).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from rapidfuzz.distance import Levenshtein

from ..datafiles import safe_yaml
from ..tools.chart.in_context import InContext as InContext  # the chart read's, typed


@dataclass(frozen=True)
class Subject:
    """Who the request is about. ``others``: the people or ids named who are not the patient in
    context; ``reason``: why one of them was read as another patient."""

    about: Literal["patient", "other"]
    others: tuple[str, ...] = ()
    reason: Literal["name", "id", "birth_date"] | None = None
    said_born: str | None = None  # the birth date the message gave, when it is not hers


def is_own_name(name: str, here: InContext) -> bool:
    """Every word of ``name`` is a word of her name ("Mensah", "Robert Mensah") or its initial
    ("R Mensah"), with or without its accents: the message is read accent-folded ("Chavarria957"
    for "Chavarría957"); and with or without the digits a generated chart puts after each name
    ("Monet Wisoky" for "Monet875 Wisoky380"), which no one types. A short form of her given
    name is hers ("Bob" of Robert); so is a word of five letters or more typed with two letters
    side by side swapped ("Mensha"), beside a word of her name written in full. A short form
    alone ("Bob's INR?", "Sam, HbA1c?") is not shown to be her: ``near_her_name`` asks who is
    meant. Nothing else near her name is: "Roberta", "Marie" for Maria, "Adebayo" for Adeyemi
    stay someone else."""
    words = [_name_key(w) for w in (here.name or "").split()]
    mine, given = set(words), words[:-1]
    if re.fullmatch(r"(?:[A-Z]\.){2,3}", name):  # "R.M.", "M.R.": her initials, in either order
        return bool(words) and sorted(name.lower().replace(".", "")) == sorted(
            w[0] for w in words if w)
    said = [_name_key(w) for w in name.split()]
    exact = any(w in mine for w in said)
    return bool(mine) and all(
        w in mine
        # an initial ("Mr R Mensah") is hers when a word of her name begins with it
        or (len(w) == 1 and any(m.startswith(w) for m in mine))
        or (exact and any(w in _short_names().get(m, ()) for m in given))
        or (exact and any(_swapped(w, m) for m in mine))
        for w in said
    )



def shares_a_name(name: str, here: InContext) -> bool:
    """A word of ``name`` is a word of her name (three letters or more) and ``name`` is not
    hers: another patient of the same first name or surname ("Samuel Okafor" beside her,
    Samuel Okoro)."""
    mine = {_name_key(w) for w in (here.name or "").split()}
    return any(len(w) > 2 and _name_key(w) in mine for w in name.split()) and not is_own_name(
        name, here
    )


def near_her_name(name: str, here: InContext) -> bool:
    """``name`` is not hers but written like it: a word of her name in full and every other
    word one letter from a word of hers of four letters or more ("Kofi Assante", "amara
    nwossu"), or a short form of her given name alone ("Bob" in Robert Mensah's chart). Never
    read as her (a namesake may be one letter off): the clinician is asked to
    say her name as charted, and nothing is answered from the chart."""
    mine = [_name_key(w) for w in (here.name or "").split()]
    said = [_name_key(w) for w in name.split()]
    if said and not is_own_name(name, here) and all(
            any(w in _short_names().get(m, ()) for m in mine[:-1]) for w in said):
        return True  # "Bob", "Peggy" alone in Robert's, Margaret's chart: a short form, asked
    if len(said) < 2 or is_own_name(name, here) or not any(w in mine for w in said):
        return False
    return all(w in mine or any(len(m) >= 4 and Levenshtein.distance(w, m, score_cutoff=1) <= 1
                                for m in mine) for w in said)


def misspelt_hers(name: str, here: InContext) -> bool:
    """``name`` is her name with a slip in her surname: her surname (of four letters or more)
    typed one letter off, every other word hers or its initial ("Mensa R", "Tompson M.",
    "Amara Nwossu"). Read as her only beside her full birth date (``subject_of``): a name and a
    birth date are the two identifiers a ward checks. Never a slip in a given name ("Roberta
    Mensah" born the same day is a twin, who shares the surname and the birth date, not a
    slip); a slip alone is asked back (``near_her_name``)."""
    mine = [_name_key(w) for w in (here.name or "").split()]
    said = [_name_key(w).rstrip(".") for w in name.split()]
    if not mine or len(mine[-1]) < 4:
        return False
    surname = mine[-1]

    def slipped(w: str) -> bool:
        return w != surname and (Levenshtein.distance(w, surname, score_cutoff=1) <= 1
                                 or _swapped(w, surname))

    return any(slipped(w) for w in said) and all(
        slipped(w) or w in mine or (len(w) == 1 and any(m.startswith(w) for m in mine))
        for w in said)


@lru_cache(maxsize=1)
def _short_names() -> dict[str, tuple[str, ...]]:
    """Given names and their short forms (``data/people.yaml`` ``short_names``)."""
    data = safe_yaml((Path(__file__).parent / "data" / "people.yaml").read_text())
    return {k: tuple(v) for k, v in data["short_names"].items()}


def _swapped(said: str, hers: str) -> bool:
    """``said`` is ``hers`` (five letters or more) with two neighbouring letters swapped."""
    if len(said) != len(hers) or len(said) < 5 or said == hers:
        return False
    diff = [n for n, (a, b) in enumerate(zip(said, hers, strict=True)) if a != b]
    return (
        len(diff) == 2 and diff[1] == diff[0] + 1
        and said[diff[0]] == hers[diff[1]] and said[diff[1]] == hers[diff[0]]
    )


def _name_key(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c)
    ).rstrip("0123456789")


def names_another(names: tuple[str, ...], ids: tuple[str, ...], here: InContext | None) -> bool:
    """A message naming ``names`` and ``ids`` names someone not shown to be the patient in
    context (``here``; None: anyone named is someone else)."""
    return bool(ids) or any(here is None or not is_own_name(n, here) for n in names)


def is_own_id(said: str, here: InContext) -> bool:
    """Her FHIR id or MRN, however the MRN is written ("MRN-100587", "mrn 100587", "100587"); or
    her id typed in part, as the ward shortens a long one: its first groups, whole ("pt 330f6d34"
    of 330f6d34-ac8b-…). Any other part of an id is someone else's."""
    return id_key(said) in {id_key(v) for v in (here.id, here.mrn) if v} or said.lower() in (
        _first_groups(here.id))


def _first_groups(full: str | None) -> tuple[str, ...]:
    """"330f6d34", "330f6d34-ac8b", …: the runs of an id's first groups that are shorter than it,
    the first at least 8 characters long (a shorter run would match many ids)."""
    groups = (full or "").lower().split("-")
    runs = ("-".join(groups[:n]) for n in range(1, len(groups)))
    return tuple(r for r in runs if len(r) >= 8)


def id_key(said: str) -> str:
    """An id without case, punctuation or the "MRN" before its value."""
    key = re.sub(r"[^a-z0-9]", "", said.lower())
    return key[3:] if key.startswith("mrn") and len(key) > 3 else key


def said_birth_year(text: str, born_words: str) -> str | None:
    """A birth year said alone after a birth date's word ("Robert Mensah born 1960", "DOB
    1951", "nacido en 1951", "nascida em 1985"), when no whole date is: compared with her birth
    year."""
    low = "".join(c for c in unicodedata.normalize("NFKD", text.lower())
                  if not unicodedata.combining(c))
    m = re.search(rf"(?<![a-z])({born_words})(?![a-z])\s*(?:in|en|em|:|-|=)?\s*(?:el\s+|the\s+)?"
                  r"((?:19|20)\d\d|'?\d\d)(?![\d/.\-])(?!\s*(?:weeks?|wks?|w\b|semaines?|"
                  r"semanas?|sem\b|days?|jours?|dias?|kg|g\b|lb))", low)
    if m is None or (len(m.group(2)) == 2 and len(m.group(1).strip(".")) < 2):
        return None  # "vitamin b. 12 level": two figures after "b." are no year
    return _four_digits(m.group(2))


def _four_digits(year: str) -> str:
    """"58", "'58": the year of the last century or this one that is not in the future (a
    birth year said in two figures: "born in 58" is 1958, "born in 20" is 2020)."""
    year = year.lstrip("'")
    if len(year) == 4:
        return year
    now = date.today().year
    century = now - now % 100
    full = century + int(year)
    return str(full if full <= now else full - 100)


def year_after_name(text: str, names: tuple[str, ...] | list[str]) -> str | None:
    """A birth year written right after a name ("James Wilson 1958 - meds?", "Wilson J (1958)"):
    compared with her birth year like "born 1958"."""
    for name in names:
        # "Mensah R. 1951": the initial's full stop is the name's
        m = re.search(rf"(?i){re.escape(name)}\.?\s*[,(-]?\s*((?:19|20)\d\d)(?![\d/.\-:])", text)
        if m:
            return m.group(1)
    return None


# an age said of the one asked about ("James Wilson, 58 ans", "58yo M", "paciente de 58 años",
# "aged 58"); never a length of time ("diabétique depuis 10 ans", "for 5 years")
_AGE = re.compile(
    r"(?i)(?:^|[,(]\s*|\b(?:a|an|aged?|agee?|age de|agee de|idade|edad|paciente de|patient de|"
    r"patiente de|doente de|senhor de|senhora de|senor de|senora de)\s+)(\d{1,3})\s*"
    r"(?:yo\b|y/o|y\.o\.|-?years?[- ]old|-?yrs?[- ]old|ans\b|anos\b|años\b|anos de idade)")


# the ward's age and sex ("72M", "83 F", "72yo m", "45y F"): a capital letter alone after the
# number, any case after "yo"
_AGE_SEX = re.compile(r"(?<![\w/.,])(\d{1,3})(?:\s?(?-i:[MF])|\s?(?:yo|y/o|y)\s?[mfMF])(?![\w/])")


def ages_not_hers(text: str, age: int | None, sex: str = "") -> tuple[str, ...]:
    """An age said that is not hers by more than a year (her birthday may fall between), or the
    ward's age and sex ("72M") of another age or the other sex: the one asked about is someone
    else."""
    out = [m.group(0).strip(" ,(") for m in _AGE.finditer(text)
           if age is not None and abs(int(m.group(1)) - age) > 1]
    for m in _AGE_SEX.finditer(text):
        if int(m.group(1)) > 120:
            continue  # "500M" is no age
        said = "male" if m.group(0)[-1] in "mM" else "female"
        if (age is not None and abs(int(m.group(1)) - age) > 1) or sex not in ("", said):
            out.append(m.group(0))
    return tuple(out)


def said_birth_date(readings: tuple[str, ...], born: str | None) -> str | None:
    """The birth date a message gives, of its readings ("07/09/1986" is July 9 or 7 September):
    hers when one reading is, else every reading ("1971-02-09 or 1971-09-02": not hers either
    way, said as both, never one guessed)."""
    if born and born in readings:
        return born
    return " or ".join(dict.fromkeys(readings)) or None


def subject_of(
    names: tuple[str, ...] | list[str],
    ids: tuple[str, ...] | list[str],
    born: str | None,
    here: InContext,
    others: tuple[str, ...] = (),
) -> Subject:
    """The subject of a message naming ``names`` and ``ids`` (and a birth date ``born``);
    ``others``: people already shown not to be her (``titled_of_other_sex``)."""
    # a year alone ("born 1960") is compared with her birth year
    namesake = bool(born and here.born and not here.born.startswith(born))
    her_born = bool(born and born == here.born)
    own_names = [n for n in names if is_own_name(n, here) or (her_born and misspelt_hers(n, here))]
    other_names = [n for n in names if n not in own_names] + list(others)
    other_ids = [i for i in ids if not is_own_id(i, here)]
    if namesake and own_names:
        return Subject("other", tuple(own_names + other_names + other_ids), "birth_date", born)
    if other_names or other_ids:
        return Subject("other", tuple(other_names + other_ids), "name" if other_names else "id")
    if namesake and born:
        # a birth date or year that is not hers, no name ("born 02/09/1971 - INR?"): someone else
        return Subject("other", (born,), "birth_date", born)
    return Subject("patient")


@lru_cache(maxsize=1)
def _titles() -> dict[str, str]:
    said = safe_yaml((Path(__file__).with_name("data") / "people.yaml").read_text())
    return {t: sex for sex, titles in said["titles_by_sex"].items() for t in titles}


# a follow-up that is only a possessive pronoun ("and hers?", "what about his?", "e o dela?"),
# the sex it says (English and Portuguese only: "le sien", "el suyo" say no owner's sex)
_BARE_POSSESSIVE = re.compile(
    r"(?i)^[\s¿¡]*(?:(?:and|what about|how about|e|&)\s+)?(?:(?:o|a|os|as)\s+)?"
    r"(hers|his|dela|dele)\s*(?:then|too|tb|tambem|também)?\s*[?.!]*\s*$")
_POSSESSIVE_SEX = {"hers": "female", "dela": "female", "his": "male", "dele": "male"}


def pronoun_of_other_sex(text: str, sex: str) -> tuple[str, ...]:
    """A follow-up that is only a possessive pronoun of the other sex than hers ("and hers?" in
    Robert Mensah's chart, "e o dele?" in Amara Nwosu's): someone else's, whoever they are,
    never answered from her chart. Her own sex's pronoun ("and his?" in his chart) is left to
    the follow-up rules; a chart with no sex said reads nothing here."""
    m = _BARE_POSSESSIVE.match(text or "")
    if not m or sex not in ("female", "male"):
        return ()
    word = m.group(1).lower()
    return (word,) if _POSSESSIVE_SEX[word] != sex else ()


def titled_of_other_sex(text: str, here: InContext, sex: str,
                        french: bool = True) -> tuple[str, ...]:
    """Her name after a title of the other sex ("Mme Mensah" in Robert Mensah's chart, "Mr
    Thompson" in Margaret's): someone else of her name, as written. Outside French (``french``
    False) "M." before her surname is her own initial when her given name begins with it ("M.
    Thompson K?" in Margaret Thompson's chart), never Monsieur."""
    if sex not in ("female", "male"):
        return ()
    out = []
    # read overlapping ("a Sra. Okoro": "a Sra" must not hide "Sra. Okoro"), accents folded
    # ("el señor Adeyemi")
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    for m in re.finditer(r"(?i)(?<![\w.])(?=(([a-z]{1,11})(\.?)\s+([A-Z][\w-]+)))", folded):
        title = _name_key(m.group(2))
        if title == "m" and not (m.group(2) == "M" and m.group(3)):
            continue  # "M." is Monsieur only capitalised with its full stop ("M. Thompson")
        if title == "m" and not french and is_own_name(f"M {m.group(4)}", here):
            continue  # "M. Thompson" in English: Margaret's initial
        if _titles().get(title, sex) != sex and is_own_name(m.group(4), here):
            out.append(m.group(1).rstrip("'\u2019"))
    return tuple(out)


def initial_of_another(text: str, here: InContext, french: bool = False) -> tuple[str, ...]:
    """An initial that begins no word of her name before a word of it ("B. Adeyemi" in Grace
    Adeyemi's chart): someone else of her surname. In French "M." is Monsieur, not an initial
    ("lettre pour M. Okoro" in Samuel Okoro's chart): his title, judged by its sex
    (``titled_of_other_sex``)."""
    out = []
    for m in re.finditer(r"(?<![\w.'\u2019])([A-Z])(\.?)\s+([A-ZÀ-Ý][\w-]{2,})", text):
        if french and m.group(1) == "M" and m.group(2):
            continue
        name = m.group(3)
        if is_own_name(name, here) and not is_own_name(f"{m.group(1)} {name}", here):
            out.append(m.group(0))
    return tuple(out)


def other_of_her_name(text: str, here: InContext) -> tuple[str, ...]:
    """Her name after "the other", "l'autre", "o outro", "el otro" … ("the other James Wilson's
    meds" in one James Wilson's chart): a namesake, someone else."""
    from .people import fold_accents, people_data, unshouted

    said = people_data()
    words = sorted({w for ws in said["others"].values() for w in ws} | set(said["namesakes"]),
                   key=len, reverse=True)
    pattern = re.compile(rf"(?i)(?<![\w'])(?:{'|'.join(map(re.escape, words))})\s+"
                         r"(?:(?:mr|mrs|ms|mme|m|sr|sra|senhor|senhora|dona|don|dona)\.?\s+)?"
                         r"([A-Za-zÀ-ÿ][\w\-]+)")
    return tuple(
        m.group(0).strip() for m in pattern.finditer(fold_accents(unshouted(text)))
        if len(m.group(1)) > 2 and is_own_name(m.group(1), here)
    )


_MRN_HEAD = re.compile(r"(?i)^mrn[\s:#-]*")  # "MRN-100587" is also written "mrn 100587"
# the words a site writes before its record number ("NHC 100587", "prontuário 100587"): taken
# out with her number, so the question left is what is asked of her
# ("age? pt <her id>": "pt" goes with it, as "patient", "patiente", "paciente" do)
_RECORD_WORDS = (r"mrn|id|pt|patient|patiente|paciente|doente|ipp|nip|nhc|prontu[aá]rio|"
                 r"processo|registro|historia(?:\s+cl[ií]nica)?|dossier")


@lru_cache(maxsize=256)
def _identifier_said(form: str) -> re.Pattern[str]:
    """Her id or MRN as written, with a record word or the address before it."""
    return re.compile(rf"(?i)(?:https?://\S*?/)?\b(?:{_RECORD_WORDS})?[\s:#/-]*{re.escape(form)}\b")


def without_identifiers(text: str, here: InContext, born_words: str) -> str:
    """The message without the patient's own id, MRN and birth date: what it asks of her."""
    out = text
    for said in (here.mrn, here.id, *reversed(_first_groups(here.id))):
        for form in dict.fromkeys([said, _MRN_HEAD.sub("", said or "")]):
            if form:
                # "https://ehr…/fhir/Patient/<id>": the address goes with it
                out = _identifier_said(form).sub(" ", out)
    if here.born:
        out = re.sub(rf"(?i)(?<![a-z])(?:{born_words})(?![a-z])\s*(?:of|on|is|:|-|=|le|em|el)?\s*"
                     r"[0-9][0-9/.\-]{6,9}[0-9]", " ", out)
    return as_the_patient(out, here)


def as_the_patient(text: str, here: InContext) -> str:
    """Her own name said as the one asked about ("what is amara on", "is Samuel's sugar control
    ok?") read as "the patient": what is asked of her is then read as for "she". A word of her
    name that is also a word of the language ("Grace", "Rose") is left as written."""
    said = _her_name_said(here.name or "")
    if said is None:
        return text
    with_for, possessive, alone = said
    text = with_for.sub(" ", text)
    text = possessive.sub("the patient's", text)
    return alone.sub("the patient", text)


@lru_cache(maxsize=256)
def _her_name_said(name: str) -> tuple[re.Pattern[str], ...] | None:
    """The three ways ``as_the_patient`` reads her name (after "for", with "'s", alone),
    compiled once per name: every message of her chart is read with them."""
    from .people import not_name_words, people_data  # people reads this module's names
    from .word_names import word_names  # word_names reads the people this module names

    common = not_name_words()
    words = {w for w in name.split() if len(_name_key(w)) >= 3}
    forms = {f for w in words for f in (w.rstrip("0123456789"), _name_key(w))
             if _name_key(w) not in common}
    if not forms:
        return None
    # a word of her name that is a word too ("grace period") is hers written as a name only
    one = "|".join(f"{re.escape(f.capitalize())}|{re.escape(f.upper())}"
                   if _name_key(f) in word_names()
                   else f"(?i:{re.escape(f)})" for f in sorted(forms, key=len, reverse=True))
    run = rf"(?<![\w'\u2019])(?:{one})\d*(?:\s+(?:{one})\d*)*"
    # "check K for Samuel", "FBC tomorrow for samuel pls": the one it is for goes with its
    # preposition, so what is asked reads as it would for her
    said = people_data()
    fors = "|".join(re.escape(str(w)) for w in said["ordered_for"])
    polite = "|".join(re.escape(str(w)) for w in said["polite_after"])
    return (re.compile(rf"\s*(?<![\w'\u2019])(?i:{fors})\s+{run}(?:\s+(?i:{polite}))?"
                       r"(?![\w'\u2019])"),
            re.compile(rf"{run}['\u2019](?i:s)\b"),
            re.compile(rf"{run}(?![\w'\u2019])"))
