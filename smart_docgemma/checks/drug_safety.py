"""The patient-safety check of the drugs a clinician names, orders or asks about.

``chart_data`` reads the chart of the patient in context with the CDS order-sign prefetch
queries (so the chat, the card and CDS judge the same data); ``check`` runs the CDS order rules
(``checks.rules.order_checks``, which include ``checks.patient_rules``) on one draft per drug;
``Report`` renders each finding as the same sentence and severity CDS puts on its card.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from .. import errors, knowledge
from ..datafiles import safe_yaml
from ..knowledge import disease, quantities
from ..languages import N_, answer_language, answer_text, day, message, say
from . import chart_values, context, hookdata, patient_rules, rules
from .context import HookData
from .findings import RANK, Finding
from .mentions import Mention, of_finding

SERVICES = Path(__file__).with_name("services.yaml")
READ_KEYS = ("patient", "medications", "allergies", "conditions", "pregnancy", "labs", "weight")
NEEDED = {
    "medications": N_("active medications"),
    "allergies": N_("allergies"),
    "conditions": N_("problem list"),
    "labs": N_("lab results"),
}
# order-sign prefetch key -> the chart section (tools.chart.chart.SECTIONS) that reads the same
# resources
SHARED_SECTIONS = {"medications": "medications", "allergies": "allergies",
                   "conditions": "conditions"}
CHECKED = N_(
    "offline interaction tables, allergy cross-reactivity, pregnancy/lactation, renal, "
    "drug–disease and lab rules of the knowledge core"
)


@dataclass
class Report:
    """The findings about the asked drugs on this patient, and what could not be read."""

    drugs: list[str]
    findings: list[Finding] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # chart parts that could not be read
    age: int | None = None
    renal: knowledge.Renal | None = None  # the latest eGFR or CrCl the check judged by
    doses: list[dict] = field(default_factory=list)  # a child's weight-based dose (messages)
    # active problems no drug–disease rule covers
    uncovered: list[str] = field(default_factory=list)
    weight: knowledge.Weight | None = None  # the latest weight on file, with its date
    # drugs the renal rules hold no entry for, while a kidney result is on file: not checked
    renal_uncovered: list[str] = field(default_factory=list)
    # pregnant, and the pregnancy table lists none of the drug's ingredients
    pregnancy_uncovered: list[str] = field(default_factory=list)
    # breastfeeding (on the chart or said), and the lactation table lists none of its ingredients
    lactation_uncovered: list[str] = field(default_factory=list)
    # her active orders of an asked drug, as the chart words them ("warfarin sodium 5 MG Oral
    # Tablet — 5 mg by mouth once daily in the evening"): the dose she is on, when asked of it
    taking: list[str] = field(default_factory=list)

    def context(self) -> str | None:
        """What the age and kidney rules judged by, said even when they found nothing: for a
        patient of the age list's years or with a kidney result ("no finding" is then a fact
        of this chart, not a check that did not run)."""
        parts = []
        if self.age is not None and self.age >= knowledge.age_list_minimum():
            parts.append(_say(N_("age %(age)s (age list: %(source)s)"), age=self.age,
                              source=knowledge.age_list_source()))
        if self.renal is not None:
            parts.append(_say(N_("latest kidney function %(renal)s"), renal=_renal(self.renal)))
        return (
            _say(N_("Checked for this patient's %(parts)s."), parts="; ".join(parts))
            if parts
            else None
        )

    @property
    def severe(self) -> list[Finding]:
        """Findings of severity warning or above: these must reach the clinician on every path."""
        return [f for f in self.findings if f.severity in ("critical", "warning")]

    def recognised(self) -> list[str]:
        """The asked drugs the knowledge identified: one it could not name ("sulfa") was not
        checked, so "nothing found" is never said of it."""
        unknown = {label.lower() for f in self.findings if f.topic == "unidentified"
                   for label in f.fingerprint_of}
        return [d for d in self.drugs if d.lower() not in unknown]

    def lines(self) -> list[str]:
        """One line per finding, most severe first, in the words of the CDS card."""
        out = [said_line(f) for f in self.shown()]
        if self.taking:
            out.append(_say(N_("Already on the patient's list: %(orders)s."),
                            orders="; ".join(self.taking)))
        out += [say(d, answer_language()) for d in self.doses]
        if self.context():
            out.append(self.context() or "")
        if self.unread:
            out.append(
                _say(
                    N_(
                        "The patient's %(parts)s could not be read, so those checks did not run. "
                        "Do not assume the drug is safe for this patient."
                    ),
                    parts=", ".join(_say(p) for p in self.unread),
                )
            )
        checked = self.recognised()
        if checked and not any(f.severity != "info" for f in self.findings) and not self.unread:
            out.append(self._nothing_found(checked))
        out += [say(m, answer_language()) for m in self.not_covered()]
        return out

    def not_covered(self) -> list[dict]:
        """What a table of the check lacks, as messages ("Not covered: …"): said in the answer
        and carried on the approval card, so neither reads as a check that found nothing."""
        out: list[dict] = []
        if self.uncovered and not any(f.topic == "drug-disease" for f in self.findings):
            out.append(
                message(
                    N_(
                        "Not covered: the drug–disease rules have no rule for %(problems)s, so "
                        "nothing is claimed about them for %(drugs)s."
                    ),
                    problems=", ".join(self.uncovered),
                    drugs=", ".join(self.drugs),
                )
            )
        named = [d for d in self.drugs if knowledge.class_named(d)]
        if named:
            out.append(
                message(
                    N_(
                        "Not covered: %(drugs)s names a class of drugs, so only the class's rules "
                        "were applied; each drug's own rules (its dose, kidney dosing, its own "
                        "interactions) were not. Name the drug to check it."
                    ),
                    drugs=", ".join(named),
                )
            )
        if self.renal_uncovered and self.renal is not None:
            out.append(
                message(
                    N_(
                        "Not covered: the renal rules have no entry for %(drugs)s, so no dose "
                        "is checked against %(renal)s."
                    ),
                    drugs=", ".join(self.renal_uncovered),
                    renal=_renal(self.renal),
                )
            )
        elif self.renal_uncovered and not self.unread:
            # no kidney result and no rule: "nothing found in … renal … rules" would claim a check
            out.append(message(N_("Not covered: the renal rules have no entry for %(drugs)s, and "
                                  "no kidney result is on file; kidney dosing was not checked."),
                               drugs=", ".join(self.renal_uncovered)))
        if self.pregnancy_uncovered and not self.unread:
            # "nothing found in … pregnancy/lactation …" would claim a table that lacks the drug
            out.append(message(N_("Not covered: the pregnancy table has no entry for %(drugs)s, so "
                                  "nothing is claimed about it in pregnancy."),
                               drugs=", ".join(self.pregnancy_uncovered)))
        if self.lactation_uncovered and not self.unread:
            # the lactation table holds a few drugs only: silence on the rest would read as safe
            out.append(message(N_("Not covered: the breastfeeding table has no entry for "
                                  "%(drugs)s, so nothing is claimed about it while breastfeeding."),
                               drugs=", ".join(self.lactation_uncovered)))
        return out

    def _gaps(self) -> bool:
        """A table of the check lacks one of the drugs or one of her problems (said below as
        "Not covered")."""
        return bool(self.renal_uncovered or self.pregnancy_uncovered or self.lactation_uncovered
                    or self.uncovered)

    def _nothing_found(self, checked: list[str]) -> str:
        # with a table that lacks the drug or her problem, "nothing found in the … renal …
        # rules" would claim that table's check: only the rules that hold it are said to be clean
        if any(f.topic == "data-gap" for f in self.findings):
            # metformin with no eGFR on file: its renal rule did not run ("Not checked" above),
            # so the renal rules are not among those said to have found nothing
            return _say(N_("Patient safety check of %(drugs)s: no finding in the checks that "
                           "ran; those that could not run for want of a result are named above."),
                        drugs=", ".join(checked))
        if self._gaps():
            return _say(N_("Patient safety check of %(drugs)s: no finding in the rules that hold "
                           "it; the rules that do not are named below."),
                        drugs=", ".join(checked))
        return _say(N_("Patient safety check of %(drugs)s: nothing found in the %(checked)s."),
                    drugs=", ".join(checked), checked=_say(CHECKED))

    def shown(self) -> list[Finding]:
        """The findings, most severe first; a pair of asked drugs is said once, not per drug."""
        seen, out = set(), []
        for f in sorted(self.findings, key=lambda f: RANK[f.severity]):
            pair = (
                frozenset((_drug_of(f), str(f.fingerprint_of[0])))
                if f.topic == "drug-interaction" and f.fingerprint_of
                else None
            )
            if pair is None or pair not in seen:
                out.append(f)
                seen.add(pair)
        return out

    def mentions(self) -> list[Mention]:
        """What an answer must state (``checks.mentions``): each finding's line and its words."""
        return [of_finding(f, line(f), _drug_of(f)) for f in self.shown()]

    def _said_once(self) -> list[Finding]:
        """The findings, each with a sentence of its own on the card: when two share one short
        sentence (a label pair's "monitor closely" and the hyperkalaemia rule's, which adds that
        no potassium is on file), the later one is shown in its longer summary."""
        seen: set[tuple[str, str]] = set()
        out = []
        for f in self.findings:
            said = (f.severity, say(f.message, "en") if f.message else f.summary)
            if said in seen and f.message:
                f = replace(f, message=None)
            seen.add(said)
            out.append(f)
        return out

    def flags(self) -> list[dict]:
        """The approval card's safety flags: the same sentence and severity as ``lines``."""
        out = [
            {
                "severity": f.severity,
                "kind": f.topic,
                "text": f.summary,
                **({"message": f.message} if f.message else {}),
                "terms": [list(g) for g in of_finding(f, "", _drug_of(f)).terms],
                **(
                    {"source": {"label": f.sources[0].label, "url": f.sources[0].url}}
                    if f.sources and f.sources[0].url
                    else {}
                ),
            }
            for f in self._said_once()
        ]
        out += [
            {
                "severity": "warning",
                "kind": "unchecked",
                "text": f"The patient's {part} could not be read, so that check did not run.",
                "message": message(N_("The patient's %(part)s could not be read, so that check did "
                                      "not run."), part=message(part)),
            }
            for part in self.unread
        ]
        return sorted(out, key=lambda f: RANK.get(f["severity"], 2))


