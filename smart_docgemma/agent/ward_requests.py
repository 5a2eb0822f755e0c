"""Ward requests understood by code: lab orders, referrals, vital signs to record, protocols.

What is ordered is the tools' vocabulary (``tools/data/ward.yaml``: lab tests, specialties,
vital signs; ``tools/data/protocols.yaml``: each protocol's analyte words); that it is an order
is a word of ``ward`` in ``data/rules.yaml`` ("order", "refer", "record", "per protocol",
"if low"…). No sentence is listed: an order word with a thing the tables name. ``actions``
adds the actions extraction keeps; ``arguments`` fills the write tools' arguments for the fast
path from the same words.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from functools import cache, lru_cache
from typing import Any

from ..knowledge import analytes
from ..knowledge.mentions import find_drugs
from ..languages import frequency
from ..reading.dose_change import dose_change
from ..reading.drugs import replaced_drugs, says_hold, stopped_drugs
from ..reading.request import Request, Switch, Workflow
from ..reading.ward import Ward, read_ward
from ..tools.chart.in_context import ChartInContext
from ..tools.words import ward_words
from ..tools.words.windows import Asked, asked
from ..tools.writes import periop, plans, protocols
from . import amendments
from .languages import fold
from .prompts import rules

TOOLS = (
    "apply_protocol",
    "order_lab_test",
    "refer_patient",
    "record_vital_sign",
    "review_care_gaps",
    "order_care_gaps",
    "plan_problem",
    "reconcile_medications",
    "switch_medication",
    "change_dose",
    "stop_medication",
    "periop_plan",
)


@lru_cache(maxsize=1)
def _rules() -> dict[str, Any]:
    found: dict[str, Any] = rules()["ward"]
    return found


@lru_cache(maxsize=64)
def _any(key: str) -> re.Pattern[str]:
    words = sorted(_rules()[key], key=len, reverse=True)
    return re.compile(rf"(?<![a-z0-9])(?:{'|'.join(words)})(?![a-z0-9])")


def _low(text: str) -> str:
    return " ".join(fold(text).lower().split())


def protocol_named(text: str) -> str | None:
    """The shipped protocol whose analyte the message names ("K low?" → potassium_oral): the
    protocol's own words and its analyte's in the analyte table (``knowledge/data/analytes.yaml``:
    "glycated haemoglobin", "serum magnesium"); a unit after a number ("2 mg") is no analyte."""
    low = re.sub(r"[\d.]+\s*(?:mg|k)\b", " ", _low(text))
    hits = [(m.start(), key) for key, words in _protocol_words().items() for w in words
            for m in _whole_word(w).finditer(low)]
    return min(hits)[1] if hits else None


@cache
def _whole_word(word: str) -> re.Pattern[str]:
    """``word`` as a whole word of a folded message, compiled once: the vocabulary's words are
    tried on every message, more patterns than the ``re`` module keeps compiled."""
    return re.compile(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])")


@lru_cache(maxsize=1)
def _protocol_words() -> dict[str, tuple[str, ...]]:
    table = protocols.load(str(protocols.DEFAULT))
    return {key: tuple({w.lower() for w in (*p["words"], *analytes.analyte(p["analyte"]).words)})
            for key, p in table.items()}


def actions(text: str, ward: Ward | None = None, window: Asked | None = None,
            workflow: Workflow | None = None) -> list[str]:
    """``protocol``, ``order_lab``, ``refer``, ``record_vital``: what the message asks to write
    (``ward``, ``window``, ``workflow``: its ward words, time window and workflow words, read once
    by ``extraction``; a caller without them has them read by the same readers)."""
    low, found = _protocol_slip(_low(text)), []
    ward = ward if ward is not None else read_ward(text)
    window = window if window is not None else asked(text)
    workflow = workflow if workflow is not None else workflow_of(text)
    planned = workflow_actions(low, workflow)
    by_protocol = bool((_any("protocol_words").search(low) or _told_for_protocol(low, workflow)
                        or (workflow.plan_asked and workflow.protocol_value is not None
                            and replacement_asked(low)))
                       and workflow.protocol)
    if by_protocol and planned == ["care_gaps"]:
        return ["protocol"]  # "is he due an a1c? if so order it": the one test's reorder rule
    if planned and planned != ["stop"]:
        return planned
    if by_protocol:
        return planned + ["protocol"]
    decided = (_any("decision_words").search(low) is not None
               and _any("ahead_words").search(low) is None
               ) or _any("later_visit_words").search(low) is not None
    if ward.tests and not decided and (ward.order_words or _bare_order(text, ward, window)):
        found.append("order_lab")
    if ward.specialties and ward.referral_words:
        found.append("refer")
    # "BP 88/52 HR 118 just now, what should I do?": a plan asked of the readings charts none,
    # unless a verb of charting is said too ("record BP 160/110 - plan?")
    if (ward.readings and not _any("question_words").search(low)
            and (not _plan_words(low) or _CHARTING.search(low))
            and (ward.record_words or _bare_readings(text, low, ward))):
        found.append("record_vital")
    elif ward.to_record and not ward.tests:  # "record a blood pressure": its reading is asked
        found.append("record_vital")
    # "stop warfarin - INR 3.4, recheck in 2 days": the stop and the lab beside it, each carded
    return planned + found


_PROTOCOL = ("protocol", "protocole", "protocolo")


def _protocol_slip(low: str) -> str:
    """"hba1c protcol?", "protocolo" typed "protocoo": a word one slip (a letter missed, added,
    changed or two swapped) from "protocol" in any language is read as it."""
    from rapidfuzz.distance import OSA

    def fixed(m: re.Match[str]) -> str:
        word = m.group(0)
        near = word not in _PROTOCOL and any(OSA.distance(word, p) <= 1 for p in _PROTOCOL)
        return "protocol" if near else word

    return re.sub(r"\bp[a-z]{6,9}\b", fixed, low)


def _bare_readings(text: str, low: str, ward: Ward) -> bool:
    """Readings typed alone, with or without the time they were taken ("TA 160/95 à 22h",
    "sats 94% on RA, rr 22"): ward shorthand for charting them (a card the clinician approves),
    unless it asks something (a plan: "her BP is 160/110 - what do I do"), names a drug or a
    test, or says more than a short line."""
    # a line of obs is as long as its readings ("NEWS 7 - obs: RR 26 sats 91 BP 95/60 HR 118 T
    # 38.9 confused"): each reading's word and value count beside the line's own words
    short = len(low.split()) <= _BARE_WORDS + 2 * len(ward.readings)
    return ("?" not in text and short and not find_drugs(_without_given(low))
            and not ward.tests and not _plan_words(low))


# a drug told as given in a clause of its own ("temp 39.1 at 2am, gave paracetamol", "BM 2.8,
# hypostop given", "febre 39, dei dipirona"): what was done, no order and no question
_GIVEN = re.compile(r"(?<![a-z])(?:gave|given|administered|donne|donnee|administre|dado|dada|"
                    r"dei|demos|administrado|administrada|se le dio|le di|le dimos)(?![a-z])")


def _without_given(low: str) -> str:
    """``low`` without its clauses that tell a drug as given. A drug ordered beside the readings
    keeps them its reason, uncharted ("PA 160/95, iniciar amlodipina 5 mg 1x/dia")."""
    return " , ".join(p for p in _CLAUSES.split(low) if p.strip() and not _GIVEN.search(fold(p)))


_BARE_WORDS = 10  # a line of readings' own words; a longer message is a note or a question


# the clauses of a message of several asks: a comma, a semicolon, a dash, "and", "then"
_CLAUSES = re.compile(r"\s*[,;]\s*|\s+[-\u2013\u2014]\s+|\s+(?:and|then|&|\+|plus)\s+", re.I)


def _bare_order(text: str, ward: Ward, window: Asked) -> bool:
    """A bare list of tests with a time or a priority ("bmp + mg in am", "NFS + iono demain à 7h",
    "stat trop"): an order, unless it asks something or states readings."""
    if "?" in text or _any("question_words").search(_low(text)):
        return False
    if ward.readings:
        # "stop the aspirin, inr tomorrow and chart bp 150/90": a clause of its own that holds
        # no reading still orders its timed test; a test beside the readings in one clause
        # ("BP 150/90, HR 88 today") orders nothing
        parts = [p for p in _CLAUSES.split(text) if p.strip()]
        return len(parts) > 1 and any(
            (part := read_ward(p)).tests and not part.readings and _bare_order(p, part, asked(p))
            for p in parts)
    # "mean glucose in mg/dL over the last 48h": a mean asked, not an order; "Mg within 24 hrs",
    # "serum Mg past 24h": a window of results already taken, asked about (an order's time is
    # ahead: "in am", "demain à 7h", "stat")
    if window.statistic is not None or window.thresholds:
        return False
    if window.window is not None and _any("past_window_words").search(_low(text)):
        return False
    if _any("results_of_day_words").search(_low(text)):
        return False  # "potássio e creatinina de hoje": the day's results asked
    low = _low(text)
    if set(ward.tests) <= _told_by_state(low):
        return False  # "hold the warfarin tonight, INR high": a result told, not ordered
    if ((problem := plan_problem(low)) and stated_value(low, problem) is not None
            and not read_ward(_without_value(low, problem)).tests):
        return False  # "on zappe la warfarine ce soir, INR à 3,4": the INR told, not ordered
    if _told_with_value(low):
        return False  # "la créatinine est à 1,8 ce matin": the result told, never an order
    if ward.timed and _holds(low):
        # "hold warfarin tonight - INR 3.4": tonight is the hold's, the INR its reason; "hold
        # warfarin tonight, INR tomorrow am" still times the INR
        return read_ward(_any("hold_time_words").sub(" ", low)).timed
    return ward.timed


# the words between a test and the value told for it ("la créatinine est à 1,8", "creat 1.8",
# "hb de 9,2", "creatinina em 1,9", "urea was 14")
_TOLD_BETWEEN = {"est", "a", "de", "is", "was", "at", "em", "en", "es", "e", "=", "of", "came",
                 "back", "now", "ce", "matin", "hoje", "hoy", "today"}


_CLOCK_BEFORE = {"at", "@", "a", "as", "las", "vers", "by"}
# a number that is no clock, span or dose ("7h", "6h30", "3 days", "40 mg" are not values)
_VALUE = re.compile(r"(?<![\d.,/:])(\d{1,4}(?:[.,]\d{1,2})?)(?![\d:/]|\s*(?:h\b|h\d|am\b|"
                    r"pm\b|heures?|horas?|hours?|hrs?|jours?|dias?|days?|semaines?|semanas?|weeks?|"
                    r"mois|meses|months?|fois|vezes|veces|times|mg\b|g\b|ml\b))")


def _told_with_value(low: str) -> bool:
    """A test named with a value right after it, no clock ("la créatinine est à 1,8 ce matin",
    "hb 9,2 ce matin", "creatinina em 1,9 hoje"): a result told. A time ("NFS demain à 7h",
    "iono 6h30") or a target ("INR demain, cible 2-3") is no value of the test."""
    for m in _VALUE.finditer(low):
        words = re.findall(r"[\w&+']+|=|@", low[:m.start()])[-5:]
        # a clock: "0600", or a whole hour after its word ("U&E at 6", "NFS à 7"); a value
        # after "at"/"à" has its decimal ("K at 5.6", "la créatinine est à 1,8")
        if re.fullmatch(r"[0-2]\d[0-5]\d", m.group(1)) or (
                words and words[-1] in _CLOCK_BEFORE and re.fullmatch(r"\d{1,2}", m.group(1))):
            continue
        while words and words[-1] in _TOLD_BETWEEN:
            words.pop()
        # the test's name ends right before the value: its last word alone, or its two words
        # when the first alone names none ("fonction rénale 45")
        if words and (read_ward(words[-1]).tests or (
                len(words) >= 2 and not read_ward(words[-2]).tests
                and read_ward(" ".join(words[-2:])).tests)):
            return True
    return False


def _told_by_state(low: str) -> set[str]:
    """The tests told with their state ("INR high", "k was low", "potasio alto"): each is the
    word or two just before a state word, read as a test by the ward's table."""
    told: set[str] = set()
    for m in _any("result_state_words").finditer(low):
        before = re.findall(r"[\w&]+", low[:m.start()])[-3:]
        while before and before[-1] in {"is", "was", "est", "esta", "et", "e", "y", "are"}:
            before.pop()
        told.update(read_ward(" ".join(before[-2:])).tests)
    return told


