"""Deterministic checks behind the CDS cards (no model, no network).

patient-view answers only what is actionable on this chart: critical
interactions among active medications, allergy conflicts, pregnancy and
lactation risks of active medications, and monitoring (a result out of range
for a current drug, an overdue or never-done test); ``quiet`` then drops what
was already shown unchanged or overridden with a reason. Boxed warnings of
long-standing medications are not repeated there; they belong to the order.

order-select / order-sign: each draft MedicationRequest (order-select: the
``selections``) against active medications and the other drafts
(interactions, duplicates, two drugs of a class that add the same harm), the
allergies (class cross-reactivity, with the recorded reaction and
criticality), pregnancy, lactation, labs that make the drug unsafe, and its
boxed warning — all findings about one draft become one card.

The drug lookups are ``lookups.py``, what a hook call answers is ``hooks.py``;
reading the FHIR data is ``chart``'s job, lab rules are ``monitoring``'s.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import date

from .. import knowledge
from ..languages import N_, day, message
from . import chart_values, hookdata, monitoring, pair_labs, patient_rules
from .context import HookData
from .findings import Finding, Source, capital
from .lookups import (
    allergy_conflicts,
    alternative,
    boxed_warning,
    flag_source,
    generic,
    identity,
    interaction_sources,
    interactions,
    lactation_flags,
    matches,
    monitoring_rules,
    pregnancy_flags,
    source,
    table,
)

log = logging.getLogger(__name__)


# --- patient-view -------------------------------------------------------------------

def patient_view(data: HookData) -> list[Finding]:
    active = hookdata.named(data.get("medications"))
    names = [n for n, _ in active]
    findings = _interactions_among(names) + _trios_among(names)
    for name, resource in active:
        ident = identity(resource)
        if not ident.identified:  # said once (quiet), never passed over as if checked
            findings.append(_unchecked(ident, None, f"med:{ident.label}"))
            continue
        findings += _allergy(data.get("allergies"), name, None, f"med:{generic(name)}")
        for found in _pregnancy(data, name, None, f"med:{generic(name)}"):
            if found.severity == "critical":
                found.active = resource  # a card that says "stop" offers to stop it
            findings.append(found)
    findings += _monitoring(data, names)
    findings += _overdue_hba1c(data)
    return findings


def _interactions_among(names: list[str]) -> list[Finding]:
    out = []
    for hit in interactions(names):
        risk, severity = hit.summary, _interaction_severity(hit)
        summaries = [f"Review the need for {hit.drug_b} with {hit.drug_a} — {risk}; "
                     f"{_first_clause(hit.management)}",
                     f"Review the need for {hit.drug_b} with {hit.drug_a} — {risk}",
                     f"Review {hit.drug_b} with {hit.drug_a}"]
        out.append(
            Finding(
                f"pair:{'+'.join(sorted((hit.drug_a, hit.drug_b)))}",
                severity,
                summaries,
                "drug-interaction",
                hit.mechanism,
                hit.management,
                [f"Active: {hit.drug_a} and {hit.drug_b}"],
                interaction_sources(hit),
                fingerprint_of=(hit.drug_a, hit.drug_b),
                quote=hit.quote,
            )
        )
    return [f for f in out if f.severity == "critical"]  # only what needs acting on today


def _trios_among(names: list[str]) -> list[Finding]:
    drugs = list(dict.fromkeys(generic(n) for n in names))
    out = []
    for f in knowledge.trio_findings(drugs):
        if f.severity == "critical":
            what = f.summary.split(" — ", 1)[-1]
            out.append(Finding("trio:" + "+".join(sorted(f.drugs)), f.severity,
                               [f"Review {' + '.join(f.drugs)} — {what}"], "drug-interaction",
                               f.effect, f.management, [f"Active: {', '.join(f.drugs)}"],
                               [Source(s.label, s.url) for s in f.sources],
                               fingerprint_of=f.drugs))
    return out


# --- orders -------------------------------------------------------------------------

def order_checks(
    drafts: list[dict], data: HookData, others_are: str = "draft"
) -> list[Finding]:
    """Each draft against the chart and the other drafts. ``others_are`` names the other drafts in
    a finding: "draft" for an order being signed, "active" when the drafts are her active list
    under a whole-list review (a duplicate there is two active orders, not a draft)."""
    active = hookdata.named(data.get("medications"))
    renal, age = latest_renal(data), patient_age(data)
    findings: list[Finding] = []
    for i, draft in enumerate(drafts):
        key = f"draft:{draft.get('id') or i}"
        ident = identity(draft)
        if not ident.identified:
            findings.append(_unchecked(ident, draft, key))
            continue
        name = ident.name
        others = [(n, "active", r) for n, r in active] + [
            (n, others_are, d) for d in drafts if d is not draft and (n := hookdata.med_name(d))
        ]
        found = _knowledge(name, draft, others, renal, age, key)
        found += _duplicates_and_additive(name, [(n, w) for n, w, _ in others], draft, key, found)
        found += _allergy(data.get("allergies"), name, draft, key)
        found += _pregnancy(data, name, draft, key)
        found += _monitoring(data, [name], draft=draft, problem=key)
        found += patient_rules.extra_findings(data, name, draft, key)
        found += pair_labs.pair_lab_findings(data, generic(name), draft,
                                             pair_labs.names(data, drafts, draft), key)
        found += _boxed(name, draft, key)
        findings += _duplication_last(found)
    return findings


def _duplication_last(found: list[Finding]) -> list[Finding]:
    """A draft's card leads with what its chart says (pregnancy, allergy, an interaction) before a
    duplication of the same severity: both are on the card, the more telling one is its summary."""
    return sorted(found, key=lambda f: f.topic == "additive-therapy")


def _knowledge(name: str, draft: dict, others: list[tuple[str, str, dict]],
               renal: RenalResult | None, age: int | None, key: str) -> list[Finding]:
    """The knowledge core's findings for this order: interactions (reconciled across sources),
    three-drug rules, dose limits, kidney limits and the age list."""
    drug = generic(name)
    doses = {generic(n): d for n, _, r in others if (d := _dose(r, n))}
    where = {generic(n): (w, n) for n, w, _ in others}
    dose = _dose(draft, hookdata.med_name(draft) or name)
    found = knowledge.order_findings(drug, dose, list(where), renal.value if renal else None, age,
                                     doses)
    # an interaction at the source's lowest grade is shown at that grade (info); other info
    # findings of the knowledge core are its own notes, not the order's, but for the kidney
    # dose checked within its band (said, so the check is seen to have run)
    return [_from_knowledge(f, drug, draft, key, where, renal, age)
            for f in found if f.severity != "info" or f.topic in ("interaction", "renal")]


def _dose(order: dict, product: str) -> knowledge.Dose | None:
    """The order's dose as written, else one unit of its product (for the dose caps)."""
    return knowledge.dose_of(order, product=product) or knowledge.product_dose(product)


