"""Drug–drug interactions among ingredients, from two sources.

1. The ANSM national interaction thesaurus (2020-01), converted by ``build``
   into ``data/interactions.sqlite``: substance/class pairs with the four ANSM
   levels, the French mechanism and management text and, for the pairs that
   matter most, an English summary.
2. ``data/onc_pairs.yaml``: the ONC high-priority list and FDA-label contraindications,
   summarised in English, each row naming its own source.

One ``Interaction`` per ingredient pair: the most severe level of either
source, with every source that lists the pair.
"""
from __future__ import annotations

from typing import Any

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Collection, Iterable
from itertools import combinations

from . import classes as drug_classes
from .tables import db as _db
from .tables import load
from .tables import meta as meta  # the data's sources and versions, read with the interactions
LEVELS = ("contraindicated", "avoid", "precaution", "take into account")
RANK = {level: i for i, level in enumerate(LEVELS)}
ONC_LEVEL = {"contraindicated": "contraindicated", "critical": "avoid", "major": "avoid", "moderate": "precaution"}
ANSM = "ANSM Thésaurus des interactions médicamenteuses (2020-01)"
ANSM_URL = "https://ansm.sante.fr/documents/reference/thesaurus-des-interactions-medicamenteuses-1"
ONC = "ONC high-priority DDI list"
LABEL_SEARCH = "https://dailymed.nlm.nih.gov/dailymed/search.cfm?labeltype=all&query="


@dataclass(frozen=True)
class Interaction:
    drug_a: str
    drug_b: str
    severity: str  # contraindicated | avoid | precaution | take into account
    summary: str  # English, short: "major bleeding risk"
    mechanism: str
    management: str
    source: str  # the sources that list the pair, "; "-joined
    evidence: str = ""  # which entries matched ("warfarin + class NSAIDs (ANSM)")
    sources: tuple[str, ...] = ()  # each source that lists the pair, most severe first

    def url_of(self, source: str) -> str:
        return ANSM_URL if source.startswith("ANSM") else LABEL_SEARCH + self.drug_a.replace(" ", "+")

    @property
    def critical(self) -> bool:
        return self.severity in ("contraindicated", "avoid")

    @property
    def source_url(self) -> str:
        return ANSM_URL if self.source.startswith("ANSM") else LABEL_SEARCH + self.drug_a.replace(" ", "+")


def between(ingredients: list[str], with_: list[str] | None = None) -> list[Interaction]:
    """Interactions among ``ingredients`` (each pair once), or only those of ``ingredients``
    against ``with_`` when it is given. Most severe first."""
    names = list(dict.fromkeys(i for i in ingredients if i))
    pairs: Iterable[tuple[str, str]]
    if with_ is None:
        pairs = combinations(names, 2)
    else:
        pairs = ((a, b) for a in names for b in dict.fromkeys(with_) if b and b != a)
    found = [hit for a, b in pairs if (hit := pair(a, b))]
    return sorted(found, key=lambda i: RANK[i.severity])


@lru_cache(maxsize=4096)
def pair(a: str, b: str) -> Interaction | None:
    hits = [h for h in (*_ansm(a, b), *_onc(a, b)) if h]
    if not hits:
        return None
    best = min(hits, key=lambda h: RANK[h.severity])
    sources = tuple(dict.fromkeys(h.source for h in sorted(hits, key=lambda h: RANK[h.severity])))
    curated = next((h for h in hits if not h.source.startswith("ANSM")), best)  # English text, its drug order
    english = curated.summary or next((h.summary for h in hits if h.summary), "")
    return Interaction(curated.drug_a, curated.drug_b, best.severity, english or _fallback(best), best.mechanism,
                       best.management, "; ".join(sources), "; ".join(h.evidence for h in hits), sources)


def _fallback(hit: Interaction) -> str:
    """A pair the English summaries do not cover yet: say its ANSM level and send to the French text."""
    return f"{hit.severity} per the ANSM thesaurus (mechanism in French below)"


def _onc(a: str, b: str) -> list[Interaction]:
    out = []
    for row in load("onc_pairs.yaml"):
        for x, y in ((a, b), (b, a)):
            if drug_classes.matches(x, row["a"]) and drug_classes.matches(y, row["b"]):
                out.append(Interaction(x, y, ONC_LEVEL[row["severity"]], row["summary"], row["mechanism"],
                                       row["management"], row["source"],
                                       f"{row['a']} + {row['b']} ({row['source']})"))
                break
    return out


def _ansm(a: str, b: str) -> list[Interaction]:
    db = _db()
    if db is None:
        return []
    terms_a, terms_b = _terms(a), _terms(b)
    if not terms_a or not terms_b:
        return []
    out = []
    for x, y, tx, ty in ((a, b, terms_a, terms_b), (b, a, terms_b, terms_a)):
        sql = (f"SELECT a, b, levels, mechanism, summary FROM interaction "
               f"WHERE a IN ({_marks(tx)}) AND b IN ({_marks(ty)})")
        for ta, tb, levels, mech, summary in db.execute(sql, (*tx, *ty)):
            sev, manage = _applicable(json.loads(levels), {*tx, *ty})
            out.append(Interaction(x, y, sev, summary or "", mech, manage, ANSM,
                                   f"{_label(ta)} + {_label(tb)} (ANSM)"))
    return out


def _applicable(levels: list[dict[str, Any]], terms: set[str]) -> tuple[str, str]:
    """The worst level that applies to this pair: a level whose text names other substances only
    (e.g. "with sodium oxybate") does not; dose conditions are not known here, so they count."""
    bare = {re.sub(r"\s*\(.*\)$", "", t) for t in terms}
    fits = [lv for lv in levels if not lv.get("only") or set(lv["only"]) & bare] or levels[-1:]
    worst = min(fits, key=lambda lv: RANK[lv["level"]])
    return worst["level"], " ".join(lv["info"] for lv in fits if lv["info"])


def _marks(values: Collection[str]) -> str:
    return ",".join("?" * len(values))


@lru_cache(maxsize=4096)
def _terms(ingredient: str) -> tuple[str, ...]:
    """The ANSM terms (substance and its classes) an English ingredient belongs to."""
    db = _db()
    if db is None:
        return ()
    rows = db.execute("SELECT fr FROM ingredient WHERE name = ?", (ingredient,)).fetchall()
    subs = [r[0] for r in rows]
    if not subs:
        return ()
    marks = ",".join("?" * len(subs))
    classes = [r[0] for r in db.execute(f"SELECT term FROM member WHERE substance IN ({marks})", subs)]
    return tuple(dict.fromkeys(subs + classes))


@lru_cache(maxsize=4096)
def _label(term: str) -> str:
    db = _db()
    row = db.execute("SELECT label FROM term WHERE term = ?", (term,)).fetchone() if db else None
    return str(row[0]) if row else term
