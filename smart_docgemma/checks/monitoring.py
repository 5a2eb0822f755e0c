"""Lab monitoring a drug needs, evaluated on the patient's own results.

A rule (``knowledge.yaml`` → ``monitoring``) names the test's LOINC codes, the
target range, critical limits and the longest interval between results. One
rule on one patient's observations gives at most one finding: out of range
(with the trend, e.g. INR 2.4 → 2.9 → 3.4 rising), a creatinine rise, or an
overdue / never-done test. A check that could not run (no lab data could be
had) gives nothing rather than "no result on file".
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ..languages import N_, day, lab, message
from .findings import Finding, Source, capital


@dataclass
class Result:
    id: str
    value: float
    when: date


def results(observations: list[dict], loinc: list[str]) -> list[Result]:
    """Numeric results for these LOINC codes, oldest first."""
    out = []
    for obs in observations:
        codes = {c.get("code") for c in (obs.get("code") or {}).get("coding") or []}
        value = (obs.get("valueQuantity") or {}).get("value")
        when = observed_on(obs)
        if codes & set(loinc) and isinstance(value, (int, float)) and when \
                and obs.get("status") not in ("entered-in-error", "cancelled"):
            out.append(Result(obs.get("id") or "", float(value), when))
    return sorted(out, key=lambda r: r.when)


def check(rule: dict, drug: str, observations: list[dict], today: date, source: Source,
          problem: str, overdue_counts: bool = True) -> Finding | None:
    """The finding for one monitoring rule, or None when nothing needs doing."""
    found = results(observations, rule["loinc"])
    if not found:
        if not overdue_counts:
            return None
        said = message(
            N_("Check %(test)s on %(drug)s — no result on file"), test=lab(rule["test"]), drug=drug
        )
        return _finding(
            rule,
            problem,
            "warning",
            [
                f"{rule['action_overdue']} — on {drug}, no {rule['test']} on file",
                rule["action_overdue"],
            ],
            [f"On {drug}; no {rule['test']} result on file"],
            source,
            ("none",),
            said,
        )
    latest, age = found[-1], (today - found[-1].when).days
    evidence = [
        f"{rule['test']} {_num(latest.value)}{_unit(rule)} "
        f"on {latest.when.isoformat()}{_range(rule)}"
    ]
    if len(found) > 1:
        evidence.append(
            "Trend: " + " → ".join(f"{_num(r.value)} ({r.when.isoformat()})" for r in found[-4:])
        )
    severity, action = _assess(rule, found)
    overdue = age > rule["max_age_days"]
    if overdue:
        evidence.append(f"Last checked {age} days ago; {rule['test']} is due every "
                        f"{rule['max_age_days']} days on {drug}")
    if action is None and not (overdue and overdue_counts):
        return None
    if action is None:
        severity, action = "warning", rule["action_overdue"]
    when = f"{rule['test']} {_num(latest.value)} on {latest.when.isoformat()}"
    trend = _trend(found)
    summaries = [
        f"{action} — {when}{_range(rule)}{trend}",
        f"{action} — {when}{trend}",
        f"{action} — {when}",
        action,
    ]
    said = message(
        N_("Check %(test)s on %(drug)s — %(value)s on %(date)s"),
        test=lab(rule["test"]),
        drug=drug,
        value=_num(latest.value),
        date=day(latest.when.isoformat()),
    )
    return _finding(rule, problem, severity, summaries, evidence, source,
                    (latest.id, latest.value, latest.when.isoformat(), overdue), said)


def _assess(rule: dict, found: list[Result]) -> tuple[str, str | None]:
    value = found[-1].value
    if "critical_high" in rule and value >= rule["critical_high"]:
        return "critical", rule["action_high"]
    if "critical_low" in rule and value < rule["critical_low"]:
        return "critical", rule.get("action_critical_low", rule["action_low"])
    if "high" in rule and value > rule["high"]:
        return "warning", rule["action_high"]
    if "low" in rule and value < rule["low"]:
        return "warning", rule["action_low"]
    if "rise_pct" in rule and len(found) > 1 and found[-2].value > 0 \
            and (value - found[-2].value) / found[-2].value * 100 >= rule["rise_pct"]:
        return "warning", rule["action_rise"]
    return "info", None


def _trend(found: list[Result]) -> str:
    last = [r.value for r in found[-3:]]
    if len(last) < 2:
        return ""
    chain = " → ".join(_num(v) for v in last)
    if all(a < b for a, b in zip(last, last[1:], strict=False)):
        return f", rising ({chain})"
    if all(a > b for a, b in zip(last, last[1:], strict=False)):
        return f", falling ({chain})"
    return ""


def _finding(
    rule, problem, severity, summaries, evidence, source, fingerprint, said=None
) -> Finding:
    return Finding(
        problem=problem,
        severity=severity,
        summaries=summaries,
        topic="monitoring",
        message=said,
        management=f"{capital(rule['test'])}{_range(rule)}: recheck at least every "
        f"{rule['max_age_days']} days while on the drug.",
        evidence=evidence,
        sources=[source],
        fingerprint_of=fingerprint,
    )


def _range(rule: dict) -> str:
    if "low" in rule and "high" in rule:
        return f" (target {_num(rule['low'])}–{_num(rule['high'])})"
    if "high" in rule:
        return f" (upper limit {_num(rule['high'])})"
    if "low" in rule:
        return f" (lower limit {_num(rule['low'])})"
    return ""


def _unit(rule: dict) -> str:
    return f" {rule['unit']}" if rule.get("unit") else ""


def _num(value: float) -> str:
    return f"{value:g}"


def observed_on(obs: dict) -> date | None:
    raw = (
        obs.get("effectiveDateTime")
        or (obs.get("effectivePeriod") or {}).get("start")
        or obs.get("issued")
    )
    try:
        return datetime.fromisoformat(raw.replace("Z", "+00:00")).date() if raw else None
    except (ValueError, AttributeError):
        return None