def _from_knowledge(f: knowledge.Finding, drug: str, draft: dict, key: str,
                    where: dict[str, tuple[str, str]], renal: RenalResult | None,
                    age: int | None = None) -> Finding:
    others = [d for d in f.drugs if d != drug]
    alt = (
        alternative("interaction", drug, others[0])
        if f.topic == "interaction" and others
        else alternative("renal", drug)
        if f.topic == "renal"
        else alternative("additive", drug, f.key.split(":")[-1].split("+")[0])
        if f.topic == "duplication"
        else None
    )
    evidence = [f"{capital(where[o][0])} medication: {where[o][1]}" for o in others if o in where]
    evidence += list(f.evidence) if f.topic != "interaction" else []
    if f.topic == "renal" and renal:
        evidence = [renal.trend] + [e for e in f.evidence if not e.startswith(renal.measure)]
    verb = {"critical": "Avoid", "warning": "Monitor closely if giving", "info": "Note"}[f.severity]
    short = f"{verb} {drug} with {' and '.join(others)}" if others else f.summary
    summaries = [f"{f.summary}; consider {alt['display']}" if alt else "", f.summary, short]
    sources = [Source(s.label, s.url or source("dailymed", drug).url) for s in f.sources]
    return Finding(key, f.severity, summaries, _TOPIC.get(f.topic, f.topic), f.effect,
                   f.management, evidence, sources, draft=draft, alternative=alt,
                   fingerprint_of=(*others, f.key), quote=f.quote,
                   message=_knowledge_message(f, drug, others, renal, age),
                   quiet=f.key.startswith("renal-within:"))


