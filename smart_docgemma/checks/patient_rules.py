"""Patient checks beyond the CDS order rules: drug–disease contraindications from the problem
list, children's weight-based doses, and statements of the data a check needed and the chart
lacks (no eGFR, no potassium, no weight for a child, no pregnancy status).

Each returns CDS ``Finding``s keyed like the order rules (``draft:<id>``), so one draft's
findings stay one card and one list in the chat answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from .. import knowledge
from ..knowledge import disease, quantities, weight_dose
from ..languages import N_, day, lab, message
from . import chart_values, child_doses, hookdata, monitoring
from .context import HookData
from .findings import Finding, Source, capital

EGFR = ["33914-3", "62238-1", "98979-8", "48642-3", "48643-1"]
CRCL = ["2164-2", "35591-7"]
POTASSIUM = ["2823-3", "6298-4"]
WEIGHT = ["29463-7", "3141-9"]
PREGNANCY_AGES = (12, 55)


def extra_findings(data: HookData, name: str, draft: dict, key: str) -> list[Finding]:
    """Drug–disease, child dose and data-gap findings for one draft of ``name``."""
    drug = knowledge.generic(name)
    return [
        *_disease(data, drug, draft, key),
        *_ckd_stage(data, drug, draft, key),
        *_dialysis_said(data, drug, draft, key),
        *_said_kidney(data, drug, draft, key),
        *_labs(data, drug, draft, key),
        *_children(data, drug, draft, key),
        *_child_dose(data, drug, draft, key),
        *_gaps(data, drug, draft, key),
    ]


def problems(data: HookData) -> list[disease.Problem]:
    """The patient's active problems (resolved or inactive ones do not count)."""
    out = []
    for resource in data.get("conditions"):
        status = ((resource.get("clinicalStatus") or {}).get("coding") or [{}])[0].get("code")
        if status not in ("inactive", "resolved", "remission"):
            out.append(
                disease.Problem(
                    hookdata.text(resource), frozenset(hookdata.coded_as(resource) - {None})
                )
            )
    return out


