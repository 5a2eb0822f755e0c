"""Drug–drug interactions among ingredients, from three sources.

1. The ANSM national interaction thesaurus (2020-01), converted by ``build``
   into ``data/interactions.sqlite``: substance/class pairs with the four ANSM
   levels, the French mechanism and management text and, for the pairs that
   matter most, an English summary. The English effect and management of every
   entry are derived from the reviewed glossary (``glossary``); the French text is
   kept as the source quote.
2. ``data/onc_pairs.yaml``: the ONC high-priority list and FDA-label contraindications,
   summarised in English, each row naming its own source.
3. ``data/class_rules.yaml``: class rules (serotonergic, QT known risk, hyperkalaemia,
   bleeding, CNS depression) and label management with numbers (halve digoxin with
   amiodarone, INR within 3-5 days), each naming its source.

One ``Interaction`` per ingredient pair: the most severe level of any source,
with every source that lists the pair.
"""
from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from . import classes as drug_classes
from . import glossary
from .tables import db as _db
from .tables import load
from .tables import meta as meta  # the data's sources and versions, read with the interactions

LEVELS = ("contraindicated", "avoid", "precaution", "take into account")
RANK = {level: i for i, level in enumerate(LEVELS)}
ONC_LEVEL = {
    "contraindicated": "contraindicated",
    "critical": "avoid",
    "major": "avoid",
    "moderate": "precaution",
}
ANSM = "ANSM Thésaurus des interactions médicamenteuses (2020-01)"
ANSM_URL = "https://ansm.sante.fr/documents/reference/thesaurus-des-interactions-medicamenteuses-1"
ONC = "ONC high-priority DDI list"
LABEL_PAIRS = "drug-interaction-mcp"
HIGH_ASPIRIN = "aspirin at analgesic or anti-inflammatory doses"  # the ANSM levels' own condition
# a condition a caller passes when the order's dose is known
LOW_ASPIRIN = "aspirin at antiplatelet doses"
SOURCE_URLS = {
    "CredibleMeds": "https://crediblemeds.org/druglist",
    "AGS Beers": "https://agsjournals.onlinelibrary.wiley.com/doi/10.1111/jgs.18372",
    "Lapi et al. BMJ 2013": "https://www.bmj.com/content/346/bmj.e8525",
    "FDA drug safety communication 2019": "https://www.fda.gov/drugs/drug-safety-and-availability/"
    "fda-warns-about-serious-breathing-problems-seizure-and-nerve-pain-"
    "medicines-gabapentin-neurontin-lyrica-lyrica-cr",
}
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
    # the ANSM French text (mechanism, then management) the English was derived from
    quote: str = ""
    keys: tuple[str, ...] = ()  # the class rules that matched ("qt-known-risk-pair")

    def url_of(self, source: str) -> str:
        if source.startswith("ANSM"):
            return ANSM_URL
        return url_for(source) or LABEL_SEARCH + self.drug_a.replace(" ", "+")

    @property
    def critical(self) -> bool:
        return self.severity in ("contraindicated", "avoid")

    @property
    def source_url(self) -> str:
        return (
            ANSM_URL
            if self.source.startswith("ANSM")
            else LABEL_SEARCH + self.drug_a.replace(" ", "+")
        )


def url_for(source: str) -> str:
    """The link of a named source other than a drug label ("" for labels: they link per drug)."""
    return next((url for key, url in SOURCE_URLS.items() if source.startswith(key)), "")


def between(ingredients: list[str], with_: list[str] | None = None,
            conditions: frozenset[str] = frozenset()) -> list[Interaction]:
    """Interactions among ``ingredients`` (each pair once), or only those of ``ingredients``
    against ``with_`` when it is given. Most severe first."""
    names = list(dict.fromkeys(i for i in ingredients if i))
    pairs: Iterable[tuple[str, str]]
    if with_ is None:
        pairs = combinations(names, 2)
    else:
        pairs = ((a, b) for a in names for b in dict.fromkeys(with_) if b and b != a)
    found = [hit for a, b in pairs if (hit := pair(a, b, conditions))]
    return sorted(found, key=lambda i: RANK[i.severity])


