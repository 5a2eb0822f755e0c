"""The ward's words of one message, read once: tests, specialties, readings, priority, when.

Every name comes from the tools' tables (``tools/data/ward.yaml``, ``tools/data/when.yaml``),
read by ``tools/words``; this module reads a message with them once, into a ``Ward`` the
request carries (``reading/request.py``), so the agent's routing (``agent/ward_requests``) and
the tools' arguments read the same values and never the message again.

    ward = read_ward("Order a basic metabolic panel tomorrow at 8am")
    ward.tests          # ("basic metabolic panel",)
    ward.when           # "tomorrow at 8am" (the time words, from the first one on)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..languages import fold
from ..tools.words import ward_words, when
from ..tools.words.ward_words import Reading
from ..tools.words.when import Clock
from .drugs import says_stop

# the time words an order carries to its tool: from the first time word on, this many characters
# (the tool reads them in the site's zone; ``tools/words/when.parse``)
WHEN_CHARS = 40


@dataclass(frozen=True)
class Ward:
    """What a message names of the ward's tables, each in the order written."""

    tests: tuple[str, ...] = ()  # lab tests, the keys of the lab table
    unread_tests: tuple[str, ...] = ()  # items of a list of tests the table does not name
    specialties: tuple[str, ...] = ()  # referral specialties, the keys of the table
    readings: tuple[Reading, ...] = ()  # vital signs stated with a value
    to_record: str | None = None  # a vital sign asked to be recorded with no value ("record a BP")
    taken: Clock | None = None  # the time the readings were taken, when said ("at 0600")
    priority: str | None = None  # stat | asap | urgent; None: routine
    sets_counted: bool = False  # a count of a test drawn in sets ("hemocultivos x2")
    when: str | None = None  # the time words, folded, from the first one on
    order_words: bool = False  # a word of ordering a test ("order", "recheck", "draw")
    referral_words: bool = False  # a word of referring ("refer", "consult with")
    record_words: bool = False  # a word of recording ("record", "chart", "registrar")
    again_words: bool = False  # a word of doing it again ("same again", "otra vez", "de novo")
    added_words: bool = False  # a word adding to what is pending ("and", "too", "with it", "aussi")
    # every test named, a word that is a drug too included ("and a magnesium with it"): read as
    # a test only against pending lab orders
    any_tests: tuple[str, ...] = ()
    # the ward's sample named for a time ahead ("bloods tomorrow", "bilan demain", "exames amanhã")
    samples_ahead: bool = False
    # the tests named after a word of keeping ("drop the FBC, just the INR", "garde l'INR")
    kept_tests: tuple[str, ...] = ()
    referral_reason: str | None = None  # "for knee pain": the reason, never the specialty
    referral_note: str | None = None  # the clinician's own text for the referral, verbatim

    @property
    def timed(self) -> bool:
        """A time, a priority or a count of sets is said: a bare list of tests with it is an
        order."""
        return self.when is not None or self.priority is not None or self.sets_counted


# a colleague named as asking ("le Dr Mensah demande le dernier INR", "Nurse Ali asks for the
# K", "la Dra. Otieno pide el potasio", "le Dr Okafor, son médecin traitant, demande …"): what
# they ask is read, never an order of the clinician's
_REPORTED = re.compile(
    r"(?i)\b(?:dr|dra|dre|doctor|doctora|docteur|doutor|doutora|nurse|sister|prof|infirmiere|"
    r"infirmi\u00e8re|enfermeira|enfermera)\.?\s+[A-Z\u00c0-\u00dd][\w'-]+"
    # an aside between the colleague and the verb ("le Dr Okafor, son médecin traitant, demande")
    r"\s*(?:,[^,.;?]{1,40},)?\s+"
    r"(?:demande|asks|asked|wants|requests|requested|pede|pediu|pide|pidio|quer|quiere|veut|"
    r"voudrait|souhaite|would like|gostaria|quisiera)\b")


# anyone asking whether ("la famille demande si elle peut…", "family asking whether…", "a família
# pergunta se…", "la familia pregunta si…"): a question reported, never an order of a test
_ASKS_WHETHER = re.compile(
    r"(?i)\b(?:demande|demandent|demandait|asks?|asking|asked|wonders?|wondering|pergunta|"
    r"perguntam|perguntou|pregunta|preguntan|pregunto)\s+(?:si|s'|if|whether|se)\b")


