"""When a procedure was last done ("when was his last eye check", "last colonoscopy?", "dernier
fond d'oeil ?", "última mamografia?"): the patient's Procedure and Encounter resources searched by
the words their codes use (``tools/data/procedures.yaml``).

The answer gives the latest found, with its date and resource; or that none is recorded in what
was read, saying how much was read; or, when a search failed, that it could not be read — never
"none" for a search that did not run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...datafiles import safe_yaml
from ...languages import N_, answer_language, day, fold, message, say
from .records import DATA, SORT_NEWEST, concept_text

PREFIX = "procedure:"
# the searches a procedure question needs (the chart read's sections)
SECTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "procedures": ("Procedure", {"_sort": "-date", "_count": 200}),
    "encounters": ("Encounter", {"_sort": SORT_NEWEST, "_count": 200}),
}


@dataclass(frozen=True)
class Procedure:
    key: str
    name: str
    words: tuple[str, ...]
    chart: tuple[str, ...]


@lru_cache(maxsize=1)
def table() -> dict[str, Procedure]:
    raw = safe_yaml((DATA / "procedures.yaml").read_text(encoding="utf-8"))["procedures"]
    return {k: Procedure(k, v["name"], tuple(v["words"]), tuple(v["chart"]))
            for k, v in raw.items()}


def foci() -> list[str]:
    return [PREFIX + k for k in table()]


@lru_cache(maxsize=1)
def _asked() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple(
        (p.key, re.compile(r"(?<![a-z])(?:" + "|".join(
            re.escape(fold(w).lower()) for w in sorted(p.words, key=len, reverse=True))
            + r")(?![a-z])"))
        for p in table().values())


def named_in(low: str) -> str | None:
    """The focus of the procedure the folded question names ("procedure:eye_exam"); None."""
    # "d'oeil", "fond d’oeil": the apostrophe as a space
    text = re.sub(r"['’]", " ", low)
    return next((PREFIX + key for key, p in _asked() if p.search(text)), None)


def answer(focus: str, sections: dict[str, list[dict[str, Any]]],
           unavailable: dict[str, str]) -> str:
    """The latest record of the procedure ``focus`` names, or what was searched and not found."""
    p = table()[focus.removeprefix(PREFIX)]
    found = [(when, text, ref) for key, rtype in (("procedures", "Procedure"),
                                                   ("encounters", "Encounter"))
             for when, text, ref in _records(sections.get(key) or [], rtype)
             if _is(p, text)]
    if found:
        when, text, ref = max(found, key=lambda f: f[0])
        return _say(N_("Last %(name)s on record: %(date)s — %(text)s (%(ref)s)."), name=p.name,
                    date=day(when) if when else _say(N_("date not recorded")), text=text, ref=ref)
    failed = [f"{k}: {unavailable[k]}" for k in ("procedures", "encounters") if k in unavailable]
    if len(failed) == 2:
        return _say(N_("Not known: the %(name)s could not be looked for, because the record could "
                       "not be read (%(why)s). Do not assume it was not done."),
                    name=p.name, why="; ".join(failed))
    if failed:  # one of the two read: what it holds, and that the other was not read
        return _say(N_("No %(name)s in the %(n)s records that could be read; the rest could not "
                       "be read (%(why)s), so this is not a full answer. Do not assume it was not "
                       "done."), name=p.name, why=failed[0],
                    n=sum(len(sections.get(k) or []) for k in ("procedures", "encounters")))
    return _say(N_("No %(name)s is recorded in what I can read: %(procedures)s procedures and "
                   "%(encounters)s encounters searched, all dates. It may have been done "
                   "elsewhere; check the ophthalmology, endoscopy or imaging record."),
                name=p.name, procedures=len(sections.get("procedures") or []),
                encounters=len(sections.get("encounters") or []))


def _records(resources: list[dict[str, Any]], rtype: str) -> list[tuple[str, str, str]]:
    out = []
    for res in resources:
        if res.get("status") in ("entered-in-error", "not-done", "cancelled"):
            continue
        concepts = [res.get("code")] if rtype == "Procedure" else (res.get("type") or [])
        text = "; ".join(t for t in (concept_text(c) for c in concepts if c) if t)
        when = (res.get("performedDateTime") or (res.get("performedPeriod") or {}).get("start")
                or (res.get("period") or {}).get("start") or "")
        out.append((str(when), text, f"{rtype}/{res.get('id')}"))
    return out


def _is(p: Procedure, text: str) -> bool:
    low = fold(text).lower()
    return any(re.search(rf"(?<![a-z]){re.escape(w)}", low) for w in p.chart)


def _say(msgid: str, **args: object) -> str:
    return say(message(msgid, **args), answer_language())