@lru_cache(maxsize=4096)
def pair(a: str, b: str, conditions: frozenset[str] = frozenset()) -> Interaction | None:
    """The reconciled interaction of two ingredients; ``conditions`` are the dose facts the ANSM
    levels may name: ``HIGH_ASPIRIN`` when the aspirin order is at analgesic doses or above (its
    levels then apply), ``LOW_ASPIRIN`` at antiplatelet doses (entries of the thesaurus' high-dose
    heading then do not)."""
    found = (*_ansm(a, b, conditions), *_curated(a, b, conditions))
    hits = sorted((h for h in found if h), key=lambda h: RANK[h.severity])
    if not hits:
        return None
    best = hits[0]
    sources = tuple(dict.fromkeys(h.source for h in hits))
    # English text and drug order: the most severe reviewed row (ONC list, class rules), else the
    # thesaurus' glossary English, else the second source's own text
    reviewed = [h for h in hits if not h.source.startswith(("ANSM", LABEL_PAIRS))]
    ansm = next((h for h in hits if h.source.startswith("ANSM")), None)
    lead = reviewed[0] if reviewed else ansm or best
    summary = lead.summary or next((h.summary for h in hits if h.summary), "") or _fallback(best)
    management = lead.management if lead.severity == best.severity or not ansm or lead is ansm \
        else f"{ansm.management} {lead.management}"
    disagree = _grades(hits)
    quote = "\n\n".join(dict.fromkeys(h.quote for h in hits if h.quote))
    if ansm and quote:  # the thesaurus' own grade, for the French reader
        quote = f"{quote}\n\nNiveau ANSM : {ANSM_FR[ansm.severity]}."
    return Interaction(lead.drug_a, lead.drug_b, best.severity, summary, lead.mechanism,
                       f"{management} {disagree}".strip(), "; ".join(sources),
                       "; ".join(h.evidence for h in hits), sources, quote,
                       tuple(k for h in hits for k in h.keys))


def _fallback(hit: Interaction) -> str:
    """A pair without a curated English summary: its effect from the glossary, in a few words."""
    effect = hit.mechanism.rstrip(".").split("; ")
    return (
        "; ".join(effect[:2]).lower()
        if hit.mechanism and not hit.mechanism.startswith(glossary.NO_EFFECT)
        else f"{hit.severity} per the ANSM thesaurus"
    )


def _curated(a: str, b: str, conditions: frozenset[str] = frozenset()) -> list[Interaction]:
    return _onc(a, b) + _class_rules(a, b) + _label_pairs(a, b, conditions)


def _label_pairs(a: str, b: str, conditions: frozenset[str] = frozenset()) -> list[Interaction]:
    """The label-derived pairs of PyPI drug-interaction-mcp (``label_pairs.yaml``, MIT); an
    aspirin pair the thesaurus writes for analgesic doses only is left out at antiplatelet doses
    (that source does not grade by the aspirin dose)."""
    pairs = ((x, y) for x in ingredient_terms(a) for y in ingredient_terms(b))
    if LOW_ASPIRIN in conditions and any(_high_dose_only(x, y) for x, y in pairs):
        return []
    data = load("label_pairs.yaml")
    name = data["source"]["name"]
    out = []
    for row in data["pairs"]:
        for x, y in ((a, b), (b, a)):
            if any(drug_classes.matches(x, k) for k in row["a"]) and \
                    any(drug_classes.matches(y, k) for k in row["b"]):
                source = f"{name} ({row['cites']})"
                out.append(Interaction(x, y, row["level"], row["summary"].rstrip(".").lower(),
                                       row["mechanism"], row["management"], source,
                                       f"{row['a'][0]} + {row['b'][0]} ({name})"))
                break
    return out


def _english(source: str) -> str:
    return "ANSM interaction thesaurus (2020-01)" if source.startswith("ANSM") else source


ANSM_FR = {"contraindicated": "contre-indication", "avoid": "association déconseillée",
           "precaution": "précaution d'emploi", "take into account": "à prendre en compte"}


def _grades(hits: list[Interaction]) -> str:
    """Each source's grade when the sources disagree ("" when they agree)."""
    grades = dict.fromkeys((h.source, h.severity) for h in hits)
    if len({level for _, level in grades}) < 2:
        return ""
    said = "; ".join(f"{_english(source)}: {level}" for source, level in grades)
    return f"Sources disagree — {said}. The higher grade is shown."


def _onc(a: str, b: str) -> list[Interaction]:
    out = []
    for row in load("onc_pairs.yaml"):
        for x, y in ((a, b), (b, a)):
            if drug_classes.matches(x, row["a"]) and drug_classes.matches(y, row["b"]):
                out.append(
                    Interaction(
                        x,
                        y,
                        ONC_LEVEL[row["severity"]],
                        row["summary"],
                        row["mechanism"],
                        row["management"],
                        row["source"],
                        f"{row['a']} + {row['b']} ({row['source']})",
                    )
                )
                break
    return out


def _class_rules(a: str, b: str) -> list[Interaction]:
    out = []
    for row in load("class_rules.yaml")["pairs"]:
        for x, y in ((a, b), (b, a)):
            if drug_classes.matches(x, row["a"]) and drug_classes.matches(y, row["b"]):
                out.append(
                    Interaction(
                        x,
                        y,
                        row["level"],
                        row["summary"],
                        row["mechanism"],
                        row["management"],
                        row["source"],
                        f"{row['a']} + {row['b']} ({row['source']})",
                        keys=(row["key"],),
                    )
                )
                break
    return out