def _drug_of(finding: Finding) -> str:
    concept = (finding.draft or {}).get("medicationCodeableConcept") or {}
    return knowledge.generic(concept.get("text") or "")


def _renal(renal: knowledge.Renal) -> dict:
    """``Renal.describe()`` as a message: its date in the turn's language."""
    if renal.when is None:
        return message(N_("%(measure)s %(value)s (date unknown)"), measure=renal.measure,
                       value=f"{renal.value:g}")
    return message(N_("%(measure)s %(value)s on %(date)s"), measure=renal.measure,
                   value=f"{renal.value:g}", date=day(renal.when.isoformat()))


def _say(msgid: str, **args) -> str:
    """A sentence of the check in this turn's language (English: the msgid filled)."""
    return say(message(msgid, **args), answer_language())


def said_line(finding: Finding) -> str:
    """``line`` in this turn's language: the finding's message after the severity's word."""
    lang = answer_language()
    if lang == "en" or not finding.message:
        return line(finding)
    severity = answer_text("guard", finding.severity) or finding.severity.upper()
    return f"{severity} — {say(finding.message, lang)}"


def line(finding: Finding) -> str:
    """``WARNING — Avoid ibuprofen — eGFR 38 on 2026-10-01: …`` (the marker tests read)."""
    return f"{finding.severity.upper()} — {finding.summary}"


