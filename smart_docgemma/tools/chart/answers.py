"""Chart questions answered by code: "last potassium?", "active meds", "eGFR trend",
"BP today", "allergies?", "problem list", "interactions in her current meds", "last HbA1c",
"immunisations", "recent admissions", "summarise this patient".

``focus_of(message)`` names the question (patterns in ``data/chart_questions.yaml``);
``sections_for(focus)`` is the FHIR reading it needs — a lab question reads the Patient and one
Observation search for its LOINC codes, newest first (two requests whatever the chart's size);
``answer(focus, data)`` writes the answer with value, unit and date from the chart. The same
text is the degraded-mode answer and the tool result the model reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from functools import lru_cache
from itertools import combinations
from typing import Any

from rapidfuzz.distance import OSA

from ... import knowledge
from ...datafiles import safe_yaml
from ...knowledge import analytes, quantities
from ...languages import N_, answer_language, day, fold, lab_name
from ..words.windows import Asked, bounds
from . import labs, procedures, ranges, records, summary, windowanswers
from .chartdata import ChartData, ChartMed, ChartPatient, ChartSeries
from .labanswers import LAB_POINTS, lab_answer, latest_answer
from .labanswers import age_said as _age_of
from .labanswers import day_said as _day
from .labanswers import lab_said as _name
from .labanswers import sentence as _say
from .records import DATA, SORT_NEWEST

LABS_HERE = "lab:*"  # where the analyte table's foci sit among chart_questions.yaml's
PROCEDURES_HERE = "procedure:*"  # and the procedures' (tools/data/procedures.yaml)

LOINC = "http://loinc.org"
ENCOUNTER_WINDOW = 50
# her past problems (focus "history"): every condition no longer active, one page
# the newest admissions and emergency visits by class (tools/data/chart_terms.yaml
# admission_classes): "last ED visit?" of a chart whose last one is older than ENCOUNTER_WINDOW
ADMISSIONS = ("Encounter", {"class": "IMP,ACUTE,NONAC,EMER,OBSENC", "_sort": SORT_NEWEST,
                            "_count": 10})
PAST_CONDITIONS = ("Condition", {"clinical-status": "resolved,inactive,remission", "_count": 200})


@lru_cache(maxsize=1)
def _patterns() -> dict[str, list[re.Pattern[str]]]:
    raw = safe_yaml((DATA / "chart_questions.yaml").read_text())["focus"]
    words = sorted(_medication_words().words, key=len, reverse=True)
    meds = "(?:medication list|" + "|".join(map(re.escape, words)) + ")"
    return {
        focus: [re.compile(p.replace("{meds}", meds)) for p in pats]
        for focus, pats in raw.items()
        if focus not in (LABS_HERE, PROCEDURES_HERE)
    }


@lru_cache(maxsize=1)
def foci() -> list[str]:
    """Every focus in the order questions are matched: ``chart_questions.yaml``'s, with one
    ``lab:<analyte>`` per analyte of the analyte table where the file says ``lab:*``."""
    raw = [f for f in _order() if "#" not in f]  # "review#relief" is the review, listed once
    at = raw.index(LABS_HERE)
    found = raw[:at] + [a.focus for a in analytes.table().values()] + raw[at + 1:]
    at = found.index(PROCEDURES_HERE)
    return found[:at] + procedures.foci() + found[at + 1:]


def chart_focus(message: str) -> str | None:
    """The first focus whose pattern matches the lowercased message ("summary" included); a
    lab focus, at the analytes' place in the order, when the message names an analyte (its
    words in the analyte table); None when the message asks no chart question."""
    # "Dernière kaliémie ?" typed with or without accents; "medicaton" read as "medication"
    low = _medication_spelling(fold(message or "").lower())
    for focus in _order():
        if focus.startswith("vitals") and (series := _vital_series(low)):
            return series  # "max temp last 24h?": the temperatures in the window, not the vitals
        if focus == LABS_HERE:
            found = analytes.named_in(low)
            if found:
                return found.focus
        elif focus == PROCEDURES_HERE:
            named = procedures.named_in(low)
            if named:
                return named
        elif any(p.search(low) for p in _patterns()[focus]):
            if focus == "encounters" and _asks_medications(low):
                return "medications"  # "discharge meds - anything to flag?": her list, reviewed
            return focus.split("#")[0]  # "review#relief" answers as the review
        elif focus == "medications" and names_medications(low):
            return focus
    return None


_WITH_OTHER_SIGNS = re.compile(r"\b(?:vitals|obs|bps?|weights?|wt|heights?|bmi|constantes|"
                               r"sinais vitais|signos vitales|ta|pa)\b")


def _vital_series(low: str) -> str | None:
    """The one vital sign asked as a series (a window, a statistic or a threshold: the analyte
    table's vital entries), as its ``lab:`` focus; with another sign named ("temp and pulse in
    the last 24h", "obs overnight") the vital signs together."""
    signs = analytes.vitals_named_in(low)
    if len(signs) != 1 or _WITH_OTHER_SIGNS.search(low):
        return None
    return signs[0].focus


@dataclass(frozen=True)
class _MedicationWords:
    words: frozenset[str]
    near: frozenset[str]


@lru_cache(maxsize=1)
def _medication_words() -> _MedicationWords:
    raw = safe_yaml((DATA / "chart_questions.yaml").read_text())
    words = frozenset(w for per_language in raw["medication_words"].values() for w in per_language)
    return _MedicationWords(words=words, near=frozenset(raw["near_words"]))


def _asks_medications(low: str) -> bool:
    """Whether the folded message also asks her list (a word of it, or a medications pattern):
    "discharge meds", "meds before discharge", "discharge med rec" ask the list, not the stay."""
    return names_medications(low) or any(p.search(low) for p in _patterns()["medications"])


def names_medications(message: str) -> bool:
    """Whether the message names the medication list in one word of ``medication_words``
    (any language, accents ignored) or with one slip in a long one (``_meant``)."""
    words = _medication_words().words
    low = fold(message or "").lower()
    return any(t in words or _meant(t) for t in re.findall(r"[a-z]+", low))


def _medication_spelling(low: str) -> str:
    """The folded message with each slip of a medication word written as that word, and a chart
    phrase's second word typed with two letters swapped written right ("problem lsit")."""
    low = re.sub(r"[a-z]+", lambda m: _meant(m.group()) or m.group(), low)
    for word, firsts in _phrase_slips().items():

        def right(m: re.Match[str], word: str = word) -> str:
            return f"{m.group(1)} {word}" if _swapped(m.group(2), word) else m.group(0)

        low = re.sub(rf"\b({'|'.join(map(re.escape, firsts))})\s+([a-z]{{{len(word)}}})\b",
                     right, low)
    return low


@lru_cache(maxsize=1)
def _phrase_slips() -> dict[str, list[str]]:
    raw = safe_yaml((DATA / "chart_questions.yaml").read_text())
    return {str(k): [str(w) for w in v] for k, v in raw["phrase_slips"].items()}


def _swapped(token: str, word: str) -> bool:
    """``token`` is ``word`` with two neighbouring letters swapped ("lsit" of "list")."""
    return token != word and any(
        token == word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1))


