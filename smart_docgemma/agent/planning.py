"""Deterministic planning: which tools a query needs and when code alone can
fill their arguments (the fast path — zero model calls before synthesis).

Task patterns (``data/rules.yaml``) decide what "done" means for a question;
whenever extraction fixes a needed tool and all its required arguments, no
model is asked to select it.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from .. import knowledge
from ..knowledge import analytes, classes
from ..knowledge.mentions import find_drugs
from ..languages import fold
from ..reading.dosage import Allergy, Dose
from ..reading.drugs import allergen_named, hers_of_class
from ..reading.entities import Entities
from ..reading.request import Request, ordered_of
from ..reading.subject import (
    InContext,
    Subject,
    is_own_id,
    said_birth_date,
    subject_of,
    without_identifiers,
)
from ..tools import catalog
from ..tools.chart.in_context import ChartInContext
from ..tools.words import ward_words
from ..tools.words.dosing import release_form
from ..tools.words.windows import keys_of
from . import draft_requests, ward_requests
from .extraction import reaction_beside, read, recording_words_out
from .prompts import rules
from .state import Turn


def required_tools(state: Turn) -> list[str]:
    """Tools the query's task patterns require, in running order."""
    if draft_requests.requested(state):
        return ["draft_document"]  # the document is the turn's one write (a referral inside it)
    ent = state.entities
    needed = set()
    for pattern in rules()["task_patterns"].values():
        if pattern.get("with_entity") and not ent.named(pattern["with_entity"]):
            continue
        if pattern.get("with_action") and pattern["with_action"] not in ent.actions:
            continue
        unless = pattern.get("unless_action") or ()
        if set([unless] if isinstance(unless, str) else unless) & set(ent.actions):
            continue  # "ok to start X?" asks, orders nothing
        if pattern.get("action") in ent.actions or (
            pattern.get("entity") and ent.named(pattern["entity"])
        ):
            needed.update(pattern["requires"])
    needed.update(ent.lesson_tools)  # an approved lesson acts as one more task pattern
    if "search_patient" in needed and _asks_of_her_by_name(state, needed):
        # her own name (with her birth date or not) names the patient in context: what is asked
        # of her is answered from her chart, with no search for her ("Grace Adeyemi - augmentin
        # ok?"); her name alone, or her identifiers asked, is still looked up
        needed.discard("search_patient")
        if request(state).focus is not None:  # "Margaret is on what?": her chart answers it
            needed.add("get_patient_chart")
    elif "search_patient" in needed and request(state).focus == "identifiers":
        needed.discard("get_patient_chart")  # "MRN of Jane Doe, DOB …": the lookup answers it
    own = {"this_patient", "chart_question"} & set(ent.actions)
    if "check_drug_interactions" in needed and not ent.drugs and own:
        # "interactions in her current meds": among her own
        needed.discard("check_drug_interactions")
        needed.add("get_patient_chart")
    # "can she have X", "is X ok with her"
    asked = {"give", "check_interactions"} & set(ent.actions)
    if ("give" in ent.actions and len(interaction_drugs(state)) < 2) or (
        asked and about_her_state(state)
    ):
        needed.discard("check_drug_interactions")  # one drug, no chart medication: its label
        needed.add("check_drug_safety")  # "with her kidneys": the label and the chart's context
        if asked and about_her_state(state):
            needed.discard("get_patient_chart")  # the safety check reads her eGFR, K+, pregnancy
    if request(state).foci and not other_patients(state):
        # "INR? and stop the aspirin", "if K < 3.5 give …": a result asked beside another
        # request, or that an order waits on, is shown (a write that reads its own drops it)
        needed.add("get_patient_chart")
    for tool, dropped in rules()["excludes"].items():
        if tool in needed:
            needed.difference_update(dropped)
    if "plan_problem" in needed and "review" in request(state).foci:
        # "problem list + plan": her problems and her list's review read beside the plan drafted
        needed.add("get_patient_chart")
    if "record_vital_sign" in needed and _order_line_after_a_reading(state):
        # "temp 38.9 at 0300 pls chart, and paracetamol 15mg/kg stat": the reading charted and
        # the order line of its own clause after it carded (its safety check runs on the card)
        needed.add("prescribe_medication")
    if "order_lab_test" in needed and _result_read_beside_the_lab(state):
        # "donne-moi sa dernière HbA1c et demande une NFS": the HbA1c is read, the NFS carded
        needed.add("get_patient_chart")
    if ({"order_line", "order_lab"} <= set(ent.actions) and "order_lab_test" in needed) or (
            {"order_line", "refer"} <= set(ent.actions) and "refer_patient" in needed):
        # "KCl 20 mEq PO once now, and a serum K tomorrow 08:00", "amoxicillin 250mg tds x5d
        # and refer to ENT": an order line of its own clause, then a test or a referral in
        # another: both carded, as a protocol cards its order and recheck
        needed.add("prescribe_medication")
    if _ORDERS_BESIDE_A_DRUG & needed and _ordered_beside_the_lab(state):
        # "start naproxen 250 bd, recheck U&E in 2 days", "start clindamycin 450mg qds, …,
        # podiatry referral": the lab or the referral is carded, the drug ordered beside it is
        # checked (and said not ordered), never dropped without a word
        needed.add("check_drug_safety" if len(set(ent.drugs)) == 1 else "check_drug_interactions")
    if ent.unsupported:  # "order a CT": nothing else is carded in its place; a test the lab
        # table names beside it ("ECG + trop stat") is still ordered, the rest said out of reach
        needed.difference_update(
            set(writes()) - ({"order_lab_test"} if "order_lab" in ent.actions else set())
        )
    if "check_drug_interactions" in needed and "check_drug_safety" in needed:
        if len(ent.drugs) >= 2 and not request(state).words.label:
            needed.discard("check_drug_safety")  # "is it safe to combine X and Y"
    if state.image and not needed:
        needed.add("analyze_medical_image")
    if needed == {"check_drug_interactions"} and len(set(interaction_drugs(state))) < 2:
        # "¿puede seguir con el lisinopril?" (the one drug she is on): nothing to pair it with,
        # so its safety check against her chart
        needed = {"check_drug_safety"}
    if needed == {"apply_protocol"} and drug_for_her(state):
        # "se K < 3,5 repor KCl 20 mEq 12/12h": the protocol reads her result, and the drug
        # named is checked against her chart (a high potassium said, not only "nothing ordered")
        needed.add("check_drug_safety" if len(set(ent.drugs)) == 1 else "check_drug_interactions")
    if needed <= _CHECKS and drug_for_her(state) and _result_asked_beside(state):
        needed.add("get_patient_chart")  # "INR ? et arrête l'aspirine": her INR read as well
    if needed <= _BESIDE_A_DRUG and drug_for_her(state):  # safety by content: a drug named in
        # her chart, alone or beside a reading
        needed.add("check_drug_safety" if len(set(ent.drugs)) == 1 else "check_drug_interactions")
    elif needed == {"get_patient_chart"} and drug_for_her(state) and _not_results(ent.drugs):
        # "INR 3,4 com varfarina - pulo a dose de hoje?": her result read, and the drug checked
        needed.add("check_drug_safety" if len(set(ent.drugs)) == 1 else "check_drug_interactions")
    if "prescribe_medication" in needed and missing_fields("prescribe_medication", state) and (
        drug_for_her(state)
    ):  # the order waits for a field it lacks: its findings are shown with the question
        needed.add("check_drug_safety" if len(set(ent.drugs)) == 1 else "check_drug_interactions")
    if "prescribe_medication" in needed and request(state).also_ordered:
        needed.add("check_drug_interactions")  # the orders of one message checked together
    if "prescribe_medication" in needed and beside_the_order(state):
        # "amlodipine 10 od and ramipril 5 od": one card, and every drug named is checked
        needed.add("check_drug_interactions")
    return [t for t in catalog.running_order() if t in needed]