def _holds(low: str) -> bool:
    """A drug held ("hold warfarin tonight", "segura a varfarina hoje à noite", "suspends la
    warfarine ce soir"): a drug named after a word of stopping or holding it, said as a hold."""
    low = _any("further_notice_words").sub(" ", low)  # "until further notice": no hold
    return bool((says_hold(low) or _any("hold_time_words").search(low)) and stopped_drugs(
        low, [(str(d.name), d.surface) for d in find_drugs(low) if d.name]))


def workflow_of(text: str) -> Workflow:
    """A message's workflow words, read once: the switch said in full, the problem a plan names
    and the value stated for it, the protocol named and the interval of its re-order, whether
    only the care gaps' labs are ordered and a surgery's bleeding risk is low."""
    low = _low(text)
    parts = switch_parts(low)
    problem = plan_problem(low)
    if problem == "low_glucose" and stated_value(low, problem) is None and not _HYPO.search(low):
        problem = None  # "Plan prednisolone … recheck his sugars": no low glucose is planned
    changed = None if parts else dose_change(
        low, [(str(d.name), d.surface) for d in find_drugs(low) if d.name])
    protocol = protocol_named(text)
    # "K 3.1 today, give kcl?": its low value told and the replacement asked is its plan
    replacing = bool(protocol and replacement_asked(low)
                     and protocol_stated_value(low, protocol) is not None)
    return Workflow(
        switch=Switch(**parts) if parts else None,
        dose_change=changed,
        stop=None if parts or changed else stop_of(low),
        problem=problem,
        stated_value=stated_value(low, problem) if problem else None,
        stated_unit=stated_unit(low, problem) if problem else None,
        protocol=protocol,
        protocol_value=protocol_stated_value(low, protocol) if protocol else None,
        protocol_unit=protocol_stated_unit(low, protocol) if protocol else None,
        older_than_days=_interval(text),
        labs_only=bool(_any("labs_only_words").search(low)),
        low_bleeding=bool(_any("low_bleeding_words").search(low)),
        bleeding=bleeding_said(low),
        plan_asked=(_plan_words(low) or _told_in_alarm(low, problem) or replacing)
        and not _any("plan_unless_words").search(low) and (replacing or not _starts_a_drug(low)),
    )


