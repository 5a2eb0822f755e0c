"""Drug knowledge tools: ``check_drug_safety`` and ``check_drug_interactions``.

Both read FDA labeling through openFDA ``/drug/label.json`` (CC0). Searches are
always quoted — an unquoted multi-word value silently matches unrelated labels
(FDA/openfda#212) — and a space between clauses means OR. One drug has many
labels (every repackager has its own ``set_id``): we keep one label per
``set_id``, the newest ``effective_time``, and prefer one whose harmonised name
matches what was asked. openFDA answers "no match" with HTTP 404, which is an
empty result, not an error.

Interactions combine two sources and say which said what: the offline table
interaction tables of the knowledge core (the ANSM thesaurus and the ONC
high-priority list, ``knowledge.drug_interactions``, work without the network) and each
label's own Drug Interactions, Contraindications and Boxed Warning text searched for the
other drug's name or class. RxNav's interaction API was retired on 2024-01-02 and is not used; RxNorm spelling
suggestions only rescue misspelt names.

``label_safety(http, name)`` is pure (no ToolContext) so CDS Hooks can reuse it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

import yaml

from .. import knowledge
from ..checks import mentions as guard
from ..checks.patient import check_in_context
from ..errors import SourceError
from ..languages import N_, answer_language, answer_text, clinical_text, say
from ..languages import message as language_message
from . import args as tool_args
from . import catalog, dosing
from .base import Source, Tool, ToolContext, ToolResult
from .http import KnowledgeHttp
from .safety import patient_lists

DAILYMED = "https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid="
DISCLAIMER = "openFDA: do not rely on openFDA to make decisions regarding medical care."
TEXT_BUDGET = 3500  # characters of interaction text the 4B model reads; the rest stays in data
_SEVERITY_RANK = {level: i for i, level in enumerate(knowledge.LEVELS)}
_PAIR_SEVERITY = {"contraindicated": "critical", "avoid": "critical", "precaution": "warning"}
DATA = Path(__file__).with_name("data")
LABEL_LIMIT = 5  # labels fetched per search; whole labels are 50-150 KB each
# (field, heading shown, character budget) — the 4B model reads this text.
SAFETY_SECTIONS = (("boxed_warning", "Boxed warning", 700), ("contraindications", "Contraindications", 500),
                   ("warnings_and_cautions", "Warnings and precautions", 700), ("warnings", "Warnings", 700),
                   ("pregnancy", "Pregnancy", 300))
INTERACTION_FIELDS = (("drug_interactions", "Drug Interactions"), ("contraindications", "Contraindications"),
                      ("boxed_warning", "Boxed Warning"))
_NO_EFFECT = re.compile(r"\bno (clinically (important|significant|relevant)|dose adjustment|"
                        r"significant|meaningful)\b", re.I)
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.;]\s+(?=[A-Z(\[])")
_HEADING = re.compile(r"^\s*(\d+(\.\d+)*\s+)?(warnings and precautions|contraindications|warnings|"
                      r"drug interactions|pregnancy|precautions)\s*[:.]?\s*", re.I)


@dataclass
class LabelSafety:
    """The safety-relevant parts of one FDA label, compact and citable."""

    query: str
    set_id: str
    effective_time: str  # YYYYMMDD
    generic_names: list[str]
    brand_names: list[str]
    sections: dict[str, str]  # heading -> compact text (bounded)
    texts: dict[str, str] = field(default_factory=dict)  # interaction-relevant sections, whole
    other_set_ids: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return DAILYMED + self.set_id

    @property
    def name(self) -> str:
        generic = ", ".join(self.generic_names) or self.query.upper()
        return f"{generic} ({', '.join(self.brand_names[:2])})" if self.brand_names else generic

    @property
    def effective(self) -> str:
        t = self.effective_time
        return f"{t[:4]}-{t[4:6]}-{t[6:8]}" if len(t) == 8 else t

    @property
    def source(self) -> Source:
        return Source(f"FDA label: {self.name}, effective {self.effective} (DailyMed set id {self.set_id})", self.url)


def clean_name(name: str) -> str:
    """A drug name safe to put inside a quoted openFDA phrase (no quotes, colons or brackets)."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w \-./']", " ", name or "")).strip().lower()


