"""A follow-up to the pending card: the card is re-drafted or withdrawn, never doubled.

"actually make it 100mg", "make it bd", "plutôt 250", "mejor 500 mg", "muda para 12/12h", "halve
it" change a field of the session's pending order; "oral, 7 days", "par voie orale, 7 jours" give
the fields it lacked. Either way the order is drafted again from what the card was drafted from
(``ProposalSummary.request``) with the fields the follow-up gives, so the safety check runs again
on the new order, and the superseded card is withdrawn once the new one stands (one card
pending). A follow-up that makes a request of its own (a question, another drug, another
patient) is not an amendment, and the pending card is left as it is.

    change = read(extraction.read("plutôt 250"), pending)  # Change(dose="250")
    redraft(pending, change)                    # the prescribe_medication arguments

A reading waiting on its card is corrected the same way ("sorry, it was 150/95", "não, era
140/95", "non, 38,2"): the reading is drafted again with the values said, at the time it was
taken, and replaces the card. "cancel that" withdraws every card of the last request, whatever
it holds (a reading, a protocol's order and its recheck, a referral, a lab order).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..approval.types import PendingCard, PendingOrder
from ..languages.frequency import per_day
from ..reading.dosage import Dose
from ..reading.entities import Entities
from ..reading.numbers import in_digits
from ..reading.request import Request
from ..tools.words.dosing import INFUSION, as_needed
from ..tools.writes.orders import parse_timing
from .languages import fold
from .prompts import load
from .routes import route_said


@dataclass(frozen=True)
class Change:
    """The fields a follow-up gives; None for a field it does not mention."""

    dose: str | None = None  # "100 mg", or a bare number ("250") in the pending dose's unit
    frequency: str | None = None
    route: str | None = None
    days: int | None = None
    drug: str | None = None  # another drug in the card's place ("use cefalexin instead")
    infusion: str | None = None  # an infusion's time ("over 2 h")
    # "as needed" said with the follow-up's own order ("nah, paracetamol 1g qds prn"): kept on
    # the re-drafted card, never dropped to a regular dose
    as_needed: str | None = None

    def empty(self) -> bool:
        return not (self.dose or self.frequency or self.route or self.days or self.drug
                    or self.infusion)


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
# a bare number that is a dose: never a count of doses or a length of time ("make it 5 days",
# "x 7 jours", "por 10 dias" change the duration, not the dose)
# (never a count after "x": "mejor x3" is three times, no dose of 3)
# (a clock time is no dose: "make the recheck 6am instead" moves the recheck, never 6 mEq)
_BARE_NUMBER = re.compile(r"(?<![\d.,/x×:])(\d+(?:[.,]\d+)?)(?![\d/]|[.,]\d|\s*(?:x|h|/|%)"
                          r"|\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])|:\d\d"
                          r"|\s*(?:fois|vezes|veces|times|prises|tomadas|tomas|doses|dosis)\b"
                          r"|\s*(?:d|days?|j|jours?|dias?|días?|wks?|weeks?|semaines?|semanas?|"
                          r"months?|mois|meses|hours?|hrs?|heures?|horas?|min\w*)\b)")


def read(said: Request, pending: PendingOrder) -> Change | None:
    """The fields the message ``said`` (read once, ``extraction.read``) gives for the pending
    order, or None when it is a request of its own: it names another drug or a patient, asks
    something, or gives no field at all."""
    # read with the question it answers ("500 qds" after "what dose?" for "use cefalexin instead")
    ent, message = said.entities, said.understood or said.message
    low = " ".join(fold(message).lower().split())
    others = list(dict.fromkeys(d for d in ent.drugs if d != pending.ingredient))
    asked = "?" in message and not _route_asked(low, ent)
    # her state told before the drug that answers the card's finding ("ah é, gestante. então
    # metildopa 250 mg 8/8h") asks nothing of the chart: the order is in the card's place
    placed = len(others) == 1 and in_its_place(low, pending)
    if ent.patient_names or ent.patient_ids or asked or (_asks(ent.actions, low) and not placed):
        return None
    if others and not (len(others) == 1 and (switches(low) or in_its_place(low, pending))):
        return None  # another drug beside the card ("also paracetamol"): an order of its own
    if ent.dose and ent.dose.written and _adds_another(low, pending):
        return None  # "and add senna 15mg nocte": a drug added, known to the tables or not
    if "switch" in ent.actions and not others:
        return None  # "switch to oral": the switch workflow, not this card
    found = ent.dose or Dose()
    # "mejor cada 12", "plutôt toutes les 12": the number of the frequency is no dose
    # ("twice that" keeps its "twice": the dose times two)
    numbers = low.replace(" ".join(fold(found.frequency).lower().split()), " ") if (
        found.frequency and not _TWICE_THE_DOSE.search(low)) else low
    # another drug in the card's place takes a bare number right after its name in mg only
    # when the card's dose was in mg ("naproxen instead, 250" after paracetamol 1 g is never
    # 250 g): else its dose is asked, the drug checked
    # "increase by 25mg": the step from the card's dose, never 25 mg itself
    step = None if others else _by_step(numbers, pending.dosage)
    dose = step or found.written or (
        _switch_number(numbers, ent, others[0], pending) if others
        else _strength(numbers, pending.dosage) or _bare_dose(numbers)
        or _by_factor(numbers, pending.dosage)
        or _divided_total(low, found.frequency, pending)
        or _own_drug_number(numbers, ent.drugs, pending))
    # "diez días", "cinq jours": a course said in words is read in figures, as its dose is
    days = _days(found.duration, " ".join(fold(in_digits(message)).lower().split()))
    if dose and not found.written and days is not None and _after_the_duration(low, dose):
        dose = None  # "for 10 days not 5": the 5 is the old course's days, never 5 mg
    # "twice that": the dose times two, never "twice" a day
    frequency = _stepped_frequency(low, pending.frequency) or (
        None if _TWICE_THE_DOSE.search(low) else found.frequency)
    over = INFUSION.search(low)
    infusion = f"over {over.group(1)} {'min' if over.group(2).startswith('m') else 'h'}" \
        if over else None
    # an infusion's dose changed without its time is not re-drafted: its rate would change
    # unsaid ("make it 2 g" of 1 g over 1 h); with the time ("2 g over 2 hours") it is
    if dose and not infusion and any(p.startswith("over ") for p in _notes(pending)):
        return None
    said_as_needed = found.as_needed if found.as_needed and not (
        frequency and as_needed(frequency)) else None
    change = Change(dose=dose, frequency=frequency, route=route_said(low),
                    days=days, drug=others[0] if others else None, infusion=infusion,
                    as_needed=said_as_needed)
    return None if change.empty() else change


def _notes(pending: PendingOrder) -> list[str]:
    return [p for p in (pending.notes or "").split("; ") if p]


@lru_cache(maxsize=1)
def _adding() -> re.Pattern[str]:
    said = "|".join(re.escape(w) for w in sorted(_words()["adding_words"], key=len, reverse=True))
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{said})\s+(?:(?:also|aussi|tambem|tambien)\s+)?"
                      r"([a-z][a-z'-]*)")


def _adds_another(low: str, pending: PendingOrder) -> bool:
    """The follow-up adds a drug by a name that is not the card's ("and add senna 15mg nocte"):
    the word after the adding word is no word of the card's drug nor one that adds to the card."""
    m = _adding().match(low)
    if m is None or m.group(1) in set(_words()["adding_to_the_card"]):
        return False
    own = set(re.findall(r"[a-z]+", fold(f"{pending.medication} {pending.ingredient}").lower()))
    return m.group(1) not in own


