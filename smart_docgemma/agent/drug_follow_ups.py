"""Follow-up questions about the drug of the conversation, answered from the shipped tables:
"max per day?" (the label's adult maximum, a child's mg/kg a day for the charted weight, the
label's dose at her kidney band), "how much is that in ml of 120mg/5ml" and "in mg?" (arithmetic
from the strength the clinician gives; asked when none is given), "what would you use instead?"
(only the advice the findings' own sources state, with the findings shown again).

The drug is the conversation's: the pending card's, else the one drug the clinician's last
message discussed for the patient in context, never one picked from the chart at large. A
table that holds nothing for the drug is said so; nothing is answered from memory. The words
are data (``data/drug_follow_ups.yaml``, en/fr/pt/es).

    kind = asked("dose max par jour ?", entities)          # "max_day"
    about = discussed(pending, history)                    # Discussed("tramadol", …)
    reply = answer(kind, message, about, data)             # Reply(text, asks=False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import knowledge
from ..approval.types import PendingOrder
from ..checks import chart_values, drug_safety, patient_rules, rules
from ..checks.context import HookData
from ..checks.findings import Finding
from ..datafiles import safe_yaml
from ..knowledge import daily_maximum, disease, quantities, strengths, weight_dose
from ..languages import fold
from ..reading.entities import Entities
from ..reading.subject import names_another
from ..tools.chart.in_context import InContext
from .extraction import extract

KINDS = ("max_day", "ml", "mg", "alternative", "child")
# a strength as written in a reply ("120mg/5ml", "250 mg / 5 ml", "160 mg/5ml"), cut out before
# the words left beside it are counted
_STRENGTH_WRITTEN = re.compile(r"\d+(?:[.,]\d+)?\s*(?:mg|g|mcg)\s*/\s*\d*(?:[.,]\d+)?\s*m?l\b",
                               re.I)
# a dose written in mg, not per kg nor a strength ("240 mg", "1 g"; not "40 mg/kg", "120mg/5ml")
_MG = re.compile(r"(\d+(?:[.,]\d+)?)\s*(mg|g|mcg)\b(?!\s*/)", re.I)
# words in a finding's management that state what to use in the drug's place
_ADVICE = re.compile(
    r"\b(?:prefer\w*|instead|alternatives?|switch(?:ing)? to|choose another|rather than|"
    r"another (?:drug|agent|antibiotic|analgesic|statin|method|antidepressant|ppi)|"
    r"use (?:a|an) (?!(?:much )?lower|smaller|reduced|lowest)\w+|use (?:famotidine|pantoprazole|"
    r"acetaminophen|paracetamol|azithromycin|bisoprolol|metoprolol|amlodipine)|"
    r"(?:is|are) (?:a )?safer)",
    re.I,
)

# a daily amount a finding allows ("at most 20 mg a day", "limit simvastatin to 20mg/day")
_CAP = re.compile(r"\b(?:at most|limit \w+ to|no more than|maximum of)\s+[\d.]+\s*(?:mg|g)\b",
                  re.I)
# a kind of drug named as the alternative ("another antibiotic", "a non-sedating antihistamine")
_CLASS_NAMED = re.compile(
    r"\b(?:another|a|an) (?:[\w-]+ )?(?:antibiotic|analgesic|statin|antihistamine|"
    r"antidepressant|ppi|beta-blocker|contraceptive|method|heparin)\b", re.I)


@dataclass(frozen=True)
class Discussed:
    """The drug a follow-up points at and what was said of it."""

    drug: str | None  # the generic name, None when the conversation holds none
    dose: str  # the order's dose as drafted or written ("240 mg", "40 mg/kg/day in 3 doses")
    said: str  # the earlier message, for a strength or volume written there
    product: str = ""  # the card's medication as drafted ("acetaminophen 160 MG/5ML Oral …")


@dataclass(frozen=True)
class Reply:
    text: str
    asks: bool  # a question asked back (the strength, the drug)


@lru_cache(maxsize=1)
def _words() -> dict[str, Any]:
    table: dict[str, Any] = safe_yaml(
        (Path(__file__).parent / "data" / "drug_follow_ups.yaml").read_text())
    return table


def _any(key: str) -> str:
    return "|".join(sorted(_words()[key], key=len, reverse=True))


def _low(text: str) -> str:
    return " ".join(fold(text or "").lower().replace("’", "'").split())


def asked(message: str, own: Entities, timed: bool = False) -> str | None:
    """The kind of follow-up ``message`` asks ("max_day", "ml", "mg", "alternative"); None for
    a message that names a drug, a person or an identifier, runs long, or asks none of them
    (``timed``: the turn's reading found a time said in it)."""
    low = _low(message)
    if own.drugs or own.patient_names or own.patient_ids:
        return None
    if len(low.split()) > int(_words()["max_words"]):
        return None
    unit = asked_unit(low) or ("ml" if re.search(
        rf"(?<![\w'])(?:{_any('liquid_asked')})(?![\w'])", low) else None)
    if unit == "mg" and re.search(r"(?<!\w)Mg(?!\w)", message):
        return None  # "K and Mg?", "in Mg?": magnesium, as the ward writes it
    if re.search(r"(?<![\w])(?:mg|mmol|meq|umol|g)\s*/\s*d?l(?![\w])", low):
        return None  # "mg last 24h? in mg/dL pls": a result's unit, no dose's
    if unit:
        return unit
    if re.search(rf"(?<![\w'])(?:{_any('strength_asked')})(?![\w'])", low):
        return "ml"  # "what strength syrup?": the volume's question, its strength asked back
    most = f"(?:{_any('max_words_said')})"
    if re.search(rf"(?<![\w']){most}(?![\w'])", low) and (
        re.search(rf"(?<![\w'])(?:{_any('day_or_dose')})(?![\w'])", low)
        # "max?", "and the max?", "e o máximo?": the word alone
        or re.fullmatch(rf"(?:and|et|e|y|so)?\s*(?:the|la|le|o|a|el)?\s*{most}\s*\??", low)
    ):
        return "max_day"
    child = f"(?:{_any('child')})"
    if re.fullmatch(rf"¿?\s*(?:(?:and|et|e|y) )?(?:the |la |a |o |el )?(?:dose |dosis )?"
                    rf"{child}\s*\??", low):
        return "child"
    if _changes_something(low, own) or timed:
        return None  # "once daily instead", "give it iv instead", "let's do 2.5 instead"
    if re.search(rf"(?<![\w'])(?:{_any('alternative')})(?![\w'])", low):
        return "alternative"
    return None


def strength_given(message: str, own: Entities,
                   history: list[dict[str, Any]]) -> tuple[str, str] | None:
    """A bare strength ("120mg/5ml", "c'est du 250 mg/5 ml") answering the strength this
    assistant just asked for: the unit the clinician's question asked ("ml", "mg") and that
    question with the strength after it, read as one follow-up; None for anything else."""
    last = history[-1] if history else {}
    if last.get("role") != "assistant" or _STRENGTH_ASKED not in str(last.get("content") or ""):
        return None
    if own.drugs or own.patient_names or own.patient_ids or strengths.strength_in(message) is None:
        return None
    rest = _STRENGTH_WRITTEN.sub(" ", message)
    if len(re.findall(r"\w+", rest)) > int(_words()["max_words_beside_strength"]):
        return None
    users = [t for t in history if t.get("role") == "user"]
    question = str(users[-1].get("content") or "") if users else ""
    unit = asked_unit(_low(question)) or "ml"
    return unit, f"{question} {message}"


def _changes_something(low: str, own: Entities) -> bool:
    """A number, a frequency, a route or a length said: a change of the card, not a question of
    what else to use (a day said, "thursday instead", moves a lab card: ``asked``'s ``timed``)."""
    dose = own.dose
    fields = dose is not None and any((dose.written, dose.frequency, dose.route, dose.duration))
    said = re.search(rf"(?<![\w'])(?:{_any('change_words')})(?![\w'])", low)
    return bool(re.search(r"\d", low)) or fields or bool(said)


def asked_unit(low: str) -> str | None:
    """"in ml?", "how many mls", "combien en mg", "quantos ml", "¿en mg?": the unit asked."""
    words = _words()
    for unit, names in words["units"].items():
        said = "|".join(names)
        into = _any("into")
        how = _any("how_many")
        if re.search(rf"(?<![\w'])(?:(?:{into})\s+|(?:{how})\s+(?:\w+\s+)?)(?:{said})(?![\w'])",
                     low) or (unit == "ml" and re.search(rf"(?<![\w/\d.])(?:{said})\s*\?", low)):
            return str(unit)
    if re.search(rf"(?<![\w'])(?:{_any('volume_asked')})", low):
        return "ml"  # "what volume of the 120mg/5ml is that": the dose in ml
    return None


def discussed(pending: PendingOrder | None, history: list[dict[str, Any]],
              here: InContext | None = None) -> Discussed:
    """The one drug the clinician's last message named for the patient in context, when it is
    not the pending card's ("is ibuprofen ok?" asked while an amoxicillin card waits); else the
    pending card's drug and dose; else none (several drugs named, or someone else)."""
    text, words = _named_before(history)
    ent = extract(text) if text else None
    # "paracetamol dose for kofi?" in Kofi's chart: her own name names no one else
    one = ent is not None and len(set(ent.drugs)) == 1 and not names_another(
        ent.patient_names, ent.patient_ids, here)
    if pending is not None and not (
            one and ent is not None and knowledge.generic(ent.drugs[0]) != pending.ingredient):
        dose = " ".join(x for x in (pending.dosage, pending.frequency) if x)
        return Discussed(pending.ingredient, dose, words, pending.medication)
    if ent is None or not one:
        return Discussed(None, "", words)
    said_dose = ent.dose
    written = " ".join(
        x for x in (said_dose.written, said_dose.frequency) if x) if said_dose else ""
    return Discussed(knowledge.generic(ent.drugs[0]), written, words)


def _named_before(history: list[dict[str, Any]]) -> tuple[str, str]:
    """The clinician's last message, read back past the follow-ups just asked ("max per day?"
    then "in ml?" then "alternative?": the message before them named the drug), and its words
    with the follow-ups' after it (a strength written in one of them)."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    if not said:
        return "", ""
    users = [str(t.get("content") or "") for t in history if t.get("role") == "user"]
    walked: list[str] = []
    for text in reversed(users[-(int(_words()["walk_back"]) + 1):]):
        walked.insert(0, text)
        if asked(text, extract(text)) is None:
            return text, "\n".join(walked)
    return users[-1], users[-1]


def answer(kind: str, message: str, about: Discussed, data: HookData | None) -> Reply:
    """The reply to a follow-up of ``kind`` about ``about``'s drug on this chart (``data``,
    None without a patient in context)."""
    if kind in ("ml", "mg"):
        return _volume(kind, message, about, data)
    if about.drug is None:
        return Reply("Which drug do you mean? Name it (for example \"max per day of "
                     "paracetamol?\"); I answer this only for a drug named in this conversation.",
                     True)
    if kind == "max_day":
        return Reply(_max_day(about.drug, data), False)
    if kind == "child":
        return Reply(_for_a_child(about.drug), False)
    return Reply(_alternative(about.drug, data), False)


# ---------------------------------------------------------------- the daily maximum
def _max_day(drug: str, data: HookData | None) -> str:
    report = drug_safety.check([drug], data, asking=True) if data is not None else None
    age = report.age if report else None
    lines = [f"Most a day of {drug}:"]
    if age is not None and age < disease.adult_age():
        lines.append(_child_line(drug, data))
    else:
        ceilings = daily_maximum.adult_maximum(drug, age)
        lines += [f"- adult: {c.text} ({c.source})" for c in ceilings] or [
            f"- the adult daily maximum of {drug} is not in the data I have (the dose table "
            "holds no maximum for it), so none is given."]
    renal = [f for f in (report.findings if report else []) if f.topic == "renal"]
    lines += [f"- at this patient's kidney function ({'; '.join(f.evidence) or 'on file'}): "
              f"{_band(f)} ({_sources(f)})" for f in renal]
    # a label's cap beside another of the patient's drugs ("simvastatin at most 20 mg a day with
    # amlodipine"): the check's finding that states it
    capped = [f for f in (report.findings if report else [])
              if f.topic != "renal" and _CAP.search(f"{f.summary} {f.management}")]
    lines += [f"- beside this patient's other medicines: {f.summary} ({_sources(f)})"
              for f in capped]
    return "\n".join(lines)


def _for_a_child(drug: str) -> str:
    """"and for a child?": the paediatric table's row per kg, for no child in particular (no
    weight of this chart is used: the patient in context is not the child asked about)."""
    row = daily_maximum.child_dose(drug)
    if row is None:
        return (f"A child's dose of {drug} is not in the data I have (the paediatric table holds "
                "no row for it), so none is given; the adult dose is not a child's.")
    return (f"{drug} for a child, per kg ({row.source}): {row.text}. Work it out from the "
            "child's own recent weight; no weight of this chart is used.")


def _band(finding: Finding) -> str:
    band = finding.message.get("args", {}).get("band") if finding.message else None
    return str(band or finding.management or finding.summary)


def _child_line(drug: str, data: HookData | None) -> str:
    weight = _fresh_weight(data)
    if weight is None:
        return ("- for this child: no recent weight on file, so no mg/kg ceiling is worked out "
                "(the adult maximum is not a child's).")
    ceiling = daily_maximum.child_maximum(drug, weight)
    if ceiling is None:
        return (f"- for this child: a daily ceiling of {drug} for children is not in the data I "
                "have (the paediatric table holds none for it), so none is given.")
    return f"- for this child: {ceiling.text} ({ceiling.source})"


def _fresh_weight(data: HookData | None) -> knowledge.Weight | None:
    """The latest weight when it is recent enough to dose a child by (as the check uses it)."""
    if data is None:
        return None
    weight = chart_values.latest_weight(data)
    days = patient_rules.age_days(data)
    if weight is None or days is None:
        return None
    if weight.days_old > quantities.max_age_days("child_weight", days):
        return None
    return knowledge.Weight(weight.kg, weight.when)


# ---------------------------------------------------------------- ml and mg
_STRENGTH_ASKED = "What strength is it"
_ASK_STRENGTH = (_STRENGTH_ASKED + " (mg per ml, as on the bottle: for example 120 mg/5 ml)? "
                 "No strength is assumed, so the volume is not worked out without it.")


def _volume(kind: str, message: str, about: Discussed, data: HookData | None) -> Reply:
    strength = (strengths.strength_in(message) or strengths.strength_in(about.said)
                or strengths.of_product(about.product))
    volume = strengths.volume_in(message) or (
        strengths.volume_in(about.dose or about.said) if kind == "mg" else None)
    if kind == "mg" and volume is not None:
        if strength is None:
            return Reply(_ASK_STRENGTH, True)
        sums = strengths.mg_for(volume, strength)
        return Reply(f"{_of(about)}{sums.arithmetic}.", False)
    mg, how = _dose_mg(about, data)
    if mg is None:
        return Reply(how or "Which dose in mg do you mean? Give the dose (for example 240 mg) "
                     "and I will work out the volume.", True)
    if kind == "mg":
        return Reply(f"{_of(about)}{how}", False)
    if strength is None:
        return Reply(f"{how}\n{_ASK_STRENGTH}", True)
    sums = strengths.ml_for(mg, strength)
    return Reply(f"{_of(about)}{how}\n{sums.arithmetic}: give {sums.amount:g} ml a dose "
                 "(arithmetic from the strength you gave; check it against the product).", False)


def asks_volume_beside(message: str, drugs: list[str]) -> bool:
    """One drug named with its liquid's strength and the volume asked in the same message: read
    from the words alone, so a turn that asks no volume reads no chart for it."""
    return (len(set(drugs)) == 1 and strengths.strength_in(message) is not None
            and asked_unit(_low(message)) == "ml")


def volume_beside_check(message: str, drugs: list[str], data: HookData | None) -> str | None:
    """One drug named with its liquid's strength, a dose and the volume asked in the same
    message ("Amoxil 400 mg/5 mL, 90 mg/kg/dia de 12/12h, quantos mL por dose?"): the volume a
    dose worked from the strength the clinician gave, shown beside the drug's check; None for
    anything else (no strength written, no ml asked, several drugs, no dose to work from)."""
    if not asks_volume_beside(message, drugs):
        return None
    dose = _STRENGTH_WRITTEN.sub(" ", message)  # the strength's mg is no dose
    reply = _volume("ml", message, Discussed(drugs[0], dose, dose), data)
    return None if reply.asks else reply.text


def _of(about: Discussed) -> str:
    return f"{about.drug}: " if about.drug else ""


def _dose_mg(about: Discussed, data: HookData | None) -> tuple[float | None, str]:
    """One dose in mg and how it was had: an mg/kg order worked out for the charted weight, a
    dose written in mg, or a child's usual dose from the paediatric table; (None, why)."""
    order = weight_dose.read(about.dose) or weight_dose.read(about.said)
    if order is not None:
        weight = _fresh_weight(data)
        if weight is None:
            return None, "No recent weight on file, so the mg/kg dose is not worked out in mg."
        worked = weight_dose.work_out(order, weight)
        return worked.per_dose_mg, f"{worked.arithmetic}."
    m = _MG.search(about.dose)
    if m:
        mg = float(m.group(1).replace(",", ".")) * {"mg": 1.0, "g": 1000.0, "mcg": 0.001}[
            m.group(2).lower()]
        return mg, f"The dose is {mg:g} mg."
    usual = _usual(about, data)
    if usual is not None:
        return usual.per_dose_mg, f"Usual dose for this child: {usual.arithmetic} ({usual.source})."
    return None, ""