def beside_the_order(state: Turn) -> list[str]:
    """Drugs an order names beside the one it cards, not on her chart already ("omeprazole 20
    od and add lansoprazole 30 od": lansoprazole): checked with it, never carded unasked."""
    said = request(state)
    ordered = said.ordered or next(iter(state.entities.drugs), None)
    chart = set(said.chart.drugs) | {d.name for d in said.also_ordered}  # those carded too
    return [d for d in dict.fromkeys(state.entities.drugs)
            if d != ordered and d not in chart and d not in said.tested_drugs]


# what a message may ask beside naming a drug for her, the drug still checked ("bp 150/95 - can
# we add ramipril?"); a note or a referral that names her drugs asks nothing of them
_BESIDE_A_DRUG = frozenset({"record_vital_sign"})
# the drug checks, beside which a result asked is read as well
_CHECKS = frozenset({"check_drug_safety", "check_drug_interactions"})
# the orders a message may card beside a drug it also orders (the drug checked, not carded)
_ORDERS_BESIDE_A_DRUG = frozenset({"order_lab_test", "refer_patient"})


def _result_read_beside_the_lab(state: Turn) -> bool:
    """A result of hers asked in a part of its own beside a lab order that does not order it
    ("what was her last K, and order a CBC"): the order's own read covers only its tests."""
    said = request(state)
    if not said.foci or other_patients(state):
        return False
    if ward_words.last_result_named(said.understood):
        return True  # "su último potasio y pídele un ionograma": the last K read as well
    ordered = {a.focus for test in said.tests for a in analytes.panel(test)}
    return any(f.startswith("lab:") and f not in ordered for f in said.foci)