# what a number is when a word after it says so: a unit, a count of doses, or days
_NOT_MG_AFTER = re.compile(r"\s*(?:mg|g|mcg|ug|µg|ml|units?|u|iu|ui|mmol|meq|%|puffs?|tabs?|"
                           r"comp|gouttes?|gotas?|drops?|days?|d|jours?|j|dias?|weeks?|h)(?![a-z])")


def _switch_number(low: str, ent: Entities, drug: str, pending: PendingOrder) -> str | None:
    """A number written right after the drug that takes the card's place, in milligrams when
    the card's dose was ("rosuvastatin 10 instead" of atorvastatin 20 mg, "troca por
    atorvastatina 20"); None when the card's dose was in another unit ("naproxen instead, 250"
    after paracetamol 1 g is asked, never 250 g) or a unit, a count or days follow it. After a
    card in grams, a number of ten or more right after the drug is in milligrams too
    ("mejor ibuprofeno 600 cada 8" after paracetamol 1 g), as the re-draft reads a bare one."""
    unit = pending.dosage.strip().lower()
    in_grams = bool(re.fullmatch(r"[\d.,\s]+g", unit))
    if not (in_grams or re.fullmatch(r"[\d.,\s]+mg", unit)):
        return None
    for mention in ent.drug_mentions:
        if mention.name != drug:
            continue
        m = re.search(rf"(?<![a-z]){re.escape(fold(mention.surface).lower())}\s+"
                      r"(\d+(?:[.,]\d+)?)(?![\d.,/])", low)
        number = m.group(1).replace(",", ".") if m else ""
        if m and not _NOT_MG_AFTER.match(low, m.end()) and (not in_grams or float(number) >= 10):
            return f"{number} mg"
    return None


_TWICE_THE_DOSE = re.compile(r"(?<![a-z])twice (?:that|the dose|the amount|as much)(?![a-z])")


_ROUTE_ASKED = re.compile(r"^(?:and|what about|how about|et|et si|e|y|o)?\s*(?:en|por|par|per|in)?"
                          r"\s*(?:via|voie|route)?\s*\S+(?:\s+\S+)?\s*\?\s*$")


def _route_asked(low: str, ent: Entities) -> bool:
    """"and iv?", "et en intraveineux ?", "e por via oral?": a route alone asked of the card,
    which only re-drafts it (nothing is written until it is approved)."""
    return bool(route_said(low)) and not ent.drugs and not ent.dose and bool(
        _ROUTE_ASKED.match(low))


def time_moved(low: str) -> re.Match[str] | None:
    """Where a verb moves the card to a clock time ("push the recheck to 10am", "move that to
    10"), in the accent-folded lower-case message; None when nothing is moved."""
    return _time_moved().search(low)


def changes_a_field(low: str) -> bool:
    """A word of change ("actually", "make that", "plutôt", "na verdade", "mejor") or of
    switching ("instead", "à la place") in the accent-folded lower-case message."""
    return bool(_change_words().search(low) or _any_of("switch_words").search(low)
                or _from_to().search(low) or _time_moved().search(low))


@lru_cache(maxsize=1)
def _time_moved() -> re.Pattern[str]:
    """A verb that moves the card (``time_move_verbs``), at most two words of its noun, then
    "to"/"à"/"para"/"a" and a clock time ("push the recheck to 10am", "décale le contrôle à
    10h", "pasa el control a las 10"); never the verb without a clock after it ("iv push over
    10 min", "push 2 g magnesium")."""
    verbs = "|".join(re.escape(w) for w in sorted(_words()["time_move_verbs"], key=len,
                                                  reverse=True))
    # ... its pronoun fused after a hyphen ("décale-le à 10", "passe-la à 9")
    return re.compile(rf"(?<![a-z])(?:{verbs})(?:-(?:le|la|les|lo|o|a))?(?:\s+[a-z0-9&'-]+){{0,2}}?"
                      r"(?:\s+(?:back|forward|out|up))?\s+(?:to|till|until|a|para|pra|pour)"
                      r"(?:\s+(?:las|la|as|a|the))?\s+\d{1,2}(?:[:h.]?\d{2})?\s*(?:am|pm|h|hrs?)?"
                      r"(?![\d/]|[.,]\d|\s*[x×](?![a-z])"
                      r"|\s*(?:mg|g|mcg|meq|mmol|ml|l|litres?|liters?|kg|units?|u|%)(?![a-z]))")


def _any_of(key: str) -> re.Pattern[str]:
    words = sorted((fold(w).lower() for w in _words()[key]), key=len, reverse=True)
    return re.compile(rf"(?<![\w'])(?:{'|'.join(map(re.escape, words))})(?![\w'])")


def switch_words() -> re.Pattern[str]:
    """The words that put a drug in the card's place ("instead", "rather", "à la place")."""
    return _any_of("switch_words")


def switches(low: str) -> bool:
    """The follow-up puts its drug in the card's place ("use cefalexin instead", "troca por
    cefalexina"), not beside it ("also paracetamol", "e também …")."""
    return bool(_any_of("switch_words").search(low)) and not _any_of("adding").search(low)


@lru_cache(maxsize=1)
def _consequence() -> tuple[re.Pattern[str], re.Pattern[str]]:
    said = _words()["consequence"]

    def alternatives(key: str) -> str:
        words = sorted((fold(w).lower() for w in said[key]), key=len, reverse=True)
        return "|".join(map(re.escape, words))

    return (re.compile(rf"(?<![\w'])(?:{alternatives('ends')})[\s.!,;]*$"),
            # ... opening the message or a sentence of it ("ah é, gestante. então metildopa")
            re.compile(rf"(?:^|[.;!]\s+)(?:{alternatives('starts')})(?![\w'])"))


@lru_cache(maxsize=1)
def _declined_then_ordered() -> re.Pattern[str]:
    words = sorted((fold(w).lower() for w in _words()["declined_then_ordered"]), key=len,
                   reverse=True)
    return re.compile(rf"^(?:{'|'.join(map(re.escape, words))})\s*[,.;:\u2014\u2013-]")


def in_its_place(low: str, pending: PendingOrder) -> bool:
    """A drug ordered as what follows from the pending card's critical finding ("ok labetalol
    200 bd then" after ramipril in pregnancy, "right then, doxy 100 bd", "bon, labetalol 200
    x2/j alors"): the order answers the finding, so it takes the card's place. Never after a
    card without a critical finding, with a word of adding ("also … then"), or with "then" in
    the middle ("labetalol 200 bd then recheck bp": what comes next). Whatever the card
    carries, a drug ordered after a word declining it and a mark ("nah, paracetamol 1g qds
    prn", "no - doxy 100 bd") takes its place too; "no paracetamol" (none of it) does not."""
    if "?" in low or _any_of("adding").search(low):
        return False
    if _declined_then_ordered().match(low):
        return True
    ends, starts = _consequence()
    return pending.critical and bool(ends.search(low) or starts.search(low))


def asked_of_card(said: Request, pending: PendingOrder) -> str | None:
    """A question about the pending card's drug that does not name it ("is that safe with her
    kidneys?", "¿es seguro con su función renal?", "does it interact with his warfarin?"): the
    question with the drug in front, read as asked of that drug (with the drugs it names); None
    when it names the card's drug, a dose or a person, points at nothing, or asks no safety
    question and names no drug."""
    return asked_of(said, pending.medication, pending.ingredient)