def _usual(about: Discussed, data: HookData | None) -> knowledge.UsualDose | None:
    """A child's usual dose of the drug asked about without a dose ("paracetamol dose for
    him?"), for the charted weight."""
    weight = _fresh_weight(data)
    age = rules.patient_age(data) if data is not None else None
    if about.drug is None or weight is None or age is None or age >= disease.adult_age():
        return None
    return weight_dose.usual_dose(about.drug, weight)


# ---------------------------------------------------------------- an alternative
def _alternative(drug: str, data: HookData | None) -> str:
    if data is None:
        return f"No patient in context: the check of {drug} cannot run, so no alternative is given."
    report = drug_safety.check([drug], data, asking=True)
    findings = sorted(report.findings, key=lambda f: ("critical", "warning", "info").index(
        f.severity) if f.severity in ("critical", "warning", "info") else 3)
    advice = [f for f in findings if _ADVICE.search(f.management or "")]
    named = [f for f in advice if extract(f.management).drugs or _CLASS_NAMED.search(
        f.management)]
    lines = [f"What the sources behind the findings for {drug} advise instead:" if named else
             f"No sourced alternative is held for {drug}: none of the sources behind its "
             "findings names a drug to use instead, and none is suggested from memory."]
    if advice:
        lines += [f"- {f.management} ({_sources(f)})" for f in advice]
    drafted = {f"{f.alternative['display']} ({f.alternative['source']}: "
               f"\"{f.alternative['says']}\")": None for f in findings if f.alternative}
    if drafted and not named:
        # the order check's replacement table, each entry with the source that states it
        lines.append(f"- The card's suggestion: {'; '.join(drafted)}.")
    if findings:
        lines.append(f"The findings for {drug} on this chart again:")
        lines += [f"- {drug_safety.line(f)}" for f in findings]
    else:
        lines.append(f"The check raised no finding for {drug} on this chart, so there is "
                     "nothing it advises replacing it for.")
    return "\n".join(lines)


def _sources(finding: Finding) -> str:
    return "; ".join(dict.fromkeys(s.label for s in finding.sources)) or "source not named"