# a verb of charting (the record words less those that only tell when it was taken: "just now",
# "just measured")
_CHARTING = re.compile(r"(?<![a-z])(?:record\w*|chart(?:ed)?|document|log|note down|write down|"
                       r"noter|note|enregistr\w*|consigner|saisir|registr\w*|regist[ae]\w*|"
                       r"anot\w*|apunt\w*|documentar)(?![a-z])")


# a low glucose named as such ("hypo protocol?", "hypos", "hypoglycaemia", "hipoglicemia"), never
# another "hypo-" ("hypotension", "hypothyroid")
_HYPO = re.compile(r"(?<![a-z])(?:hypos?|hypoglyc\w*|hipos?|hipoglic\w*|hipogluc\w*)(?![a-z])")


def stop_of(low: str) -> str | None:
    """The drug an instruction stops ("stop the aspirin", "d/c omeprazole", "arrête
    l'amlodipine", "suspender o AAS"); None for a hold ("hold warfarin tonight"), a stop denied
    ("don't stop the aspirin"), one waiting on a condition ("stop it if she bleeds") or asked."""
    low = _any("further_notice_words").sub(" ", low)  # "until further notice": a stop for now
    taken_off = re.sub(r"\b(?:take|get)\s+(?:him|her|them)\s+off\b", " ", low)
    if (says_hold(low) or _any("stop_unless_words").search(low) or _starts_a_drug(taken_off)
            or _any("hold_time_words").search(low)):
        return None  # "stop lisinopril, start labetalol 100 bd": a switch's, never a stop alone
    named = [(str(d.name), d.surface) for d in find_drugs(low) if d.name]
    stopped = stopped_drugs(low, named) or _para_stopped(low, named) or _opener_stopped(low, named)
    return stopped[0] if stopped else None


def _para_stopped(low: str, named: list[tuple[str, str]]) -> tuple[str, ...]:
    """The Brazilian imperative "para" (stop) opening a message or a clause, its drug named
    alone after it ("para o AAS dele", "para a metformina, tá com TFG baixa", "para a
    metformina de vez"): a stop. "para"
    is also the preposition "for", so the drug must end the clause, with at most her possessive
    ("para o potássio baixo, KCl xarope", "amoxicilina para a otite" stop nothing)."""
    return tuple(name for name, surface in named if _para_before(surface).search(low))


@lru_cache(maxsize=1024)
def _para_before(surface: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?:^|[,;.!:]\s*)para\s+(?:(?:o|a|os|as)\s+)?{re.escape(surface)}"
        r"(?:\s+(?:dele|dela|deles|delas|do paciente|da paciente|do senhor|da senhora))?"
        # ... and for good ("para a metformina de vez, TFG baixou")
        r"(?:\s+(?:de vez(?: por todas)?|definitivamente))?"
        r"\s*(?:[,;.!-]|$)")


def _opener_stopped(low: str, named: list[tuple[str, str]]) -> tuple[str, ...]:
    """"No more" opening a message or a clause, its drug ending the clause ("plus de Kardégic
    pour lui, INR à 3,4", "chega de AAS pra ele"): a stop (``stop_openers``). Asked ("plus de
    Kardégic ?") or in the middle of a clause ("un peu plus de furosémide") it stops nothing."""
    if "?" in low:
        return ()
    return tuple(name for name, surface in named if _opened_by_stop(surface).search(low))


@lru_cache(maxsize=1024)
def _opened_by_stop(surface: str) -> re.Pattern[str]:
    openers = "|".join(sorted((re.escape(fold(w)) for w in _rules()["stop_openers"]), key=len,
                              reverse=True))
    return re.compile(
        rf"(?:^|[,;.!:]\s*)(?:{openers})\s+(?:(?:le|la|les|l'|o|a|os|as|el|los|las|the)\s*)?"
        rf"{re.escape(surface)}"
        r"(?:\s+(?:pour lui|pour elle|chez lui|chez elle|dele|dela|pra ele|pra ela|para ele|"
        r"para ela|para el|para ella|for him|for her))?\s*(?:[,;.!-]|$)")