def asked_of(said: Request, drug: str, ingredient: str) -> str | None:
    """A safety question pointing at ``drug`` without naming it (the pending card's, or the one
    the clinician's last message discussed: "can he take it alongside the aspirin?" after
    "thinking about clopidogrel for him"): the question with the drug in front; None as for
    ``asked_of_card``."""
    ent = said.entities
    low = " ".join(fold(said.message).lower().replace("’", "'").split())
    named = ingredient in ent.drugs or any(
        m.surface.lower() == ingredient.lower() for m in ent.drug_mentions)
    if named or ent.dose or ent.patient_names or ent.patient_ids:
        return None
    if _why().match(_plain(said.message)):  # "¿por qué?": the findings behind the card
        return f"{drug} ok for her? {said.message}"
    if not _any_of("points_at_card").search(low):
        return None
    # "does it interact with his warfarin?": the card's drug with the drugs it names; "¿y con el
    # potasio que tiene?": the card's drug against a result of hers
    named = bool(ent.drugs) or (said.focus or "").startswith("lab:")
    if not _any_of("safety_asks").search(low) and _own_result(said.focus, drug, ingredient):
        return None  # "what Mg was that?" after magnesium sulfate: the result it was based on
    asks = bool(_any_of("safety_asks").search(low)) or (named and "?" in said.message)
    return f"{drug} {said.message}" if asks else None


def _own_result(focus: str | None, drug: str, ingredient: str) -> bool:
    """The result asked is the one the drug replaces (magnesium for magnesium sulfate,
    potassium for potassium chloride)."""
    result = (focus or "").removeprefix("lab:").lower()
    return bool(focus and focus.startswith("lab:") and result
                and result in f"{drug} {ingredient}".lower())


@lru_cache(maxsize=1)
def _why() -> re.Pattern[str]:
    """A message that only asks the reason ("why?", "por qué?", "pourquoi ? quel risque ?")."""
    said = "|".join(re.escape(_plain(w)) for w in sorted(_words()["why_asks"], key=len,
                                                          reverse=True))
    return re.compile(rf"^(?:{_AROUND}[\s,.!?]*)*(?:{said})(?:[\s,.!?]+(?:{said}|{_AROUND}))*"
                      rf"[\s?.!]*$")


_AROUND = (r"(?:no|nope|nah|nop|non|nao|ok|okay|please|pls|svp|stp|por favor|porfa|pf|pfv|pfvr|"
           r"xfa|sorry|"
           r"actually|en fait|em vez|on second thoughts?|on reflection|finalement|finalmente|"
           r"al final|bon|bueno|pensandolo bien|pensando bem|wait|attends|espera|oops|whoops|oh|ah|"
           r"uh|oups|ops|opa|uy|ay|ups|vaya|"
           # a shrug before it ("bof, oublie", "bah, laisse", "meh, scrap it")
           r"bof|bah|meh|"
           # the cancel said as the better course ("mejor cancela eso", "melhor cancelar",
           # "plutôt annule", "better cancel that")
           r"mejor|es mejor|melhor|e melhor|plutot|mieux vaut|better|best|"
           # the cancel asked politely ("pode cancelar o hemograma", "can you cancel the INR",
           # "tu peux annuler la NFS", "puedes quitar el INR")
           r"can you|could you|pode|podes|pode-se|voce pode|peux-tu|tu peux|pouvez-vous|"
           r"vous pouvez|puedes|puede|podrias|"
           # for the time being ("hold off on that for now", "annule pour l'instant")
           r"for now|for the moment|for the time being|pour l'?instant|pour le moment|"
           r"por agora|por enquanto|por ahora|por el momento|"
           # a courtesy after it ("déjalo como estaba, gracias", "scrap that, thanks", "laisse
           # comme avant, merci")
           r"thanks|thank you|thx|cheers|merci|merci beaucoup|obrigado|obrigada|valeu|"
           r"gracias|muchas gracias)")


@lru_cache(maxsize=1)
def _cancel() -> re.Pattern[str]:
    said, nouns, articles, objects = (
        "|".join(re.escape(w) for w in sorted(_words()[key], key=len, reverse=True))
        for key in ("cancel_words", "card_nouns", "card_articles", "cancel_objects"))
    said = rf"(?:{said})(?:\s+(?:{objects}))?"  # "withdraw that", "annule ça"
    named = rf"(?:\s*(?:(?:{articles})\s*)?(?:{nouns}))?"  # "cancel the referral"
    # one or more cancel phrases ("esquece, nao vou prescrever"), and a clause refusing or
    # giving the reason after them ("esquece, nao vamos mais fazer")
    # an "ok", "better", "actually" may open each later phrase too ("quita eso, mejor lo vemos
    # mañana", "annule, bon, on verra demain", "cancel it, actually we'll wait")
    around = rf"(?:{_AROUND}{_SEP}+)*"
    return re.compile(
        rf"^(?:{_AROUND}{_SEP}*)*(?:{said}){named}(?:{_SEP}+{around}(?:{said}){named})*"
        rf"(?:{_SEP}+{around}{_declining()})?(?:{_SEP}*{_AROUND})*[\s.!]*$")


@lru_cache(maxsize=1)
def _refused_card() -> re.Pattern[str]:
    """"on second thought, no referral", "pas d'ordonnance": the card refused by its noun, the
    message saying nothing else; never the recheck ("no recheck" withdraws the recheck only)."""
    rechecks = {fold(w).lower() for w in _words()["recheck_nouns"]}
    nouns = "|".join(re.escape(w) for w in sorted(_words()["card_nouns"], key=len, reverse=True)
                     if fold(w).lower() not in rechecks)
    leads, articles = (_alternation(key) for key in ("refused_card_leads", "card_articles"))
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{leads})\s*(?:(?:{articles})\s*)?(?:{nouns})"
                      rf"(?:{_SEP}*{_AROUND})*[\s.!]*$")


@lru_cache(maxsize=1)
def _refused() -> re.Pattern[str]:
    """"actually don't, I'll recheck it", "non, ne le fais pas": a refusal alone, or with the
    clause that declines or re-measures after it; no verb of another request after it."""
    refusals = "|".join(re.escape(w) for w in sorted(_words()["refusals_alone"], key=len,
                                                     reverse=True))
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{refusals})(?![a-z'])"
                      rf"(?:{_SEP}+{_declining()})?(?:{_SEP}*{_AROUND})*[\s.!]*$")


def names_short(said: str, ingredient: str) -> bool:
    """The words a cancel names are the ward's short form of the card's ingredient ("mag" of
    magnesium sulfate, "KCl" or "K" of potassium chloride); "mag" of another drug is not."""
    meant = _words()["ingredient_short_names"].get(fold(said).lower().strip())
    return meant is not None and names_ingredient(str(meant), ingredient)


def _declining() -> str:
    """A clause after the cancel that refuses or waits, with no number and no replacement in
    it ("nao vamos mais fazer", "on attend la culture"; never "mets plutot 500")."""
    said = _words()["declining_clause"]
    # folding turns an apostrophe into a space ("qu'il" is read "qu il"): either is the word
    leads, instead = ("|".join(re.escape(w).replace("'", r"['\s]") for w in sorted(
        said[k], key=len, reverse=True)) for k in ("leads", "replacements"))
    return rf"(?:{leads})(?![a-z])(?:(?!(?<![a-z])(?:{instead}))[^\d])*?"


def cancel_then(message: str) -> str | None:
    """The words after a cancel that opens the message, when they say something else with no
    number and no word of a replacement ("annule, elle prendra du paracétamol", "cancela, ela
    vai tomar dipirona"): the card is withdrawn and those words answered as asked; None when
    the message does not open with a cancel, or only cancels."""
    low = _folded(message)
    m = _cancel_opening().match(low)
    rest = low[m.end():].strip(" ,.;:!") if m else ""
    instead = _words()["declining_clause"]["replacements"]
    if not rest or re.search(r"\d", rest) or cancels(message) or any(
            re.search(rf"(?<![a-z]){re.escape(w)}", rest) for w in instead):
        return None
    return rest


@lru_cache(maxsize=1)
def _cancel_opening() -> re.Pattern[str]:
    said, objects = (
        "|".join(re.escape(w) for w in sorted(_words()[key], key=len, reverse=True))
        for key in ("cancel_words", "cancel_objects"))
    said = rf"(?:{said})(?:\s+(?:{objects}))?"
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{said})(?:{_SEP}+(?:{said}))*(?=[,;.:!\u2014-])")