def chart_data(fhir, patient_id: str, scopes=None, shared=None) -> HookData:
    """The chart parts the checks read, with the CDS order-sign queries; unreadable parts are
    recorded in ``missing`` (a check that could not run is said, never passed over).

    ``shared``: the turn's own chart read (``tools.base.ChartRead``) of this patient; a part it
    read whole is taken from it instead of being read again. The rest is read in parallel, one
    search per part, each thread with a gateway of its own."""
    templates = _order_sign_prefetch()
    data = HookData()
    todo = []
    for key in READ_KEYS:
        rtype = templates[key].split("?")[0].split("/")[0]
        if scopes is not None and not scopes.allows(rtype, "r"):
            data.missing.add(key)
        elif (taken := _shared_part(shared, patient_id, key)) is not None:
            found = context.well_formed(taken, key)
            if found is None:
                data.missing.add(key)
            else:
                data.resources[key] = found
        else:
            todo.append(key)

    def one(key: str) -> list[dict] | None:
        gateway = fhir.twin() if len(todo) > 1 else fhir
        return context.fetch(gateway, templates[key], {"patientId": patient_id}, key)

    with ThreadPoolExecutor(max_workers=max(1, len(todo))) as pool:
        for key, found in zip(todo, pool.map(one, todo), strict=False):
            if found is None:
                data.missing.add(key)
            else:
                data.resources[key] = found
    return data