def _told_in_alarm(low: str, problem: str | None) -> bool:
    """A problem's value told in alarm, with no question and no drug ("K+ 6.2 on gas!!",
    "INR 7.9 - lab just called"): its plan is what the clinician needs."""
    return bool(problem and stated_value(low, problem) is not None and "?" not in low
                and _past_a_low_plan(low, problem)
                and not find_drugs(_without_value(low, problem))
                and ("!" in low or _any("told_alarm_words").search(low)
                     or _told_alone(low, problem)))


def _past_a_low_plan(low: str, problem: str) -> bool:
    """A low value's plan is told only a value below its threshold ("glucose 2.9 this am"); a
    value in range told alone ("glucose 5.4 this am") is her result, never a plan's."""
    plan = plans.table()[problem]
    value = stated_value(low, problem)
    if "low_at" not in plan or value is None:
        return True
    return plans.beyond(plan, plans.stated(plan, value, stated_unit(low, problem))[0])


_CLOCK = re.compile(r"(?<![\w.,])(?:[0-2]\d[0-5]\d|\d{1,2}(?:[:h.]\d{2}|h)?)\s*(?:am|pm|h|hrs)?"
                    r"(?![\w.,])")


def _told_alone(low: str, problem: str) -> bool:
    """Nothing said but the problem's value and when or where it was taken ("K 3.2 this am",
    "kaliémie 3,1 ce matin à 6h"): the value is told for what it needs."""
    without = _without_value(low, problem)
    rest = _any("told_alone_words").sub(" ", without)
    return without != low and not re.sub(r"[\W_]+", "", _CLOCK.sub(" ", rest))


def _told_for_protocol(low: str, workflow: Workflow) -> bool:
    """A replacement protocol's result told with nothing else but when it was taken or its
    alarm ("magnesium 0.5 this morning", "Mg 0.5", "magnesio 0,5 urgente"): its protocol."""
    low = _without_plan_asked(low)  # "Mg 0,5 mmol/L, ¿qué hacemos?": the plan is its protocol
    if workflow.protocol is None or workflow.protocol_value is None or "?" in low:
        return False
    words = "|".join(re.escape(w) for w in sorted(_protocol_words()[workflow.protocol], key=len,
                                                   reverse=True))
    m = re.search(rf"(?<![a-z0-9])(?:{words}|k\+?|mg)(?![a-z0-9])\s*(?:{_STATED})?\s*"
                  r"\d{1,2}(?:[.,]\d{1,2})?(?![\d]|[.,]\d)(?:\s*(?:mmol/l|mmol|meq/l|mg/dl))?", low)
    if not m:
        return False
    rest = low[:m.start()] + " " + low[m.end():]
    rest = _any("told_alarm_words").sub(" ", _any("told_alone_words").sub(" ", rest))
    return not re.sub(r"[\W_]+", "", _CLOCK.sub(" ", _without_told_start(rest)))


def _without_plan_asked(low: str) -> str:
    """``low`` without the words asking a plan and their question mark ("magnesio 0,5 mmol/L en
    la analítica de hoy, ¿qué hacemos?", "Mg 0.5 - what to do?"): the result stays told, and a
    replacement protocol is the plan held for it; a question of the value itself ("Mg 0.5 in
    the last 24h?") keeps its mark."""
    # "K 6.2 - protocol?", "Mg 0,5 : protocole ?": the protocol asked for the value told
    low = _PROTOCOL_ASKED.sub(r"\1 ", low)
    if not _any("plan_words").search(low) and not replacement_asked(low):
        return low
    return re.sub(r"[?\u00bf]", " ", _any("plan_words").sub(" ", low))


# ... and the replacement asked in one word ("mg 0.5, replace?", "K 3.2 - replete?", "Mg 0,5,
# reponer?", "magnésium 0,5 : on remplace ?")
_PROTOCOL_ASKED = re.compile(r"(?<![a-z])(protocol[eo]?s?|replace|replete|top (?:it |her |him )?"
                             r"up|supplement|reponer|repongo|repor|reponho|repomos|remplacer|"
                             r"on remplace|corriger|corrigir|corregir|corrijo)\s*\?")


# the small words between a verb of giving and the replacement ("give him some oral kcl?", "le
# doy el KCl?", "je lui donne du potassium ?")
_GIVEN_FILL = (r"(?:(?:some|more|oral|po|iv|him|her|them|el|la|los|del|de|du|des|lui|o|a|um|uma|"
               r"un|una|une|mais|plus|mas)\s+)*")


def replacement_asked(low: str) -> bool:
    """A replacement protocol's own drug asked with a verb of giving, as a question ("give
    kcl?", "le doy KCl?", "dou KCl?", "je lui donne du potassium ?"); with its analyte's low value
    told beside it, whether to replace is asked (``workflow_of``)."""
    return _replacement_asked().search(low) is not None


@lru_cache(maxsize=1)
def _replacement_asked() -> re.Pattern[str]:
    """``replacement_asked``'s pattern, compiled once: it is read several times a message."""
    giving = "|".join(sorted(_rules()["replacement_giving_words"], key=len, reverse=True))
    drug = "|".join(sorted(_rules()["replacement_words"], key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{giving})\s+{_GIVEN_FILL}(?:{drug})(?![a-z0-9])"
                      r"[^?.;]{0,30}\?")


def _without_told_start(rest: str) -> str:
    """``rest`` without a drug told as started ("started on furosemide", "commencé sous
    furosémide"): told, not ordered, so the result beside it still asks its protocol, and the
    drug is checked as named. A replacement told as started ("started on oral KCl") is kept,
    so the protocol never replaces again what was already given."""
    m = _any("told_start_words").search(rest)
    if not m or _any("replacement_words").search(rest[m.end():]):
        return rest
    return rest[:m.start()]


def value_drugs_out(text: str, drugs: list[Any], flow: Workflow | None = None) -> list[Any]:
    """``drugs`` less those whose word states a problem's value told in alarm ("potassium 2.9 -
    urgent": potassium is the result asked a protocol for, never a drug to check)."""
    low = _low(text)
    problem = plan_problem(low)
    flow = flow if flow is not None else workflow_of(text)  # read once by extraction
    if flow.protocol and _told_for_protocol(low, flow):
        # "magnesium 0.5 this morning": the result its protocol is for, never a drug to check
        return [d for d in drugs if fold(d.surface).lower() not in _protocol_words()[flow.protocol]
                and fold(d.surface).lower() not in ("mg", "k", "k+")]
    # told in alarm ("potassium 2.9 - urgent"), or with its plan asked ("potassium 3.3 - what
    # do you suggest?"): the analyte's word is the result's
    # ... or with its replacement asked ("potassium 2.9 - urgent, give kcl?": KCl is checked,
    # potassium is the result)
    if not problem or not (_told_in_alarm(low, problem) or (
            stated_value(low, problem) is not None
            and (_plan_words(low) or replacement_asked(low)))):
        return drugs
    kept = _without_value(low, problem)
    return [d for d in drugs if re.search(rf"(?<![a-z]){re.escape(fold(d.surface).lower())}"
                                          r"(?![a-z])", kept)]