_TOPIC = {
    "interaction": "drug-interaction",
    "combination": "drug-interaction",
    "duplication": "additive-therapy",
}
# the card's words for a knowledge finding, by topic and severity (critical, warning, info)
_SAID = {
    "interaction": (
        N_("Avoid %(drug)s with %(others)s"),
        N_("Monitor closely if giving %(drug)s with %(others)s"),
        N_("Note %(drug)s with %(others)s (graded 'take into account')"),
    ),
    "renal": (
        N_("Avoid %(drug)s at this kidney function (%(renal)s)"),
        N_("Adjust the %(drug)s dose to kidney function (%(renal)s)"),
    ),
    "age": (
        N_("Avoid %(drug)s at this patient's age (%(age)s years)"),
        N_("Review %(drug)s at this patient's age (%(age)s years)"),
    ),
    "daily_max": (
        N_("Reduce the %(drug)s dose — it is above the daily maximum"),
        N_("Review the %(drug)s dose — it is above the usual daily maximum"),
    ),
    "weekly_max": (
        N_("Reduce the %(drug)s dose — it is above the weekly maximum"),
        N_("Review the %(drug)s dose — it is above the usual weekly maximum"),
    ),
    "duplication": (
        N_("Do not add %(drug)s — %(others)s is already ordered (same class)"),
        N_("Switch rather than add %(drug)s — %(others)s is already ordered (same class)"),
    ),
    "daily_frequency": (
        N_("Check the %(drug)s frequency — this drug is given once a week, not daily"),
    )
    * 2,
}


# a renal rule's management that sets a dose or an interval: the card says to adjust the dose
_DOSED = re.compile(r"\b(?:dose|doses|dosing|interval|mg|halve|reduce)\b", re.I)


def _knowledge_message(
    f: knowledge.Finding, drug: str, others: list[str], renal: RenalResult | None, age: int | None
) -> dict:
    """A knowledge finding in words the card shows in the clinician's language."""
    if f.cap_mg is not None and others:  # the card says the label's cap, not "avoid the pair"
        return message(
            N_("Do not give more than %(cap)s mg of %(drug)s a day with %(others)s")
            if f.over_cap else
            N_("Keep %(drug)s to at most %(cap)s mg a day with %(others)s"),
            drug=drug, cap=f"{f.cap_mg:g}", others=" and ".join(others))
    said = _SAID.get(f.key.split(":")[-1] if f.topic == "dose" else
                     "interaction" if f.topic in ("interaction", "combination") else f.topic)
    if said is None:
        return message(N_("Review %(drug)s: a safety finding applies (%(topic)s)"), drug=drug,
                       topic=message(f.topic))
    measured = f"{renal.measure} {renal.value.value:g}" if renal else ""
    if f.topic == "renal" and f.severity == "info":  # the kidney dose within the label's band
        return message(N_("Kidney dose of %(drug)s checked (%(renal)s): within the label's band, "
                          "%(band)s"), drug=drug, renal=measured, band=f.band or f.management)
    grade = {"critical": 0, "info": len(said) - 1}.get(f.severity, 1)
    if f.topic == "renal" and grade == 1 and f.risk and not _DOSED.search(f.management):
        # a rule that changes no dose ("NSAIDs worsen kidney function; shortest course") is
        # said in the check's own words, never as a dose to adjust
        return message(N_("Review %(drug)s at this kidney function (%(renal)s): %(risk)s"),
                       drug=drug, renal=measured, risk=f.risk)
    if f.topic == "renal" and f.band and grade == 1:
        return message(N_("Adjust the %(drug)s dose to kidney function (%(renal)s): label dose "
                          "%(band)s"), drug=drug, renal=measured, band=f.band)
    return message(said[grade], drug=drug,
                   others=" + ".join(others), renal=measured, age=age if age is not None else "")