def _shared_part(shared, patient_id: str, key: str) -> list[dict] | None:
    """``key``'s resources from the turn's chart read, or None when it did not read it whole.
    The chart's sections search with the same filters as the order-sign prefetch
    (``status=active``, ``clinical-status=active``), only bounded and newest first."""
    if shared is None or shared.patient_id != patient_id:
        return None
    if key == "patient":
        return [shared.patient]
    section = SHARED_SECTIONS.get(key)
    return shared.sections.get(section) if section else None


@lru_cache(maxsize=1)
def _order_sign_prefetch() -> dict:
    """The CDS order-sign service's prefetch queries (``checks/services.yaml``): the chat and the
    card read the same chart parts CDS does."""
    services = safe_yaml(SERVICES.read_text())
    return next(s for s in services.values() if s["hook"] == "order-sign")["prefetch"]


def draft_for(name: str, index: int, dosage: dict | None = None) -> dict:
    """A draft MedicationRequest for a drug named in a question (coded when the knowledge can)."""
    ident = knowledge.identify(text=name)
    concept: dict = {"text": name}
    if ident.identified and len(ident.ingredients) == 1 and ident.ingredients[0].rxcui:
        ing = ident.ingredients[0]
        concept["coding"] = [
            {
                "system": "http://www.nlm.nih.gov/research/umls/rxnorm",
                "code": ing.rxcui,
                "display": ing.name,
            }
        ]
    draft = {
        "resourceType": "MedicationRequest",
        "id": f"asked-{index}",
        "status": "draft",
        "intent": "order",
        "medicationCodeableConcept": concept,
    }
    if dosage:
        draft["dosageInstruction"] = [dosage]
    return draft


def check(
    drugs: list[str], data: HookData, dosage: dict | None = None, asking: bool = False
) -> Report:
    """The findings for ``drugs`` on this chart; ``dosage`` is an order's dosageInstruction.

    ``asking``: a question about the drugs, not an order — a drug the patient already takes is
    not a duplicate of itself (a new order of it is, on the card and in CDS)."""
    drafts = [draft_for(n, i, dosage) for i, n in enumerate(drugs)]
    findings = rules.order_checks(drafts, data)
    if asking:
        findings = [f for f in findings if f.topic != "duplicate-order"
                    and not _mirrored(f, data)]
    renal = rules.latest_renal(data)
    age = rules.patient_age(data)
    return Report(
        drugs=[knowledge.generic(d) for d in drugs],
        findings=findings,
        unread=[NEEDED[k] for k in NEEDED if k in data.missing],
        age=age,
        renal=renal.value if renal else None,
        doses=[d for n in drugs if asking and (d := child_dose(knowledge.generic(n), age, data))],
        uncovered=[p.text for p in disease.uncovered(patient_rules.problems(data))],
        weight=latest_weight(data),
        renal_uncovered=[g for g in map(knowledge.generic, drugs) if not _renal_rule(g)],
        pregnancy_uncovered=_pregnancy_uncovered(drugs, data),
        lactation_uncovered=_lactation_uncovered(drugs, data),
        taking=_taking(drugs, data) if asking else [],
    )