@lru_cache(maxsize=4096)
def _meant(token: str) -> str | None:
    """The medication word a token of at least 6 letters, not itself one nor a near word, is
    one edit from (a listed word of at least 7 letters beginning with the same letter)."""
    vocab = _medication_words()
    if len(token) < 6 or token in vocab.words or token in vocab.near:
        return None
    return next((w for w in sorted(vocab.words) if len(w) >= 7 and w[0] == token[0]
                 and OSA.distance(token, w, score_cutoff=1) <= 1), None)


@lru_cache(maxsize=1)
def _order() -> list[str]:
    return list(safe_yaml((DATA / "chart_questions.yaml").read_text())["focus"])


def focus_of(message: str) -> str | None:
    """The focus of a chart question; None for the whole chart."""
    found = chart_focus(message)
    return None if found == "summary" else found


# the vital signs asked alone, each its own series (chart_terms.yaml ``vitals``)
_MEASURES = {"vitals:weight": "Weight", "vitals:height": "Height"}


def _codes(focus: str) -> list[str]:
    t = records.terms()
    if focus in _MEASURES:
        return list(t["vitals"][_MEASURES[focus]])
    return [t["blood_pressure_panel"], *t["vitals"]["Systolic BP"], *t["vitals"]["Diastolic BP"]]