def _without_value(low: str, problem: str) -> str:
    """``low`` without the analyte's word and the value stated for it, when no dose unit follows
    ("potassium 2.9 - urgent": potassium is the result, no drug; "potassium chloride 40 mmol!" and
    "potassium 40 meq" stay a drug)."""
    words = "|".join(_rules()["plan_problems"][problem])
    m = re.search(rf"(?<![a-z0-9])(?:{words})(?![a-z0-9])\s*(?:{_STATED})?\s*"
                  r"\d{1,2}(?:[.,]\d{1,2})?(?![\d])(?!\s*(?:mmol|meq|mg|g|ml|mcg|ug)\b)", low)
    return low[:m.start()] + " " + low[m.end():] if m else low


def her_problem(workflow: Workflow, text: str, chart: ChartInContext) -> Workflow:
    """A plan asked for her problems as a whole, naming none ("problem list + plan"): the
    problem her chart holds above its plan's threshold (its latest result; a drug the plan is
    for on her list), so the raised value is planned, never answered "no plan held"."""
    if not workflow.plan_asked or workflow.problem or not _any("whole_plan_words").search(
            _low(text)):
        return workflow
    for problem, plan in plans.table().items():
        latest = [r for r in (*chart.results, *chart.vitals)
                  if r.analyte.lower() == str(plan["analyte"]).lower()]
        drug = plan.get("drug")
        if drug and drug not in chart.drugs:
            continue
        if latest and plans.beyond(plan, max(latest, key=lambda r: r.taken).value):
            return replace(workflow, problem=problem)
    return workflow


def whole_plan_asked(workflow: Workflow, text: str) -> bool:
    """A plan asked for her problems as a whole ("problem list + plan"): her list is reviewed
    beside her problems, so a drug one of them contraindicates (lisinopril in pregnancy) or a
    pair on her list (warfarin with aspirin) is said with the problems, and a problem beyond a
    plan's threshold (a high INR) has its plan drafted beside them."""
    return workflow.plan_asked and bool(_any("whole_plan_words").search(_low(text)))


def bleeding_said(low: str) -> bool:
    """Bleeding said, not denied: "INR 9 with melaena" yes, "INR 5, no bleeding" and "sans
    saignement" no (a negation just before the bleeding word, or one word before it)."""
    negations = "|".join(_rules()["bleeding_negations"])
    for m in _any("bleeding_words").finditer(low):
        before = " ".join(low[:m.start()].split()[-3:])
        # "no bleeding", "no active bleeding"; never across a comma or a "but" ("not on
        # aspirin, bleeding PR", "no melaena but haematuria" are bleeding)
        if re.search(rf"(?<![a-z])(?:{negations})(?:\s+(?!but\b|mais\b|mas\b|pero\b)[a-z]+)?"
                     r"\s*$", before):
            continue
        # a risk weighed ("bleeding risk", "risk of bleeding", "risco de sangramento") is no bleed
        if re.match(r"\s*risks?\b", low[m.end():]) or re.search(r"\bris(?:k|que|co|go)s?\s+"
                                                               r"(?:of|de|d'|du)\s*$", before):
            continue
        return True
    return False


def workflow_actions(low: str, workflow: Workflow) -> list[str]:
    """``periop``, ``switch``, ``reconcile``, ``order_gaps``, ``care_gaps`` or ``plan``: a surgery
    date's plan, a drug switch, what the patient takes, care gaps asked or ordered, a problem's
    plan ("K is 5.6 — what should I do?"); the words are ``ward`` in rules.yaml."""
    # a date with its month, or the antithrombotic asked of ("surgery friday - his warfarin?",
    # "does he need bridging for his op?": without a date the tool asks it)
    if _any("periop_words").search(low) and (
            periop.surgery_date(low, date.today(), month_said=True) or _periop_asked(low)):
        return ["periop"]
    if workflow.switch:  # switch words, or an order beside the stop of the drug it replaces
        return ["switch"]
    if workflow.dose_change:  # "increase amlodipine to 10mg od": the order on her list changes
        return ["change_dose"]
    asked = "?" in low or _any("question_words").search(low) or _any("asking_words").search(
        low)  # "he takes marevan, can he take ibuprofen?", "mum is asking if she can give …"
    if _any("reconcile_words").search(low) and not asked and (
            find_drugs(low) or _any("nothing_else_words").search(low)):
        return ["reconcile"]
    if workflow.stop:  # "stop the aspirin": her order of it stopped, on approval
        return ["stop"]
    if _any("gap_order_words").search(low):
        return ["order_gaps"]
    # "¿le toca HbA1c según el protocolo?": the site's protocol named decides, not the care
    # programme the due test alone would ask
    if _any("care_gap_words").search(low) and not _any("protocol_named").search(low):
        return ["care_gaps"]
    if _any("plan_unless_words").search(low) or _starts_a_drug(low):
        return []
    if workflow.problem == "high_inr" and workflow.bleeding:
        return ["plan"]  # bleeding on warfarin is planned whether or not a plan is asked
    if _high_inr_told(low, workflow):
        return ["plan"]  # "INR 5.2 no bleed": the value and the bleeding, said for a plan
    if _told_in_alarm(low, workflow.problem):
        if low_for_protocol(workflow):
            return ["protocol"]  # "K 3.1!": a low value told in alarm, its replacement protocol
        return ["plan"]  # "K+ 6.2 on gas!!": the value told in alarm, for its plan
    if workflow.problem and _plan_words(low):
        # "K 3.1, plan?": a value below the replacement protocol's threshold is planned by that
        # protocol, never by the raised-value plan of the same analyte
        return ["protocol"] if low_for_protocol(workflow) else ["plan"]
    return []