def _mirrored(f: Finding, data: HookData) -> bool:
    """A class duplication whose subject is a drug she already takes, asked beside a new one
    ("switch him to apixaban" checks apixaban with her warfarin): the new drug's own finding
    states the pair; this mirror would say the new drug "is already ordered", which it is not."""
    if f.topic != "additive-therapy" or f.draft is None:
        return False
    subject = knowledge.generic(hookdata.med_name(f.draft) or "")
    return subject in {knowledge.generic(n) for n, _ in hookdata.named(data.get("medications"))}


def _taking(drugs: list[str], data: HookData) -> list[str]:
    """Her active orders of the asked drugs, each with its dosage as the chart words it."""
    asked = {knowledge.generic(d) for d in drugs}
    out = []
    for name, order in hookdata.named(data.get("medications") or []):
        if knowledge.generic(name) in asked:
            text = ((order.get("dosageInstruction") or [{}])[0]).get("text")
            out.append(f"{name} — {text}" if text else name)
    return out


def _pregnancy_uncovered(drugs: list[str], data: HookData) -> list[str]:
    """The drugs the pregnancy table does not list, for a pregnant patient (else none)."""
    if not hookdata.pregnancy_evidence(data, rules.table()["pregnancy_status"]):
        return []
    names = map(knowledge.generic, drugs)
    return [g for g in names if not knowledge.pregnancy_flags(g.split("/"))]


def _lactation_uncovered(drugs: list[str], data: HookData) -> list[str]:
    """The drugs the lactation table does not list, for a patient breastfeeding (else none)."""
    if not hookdata.lactation_evidence(data, rules.table()["lactation_status"]):
        return []
    names = map(knowledge.generic, drugs)
    return [g for g in names if not knowledge.pregnancy_flags(g.split("/"), lactation=True)]


# SNOMED's semantic tag at the end of a problem's text ("Stress (finding)")
_TAG = re.compile(r"\s*\(([a-z ]+)\)\s*$")


def _uncovered_disorders(data: HookData) -> list[str]:
    """Her disorders the drug–disease rules hold no rule for, named without SNOMED's tag; her
    findings and social situations ("Stress (finding)", "Full-time employment") are no disease
    the rules could hold, and listing them would bury the ones that matter."""
    out = []
    for p in disease.uncovered(patient_rules.problems(data)):
        m = _TAG.search(p.text)
        if m and m.group(1) != "disorder":
            continue
        out.append(p.text[: m.start()] if m else p.text)
    return list(dict.fromkeys(out))


def _renal_rule(drug: str) -> bool:
    """The renal rules hold an entry for an ingredient of ``drug`` (any eGFR)."""
    return any(knowledge.renal_flags([i], 0.0) for i in drug.split("/"))


def latest_weight(data: HookData) -> knowledge.Weight | None:
    """The latest body weight on file in kg (lb and g converted) with the day it was taken (None
    without one)."""
    weight = chart_values.latest_weight(data)
    return knowledge.Weight(weight.kg, weight.when) if weight else None


def child_dose(drug: str, age: int | None, data: HookData) -> dict | None:
    """A question about a drug for a child: its weight-based dose from the latest weight on file,
    with that weight's date, and the most a dose may be (``knowledge.paediatric_limit``); None for
    an adult, a drug the table lacks, or no weight (the check's gaps then say "no weight on
    file")."""
    limit = knowledge.paediatric_limit(drug)
    weight = chart_values.latest_weight(data)
    days = patient_rules.age_days(data)
    if age is None or age >= disease.adult_age() or not limit or weight is None or days is None:
        return None
    if weight.days_old > quantities.max_age_days("child_weight", days):
        return None  # an old weight is not used as today's (the check's findings say so)
    kg = weight.kg
    return message(
        N_(
            "Weight-based dose of %(drug)s for this child: %(per_kg)s "
            "mg/kg a dose = %(dose)s mg for %(kg)s kg (weight of "
            "%(date)s), at most %(most)s mg a dose (%(source)s)."
        ),
        drug=drug,
        per_kg=f"{limit.mg_per_kg:g}",
        dose=f"{limit.for_weight(kg):g}",
        kg=f"{kg:g}",
        date=day(weight.when.isoformat()),
        most=f"{limit.max_mg:g}",
        source=limit.source,
    )


