"""The three write tools: they build a FHIR resource and return a *proposal*; they never write.

``prescribe_medication`` → MedicationRequest, ``add_allergy`` →
AllergyIntolerance, ``save_clinical_note`` → DocumentReference. Each resource is coded where
an offline table has the code (RxNorm ingredients, SNOMED CT substances and findings, LOINC
document types), else text only — never a guessed code — and proposed through ``draft.propose``
(validated with the ``fhir.resources`` R4B models, stored as an approval card); only the
clinician's approval writes (``ProposalStore.approve``).

Safety flags ride on the proposal: a documented allergy that forbids the
drug (class cross-reactivity), critical interactions with active
medications, duplicate therapy, and the FDA boxed warning when the label
source answers (never fatal when it does not).
"""
from __future__ import annotations

import base64
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from ... import knowledge
from ...approval.types import ProposalSummary, SafetyFlag
from ...checks.drug_safety import check_in_context
from ...datafiles import safe_yaml
from ...languages import N_, answer_language, fold, message
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult
from ..chart.safety import flag as _flag
from ..chart.safety import patient_lists
from ..sources.openfda import label_safety
from ..words import dosing
from ..words.dosing import SNOMED, parse_dose, release_form
from .draft import now, practitioner, propose, refuse

DATA = Path(__file__).parents[1] / "data"  # the tools' tables, one folder
RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
LOINC = "http://loinc.org"


@lru_cache(maxsize=1)
def _codes() -> dict[str, Any]:
    codes: dict[str, Any] = safe_yaml((DATA / "write_codes.yaml").read_text())
    return codes


def rxnorm_coding(name: str) -> dict[str, Any] | None:
    """RxNorm ingredient coding for a single-ingredient drug name (brand → generic first), or
    None."""
    ident = knowledge.identify(text=name)
    [ing] = ident.ingredients if len(ident.ingredients) == 1 else [None]
    return {"system": RXNORM, "code": ing.rxcui, "display": ing.name} if ing and ing.rxcui else None


def _with_form(inst: dict[str, Any], name: str) -> dict[str, Any]:
    """The dosage text with the release form the drug's name carries ("nifedipine MR": "20 mg
    twice daily, MR"), so the MedicationRequest keeps what was prescribed."""
    form = release_form(name, name.rsplit(" ", 1)[0]) if " " in name else None
    text = str(inst.get("text") or "")
    return {**inst, "text": f"{text}, {form}" if text else form} if form else inst


def code_shown(name: str, coding: dict[str, Any] | None) -> str:
    """The card's Code field: the ingredient code; for a combination every ingredient's code
    (the MedicationRequest stays text: no combination code is shipped); else why there is
    none — never "none found" for a table that lacks the drug."""
    if coding:
        return f"RxNorm {coding['code']} ({coding['display']})"
    ident = knowledge.identify(text=name)
    ings = ident.ingredients if ident.identified else ()
    if len(ings) > 1 and all(i.rxcui for i in ings):
        each = " + ".join(f"{i.rxcui} ({i.name})" for i in ings)
        return f"RxNorm ingredients {each}; no combination code shipped (text only)"
    return "not in the shipped RxNorm tables (text only)"


# ------------------------------------------------------------------ parsing dosing
def parse_timing(frequency: str) -> dict[str, Any] | None:
    """``twice daily``, ``BID``, ``tds``, ``8/8h``, ``nocte``, ``weekly`` → Timing.repeat, else
    None; French, Portuguese and Spanish frequencies too ("trois fois par jour", "cada 8 horas")."""
    return dosing.parse_timing(frequency)


_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times"}


def frequency_shown(frequency: str) -> str:
    """The frequency as written, with the timing it is coded as in words when they differ ("q8h
    (every 8 hours, three times daily)"), so an English card says what is ordered in one wording
    whatever the shorthand; a card in French, Portuguese or Spanish keeps the clinician's words."""
    timing = parse_timing(frequency) or {}
    n, period, unit = timing.get("frequency"), timing.get("period"), timing.get("periodUnit")
    words: list[str] = []
    if unit == "h" and n == 1 and period:
        words.append(f"every {period:g} hours" if period != 1 else "every hour")
        if 24 % period == 0 and 24 // period in _TIMES:  # "8/8h": 3 doses a day
            words.append(f"{_TIMES[24 // period]} daily")
    elif unit == "d" and period == 1 and n in _TIMES and not timing.get("when"):
        words.append(f"{_TIMES[n]} daily")
    unsaid = [w for w in words if w not in frequency.lower()]
    if answer_language() != "en":  # the card is read in the clinician's own words there
        return frequency
    return f"{frequency} ({', '.join(unsaid)})" if unsaid else frequency