def low_for_protocol(workflow: Workflow) -> bool:
    """The value stated for a raised-value plan's analyte is below the low threshold of the
    site's replacement protocol for the same analyte ("K 3.1!": potassium below 3.5): the
    replacement protocol is what it needs, never the raised-value plan."""
    if workflow.problem is None or workflow.stated_value is None or not workflow.protocol:
        return False
    protocol = protocols.load(str(protocols.DEFAULT)).get(workflow.protocol, {})
    analyte = plans.table().get(workflow.problem, {}).get("analyte")
    return (protocol.get("kind") == "replace" and protocol.get("analyte") == analyte
            and workflow.stated_value < float(protocol["low_below"]))


def _high_inr_told(low: str, workflow: Workflow) -> bool:
    """A high INR told with whether she bleeds, and nothing else ("INR 5.2 no bleed", "INR 6,
    pas de saignement"): what the plan is asked from; never a drug's bleeding risk asked ("INR
    2.5 - bleeding risk with aspirin?") nor an INR in range."""
    if workflow.problem != "high_inr" or (workflow.stated_value or 0) <= _INR_RANGE_TOP:
        return False
    said = _any("bleeding_words").search(low)
    return bool(said and not re.match(r"\s*risks?\b", low[said.end():]) and not find_drugs(low))


_INR_RANGE_TOP = 3.0  # the usual target range's top (2-3): above it an INR is high


def _plan_words(low: str) -> bool:
    """A plan asked: its words, or the next dose asked with no drug named ("give tonight's dose
    or not?"; "hold the warfarin?" is the warfarin's check, in every language)."""
    return bool(_any("plan_words").search(low)) or bool(
        _any("next_dose_words").search(low) and not find_drugs(low))


_STARTS = re.compile(r"\b(?:start|starting|commence|begin|initiate|add|give|rx|commencer|"
                     r"debuter|iniciar|comecar|empezar|"
                     # a drug asked for her beside the problem ("family asking whether she can
                     # have ibuprofen - thoughts?", "si elle peut prendre de l'ibuprofène"): the
                     # drug is checked, never lost to the problem's plan
                     r"have|take|use|prendre|donner|tomar|dar|usar|utiliser)\s+"
                     r"(?:(?:de|du|des|d'|la|le|l'|o|a|el|un|une|um|uma|some)\s*)?")


def _starts_a_drug(low: str) -> bool:
    """The clinician's own plan starts a drug ("Plan: start clarithromycin 500 bd, CXR, repeat
    INR thurs."): that order is carded and checked, never replaced by a problem's plan."""
    return any(find_drugs(low[m.end():m.end() + 30]) for m in _STARTS.finditer(low))


_DOSE = re.compile(r"(\d+(?:[.,]\d+)?)\s*(mg|mcg|micrograms?|g|units?|ml)?\b\s*(.{0,40})")


def _dose_after(low: str, start: int) -> re.Match[str] | None:
    """The switch's dose after ``start``: a number with its unit, or a bare number a frequency
    follows ("apixaban 5 bd": 5 mg)."""
    for m in _DOSE.finditer(low, start):
        if m.group(2) or frequency.written(m.group(3).split(",")[0]):
            return m
    return None


def switch_parts(low: str) -> dict[str, str] | None:
    """The new drug (after the switch words), its dose and frequency, and the drug it replaces
    when said ("from lisinopril"); None unless a drug, a dose and a frequency are all said."""
    at = _any("switch_words").search(low)
    if at is None:
        return _stop_and_start(low)
    dose = _dose_after(low, at.end()) if at else None
    after = find_drugs(low[at.end():]) if at else []
    if not (at and dose and after and after[0].name and dose.group(3).strip(" .,;")):
        return None
    said = _any("switch_from_words").search(low)
    # "switch warfarin to apixaban": the drug between the switch and its "to" is replaced
    before = [d for d in find_drugs(low[said.end():] if said else at.group(0)) if d.name]
    frequency = re.split(r"[.;!?]| from | instead of ", dose.group(3))[0].strip(" ,")
    found = {
        "new_drug": str(after[0].name) + _release_after(low, after[0].surface),
        "dosage": f"{dose.group(1)} {dose.group(2) or 'mg'}",
        "frequency": frequency,
    }
    return (
        {**found, "replaces": str(before[0].name)}
        if before and before[0].name != after[0].name
        else found
    )


def _release_after(low: str, surface: str) -> str:
    """The release form said right after the new drug ("nifedipine MR 30 od"): " MR", kept on
    the card as a plain order keeps it (an immediate-release tablet once daily is another
    order); "" when none."""
    from .order_lines import RELEASE

    m = re.search(rf"(?<![a-z]){re.escape(surface)}\s+({RELEASE})(?![a-z])", low)
    return f" {m.group(1).upper()}" if m else ""


# where the frequency said after a dose ends: a clause, or the drug it takes the place of
_FREQUENCY_ENDS = re.compile(r"[.;!?,]| and | then |\s(?:instead of|in place of|rather than|"
                             r"au lieu|a la place|em vez|no lugar|en vez|en lugar)\b")


def _periop_asked(low: str) -> bool:
    """An antithrombotic asked of beside a surgery, without its date ("does he need bridging for
    his op?", "anticoag plan for surgery friday?", "pre-op: on warfarin, surgery tomorrow"):
    asked, never a referral's history ("refer to orthopedic surgery … on clopidogrel" orders the
    referral)."""
    return bool(_any("periop_asked_words").search(low)
                and ("?" in low or _plan_words(low) or re.search(r"\b(?:pre|peri)-?op\b", low))
                and not re.search(r"(?<![a-z])(?:refer\w*|encaminh\w*|referenc\w*|adress\w*)", low))