def _result_asked_beside(state: Turn) -> bool:
    """A result of hers asked beside a drug that is not that result ("INR ? et arrête
    l'aspirine", "pasame la última creatinina y decime si puedo darle naproxeno"): both requests
    are answered."""
    said = request(state)
    focus = (said.focus or "").lower()
    if about_her_state(state) and "lab_or_vital" not in state.entities.actions:
        return False  # "ok with her kidneys?": the safety check reads her eGFR itself
    if not focus.startswith(("lab:", "vitals")):
        return False
    return all(f"lab:{d}" != focus for d in state.entities.drugs)


def _not_results(drugs: tuple[str, ...]) -> bool:
    """A drug named that is not also a result of the chart ("potassium", "magnesium")."""
    return any(analytes.named_in(d) is None for d in drugs)


def drug_for_her(state: Turn) -> bool:
    """A drug named in the chart of the patient in context, with no other request and no
    general-knowledge question: the one safety check of it against her chart, whatever the
    wording."""
    said = request(state)
    drugs = set(state.entities.drugs) - said.tested_drugs
    return bool(drugs and state.patient_id and said.chart.read and not other_patients(state)
                and not said.general_knowledge)


def request(state: Turn) -> Request:
    """The turn's one reading of its message (INPUT_ASSEMBLY keeps it on the turn); a turn made
    without INPUT_ASSEMBLY (a test's, a stored one from before) is read here, once."""
    if state.request is not None:
        return state.request
    return replace(read(state.message, chart=chart_of(state)), entities=state.entities)


def chart_of(state: Turn) -> ChartInContext:
    """The chart in context, typed: the turn's read of it (``Turn.chart``), or, when no chart was
    read, only the launch patient's id (nobody's name, MRN or medications are guessed)."""
    if state.request is not None:
        return state.request.chart
    if state.chart is not None:
        return state.chart
    return ChartInContext(patient=InContext(id=state.patient_id)) if state.patient_id else (
        ChartInContext())


def about_her_state(state: Turn) -> bool:
    """"can she have metformin with her kidneys?": one drug, asked against the patient's own
    state (``patient_context_words``), her medications not named."""
    words = request(state).words
    return len(state.entities.drugs) == 1 and words.her_state and not words.her_medications


def writes() -> set[str]:
    return {name for name, spec in catalog.specs().items() if spec.kind == "write"}


def done_tools(state: Turn) -> set[str]:
    """Tools that ran without error, or were given up on by ERROR_HANDLER."""
    ok = {r.tool for r in state.tool_runs if r.result.status != "error"}
    return ok | set(state.skipped)


def missing_tools(state: Turn, available: Collection[str]) -> list[str]:
    done = done_tools(state)
    return [t for t in required_tools(state) if t not in done and t in available]


# the clauses of a message of several asks, and the word joining a clause to the one before it
_CLAUSE = re.compile(r"\s*[,;]\s*|\s+[-\u2013\u2014]\s+|\s+(?:and|then|also)\s+", re.I)
_JOINING = re.compile(r"^(?:and|then|also|plus|&)\s+", re.I)


def _order_line_after_a_reading(state: Turn) -> bool:
    """A reading charted, then an order line in a clause of its own after it: the drug opens
    its clause with a dose and a frequency ("…, and paracetamol 15mg/kg stat"); a drug told as
    given ("hypostop given", "paracetamol 1g given at 0300") orders nothing."""
    clauses = [c for c in _CLAUSE.split(state.message) if c.strip()]
    for clause in clauses[1:]:
        line = _JOINING.sub("", clause.strip())
        said = read(line)
        if "order_line" in said.entities.actions and not said.ward.readings:
            return True
    return False