def dosage_instruction(dosage: str, frequency: str, notes: str | None) -> dict[str, Any]:
    """Dosage with text always, and structured timing/as-needed/dose/route where they parse."""
    return coded_order(dosage, frequency, notes).dosage


def coded_order(dosage: str, frequency: str, notes: str | None) -> dosing.Order:
    """``dosing.order`` (every language's frequencies and as-needed reasons:
    ``languages/frequency.py``), with the dose read from the dosage alone (never from the frequency
    or the notes)."""
    parsed = dosing.order(dosage, frequency, notes)
    dose = dosing.per_administration(f"{dosage} {frequency} {notes or ''}") or parse_dose(dosage)
    parsed.dosage.pop("doseAndRate", None)
    ends = dosing.dose_range(dosage)
    if ends:  # "2.5-5 mg q4h prn": the range as written, never one of its ends
        parsed.dosage["doseAndRate"] = [{"doseRange": ends}]
    elif dose:
        parsed.dosage["doseAndRate"] = [{"doseQuantity": dose}]
    # its rate
    dosing.infusion(parsed.dosage, " ".join(t for t in (dosage, frequency, notes or "") if t))
    return parsed


# ------------------------------------------------------------------ shared checks
def _boxed_warning(ctx: ToolContext, drug: str) -> list[SafetyFlag]:
    """The FDA boxed warning, if the label source answers; silence is flagged, not fatal."""
    if ctx.http is None:
        return []
    try:
        info = label_safety(ctx.http, drug)
    except Exception:  # the label source is optional for a proposal
        return [_flag("info", "unchecked", message(
            N_("The FDA label for %(drug)s could not be checked for a boxed warning."), drug=drug))]
    boxed = info and info.sections.get("Boxed warning")
    if not info or not boxed:
        return []
    return [_flag("critical", "boxed_warning", message(N_("Boxed warning: %(text)s"),
                                                text=boxed[:300]), info.source.label, info.url)]


def medication_flags(
    ctx: ToolContext, drug: str, dosage: dict[str, Any] | None = None
) -> list[SafetyFlag]:
    """The patient-safety check of a new drug (the same findings, words and severity as the chat
    answer and CDS order-sign: ``checks.drug_safety``), plus the FDA boxed warning when the label
    answers."""
    return medication_check(ctx, drug, dosage)[0]


def medication_check(ctx: ToolContext, drug: str, dosage: dict[str, Any] | None = None
                     ) -> tuple[list[SafetyFlag], knowledge.Weight | None]:
    """``medication_flags`` and the latest weight on file the check read (None without one)."""
    report = check_in_context(ctx, [drug], dosage)
    flags = cast(list[SafetyFlag], report.flags()) if report else []
    # what the check's tables lack, as the answer says it: a card with no finding is then never
    # read as a drug checked and found clean
    flags += [_flag("info", "not_covered", said) for said in report.not_covered()] if report else []
    ident = knowledge.identify(text=drug)
    if not ident.identified and not any(f["kind"] == "unidentified" for f in flags):
        flags.append(_flag("warning", "unchecked", message(N_(
            "%(drug)s could not be identified, so allergies "
            "and interactions were not checked for it."),
            drug=drug)))
    return flags + _boxed_warning(ctx, drug), report.weight if report else None


def in_mg(inst: dict[str, Any], weight: knowledge.Weight | None) -> knowledge.WorkedDose | None:
    """A dose by weight ("50 mg/kg/day in 3 doses") worked out for the dated weight on file: the
    order then carries the mg a dose (``doseQuantity`` in mg, UCUM) and its text keeps the mg/kg
    basis with the sum, so what is approved is what is given. None (the order unchanged) when
    the dose is not by weight, there is no weight, or the doses a day of a day's amount are
    unsaid."""
    written = knowledge.weight_dose.from_dosage(inst)
    if written is None or weight is None:
        return None
    worked = knowledge.work_out(written, weight)
    if worked.per_dose_mg is None:
        return None
    mg = worked.per_dose_mg
    inst["doseAndRate"] = [
        {
            "doseQuantity": {
                "value": int(mg) if mg.is_integer() else mg,
                "unit": "mg",
                "system": dosing.UCUM,
                "code": "mg",
            }
        }
    ]
    inst["text"] = f"{inst['text']} ({worked.arithmetic})"
    dosing.infusion(inst, inst["text"])  # an infusion's rate in mg/h
    return worked