@lru_cache(maxsize=1)
def _kept_at() -> re.Pattern[str]:
    """"actually leave it at 5", "keep it at 5mg please": the dose she is on kept, the whole
    message (a "no", "actually", "please" around it)."""
    said = "|".join(re.escape(w) for w in sorted(_words()["keep_at_words"], key=len, reverse=True))
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{said})\s*\d+(?:[.,]\d+)?\s*(?:mg|mcg|g)?"
                      rf"(?:{_SEP}*{_AROUND})*[\s.!]*$")


# between the phrases of one message: spaces, commas, a dash ("stop — wrong patient")
_SEP = r"[\s,.!;:\u2014\u2013-]"


def _folded(message: str) -> str:
    return " ".join(fold(message).lower().replace("’", "'").split())


@lru_cache(maxsize=1)
def _note_follow_up() -> re.Pattern[str]:
    said = _words()["note_follow_up"]
    verbs, labels = ("|".join(re.escape(w) for w in sorted(said[k], key=len, reverse=True))
                     for k in ("verbs", "labels"))
    articles = "|".join(re.escape(w) for w in _words()["card_articles"])
    # "add: …", "ajoute : …": a verb of adding with the colon and no label is the note too
    bare = "|".join(re.escape(w) for w in sorted(said["bare_verbs"], key=len, reverse=True))
    return re.compile(rf"^(?:{_AROUND}[\s,.!]*)*(?:(?:(?:{verbs})\s+)?"
                      rf"(?:(?:{articles}|a|an|une|uma|una)\s+)?(?:{labels})|{bare})"
                      rf"\s*[:\-\u2013]\s*", re.I)


def note_given(message: str) -> str | None:
    """The text of a follow-up that only gives the pending referral its note ("add a note:
    …", "free text: …", "nota: …"), verbatim and unquoted; None for anything else."""
    m = _note_follow_up().match(fold(message).lower().replace("’", "'"))
    if m is None:
        return None
    text = message[m.end():].strip()
    quoted = re.fullmatch(r"[\"“'](.+)[\"”']", text, re.S)
    return (quoted.group(1) if quoted else text).strip() or None


def cancels(message: str, titles: Sequence[str] = (), drugs: Sequence[str] = ()) -> bool:
    """The message only cancels the pending card ("cancel that", "non, annule", "esquece"),
    after a reason given first ("pharmacy says out of stock, cancel"), or says the card was for
    someone else ("that was meant for Mr X"); with the pending cards' ``titles``, also when it
    names the card by words of its title ("cancel the ortho referral" of "Refer to orthopedic
    surgery")."""
    low = " ".join(fold(message).lower().replace("’", "'").split())
    if _opening("reminder_words").match(low):
        return False  # "don't forget the recheck": a reminder, never a card taken back
    if (_cancel().match(low) or _kept_at().match(low) or misdirected(low) or _refused().match(low)
            or _refused_card().match(low)):
        return True
    # "pharmacy says out of stock, cancel": the reason, then the cancel of a card pending; a
    # reason naming a drug no card holds asks of that drug ("ne pas débuter de spironolactone
    # pour l'instant, on en reparle")
    reason, sep, last = low.rpartition(",")
    held = " ".join(titles).lower()
    if (titles and sep and not re.search(r"\d", reason) and not _ORDERING.search(reason)
            and not _opening("keep_words").match(reason.strip())
            and all(d.lower() in held for d in drugs) and _cancel().match(last.strip())):
        return True
    named = _cancel_named().match(low)
    if not named:
        return False
    words = [w for t in titles for w in re.findall(r"[a-z0-9+]+", fold(t).lower())]
    return all(any(w.startswith(said) for w in words)
               for said in named.group(1).split() if len(said) >= 2)


# a reason before a cancel orders nothing ("start metformin, cancel that" is no reason)
_ORDERING = re.compile(r"\b(?:start|give|add|order|prescribe|commence|begin|restart|mets|donne|"
                       r"commence|prescris|dar|da|inicia|iniciar|comeca|empieza|pon|ponle)\b")


def misdirected(low: str) -> bool:
    """The last request's cards said to be for someone else ("oops that was for bed 5", "that
    was meant for Mr Mensah", "wrong patient"), or put off until something else is known ("let's
    wait for the a1c first", "on attend la culture"): to be withdrawn, whoever is named; a
    deferral with a number is an order of its own ("let's wait 2 days then start 40 od")."""
    if _opening("misdirected_words").match(low):
        return True  # "that was for bed 5": whoever it was for
    deferred = _opening("deferring_words").match(low)
    return bool(deferred) and not re.search(r"(?<![a-z])\d", low)  # "a1c" is a word


@lru_cache(maxsize=8)
def _opening(key: str) -> re.Pattern[str]:
    """A message opening (after its "ok", "sorry", "oops") with a phrase of the list ``key``;
    compiled once, as every turn with a card pending asks it."""
    return re.compile(rf"^(?:{_AROUND}{_SEP}*)*(?:{_alternation(key)})\b")


@lru_cache(maxsize=4)
def _closing(key: str) -> re.Pattern[str]:
    """A clause closing with a phrase of the list ``key`` after at least one word of its own
    ("a ceftriaxona deixa"): never the phrase alone."""
    return re.compile(rf"\S\s+(?:{_alternation(key)})$")


def _alternation(key: str) -> str:
    words = sorted(_words()[key], key=len, reverse=True)
    return "|".join(re.escape(fold(w).lower()) for w in words)


def keeps_only(message: str) -> bool:
    """The message keeps some pending cards by name and nothing else ("only keep the HbA1c",
    "ne garde que la NFS", "deja solo el INR"): the others are withdrawn."""
    low = " ".join(fold(message).lower().split())
    return bool(_opening("keep_only_words").match(low)) and not re.search(r"(?<![a-z])\d", low)


def cancel_clause(message: str) -> str:
    """The cancel's own clause, before or after what it keeps ("drop the FBC, just the INR":
    "drop the FBC"; "annule la NFS, garde l'INR": "annule la NFS"; "keep the potassium, drop
    the recheck": "drop the recheck")."""
    first, *rest = _KEPT.split(message, maxsplit=1)
    if rest and (_opening("keep_words").match(_folded(first).strip(" ,.!"))
                 or _ONLY_AROUND.match(_folded(first).strip(" ,.!"))
                 or _closing("keep_words_after").search(_folded(first).strip(" ,.!"))):
        # "no, bin the lipids", "no, just keep the hba1c - bin the lipids": an opening "no" or
        # "ok" is no clause of its own
        return cancel_clause(rest[0])
    return first