def label_search(terms: list[str]) -> str:
    """``openfda.generic_name:"x" openfda.brand_name:"x" …`` — quoted phrases OR'd (space = OR)."""
    return " ".join(f'openfda.{f}:"{t}"' for t in terms for f in ("generic_name", "brand_name"))


def label_safety(http: KnowledgeHttp, drug: str) -> LabelSafety | None:
    """The newest matching FDA label for ``drug``, or ``None`` when openFDA has none.

    Tries the name as given and its offline generic (brand → generic); if
    openFDA has nothing, asks RxNorm for a spelling suggestion once.
    Raises ``SourceError`` when openFDA cannot answer.
    """
    raw = clean_name(drug)
    terms = list(dict.fromkeys(t for t in (raw, _label_name(raw)) if t))
    labels = _about(_fetch_labels(http, terms), terms)
    if not labels:
        suggestion = _spelling_suggestion(http, raw)
        if suggestion and suggestion not in terms:
            terms = [suggestion]
            labels = _about(_fetch_labels(http, terms), terms)
    return _summarise(drug, terms, labels) if labels else None


def _label_name(name: str) -> str:
    """How openFDA's generic_name field spells a drug: "amoxicillin and clavulanate" for a combination."""
    return " and ".join(knowledge.generic(name).split("/"))


def _about(labels: list[dict[str, Any]], terms: list[str]) -> list[dict[str, Any]]:
    """Only labels whose harmonised names mention a searched name: a label for another
    product is never reported as this drug's (a safety check must not borrow warnings)."""
    def names(label: dict[str, Any]) -> str:
        return " | ".join(n.lower() for key in ("generic_name", "brand_name", "substance_name")
                          for n in (label.get("openfda") or {}).get(key, []))
    return [lb for lb in labels if any(t.lower() in names(lb) for t in terms)]


def _fetch_labels(http: KnowledgeHttp, terms: list[str]) -> list[dict[str, Any]]:
    body = http.get_json("openfda", "/drug/label.json", {
        "search": label_search(terms), "limit": LABEL_LIMIT, "sort": "effective_time:desc"})
    return (body or {}).get("results") or []


def _spelling_suggestion(http: KnowledgeHttp, name: str) -> str | None:
    """RxNorm's first spelling suggestion ("ambienn" → "ambien"); best effort, never fatal."""
    try:
        body = http.get_json("rxnav", "/spellingsuggestions.json", {"name": name}) or {}
    except SourceError:
        return None
    found = ((body.get("suggestionGroup") or {}).get("suggestionList") or {}).get("suggestion") or []
    return clean_name(found[0]) if found else None