def _unweighed(drug: str, dosage: str) -> SafetyFlag:
    """A dose by weight with no weight on file: no mg is worked out, and the card says so rather
    than carrying "5 mg/kg" to the pharmacy as if it were a dose."""
    return _flag("warning", "weight", message(N_(
        "No weight on file: %(drug)s %(dose)s is not worked out in mg. Weigh the patient or "
        "write the dose in mg."), drug=drug, dose=dosage))


def allergy_flags(ctx: ToolContext, substance: str) -> list[SafetyFlag]:
    """Active orders a new allergy calls into question, and an allergy already recorded."""
    meds, allergies, flags = patient_lists(ctx)
    for c in (c for m in meds for c in knowledge.allergy_conflicts(substance, m)[:1]):
        flags.append(_flag(c.severity, "allergy", message(N_(
            "The patient has an active order for %(drug)s, "
            "which this allergy calls into question."),
            drug=c.drug), c.source, c.source_url))
    if any(knowledge.generic(a) == knowledge.generic(substance) for a in allergies):
        flags.append(
            _flag(
                "info",
                "duplicate",
                message(
                    N_("An allergy to %(substance)s is already recorded."), substance=substance
                ),
            )
        )
    return flags


# ------------------------------------------------------------------ the tools
def run_prescribe(args: tool_args.PrescribeMedicationArgs, ctx: ToolContext) -> ToolResult:
    """Propose a MedicationRequest (status active, intent order) for the launch patient."""
    refused = refuse(args, ctx, "MedicationRequest")
    if refused:
        return refused
    resource, summary = drafted(args, ctx)
    return propose(ctx, "prescribe_medication", resource, summary, "medication order")


def drafted(args: tool_args.PrescribeMedicationArgs,
            ctx: ToolContext) -> tuple[dict[str, Any], ProposalSummary]:
    """The MedicationRequest an order drafts, and its card with the one patient-safety check
    (the orders ``ctx.replacing`` names are left out of it: the order replaced)."""
    coding = rxnorm_coding(args.medication_name)
    med = {"text": args.medication_name, **({"coding": [coding]} if coding else {})}
    parsed = coded_order(args.dosage, args.frequency, args.notes)
    inst = _with_form(parsed.dosage, args.medication_name)
    resource: dict[str, Any] = {
        "resourceType": "MedicationRequest",
        "status": "active",
        "intent": "order",
        "medicationCodeableConcept": med,
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "authoredOn": now(),
        "dosageInstruction": [inst],
    }
    if parsed.dispense:
        resource["dispenseRequest"] = parsed.dispense
    if practitioner(ctx):
        resource["requester"] = practitioner(ctx)
    flags, weight = medication_check(ctx, args.medication_name, inst)
    worked = in_mg(inst, weight)
    if worked is None and weight is None and knowledge.weight_dose.from_dosage(inst) is not None:
        flags.append(_unweighed(args.medication_name, args.dosage))
    dose = f"{worked.per_dose_mg:g} mg a dose ({worked.arithmetic})" if worked else args.dosage
    route = (inst.get("route") or {}).get("text", "not specified")
    fields = [
        ("Medication", args.medication_name),
        ("Dose", dose),
        ("Route", route),
        ("Frequency", frequency_shown(args.frequency)),
        ("Code", code_shown(args.medication_name, coding)),
    ]
    fields += _order_rows(inst, parsed.dispense)
    if args.notes:
        fields.append(("Notes", args.notes))
    summary: ProposalSummary = {
        "title": f"Prescribe {args.medication_name} {args.dosage} {args.frequency}",
        "kind": "medication",
        "fields": fields,
        "flags": flags,
        "request": {
            "medication_name": args.medication_name,
            "dosage": args.dosage,
            "frequency": args.frequency,
            "notes": args.notes,
        },
    }
    return resource, summary