def patient_age(data: HookData) -> int | None:
    """The patient's age today in whole years (None without a birth date)."""
    return hookdata.age(data.get("patient"), date.today())


def latest_renal(data: HookData) -> RenalResult | None:
    """The latest eGFR or creatinine clearance (whichever is newer), with its trend."""
    if "labs" in data.missing:
        return None
    labs = data.get("labs")
    found = [("eGFR", r) for r in monitoring.results(labs, table()["egfr_loinc"])] + \
            [("CrCl", r) for r in monitoring.results(labs, table()["crcl_loinc"])]
    if not found:
        return _estimated(data)
    found.sort(key=lambda mr: mr[1].when)
    measure, latest = found[-1]
    same = [r for m, r in found if m == measure][-4:]
    trend = f"{measure}: " + " → ".join(f"{r.value:g} ({r.when.isoformat()})" for r in same)
    return RenalResult(knowledge.Renal(latest.value, measure, latest.when), trend, latest.id)


def _estimated(data: HookData) -> RenalResult | None:
    """No eGFR or measured clearance: Cockcroft–Gault from creatinine, weight, age and sex."""
    cg = chart_values.estimated_clearance(data, patient_age(data))
    if cg is None or cg.creatinine_on is None:
        return None
    renal = knowledge.Renal(cg.ml_min, "CrCl (Cockcroft–Gault)", cg.creatinine_on)
    return RenalResult(renal, cg.describe(), "cockcroft-gault")


@dataclass(frozen=True)
class RenalResult:
    value: knowledge.Renal
    trend: str
    id: str

    @property
    def measure(self) -> str:
        return self.value.measure


def _unchecked(ident: knowledge.DrugIdentity, draft: dict | None, key: str) -> Finding:
    """A drug the knowledge cannot identify is said so: an empty card list would read as
    "checked"."""
    label = ident.label
    return Finding(
        key,
        "info",
        [
            f"Could not check {label} for interactions or allergies — {ident.reason}",
            f"Could not check {label} for interactions or allergies",
            "Could not check this medication for interactions or allergies",
        ],
        "unidentified",
        management="Check interactions, allergies and pregnancy for it by hand, or record "
        "it by its RxNorm name.",
        evidence=[f"{'Draft order' if draft else 'Active medication'}: {label}"],
        fingerprint_of=(label,),
        message=message(N_("Could not check %(label)s for interactions or allergies"), label=label),
    )


def _duplicates_and_additive(name, others, draft, key, already) -> list[Finding]:
    """The same product ordered again; two drugs of one class (or a harmful cross-class pair) are
    the knowledge core's duplication findings, among ``_knowledge``'s."""
    drug, out = generic(name), []
    for other_name, where in others:
        if generic(other_name) == drug:
            out.append(
                Finding(
                    key,
                    "warning",
                    [
                        f"Remove duplicate {drug} — already {where} as {other_name}",
                        f"Remove duplicate {drug} — already {where}",
                    ],
                    "duplicate-order",
                    management="Keep one order; adjust its dose if more is needed.",
                    evidence=[f"{capital(where)} order: {other_name}"],
                    sources=[source("dailymed", drug)],
                    draft=draft,
                    fingerprint_of=(drug,),
                    message=message(
                        N_("Remove duplicate %(drug)s — already active")
                        if where == "active"
                        else N_("Remove duplicate %(drug)s — already in these orders"),
                        drug=drug,
                    ),
                )
            )
    return out