def _stop_and_start(low: str) -> dict[str, str] | None:
    """A switch said as an order and a stop ("labetalol 200 bd and stop the lisinopril", "stop
    the metformin, start gliclazide 40 od"): the new drug with its dose and frequency, and the
    one drug stopped, which it replaces; None for a question or anything less."""
    timed_hold = _any("timed_hold_words").search(low) and _any("hold_times").search(low)
    if (says_hold(low) or _any("hold_words").search(low) or timed_hold
            or _any("beside_words").search(low)):
        # "give vit K 1mg po and hold warfarin", "hold tonight's warfarin … also starting
        # fluconazole": a hold ends no order, and a drug added beside it replaces nothing
        return None
    mentions = [d for d in find_drugs(low) if d.name]
    named = [(str(d.name), d.surface) for d in mentions]
    # "labetalol 100 bd instead of the lisinopril": the drug it takes the place of is replaced
    stopped = stopped_drugs(low, named) or (replaced_drugs(low, named) if "?" not in low else ())
    started = [d for d in mentions if d.name not in stopped]
    if len(stopped) != 1 or len(started) != 1:
        return None
    dose = _dose_after(low, low.find(started[0].surface) + len(started[0].surface))
    if dose is None or not dose.group(3).strip(" .,;"):
        return None
    frequency_said = _FREQUENCY_ENDS.split(dose.group(3))[0].strip(" ,")
    new = str(started[0].name) + _release_after(low, started[0].surface)
    return {"new_drug": new, "dosage": f"{dose.group(1)} {dose.group(2) or 'mg'}",
            "frequency": frequency_said, "replaces": stopped[0]}


def plan_problem(low: str) -> str | None:
    """The problem a plan request names (its words in ``plan_problems``), or None."""
    for key, words in _rules()["plan_problems"].items():
        if re.search(rf"(?<![a-z0-9])(?:{'|'.join(words)})(?![a-z0-9])", low):
            return str(key)
    return None


# the words between a result's name and the value said for it ("potassium came back 6.1", "INR
# now 4.8", "K+ ce matin 6,1"); never a time ahead ("potassium in 3 days" states nothing)
_STATED = (r"is now|is|'s|\u2019s|of|at|=|:|was|a|est|e|es|de|came back(?: at| as)?|back at|"
           r"now(?: at)?|today|"
           r"this (?:am|morning)|rose to|up to|has risen to|ce matin|aujourd'?hui|hoje|hoy|"
           # "potasio en 3,1", "le salió en 3,1", "potássio em 3,2": "en"/"em" before a decimal
           # only ("potasio en 48 horas", "K em 2 dias" state none)
           r"(?:(?:salio|vino|dio|sale)\s+)?(?:en|em)(?=\s*\d{1,2}[.,]\d)|revenue?\s+a|"
           # "o INR veio 4,2, e agora?", "deu 3,1": come back at, before a decimal only
           r"(?:veio|deu|saiu|vino|salio|dio)(?:\s+(?:de|a))?(?=\s*\d{1,2}[.,]\d)")


def stated_value(low: str, problem: str) -> float | None:
    """The value the clinician states for the problem ("K is 5.6", "INR 3.4", "kaliémie à 6,1")."""
    words = "|".join(_rules()["plan_problems"][problem])
    m = re.search(rf"(?<![a-z0-9])(?:{words})(?![a-z0-9])\s*(?:{_STATED})?\s*"
                  r"(\d{1,2}(?:[.,]\d{1,2})?)(?![\d])", low)
    return float(m.group(1).replace(",", ".")) if m else None


def stated_unit(low: str, problem: str) -> str | None:
    """The unit said right after the problem's stated value ("glucose 2.9 mmol/L", "glycémie
    0,5 g/l", "glicemia 50 mg/dl"), as the analyte table writes it; None when none is said."""
    words = "|".join(_rules()["plan_problems"][problem])
    m = re.search(rf"(?<![a-z0-9])(?:{words})(?![a-z0-9])\s*(?:{_STATED})?\s*"
                  r"\d{1,2}(?:[.,]\d{1,2})?\s*(mmol\s*/\s*l|mg\s*/\s*dl|g\s*/\s*l)\b", low)
    return _UNITS[re.sub(r"\s", "", m.group(1))] if m else None


# a value asked or supposed, never stated: a question, a condition, a window it is sought in
_STATED_UNLESS = re.compile(r"\?|(?<![a-z])(?:if|si|se|caso|in the (?:last|past)|within|over the "
                            r"last|dans les|sur les|nas? ultimas?|en las ultimas)(?![a-z])")


def protocol_stated_value(low: str, protocol: str) -> float | None:
    """The result stated for a replacement protocol's analyte ("K 3.2 on the gas - K protocol",
    "Mg 0.5 this am - replace per protocol"): its words, then the value; None when none is."""
    table = protocols.load(str(protocols.DEFAULT))
    if (table.get(protocol, {}).get("kind") != "replace"
            or _STATED_UNLESS.search(_without_plan_asked(low))):
        return None  # "K 3.3 in the past 36 hours? if so replete": a threshold asked, not a value
    words = "|".join(re.escape(w) for w in sorted(_protocol_words()[protocol], key=len,
                                                   reverse=True))
    m = re.search(rf"(?<![a-z0-9])(?:{words}|k\+?|mg)(?![a-z0-9])\s*(?:{_STATED})?\s*"
                  # a dose's unit after it is no result ("potassium 40 mmol"); a concentration's
                  # is ("Mg 0.5 mmol/L", "magnesium 1.2 mg/dL")
                  # a comma or point typed after it is punctuation ("potasio 3,1, ¿qué
                  # sugieres?"), never more of the number
                  r"(\d{1,2}(?:[.,]\d{1,2})?)"
                  r"(?![\d]|[.,]\d|\s*(?:mg(?!\s*/\s*dl)|g|meq(?!/)|mmol(?!/)|ml|h|hours?)\b)", low)
    return float(m.group(1).replace(",", ".")) if m else None


_UNITS = {"mmol/l": "mmol/L", "mmol": "mmol/L", "mg/dl": "mg/dL", "meq/l": "mEq/L",
          "meq": "mEq/L", "mg/l": "mg/L", "g/l": "g/L"}


def protocol_stated_unit(low: str, protocol: str) -> str | None:
    """The unit said right after the protocol's stated value ("Mg 0.5 mmol/L", "magnésium à
    0,7 mmol/l", "K 3.1 mEq/L"), as the analyte table writes it; None when none is said."""
    if protocol_stated_value(low, protocol) is None:
        return None
    words = "|".join(re.escape(w) for w in sorted(_protocol_words()[protocol], key=len,
                                                   reverse=True))
    m = re.search(rf"(?<![a-z0-9])(?:{words}|k\+?|mg)(?![a-z0-9])\s*(?:{_STATED})?\s*"
                  r"\d{1,2}(?:[.,]\d{1,2})?\s*(mmol\s*/\s*l|mg\s*/\s*dl|meq\s*/\s*l|mg/l)\b", low)
    return _UNITS[re.sub(r"\s", "", m.group(1))] if m else None