def _order_rows(inst: dict[str, Any], dispense: dict[str, Any]) -> list[tuple[str, str]]:
    """The card rows for the coded parts a clinician must see: as needed, duration, quantity."""
    rows = []
    concept = inst.get("asNeededCodeableConcept")
    if concept:  # the coded reason's name ("pain"), else the reason as written
        reason = next(
            (c["display"].lower() for c in concept.get("coding") or [] if c.get("display")),
            concept.get("text"),
        )
        rows.append(("As needed", f"yes, for {reason}"))
    elif inst.get("asNeededBoolean"):
        rows.append(("As needed", "yes (no reason given)"))
    duration = dispense.get("expectedSupplyDuration")
    if duration:
        # one of the unit said in the singular ("1 week", never "1 weeks")
        unit = str(duration["unit"])
        unit = unit[:-1] if duration["value"] == 1 and unit.endswith("s") else unit
        rows.append(("Duration", f"{duration['value']} {unit}"))
    if dispense.get("quantity"):
        rows.append(
            (
                "Quantity to dispense",
                f"{dispense['quantity']['value']} {dispense['quantity']['unit']}",
            )
        )
    return rows


def substance_code(name: str) -> tuple[dict[str, Any], str]:
    """An allergy's substance coded (SNOMED CT, else RxNorm, else text) and its category."""
    key = name.strip().lower()
    snomed = _codes()["allergy_substances"].get(key)
    if snomed:
        coding = {"system": SNOMED, "code": snomed["code"], "display": snomed["display"]}
        return {"coding": [coding], "text": name}, snomed["category"]
    rx = rxnorm_coding(name)
    if rx:
        return {"coding": [rx], "text": name}, "medication"
    return {"text": name}, "medication" if knowledge.identify(text=name).identified else ""


def manifestation(reaction: str) -> dict[str, Any]:
    """A reaction coded in SNOMED CT where the table has it, else its text."""
    coded = _codes()["reactions"].get(reaction.strip().lower())
    if coded:
        return {
            "coding": [{"system": SNOMED, "code": coded["code"], "display": coded["display"]}],
            "text": reaction,
        }
    return {"text": reaction}


def run_add_allergy(args: tool_args.AddAllergyArgs, ctx: ToolContext) -> ToolResult:
    """Propose an AllergyIntolerance (active, confirmed by the approving clinician)."""
    refused = refuse(args, ctx, "AllergyIntolerance")
    if refused:
        return refused
    if no_known_allergy(args.substance):
        return _propose_no_known_allergy(ctx)
    code, category = substance_code(args.substance)
    reaction = {"manifestation": [manifestation(args.reaction)],
                **({"severity": args.severity} if args.severity else {})}
    terms = "http://terminology.hl7.org/CodeSystem/allergyintolerance-"
    resource: dict[str, Any] = {
        "resourceType": "AllergyIntolerance",
        "clinicalStatus": {"coding": [{"system": terms + "clinical", "code": "active"}]},
        "verificationStatus": {
            "coding": [
                {"system": terms + "verification", "code": args.verification or "unconfirmed"}
            ]
        },
        "type": "allergy",
        "code": code,
        "patient": {"reference": f"Patient/{ctx.patient_id}"},
        "recordedDate": now(),
        "reaction": [reaction],
    }
    if category:
        resource["category"] = [category]
    criticality = args.criticality or (
        "high" if re.search(r"anaphyla|angioedema", args.reaction, re.I) else None
    )
    if criticality:  # from the clinician's words only; unstated stays unknown
        resource["criticality"] = criticality
    if practitioner(ctx):
        resource["recorder"] = practitioner(ctx)
    coding = (code.get("coding") or [{}])[0]
    flags = allergy_flags(ctx, args.substance)
    fields = [
        ("Substance", args.substance),
        ("Reaction", args.reaction),
        ("Severity", args.severity or "not stated"),
        ("Verification", args.verification or "unconfirmed (not stated as confirmed)"),
        ("Criticality", criticality or "not stated (left unknown)"),
        (
            "Code",
            f"{'SNOMED CT' if coding.get('system') == SNOMED else 'RxNorm'} {coding['code']}"
            if coding
            else "none found (text only)",
        ),
    ]
    summary: ProposalSummary = {
        "title": f"Record allergy: {args.substance} ({args.reaction})",
        "kind": "allergy",
        "fields": fields,
        "flags": flags,
    }
    return propose(ctx, "add_allergy", resource, summary, "allergy entry")