def _ansm(a: str, b: str, conditions: frozenset[str] = frozenset()) -> list[Interaction]:
    db = _db()
    if db is None:
        return []
    terms_a, terms_b = ingredient_terms(a), ingredient_terms(b)
    if not terms_a or not terms_b:
        return []
    out = []
    for x, y, tx, ty in ((a, b, terms_a, terms_b), (b, a, terms_b, terms_a)):
        sql = (f"SELECT a, b, levels, mechanism, summary FROM interaction "
               f"WHERE a IN ({_marks(tx)}) AND b IN ({_marks(ty)})")
        for ta, tb, levels, mech, summary in db.execute(sql, (*tx, *ty)):
            if LOW_ASPIRIN in conditions and _high_dose_only(ta, tb):
                continue
            sev, manage = _applicable(json.loads(levels), {*tx, *ty, *conditions})
            en = glossary.english(mech, manage, sev, ((_label(ta), x), (_label(tb), y)))
            quote = f"{mech} {manage}".strip()
            out.append(Interaction(x, y, sev, summary or "", en.effect, en.management, ANSM,
                                   f"{_label(ta)} + {_label(tb)} (ANSM)", quote=quote))
    return out


def _high_dose_only(ta: str, tb: str) -> bool:
    """ANSM aspirin entries written under the thesaurus' analgesic/anti-inflammatory dose
    heading."""
    return bool({ta, tb} & {"acide acetylsalicylique"}) and \
        bool({ta, tb} & set(load("doses.yaml")["aspirin_high_dose_only"]))


def _applicable(levels: list[dict[str, Any]], terms: set[str]) -> tuple[str, str]:
    """The worst level that applies to this pair: a level whose text names other substances only
    (e.g. "with sodium oxybate") does not; an aspirin dose level counts when the caller knows the
    dose is that high (``HIGH_ASPIRIN`` among the terms)."""
    bare = {re.sub(r"\s*\(.*\)$", "", t) for t in terms}
    fits = [lv for lv in levels if not lv.get("only") or set(lv["only"]) & bare] or levels[-1:]
    worst = min(fits, key=lambda lv: RANK[lv["level"]])
    return worst["level"], " ".join(lv["info"] for lv in fits if lv["info"])


def _marks(values: Collection[str]) -> str:
    return ",".join("?" * len(values))


def in_thesaurus(ingredient: str) -> bool:
    """Whether the ANSM thesaurus names this ingredient (as a substance or a class member)."""
    return bool(ingredient_terms(ingredient))


@lru_cache(maxsize=4096)
def ingredient_terms(ingredient: str) -> tuple[str, ...]:
    """The ANSM terms (substance and its classes) an English ingredient belongs to."""
    db = _db()
    if db is None:
        return ()
    rows = db.execute("SELECT fr FROM ingredient WHERE name = ?", (ingredient,)).fetchall()
    subs = [r[0] for r in rows]
    if not subs:
        return ()
    marks = ",".join("?" * len(subs))
    classes = [
        r[0] for r in db.execute(f"SELECT term FROM member WHERE substance IN ({marks})", subs)
    ]
    return tuple(dict.fromkeys(subs + classes))


@lru_cache(maxsize=4096)
def _label(term: str) -> str:
    db = _db()
    row = db.execute("SELECT label FROM term WHERE term = ?", (term,)).fetchone() if db else None
    return str(row[0]) if row else term


def showable_pairs() -> list[tuple[str, str]]:
    """One English ingredient pair for every thesaurus entry whose two sides the app can name
    (a substance mapped to English, or a class with such a member)."""
    db = _db()
    if db is None:
        return []
    english: dict[str, str] = {}
    for name, fr in db.execute("SELECT name, fr FROM ingredient ORDER BY name"):
        english.setdefault(fr, name)
    for term, substance in db.execute("SELECT term, substance FROM member ORDER BY substance"):
        if substance in english:
            english.setdefault(term, english[substance])
    rows = db.execute("SELECT a, b FROM interaction").fetchall()
    return [
        (english[a], english[b])
        for a, b in rows
        if a in english and b in english and english[a] != english[b]
    ]


def english_coverage() -> dict[str, Any]:
    """How much of what the app can show has glossary-derived English: of the thesaurus entries
    whose two sides it can name, those whose effect (mechanism) and management came from the
    glossary's phrases rather than from the level's default sentence alone."""
    shown = effect = manage = 0
    db = _db()
    if db is None:
        return {"entries_shown": 0}
    for x, y in showable_pairs():
        ta, tb = ingredient_terms(x), ingredient_terms(y)
        sql = (f"SELECT a, b, levels, mechanism FROM interaction WHERE a IN ({_marks(ta)}) "
               f"AND b IN ({_marks(tb)}) LIMIT 1")
        row = db.execute(sql, (*ta, *tb)).fetchone()
        if row is None:
            continue
        level, text = _applicable(json.loads(row[2]), {*ta, *tb})
        en = glossary.english(row[3], text, level, ((_label(row[0]), x), (_label(row[1]), y)))
        shown, effect, manage = shown + 1, effect + en.derived, manage + en.managed
    return {
        "entries_shown": shown,
        "effect_from_glossary": effect,
        "management_from_glossary": manage,
        "effect_coverage": round(effect / shown, 3) if shown else 0.0,
        "management_coverage": round(manage / shown, 3) if shown else 0.0,
        "glossary_phrases": sum(len(v) for v in load("glossary.yaml").values()),
    }
