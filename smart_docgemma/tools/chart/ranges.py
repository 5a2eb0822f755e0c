"""Where the latest result stands against a reference range, for "is that normal?", "too
high?", "c'est normal ?", "¿está alto?" after a result.

The result's own range (``Observation.referenceRange``) and the laboratory's flag come first;
then the target a drug she takes sets for the test (INR 2–3 on warfarin, ``checks/
knowledge.yaml`` monitoring); else the sourced adult interval (``knowledge/
reference_intervals``) in the analyte's unit, named with its source; else the answer says no
range is known. A range is never guessed, and a value in a unit the analyte does not convert is
not compared.
"""
from __future__ import annotations

from ...knowledge import analytes, reference_intervals
from ...knowledge.analytes import Analyte
from ...knowledge.reference_intervals import Interval
from ...languages import N_, answer_language, message, say
from . import records
from .chartdata import ChartData, ChartSeries

# the place of a value, as the answer says it
_PLACES = {"above": N_("above"), "below": N_("below"), "within": N_("within")}


def _say(msgid: str, **args: object) -> str:
    return say(message(msgid, **args), answer_language())


def judged(a: Analyte, d: ChartData) -> str:
    """The sentence placing the latest result of ``a`` against its range ("" without a
    result: the answer already says there is none)."""
    entries = [e for e in d.labs + d.vitals if e.code in analytes.codes_with_family(a)]
    if not entries:
        return ""
    e = max(entries, key=lambda e: (e.latest.date, e.count))
    return placed(e, a, d.patient.gender, " ".join(m.text.lower() for m in d.medications))


def _drug_target(a: Analyte, drugs: str) -> tuple[Interval, str] | None:
    """The target range a drug she takes sets for this test (the monitoring rules of
    ``checks/knowledge.yaml``: INR 2–3 on warfarin), with the drug; None when none does."""
    from ...checks.lookups import table

    t = table()
    for rule in t.get("monitoring") or []:
        taken = next((drug for drug in rule.get("drugs") or [] if drug in drugs), None)
        if taken and set(rule.get("loinc") or []) & set(a.codes) and rule.get("low") is not None:
            source = ((t.get("sources") or {}).get(rule.get("source")) or {}).get("label", "")
            return Interval(rule["low"], rule.get("high"), unit=a.unit, source=source), taken
    return None


def placed(e: ChartSeries, a: Analyte | None, sex: str | None, drugs: str = "") -> str:
    """``e``'s latest result against its own range, else the target a drug she takes sets for
    it (``drugs``: her medications' words), else the adult interval of ``a``."""
    point, name = e.latest, e.label()
    value = dict(name=name, value=records.num(point.value), unit=e.unit)
    lines = []
    if point.flag:
        lines.append(_say(N_("The laboratory flagged %(name)s %(value)s %(unit)s as "
                             "%(flag)s."), flag=point.flag, **value))
    if point.reference is not None:
        where = _PLACES[point.reference.place(point.value)]
        lines.append(_say(N_("%(name)s %(value)s %(unit)s is %(where)s the reference range the "
                             "laboratory gave with the result (%(range)s %(range_unit)s)."),
                          where=_say(where), range=point.reference.text(),
                          range_unit=point.reference.unit or e.unit, **value))
        return " ".join(lines)
    target = _drug_target(a, drugs) if a else None
    if target is not None:  # INR on warfarin: the drug's target, not a reference range
        interval, drug = target
        mine = analytes.convert(point.value, e.unit, a) if a else None
        if mine is not None:
            lines.append(_say(N_("%(name)s %(value)s %(unit)s is %(where)s the target for a "
                                 "patient on %(drug)s, %(range)s (%(source)s)."),
                              where=_say(_PLACES[interval.place(mine)]), drug=drug,
                              range=interval.text(), source=interval.source, **value))
            return " ".join(lines)
    adult = reference_intervals.adult(a.name, sex) if a else None
    mine = analytes.convert(point.value, e.unit, a) if a and adult else None
    if adult is None or mine is None:
        lines.append(_say(N_("No reference range is known here for %(name)s: the result carries "
                             "none and the adult table holds none, so it is not judged."),
                          name=name))
        return " ".join(lines)
    lines.append(_adult_line(adult, mine, value))
    return " ".join(lines)


def _adult_line(adult: Interval, mine: float, value: dict[str, str]) -> str:
    said = _say(N_("%(name)s %(value)s %(unit)s is %(where)s the adult reference interval "
                   "%(range)s %(range_unit)s (%(source)s); a laboratory's own range may differ."),
                where=_say(_PLACES[adult.place(mine)]), range=adult.text(),
                range_unit=adult.unit, source=adult.source, **value)
    if adult.note == "fasting":
        said += " " + _say(N_("The interval is for a fasting sample."))
    return said


def no_range(name: str) -> str:
    """A measure with no reference range here (a child's weight): said, never judged."""
    return _say(N_("No reference range is known here for %(name)s: the result carries none and "
                   "the adult table holds none, so it is not judged."), name=name)