def no_known_allergy(substance: str) -> bool:
    """"NKDA", "no known allergies", "pas d'allergie connue" … passed as the substance."""
    said = " ".join(fold(substance or "").lower().replace("'", " ").split())
    return said in _codes()["no_known_allergy"]["words"]


def _propose_no_known_allergy(ctx: ToolContext) -> ToolResult:
    """"No known allergy" (SNOMED CT 716186003) as the clinician's confirmed statement; a chart
    that already lists allergies is flagged, as the two contradict each other."""
    nka, terms = (
        _codes()["no_known_allergy"],
        "http://terminology.hl7.org/CodeSystem/allergyintolerance-",
    )
    resource: dict[str, Any] = {
        "resourceType": "AllergyIntolerance",
        "clinicalStatus": {"coding": [{"system": terms + "clinical", "code": "active"}]},
        "verificationStatus": {"coding": [{"system": terms + "verification", "code": "confirmed"}]},
        "code": {"coding": [{"system": SNOMED, "code": nka["code"], "display": nka["display"]}],
                 "text": nka["display"]},
        "patient": {"reference": f"Patient/{ctx.patient_id}"}, "recordedDate": now()}
    if practitioner(ctx):
        resource["recorder"] = practitioner(ctx)
    _, allergies, flags = patient_lists(ctx)
    listed = [a for a in allergies if a and not no_known_allergy(a)]
    if listed:
        flags.append(_flag("warning", "allergy", message(N_(
            "The chart already lists allergies (%(listed)s); "
            "recording no known allergy contradicts them."),
            listed=", ".join(listed[:5]))))
    fields = [("Substance", nka["display"]), ("Verification", "confirmed"),
              ("Code", f"SNOMED CT {nka['code']}")]
    summary: ProposalSummary = {"title": "Record no known allergies", "kind": "allergy",
                                "fields": fields, "flags": flags}
    return propose(ctx, "add_allergy", resource, summary, "allergy entry")


def note_type(requested: str) -> dict[str, Any]:
    """LOINC document type for a requested note type (words matched; 'Note' as fallback)."""
    text = requested.lower()
    types = _codes()["note_types"]
    key = next((k for k in types if re.search(rf"(?<!\w){re.escape(k)}(?!\w)", text)), "note")
    return {"system": LOINC, **types[key]}


def run_save_note(args: tool_args.ClinicalNoteArgs, ctx: ToolContext) -> ToolResult:
    """Propose a DocumentReference (status current) holding the note as text/plain."""
    refused = refuse(args, ctx, "DocumentReference")
    if refused:
        return refused
    kind = note_type(args.note_type)
    resource: dict[str, Any] = {
        "resourceType": "DocumentReference",
        "status": "current",
        "docStatus": "final",
        "type": {"coding": [kind], "text": kind["display"]},
        "category": [
            {
                "coding": [
                    {
                        "system": "http://hl7.org/fhir/us/core/CodeSystem/"
                        "us-core-documentreference-category",
                        "code": "clinical-note",
                        "display": "Clinical Note",
                    }
                ]
            }
        ],
        "subject": {"reference": f"Patient/{ctx.patient_id}"},
        "date": now(),
        "description": f"{kind['display']} drafted with the DocGemma assistant",
        "content": [
            {
                "attachment": {
                    "contentType": "text/plain; charset=utf-8",
                    "title": kind["display"],
                    "data": base64.b64encode(args.note_text.encode()).decode(),
                }
            }
        ],
    }
    if practitioner(ctx):
        resource["author"] = [practitioner(ctx)]
    fields = [("Note type", f"{kind['display']} (LOINC {kind['code']})"),
              ("Length", f"{len(args.note_text)} characters")]
    summary: ProposalSummary = {
        "title": f"Save {kind['display'].lower()}",
        "kind": "note",
        "fields": fields,
        "preview": args.note_text[:600],
        "flags": [],
    }
    return propose(ctx, "save_clinical_note", resource, summary, "clinical note")


TOOLS: list[Tool] = [
    Tool(catalog.spec("prescribe_medication"), run_prescribe),
    Tool(catalog.spec("add_allergy"), run_add_allergy),
    Tool(catalog.spec("save_clinical_note"), run_save_note),
]