def review(data: HookData) -> Report:
    """A whole-list review: the one check over every active medication of the chart, each against
    the chart (pregnancy, kidneys, potassium, age, weight, problems, allergies) and against the
    others (interactions, duplicates, two drugs of one class). The findings, not the list."""
    active = [r for _, r in hookdata.named(data.get("medications"))]
    drafts = [{**r, "id": f"review-{i}", "status": "draft"} for i, r in enumerate(active)]
    alone = HookData(resources={**data.resources, "medications": []}, missing=set(data.missing),
                     stated=data.stated)
    findings = _once(rules.order_checks(drafts, alone, others_are="active"))
    renal = rules.latest_renal(data)
    names = [hookdata.med_name(r) or "" for r in active]
    drugs = [knowledge.generic(n) for n in names]
    # what the tables do not hold is said as for one drug asked: a review's "nothing found in …
    # renal … rules" must not stand for a drug the renal rules have no entry for
    return Report(
        drugs=drugs,
        findings=findings,
        unread=[NEEDED[k] for k in NEEDED if k in data.missing],
        age=rules.patient_age(data),
        renal=renal.value if renal else None,
        uncovered=_uncovered_disorders(data),
        renal_uncovered=[g for g in drugs if g and not _renal_rule(g)],
        pregnancy_uncovered=_pregnancy_uncovered([n for n in names if n], data),
        lactation_uncovered=_lactation_uncovered([n for n in names if n], data),
    )


def _once(findings: list[Finding]) -> list[Finding]:
    """A pair among the reviewed drugs is found from both sides: said once."""
    seen, out = set(), []
    for f in findings:
        pair = (
            (frozenset((_drug_of(f), str(f.fingerprint_of[0]))), f.topic)
            if f.topic in ("drug-interaction", "additive-therapy", "duplicate-order")
            and f.fingerprint_of
            else None
        )
        if pair is None or pair not in seen:
            out.append(f)
            seen.add(pair)
    return out


def review_in_context(ctx) -> Report | None:
    """``review`` of the launch patient's chart; None without a patient in context. A review is
    a question, like ``check_in_context(asking=True)``: the parts the turn's chart read holds
    whole are taken from it (``ctx.chart_read``), not read again."""
    if not (ctx.patient_id and ctx.fhir):
        return None
    shared = getattr(ctx, "chart_read", None)
    try:
        data = chart_data(ctx.fhir, ctx.patient_id, getattr(ctx, "scopes", None), shared)
    except errors.DocGemmaError:
        data = HookData(missing=set(READ_KEYS))
    data.stated = frozenset(getattr(ctx, "stated", ()))  # "she's breastfeeding": weighed too
    return review(data)


def check_in_context(
    ctx, drugs: list[str], dosage: dict | None = None, asking: bool = False
) -> Report | None:
    """The check against a tool context's launch patient; None without a patient in context."""
    if not (ctx.patient_id and ctx.fhir):
        return None
    shared = getattr(ctx, "chart_read", None) if asking else None  # an order reads afresh
    try:
        data = chart_data(ctx.fhir, ctx.patient_id, getattr(ctx, "scopes", None), shared)
    except errors.DocGemmaError:
        data = HookData(missing=set(READ_KEYS))
    data.stated = frozenset(getattr(ctx, "stated", ()))  # "she's breastfeeding": weighed too
    return check(drugs, _without(data, set(getattr(ctx, "replacing", ()) or ())), dosage, asking)


def _without(data: HookData, stopped: set[str]) -> HookData:
    """The chart without the active orders a switch stops (their ids)."""
    meds = data.resources.get("medications")
    if not stopped or meds is None:
        return data
    kept = [m for m in meds if m.get("id") not in stopped]
    return HookData(resources={**data.resources, "medications": kept}, missing=set(data.missing),
                    stated=data.stated)
