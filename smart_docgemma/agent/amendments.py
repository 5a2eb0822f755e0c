"""A follow-up to the pending medication card: the card is re-drafted, never doubled.

"actually make it 100mg", "make it bd", "plutôt 250", "mejor 500 mg", "muda para 12/12h", "halve
it" change a field of the session's pending order; "oral, 7 days", "par voie orale, 7 jours" give
the fields it lacked. Either way the order is drafted again from what the card was drafted from
(``ProposalSummary.request``) with the fields the follow-up gives, so the safety check runs again
on the new order, and the superseded card is withdrawn once the new one stands (one card
pending). A follow-up that makes a request of its own (a question, another drug, another
patient) is not an amendment, and the pending card is left as it is.

    change = read(extraction.read("plutôt 250"), pending)  # Change(dose="250")
    redraft(pending, change)                    # the prescribe_medication arguments
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..approval.types import PendingOrder
from ..reading.dosage import Dose
from ..reading.request import Request
from . import extraction
from .languages import fold
from .prompts import load


@dataclass(frozen=True)
class Change:
    """The fields a follow-up gives; None for a field it does not mention."""

    dose: str | None = None  # "100 mg", or a bare number ("250") in the pending dose's unit
    frequency: str | None = None
    route: str | None = None
    days: int | None = None

    def empty(self) -> bool:
        return not (self.dose or self.frequency or self.route or self.days)


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    found: dict[str, Any] = load("amendments")
    return found


@lru_cache(maxsize=1)
def _change_words() -> re.Pattern[str]:
    words = sorted(_words()["change_words"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(w) for w in words)})(?![a-z])")


# a number, a comma or a full stop after it ("sube a 850, por fa"), never one that counts the
# doses ("non, 2 fois/j", "3 vezes ao dia", "2 tomas")
_BARE_NUMBER = re.compile(r"(?<![\d.,/])(\d+(?:[.,]\d+)?)(?![\d/]|[.,]\d|\s*(?:x|h|/|%)"
                          r"|\s*(?:fois|vezes|veces|times|prises|tomadas|tomas|doses|dosis)\b)")


def read(said: Request, pending: PendingOrder) -> Change | None:
    """The fields the message ``said`` (read once, ``extraction.read``) gives for the pending
    order, or None when it is a request of its own: it names another drug or a patient, asks
    something, or gives no field at all."""
    ent, message = said.entities, said.message
    low = " ".join(fold(message).lower().split())
    others = [d for d in ent.drugs if d != pending.ingredient]
    if others or ent.patient_names or ent.patient_ids or "?" in message or _asks(ent.actions):
        return None
    found = ent.dose or Dose()
    dose = found.written or _bare_dose(low) or _by_factor(low, pending.dosage)
    change = Change(dose=dose, frequency=found.frequency,
                    route=extraction.route_said(low), days=_days(found.duration, low))
    return None if change.empty() else change


_AROUND = r"(?:no|non|nao|ok|okay|please|pls|svp|por favor|porfa|sorry|actually|en fait|em vez)"


@lru_cache(maxsize=1)
def _cancel() -> re.Pattern[str]:
    words = sorted(_words()["cancel_words"], key=len, reverse=True)
    said = "|".join(re.escape(w) for w in words)
    return re.compile(rf"^(?:{_AROUND}[\s,.!]*)*(?:{said})(?:[\s,.!]+(?:{said}))*"
                      rf"(?:[\s,.!]*{_AROUND})*[\s.!]*$")


def cancels(message: str) -> bool:
    """The message only cancels the pending card ("cancel that", "non, annule", "esquece")."""
    return bool(_cancel().match(" ".join(fold(message).lower().replace("’", "'").split())))


def _asks(actions: tuple[str, ...]) -> bool:
    """Actions of a request of its own (a chart question, another order); an order line and the
    words of giving a drug belong to the amendment."""
    return any(a not in ("order_line", "give", "prescribe", "prescribe_drug") for a in actions)


def _bare_dose(low: str) -> str | None:
    """"plutôt 250", "make it 100", "let's do 2.5 instead": a number after a word of change (or
    the one number before it), in the pending dose's unit."""
    said = _change_words().search(low)
    if not said:
        return None
    number = _BARE_NUMBER.search(low, said.end())
    if number is None:  # "let's do 2.5 instead": the one number before the word of change
        before = _BARE_NUMBER.findall(low[: said.start()])
        return before[0].replace(",", ".") if len(before) == 1 else None
    return number.group(1).replace(",", ".")


def _by_factor(low: str, dosage: str) -> str | None:
    """"halve it", "double the dose": the pending dose times the factor, in its unit ("300 mg"
    halved is "150 mg"); None when no factor is said or the pending dose has no number."""
    factor = next((float(f) for f, words in _words()["factors"].items()
                   if re.search(rf"(?<![a-z])(?:{'|'.join(map(re.escape, words))})(?![a-z])", low)),
                  None)
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(.*)$", dosage or "")
    if factor is None or not m:
        return None
    value = round(float(m.group(1)) * factor, 3)
    return f"{value:g} {m.group(2).strip() or 'mg'}"


def _days(duration: str | None, low: str) -> int | None:
    m = re.match(r"(\d+) (day|week|month)", duration or "")
    if m:
        return int(m.group(1)) * {"day": 1, "week": 7, "month": 30}[m.group(2)]
    bare = re.search(_words()["bare_durations"], low)
    if not bare:
        return None
    weeks = any(w in bare.group(0) for w in _words()["weeks"])
    return int(bare.group(1)) * (7 if weeks else 1)


def redraft(pending: PendingOrder, change: Change) -> dict[str, Any]:
    """The prescribe_medication arguments of the pending order with the change applied."""
    dose = change.dose or pending.dosage
    if change.dose and re.fullmatch(r"\d+(?:\.\d+)?", change.dose):
        unit = re.search(r"[a-zµ/]+(?:/[a-z]+)*\s*$", pending.dosage.lower())
        dose = f"{change.dose} {unit.group(0).strip() if unit else 'mg'}"
    notes = [p for p in (pending.notes or "").split("; ") if p]
    if change.route:
        notes = [p for p in notes if not p.startswith("route ")] + [f"route {change.route}"]
    if change.days:
        notes = [p for p in notes if not p.startswith("for ")] + [f"for {change.days} days"]
    return {"patient_id": pending.patient_id, "medication_name": pending.medication, "dosage": dose,
            "frequency": change.frequency or pending.frequency, "notes": "; ".join(notes) or None}