def _ordered_beside_the_lab(state: Turn) -> bool:
    """A drug ordered with its dose beside a lab order, other than a test's own name."""
    said = request(state)
    orders = {"prescribe", "prescribe_drug"} & set(said.entities.actions)
    return bool(said.ordered and said.ordered not in said.tested_drugs and said.dose
                and said.dose.written and orders)


def _her_name_and_birth_date(state: Turn) -> bool:
    """A patient is in context, every person the message names is her, her name or her birth
    date is given, and no search is asked in words ("find patient …", "look up …")."""
    ent = state.entities
    named = bool(ent.birth_dates or ent.patient_names)
    return (bool(state.patient_id and named) and "search_patient" not in ent.actions
            and not other_patients(state))


def _asks_of_her_by_name(state: Turn, needed: set[str]) -> bool:
    """The message names the patient in context and asks something of her beyond who she is:
    another tool, a drug for her, or a chart question other than her identifiers."""
    if not _her_name_and_birth_date(state) or request(state).focus == "identifiers":
        return False
    return (len(needed) > 1 or drug_for_her(state) or request(state).focus is not None
            or _says_more_than_who(request(state)))


_ASKS_WHO = 2  # "who is Amara?", "is this Amara Nwosu?": at most this many words beside her name


def _says_more_than_who(said: Request) -> bool:
    """Words beyond her name, her birth date and who she is ("Amara needs something for
    heartburn"): the request is answered as it would be without her name, never by looking her
    up instead ("who is Amara?", "Margaret Thompson born 1943-05-12" are still looked up)."""
    from .extraction import born_words  # extraction reads this module's rules

    here = said.chart.patient
    rest = without_identifiers(said.understood, here, born_words())
    hers = {fold(w).lower().rstrip("0123456789") for w in (here.name or "").split()}
    words = [w for w in re.findall(r"[^\W\d_]{2,}", re.sub(r"(?i)\bthe patient\b", " ", rest))
             if fold(w).lower() not in hers]
    return len(words) > _ASKS_WHO


def patient_id(state: Turn) -> str | None:
    """Explicit id in the message > single search match > the launch patient.

    The launch patient's own id or MRN in the message is the launch patient. A named patient
    who is not the launch patient is never replaced by the launch patient: until a search
    finds exactly one match there is no patient (None)."""
    ids = state.entities.patient_ids
    if ids:
        return state.patient_id if is_launch_id(state, ids[0]) else str(ids[0])
    for r in reversed(state.tool_runs):
        if r.tool == "search_patient" and r.result.count == 1:
            found = _first_id(r.result.json_data())
            if found:
                return found
    return None if other_patients(state) else state.patient_id


def launch_name(state: Turn) -> str | None:
    """The launch patient's name, as the chart read names her."""
    return in_context(state).name


def other_patients(state: Turn) -> list[str]:
    """Patients the message names (by name, MRN or id) who are not the launch patient;
    "him", "her", "pt", "this patient" are the launch patient and never named, nor are the
    launch patient's own id, MRN, or name with her birth date (``reading.subject``)."""
    return list(subject(state).others)


def subject(state: Turn) -> Subject:
    """Who the message is about: the patient in context, or another patient and why."""
    if state.request is not None:
        return state.request.subject
    ent = state.entities
    here = in_context(state)
    return subject_of(ent.patient_names, ent.patient_ids,
                      said_birth_date(ent.birth_dates, here.born), here)


def in_context(state: Turn) -> InContext:
    """The patient in context as the chart read names her (name, id, MRN, birth date)."""
    return chart_of(state).patient


def is_launch_id(state: Turn, said: str) -> bool:
    """The message's id is the launch patient's FHIR id or MRN."""
    return is_own_id(said, in_context(state))


def interaction_drugs(state: Turn) -> list[str]:
    """The drugs to check together: those named, plus the chart's active medications when
    the clinician asks about giving one drug to the patient in context, or about combining one
    drug with what she takes ("posso associar omeprazol?")."""
    named = asked_drugs(state)
    if {"give", "check_interactions"} & set(state.entities.actions) and len(named) == 1:
        named += [d for d in chart_of(state).drugs if d not in named]
    return named


def asked_drugs(state: Turn) -> list[str]:
    """The drugs named, a class said as hers ("¿le dejamos el IECA?" on lisinopril, "is she
    still on the ace inhibitor?") read as the member of it she takes."""
    named = list(state.entities.drugs)
    if not any(classes.named(d) for d in named):  # no class said: nothing to read as hers
        return named
    taking = list(chart_of(state).drugs)
    surfaces = {m.name: m.surface for m in find_drugs(fold(state.message).lower()) if m.name}
    hers = hers_of_class(fold(state.message), surfaces, taking)
    if not hers:
        return named
    members = [t for t in taking if any(classes.named(h) in classes.of(t) for h in hers)]
    return [d for d in named if d not in hers] + [t for t in members if t not in named]


