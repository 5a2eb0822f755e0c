"""A follow-up that changes the pending lab order's time or the pending referral's specialty.

"make that 6am instead" after "potassium tomorrow 8am", "plutôt à 7h", "mejor a las 6" re-draft
the lab order at the new time (on the card's day, unless the follow-up names its own); "actually
nephrology, not cardio", "na verdade nefrologia" re-draft the referral for the specialty said.
"same again on friday", "repeat it monday", "otra vez el lunes" after a lab order draft the same
tests again at the new time, beside the card (two orders, both pending).
The new card is drafted from what the card was drafted from (``PendingCard.request``) with the
one field changed, and supersedes it (one card pending). A follow-up that makes a request of its
own (a question, a drug, a test or a person) is not a change of the card.

    call = changed_card(said, card, patient_id)   # ToolCall("order_lab_test", {...}) or None
"""
from __future__ import annotations

import re

from ..approval.types import PendingCard
from ..reading.request import Request
from .amendments import changes_a_field, time_moved
from .languages import fold
from .state import ToolCall

# a clock time in the card's own time words ("tomorrow 8am", "demain 8h", "mañana a las 8"): the
# day words are what is left once it is taken out
_CLOCK = re.compile(r"(?:\b(?:at|a|as|à|às|a las|las|vers|por volta das|sobre las)\s+)?"
                    r"\b\d{1,2}(?:[:h.]\d{2})?\s*(?:am|pm|h\b|hrs?\b|heures?\b|horas?\b)?",
                    re.IGNORECASE)
_DAY = re.compile(r"(?<![a-z])(?:today|tonight|tomorrow|tmrw|tmr|monday|tuesday|wednesday|"
                  r"thursday|friday|saturday|sunday|demain|aujourd'hui|ce soir|lundi|mardi|"
                  r"mercredi|jeudi|vendredi|samedi|dimanche|amanha|hoje|segunda|terca|quarta|"
                  r"quinta|sexta|sabado|domingo|manana|hoy|lunes|martes|miercoles|jueves|"
                  r"viernes)(?![a-z])")


def changed_card(said: Request, card: PendingCard, patient_id: str) -> ToolCall | None:
    """The lab order or referral ``card`` re-drafted with the field ``said`` changes, or None
    when ``said`` is no change of it."""
    ent, low = said.entities, fold(said.message).lower()
    if (card.edited or "?" in said.message or ent.drugs or ent.patient_names
            or ent.patient_ids or not (changes_a_field(low) or _only_a_time(low, card))):
        return None
    urgency = _priority_only(said, card, patient_id)
    if urgency is not None:  # "make it urgent", "plutôt en urgence", "que sea urgente"
        return urgency
    if card.kind == "referral" and card.request.get("specialty"):
        new = [s for s in said.ward.specialties if s != card.request["specialty"]]
        if len(new) != 1:
            return None
        return ToolCall("refer_patient", {
            "patient_id": patient_id, "specialty": new[0],
            "reason": card.request.get("reason"), "priority": card.request.get("priority")})
    if card.kind == "lab_order" and card.request.get("test"):
        if said.ward.tests and set(said.ward.tests) != {card.request["test"]}:
            return None  # another test: an order of its own
        at = _new_time(said.ward.when or _moved_to_hour(low), card.request.get("when"))
        if at is None:
            return None
        return ToolCall("order_lab_test", {
            "patient_id": patient_id, "test": card.request["test"], "when": at,
            "priority": card.request.get("priority"), "reason": card.request.get("reason")})
    return None


def _moved_to_hour(low: str) -> str | None:
    """The bare hour a card is moved to ("move that to 10", "décale-le à 10", "pásalo a las
    10"): no time word of its own, but a verb that moves the card and "to" make it the clock
    (24-hour, as the ward writes it), on the card's day."""
    moved = time_moved(low)
    if moved is None:
        return None
    hour = re.search(r"(\d{1,2})(?:[:h.]?(\d{2}))?\s*(am|pm|h|hrs?)?$", moved.group(0).strip())
    if hour is None or int(hour.group(1)) > 23:
        return None
    afternoon = hour.group(3) == "pm" and int(hour.group(1)) < 12
    return f"{int(hour.group(1)) + 12 * afternoon:02d}:{hour.group(2) or '00'}"