def sections_for_tests(names: list[str]) -> dict[str, Any]:
    """The one Observation search for several results asked at once: every code of each, newest
    first, enough of them that each analyte's latest is read (a result missing from it would be
    said "not in the chart")."""
    codes = ",".join(f"{LOINC}|{c}" for n in names
                     for c in analytes.codes_with_family(analytes.analyte(n)))
    return {"observations": ("Observation", {"code": codes, "_sort": SORT_NEWEST,
                                             "_count": labs.WINDOW * max(len(names), 1)})}


def sections_for(focus: str | None, base: dict[str, Any]) -> dict[str, Any]:
    """The searches a focus needs, from the full chart's ``base`` sections."""
    if focus is None or focus == "summary":
        return base
    if focus.startswith("lab:"):
        return {"observations": labs.search(analytes.analyte(focus.partition(":")[2]))}
    if focus.startswith(procedures.PREFIX):
        return dict(procedures.SECTIONS)
    if focus.startswith("vitals:"):
        codes = ",".join(f"{LOINC}|{c}" for c in _codes(focus))
        return {
            "observations": (
                "Observation",
                {"code": codes, "_sort": SORT_NEWEST, "_count": labs.WINDOW},
            )
        }
    picks = {
        "age": {},  # the Patient alone
        "identifiers": {},
        "medications": {"medications": base["medications"]},
        "reason": {"medications": base["medications"], "conditions": base["conditions"]},
        "interactions": {"medications": base["medications"]},
        "nephrotoxic": {"medications": base["medications"]},
        "review": {"medications": base["medications"]},
        "allergies": {"allergies": base["allergies"]},
        "problems": {"conditions": base["conditions"]},
        "history": {"conditions": base["conditions"], "past_conditions": PAST_CONDITIONS},
        "immunizations": {"immunizations": base["immunizations"]},
        "notes": {"notes": base["notes"]},
        "encounters": {
            "encounters": ("Encounter", {"_sort": SORT_NEWEST, "_count": ENCOUNTER_WINDOW}),
            "admissions": ADMISSIONS,
        },
        "labs": {
            "observations": (
                "Observation",
                {"category": "laboratory", "_sort": SORT_NEWEST, "_count": 100},
            )
        },
        "vitals": {
            "observations": (
                "Observation",
                {"category": "vital-signs", "_sort": SORT_NEWEST, "_count": 60},
            )
        },
    }
    return picks.get(focus, base)


# ------------------------------------------------------------------ answers
def answer(
    focus: str | None,
    d: ChartData,
    today: date | None = None,
    *,
    asked: Asked | None = None,
    observations: list[dict[str, Any]] | None = None,
    now: datetime | None = None,
    tz: tzinfo = UTC,
    total: int | None = None,
) -> str:
    """The answer text for ``focus`` from ``chart.chart_data``; the whole summary without one.
    A lab question with a window (``asked``) reads the raw ``observations`` for their times;
    ``total``: how many results the lab has in all, when the server counted them."""
    if focus is None or focus == "summary":
        return summary.chart_text(d)
    head = summary.patient_line(d.patient)
    if focus.startswith("lab:"):
        return head + "\n" + lab_answer(focus, d, asked, observations, now, tz, total)
    if focus == "vitals:bp" and asked and asked.window and observations is not None:
        return head + "\n" + _bp_window(d, asked, observations, now, tz)
    key = "vitals" if focus.startswith("vitals") else focus
    render = {
        "vitals": _vitals,
        "labs": _labs,
        "medications": _medications,
        "reason": _reasons,
        "interactions": _interactions,
        "nephrotoxic": _nephrotoxic,
        "allergies": _allergies,
        "problems": _problems,
        "history": _history,
        "pregnancy": _pregnancy,
        "immunizations": _immunizations,
        "encounters": _encounters,
        "notes": _notes,
        "age": _age,
        "identifiers": _identifiers,
    }[key]
    said = head + "\n" + render(focus, d, today or date.today())
    if key == "vitals" and asked is not None and asked.judge:  # "weight? is that normal?"
        said += "\n" + ranges.no_range(_say(N_("these vital signs")))
    return said