def missing_fields(tool: str, state: Turn) -> list[str]:
    """What a write still needs that the clinician did not say (asked, never guessed)."""
    ent, words = state.entities, request(state).words
    have = {
        # a class ("start a statin") is no drug to order: which one is asked
        "drug": any(not knowledge.class_named(d) for d in ent.drugs),
        "dose": bool(ent.dose and ent.dose.written),
        "frequency": bool(ent.dose and ent.dose.frequency),
        "allergy substance": bool(ent.drugs)
        or "record_no_known_allergy" in ent.actions
        or words.allergy_substance,
        "reaction": bool(ent.allergy and ent.allergy.reaction)
        or "record_no_known_allergy" in ent.actions,
        "note text": bool(words.note_text) or words.count >= 6,
        "reading": bool(request(state).ward.readings),
    }
    return [f for f in rules()["write_fields"].get(tool, ()) if not have.get(f, True)]


def _first_id(data: dict[str, Any]) -> str | None:
    for key in ("patients", "matches", "entries"):
        items = data.get(key)
        if items and isinstance(items[0], dict) and items[0].get("id"):
            return str(items[0]["id"])
    return data.get("patient_id") or data.get("id")


def deterministic_args(tool: str, state: Turn, code_only: bool = False) -> dict[str, Any] | None:
    """Validated arguments when extraction alone fixes every required field.

    ``code_only`` (no model this turn): also the topic of a trials or literature
    question and the note as dictated, which a model words better when there is one."""
    ent, patient = state.entities, patient_id(state)
    drugs, dose = asked_drugs(state), ent.dose or Dose()
    together = interaction_drugs(state)
    words = request(state).words
    subject = words.topic if code_only else None
    candidates = {
        "check_drug_safety": (
            {"drug_name": drugs[0], "dose": dose.written,
             "frequency": (dose.frequency or "")[:40] or None if dose.written else None}
            if len(drugs) == 1 else None
        ),
        "check_drug_interactions": {"drug_names": together[:6]} if len(together) >= 2 else None,
        "find_clinical_trials": {"condition": subject} if subject else None,
        "search_medical_literature": (
            {"query": subject or state.message[:160]} if code_only else None
        ),
        "save_clinical_note": (
            {
                "patient_id": patient,
                "note_type": words.note_type,
                "note_text": (words.note_text or "")[:600],
            }
            if code_only and patient and words.note_text
            else None
        ),
        "search_patient": (
            {"name": ent.patient_names[0], "birth_date": ",".join(ent.birth_dates) or None}
            if ent.patient_names
            else None
        ),
        "get_patient_chart": chart_args(request(state), patient) if patient else None,
        "prescribe_medication": (
            {
                "patient_id": patient,
                "medication_name": _with_release_form(state),
                "dosage": dose.written,
                "frequency": dose.frequency,
                "notes": _order_notes(dose),
            }
            if patient and _ordered(state)
            else None
        ),
        "add_allergy": _allergy_args(state, patient),
        **{
            tool: ward_requests.arguments(tool, request(state), patient) if patient else None
            for tool in ward_requests.TOOLS
        },
        "analyze_medical_image": (
            {"query": state.message[:160]} if state.image and len(state.message) >= 2 else None
        ),
    }
    args = candidates.get(tool)
    if not args:
        return None
    try:
        return catalog.spec(tool).args_model(**args).model_dump(exclude_none=True)
    except ValidationError:
        return None


def asked_of_her(state: Turn) -> str:
    """The question without the identifiers that named the patient in context; the message as
    it is when nothing else is asked ("MRN-100587 allergies?" asks for the allergies, "her MRN?"
    for the MRN). Read once, with the request."""
    return request(state).asked_of_her


def _ordered(state: Turn) -> str | None:
    """The drug an order names, as the request read it (``reading/request.ordered_of``)."""
    if state.request is None:
        return ordered_of(state.entities, state.message)
    return state.request.ordered


def _with_release_form(state: Turn) -> str | None:
    """The drug ordered with the release form written after it ("nifedipine MR"), so the card,
    its title and the MedicationRequest's text keep it; the drug alone when none is written."""
    drug = _ordered(state)
    said = next((d.said for d in request(state).drugs if d.name == drug), None)
    form = release_form(state.message, said) if drug and said else None
    return f"{drug} {form}" if form else drug