def newest_per_set(labels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One label per ``set_id`` (the newest ``effective_time``), newest first."""
    best: dict[str, dict[str, Any]] = {}
    for label in labels:
        sid = label.get("set_id") or label.get("id") or ""
        if sid not in best or label.get("effective_time", "") > best[sid].get("effective_time", ""):
            best[sid] = label
    return sorted(best.values(), key=lambda lb: lb.get("effective_time", ""), reverse=True)


def _name_match(label: dict[str, Any], terms: list[str]) -> int:
    """2 = a harmonised name equals a term, 1 = starts with it (salt form), 0 = other product."""
    names = [n.lower() for key in ("generic_name", "brand_name", "substance_name")
             for n in (label.get("openfda") or {}).get(key, [])]
    if any(n in terms for n in names):
        return 2
    return int(any(n.startswith(t + " ") for n in names for t in terms))


def _summarise(drug: str, terms: list[str], labels: list[dict[str, Any]]) -> LabelSafety:
    ranked = sorted(newest_per_set(labels), key=lambda lb: _name_match(lb, terms), reverse=True)
    label, openfda = ranked[0], ranked[0].get("openfda") or {}
    sections = {heading: compact(label.get(key), budget) for key, heading, budget in SAFETY_SECTIONS
                if label.get(key)}
    texts = {heading: _joined(label.get(key)) for key, heading in INTERACTION_FIELDS if label.get(key)}
    return LabelSafety(query=drug, set_id=label.get("set_id", ""), effective_time=label.get("effective_time", ""),
                       generic_names=openfda.get("generic_name", [])[:2], brand_names=openfda.get("brand_name", [])[:2],
                       sections=sections, texts=texts, other_set_ids=[lb.get("set_id", "") for lb in ranked[1:]])


def _joined(parts: list[str] | None) -> str:
    return re.sub(r"\s+", " ", " ".join(parts or [])).strip()


def compact(parts: list[str] | None, budget: int) -> str:
    """Section text without its numbered heading, cut at a sentence end within ``budget``."""
    text = _HEADING.sub("", _joined(parts), count=1)
    if len(text) <= budget:
        return text
    cut = text[:budget]
    end = max(cut.rfind(". "), cut.rfind("; "))
    return (cut[: end + 1] if end > budget // 2 else cut.rstrip()) + " …"


# --- check_drug_safety --------------------------------------------------------

def run_drug_safety(args: tool_args.DrugSafetyArgs, ctx: ToolContext) -> ToolResult:
    """This patient's safety check (knowledge core against the chart in context), then boxed warning,
    contraindications, warnings and pregnancy text from the newest FDA label."""
    dosage = dosing.order(args.dose, "", None).dosage if args.dose else None
    return with_patient_check(_label_result(args, ctx), ctx, [args.drug_name], dosage)


def _label_result(args: tool_args.DrugSafetyArgs, ctx: ToolContext) -> ToolResult:
    try:
        info = label_safety(ctx.sources(), args.drug_name)
    except SourceError as err:
        failed = ToolResult.failure(err.kind, err.message("drug-safety information", "Do not assume the drug is safe."))
        failed.data["said"] = err.said(N_("drug-safety information"), N_("Do not assume the drug is safe."))
        return failed
    if info is None:
        return ToolResult(status="empty", count=0, text=(
            f"No FDA drug label was found for \"{args.drug_name}\". Check the spelling or use the generic "
            "name. This is not evidence that the drug is safe."))
    lines = [f"FDA label for {info.name}, effective {info.effective} (set id {info.set_id})."]
    if "Boxed warning" not in info.sections:
        lines.append("Boxed warning: none in this label.")
    lines += [f"{heading}: {text}" for heading, text in info.sections.items()]
    if info.other_set_ids:
        lines.append(f"({len(info.other_set_ids)} other label(s) for this drug were found; this is the best match.)")
    lines.append(DISCLAIMER)
    data = {"drug": args.drug_name, "set_id": info.set_id, "effective_time": info.effective_time,
            "names": {"generic": info.generic_names, "brand": info.brand_names}, "sections": info.sections}
    return ToolResult(status="ok", text="\n".join(lines), data=data, sources=[info.source], count=1)


def with_patient_check(result: ToolResult, ctx: ToolContext, drugs: list[str],
                       dosage: dict[str, Any] | None = None) -> ToolResult:
    """``result`` led by the patient-safety check of ``drugs`` on the chart in context: its findings
    stand even when a label source failed (a failed source never hides what the chart shows)."""
    report = check_in_context(ctx, drugs, dosage, asking=True)
    if report is None:
        return result
    head = [say(language_message(N_("Patient safety check against this patient's chart:")), answer_language()),
            *dict.fromkeys(report.lines())]
    sources = [Source(s.label, s.url) for f in report.findings for s in f.sources if s.url]
    severe = len(report.severe)
    status = "ok" if severe or result.status == "ok" else result.status
    failed = ([guard.of_source_failure(result.text, (result.data or {}).get("said"))]
              if result.status == "error" and status == "ok" else [])
    data = {**result.data, "safety_findings": [*(result.data or {}).get("safety_findings", []),
                                               *(m.to_dict() for m in [*report.mentions(), *failed])]}
    return ToolResult(status=status, text="\n".join(head + ["", result.text]), data=data,
                      sources=list(dict.fromkeys(sources + result.sources)),
                      count=(result.count or 0) + severe, error_kind=None if status == "ok" else result.error_kind)


# --- check_drug_interactions ---------------------------------------------------

@dataclass(frozen=True)
class LabelMention:
    """Drug A's label names drug B (or B's class) in one of its sections."""

    label: LabelSafety
    section: str
    term: str
    sentence: str  # the whole sentence naming the term
    excerpt: str  # the sentence, cut around the term to a bounded length

    @property
    def reassuring(self) -> bool:
        """The sentence says there is no clinically important interaction (labels list those too)."""
        return bool(_NO_EFFECT.search(self.sentence))


@lru_cache(maxsize=1)
def _class_terms() -> dict[str, list[str]]:
    terms: dict[str, list[str]] = yaml.safe_load((DATA / "class_terms.yaml").read_text())
    return terms


def terms_for(generic: str, info: LabelSafety | None) -> list[str]:
    """Words a label would use for this drug: its names and its classes' names."""
    names = {generic} | {n.lower() for n in (info.generic_names + info.brand_names if info else [])}
    names |= {t.lower() for cls in knowledge.drug_classes(generic) for t in _class_terms().get(cls, [])}
    return sorted(n for n in names if len(n) > 2)