def several(names: list[str], d: ChartData, today: date | None = None, *,
            judge: bool = False) -> str:
    """Several results asked in one read ("K, Na, creat", "u&e + lfts?"): each one's latest
    result, or that none is on file (searched by its codes), one line each; with ``judge``, each
    placed against its range too."""
    head = summary.patient_line(d.patient)
    missing = _unavailable(d, "observations", N_("Labs"))
    if missing:
        return head + "\n" + missing
    lines = []
    for name in names:
        a = analytes.analyte(name)
        said = latest_answer(a, d, today or date.today()).split("\n")
        # the latest line (and the one naming another specimen's result when it leads)
        lines.append("- " + " ".join(said[:2] if said[0].startswith("No ") and len(said) > 1
                                     else said[:1]))
        placed = ranges.judged(a, d) if judge else ""
        if placed:
            lines.append("  " + placed)
    return head + "\n" + _say(N_("Results asked (%(n)s):"), n=len(names)) + "\n" + "\n".join(lines)


def several_in_window(names: list[str], d: ChartData, asked: Asked,
                      observations: list[dict[str, Any]] | None, tz: tzinfo = UTC,
                      now: datetime | None = None) -> str:
    """Several results asked over one window ("la créatinine et le potassium des 3 derniers
    jours", "K and creat over the last 48h"): each one's window answer, as one of them asked
    alone would have it, never their latest results outside the window."""
    head = summary.patient_line(d.patient)
    parts = [lab_answer(analytes.analyte(name).focus, d, asked, observations, now, tz)
             for name in names]
    return head + "\n" + "\n".join(parts)


def _unavailable(d: ChartData, key: str, what: str) -> str | None:
    why = d.unavailable.get(key)
    if not why:
        return None
    named = _name(None, what)  # a lab's name, else a heading of this module
    return _say(N_("%(what)s: NOT AVAILABLE (%(why)s) — do not assume there are none."),
                what=named if named != what else _say(what), why=why)


def _bp_window(d: ChartData, asked: Asked, observations: list[dict[str, Any]],
               now: datetime | None, tz: tzinfo) -> str:
    """Blood pressures of a window: a read that failed is said, never "none recorded"."""
    missing = _unavailable(d, "observations", N_("Vital signs"))
    if missing:
        return missing
    assert asked.window is not None
    w = bounds(asked.window, now or datetime.now(UTC), tz)
    return windowanswers.bp_window_answer(observations, asked, w, tz)


def _vitals(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "observations", N_("Vital signs"))
    if missing:
        return missing
    if focus == "vitals":
        heading, lines = summary.series_section(d, "vitals")
        return (
            _say(heading)
            + "\n"
            + ("\n".join(lines[: summary.LIMITS["vitals"]]) or _say(N_("- none recorded")))
        )
    by = {e.name: e for e in d.vitals}
    if focus in _MEASURES:
        return _measure(by.get(_MEASURES[focus]), _MEASURES[focus], d.patient, today)
    sys_, dia = by.get("Systolic BP"), by.get("Diastolic BP")
    if not sys_:
        return _say(N_("No blood pressure recorded in the chart."))
    when = sys_.latest.date
    value = (
        f"{records.num(sys_.latest.value)}/{records.num(dia.latest.value)}"
        if dia
        else records.num(sys_.latest.value)
    )
    note = "" if when == today.isoformat() else _say(N_(" — no reading recorded today"))
    earlier = ", ".join(
        f"{records.num(p.value)} ({_day(p.date)})" for p in list(reversed(sys_.series))[1:4]
    )
    return _say(N_("Latest blood pressure: %(value)s %(unit)s on %(date)s%(note)s."), value=value,
                unit=sys_.unit, date=day(when), note=note) + (
        "\n" + _say(N_("Earlier systolic: %(values)s."), values=earlier) if earlier else ""
    )