def _boxed(name: str, draft: dict, key: str) -> list[Finding]:
    drug = generic(name)
    text = boxed_warning(drug)
    if not text:
        return []
    return [
        Finding(
            key,
            "info",
            [
                f"Check the boxed warning before ordering {drug}: {text}",
                f"Check the boxed warning before ordering {drug}",
            ],
            "boxed-warning",
            management=f"FDA boxed warning: {text}.",
            sources=[source("dailymed", drug)],
            draft=draft,
            message=message(N_("Check the boxed warning before ordering %(drug)s"), drug=drug),
        )
    ]


# --- shared: allergy, pregnancy/lactation, monitoring ---------------------------------

def _allergy(allergies: list[dict], name: str, draft: dict | None, key: str) -> list[Finding]:
    drug, out = generic(name), []
    for resource in allergies:
        substance = hookdata.allergy_substance(resource)
        for hit in allergy_conflicts(substance, [name]) if substance else []:
            reaction, crit = (
                hookdata.reaction(resource),
                resource.get("criticality") or "unrecorded",
            )
            severity = (
                "critical"
                if hit.severity == "critical" or (crit == "high" and draft)
                else hit.severity
            )
            alt = alternative("allergy", drug, generic(substance)) if draft else None
            verb = f"Do not give {drug}" if severity == "critical" else f"Caution with {drug}"
            if not draft:
                verb = f"Review active {drug}"
            summaries = [
                f"{verb} — {substance} allergy ({reaction}, {crit} criticality); "
                f"consider {alt['display']}"
                if alt
                else "",
                f"{verb} — {substance} allergy ({reaction}, {crit} criticality)",
                f"{verb} — {substance} allergy ({reaction})",
                f"{verb} — {substance} allergy",
            ]
            out.append(
                Finding(
                    key,
                    severity,
                    summaries,
                    "allergy",
                    mechanism=f"{capital(drug)}: {hit.reason}.",
                    management="Choose a drug outside the class; confirm the reaction history.",
                    evidence=[hookdata.allergy_evidence(resource, substance, reaction, crit)],
                    sources=[source("allergy")],
                    draft=draft,
                    alternative=alt,
                    fingerprint_of=(resource.get("id"), crit),
                    message=_allergy_message(severity, draft, drug, substance, reaction),
                )
            )
    return out


def _allergy_message(severity: str, draft: dict | None, drug: str, substance: str | None,
                     reaction: str) -> dict:
    said = (
        N_("Review active %(drug)s — %(substance)s allergy (%(reaction)s)")
        if not draft
        else N_("Do not give %(drug)s — %(substance)s allergy (%(reaction)s)")
        if severity == "critical"
        else N_("Caution with %(drug)s — %(substance)s allergy (%(reaction)s)")
    )
    return message(said, drug=drug, substance=substance, reaction=reaction)


_PREGNANCY = {("pregnant", "Avoid"): N_("Avoid %(drug)s in pregnancy"),
              ("pregnant", "Stop"): N_("Stop %(drug)s in pregnancy"),
              # a warning names its risk: "Review" alone says nothing of what to look for
              ("pregnant", "Review"): N_("Review %(drug)s in pregnancy: %(risk)s"),
              ("breastfeeding", "Avoid"): N_("Avoid %(drug)s while breastfeeding"),
              ("breastfeeding", "Stop"): N_("Stop %(drug)s while breastfeeding"),
              ("breastfeeding", "Review"): N_("Review %(drug)s while breastfeeding")}