_ONLY_AROUND = re.compile(rf"^(?:{_AROUND}[\s,.!]*)+$")


def names_the_recheck(clause: str) -> bool:
    """The cancel's clause names the lab order paired with a replacement ("drop the recheck",
    "annule le contrôle", "cancela o controlo"): no other word of a test or a number."""
    said = cancels_what(clause)
    if said is not None and re.fullmatch(rf"(?:{_alternation('recheck_nouns')})", said.strip()):
        return True
    return bool(_recheck_refused().match(_folded(clause)))


def mentions_recheck(message: str) -> bool:
    """The message names the recheck paired with a replacement ("make the recheck 6am
    instead", "le contrôle plutôt à 6h"), whatever else it says."""
    return bool(re.search(rf"(?<![a-z])(?:{_alternation('recheck_nouns')})(?![a-z])",
                          _folded(message)))


def refuses_recheck(message: str) -> bool:
    """A clause of the message refuses the paired recheck ("K 3.3, give per protocol, no recheck
    needed", "sans contrôle", "recheck not needed"): the replacement alone is asked."""
    for clause in _KEPT.split(_folded(message)):
        clause = clause.strip()
        if _recheck_refused().match(clause) or _recheck_not_needed().match(clause):
            return True
    return False


@lru_cache(maxsize=1)
def _recheck_not_needed() -> re.Pattern[str]:
    """"no recheck needed" (a refusal, the noun, ``recheck_refusal_tails``), "recheck not
    needed", "contrôle pas nécessaire" (the noun, ``recheck_not_needed``); "recheck needed"
    alone asks for it."""
    refused, articles, nouns = (_alternation(k) for k in (
        "recheck_refusals", "card_articles", "recheck_nouns"))
    return re.compile(
        rf"^(?:(?:{refused})\s+(?:(?:{articles})\s+)?(?:{nouns})\s+"
        rf"(?:{_alternation('recheck_refusal_tails')})"
        rf"|(?:(?:{articles})\s+)?(?:{nouns})\s+(?:{_alternation('recheck_not_needed')}))"
        rf"[\s.!]*$")


@lru_cache(maxsize=1)
def _recheck_refused() -> re.Pattern[str]:
    """"no recheck", "pas de contrôle", "sem controlo", "sin control": the recheck refused, the
    clause saying nothing else."""
    return re.compile(
        rf"^(?:{_alternation('recheck_refusals')})\s+(?:(?:{_alternation('card_articles')})\s+)?"
        rf"(?:{_alternation('recheck_nouns')})[\s.!]*$")


# where a cancel's clause ends and what is kept begins
_KEPT = re.compile(r"\s*[,;]\s*|\s+[-\u2013\u2014]\s+|\s+(?:but|mais|mas|pero)\s+", re.I)


def cancels_what(message: str) -> str | None:
    """The words a cancel names when they are all it says besides the cancel ("cancel the
    azithromycin", "annule le furosémide", "cancela a furosemida", "scrap the U&E"): one to
    three words without a number (a dose says a new order), for the caller to match with a
    pending card's drug or test."""
    m = _cancel_what().match(_folded(message))
    return m.group(1).strip() if m else None


@lru_cache(maxsize=1)
def _cancel_what() -> re.Pattern[str]:
    said, articles = (
        "|".join(re.escape(w) for w in sorted(_words()[key], key=len, reverse=True))
        for key in ("cancel_words", "card_articles"))
    return re.compile(
        rf"^(?:{_AROUND}{_SEP}*)*(?:{said})\s+(?:(?:{articles})\s*)?((?:[a-z][a-z0-9'+&/-]*\s*){{1,3}}?)"
        rf"(?:{_SEP}*{_AROUND})*[\s.!?]*$")


def names_ingredient(drug: str, ingredient: str) -> bool:
    """The drug a cancel names is the card's ingredient, or its first words without the salt
    ("cancel the magnesium" of a magnesium sulfate card, "drop the potassium" of potassium
    chloride); "cancel the sulfate" or another drug is not."""
    said, held = fold(drug).lower().split(), fold(ingredient).lower().split()
    return bool(said) and held[:len(said)] == said


def cancels_by_verb(message: str) -> bool:
    """A cancel whose verb only withdraws ("cancel", "annule", "cancela", "anula"), not one that
    may stop a drug she takes ("stop", "para", "arrête")."""
    said = cancels_what(message)
    first = _folded(message).lstrip(" ,.!").split()
    verbs = {fold(str(w)).lower() for w in _words()["cancel_verbs"]}
    return said is not None and any(w.strip(",.!") in verbs for w in first[:3])


def cancels_a_card(message: str) -> bool:
    """The message only cancels a card it names in words of its own ("cancel the ortho
    referral"), whichever card is pending: never a request to draft one."""
    low = " ".join(fold(message).lower().replace("’", "'").split())
    return bool(_cancel_named().match(low)) and not _opening("reminder_words").match(low)


@lru_cache(maxsize=1)
def _cancel_named() -> re.Pattern[str]:
    """A cancel naming the card with one or two words of its own between the article and the
    noun ("cancel the ortho referral", "annule la demande d'avis"): the words are group 1."""
    said, nouns, articles = (
        "|".join(re.escape(w) for w in sorted(_words()[key], key=len, reverse=True))
        for key in ("cancel_words", "card_nouns", "card_articles"))
    return re.compile(
        rf"^(?:{_AROUND}[\s,.!]*)*(?:{said})\s*(?:(?:{articles})\s*)?((?:[a-z0-9+]+\s+){{1,2}})"
        rf"(?:{nouns})(?:[\s,.!]*{_AROUND})*[\s.!]*$")


@lru_cache(maxsize=1)
def _approve() -> re.Pattern[str]:
    said = "|".join(re.escape(fold(w).lower())
                    for w in sorted(_words()["approve_words"], key=len, reverse=True))
    around = (r"(?:ok|okay|please|pls|svp|stp|por favor|porfa|yes|yep|yeah|oui|sim|si|vale|"
              r"bien|good|fine|great|thanks|merci|obrigado|obrigada|gracias|then|alors|entao|"
              r"de una|listo|perfecto|perfeito|beleza|parfait|d'accord|cool|sure|claro)")
    return re.compile(rf"^(?:{around}{_SEP}*)*(?:{said})(?:{_SEP}+(?:{said}|{around}))*"
                      rf"{_SEP}*$")


def acknowledges(message: str) -> bool:
    """The message only acknowledges ("ok", "yes", "oui", "sim", "vale"): with a card pending,
    answered as an approval in words is (the card's own Approve writes it)."""
    said = {_plain(w) for w in _words()["acknowledge_words"]}
    return _plain(message).strip(" .!") in said


@lru_cache(maxsize=1)
def _kept_drug() -> re.Pattern[str]:
    table = _words()["kept_drug"]

    def any_of(key: str) -> str:
        return "|".join(re.escape(_plain(w)) for w in sorted(table[key], key=len, reverse=True))

    return re.compile(rf"^(?:(?:{any_of('openers')})[\s,.!]*)*(?:{any_of('verbs')})"
                      rf"(?:\s+(?:{any_of('objects')}))*[\s.!]*$")