def _measure(e: ChartSeries | None, name: str, patient: ChartPatient, today: date) -> str:
    """Her weight or height: the latest with its unit and date against the one before, the
    last five with their units (a child's growth read at a glance), how old the latest is, and
    for a child's weight one older than a weight-based dose allows."""
    if e is None:
        codes = ", ".join(records.terms()["vitals"][name])
        return _say(N_("No %(name)s result in the chart (searched LOINC %(codes)s, all dates)."),
                    name=lab_name(name, answer_language(), None), codes=codes)
    points = list(reversed(e.series))[:LAB_POINTS]
    value = dict(name=e.label(), value=records.num(e.latest.value), unit=e.unit,
                 date=day(e.latest.date))
    lines = [_say(N_("Latest %(name)s: %(value)s %(unit)s on %(date)s (the only result)."),
                  **value)]
    if len(points) > 1:
        lines = [_say(N_("Latest %(name)s: %(value)s %(unit)s on %(date)s "
                         "(%(direction)s from %(before)s on %(then)s)."),
                      direction=e.direction, before=f"{records.num(points[1].value)} {e.unit}",
                      then=day(points[1].date), **value)]
        trend = ", ".join(f"{records.num(p.value)} {e.unit} ({_day(p.date)})" for p in points)
        lines.append(_say(N_("Last %(n)s results, newest first: %(trend)s (%(total)s)."),
                          n=len(points), trend=trend, total=_say(N_("%(n)s in all"), n=e.count)))
    lines += [line for line in (_age_of(e.latest.date, today),
                                _too_old_to_dose(name, e.latest.date, patient, today)) if line]
    return "\n".join(lines)


def _too_old_to_dose(name: str, taken: str, patient: ChartPatient, today: date) -> str:
    """A child's weight older than a weight-based dose allows (knowledge ``child_weight``)."""
    try:
        born, on = date.fromisoformat(patient.birth_date[:10]), date.fromisoformat(taken[:10])
    except ValueError:
        return ""
    if name != "Weight" or (patient.age is not None and patient.age >= 18):
        return ""
    allowed = quantities.max_age_days("child_weight", (today - born).days)
    if (today - on).days <= allowed:
        return ""
    return _say(N_("A child's weight-based dose needs a weight at most %(days)s days old: "
                   "this one is %(old)s days old."), days=allowed, old=(today - on).days)


def _labs(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "observations", N_("Labs"))
    if missing:
        return missing
    heading, lines = summary.series_section(d, "labs")
    return _say(heading) + "\n" + ("\n".join(lines[:12]) or _say(N_("- none recorded")))


def _medications(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "medications", N_("Active medications"))
    if missing:
        return missing
    meds = d.medications
    if not meds:
        return "Active medications: none recorded (no active medication order in the chart)."
    return f"Active medications ({len(meds)}):\n" + "\n".join(
        summary.medication_line(m) for m in meds
    )


def _reasons(focus: str, d: ChartData, today: date) -> str:
    """"why is he on warfarin?": each active order with the reason it states (a reference to a
    problem named by that problem), then the problem list; an order stating none is said so,
    never guessed from the problems."""
    missing = _unavailable(d, "medications", N_("Active medications"))
    if missing:
        return missing
    problems = {p.ref: p.text for p in (*d.problems, *d.social)}
    lines = [_say(N_("Why each active medication was ordered, as its order states it:"))]
    for m in d.medications:
        said = [problems.get(r, r) for r in m.reasons]
        lines.append(f"- {m.text}: " + ("; ".join(said) if said else _say(
            N_("no reason on the order"))))
    if not d.medications:
        lines.append(_say(N_("- none recorded")))
    return "\n".join(lines) + "\n" + _problems(focus, d, today)