def chart_args(said: Request, patient: str) -> dict[str, Any]:
    """The chart read a question asks: its focus, and for a lab its window and statistic
    ("mean CBG over the past 24h" -> lab:Capillary glucose, 24h, mean), as the request read
    them."""
    window = said.window
    focus = said.focus if said.focus or not said.foci else said.foci[0]
    # a result the several-results read answers already ("K, Na, creat") is not asked again
    also = ",".join(f for f in said.foci if f != focus
                    and f.partition(":")[2] not in window.analytes) or None
    return {"patient_id": patient, "focus": focus, "also": also, "window": window.window,
            "statistic": window.statistic.value if window.statistic else None,
            "threshold": keys_of(window.thresholds), "unit": window.unit,
            "count": window.count, "tests": ",".join(window.analytes) or None,
            # judged against its range only when asked ("is that too high?")
            **({"judge": True} if window.judge else {})}


# "NKDA" / "pas d'allergie connue": the add_allergy arguments of a no-known-allergy record
# (tools/writes/orders.py codes it SNOMED CT 716186003, confirmed by the clinician who said it)
NO_KNOWN_ALLERGY = {
    "substance": "no known allergy",
    "reaction": "none",
    "verification": "confirmed",
}


def _allergy_args(state: Turn, patient: str | None) -> dict[str, Any] | None:
    """A no-known-allergy record ("NKDA"), or the one named substance with what was said of it."""
    ent, allergy = state.entities, state.entities.allergy or Allergy()
    if not patient:
        return None
    if "record_no_known_allergy" in ent.actions:
        return {"patient_id": patient, **NO_KNOWN_ALLERGY}
    if len(ent.drugs) != 1 or not _the_allergen(state.message, ent):
        return None  # "pen allergy … started on clarithromycin": the drug is not the allergen
    return {"patient_id": patient, "substance": ent.drugs[0], "reaction": allergy.reaction,
            "severity": allergy.severity, "verification": allergy.verification,
            "criticality": allergy.criticality}


def _the_allergen(message: str, ent: Entities) -> bool:
    """The one drug named stands beside the allergy's words (``reading.drugs.allergen_named``);
    a drug named elsewhere ("pen allergy, started on clarithromycin") is never the allergen."""
    surfaces = [m.surface for m in ent.drug_mentions if m.name] or list(ent.drugs)
    # "rash with septrin, add to allergies": the one drug beside the reaction told is the allergen
    return allergen_named(recording_words_out(message), surfaces) or (
        len(surfaces) == 1 and reaction_beside(message, surfaces[0]))


def order_notes(dose: Dose) -> str | None:
    """Route and duration ride in the order's notes ("route IV; for 7 days")."""
    return _order_notes(dose)


def _order_notes(dose: Dose) -> str | None:
    """Route and duration ride in the order's notes ("route IV; for 7 days")."""
    parts = [f"route {dose.route}" if dose.route else "", dose.infusion or "",
             dose.as_needed or "", f"for {dose.duration}" if dose.duration else "",
             f"loading dose {dose.loading} not on this card" if dose.loading else ""]
    return "; ".join(p for p in parts if p) or None


def fast_choice(
    state: Turn, available: Collection[str], code_only: bool = False
) -> tuple[str, dict[str, Any]] | None:
    """The next needed tool whose arguments code can fill, if any. Without a model a needed
    tool whose arguments code cannot fill is passed over for the next one (nothing else could
    fill them); with a model the first needed tool waits for the model's arguments."""
    for tool in missing_tools(state, available)[: None if code_only else 1]:
        args = deterministic_args(tool, state, code_only)
        if args:
            return tool, args
    return None


def seed_budget(state: Turn) -> dict[str, Any]:
    """Model calls the reference design would spend on the same turn (docs/agent-design.md).

    ``spec`` counts every node as a model call (two-stage TOOL_SELECT = 2
    calls); ``headline`` counts TOOL_SELECT as one call (2 / 4 / 4+N). The
    reference analyses images in INPUT_ASSEMBLY, so an image-tool step counts
    as that one vision call.
    """
    image = 1 if state.image else 0
    steps = sum(1 for r in state.tool_runs if r.tool != "analyze_medical_image")
    retries = sum(1 for e in state.events if e.get("type") == "retry_decision")
    return {"spec": image + 1 + 3 * steps + retries + 1,
            "headline": image + 1 + 2 * steps + retries + 1}