def _disease(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    out = []
    for flag in knowledge.disease_flags(drug.split("/"), problems(data)):
        verb = "Avoid" if flag.severity == "critical" else "Caution with"
        summaries = [
            f"{verb} {drug} — {flag.condition} on the problem list: {flag.risk}",
            f"{verb} {drug} — {flag.condition} on the problem list",
            f"{verb} {drug} in {flag.condition}",
        ]
        out.append(
            Finding(
                key,
                flag.severity,
                summaries,
                "drug-disease",
                mechanism=f"{capital(flag.risk)}.",
                management=capital(flag.management) + ".",
                evidence=[f"Active problem: {flag.condition}"],
                sources=[Source(flag.source, flag.url)],
                draft=draft,
                fingerprint_of=(flag.condition,),
                message=message(N_("Avoid %(drug)s — %(condition)s on the problem list")
                                if flag.severity == "critical" else
                                N_("Caution with %(drug)s — %(condition)s on the problem list"),
                                drug=drug, condition=flag.condition),
            )
        )
    return out


@dataclass(frozen=True)
class _KidneyBasis:
    """Why a drug is judged at an eGFR the chart does not hold: a CKD stage on the problem list,
    or her kidneys as the clinician said them; the words its card gives."""

    egfr: float
    subject: str  # "CKD stage 4", "kidney failure", "dialysis": what the eGFR is read from
    said: str  # "CKD stage 4 on the problem list (no eGFR on file)"
    short: str  # "CKD stage 4 on the problem list"
    topic: str
    management: str  # added to the rule's own
    evidence: tuple[str, ...]
    avoid: str  # msgids (a critical finding, then the others)
    caution: str
    condition: Any  # the msgids' %(condition)s (text or a message); None: they have none


def _judged_at(drug: str, draft: dict, key: str, basis: _KidneyBasis) -> list[Finding]:
    """The kidney rules' findings for ``drug`` at ``basis.egfr``, each saying its basis."""
    out = []
    for f in knowledge.renal_findings(drug, knowledge.Renal(basis.egfr, "eGFR")):
        verb = "Avoid" if f.severity == "critical" else "Review"
        ing, risk = f.drugs[0], f.effect.split(": ", 1)[-1].rstrip(".")
        out.append(Finding(
            key, f.severity,
            list(dict.fromkeys([f"{verb} {ing} — {basis.said}: {risk}",
                                f"{verb} {ing} — {basis.said}", f"{verb} {ing} — {basis.short}"])),
            basis.topic,
            mechanism=f"{capital(basis.subject)} means an eGFR under {basis.egfr + 1:g}: {risk}.",
            management=f.management + basis.management,
            evidence=list(basis.evidence),
            sources=[Source(s.label, s.url) for s in f.sources], draft=draft,
            fingerprint_of=(basis.subject,),
            message=message(basis.avoid if f.severity == "critical" else basis.caution,
                            drug=ing, **({} if basis.condition is None
                                         else {"condition": basis.condition}))))
    return out


_ORDER_EGFR = " Order an eGFR to dose by the measured value."


def _ckd_stage(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    """CKD stage 4-5 on the problem list and no eGFR on file: the kidney rules judge the drug at
    the eGFR the stage means, and the card names the stage (an eGFR on file is judged itself)."""
    if "labs" in data.missing or monitoring.results(data.get("labs"), EGFR):
        return []
    staged = disease.ckd_stage(problems(data))
    if staged is None:
        return []
    problem, upper = staged
    return _judged_at(drug, draft, key, _KidneyBasis(
        upper, problem.text, f"{problem.text} on the problem list (no eGFR on file)",
        f"{problem.text} on the problem list", "drug-disease", _ORDER_EGFR,
        (f"Active problem: {problem.text}", "No eGFR in the chart"),
        N_("Avoid %(drug)s — %(condition)s on the problem list"),
        N_("Caution with %(drug)s — %(condition)s on the problem list"), problem.text))


def _said_kidney(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    """Kidney failure said by the clinician and no eGFR (nor CKD stage 4-5) on file: the kidney
    rules judge the drug at the eGFR the state means ("insuficiencia renal, ¿naproxeno?"), so the
    renal check is not "nothing found" for a kidney nobody measured."""
    if "labs" in data.missing or monitoring.results(data.get("labs"), EGFR):
        return []
    said = disease.said_kidney(data.stated)
    if said is None or disease.ckd_stage(problems(data)) is not None:
        return []
    state, upper = said
    return _judged_at(drug, draft, key, _KidneyBasis(
        upper, state, f"{state}, said by the clinician (no eGFR on file)",
        f"{state}, said by the clinician", "drug-disease", _ORDER_EGFR,
        (f"{capital(state)}: said by the clinician", "No eGFR in the chart"),
        N_("Avoid %(drug)s — %(condition)s, said by the clinician"),
        N_("Caution with %(drug)s — %(condition)s, said by the clinician"), message(state)))


# the eGFR end-stage kidney disease means (KDIGO stage 5, as ``ckd_stages`` of disease.yaml)
_DIALYSIS_EGFR = 14.0


def _dialysis_said(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    """On dialysis, said by the clinician in the conversation ("she's on dialysis - metformin
    ok?"): the kidney rules judge the drug at the eGFR of end-stage disease, whatever eGFR the
    chart holds (a result from before dialysis began says nothing of her kidneys now)."""
    if "dialysis" not in data.stated:
        return []
    said = "on dialysis (said by the clinician)"
    return _judged_at(drug, draft, key, _KidneyBasis(
        _DIALYSIS_EGFR, "dialysis", said, said, "renal", " Dose for dialysis with the renal team.",
        ("Dialysis: said by the clinician",),
        N_("Avoid %(drug)s — on dialysis (said by the clinician)"),
        N_("Caution with %(drug)s — on dialysis (said by the clinician)"), None))


def _children(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    """Age contraindications and cautions of children (aspirin under 16, codeine under 12 …)."""
    out = []
    for f in knowledge.child_findings(drug, age_days(data)):
        short = f.summary.split(" — ", 1)[0]
        out.append(Finding(key, f.severity, [f.summary, short], "age", mechanism=f.effect,
                           management=f.management, evidence=list(f.evidence),
                           sources=[Source(s.label, s.url) for s in f.sources], draft=draft,
                           fingerprint_of=(f.key,),
                           message=message(N_("Do not give %(drug)s to this child (%(age)s)")
                                           if f.severity == "critical" else
                                           N_("Avoid %(drug)s in this child (%(age)s)"),
                                           drug=f.drugs[0], age=f.evidence[0].split(": ", 1)[-1])))
    return out


def _birth(data: HookData) -> date | None:
    """The patient's full birth date (None when absent, partial or unreadable)."""
    born = next((p.get("birthDate") for p in data.get("patient") if p.get("birthDate")), None)
    try:
        return date.fromisoformat(born[:10]) if born and len(born) >= 10 else None
    except ValueError:
        return None


def age_days(data: HookData, today: date | None = None) -> int | None:
    """The patient's age in days (None without a full birth date)."""
    birth = _birth(data)
    return ((today or date.today()) - birth).days if birth else None


def _labs(data: HookData, drug: str, draft: dict[str, Any], key: str) -> list[Finding]:
    """A latest result that contraindicates the drug (e.g. an ACE inhibitor at potassium 5.6)."""
    if "labs" in data.missing:
        return []  # the gap is said by _gaps; nothing is claimed without the result
    out = []
    for rule in knowledge.lab_rules(drug.split("/")):
        found = monitoring.results(data.get("labs"), list(rule.loinc))
        if not found or found[-1].value <= rule.above:
            continue
        latest = found[-1]
        when = f"{rule.test} {latest.value:g} on {latest.when.isoformat()}"
        verb = "Do not start" if rule.severity == "critical" else "Review"
        summaries = [
            f"{verb} {drug} — {when}, above {rule.above:g}: {rule.risk}",
            f"{verb} {drug} — {when}, above {rule.above:g}",
            f"{verb} {drug} — {when}",
        ]
        trend = " → ".join(f"{r.value:g} ({r.when.isoformat()})" for r in found[-4:])
        out.append(
            Finding(
                key,
                rule.severity,
                summaries,
                "lab-contraindication",
                mechanism=f"{capital(rule.risk)}.",
                management=capital(rule.management) + ".",
                evidence=[f"{capital(rule.test)}: {trend}"],
                sources=[Source(rule.source, rule.url)],
                draft=draft,
                fingerprint_of=(latest.id, latest.value),
                message=message(
                    N_("Do not start %(drug)s — %(test)s %(value)s on %(date)s, above %(limit)s")
                    if rule.severity == "critical"
                    else N_("Review %(drug)s — %(test)s %(value)s on %(date)s, above %(limit)s"),
                    drug=drug,
                    test=lab(rule.test),
                    value=f"{latest.value:g}",
                    date=day(latest.when.isoformat()),
                    limit=f"{rule.above:g}",
                ),
            )
        )
    return out


def age_years(data: HookData, today: date | None = None) -> int | None:
    """The patient's age in whole years (None without a full birth date)."""
    birth = _birth(data)
    if birth is None:
        return None
    today = today or date.today()
    return today.year - birth.year - ((today.month, today.day) < (birth.month, birth.day))


def _child_dose(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    """A child's dose: an order in mg/kg worked out from the charted weight (in kg, with its date)
    and checked against the paediatric range, the sum shown; an order in mg, mL or tablets
    against the range, band or fixed dose for this weight and age. A weight too old for the
    decision is said and not used."""
    age, days = age_years(data), age_days(data)
    latest = chart_values.latest_weight(data)
    if age is None or days is None or age >= disease.adult_age() or latest is None:
        return []
    limit_days = quantities.max_age_days("child_weight", days)
    if latest.days_old > limit_days:
        return [_old_weight(drug, latest, limit_days, draft, key)]
    weight = weight_dose.Weight(latest.kg, latest.when)
    written = _weight_order(draft)
    if written is not None:
        return _worked(drug, written, weight, latest.id, draft, key, age)
    return child_doses.check(drug, hookdata.med_name(draft) or drug, draft, latest, days, key)


def _old_weight(drug: str, weight: chart_values.ChartWeight, limit_days: int, draft: dict,
                key: str) -> Finding:
    said = (f"the last weight, {weight.kg:g} kg on {weight.when.isoformat()}, is "
            f"{weight.days_old} days old")
    return Finding(
        key, "info",
        [f"Not checked: the {drug} dose — {said} (at most {limit_days} days for a child's dose)",
         f"Not checked: the {drug} dose — {said}"],
        "data-gap",
        management="Weigh the child and re-check the dose; an old weight is not used as today's.",
        evidence=[f"Weight {weight.describe()}, {weight.days_old} days old"], draft=draft,
        fingerprint_of=("old-weight", weight.id),
        # the weight is on file, only too old: the card says how old, never "no weight on file"
        message=message(N_("A child's weight-based dose needs a weight at most %(days)s days old: "
                           "this one is %(old)s days old."),
                        days=limit_days, old=weight.days_old))


def _weight_order(draft: dict) -> weight_dose.WeightDose | None:
    return next(
        (
            w
            for inst in draft.get("dosageInstruction") or []
            if (w := weight_dose.from_dosage(inst))
        ),
        None,
    )


def _amount(worked: weight_dose.WorkedDose) -> str:
    """"201 mg a dose", or "201 mg a day (doses a day not stated)" when only the day's amount is
    known: never a dose of 0 mg."""
    if worked.per_dose_mg is not None:
        return f"{worked.per_dose_mg:g} mg a dose"
    return f"{worked.per_day_mg or 0:g} mg a day (doses a day not stated)"


def _worked(drug, written, weight, weight_id, draft, key, age) -> list[Finding]:
    worked = weight_dose.work_out(written, weight)
    ing = next((i for i in drug.split("/") if weight_dose.limits(i)), drug.split("/")[0])
    checked = weight_dose.check(ing, worked)
    severity = checked.severity if checked else "info"
    said = (
        checked.text if checked else f"{worked.arithmetic} (no paediatric range on file for {ing})"
    )
    head = (f"Check the {ing} dose — {worked.per_dose_mg:g} mg a dose for {weight.kg:g} kg"
            if worked.per_dose_mg is not None else f"Check the {ing} dose for {weight.kg:g} kg")
    verdict = said.rsplit(" — ", 1)[-1]
    return [
        Finding(
            key,
            severity,
            [f"{head}: {verdict}", head]
            if severity == "critical"
            else [
                f"{ing.capitalize()} {written.written}: {_amount(worked)} for "
                f"{weight.kg:g} kg — {verdict}",
                f"{ing.capitalize()} {written.written}: {_amount(worked)} for {weight.kg:g} kg",
                f"{ing.capitalize()}: {_amount(worked)} for {weight.kg:g} kg",
            ],
            "paediatric-dose",
            mechanism=said + ".",
            management=(
                f"Correct the order: {verdict}."
                if severity == "critical"
                else "Give the dose in mg as worked out."
            ),
            evidence=[
                f"Age {age} years; weight {weight.describe()}",
                f"Ordered: {written.written}",
            ],
            sources=[Source(checked.source, checked.url)] if checked else [],
            draft=draft,
            fingerprint_of=(weight_id, written.written),
            message=message(
                N_("Check the %(drug)s dose — %(dose)s for a child of %(kg)s kg"),
                drug=ing,
                dose=_dose_said(written, worked),
                kg=f"{weight.kg:g}",
            ),
        )
    ]


def _dose_said(written: weight_dose.WeightDose, worked: weight_dose.WorkedDose) -> str:
    """The order as written and, when worked out, its mg a dose ("40 mg/kg/day twice daily → 402
    mg"): the chat's one line carries the sum, in words no language needs translated."""
    said = written.written.replace(". ", " ").rstrip(". ")
    return f"{said} → {worked.per_dose_mg:g} mg" if worked.per_dose_mg is not None else said


def _mg_dose(drug, weight, weight_id, draft, key, age) -> list[Finding]:
    timing = next(
        ((i.get("timing") or {}).get("repeat") or {} for i in draft.get("dosageInstruction") or []),
        {},
    )
    limit = knowledge.paediatric_limit(drug, weight_dose.repeat_per_day(timing))
    dose = _dose_mg(draft)
    if not limit or dose is None:
        return []
    kg, most = weight.kg, limit.for_weight(weight.kg)
    if dose <= most * 1.05:
        return []
    summaries = [
        f"Check the {drug} dose — {dose:g} mg is above {most:g} mg for a child of {kg:g} kg "
        f"({limit.mg_per_kg:g} mg/kg, at most {limit.max_mg:g} mg a dose)",
        f"Check the {drug} dose — {dose:g} mg is above {most:g} mg for {kg:g} kg",
    ]
    return [
        Finding(
            key,
            "critical",
            summaries,
            "paediatric-dose",
            mechanism=f"{limit.mg_per_kg:g} mg/kg × {weight.describe()} = "
            f"{limit.mg_per_kg * kg:g} mg (at most {limit.max_mg:g} mg a dose).",
            management=f"Give at most {limit.mg_per_kg:g} mg/kg a dose (max {limit.max_mg:g} mg).",
            evidence=[f"Age {age} years; weight {weight.describe()}"],
            sources=[Source(limit.source, limit.url)],
            draft=draft,
            fingerprint_of=(weight_id, dose),
            message=message(
                N_(
                    "Check the %(drug)s dose — %(dose)s mg is above %(most)s mg for a child of "
                    "%(kg)s kg"
                ),
                drug=drug,
                dose=f"{dose:g}",
                most=f"{most:g}",
                kg=f"{kg:g}",
            ),
        )
    ]


def _dose_mg(draft: dict) -> float | None:
    for inst in draft.get("dosageInstruction") or []:
        for dr in inst.get("doseAndRate") or []:
            q = dr.get("doseQuantity") or {}
            if isinstance(q.get("value"), (int, float)) and (q.get("unit") or q.get("code")) in (
                "mg",
                "MG",
            ):
                return float(q["value"])
            if isinstance(q.get("value"), (int, float)) and q.get("code") == "g":
                return float(q["value"]) * 1000
    return None


def _gaps(data: HookData, drug: str, draft: dict, key: str) -> list[Finding]:
    """What the chart lacks for a check this drug needs: said, never passed over as found."""
    lacking = []
    labs = [] if "labs" in data.missing else data.get("labs")
    if _renal_sensitive(drug) and not monitoring.results(labs, EGFR + CRCL) and \
            chart_values.estimated_clearance(data, age_years(data)) is None:
        lacking.append((N_("eGFR"), N_("renal dosing")))
    if _raises_potassium(drug) and not monitoring.results(labs, POTASSIUM):
        lacking.append((N_("potassium"), N_("hyperkalaemia risk")))
    age = age_years(data)
    if (
        age is not None
        and age < disease.adult_age()
        and (knowledge.paediatric_limit(drug) or _weight_order(draft) is not None)
        and not monitoring.results(data.get("weight"), WEIGHT)
    ):
        lacking.append((N_("weight"), N_("the weight-based dose for a child")))
    if _pregnancy_sensitive(drug) and _could_be_pregnant(data, age) and not _pregnancy_known(data):
        lacking.append((N_("pregnancy status"), N_("pregnancy safety")))
    return [_gap(data, drug, draft, key, item, what) for item, what in lacking]


def _gap(data: HookData, drug: str, draft: dict, key: str, item: str, what: str) -> Finding:
    """One check the chart lacks the data for. Her kidneys said to be poor ("his kidneys are
    shot") with no eGFR on file make the missing eGFR a warning: the renal dosing that did not
    run is the check the clinician's words say matters."""
    if item == "eGFR" and {"kidneys_poor", "dialysis"} & set(data.stated):
        return Finding(
            key, "warning",
            [f"Not checked: {what} of {drug} — kidney impairment said by the clinician, "
             f"no {item} on file",
             f"Kidney impairment said, no {item} on file: {what} not checked"],
            "data-gap",
            management=f"Measure an {item} before ordering {drug}: its renal dosing did not run.",
            evidence=["Kidney impairment: said by the clinician", f"No {item} in the chart"],
            draft=draft, fingerprint_of=(item,),
            message=message(N_("Not checked: %(what)s of %(drug)s — kidney impairment said by "
                               "the clinician, no %(item)s on file"),
                            what=message(what), drug=drug, item=message(item)))
    return _info_gap(drug, draft, key, item, what)


def _info_gap(drug: str, draft: dict, key: str, item: str, what: str) -> Finding:
    return Finding(
        key,
        "info",
        [f"Not checked: {what} of {drug} — no {item} on file",
         f"No {item} on file: {what} not checked"],
        "data-gap",
        management=f"Record the patient's {item} to check {what}.",
        evidence=[f"No {item} in the chart"],
        draft=draft,
        fingerprint_of=(item,),
        message=message(N_("Not checked: %(what)s of %(drug)s — no %(item)s on file"),
                        what=message(what), drug=drug, item=message(item)),
    )


def _renal_sensitive(drug: str) -> bool:
    return any(knowledge.renal_flags([i], 0.0) for i in drug.split("/"))


def _raises_potassium(drug: str) -> bool:
    return any(
        c in knowledge.drug_classes(drug) for c in ("ace_inhibitor", "arb", "potassium_sparing")
    )


def _pregnancy_sensitive(drug: str) -> bool:
    return any(f.severity == "critical" for f in knowledge.pregnancy_flags(drug.split("/")))


def _could_be_pregnant(data: HookData, age: int | None) -> bool:
    female = any(p.get("gender") == "female" for p in data.get("patient"))
    return female and age is not None and PREGNANCY_AGES[0] <= age <= PREGNANCY_AGES[1]


def _pregnancy_known(data: HookData) -> bool:
    return (
        "pregnant" in data.stated
        or "pregnancy" not in data.missing
        and bool(data.get("pregnancy"))
        or any("pregnan" in hookdata.text(c).lower() for c in data.get("conditions"))
    )