def _nephrotoxic(focus: str, d: ChartData, today: date) -> str:
    """Her active medicines the nephrotoxic table lists, each with why and its source; when none
    is, the medicines checked and what the table covers (a drug it lacks is not cleared)."""
    missing = _unavailable(d, "medications", N_("Active medications"))
    if missing:
        return missing
    names = list(dict.fromkeys(_generic(m) for m in d.medications))
    listed, source = knowledge.nephrotoxic_table()
    found = [f for f in (knowledge.nephrotoxic(n) for n in names) if f]
    head = f"Nephrotoxic medicines ({source}; the table lists {listed})"
    if not names:
        return f"{head}: no active medication on the chart."
    if not found:
        return (f"{head}: none of the {len(names)} active medicine(s) checked ({', '.join(names)}) "
                "is in the table. A drug the table does not list is not covered by it, not "
                "shown to be safe for the kidneys.")
    lines = [f"- {f.drug}: {f.why} ({f.source})" for f in found]
    rest = [n for n in names if n not in {f.drug for f in found}]
    tail = f"\nNot in the table (not covered by it): {', '.join(rest)}." if rest else ""
    return f"{head}: {len(found)} of {len(names)} active medicine(s):\n" + "\n".join(lines) + tail


def _interactions(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "medications", N_("Interaction check of the active medications"))
    if missing:
        return missing
    names = list(dict.fromkeys(_generic(m) for m in d.medications))
    if len(names) < 2:
        return (
            "Interaction check: the patient has "
            + (f"one active medication ({names[0]})" if names else "no active medication")
            + ", so there is no pair to check."
        )
    pairs = len(list(combinations(names, 2)))
    hits = knowledge.drug_interactions(names, minimum="take into account")
    head = (
        f"Interactions among the patient's {len(names)} active medications ({', '.join(names)}): "
        f"all {pairs} pairs checked in the offline interaction tables (FDA labels not read here)."
    )
    if not hits:
        return (
            head
            + "\nNo interaction is listed for any of these pairs. Absence from the tables is not "
            "proof that a combination is safe."
        )
    lines = [
        f"- {h.drug_a} + {h.drug_b}: {h.severity.upper()} — {h.summary}."
        + (f" Management: {h.management}" if h.management.strip() else "")
        for h in hits
    ]
    return head + f"\n{len(hits)} pair(s) with an interaction:\n" + "\n".join(lines)


def _generic(med: ChartMed) -> str:
    ident = knowledge.identify(concept=med.concept)
    return ident.name if ident.identified else med.text


def _allergies(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "allergies", N_("Allergies"))
    if missing:
        return missing
    if not d.allergies:
        return _say(N_("Allergies: none recorded (the allergy list was read and is empty)."))
    if all(a.no_known for a in d.allergies):
        return _say(N_("Allergies: no known allergies (recorded as such in the chart)."))
    return f"Allergies ({len(d.allergies)}):\n" + "\n".join(
        "- " + summary.allergy_text(a) for a in d.allergies
    )


def _problems(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "conditions", N_("Problem list"))
    if missing:
        return missing
    lines = [f"Active problems ({len(d.problems)}), disorders newest first:"]
    lines += [summary.problem_line(p) for p in d.problems] or ["- none recorded"]
    if d.social:
        lines.append(
            "Social and administrative findings: " + ", ".join(p.text for p in d.social) + "."
        )
    return "\n".join(lines)


def _history(focus: str, d: ChartData, today: date) -> str:
    """"any fractures in her history?": the active problems, then the resolved and inactive
    ones newest first; never "none" when the past ones could not be read."""
    lines = [_problems(focus, d, today)]
    missing = _unavailable(d, "past_conditions", N_("Past problems"))
    if missing:
        return "\n".join([*lines, missing])
    past = [p for p in d.past_problems
            if p.text.lower() not in {a.text.lower() for a in d.problems}]
    if not past:
        return "\n".join([*lines, _say(N_("Past problems: none recorded (resolved and inactive "
                                           "conditions were read)."))])
    lines.append(_say(N_("Past problems (resolved or inactive), newest first:")))
    # dated by onset alone: "since" would say it goes on
    lines += [f"- {p.text} ({p.onset})" if p.onset else f"- {p.text}"
              for p in sorted(past, key=lambda p: p.onset, reverse=True)]
    return "\n".join(lines)