def keeps_the_drug(message: str, surfaces: tuple[str, ...] = ()) -> bool:
    """"actually keep it", "leave him on it", "on le garde", "mantém", "déjalo": the drug a
    pending stop card stops is kept, so the stop is withdrawn (asked only of stop cards).
    ``surfaces``: the pending stop's drug as written in the message ("deixa, mantém o AAS"),
    read as "it"."""
    plain = _plain(message)
    for surface in sorted({_plain(s) for s in surfaces if s.strip()}, key=len, reverse=True):
        plain = re.sub(rf"(?<![a-z0-9]){re.escape(surface)}(?![a-z0-9])", "it", plain)
    return bool(_kept_drug().match(plain))


def approves(message: str) -> bool:
    """The message only approves the pending card in words ("go ahead", "ok sign it", "valide",
    "pode assinar", "dale, fírmalo"): the card's own Approve writes it, never the conversation."""
    return bool(_approve().match(_folded(message)))


@lru_cache(maxsize=1)
def _pending_asked() -> re.Pattern[str]:
    said = "|".join(re.escape(_plain(w)) for w in sorted(_words()["pending_asked"], key=len,
                                                          reverse=True))
    return re.compile(rf"^(?:{_AROUND}[\s,.!]*)*(?:{said})(?:\s+(?:{_words_of_now()}))?[\s?.!]*$")


def _words_of_now() -> str:
    return "|".join(re.escape(w) for w in _words()["pending_now"])


def asks_pending(message: str) -> bool:
    """The message only asks what is waiting for approval ("what did I just order?", "o que eu
    pedi agora?", "¿qué acabo de pedir?"): the pending cards are said back, nothing changed."""
    return bool(_pending_asked().match(_plain(message)))


def _plain(text: str) -> str:
    """Accent-folded lower case, an apostrophe or a hyphen a space ("qu'est-ce", "qu’est ce")."""
    return " ".join(re.sub(r"['’\-]", " ", fold(text).lower()).strip(" ¿¡").split())


def _asks(actions: tuple[str, ...], low: str = "") -> bool:
    """Actions of a request of its own (a chart question, another order); an order line and the
    words of giving a drug belong to the amendment, and so does a word of him or her alone
    ("too much at his age, go with 5": the reason for the change, no chart asked), and a
    reading told with its state ("make it 100, bp still high": the reason, ``reason_states``)."""
    reason = "lab_or_vital" if _any_of("reason_states").search(low) else ""
    return any(a not in ("order_line", "give", "administer", "prescribe", "prescribe_drug",
                         "switch", "this_patient", reason) for a in actions)


# "850 au lieu de 500", "850 instead of 500", "850 em vez de 500": the new number comes first
_FOR_THE_OLD = re.compile(r"(?<![\d.,/])(\d+(?:[.,]\d+)?)\s*(?:mg|g|mcg)?\s+(?:au lieu d[eu]|"
                          r"instead of|rather than|em vez de|no lugar de|en vez de|en lugar de)"
                          r"\s+\d")


@lru_cache(maxsize=1)
def _from_to() -> re.Pattern[str]:
    """A verb of change (``from_to_verbs``), then the old dose and the new ("passe de 500 à
    1000", "sube de 500 a 850", "go from 500 to 1000"): the second. Never a range said alone
    ("de 500 a 1000 mg", "de 8 a 10 días"), which no verb of change leads."""
    verbs = "|".join(re.escape(w) for w in sorted(_words()["from_to_verbs"], key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{verbs})(?:\s+(?:la|a|the|it|le)?\s*(?:dose|dosis)?)?"
                      r"\s+(?:de|from|da|do)\s+\d+(?:[.,]\d+)?\s*(?:mg|g|mcg)?\s+"
                      r"(?:a|to|para|pra|pour)\s+(\d+(?:[.,]\d+)?)(?![\d/])")


def _bare_dose(low: str) -> str | None:
    """"plutôt 250", "make it 100", "let's do 2.5 instead": a number after a word of change (or
    the one number before it), in the pending dose's unit; "850 au lieu de 500": the first;
    "passe de 500 à 1000": the second."""
    new = _FOR_THE_OLD.search(low) or _from_to().search(low)
    if new:
        return new.group(1).replace(",", ".")
    said = _change_words().search(low)
    if not said:
        return None
    # "leave it at 5" keeps a dose; "at 11" beside the recheck named is its hour
    clock = _AT_A_CLOCK[mentions_recheck(low)]
    number = next((n for n in _BARE_NUMBER.finditer(low, said.end())
                   if not clock.search(low[: n.start()])), None)
    if number is None:  # "let's do 2.5 instead": the one number before the word of change
        before = [n.group(1) for n in _BARE_NUMBER.finditer(low[: said.start()])
                  if not clock.search(low[: n.start()])]
        return before[0].replace(",", ".") if len(before) == 1 else None
    return number.group(1).replace(",", ".")


# the hour a time is said at, a clock without its am/pm and never a bare dose: "a las 11", "às
# 11", "@ 11" always; "at 11" only beside the paired recheck named ("do the recheck at 11
# instead"), since "leave it at 5" or "keep it at 20" say the dose
_AT_A_CLOCK = (re.compile(r"(?<![a-z])(?:@|a las|a la|as)\s*$"),
               re.compile(r"(?<![a-z])(?:at|@|a las|a la|as)\s*$"))


# a combination's strength, each ingredient's amount apart ("30/500", "8/500 mg")
_STRENGTH = re.compile(r"(?<![\d.,/])(\d+(?:[.,]\d+)?/\d+(?:[.,]\d+)?)(?![\d/.,]\d)")


def _strength(low: str, dosage: str) -> str | None:
    """"make it 8/500" of a card of co-codamol "2 × 30/500 mg": the card's dose with the new
    strength in the old one's place ("2 × 8/500 mg"); only after a word of change and only of
    a card dosed by a strength, so "8/500" never reads as a dose of 8."""
    said, old = _change_words().search(low), _STRENGTH.search(dosage or "")
    new = _STRENGTH.search(low, said.end()) if said else None
    if not (said and old and new):
        return None
    return f"{dosage[: old.start()]}{new.group(1).replace(',', '.')}{dosage[old.end():]}"


def _own_drug_number(low: str, drugs: tuple[str, ...], pending: PendingOrder) -> str | None:
    """"la amoxi a 875", "make the amox 500": the card's own drug named with one number (a
    dose, never a count or a length of time), in the pending dose's unit."""
    numbers = _BARE_NUMBER.findall(low)
    if pending.ingredient not in drugs or len(numbers) != 1:
        return None
    return str(numbers[0]).replace(",", ".")


def _by_factor(low: str, dosage: str) -> str | None:
    """"halve it", "double the dose": the pending dose times the factor, in its unit ("300 mg"
    halved is "150 mg"); None when no factor is said or the pending dose has no number."""
    factor = next((float(f) for f, words in _words()["factors"].items()
                   if re.search(rf"(?<![a-z])(?:{'|'.join(map(re.escape, words))})(?![a-z])", low)),
                  None) or _factor_spanned(low)
    return None if factor is None else _by_factor_value(dosage, factor)