def _priority_only(said: Request, card: PendingCard, patient_id: str) -> ToolCall | None:
    """The lab order or referral drafted again with the priority a follow-up gives it and
    nothing else ("make it urgent", "mets-la en urgence", "que sea urgente"); None otherwise."""
    ward = said.ward
    # "urgent" is read as a time too; a day or a clock is a change of time, not of priority
    timed = bool(ward.when and (re.search(r"\d", ward.when) or _DAY.search(fold(ward.when))))
    if (not ward.priority or ward.priority == card.request.get("priority") or ward.specialties
            or ward.tests or timed or card.kind not in ("lab_order", "referral")):
        return None
    request = {k: v for k, v in card.request.items() if v is not None}
    tool = "refer_patient" if card.kind == "referral" else "order_lab_test"
    keys = ("specialty", "reason") if card.kind == "referral" else ("test", "when", "reason")
    if not all(request.get(k) for k in keys[:1]):
        return None
    return ToolCall(tool, {"patient_id": patient_id, **{k: request.get(k) for k in keys},
                           "priority": ward.priority})


# what may stand beside a time said alone ("para amanhã às 8h", "for tomorrow 8am pls")
# ("first thing tomorrow, 8am", "a primera hora mañana 8h", "à la première heure demain 8h")
_AROUND_A_TIME = re.compile(r"(?<![a-z])(?:para|pra|for|pour|por|on|le|el|o|de|then|instead|"
                            r"first thing|a primera hora|a primeira hora|a la premiere heure|"
                            r"please|pls|plz|svp|por favor|se faz favor|stp|"
                            # "no, Thursday", "non, jeudi", "não, na quinta", "no, el jueves"
                            r"no|non|nao|nope|na|a|ao|au)(?![a-z])")


# the ward's sample the test goes with, said around its time ("tomorrow with the 6am bloods",
# "demain avec le bilan de 7h", "amanhã com as análises das 6h", "mañana con la analítica de
# las 7"): the time is the card's, the sample no test of its own
_WITH_THE_SAMPLE = re.compile(
    r"(?<![a-z])(?:with|on|avec|com|con)\s+(?:(?:the|le|les|os|as|la|las)\s+)?"
    r"(?:(?:next|am|morning|routine)\s+)?"
    r"(?:bloods|labs|bilan|prise de sang|exames|analises|analitica|analiticas)"
    r"(?:\s+(?:de|das|de las|do))?(?![a-z])")


def _only_a_time(low: str, card: PendingCard) -> bool:
    """A lab card's follow-up that is a time and nothing else ("para amanhã às 8h", "tomorrow
    6am", "tomorrow with the 6am bloods"): the card's new time, as "make it tomorrow 8am" is."""
    if card.kind != "lab_order" or not (re.search(r"\d", low) or _DAY.search(low)):
        return False  # "no, Thursday", "non, jeudi": a day alone moves it too
    rest = _AROUND_A_TIME.sub(" ", _WITH_THE_SAMPLE.sub(" ", _DAY.sub(" ", _CLOCK.sub(" ", low))))
    return not re.sub(r"[\W_]+", "", rest)