def _pregnancy(focus: str, d: ChartData, today: date) -> str:
    """"is she pregnant?": the problem list's pregnancy entries; their absence is said as what
    was read, never as "not pregnant" (only a test or the patient tells)."""
    missing = _unavailable(d, "conditions", N_("Problem list"))
    if missing:
        return missing
    said = [p for p in (*d.problems, *d.social)
            if re.search(r"pregnan|gestation|gravid", p.text, re.I)]
    if said:
        return "\n".join([_say(N_("Pregnancy on the problem list:"))]
                         + [summary.problem_line(p) for p in said])
    return _say(N_("Nothing on the problem list says she is pregnant (the problem list was "
                   "read); that is not a pregnancy test: ask her or test if it matters."))


def _immunizations(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "immunizations", N_("Immunisations"))
    if missing:
        return missing
    latest = summary.latest_immunizations(d.immunizations)
    if not latest:
        return _say(N_("Immunisations: none recorded."))
    doses: dict[str, int] = {}
    for i in d.immunizations:
        doses[i.vaccine] = doses.get(i.vaccine, 0) + 1
    return _say(N_("Immunisations (latest dose of each, newest first):")) + "\n" + "\n".join(
        _say(N_("- %(vaccine)s: %(date)s (%(n)s recorded)"), vaccine=i.vaccine, date=day(i.date),
             n=doses[i.vaccine]) for i in latest
    )


def _encounters(focus: str, d: ChartData, today: date) -> str:
    missing = _unavailable(d, "encounters", N_("Encounters"))
    if missing:
        return missing
    found = d.encounters
    if not found:
        return _say(N_("No encounters recorded."))
    since = min(e.date for e in found)
    admissions = [e for e in found if e.admission]
    lines = [
        _say(
            N_("Admissions and emergency visits among the last %(n)s encounters (since %(date)s):"),
            n=len(found),
            date=day(since),
        )
    ]
    lines += [
        summary.encounter_line(e)
        + (f" → {_day(e.end)}" if e.end and e.end != e.date else "")
        for e in admissions[:10]
    ] or [_say(N_("- none"))]
    # "last ED visit?": of a kind none of the window's is (an emergency visit, an admission),
    # the newest older one, searched by its class
    kinds = {e.admission for e in admissions}
    older = [e for e in d.admissions if e.date < since and e.admission
             and e.admission not in kinds]
    older = [e for n, e in enumerate(older)
             if e.admission not in {o.admission for o in older[:n]}]
    if older:
        lines.append(_say(N_("Earlier admissions and emergency visits (the newest, by date):")))
        lines += [summary.encounter_line(e)
                  + (f" → {_day(e.end)}" if e.end and e.end != e.date else "")
                  for e in older[:3]]
    lines.append(_say(N_("Most recent encounters:")))
    lines += [summary.encounter_line(e) for e in found[:3]]
    return "\n".join(lines)


def _notes(focus: str, d: ChartData, today: date) -> str:
    """The latest notes and letters, quoted and labelled untrusted as in the whole chart (their
    text is written by people and never followed)."""
    missing = _unavailable(d, "notes", N_("Notes"))
    if missing:
        return missing
    if not d.notes:
        return _say(N_("No notes or letters on file."))
    quoted = [line for n in d.notes for line in summary.quote(n)]
    return "\n".join([summary.UNTRUSTED_HEAD, *quoted])


def _age(focus: str, d: ChartData, today: date) -> str:
    """Age in whole years today (at death for a deceased patient), with the birth date."""
    p = d.patient
    if p.age is None:
        return _say(N_("Age: not known (no birth date in the record)."))
    if p.deceased:
        return _say(N_("Age: %(age)s years at death on %(died)s (born %(born)s)."), age=p.age,
                    died=day(p.deceased), born=day(p.birth_date))
    return _say(N_("Age: %(age)s years (born %(born)s)."), age=p.age, born=day(p.birth_date))


def _identifiers(focus: str, d: ChartData, today: date) -> str:
    p = d.patient
    mrn = f"MRN {p.mrn}" if p.mrn else "no MRN recorded"
    return f"{p.name}: {mrn}; FHIR id {p.id}; born {p.birth_date or 'unknown'}."