def _by_step(low: str, dosage: str) -> str | None:
    """"up it by 50", "reduce by 10 mg", "augmente de 25": the pending dose plus or minus the
    amount, in its unit (a unit said must be the card's); None when no step is said, the
    pending dose has no number or the dose would fall to nothing."""
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(.*)$", dosage or "")
    for sign, pattern in _dose_steps():
        said = pattern.search(low)
        if said and m:
            unit = m.group(2).strip() or "mg"
            if said.group(2) and said.group(2) != unit.lower():
                return None  # "up by 1 g" of a dose in mg: asked, never guessed
            value = round(float(m.group(1)) + sign * float(said.group(1).replace(",", ".")), 3)
            return f"{value:g} {unit}" if value > 0 else None
    bare = _bare_step_up().search(low)
    if bare and m and float(bare.group(1).replace(",", ".")) < float(m.group(1)) and (
            not bare.group(2) or bare.group(2) == (m.group(2).strip() or "mg").lower()):
        return f"{round(float(m.group(1)) + float(bare.group(1).replace(',', '.')), 3):g} " \
               f"{m.group(2).strip() or 'mg'}"  # "sobe 25 mg" of 50 mg: 75 mg, never 25 mg
    return None


@lru_cache(maxsize=1)
def _bare_step_up() -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in sorted(_words()["bare_step_up"], key=len, reverse=True))
    return re.compile(rf"^\W*(?:{words})\s+(\d+(?:[.,]\d+)?)\s*(mg|g|mcg|ml|units?)?\W*$")


@lru_cache(maxsize=1)
def _dose_steps() -> tuple[tuple[int, re.Pattern[str]], ...]:
    def one(key: str) -> re.Pattern[str]:
        words = "|".join(re.escape(w) for w in sorted(_words()["dose_steps"][key], key=len,
                                                       reverse=True))
        return re.compile(rf"(?<![a-z])(?:{words})\s+(?:another\s+|more\s+)?"
                          rf"(\d+(?:[.,]\d+)?)\s*(mg|g|mcg|ml|units?)?(?![a-z\d])")
    return ((1, one("up")), (-1, one("down")))


def _divided_total(low: str, said: str | None, pending: PendingOrder) -> str | None:
    """"split it into two doses", "divise la dose en deux prises", "divide it bd" of a card given
    once a day: the day's amount kept and shared out (1 g daily split in two is 500 mg twice
    daily, never 1 g twice daily); None without a verb of dividing or a count to divide by."""
    now, then = per_day(pending.frequency or ""), per_day(said or "")
    if not _dividing().search(low) or not now or not then or then <= now:
        return None
    return _by_factor_value(pending.dosage, now / then)


@lru_cache(maxsize=1)
def _dividing() -> re.Pattern[str]:
    said = "|".join(re.escape(w) for w in sorted(_words()["dividing_words"], key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{said})")


def _by_factor_value(dosage: str, factor: float) -> str | None:
    """The pending dose times ``factor`` in its unit (1 g halved is 500 mg)."""
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*(.*)$", dosage or "")
    if not m:
        return None
    value, unit = round(float(m.group(1)) * factor, 3), m.group(2).strip() or "mg"
    if unit.lower() == "g" and value < 1:
        value, unit = round(value * 1000, 3), "mg"
    return f"{value:g} {unit}"


_TIMES_DAILY = {1: "once daily", 2: "twice daily", 3: "three times daily", 4: "four times daily"}


@lru_cache(maxsize=1)
def _frequency_steps() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """One intake a day more, one less (amendments.yaml ``frequency_steps``)."""
    w = _words()["frequency_steps"]

    def alt(key: str) -> str:
        return "|".join(re.escape(x) for x in sorted(w[key], key=len, reverse=True))
    one, day, intake = rf"(?:{alt('one')})", rf"(?:{alt('per_day')})", rf"(?:{alt('intakes')})"
    counted = (rf"(?:\s+{alt('times')})?\s+(?:{{step}})\s+{day}"  # "une (fois) de plus par jour"
               rf"|\s+{intake}\s+(?:{{step}})(?![a-z])"  # "une prise de plus", "uma toma a mais"
               rf"|\s+(?:{{step}})\s+{intake}(?![a-z])")  # "one more dose", "una más dosis"
    more = (rf"(?<![a-z]){one}(?:{counted.format(step=alt('more'))})"
            rf"|(?<![a-z])(?:{alt('more')})\s+{one}\s+{intake}(?![a-z])"  # "mais uma toma"
            rf"|(?<![a-z])(?:{alt('adding')})\s+{one}\s+{intake}(?![a-z])"  # "ajoute une prise"
            rf"|(?<![a-z])(?:{alt('more_one')})\s+{intake}(?![a-z])")  # "mais uma toma ao dia"
    less = (rf"(?<![a-z]){one}(?:{counted.format(step=alt('less'))})"
            rf"|(?<![a-z])(?:{alt('removing')})\s+(?:{alt('of_the')})\s*(?:{alt('day_times')})"
            rf"(?![a-z])")
    return re.compile(more), re.compile(less)


def _stepped_frequency(low: str, pending: str | None) -> str | None:
    """"une de plus par jour" on a card three times a day: four times daily; "tira a da noite"
    on one of 8/8h: twice daily. None when no step is said or the card's doses a day are not a
    whole count (weekly, as needed) or would fall to none."""
    more, less = _frequency_steps()
    step = 1 if more.search(low) else -1 if less.search(low) else 0
    a_day = per_day(pending or "") if step else None
    if not a_day or a_day != int(a_day):
        return None
    return _TIMES_DAILY.get(int(a_day) + step) or (
        f"{int(a_day) + step} times daily" if int(a_day) + step > 0 else None)


@lru_cache(maxsize=1)
def _factor_spans() -> tuple[tuple[float, re.Pattern[str]], ...]:
    def alt(words: list[str]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    counts = alt(_words()["factor_counts"])
    return tuple(
        (float(f), re.compile(rf"(?<![a-z])(?:{alt(s['verbs'])})(?![a-z])(?:\s+[\w'-]+){{0,3}}?"
                              rf"\s+(?:{alt(s['measures'])})(?![a-z])(?!\s*(?:{counts})\b)"))
        for f, s in _words()["factor_spans"].items())


def _factor_spanned(low: str) -> float | None:
    """"divise la dose par deux", "divide a dose por dois": the factor said as a verb and its
    measure with the dose between them; None for a split of the day's dose ("en deux prises")."""
    return next((f for f, said in _factor_spans() if said.search(low)), None)


def _after_the_duration(low: str, number: str) -> bool:
    """The bare number is said after a length of time ("for 10 days not 5"), as its correction,
    not before it as a dose ("make it 250 for 10 days")."""
    said = re.search(r"\d+\s*(?:days?|d|jours?|j|dias?|d[ií]as?|weeks?|semaines?|semanas?)\b",
                     low)
    at = re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d.,])", low[said.end():]) if said else None
    return at is not None


# the ward's fractions of a week, year or month written as a course's length ("for 5/7", "x 2/52",
# "3/12"), as the order line reads them; never a date ("5/7/2026"), a pressure ("120/70"), "24/7"
# (always) or an interval ("12/12h", "8/8 h")
_WARD_FRACTION = re.compile(r"(?<![\d/.,])(?<!\bde )(?!24/7)(\d{1,2})\s?/(7|52|12)(?![\d/.,]|\s*h)")
_WARD_FRACTION_DAYS = {"7": 1, "52": 7, "12": 30}


def _days(duration: str | None, low: str) -> int | None:
    m = re.match(r"(\d+) (day|week|month)", duration or "")
    if m:
        return int(m.group(1)) * {"day": 1, "week": 7, "month": 30}[m.group(2)]
    bare = re.search(_words()["bare_durations"], low)
    if not bare:
        ward = _WARD_FRACTION.search(low)  # "for 5/7", "x 2/52": the ward's days and weeks
        return int(ward.group(1)) * _WARD_FRACTION_DAYS[ward.group(2)] if ward else None
    weeks = any(w in bare.group(0) for w in _words()["weeks"])
    months = re.search(r"mois|month|mes", bare.group(0))
    count = int(bare.group(1)) if bare.group(1).isdigit() else 1  # "une semaine": one
    return count * (7 if weeks else 30 if months else 1)