def _pregnancy(data: HookData, name: str, draft: dict | None, key: str) -> list[Finding]:
    drug, out = generic(name), []
    for status, flags in (
        ("pregnant", pregnancy_flags(drug)),
        ("breastfeeding", lactation_flags(drug)),
    ):
        evidence = (
            hookdata.pregnancy_evidence(data, table()["pregnancy_status"])
            if status == "pregnant"
            else hookdata.lactation_evidence(data, table()["lactation_status"])
        )
        for flag in flags if evidence else []:
            alt = alternative("pregnancy", drug) if status == "pregnant" else None
            verb = ("Avoid" if draft else "Stop") if flag.severity == "critical" else "Review"
            when = "in pregnancy" if status == "pregnant" else "while breastfeeding"
            summaries = [
                f"{verb} {drug} {when} — {flag.summary}; consider {alt['display']}" if alt else "",
                f"{verb} {drug} {when} — {flag.summary}",
                f"{verb} {drug} {when}",
            ]
            management = (
                flag.management or "choose a safer alternative and review with the prescriber"
            )
            out.append(
                Finding(
                    key,
                    flag.severity,
                    summaries,
                    flag.topic,
                    mechanism=f"{capital(drug)}: {flag.summary}.",
                    management=f"Patient is {status}: {management}.",
                    evidence=evidence,
                    sources=[flag_source(flag, drug)],
                    draft=draft,
                    alternative=alt,
                    fingerprint_of=(status,),
                    message=message(_PREGNANCY[(status, verb)], drug=drug, risk=flag.summary),
                )
            )
    return out


def _monitoring(
    data: HookData, names: list[str], draft: dict | None = None, problem: str = ""
) -> list[Finding]:
    if "labs" in data.missing:
        return []  # could not check; never claim a test is overdue without the data
    out = []
    for rule in monitoring_rules():
        drug = next(
            (generic(n) for n in names if any(matches(generic(n), d) for d in rule["drugs"])), None
        )
        if drug and not (rule.get("renal") and draft is not None):  # on orders eGFR is _renal's
            found = monitoring.check(
                rule,
                drug,
                data.get("labs"),
                date.today(),
                source(rule["source"], drug),
                problem or f"monitor:{drug}",
                overdue_counts=draft is None,
            )
            if found and found.severity != "info":
                found.draft = draft
                found.alternative = table()["drugs"].get(rule.get("alternative")) if draft else None
                out.append(found)
    return out


def _overdue_hba1c(data: HookData) -> list[Finding]:
    rule = table()["hba1c"]
    if "hba1c" in data.missing or not any(
            hookdata.matches_condition(c, rule["applies_to_snomed"], rule["applies_to_text"])
            for c in data.get("conditions")):
        return []
    dates = [monitoring.observed_on(o) for o in data.get("hba1c")]
    latest = max((d for d in dates if d), default=None)
    if latest and (date.today() - latest).days <= rule["max_age_days"]:
        return []
    when = f"last result {latest.isoformat()}" if latest else "no result on file"
    return [
        Finding(
            "monitor:hba1c",
            "warning",
            [
                f"Order an HbA1c — monitoring overdue for this patient with diabetes ({when})",
                f"Order an HbA1c — HbA1c monitoring overdue ({when})",
            ],
            "monitoring",
            management="HbA1c at least twice a year when at goal, quarterly otherwise.",
            evidence=[f"HbA1c: {when}"],
            sources=[source("ada")],
            fingerprint_of=(str(latest),),
            message=message(
                N_("Order an HbA1c — monitoring overdue (last result %(date)s)")
                if latest
                else N_("Order an HbA1c — monitoring overdue (no result on file)"),
                date=day(latest.isoformat() if latest else None),
            ),
        )
    ]


def _interaction_severity(hit) -> str:
    return "critical" if hit.critical else "warning"


def _first_clause(text: str) -> str:
    """"Use only with a clear indication (e.g. a valve); monitor INR" → "use only with a clear
    indication"."""
    return re.sub(r"\s*\([^)]*\)", "", text.split(";")[0]).rstrip(". ").lower() if text else ""