def label_mentions(info: LabelSafety, terms: list[str]) -> LabelMention | None:
    """Where ``info``'s interaction-relevant sections name any of ``terms``, with the sentence.

    A warning beats a "no clinically important interaction" statement, which labels also list.
    """
    found = []
    for section, text in info.texts.items():
        for term in terms:
            for m in re.finditer(rf"\b{re.escape(term)}s?\b", text, re.I):
                sentence = _sentence(text, m.start(), m.end())
                at = sentence.lower().find(m.group(0).lower())
                hit = LabelMention(info, section, term, sentence, _excerpt(sentence, at))
                if not hit.reassuring:
                    return hit
                found.append(hit)
    return found[0] if found else None


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]`` ("e.g." and "i.e." do not end a sentence)."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    left = max([e for e in ends if e <= start], default=0)
    right = min([e for e in ends if e > end], default=len(text))
    return text[left:right].strip()


def _excerpt(sentence: str, term_at: int, budget: int = 300) -> str:
    if len(sentence) <= budget:
        return sentence
    left = max(0, min(term_at - budget // 2, len(sentence) - budget))
    tail = " …" if left + budget < len(sentence) else ""
    return ("… " if left else "") + sentence[left:left + budget].strip() + tail


def run_drug_interactions(args: tool_args.DrugInteractionArgs, ctx: ToolContext) -> ToolResult:
    """Interaction tables (offline) plus FDA-label cross-check for every pair of the asked drugs and,
    with a patient in context, of each asked drug against the patient's active medications and allergies."""
    generics: dict[str, str] = {}
    for name in args.drug_names:
        generics.setdefault(knowledge.generic(clean_name(name)) or clean_name(name), name)
    if len(generics) < 2:
        return ToolResult.failure("invalid", "The drug interaction check needs at least two different drugs.")
    meds, allergies, chart_note = _chart(ctx)
    active = {g: m for m in meds if (g := knowledge.generic(clean_name(m))) and g not in generics}
    table = [i for i in knowledge.drug_interactions([*generics, *active], minimum="take into account")
             if i.drug_a in generics or i.drug_b in generics]
    labels, label_error = _labels_for(ctx.sources(), list(generics))
    pairs = [_pair_report(a, b, table, labels) for a, b in
             [*combinations(generics, 2), *((a, m) for a in generics for m in active)]]
    result = _interaction_result(generics, pairs, table, labels, label_error)
    result = _with_chart(result, generics, [clean_name(m) for m in meds], allergies, chart_note)
    return with_patient_check(result, ctx, list(generics.values()))


def _chart(ctx: ToolContext) -> tuple[list[str], list[str], str]:
    """The launch patient's active medications and allergies, when the grant lets the tool read them."""
    scopes = getattr(ctx, "scopes", None)
    if not (ctx.patient_id and ctx.fhir and scopes and scopes.allows("MedicationRequest", "r")
            and scopes.allows("AllergyIntolerance", "r")):
        return [], [], ""
    meds, allergies, flags = patient_lists(ctx, shared=True)
    return meds, allergies, " ".join(f["text"] for f in flags)


def _with_chart(result: ToolResult, generics: dict[str, Any], active: list[str], allergies: list[str],
                note: str) -> ToolResult:
    """The asked drugs' allergy conflicts first, and which of the patient's records were checked."""
    lines = [f"ALLERGY ({c.severity.upper()}) — {drug}: documented {c.allergy} allergy; {c.reason}."
             for drug in generics for a in allergies for c in knowledge.allergy_conflicts(a, drug)[:1]]
    if active or allergies:
        none = say(language_message(N_("none")), answer_language())
        lines.append(say(language_message(N_("Checked against the patient's active medications (%(meds)s) and recorded "
                                    "allergies (%(allergies)s)."), meds=", ".join(active) or none,
                                 allergies=", ".join(allergies) or none), answer_language()))
    if note:
        lines.append(note)
    if not lines:
        return result
    allergy_hits = sum(line.startswith("ALLERGY") for line in lines)
    status = "ok" if allergy_hits else result.status
    return ToolResult(status=status, text="\n".join(lines + [result.text]), count=(result.count or 0) + allergy_hits,
                      error_kind=None if status == "ok" else result.error_kind, data=result.data,
                      sources=result.sources)


def _labels_for(http: KnowledgeHttp, generics: list[str]) -> tuple[dict[str, Any], SourceError | None]:
    labels: dict[str, LabelSafety | None] = {}
    for g in generics:
        try:
            labels[g] = label_safety(http, g)
        except SourceError as err:
            return {}, err
    return labels, None


def table_text(i: knowledge.Interaction) -> str:
    """A table row as the clinician reads it: a French clinician reads the ANSM original (the
    thesaurus's own level and its French text, ``Interaction.quote``; ``agent/answers/fr.yaml``
    ``findings``); everyone else the English text, Portuguese and Spanish clinicians included
    (no reviewed translation of these texts exists)."""
    if answer_language() == "fr" and i.source.startswith("ANSM") and i.quote:
        level = answer_text("findings", i.severity) or i.severity
        return f"{level.upper()} — {answer_text('findings', 'ansm')} {i.quote}"
    lang = answer_language()  # the tables' English clinical text, translated where written
    return _said(N_("%(level)s — %(summary)s. Mechanism: %(mechanism)s Management: %(management)s"),
                 level=clinical_text(i.severity, lang).upper(), summary=clinical_text(i.summary, lang),
                 mechanism=clinical_text(i.mechanism, lang), management=clinical_text(i.management, lang))


def _said(msgid: str, **args: Any) -> str:
    """The tool's own words in this turn's language (the sources' texts inside stay as read)."""
    return say(language_message(msgid, **args), answer_language())


def _pair_report(a: str, b: str, table: list[knowledge.Interaction], labels: dict[str, Any]) -> dict[str, Any]:
    rows = [i for i in table if {i.drug_a, i.drug_b} == {a, b}]
    found: list[dict[str, Any]] = [{"source": _said(N_("Offline interaction tables: %(source)s"),
                                                    source=i.source), "kind": "table",
                                    "severity": i.severity,
              "text": table_text(i)} for i in rows]
    for x, y in ((a, b), (b, a)):
        info = labels.get(x)
        hit = info and label_mentions(info, terms_for(y, labels.get(y)))
        if info and hit:
            row = (N_('%(drug)s label, %(section)s section, says no dose adjustment / no important '
                      'interaction with "%(term)s": %(excerpt)s') if hit.reassuring else
                   N_('%(drug)s label, %(section)s section, mentions "%(term)s": %(excerpt)s'))
            found.append({"source": info.source.label, "kind": "label", "url": info.url, "section": hit.section,
                          "reassuring": hit.reassuring,
                          "text": _said(row, drug=info.name, section=hit.section, term=hit.term,
                                        excerpt=hit.excerpt)})
    return {"drugs": [a, b], "findings": found}


def _urgency(pair: dict[str, Any]) -> tuple[Any, ...]:
    """Critical table rows first, then major/moderate, then label warnings, then reassurances."""
    ranks = [_SEVERITY_RANK.get(f.get("severity"), 3 if not f.get("reassuring") else 4) for f in pair["findings"]]
    return (min(ranks),)


def _interaction_result(generics: dict[str, Any], pairs: list[dict[str, Any]], table: list[knowledge.Interaction],
                        labels: dict[str, Any], label_error: SourceError | None) -> ToolResult:
    hits = sorted((p for p in pairs if p["findings"]), key=_urgency)
    lines: list[str] = []
    shown = 0
    for p in hits:
        if sum(map(len, lines)) > TEXT_BUDGET:
            break
        lines.append(f"{p['drugs'][0]} + {p['drugs'][1]}:")
        lines += [f"- [{f['source']}] {f['text']}" for f in p["findings"]]
        shown += 1
    if shown < len(hits):
        lines.append(f"({len(hits) - shown} more pair(s) with label mentions are in the full result.)")
    quiet = [" + ".join(p["drugs"]) for p in pairs if not p["findings"]]
    if label_error:
        caution = N_("Only the offline interaction tables (ANSM thesaurus, ONC high-priority list) were checked. "
                     "Do not assume there is no interaction.")
        message = label_error.message("the FDA label interaction check", caution)
        if not hits:
            return ToolResult.failure(label_error.kind, message + " The offline tables list no "
                                      "interaction for " + ", ".join(quiet) + ".")
        said = label_error.said(N_("the FDA label interaction check"), caution)
        lines.append(say(said, answer_language()))
        failure = guard.of_source_failure(message, said)
        if quiet:  # every pair asked is answered, with where nothing was found
            lines.append(say(language_message(N_("Nothing found for %(pairs)s in the offline interaction tables "
                                                 "(the FDA labels could not be checked)."),
                                              pairs=", ".join(quiet)), answer_language()))
    elif quiet:
        lines.append(_said(N_("No interaction found for %(pairs)s in the offline interaction tables or the FDA "
                              "labels' interaction, contraindication and boxed-warning text. Absence of label text "
                              "is not proof that a combination is safe."), pairs=", ".join(quiet)))
    missing = [generics[g] for g, info in labels.items() if info is None]
    if missing:
        lines.append(_said(N_("No FDA label was found for %(drugs)s, so its label could not be checked."),
                           drugs=", ".join(missing)))
    lines.append(DISCLAIMER)
    sources = [Source(f"Interaction table: {src}", i.url_of(src)) for i in table for src in i.sources or (i.source,)]
    sources += [info.source for info in labels.values() if info]
    mentions = [guard.of_pair(_PAIR_SEVERITY[f["severity"]], p["drugs"][0], p["drugs"][1], f["text"]).to_dict()
                for p in pairs for f in p["findings"] if _PAIR_SEVERITY.get(f.get("severity"))]
    if label_error:
        mentions.append(failure.to_dict())
    return ToolResult(status="ok" if hits else "empty", text="\n".join(lines), count=len(hits),
                      data={"pairs": pairs, "labels_checked": not label_error, "safety_findings": mentions},
                      sources=sources)


TOOLS: list[Tool] = [
    Tool(catalog.spec("check_drug_safety"), run_drug_safety),
    Tool(catalog.spec("check_drug_interactions"), run_drug_interactions),
]