def redraft(pending: PendingOrder, change: Change) -> dict[str, Any]:
    """The prescribe_medication arguments of the pending order with the change applied."""
    dose = change.dose or pending.dosage
    if change.dose and re.fullmatch(r"\d+(?:\.\d+)?", change.dose):
        unit = re.search(r"[a-zµ/]+(?:/[a-z]+)*\s*$", pending.dosage.lower())
        said = unit.group(0).strip() if unit else "mg"
        # "el paracetamol a 650" after 1 g: 650 mg, never 650 g (a bare number of ten or more
        # after a dose in grams is milligrams, as a ward writes it)
        if said == "g" and float(change.dose) >= 10:
            said = "mg"
        dose = f"{change.dose} {said}"
    notes = _notes(pending)
    if change.infusion:
        notes = [p for p in notes if not p.startswith("over ")] + [change.infusion]
    if change.route:
        notes = [p for p in notes if not p.startswith("route ")] + [f"route {change.route}"]
    if change.days:
        notes = [p for p in notes if not p.startswith("for ")] + [f"for {change.days} days"]
    if change.as_needed and not any(as_needed(p) for p in notes):
        notes = [*notes, change.as_needed]
    drug = change.drug or pending.medication
    return {"patient_id": pending.patient_id, "medication_name": drug, "dosage": dose,
            "frequency": _frequency(pending.frequency, change.frequency),
            "notes": "; ".join(notes) or None}


def _frequency(pending: str | None, said: str | None) -> str | None:
    """The card's frequency after the follow-up: the one said, except that "as needed" alone
    ("si dolor", "prn", "se dor") keeps the card's interval and adds the condition, so "1 g
    c/8h" made as-needed is "c/8h si dolor", never a dose with no interval."""
    if not said:
        return pending
    if pending and as_needed(said) and parse_timing(said) is None and parse_timing(pending):
        return f"{pending} {said}"
    return said


@lru_cache(maxsize=1)
def _corrections() -> re.Pattern[str]:
    words = sorted(_words()["correction_words"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(w) for w in words)})(?![a-z])")


# the numbers of a reading as a correction gives them: "150/95", "38,2", "88"
_PAIR = re.compile(r"(?<![\d.,/])(\d{2,3})\s*/\s*(\d{2,3})(?![\d/])")
_ONE = re.compile(r"(?<![\d.,/])(\d+(?:[.,]\d+)?)(?![\d/]|[.,]\d)")
_NOT_THE_CARDS = re.compile(r"(\d+(?:[.,]\d+)?)\s*,?\s*(?:not|instead of|rather than|et pas|"
                            r"pas|au lieu de|e nao|nao|em vez de|y no|no|en vez de)\s+"
                            r"(\d+(?:[.,]\d+)?)")
_READING = re.compile(r"^(\D+?)\s*(\d[\d.,/]*)\s*(.*)$")  # "blood pressure 150/90 mmHg"


def corrected_reading(said: Request, card: PendingCard) -> str | None:
    """The pending reading with the values a correction gives ("sorry, it was 150/95": "blood
    pressure 150/95 mmHg"), or None when the message is no correction of it: another request
    (a question, a drug, a patient, another vital sign), no word of change, or values that are
    not the reading's shape (a pair for a blood pressure, one number otherwise)."""
    drafted = _READING.match(card.request.get("reading") or "")
    # read with the question it answers ("500 qds" after "what dose?" for "use cefalexin instead")
    ent, message = said.entities, said.understood or said.message
    low = " ".join(fold(message).lower().split())
    if (card.kind != "vital_sign" or card.edited or drafted is None or "?" in message
            or ent.drugs or ent.patient_names or ent.patient_ids
            or set(ent.actions) - {"record_vital", *_half_read_as_a_question(low)}
            or not (_change_words().search(low) or _corrections().search(low))):
        return None
    vital, values, unit = drafted.groups()
    own = [r for r in said.ward.readings if r.vital != vital.strip()]
    if own:  # "sorry, HR 88" after a blood pressure: a reading of its own
        return None
    asked = set(ent.actions) - set(_half_read_as_a_question(low))
    if asked and not said.ward.readings:  # "typo - RR 26": the card's own vital named
        return None
    if _half_read_as_a_question(low) and "/" not in values:
        return None  # "sorry, diastolic was 66" after a heart rate: no half of it
    if "/" in values:
        pairs = _PAIR.findall(low)
        new = "/".join(pairs[0]) if len(pairs) == 1 else _half_corrected(low, values)
    else:
        ones = [o.replace(",", ".") for o in _ONE.findall(low)]
        # "2.9 not 3.9", "2,9 et pas 3,9": the value said in place of the card's
        instead = _NOT_THE_CARDS.search(low)
        if instead and instead.group(2).replace(",", ".") == values.replace(",", "."):
            ones = [instead.group(1).replace(",", ".")]
        new = ones[0] if len(ones) == 1 else None
    return f"{vital.strip()} {new} {unit}".strip() if new and new != values else None


@lru_cache(maxsize=1)
def _halves() -> dict[str, re.Pattern[str]]:
    return {half: re.compile(rf"(?<![a-z])(?:{_alternation_of(words)})(?![a-z])")
            for half, words in _words()["reading_halves"].items()}


def _alternation_of(words: Sequence[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _half_read_as_a_question(low: str) -> tuple[str, ...]:
    """A half of the blood pressure named ("diastolic was 66") reads as a chart question on its
    own; beside a pending reading and a word of correction it is the card's half."""
    return ("chart_question",) if any(w.search(low) for w in _halves().values()) else ()


def _half_corrected(low: str, values: str) -> str | None:
    """A blood pressure with the one half a correction names ("sorry, diastolic was 66" after
    118/76: "118/66"); None unless exactly one half is named with exactly one number."""
    named = [half for half, words in _halves().items() if words.search(low)]
    ones = _ONE.findall(low)
    if len(named) != 1 or values.count("/") != 1:
        return None
    systolic, diastolic = values.split("/")
    # "systolic was 126 not 162": the value said in place of the card's own half
    instead = _NOT_THE_CARDS.search(low)
    if len(ones) == 2 and instead and instead.group(2) == (
            systolic if named[0] == "systolic" else diastolic):
        ones = [instead.group(1)]
    if len(ones) != 1:
        return None
    number = ones[0].replace(",", ".")
    return f"{number}/{diastolic}" if named[0] == "systolic" else f"{systolic}/{number}"


@lru_cache(maxsize=1)
def _repeat_words() -> re.Pattern[str]:
    words = sorted(_words()["repeat_words"], key=len, reverse=True)
    polite = r"(?:\s*(?:please|pls|plz|svp|stp|por favor|pf|then|alors|entao|entonces|ok|okay))*"
    return re.compile(rf"^{polite}\s*(?:{'|'.join(re.escape(w) for w in words)}){polite}\s*"
                      r"[.!]*$")


def repeats(message: str) -> bool:
    """The whole message asks the last medication card again ("same again", "repeat the last
    order", "refais la même prescription", "repite la última orden"): no drug, test, time or
    question of its own (``repeat_words``)."""
    low = " ".join(fold(message).lower().replace(",", " ").split())
    return "?" not in message and bool(_repeat_words().match(low))
