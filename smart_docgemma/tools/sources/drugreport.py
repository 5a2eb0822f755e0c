"""The drug-interaction tool's report: each pair's findings (interaction tables and label text),
most urgent first, written within the text budget the 4B model reads, with what was not checked
and why; ``table_text`` one table interaction as a sentence.
"""
from __future__ import annotations

from typing import Any

from ... import knowledge
from ...checks.mentions import of_pair, of_source_failure
from ...errors import SourceError
from ...languages import N_, answer_language, answer_text, clinical_text, say
from ...languages import message as language_message
from ..base import Source, ToolResult
from .druglabel import (
    DISCLAIMER,
    label_mentions,
    terms_for,
)

TEXT_BUDGET = 3500  # characters of interaction text the 4B model reads; the rest stays in data


_SEVERITY_RANK = {level: i for i, level in enumerate(knowledge.LEVELS)}


_PAIR_SEVERITY = {"contraindicated": "critical", "avoid": "critical", "precaution": "warning"}


def table_text(i: knowledge.Interaction) -> str:
    """A table row as the clinician reads it: a French clinician reads the ANSM original (the
    thesaurus's own level and its French text, ``Interaction.quote``; ``agent/answers/fr.yaml``
    ``findings``); everyone else the English text, Portuguese and Spanish clinicians included
    (no reviewed translation of these texts exists)."""
    if answer_language() == "fr" and i.source.startswith("ANSM") and i.quote:
        level = answer_text("findings", i.severity) or i.severity
        return f"{level.upper()} — {answer_text('findings', 'ansm')} {i.quote}"
    lang = answer_language()  # the tables' English clinical text, translated where written
    return _said(
        N_("%(level)s — %(summary)s. Mechanism: %(mechanism)s Management: %(management)s"),
        level=clinical_text(i.severity, lang).upper(),
        summary=clinical_text(i.summary, lang),
        mechanism=clinical_text(i.mechanism, lang),
        management=_management(i.management, lang),
    )


DISAGREE = " Sources disagree — "
HIGHER = ". The higher grade is shown."


def _management(text: str, lang: str) -> str:
    """The management text, translated where written, and the sources' disagreement the
    knowledge core appends to it (``knowledge/ddi.py``) said in the same language."""
    head, found, grades = text.partition(DISAGREE)
    said = clinical_text(head, lang)
    if not found:
        return said
    grades = grades.removesuffix(HIGHER)
    return f"{said} " + _said(
        N_("Sources disagree — %(grades)s. The higher grade is shown."), grades=grades
    )


def _said(msgid: str, **args: Any) -> str:
    """The tool's own words in this turn's language (the sources' texts inside stay as read)."""
    return say(language_message(msgid, **args), answer_language())


def pair_report(
    a: str, b: str, table: list[knowledge.Interaction], labels: dict[str, Any]
) -> dict[str, Any]:
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
            found.append(
                {
                    "source": info.source.label,
                    "kind": "label",
                    "url": info.url,
                    "section": hit.section,
                    "reassuring": hit.reassuring,
                    "text": _said(
                        row, drug=info.name, section=hit.section, term=hit.term, excerpt=hit.excerpt
                    ),
                }
            )
    return {"drugs": [a, b], "findings": found}


def _urgency(pair: dict[str, Any]) -> tuple[Any, ...]:
    """Critical table rows first, then major/moderate, then label warnings, then reassurances."""
    ranks = [
        _SEVERITY_RANK.get(f.get("severity"), 3 if not f.get("reassuring") else 4)
        for f in pair["findings"]
    ]
    return (min(ranks),)


def interaction_result(
    generics: dict[str, Any],
    pairs: list[dict[str, Any]],
    table: list[knowledge.Interaction],
    labels: dict[str, Any],
    label_error: SourceError | None,
) -> ToolResult:
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
        lines.append(
            f"({len(hits) - shown} more pair(s) with label mentions are in the full result.)"
        )
    quiet = [" + ".join(p["drugs"]) for p in pairs if not p["findings"]]
    if label_error:
        caution = N_("Only the offline interaction tables (ANSM thesaurus, ONC high-priority "
                     "list) were checked. Do not assume there is no interaction.")
        message = label_error.message("the FDA label interaction check", caution)
        if not hits:
            return ToolResult.failure(label_error.kind, message + " The offline tables list no "
                                      "interaction for " + ", ".join(quiet) + ".")
        said = label_error.said(N_("the FDA label interaction check"), caution)
        lines.append(say(said, answer_language()))
        failure = of_source_failure(message, said)
        if quiet:  # every pair asked is answered, with where nothing was found
            lines.append(
                say(
                    language_message(
                        N_(
                            "Nothing found for %(pairs)s in the offline interaction tables "
                            "(the FDA labels could not be checked)."
                        ),
                        pairs=", ".join(quiet),
                    ),
                    answer_language(),
                )
            )
    elif quiet:
        lines.append(_said(N_("No interaction found for %(pairs)s in the offline interaction "
                              "tables or the FDA labels' interaction, contraindication and "
                              "boxed-warning text. Absence of label text "
                              "is not proof that a combination is safe."), pairs=", ".join(quiet)))
    missing = [generics[g] for g, info in labels.items() if info is None]
    if missing:
        lines.append(
            _said(
                N_("No FDA label was found for %(drugs)s, so its label could not be checked."),
                drugs=", ".join(missing),
            )
        )
    lines.append(DISCLAIMER)
    sources = [
        Source(f"Interaction table: {src}", i.url_of(src))
        for i in table
        for src in i.sources or (i.source,)
    ]
    sources += [info.source for info in labels.values() if info]
    mentions = [
        of_pair(_PAIR_SEVERITY[f["severity"]], p["drugs"][0], p["drugs"][1], f["text"]).to_dict()
        for p in pairs
        for f in p["findings"]
        if _PAIR_SEVERITY.get(f.get("severity"))
    ]
    if label_error:
        mentions.append(failure.to_dict())
    return ToolResult(
        status="ok" if hits else "empty",
        text="\n".join(lines),
        count=len(hits),
        data={"pairs": pairs, "labels_checked": not label_error, "safety_findings": mentions},
        sources=sources,
    )
