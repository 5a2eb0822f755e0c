"""Drafts a clinician signs, composed by code from the typed chart (``ChartData``): a discharge
(or visit) summary, a progress note, an I-PASS handoff, a referral letter. Every line cites the
record it states, so the draft holds no fact the chart does not; what the chart lacks, what is
older than a year and what the clinician's words contradict are said with their dates.

    request_kind("draft a discharge summary") -> "discharge"
    compose(DraftRequest(kind="discharge", ...), chart, today) -> Draft;  draft.text()

Vocabularies (document types, request words in four languages, follow-up words, handoff
contingencies) are data: ``data/drafts.yaml``. Pure functions: no FHIR, no Flask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

from ...datafiles import safe_yaml
from ...knowledge import analytes
from ..chart.chartdata import ChartData, ChartSeries, num
from ..words import arguments

DATA = Path(__file__).parents[1] / "data" / "drafts.yaml"
Kind = Literal["discharge", "progress", "handoff", "referral"]
KINDS: tuple[Kind, ...] = ("discharge", "progress", "handoff", "referral")
STALE = timedelta(days=365)
KEY_RESULTS = 8


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, Any]:
    found: dict[str, Any] = safe_yaml(DATA.read_text(encoding="utf-8"))
    return found


def _low(text: str) -> str:
    return " ".join(analytes.fold(text).lower().split())


def says(text: str, words: list[str]) -> bool:
    """Whole words or phrases of ``words`` in ``text`` (case and accents folded)."""
    low = _low(text)
    return any(_whole(w).search(low) for w in words)


@cache
def _whole(word: str) -> re.Pattern[str]:
    """``word`` as a whole word or phrase, folded (compiled once: the vocabulary's words are
    read for every message)."""
    return re.compile(rf"(?<![a-z0-9]){re.escape(_low(word))}(?![a-z0-9])")


def says_all(text: str, words: list[str]) -> bool:
    """Every word of ``words`` in ``text`` (a name named in a request against the chart's); an
    initial ("Samuel O.") is said when a word of ``text`` begins with it."""
    initials = {w[0] for w in _low(text).split() if w}
    return all(
        says(text, [w]) or (len(w.strip(".")) == 1 and _low(w.strip("."))[:1] in initials)
        for w in words if w.strip(".").strip()
    )


def additions(message: str) -> tuple[str, ...]:
    """The sentence the clinician asks to put in the draft, as written ("add that he should
    avoid NSAIDs" -> "He should avoid NSAIDs."), or none."""
    words = sorted(vocabulary()["followup"]["add_text"], key=len, reverse=True)
    folded = analytes.fold(message).lower()
    for word in words:
        said = re.escape(analytes.fold(word).lower())
        if said.endswith("que"):  # "ajoute qu'il …": the elided "que"
            said = said[:-3] + r"(?:que\s+|qu['\u2019])"
        else:
            said += r"\s+"
        m = re.search(rf"(?<![a-z]){said}(?=\S)", folded)
        if m and len(folded) == len(message):  # folding kept the letters where they were
            text = message[m.end():].strip().rstrip(".!;,")
            return (text[:1].upper() + text[1:] + ".",) if len(text) > 2 else ()
    return ()


def not_given(sentence: str) -> bool:
    """A sentence that keeps a drug from her ("he should avoid NSAIDs", "pas d'AINS"): its drugs
    are not checked as given."""
    return says(sentence, vocabulary()["followup"]["not_given"])


# what follows the colon is a patient's name heading the request ("handover: Kofi", "discharge
# summary: Kofi Asante"), not dictated text: one to four capitalised words, nothing else
_NAME_ONLY = re.compile(r"(?:[A-ZÀ-Ý][\w'’-]+)(?:\s+[A-ZÀ-Ý][\w'’-]+){0,3}\.?")


def request_kind(message: str) -> Kind | None:
    """The document a message asks for; a letter only to a specialty, a progress note only
    drafted from the chart. A note whose text the clinician dictates ("progress note: stable,
    …") is theirs to save, not a draft; "what did the discharge summary say?" reads the chart."""
    head, colon, dictated = message.partition(":")
    text = dictated.strip()
    if (colon and len(text) >= 2 and not _NAME_ONLY.fullmatch(text)) or says(
            message, vocabulary()["reading_words"]):
        return None
    kinds = vocabulary()["kinds"]
    for kind in ("discharge", "progress", "handoff"):
        drafted = kind != "progress" or says(message, vocabulary()["draft_words"])
        named = says(message, kinds[kind]["words"]) or _for_recipient(message, kinds[kind])
        if named and drafted:
            return kind  # type: ignore[return-value]
    to_whom = says(message, vocabulary()["refer_words"]) or arguments.specialty(message) is not None
    if says(message, kinds["referral"]["words"]) and to_whom:
        return "referral"
    if to_whom and says(message, vocabulary()["draft_words"]) and says(
            message, vocabulary()["refer_words"]):
        return "referral"  # "draft a referral to renal": the referral with its letter
    if arguments.specialty(message) is not None and _written_referral().search(_low(message)):
        return "referral"  # "write a cardiology referral re his AF": the letter, written
    return None


def dictated_handover(message: str) -> bool:
    """A handover the clinician dictates: a few words naming it, a colon, then its own text
    ("handover for the night team: bed 7 Thompson, K 5.6, on amlodipine", "SBAR: …"). It is
    theirs to save as written, as "note: …" is; "handover pls" asks one drafted from the chart.
    A pasted block of several lines or a question after it ("Handover:\nBed 4 …\ncan you check
    bed 4's meds?") asks of the block, and is read so (``reading.handover``), never saved."""
    head, colon, text = message.partition(":")
    return (bool(colon) and 2 <= len(text.strip()) and "?" not in text and "\n" not in text.strip()
            and len(head.split()) <= 8 and not says(head, vocabulary()["reading_words"])
            and not _NAME_ONLY.fullmatch(text.strip())
            and says(head, vocabulary()["kinds"]["handoff"]["words"]))


@lru_cache(maxsize=1)
def _written_referral() -> re.Pattern[str]:
    """A verb of writing, an article, up to two words, then "referral": "write a cardiology
    referral", "type up a renal referral", "write him an ENT referral"; "refer to cardiology",
    "can you send a referral to cardiology", "write down the referral date" write no letter."""
    verbs = "|".join(re.escape(_low(w)) for w in sorted(vocabulary()["written_referral_verbs"],
                                                        key=len, reverse=True))
    return re.compile(rf"(?<![a-z])(?:{verbs})\s+(?:(?:him|her|them|me)\s+)?(?:a|an|the|his|her|"
                      rf"their)(?:\s+\S+){{0,2}}?\s+referral(?![a-z])")


def _for_recipient(message: str, kind: dict[str, Any]) -> bool:
    """A summary word with the kind's recipient after it: the on-call doctor for the handover
    ("synthèse pour le médecin de garde", "resumen para el residente de guardia"), the family
    doctor for the discharge letter ("summarise his diabetes mx for his GP"), however named."""
    said = [kind.get(k) or () for k in ("summaries", "for_whom", "recipients")]
    if not all(said):
        return False
    summaries, for_whom, whom = ("|".join(re.escape(_low(w)) for w in words) for words in said)
    between = int(kind.get("between", 2))
    # the summary word, its recipient introduced within a few words, the recipient after
    return re.search(rf"(?<![a-z])(?:{summaries})(?![a-z])(?:\s+\S+){{0,{between}}}?\s+"
                     rf"(?:{for_whom})\s+(?:\S+\s+){{0,4}}?(?:{whom})(?![a-z])",
                     _low(message)) is not None


def document_type(kind: Kind) -> dict[str, str]:
    entry = vocabulary()["kinds"][kind]
    return {"system": "http://loinc.org", "code": str(entry["loinc"]), "display": entry["display"]}


def named_analytes(message: str) -> list[str]:
    """Analytes the message names ("the eGFR trend", "add the potassium")."""
    low = _low(message)
    found = [
        a.name
        for a in analytes.table().values()
        if any(_whole(w).search(low) for w in a.words)
    ]
    shorts = vocabulary()["short_forms"]
    found += [
        shorts[w]
        for w in re.findall(r"(?<![a-z0-9])([a-z][a-z0-9+]?)(?![a-z0-9+])", low)
        if w in shorts and shorts[w] not in found
    ]
    return found


@dataclass(frozen=True)
class Stated:
    """A value the clinician states in the request ("K is 3.1")."""

    analyte: str
    value: float


def stated_values(message: str) -> list[Stated]:
    """Analyte–value pairs of the request: an analyte's word, a verb or sign, a number."""
    out = []
    low = _low(message)
    for m in re.finditer(r"(\d+(?:[.,]\d+)?)", low):
        before = re.sub(
            r"\s*(is|was|of|at|=|:|now|today|de|est|e|es)\s*$",
            "",
            low[max(0, m.start() - 24) : m.start()],
        )
        names = named_analytes(before.split(" - ")[-1][-14:]) if before else []
        if names and not re.search(r"\d{4}-\d{2}$", before):
            out.append(Stated(names[-1], float(m.group(1).replace(",", "."))))
    return out


@dataclass(frozen=True)
class DraftRequest:
    kind: Kind
    request: str  # the clinician's words
    specialty: str | None = None
    priority: str | None = None
    reason: str | None = None
    include: tuple[str, ...] = ()  # analytes asked for (their whole series)
    brief: bool = False  # a shorter draft ("shorter pls"): each section's first lines
    additions: tuple[str, ...] = ()  # the clinician's own sentences ("add that he …")


@dataclass(frozen=True)
class Line:
    text: str
    cite: tuple[str, ...] = ()

    def render(self) -> str:
        refs = "".join(f" [{r}]" for r in self.cite if r)
        return f"- {self.text}{refs}"


@dataclass(frozen=True)
class Section:
    title: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Draft:
    kind: Kind
    title: str
    header: Line
    sections: tuple[Section, ...]
    notices: tuple[str, ...] = ()  # what the answer says beside the card: missing, stale, conflicts
    reason: str = ""  # a referral's reason, for its ServiceRequest

    def text(self) -> str:
        parts = [self.title, self.header.render()[2:], ""]
        for s in self.sections:
            parts += [s.title.upper(), *[line.render() for line in s.lines], ""]
        return "\n".join(parts).strip() + "\n"


@dataclass
class _Facts:
    """What every document states, computed once."""

    chart: ChartData
    today: date
    stale: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def _age(day: str, today: date) -> timedelta | None:
    try:
        return today - date.fromisoformat(day[:10])
    except ValueError:
        return None


def _analyte(series: ChartSeries) -> str:
    a = analytes.of_code(series.code)
    return a.name if a and not a.vital else series.name  # a vital sign keeps the chart's name


def unit(ucum: str) -> str:
    """A UCUM unit as a reader writes it: "mL/min/{1.73_m2}" -> "mL/min/1.73 m2", "{INR}" -> "",
    "mm[Hg]" -> "mmHg"."""
    shown = re.sub(
        r"\{([^}]*)\}",
        lambda m: "" if m.group(1).isalpha() else m.group(1).replace("_", " "),
        ucum or "",
    )
    return shown.replace("[", "").replace("]", "").strip()


def _value(s: ChartSeries, value: float) -> str:
    return f"{num(value)} {unit(s.unit)}".strip()


def _series_line(s: ChartSeries, facts: _Facts, whole: bool = False) -> Line:
    latest = f"{s.label()} {_value(s, s.latest.value)} on {s.latest.date[:10]}"
    age = _age(s.latest.date, facts.today)
    old = age is not None and age > STALE
    if old:
        facts.stale.append(f"{s.label()} (last {s.latest.date[:10]})")
    text = latest + (" — older than a year, not current" if old else "")
    points = s.series if whole else s.series[-4:]
    if len(points) > 1:
        text += "; trend " + " → ".join(f"{num(p.value)} ({p.date[:10]})" for p in points)
    return Line(text, tuple(dict.fromkeys(p.ref for p in points)))


def _results(facts: _Facts, include: tuple[str, ...]) -> list[Line]:
    order = {name: i for i, name in enumerate(analytes.table())}  # the table's clinical order first
    labs = sorted(facts.chart.labs, key=lambda s: order.get(_analyte(s), len(order)))
    wanted = [s for s in labs if _analyte(s) in include]
    others = [s for s in labs if s not in wanted][:KEY_RESULTS]
    lines = [_series_line(s, facts, whole=True) for s in wanted]
    for name in include:
        if not any(_analyte(s) == name for s in labs):
            codes = (
                ", ".join(analytes.analyte(name).codes) if name in analytes.table() else "its codes"
            )
            lines.append(
                Line(
                    f"No {name} on file: every {name} code ({codes}) was searched in the "
                    f"{len(labs)} result series on the chart"
                )
            )
            facts.notices.append(f"No {name} on file (every code searched).")
    lines += [_series_line(s, facts) for s in others]
    lines += [_series_line(s, facts) for s in facts.chart.vitals[:4]]
    return lines or [Line("No results recorded")]


def _conflicts(facts: _Facts, request: str) -> list[Line]:
    out = []
    for said in stated_values(request):
        series = [s for s in facts.chart.labs if _analyte(s) == said.analyte]
        if not series:
            out.append(
                Line(
                    f"{said.analyte} {num(said.value)} as stated by the clinician: not on the chart"
                )
            )
            facts.notices.append(
                f"You stated {said.analyte} {num(said.value)}; it is not on the chart, "
                "so the draft does not use it."
            )
            continue
        s = series[0]
        if abs(s.latest.value - said.value) > 1e-9:
            line = (
                f"Stated {said.analyte} {num(said.value)} differs from the chart's latest "
                f"{_value(s, s.latest.value)} on {s.latest.date[:10]}; the draft uses the chart's "
                "value until a new result is recorded"
            )
            out.append(Line(line, (s.latest.ref,)))
            facts.notices.append(line + ".")
    return out


def _problems(chart: ChartData) -> list[Line]:
    ranked = sorted(chart.problems, key=lambda p: (p.kind != "disorder", p.kind != "finding"))
    lines = [
        Line(f"{p.text}" + (f" (since {p.onset[:10]})" if p.onset else ""), (p.ref,))
        for p in ranked[:10]
    ]
    return lines or [Line("No active problems recorded (none on file)")]


def _medications(chart: ChartData) -> list[Line]:
    lines = [
        Line(
            f"{m.text}"
            + (f", {m.dosage}" if m.dosage else "")
            + (f" — ordered {m.authored[:10]}" if m.authored else ""),
            (m.ref,),
        )
        for m in chart.medications
    ]
    return lines or [Line("None recorded: no active medications on file")]


def _allergies(chart: ChartData) -> list[Line]:
    lines = [
        Line(
            f"{a.substance}"
            + (f": {a.reaction}" if a.reaction else "")
            + (f" ({a.criticality} criticality)" if a.criticality else ""),
            (a.ref,),
        )
        for a in chart.allergies
    ]
    return lines or [
        Line("No allergies recorded (none on file; not confirmed as no known allergies)")
    ]


def _plan(facts: _Facts) -> list[Line]:
    lines = [
        Line(f"Repeat {s}: the last result is older than a year")
        for s in dict.fromkeys(facts.stale)
    ]
    for s in facts.chart.labs[:KEY_RESULTS]:
        if s.direction in ("↑", "↓") and len(s.series) > 2:
            word = "rising" if s.direction == "↑" else "falling"
            lines.append(
                Line(
                    f"Recheck {s.label()} ({word}: {num(s.series[0].value)} → "
                    f"{_value(s, s.latest.value)} by {s.latest.date[:10]})",
                    (s.latest.ref,),
                )
            )
    last = facts.chart.encounters[0] if facts.chart.encounters else None
    if last:
        lines.append(Line(f"Last encounter {last.date[:10]}", (last.ref,)))
    lines.append(
        Line(
            "Follow-up appointment: none booked on the chart; date to be set by the signing "
            "clinician"
        )
    )
    return lines


def _patient_line(chart: ChartData, kind: Kind, today: date) -> Line:
    p = chart.patient
    who = ", ".join(
        x
        for x in (
            p.name,
            p.gender,
            f"born {p.birth_date}" if p.birth_date else "",
            f"MRN {p.mrn}" if p.mrn else "",
        )
        if x
    )
    return Line(
        f"{who}. Drafted {today.isoformat()} from the chart for the clinician's review and "
        "signature; every line cites its record",
        (f"Patient/{p.id}",) if p.id else (),
    )


def _contingencies(facts: _Facts) -> tuple[list[Line], list[Line], bool]:
    """Situation awareness lines, the action list and whether the patient is a watcher."""
    table = vocabulary()["contingencies"]
    aware, actions, watcher = [], [], False
    for s in facts.chart.labs:
        rule = table.get(_analyte(s))
        if not rule:
            continue
        high = "watcher" in rule and s.latest.value > rule["watcher"]
        low = "below" in rule and s.latest.value < rule["below"]
        aware.append(
            Line(
                f"{rule['if']} (latest {s.label()} {_value(s, s.latest.value)} on "
                f"{s.latest.date[:10]})",
                (s.latest.ref,),
            )
        )
        if high or low:
            watcher = True
            actions.append(
                Line(
                    f"Review {s.label()} {_value(s, s.latest.value)} "
                    f"({s.latest.date[:10]}) — owner: receiving team, tonight",
                    (s.latest.ref,),
                )
            )
    return aware, actions, watcher


def _handoff(facts: _Facts, req: DraftRequest) -> tuple[Section, ...]:
    aware, actions, watcher = _contingencies(facts)
    severity = (
        "Watcher: a result above its contingency threshold"
        if watcher
        else "Stable: no result above a contingency threshold on the chart"
    )
    summary = _problems(facts.chart)[:5] + _medications(facts.chart) + _allergies(facts.chart)
    return (
        Section("Illness severity", (Line(severity),)),
        Section("Patient summary", tuple(summary + _results(facts, req.include)[:6])),
        Section(
            "Action list",
            tuple(
                actions + _plan(facts)[:-1] or [Line("No outstanding task recorded on the chart")]
            ),
        ),
        Section(
            "Situation awareness and contingencies",
            tuple(
                aware
                or [
                    Line(
                        "No contingency rule covers this chart's results; "
                        "call the senior with any concern"
                    )
                ]
            ),
        ),
        Section(
            "Synthesis by receiver",
            (
                Line(
                    "Receiver restates the summary and the action list, "
                    "and asks any question before taking over"
                ),
            ),
        ),
    )


def _referral(facts: _Facts, req: DraftRequest) -> tuple[Section, ...]:
    question = req.reason or "assessment and advice"
    urgency = req.priority or "routine"
    return (
        Section(
            "Referral",
            (
                Line(f"To: {req.specialty or 'the specialty'}; urgency: {urgency}"),
                Line(f"Question for the specialist: {question}"),
            ),
        ),
        Section("Relevant history", tuple(_problems(facts.chart))),
        Section("Results", tuple(_results(facts, req.include))),
        Section("Medications", tuple(_medications(facts.chart))),
        Section("Allergies", tuple(_allergies(facts.chart))),
    )


def _summary(facts: _Facts, req: DraftRequest) -> tuple[Section, ...]:
    plan = "Plan and follow-up"
    return (
        Section("Problems", tuple(_problems(facts.chart))),
        Section("Medications (what changed and when)", tuple(_medications(facts.chart))),
        Section("Key results", tuple(_results(facts, req.include))),
        Section("Allergies", tuple(_allergies(facts.chart))),
        Section(plan, tuple(_plan(facts))),
    )


def referral_reason(chart: ChartData, req: DraftRequest) -> str:
    """The referral's reason: the clinician's, else the top problem and the asked-for trend."""
    if req.reason:
        return req.reason
    parts = [chart.problems[0].text] if chart.problems else []
    for s in chart.labs:
        if _analyte(s) in req.include and len(s.series) > 1:
            parts.append(
                f"{s.label()} {num(s.series[0].value)} → {_value(s, s.latest.value)} "
                f"({s.series[0].date[:10]} → {s.latest.date[:10]})"
            )
    return "; ".join(parts) or "see the letter"


# what a shorter draft keeps whole: what the next prescriber must not miss
_KEPT_WHOLE = ("Medication", "Allergies", "Patient summary", "Checked against the chart")
BRIEF_LINES = 3


def _shortened(section: Section) -> Section:
    """A section of a shorter draft: its first lines, the medications and allergies whole."""
    if section.title.startswith(_KEPT_WHOLE):
        return section
    return Section(section.title, section.lines[:BRIEF_LINES])


def problem_line(chart: ChartData) -> str:
    """The draft's problems in one line, said beside the card ("Problems on the draft: Otitis
    media (since 2026-11-19)"): what the letter is about, seen before it is signed."""
    return "Problems on the draft: " + "; ".join(line.text for line in _problems(chart)[:5])


def medication_line(chart: ChartData) -> str:
    """The draft's medications in one line, said beside the card as its allergies are: a
    document lists them for the next prescriber, so the answer shows the list the review's
    flags are about ("Medications on the draft: amlodipine 5 MG Oral Tablet, 5 mg once a day")."""
    return "Medications on the draft: " + "; ".join(line.text for line in _medications(chart))


def allergy_line(chart: ChartData) -> str:
    """The draft's allergies in one line, said beside the card ("Allergies on the draft:
    Penicillin: Anaphylaxis (high criticality)")."""
    return "Allergies on the draft: " + "; ".join(line.text for line in _allergies(chart))


def results_line(chart: ChartData) -> str:
    """The draft's latest results in one line, said beside the card with their dates ("Results
    on the draft: INR 3.4 on 2026-10-05; eGFR 38 mL/min/1.73 m2 on 2026-11-10"): the table's
    clinical order first, as the draft's own results section; "none on file" only when the
    chart's results were read, and "not read" (with why) when they were not."""
    if "labs" in chart.unavailable:
        return f"Results on the draft: not read ({chart.unavailable['labs']})"
    order = {name: i for i, name in enumerate(analytes.table())}
    labs = sorted(chart.labs, key=lambda s: order.get(_analyte(s), len(order)))[:KEY_RESULTS]
    said = [f"{_analyte(s)} {_value(s, s.latest.value)} on {s.latest.date[:10]}" for s in labs]
    return "Results on the draft: " + ("; ".join(said) if said else "none on file")


def compose(req: DraftRequest, chart: ChartData, today: date,
            review: tuple[str, ...] = ()) -> Draft:
    """The document ``req`` asks for, from ``chart`` alone; ``review``: the whole-list review of
    her medications (its heading, then one line a finding), its first section after the
    request's own checks."""
    facts = _Facts(chart, today)
    checks = _conflicts(facts, req.request)
    reason = referral_reason(chart, req) if req.kind == "referral" else ""
    if req.kind == "referral":
        req = replace(req, reason=reason)
    body = {"handoff": _handoff, "referral": _referral}.get(req.kind, _summary)(facts, req)
    if req.brief:
        body = tuple(_shortened(s) for s in body)
    if review:
        body = (Section(review[0].rstrip(":"), tuple(Line(x) for x in review[1:])), *body)
    if req.additions:  # the clinician's words, kept apart from what the chart states
        said = tuple(Line(a) for a in req.additions)
        body = (*body, Section("Added by the clinician", said))
    if checks:
        body = (Section("Checked against the chart", tuple(checks)), *body)
    if facts.stale:
        facts.notices.append(
            "Older than a year, not current: " + "; ".join(dict.fromkeys(facts.stale)) + "."
        )
    title = document_type(req.kind)["display"] + (f" — {req.specialty}" if req.specialty else "")
    return Draft(
        req.kind,
        title,
        _patient_line(chart, req.kind, today),
        body,
        tuple(dict.fromkeys(facts.notices)),
        reason,
    )