def _unreported(text: str) -> str:
    return _ASKS_WHETHER.sub(" ", _REPORTED.sub(" ", text or ""))


def _without_idioms(text: str) -> str:
    """``text`` folded, without the idioms of taking stock whose verb also orders a test ("tu me
    fais le point sur ses médicaments", ``review_idioms``): a review asked orders nothing."""
    low = fold(text).lower()
    for idiom in ward_words.table()["review_idioms"]:
        low = re.sub(idiom, " ", low)
    return low


# "add" and "put in" record a reading ("add a BP of 150/90") but order a drug ("was going to add
# ramipril", "put her in for amoxicillin"): a verb whose object is a drug is not a record word
_VERB_OF = re.compile(r"(?i)\b(?:add|adding|put in|enter)\s+(?:(?:him|her|them|in|on)\s+)*(\S+)")


def _drug_verbs_out(text: str) -> str:
    from ..knowledge.mentions import find_drugs

    def kept(m: re.Match[str]) -> str:
        return " " if find_drugs(m.group(1).lower()) else m.group(0)

    return _VERB_OF.sub(kept, text or "")


def read_ward(text: str) -> Ward:
    """The ward's words of ``text`` (as written; each reader folds it)."""
    specialties = tuple(ward_words.specialties(text))
    readings = tuple(ward_words.readings(text))
    return Ward(
        tests=tuple(ward_words.lab_tests(text)),
        unread_tests=tuple(ward_words.unread_tests(text)),
        specialties=specialties,
        readings=readings,
        to_record=None if readings else ward_words.vital_to_record(text),
        taken=when.clock_said(text) if readings else None,
        priority=ward_words.priority(text),
        sets_counted=ward_words.counted_sets(text),
        when=when_words(text),
        order_words=ward_words.says_any(_without_idioms(_unreported(text)), "lab_order_words"),
        referral_words=(ward_words.says_any(text, "referral_words")
                        or ward_words.asks_opinion(text)),
        record_words=ward_words.says_any(_drug_verbs_out(text), "record_words"),
        again_words=ward_words.says_any(text, "again_words"),
        added_words=ward_words.says_any(text, "added_words"),
        any_tests=tuple(ward_words.any_tests(text)),
        kept_tests=tuple(ward_words.kept_tests(text)),
        samples_ahead=ward_words.samples_ahead(text),
        referral_reason=ward_words.referral_reason(text, specialties[0]) if specialties else None,
        referral_note=ward_words.referral_note(text) if specialties else None,
    )


# a message's clauses: a time said in a clause that holds a drug ("hold warfarin tonight, INR in
# am") is the hold's, not the order's
_CLAUSES = re.compile(r"[,;.\n]|\s[-\u2013]\s|\s(?:and|then|et|puis|e|y|depois|luego)\s")


_DOSE = re.compile(r"(?i)\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|ug|units?|iu|ml)\b")


def _gives_a_dose(clause: str) -> bool:
    """A clause naming a drug with a dose ("warf 3mg tonight", "give 40mg furosemide now")."""
    from ..knowledge.mentions import find_drugs  # the drug vocabulary stands above the words

    return bool(_DOSE.search(clause)) and bool(find_drugs(fold(clause).lower()))


def when_words(text: str) -> str | None:
    """The words of ``text`` that say when, from the first time word on (folded, spaces
    collapsed); None when no time is said. A clause that stops or holds a drug lends its time
    to nothing else when another clause says one."""
    timed = [c for c in _CLAUSES.split(text) if when.starts(c) is not None]
    # ... nor does a clause giving a drug's dose when another says a time ("warf 3mg tonight
    # then recheck inr thurs": the INR on Thursday, never tonight)
    dosed = [c for c in timed if _gives_a_dose(c)]
    kept = [c for c in timed if not says_stop(c) and (c not in dosed or len(dosed) == len(timed))]
    if kept and len(kept) < len(timed):
        # from the order's clause up to the next clause that holds a drug ("INR tmrw please and
        # hold tonight's warfarin": tomorrow, never tonight)
        start = text.index(kept[0])
        later = [i for c in timed if says_stop(c) and (i := text.find(c, start)) > start]
        text = text[start:min(later)] if later else text[start:]
    at = when.starts(text)
    return " ".join(fold(text).lower().split())[at:at + WHEN_CHARS] if at is not None else None