def arguments(tool: str, request: Request, patient: str) -> dict[str, Any] | None:
    """The write tool's arguments from the request, when its words fix them (each read once,
    into the request: ``request.ward``, ``request.workflow``)."""
    message, ward, flow = request.message, request.ward, request.workflow
    if tool in ("review_care_gaps", "order_care_gaps"):
        gap_args: dict[str, Any] = {"patient_id": patient}
        if tool == "order_care_gaps":
            gap_args["labs_only"] = flow.labs_only
        return gap_args
    if tool == "periop_plan":
        return {"patient_id": patient, "surgery": message[:200],
                "bleeding_risk": "low" if flow.low_bleeding else "high"}
    if tool == "switch_medication":
        switch = flow.switch
        return {"patient_id": patient, **_switch_args(switch)} if switch else None
    if tool == "change_dose":
        change = flow.dose_change
        return {"patient_id": patient, "medication_name": change.drug, "dosage": change.dosage,
                "frequency": change.frequency} if change else None
    if tool == "stop_medication":
        return {"patient_id": patient, "medication_name": flow.stop} if flow.stop else None
    if tool == "reconcile_medications":
        return {"patient_id": patient, "statement": " ".join(message.split())[:400]}
    if tool == "plan_problem":
        bled = {"bleeding": True} if flow.bleeding else {}  # said only when bleeding is said
        unit = {"stated_unit": flow.stated_unit} if flow.stated_unit else {}
        return {"patient_id": patient, "problem": flow.problem, "stated_value": flow.stated_value,
                **bled, **unit} if flow.problem else None
    if tool == "apply_protocol":
        return (
            {"patient_id": patient, "protocol": flow.protocol,
             "older_than_days": flow.older_than_days,
             # the window said anywhere in the message, asked of a result or not ("K 3.3 in
             # the past 36 hours? if so replete per protocol")
             "within_hours": _window_hours(request.window.window
                                           or asked(request.understood).window),
             "recheck_when": _recheck_when(message, ward),
             # "K 3.2 on the gas - K protocol": the value stated (said only then); "K 3.1,
             # plan?": the value the plan was asked for, below the protocol's threshold
             **({"stated_value": flow.protocol_value} if flow.protocol_value is not None
                else {"stated_value": flow.stated_value}
                if flow.plan_asked and low_for_protocol(flow) else {}),
             **({"stated_unit": flow.protocol_unit} if flow.protocol_unit else {}),
             # "give per protocol, no recheck needed": the replacement alone (said only then)
             **({"without_recheck": True} if amendments.refuses_recheck(message) else {})}
            if flow.protocol
            else None
        )
    # a reading given in reply to the question asked for it ("118/72" after "record a BP") is
    # read with the request it completes
    said = request.understood if tool == "record_vital_sign" else message
    return _ward_arguments(tool, ward, said, patient)


@lru_cache(maxsize=1)
def _recheck_words() -> re.Pattern[str]:
    words = sorted(ward_words.table()["recheck_time_words"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(w) for w in words)})(?![a-z])")


def _recheck_when(message: str, ward: Ward) -> str | None:
    """The time words said after the paired recheck's word ("replace per protocol, redraw
    tomorrow at 6am": "tomorrow at 6am"); None when the time said is not the recheck's ("give K
    at 10am, recheck tomorrow" leaves the protocol's time) or no time is said."""
    if not ward.when:
        return None
    low, said = fold(message).lower(), fold(ward.when).lower()
    word = _recheck_words().search(low)
    return ward.when if word and said in low[word.end():] else None


def _window_hours(window: str | None) -> int | None:
    """"24h" → 24, "3d" → 72: the window a protocol's result was asked in; None for none, or for
    "today" / "since yesterday" (a replacement's own window stands)."""
    m = re.fullmatch(r"(\d+)(h|d)", window or "")
    return int(m.group(1)) * (24 if m.group(2) == "d" else 1) if m else None


def _switch_args(switch: Switch) -> dict[str, str]:
    """The switch tool's arguments, the drug replaced only when said."""
    found = {"new_drug": switch.new_drug, "dosage": switch.dosage, "frequency": switch.frequency}
    return {**found, "replaces": switch.replaces} if switch.replaces else found


def _ward_arguments(tool: str, ward: Ward, message: str, patient: str) -> dict[str, Any] | None:
    """A lab order, a referral or a vital sign: the ward's words as the request read them."""
    if tool == "order_lab_test":
        when = ward.when[:120] if ward.when else None  # the time words lead; the rest is the list
        return {"patient_id": patient, "test": " and ".join(ward.tests), "when": when,
                "priority": ward.priority} if ward.tests else None
    if tool == "refer_patient":
        if not ward.specialties:
            return None
        return {"patient_id": patient, "specialty": ward.specialties[0],
                "reason": ward.referral_reason, "note": ward.referral_note,
                "priority": ward.priority}
    if tool == "record_vital_sign":
        taken = ward.taken.words() if ward.taken else None
        return {"patient_id": patient, "reading": message[:200],
                "taken": taken} if ward.readings else None
    return None


_DAYS = {"year": 365, "month": 30, "week": 7, "day": 1}


@lru_cache(maxsize=1)
def _interval_words() -> tuple[re.Pattern[str], dict[str, int], dict[str, str]]:
    """The "older than" words, the counts and the units of every language (``rules.yaml``)."""
    said = _rules()["interval"]
    counts, units = said["counts"], said["units"]
    pattern = re.compile(
        rf"(?:(?<![a-z])(?:{'|'.join(said['more_than'])})|>) ?"
        rf"({'|'.join(sorted(counts, key=len, reverse=True))}|\d+) ?"
        rf"({'|'.join(sorted(units, key=len, reverse=True))})(?![a-z])"
    )
    return pattern, counts, units


def _interval(message: str) -> int | None:
    """"older than 6 months", "plus d'un an", "más de 12 meses" → days (a year is 365, a month
    30); None when unsaid."""
    pattern, counts, units = _interval_words()
    m = pattern.search(_low(message))
    if not m:
        return None
    n, unit = counts.get(m.group(1)) or int(m.group(1)), units[m.group(2)]
    return 365 * (n // 12) if unit == "month" and n % 12 == 0 else n * _DAYS[unit]