def changed_lab_orders(said: Request, cards: list[PendingCard],
                       patient_id: str) -> ToolCall | None:
    """Several lab orders drafted for one time ("fbc and u&e tomorrow 8am"), moved together by a
    follow-up that names a new time and no test ("actually 4pm"): one order of every test at
    the new time, superseding them all. None when the cards are not such orders."""
    tests = [c.request.get("test") for c in cards]
    whens = {c.request.get("when") for c in cards}
    if (len(whens) != 1 or not all(tests) or said.ward.tests
            or any(c.kind != "lab_order" or c.edited for c in cards)):
        return None
    call = changed_card(said, cards[0], patient_id)
    if call is None:
        return None
    return ToolCall("order_lab_test", {**call.args, "test": " and ".join(
        dict.fromkeys(str(t) for t in tests))})


def _new_time(said: str | None, drafted: str | None) -> str | None:
    """The follow-up's time, on the card's day when it names no day of its own ("6am instead"
    after "tomorrow 8am": "tomorrow 6am")."""
    if not said or not (re.search(r"\d", said) or _DAY.search(fold(said).lower())):
        return None
    if not re.search(r"\d", said):  # "thursday" after "tomorrow 6am": Thursday at 6am
        clock = _CLOCK.search(fold(drafted or "").lower())
        return f"{said} {clock.group(0).strip()}" if clock else said
    if _DAY.search(fold(said).lower()) or not drafted:
        return said
    day = " ".join(_CLOCK.sub(" ", fold(drafted).lower()).split())
    return f"{day} {said}".strip() if _DAY.search(day) else said


def repeated_lab_orders(said: Request, cards: list[PendingCard],
                        patient_id: str) -> ToolCall | None:
    """The pending lab orders' tests ordered again at the time a follow-up names ("same again
    on friday", "de novo na segunda às 7h"): a new order beside them, at the cards' clock when
    only a day is said. None when the follow-up names a test, a drug or a person, asks, or
    says no time or no "again"."""
    ent, low = said.entities, fold(said.message).lower()
    tests = [str(c.request.get("test") or "") for c in cards]
    if " but " in f" {low} ":  # "same again but 6am": a change of the card, not a second one
        return None
    if (not cards or not all(tests) or any(c.kind != "lab_order" for c in cards)
            or said.ward.tests or ent.drugs or ent.patient_names or ent.patient_ids
            or "?" in said.message or not said.ward.when or not said.ward.again_words):
        return None
    drafted = cards[-1].request.get("when")
    at = said.ward.when if re.search(r"\d|\bin\b", said.ward.when) else _at_its_clock(
        said.ward.when, drafted)
    return ToolCall("order_lab_test", {
        "patient_id": patient_id, "test": " and ".join(dict.fromkeys(tests)), "when": at,
        "priority": cards[-1].request.get("priority"), "reason": cards[-1].request.get("reason")})


def added_lab_orders(said: Request, cards: list[PendingCard],
                     patient_id: str) -> ToolCall | None:
    """A test added to the pending lab orders in a short follow-up ("and a magnesium with it",
    "add a CRP to that", "et un magnésium avec"): ordered beside them, at their time and
    priority. None when it asks, names a dose or a person, or names no new test."""
    ent, pending = said.entities, {str(c.request.get("test") or "") for c in cards}
    if (not cards or any(c.kind != "lab_order" for c in cards) or "?" in said.message
            or ent.dose or ent.patient_names or ent.patient_ids or not said.ward.added_words
            or len(said.message.split()) > _ADDED_WORDS):
        return None
    new = [t for t in said.ward.any_tests if t not in pending]
    if not new:
        return None
    drafted = cards[-1].request
    return ToolCall("order_lab_test", {
        "patient_id": patient_id, "test": " and ".join(new), "when": drafted.get("when"),
        "priority": drafted.get("priority"), "reason": drafted.get("reason")})


_ADDED_WORDS = 8  # a short follow-up; a longer message is a request of its own


def _at_its_clock(day: str, drafted: str | None) -> str:
    """A day said alone takes the card's clock time ("friday" after "tomorrow 8am": "friday
    8am")."""
    clock = _CLOCK.search(fold(drafted or "").lower())
    return f"{day} {clock.group(0).strip()}" if clock and re.search(r"\d", clock.group(0)) else day
