"""The ward's words, read from ``data/ward.yaml``: which lab test, which specialty, which vital
sign and what reading, what priority. Shared by the write tools (``ward_orders.py``), which
resolve what a caller passed, and the agent's planning, which fills their arguments from the
clinician's message when no model is there. No sentence is listed: a name of the table found
as whole words, a number after a vital's word, and the clinician's own text kept verbatim.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ...datafiles import safe_yaml
from ...languages import fold
from . import when
from .said_numbers import decimals_in_digits, signs_in_digits

DATA = Path(__file__).parents[1] / "data"  # the tools' tables, one folder


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    data: dict[str, Any] = safe_yaml((DATA / "ward.yaml").read_text(encoding="utf-8"))
    return data


def _low(text: str | None) -> str:
    return " ".join(fold(_capitals_spelled(text or "")).lower().split())


# a word of four letters or more written in capitals: the message is shouted, and its "ES" is
# the verb, never the ward's shorthand
_SHOUTED = re.compile(r"(?<![A-Za-z])[A-Z]{4,}(?![A-Za-z])")


def _capitals_spelled(text: str) -> str:
    """``text`` with each ward shorthand that is also a common word (``capital_names``: "ES",
    "QS") spelled as its test when written in capitals ("BH, QS, ES y PFH mañana 8am"); in
    lower case, or in a message written all in capitals, it stays the word it also is."""
    spelled: dict[str, str] = table().get("capital_names") or {}
    if not spelled or _SHOUTED.search(text):
        return text
    pattern = r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, spelled)) + r")(?![A-Za-z0-9])"
    return re.sub(pattern, lambda m: spelled[m.group(1)], text)


# unbounded: the tables' phrases number over a thousand, and a bounded cache recompiled them
# on every message (most of a turn's reading time)
@cache
def _words(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9]){re.escape(phrase)}(?![a-z0-9])")


_AFTER_NUMBER = re.compile(r"\d\s?$")


def _found(low: str, names: list[str], counted: bool = False) -> list[tuple[int, int, str]]:
    """Where each name occurs; never right after a number, where it is a unit ("500 mg" names
    no magnesium test), unless the test is ``counted`` in sets ("2 hemocultivos")."""
    # a name not in the text as written matches nowhere: its pattern is not run
    return [(m.start(), -len(n), n) for n in names if n in low for m in _words(n).finditer(low)
            if counted or not _AFTER_NUMBER.search(low[:m.start()])]


def _named(text: str | None, entries: dict[str, Any], key: str) -> list[str]:
    """Entries whose names occur in ``text``, in the order written; a longer name hides the
    shorter names inside it ("orthopedic surgery" is not also "surgery")."""
    low = _low(text)
    spans: list[tuple[int, int]] = []
    out: list[tuple[int, str]] = []
    hits = sorted((start, width, name, entry) for entry, d in entries.items()
                  for start, width, name in _found(low, [entry, *d[key]], bool(d.get("sets"))))
    for start, width, _name, entry in sorted(hits, key=lambda h: (h[1], h[0])):
        end = start - width
        if any(s < end and start < e for s, e in spans):
            continue
        spans.append((start, end))
        out.append((start, entry))
    return list(dict.fromkeys(entry for _, entry in sorted(out)))


def lab_tests(text: str | None) -> list[str]:
    """The lab tests of the table ``text`` names ("CBC and BMP" → both); in a list of tests with
    no dose said, also the tests named by a word that is a drug too ("NFS, magnésium demain").
    A test named as the last result ("sa dernière HbA1c") is read, not ordered."""
    text = _without_last_results(text)
    found = [*_lab_tests(text), *_grouped_tests(text)]
    joined = _joined_tests(_low(text)) if found or _low(text) else []
    every = [*found, *joined]
    return list(dict.fromkeys(every)) if len(set(every)) >= 2 else found


def _grouped_tests(text: str | None) -> list[str]:
    """The tests a word orders together (``lab_groups``: "clotting", "coag screen", "bilan
    d'hémostase", "coagulograma": the INR and the aPTT)."""
    groups = table().get("lab_groups") or {}
    named = _named(text, {k: {"names": g["names"]} for k, g in groups.items()}, "names")
    return [t for k in named for t in groups[k]["tests"]]


# a list's separator before or after a word ("BH, QS y ES mañana"); after it, a time word counts
# ("+", "&", "/" stand alone: "U&Es" is one word, never "U" and "ES")
_SEP_BEFORE = re.compile(r"(?:^|[,;:]|(?:^|\s)[+&/]|\b(?:and|et|e|y)\b)\s*$")
_SEP_AFTER = re.compile(r"^\s*(?:$|[,;]|[+&/](?:\s|$)|(?:and|et|e|y)\b)")


def _joined_tests(low: str) -> list[str]:
    """The tests named by a short word that is an ordinary word too (``joined_names``: "es",
    "qs"), read only between a list's separators or the message's ends, the word after it a
    separator, the end or a time ("BH, QS y ES mañana 7am"; never "es urgente", "la TA es 140")."""
    out = []
    for entry, d in table()["lab_tests"].items():
        for name in d.get("joined_names", ()):
            for m in re.finditer(rf"(?<![a-z]){re.escape(name)}(?![a-z])", low):
                after = low[m.end():]
                at = when.starts(after)
                # a time or a priority ends the list; never after the message's first word ("es
                # urgente: BH y QS")
                ends = low[:m.start()].strip() != "" and (
                    (at is not None and at <= 1) or priority(after[:20]) is not None)
                if _SEP_BEFORE.search(low[:m.start()]) and (_SEP_AFTER.match(after) or ends):
                    out.append(entry)
    return out


def last_result_named(text: str | None) -> bool:
    """A result named as the last one ("sa dernière HbA1c", "su último potasio"): read from the
    chart beside a lab order, even one whose panel holds it ("… y pídele un ionograma")."""
    from ...knowledge import analytes

    masked = _without_last_results(text)
    return len(analytes.all_named_in(masked)) < len(analytes.all_named_in(_low(text)))


def _without_last_results(text: str | None) -> str:
    """``text`` (folded) with each test named as the last result blanked ("donne-moi sa
    dernière HbA1c et demande une NFS": the HbA1c is asked of the chart, the NFS ordered),
    unless a word does a test again ("repeat the last INR")."""
    low = _low(text)
    if _redone(low):
        return low
    said = table().get("last_result") or {}
    words, between, times = ("|".join(re.escape(w) for w in sorted(said.get(k) or (), key=len,
                                                                    reverse=True))
                             for k in ("words", "between", "not_before"))
    if not words:
        return low
    # the last-word, what may stand between, then the words up to the clause's end or "and";
    # never a time's "last" ("last week", "last 48h")
    last = re.compile(rf"(?<![a-z])(?:{words})(?![a-z])(?!\s*(?:\d|(?:{times})(?![a-z])))"
                      rf"((?:\s*(?:{between})(?![a-z]))*\s*)"
                      r"([^,;.?!]*?)(?=\s+(?:and|et|e|y|puis|then|depois|luego)\s|[,;.?!]|$)")
    return last.sub(lambda m: m.group(0)[: m.start(2) - m.start(0)] + " " * len(m.group(2)), low)


def _lab_tests(text: str | None) -> list[str]:
    named = _named(text, table()["lab_tests"], "names")
    if _DOSE.search(_low(text)):
        return named
    listed = {k: d for k, d in table()["lab_tests"].items() if d.get("list_names")}
    also = _named(text, listed, "list_names")
    if not named and len(also) == 1 and _TIMED_LINE.match(_low(text)):
        return also  # "kaliémie demain 8h", "potássio amanhã às 8h": one test timed ahead
    if not named and len(also) == 1 and _redone(_low(text)):
        return also  # "recontrôler la kaliémie", "repetir potasio": a drug is never done again
    if not named and len(also) == 1 and _counted_for_later(_low(text), also[0]):
        return also  # "can we get a potassium at 6 tomorrow?": one result, taken at a time
    if not named and len(also) == 1 and _with_the_bloods(_low(text)):
        return also  # "potassium on the am bloods pls": sent with the ward's sample
    if not named and len(also) == 1 and _ordered_ahead(text or ""):
        return also  # "check her K tomorrow": a test ordered for a time ahead
    if not also or len(set(named) | set(also)) < 2 or not _LISTED.search(_low(text)):
        return named
    if not named and when.starts(text or "") is None and priority(text) is None:
        return named  # "start magnesium and potassium": drugs, unless timed like an order
    return _named(text, {k: {"names": [*d["names"], *d.get("list_names", ())]}
                         for k, d in table()["lab_tests"].items()}, "names")


# one test's word opening a line timed on a day ahead, with a clock time and nothing else
# before the time ("kaliémie demain 8h", "potassium tomorrow 8am", "potasio mañana a las 8")
# ... or with the part of the day for a clock ("potassium tmrw am pls", "kaliémie demain matin")
_TIMED_LINE = re.compile(r"^[a-z+]{1,12}\s+(?:(?:tomorrow|tmrw|tmr|demain|amanha|manana)\b"
                         r"(?:\s+(?:at|a|as|a las|vers|morning|matin|de manha|por la manana))*"
                         r"(?:\s*\d{1,2}(?:[:h.]\d{2})?\s*(?:am|pm|h|hrs?)?"
                         r"|\s+(?:am|pm|morning|matin|manha|manana))"
                         # ... or hours ahead ("K+ in 4 hours please", "kaliémie dans 6h")
                         r"|(?:in|dans|em|en|daqui a)\s+\d{1,2}\s*"
                         r"(?:hours?|hrs?|h|heures?|horas?)\b)"
                         r"(?:\s+(?:pls|please|plz|svp|stp|por favor|pf))?\s*[.!]*$")


# the ward's next sample a test is sent with ("on the am bloods", "with the next bloods",
# "avec le bilan de demain"), no form of the drug said: a word that is a drug and a test is
# the test (a drug is given, never sent with a sample)
_BLOODS = re.compile(r"\b(?:on|with|in|to|avec|com|con)\s+(?:the\s+|le\s+|os\s+|las\s+)?"
                     r"(?:next\s+|am\s+|morning\s+|routine\s+|tomorrow'?s?\s+|today'?s?\s+)?"
                     r"(?:bloods|labs|bilan|exames|analiticas?)\b")


_GIVEN = re.compile(r"\b(?:start|give|commence|begin|prescribe|replace|top up|iniciar|donner|"
                    r"dar)\b")


def _ordered_ahead(text: str) -> bool:
    """A word of ordering a test and a time ahead, no form of a drug nor a word of giving one
    ("check her K tomorrow", "order a magnesium for 6am"): a drug is given, never checked."""
    low = _low(text)
    ordering = says_any(text, "lab_order_words") or says_any(text, "check_words") or (
        says_any(text, "check_participles") and bool(_DAY_AHEAD.search(low)))
    return ordering and when.starts(text) is not None and not _given_as_drug(low)


# a day or an hour ahead ("tomorrow", "tonight", "in 6 hours", "on monday", "demain", "amanhã",
# "mañana"): what a participle of doing a test again needs to be an order
_DAY_AHEAD = re.compile(r"\b(?:tomorrow|tmrw|tmr|tonight|later|next|in \d+|in an? |monday|tuesday|"
                        r"wednesday|thursday|friday|saturday|sunday|demain|ce soir|dans \d+|"
                        r"amanha|logo|daqui a|manana|esta noche|en \d+)\b")


def _with_the_bloods(low: str) -> bool:
    return bool(_BLOODS.search(low)) and not _given_as_drug(low)


def _drug_form(low: str) -> bool:
    """A form of the drug said ("a potassium supplement", "KCl", "iv"): the word is the drug."""
    return any(_words(w).search(low) for w in table()["redo_words"]["not_with"])


def _given_as_drug(low: str) -> bool:
    """A form of the drug or a word of giving one ("start potassium …"): never the test."""
    return _drug_form(low) or bool(_GIVEN.search(low))


# an article counting the test, in each language ("get a potassium", "une kaliémie demain")
_ONE = r"(?:a|an|another|one more|un|une|um|uma|otro|otra|outro|outra)"


def _counted_for_later(low: str, test: str) -> bool:
    """A word that is a drug and a test, counted as one ("a potassium", "another K") and timed
    ahead ("at 6 tomorrow", "in the morning"), no form of the drug said ("a potassium
    supplement"): one result to be taken, the test. A drug is given, not had at a time."""
    names = table()["lab_tests"][test]["list_names"]
    counted = any(re.search(rf"(?<![a-z]){_ONE}\s+{re.escape(n)}\+?(?![a-z])", low)
                  for n in names)
    return counted and not _drug_form(low) and when.starts(low) is not None


def _redone(low: str) -> bool:
    """A word that does a test again ("recheck", "recontrôler", "repetir", "refazer")."""
    said = table()["redo_words"]
    return any(_words(w).search(low) for w in said["words"]) and not any(
        _words(w).search(low) for w in said["not_with"])


def counted_sets(text: str | None) -> bool:
    """A count of a test drawn in sets ("hemocultivos x2", "2 hemocultivos", "blood cx x 2"): an
    order of that many sets. A count of any other test ("k x3") asks for its last results."""
    sets = {k: d for k, d in table()["lab_tests"].items() if d.get("sets")}
    return bool(_named(text, sets, "names")) and bool(_COUNT.search(_low(text)))


# a count: "x2", "x 2", "2x", "2 sets", or a number leading the message ("2 hemocultivos")
_COUNT = re.compile(r"\bx\s?\d\b|\b\d\s?x\b|\b\d\s+(?:sets?|paires?|pares?|frascos?|flacons?)\b"
                    r"|^\s*\d\s+[a-z]")
# a dose said ("potassium 40 mmol", "magnesio 2 g"): the words are a drug, not a test
_DOSE = re.compile(r"\d\s*(?:mg|g|mmol|meq|mcg|ml|units?)\b")
# tests written as a list: "," "+" "&" "/" or and/et/e/y between them
_LISTED = re.compile(r"[,+&/]|\b(?:and|et|e|y)\b")


# a list's separators: "," ";" a spaced "+" or "&", and/et/e/y/plus; "u+e" is one item
_ITEM_SEPARATOR = re.compile(r"\s*(?:[,;]|\s[+&]\s|\b(?:and|et|e|y|plus)\b)\s*")
_CLAUSE = re.compile(r"[.:?!\n]|\s[-\u2013]\s")
_ITEM = re.compile(r"[a-z0-9][a-z0-9+/&.'-]{0,14}(?: [a-z0-9][a-z0-9+/&.'-]{0,6})?")


def unread_tests(text: str | None) -> list[str]:
    """Items of a list of tests that the lab table does not name ("fbc, u+e and inr tomorrow":
    "u+e" when the table lacks it): one short word each, beside at least one test the table
    names, said so that no test of a list is dropped without a word."""
    low = _low(text)
    tests = table()["lab_tests"]
    names = [n for d in tests.values() for n in [*d["names"], *d.get("list_names", ())]]
    spans = sorted((start, start - width) for start, width, _ in _found(low, [*tests, *names]))
    if not spans:
        return []
    marked = list(low)
    for start, end in spans:
        marked[start:end] = "\x00" * (end - start)
    out: list[str] = []
    for clause in _CLAUSE.split("".join(marked)):
        items = [i.strip() for i in _ITEM_SEPARATOR.split(clause) if i.strip()]
        if len(items) < 2 or not any("\x00" in i for i in items):
            continue
        for item in items:
            cut = when.starts(item)
            word = _without_list_words((item[:cut] if cut else item).strip())
            if "\x00" not in word and _ITEM.fullmatch(word) and _not_a_list_word(word):
                out.append(word)
    return list(dict.fromkeys(out))


def _without_list_words(item: str) -> str:
    """The item without the courtesy and order words around it ("free t4 please": "free t4")."""
    words, stop = item.split(), table()["list_words_not_tests"]
    while words and words[-1] in stop:
        words.pop()
    while words and words[0] in stop:
        words.pop(0)
    return " ".join(words)


def _not_a_list_word(word: str) -> bool:
    """A word that may be a test's short name: no word of ordering, time or courtesy ("pls",
    "stat", "order"), no number alone (``list_words_not_tests``)."""
    stop = table()["list_words_not_tests"]
    return not word.isdigit() and not any(w in stop for w in word.split())


def lab_test(key: str) -> dict[str, Any]:
    return dict(table()["lab_tests"][key])


def specialties(text: str | None) -> list[str]:
    return _named(text, table()["specialties"], "words")


def specialty(key: str) -> dict[str, Any]:
    return dict(table()["specialties"][key])


def priority(text: str | None) -> str | None:
    """stat | asap | urgent when the words say so; None (routine) otherwise."""
    low = _low(text)
    return next(
        (
            p
            for p, words in table()["priorities"].items()
            if any(_words(w).search(low) for w in words)
        ),
        None,
    )


def samples_ahead(text: str | None) -> bool:
    """The ward's sample named for a day or an hour ahead ("bloods tomorrow", "bilan demain
    matin", "exames amanhã cedo"); never this morning's ("her bloods this morning")."""
    return says_any(text, "sample_words") and bool(_DAY_AHEAD.search(_low(text)))


def kept_tests(text: str | None) -> list[str]:
    """The tests named after a word of keeping ("drop the FBC, just the INR", "annule la NFS,
    garde l'INR", "tira o hemograma, deixa só o INR"): those a cancel beside them leaves."""
    low = _low(text)
    m = _KEEP.search(low)
    if not m:
        return _said_to_stand(low)
    # the keep's own clause only: "keep the hba1c, bin the lipids" keeps the HbA1c, never the
    # lipids the clause after it cancels
    rest = low[m.end():]
    cancel = _CANCEL_AFTER.search(rest)
    return lab_tests(rest[:cancel.start()] if cancel else rest)


def _said_to_stand(low: str) -> list[str]:
    """The tests of a clause of their own that says they stand, beside another that cancels
    ("scrap the b12, tsh is fine", "drop the lipids - the a1c can stay"): the clause is only
    the tests and a word of ``kept_after_words`` at its end; none where no clause cancels."""
    clauses = _CLAUSES.split(low)
    if len(clauses) < 2 or not any(_CANCEL_OPENS.match(c) for c in clauses):
        return []
    stands = _stands()
    kept: list[str] = []
    for clause in clauses:
        m = stands.search(clause)
        if m and not _CANCEL_OPENS.match(clause):
            kept += [t for t in lab_tests(clause[:m.start()]) if t not in kept]
    return kept


_CLAUSES = re.compile(r"\s*[,;]\s*|\s+[-\u2013\u2014]\s+|\s+(?:but|mais|mas|pero)\s+")
# the verbs that cancel a test, in a clause of their own or after a keep
_CANCEL_VERBS = (r"(?:cancel|drop|ditch|bin|scrap|remove|delete|lose|stop|annule|annuler|enleve|"
                 r"supprime|tira|cancela|anula|quita)(?![a-z])")
_CANCEL_OPENS = re.compile(rf"^(?:(?:no|ok|actually|and|then|et|e|y)[\s,]+)*{_CANCEL_VERBS}")


@lru_cache(maxsize=1)
def _stands() -> re.Pattern[str]:
    words = sorted(table()["kept_after_words"], key=len, reverse=True)
    return re.compile(rf"\s(?:{'|'.join(re.escape(fold(w).lower()) for w in words)})[\s.!]*$")


# a clause after the keep that opens with a cancel verb ("…, bin the lipids", "… - drop the FBC")
_CANCEL_AFTER = re.compile(r"(?:\s*[,;]\s*|\s+[-\u2013\u2014]\s+|\s+(?:but|mais|mas|pero)\s+)"
                           rf"(?:(?:and|then|et|e|y)\s+)?{_CANCEL_VERBS}")


_KEEP = re.compile(r"(?<![a-z])(?:just|only|keep|leave|garde|gardez|laisse|seulement|juste|"
                   r"mantem|mantenha|mantener|manten|deixa|so|apenas|solo|deja|dejame)(?![a-z])")


def any_tests(text: str | None) -> list[str]:
    """Every test of the table ``text`` names, by a word that is a drug too as well ("and a
    magnesium with it"): for a follow-up to pending lab orders only."""
    return _named(text, {k: {"names": [*d["names"], *d.get("list_names", ())]}
                         for k, d in table()["lab_tests"].items()}, "names")


def says_any(text: str | None, key: str) -> bool:
    """Any phrase of the list ``key`` of the table in ``text`` (whole words)."""
    low = _low(text)
    return any(_words(w).search(low) for w in table()[key])


# between the opinion's word and the specialty: "avis de l'hémato", "parecer da cardio"
_OF = (r"(?:(?:de|du|des|d|da|do|de la|en|em|a|al|por|pela|pelo|of|from|with)\s+)?"
       r"(?:(?:l|la|le|a|o|el)\s+)?")


@lru_cache(maxsize=1)
def _opinion() -> re.Pattern[str]:
    words = sorted({w for d in table()["specialties"].values() for w in d["words"]}, key=len,
                   reverse=True)
    asks = "|".join(re.escape(w) for w in table()["opinion_words"])
    named = "|".join(re.escape(w) for w in words)
    after = "|".join(re.escape(w) for w in table()["opinion_after_words"])
    # ... or said after it, as a request ("ortho consult pls", "cardiology opinion re her
    # murmur", "ortho consult - …"); never a consult told or asked ("did ortho consult him?",
    # "what did the ortho consult say?", "ortho consult?")
    asked = r"(?=\s*(?:$|[,.:;!\-\u2013\u2014]|(?:pls|please|plz|for|re|about|regarding|svp)\b))"
    return re.compile(rf"(?<![a-z])(?:(?:{asks})\s+{_OF}(?:{named})(?![a-z])"
                      rf"|(?:{named})\s+(?:{after}){asked})")


def asks_opinion(text: str | None) -> bool:
    """A colleague's opinion asked of a specialty ("avis hémato pour son INR", "valoración por
    nefrología"): a referral, like "refer to"; "ton avis ?" or "parecer favorável" name none."""
    return bool(_opinion().search(_low(text).replace("'", " ")))


# ------------------------------------------------------------------ referral text
# a quoted passage: in double quotes, or in single quotes that stand outside a word (an
# apostrophe between letters is an elision, "l'épaule", "d'un", never a quote)
_QUOTED = re.compile(r"[\"“”]([^\"“”]{12,})[\"“”]|(?<!\w)'([^'\"“”]{12,})'(?!\w)")
# SBAR's first heading in each language: Situation, Situação, Situación
_SBAR = re.compile(r"\bSitua(?:tion|[çc][ãa]o|ci[óo]n)\s*:.*", re.S | re.I)
# the label before a referral's free text: "note:", "free text:", "nota:", "texto libre:", "SBAR:"
# or "SBAR -" (its own S/B/A/R headings follow) …
_NOTE = re.compile(r"\b(?:note|notes|free text|nota|texte libre|texto libre|texto livre)\s*:"
                   r"|\bsbar\s*[:\-\u2013]", re.I)
# "refer to ortho: Fell from a ladder …", "adresser en orthopédie : …", "demande d'avis
# orthopédique : …", "parecer da ortopedia: …": the text after the colon that closes the
# referral's own words is the clinician's note; a dash between spaces closes them too ("ortho
# consult pls - old clavicle fracture, still painful")
_REFERRAL_COLON = re.compile(
    r"\b(?:refer\w*|adress\w*|orient\w*|encaminh\w*|referenci\w*|deriv\w*|interconsulta|avis|"
    r"parecer|remit\w*|consult)\b"
    r"[^:\n.?!\-\u2013\u2014]{0,60}(?::(?!\d)|\s[-\u2013\u2014](?=\s))\s*", re.I)
# "for knee pain", fr "pour son INR instable", pt "por FA com INR lábil", es "por el INR"
_REASON = re.compile(
    # the article is a whole word: "for anticoag review" keeps its "a"
    r"\b(?:for|pour|para|pra|por)\s+(?:(?:her|his|their|the|son|sa|ses|le|la|les|o|a|os|as|el|su|sus)\s+)?"
    r"([a-zà-ÿ][a-zà-ÿ0-9 ,'/-]{2,80}?)"
    r"(?=\s*(?:[.;!?]|$|\bwith\b|\bplease\b|\bspecify\b|\bnote\b|\bsvp\b|\bpls\b"
    r"|,\s*(?:situation|background)))",
    re.I,
)


def referral_note(text: str) -> str | None:
    """The clinician's own text for the referral, verbatim: a quoted passage, else the SBAR
    from "Situation:" on, else what follows "note:"."""
    quoted = [(m.group(1) or m.group(2)).strip() for m in _QUOTED.finditer(text)]
    if quoted:
        return max(quoted, key=len)
    sbar = _SBAR.search(text)
    if sbar:
        return sbar.group(0).strip()
    label = _NOTE.search(text) or _REFERRAL_COLON.search(text)
    return text[label.end():].strip() or None if label else None


def referral_reason(text: str, specialty_key: str | None = None) -> str | None:
    """"for knee pain" → knee pain (never the specialty itself, nor a patient's id)."""
    words = set(specialty(specialty_key)["words"]) | {specialty_key} if specialty_key else set()
    for m in _REASON.finditer(_SBAR.split(text)[0]):
        said = _after_specialty(m.group(1).strip(" ,"), words)
        if said and said.lower() not in words and not re.search(r"\d{3,}|\bpatient\b", said, re.I):
            return said
    return None


def _after_specialty(said: str, words: set[str]) -> str:
    """"cardiologia - FA com INR lábil" (to the specialty, then why): what follows it."""
    head, *rest = re.split(r"\s+[-\u2013]\s+|\s*:\s*", said, maxsplit=1)
    why = rest[0].strip() if rest else ""
    return why if why and fold(head).lower() in words else said


# ------------------------------------------------------------------ vital signs
@dataclass(frozen=True)
class Reading:
    """One vital sign as said: its table key, the values in the recorded unit, the words."""

    vital: str
    values: tuple[float, ...]  # one value, or systolic and diastolic
    said: str
    # the words of its own time when one message says a sign twice at two times ("CBG 3.1 at
    # 02:30, repeat 6.4 at 02:50"): each reading is recorded at its own; "" when one time serves
    clock: str = ""

    @property
    def entry(self) -> dict[str, Any]:
        return dict(table()["vital_signs"][self.vital])

    def as_written(self) -> str | None:
        """The value in the unit the clinician wrote it in, when it was converted for the record
        ("3.2 mmol/L" for a capillary glucose recorded as 57.65 mg/dL); None when unconverted."""
        if self.said.endswith(" cmHg"):  # "16/9 cmHg", recorded as 160/90 mmHg
            return self.said
        m = re.match(r"(\d+(?:\.\d+)?)\s*([a-z°%/ ]*)", self.said, re.I)
        if not m or len(self.values) != 1 or abs(float(m.group(1)) - self.values[0]) < 1e-9:
            return None
        entry, number = self.entry, float(m.group(1))
        unit = next((u for u in sorted(entry["units"], key=len, reverse=True)
                     if m.group(2).strip().lower().startswith(u)), None)
        if unit is None:
            below = entry.get("mmol_below")
            unit = "mmol/L" if below is not None and number < below else "°F"
        return f"{number:g} {unit}"


# between a word of recording and the vital sign it names: "record a blood pressure",
# "chart her temp", "noter une tension", "registar a pressão arterial"
_BEFORE_VITAL = (r"(?:\s+(?:a|an|the|her|his|their|new|another|un|une|la|le|sa|son|uma|um|o|"
                 r"una|el|su|nova|nueva|nouvelle))*")


def vital_to_record(text: str | None) -> str | None:
    """The vital sign a message asks to record without its value ("I'd like to record a blood
    pressure", "chart a temp please"): its table key; None when a number is said (a reading, or
    something else) or the message asks a question. The reading is then asked, never guessed."""
    low = _low(text)
    if re.search(r"\d", low) or "?" in (text or ""):
        return None
    said = "|".join(re.escape(w) for w in sorted(table()["record_words"], key=len, reverse=True))
    for key, entry in table()["vital_signs"].items():
        names = [w for w in (key, *entry["words"]) if len(w) > 1]
        named = "|".join(re.escape(w) for w in sorted(names, key=len, reverse=True))
        if re.search(rf"(?<![a-z])(?:{said}){_BEFORE_VITAL}\s+(?:{named})(?![a-z0-9])", low):
            return str(key)
    return None


# "37,9" is 37.9 in French, Portuguese and Spanish; "150/95, hr 88" keeps its comma
_DECIMAL_COMMA = re.compile(r"(\d),(\d{1,2})(?!\d)")
# the pair's two numbers as said aloud too ("13 por 8", "120 over 80", "15 sur 9", the Spanish
# "150 sobre 95"), never a span ("10 por 8 horas")
_PAIR_SAID = (r"(?:\s*[/x×]\s*|\s+(?:por|sur|over|sobre)\s+)")
# ("hr 96" after "bp 172/104" is the heart rate, so "h" and "hr" are no span here)
_NOT_A_SPAN = (r"(?!\s*(?:horas?|heures?|hours?|dias?|días|jours?|days?|minutos?|minutes?|"
               r"semanas?|semaines?|weeks?)\b)")
_PAIR = re.compile(rf"(\d{{2,3}}){_PAIR_SAID}(\d{{2,3}})(?!\d){_NOT_A_SPAN}")  # "150/95", "150x95"
_NUMBER = r"(\d{1,4}(?:\.\d+)?)"
# the second number of a pair right after a value ("122/78", "122 over 78")
_PAIR_AFTER = re.compile(rf"{_PAIR_SAID}\d{{2,3}}(?!\d)")


_ORDINAL_T = re.compile(r"(?<![\w])[Tt]\s?[ªº]")


def readings(text: str | None) -> list[Reading]:
    """The vital signs ``text`` states with a value ("BP 150/95", "temp 38.2", "sats 94%")."""
    # es "Tª 38,4": the ordinal sign folds to "a" ("ta", blood pressure): the temperature first
    # "pouls nonante-six": the value dictated in words after the sign's word, in digits
    # "glicemia zero vírgula cinco": a decimal dictated in words, in digits too
    said = decimals_in_digits(signs_in_digits(_ORDINAL_T.sub("temp", text or "")))
    said = _in_sign_order(_pressure_halves(_DECIMAL_COMMA.sub(r"\1.\2", fold(said))))
    out: list[Reading] = []
    for key, entry in table()["vital_signs"].items():
        found = _reading(said, key, entry)
        if found:
            out.append(found)
            if entry.get("pair") and len(found.values) == 2:
                placed = _pairs_by_position(said, key, found)
                out.extend(placed)
                if not placed:
                    out[-1:] = _pairs_again(said, key, found)
            elif not entry.get("pair"):
                out[-1:] = _repeated(said, key, entry, found)
    return out


@cache
def _halves() -> re.Pattern[str]:
    halves = table()["pressure_halves"]
    systolic, diastolic = (
        "|".join(re.escape(w) for w in sorted(halves[k], key=len, reverse=True))
        for k in ("systolic", "diastolic"))
    return re.compile(rf"(?<![a-z0-9])(?:{systolic})\s*[:=]?\s*(\d{{2,3}})(?!\d)[\s,;]*"
                      rf"(?:{diastolic})\s*[:=]?\s*(\d{{2,3}})(?![\d.])", re.I)


def _pressure_halves(said: str) -> str:
    """A pressure said as its halves ("TAS 90 TAD 60", "sbp 88 dbp 50"): said as one pair
    ("bp 90/60"), so neither half is dropped nor read as another sign."""
    return _halves().sub(lambda m: f"bp {m.group(1)}/{m.group(2)}", said)


@cache
def _before_sign() -> re.Pattern[str] | None:
    words = [w for key in table()["value_before_sign"]
             for w in (key, *table()["vital_signs"][key]["words"]) if len(w) > 2]
    if not words:
        return None
    named = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\d.])(\d{{2,3}}(?:\.\d)?)\s*(?:°\s*c?)?\s+(?:de|d')\s*"
                      rf"({named})(?![a-z0-9])", re.I)


def _in_sign_order(said: str) -> str:
    """A value said before its sign with "de" ("tuvo 39.2 de temp", "38,5 de febre"): the sign's
    word put before it, as the reading is read everywhere else."""
    pattern = _before_sign()
    if pattern is None:
        return said

    def reordered(m: re.Match[str]) -> str:
        key = _sign_of(m.group(2))
        low, high = table()["vital_signs"][key]["plausible"]
        fahrenheit = table()["vital_signs"][key].get("fahrenheit_above")
        value = float(m.group(1))
        plausible = low <= value <= high or bool(fahrenheit and 86 <= value <= 113)
        return f"{m.group(2)} {m.group(1)}" if plausible else m.group(0)

    return pattern.sub(reordered, said)


def _sign_of(word: str) -> str:
    """The sign of ``value_before_sign`` a word names."""
    low = word.lower()
    return str(next(k for k in table()["value_before_sign"]
                    if low == k or low in table()["vital_signs"][k]["words"]))


@cache
def _recheck_words() -> re.Pattern[str]:
    words = sorted(table()["reading_rechecks"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(w) for w in words)})(?![a-z])"
                      r"\s*(?:(?:of|de|was|is|:|=|-|a|at)\s*)?(?=\d)", re.I)


def _repeated(text: str, key: str, entry: dict[str, Any], first: Reading) -> list[Reading]:
    """The first reading of a sign and the same sign said again, after a word of rechecking or
    its own word, with its own value ("CBG 3.1 at 02:30, treated, repeat 6.4 at 02:50",
    "glycémie 0,55 g/l à 3h, contrôle 1,10 g/l à 3h30", "BM 2.8 at 04:00 … BM 5.9 at 04:20"),
    each with the words of its own time; [first] as read when no plausible value follows."""
    low = fold(text).lower()
    word = _vital_words(key).search(low)
    if not word:
        return [first]
    # a word of rechecking, or the sign's own word said again ("BM 2.8 at 04:00, hypostop
    # given, BM 5.9 at 04:20")
    marks = sorted((m for m in (*_recheck_words().finditer(low), *_vital_words(key).finditer(low),
                                *_TIMED_AGAIN.finditer(low))
                    if m.start() > word.end()), key=lambda m: m.start())
    repeats = []
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(low)
        again = _reading(f"{word.group(0)} {low[m.end():end]}", key, entry)
        if again and not implausible(again) and _value_alone(low[m.end():end], entry):
            repeats.append(replace(again, clock=low[m.end():end]))
    if not repeats:
        return [first]
    return [replace(first, clock=low[word.end():marks[0].start()]), *repeats]


# the sign's value said again after "and" with its own time ("BMs 4.1 at 0600 and 12.3 at 1200",
# "temp 38.1 à 2h et 37.2 à 6h"): a second reading, never a count or a dose ("and 2 given")
_TIMED_AGAIN = re.compile(r"(?<![a-z])(?:and|then|et|puis|e|y|luego|depois)\s+"
                          r"(?=\d+(?:[.,]\d+)?\s*\S{0,6}\s*(?:at|@|a|as|a las|ce|h)\s*\d)")


def _value_alone(said: str, entry: dict[str, Any]) -> bool:
    """The number after a recheck word stands as the sign's value: its unit or nothing, then a
    time, a stop or the end ("repeat 6.4 at 02:50"), never a dose ("cbg 8 after 4 units")."""
    units = "|".join(re.escape(u) for u in sorted(entry["units"], key=len, reverse=True))
    return bool(re.match(rf"\s*\d+(?:[.,]\d+)?\s*(?:(?:{units})(?![a-z]))?\s*"
                         r"(?:$|[,.;)\-]|(?:at|a|as|a las|@|h|on|in|ce|esta|this)\b|\d)", said))


@cache
def _position_words() -> re.Pattern[str]:
    words = sorted(table()["reading_positions"], key=len, reverse=True)
    return re.compile(rf"(?<![a-z])(?:{'|'.join(re.escape(w) for w in words)})(?![a-z])", re.I)


def _pairs_by_position(text: str, key: str, first: Reading) -> list[Reading]:
    """The same pressure said again in another position or arm ("bp 168/98 sitting, 160/95
    standing"): each pair after the first one with a position word right beside it (the first
    too), so a second reading is never dropped unsaid; none when no position is said."""
    low = fold(text).lower()
    pairs = list(_PAIR.finditer(low))
    placed = [p for p in pairs if _position_words().search(
        low[max(0, p.start() - 16):p.start()] + " | " + low[p.end():p.end() + 16])]
    if len(placed) < 2 or not any(p.group(0) == first.said for p in placed):
        return []
    return [Reading(key, (float(p.group(1)), float(p.group(2))), p.group(0))
            for p in placed if p.group(0) != first.said]


def _pairs_again(text: str, key: str, first: Reading) -> list[Reading]:
    """The same pressure said again after "and" with its own time ("PA 170x100 às 6h e 150x90
    às 7h", "BP 160/95 at 06:00 and 150/90 at 07:00"): the first with the words of its own time,
    then each again with theirs; [first] as read when no pair follows so."""
    low = fold(text).lower()
    marks = [m for m in _TIMED_AGAIN.finditer(low) if _PAIR.match(low, m.end())]
    at = low.find(first.said)
    if not marks or at < 0 or marks[0].start() < at:
        return [first]
    again = [Reading(key, (float(p.group(1)), float(p.group(2))), p.group(0), clock=low[m.end():])
             for m in marks if (p := _PAIR.match(low, m.end()))]
    return [replace(first, clock=low[at:marks[0].start()]), *again]


@cache
def _vital_words(key: str) -> re.Pattern[str]:
    """Any word of the vital sign ``key``, longest first."""
    words = [key, *table()["vital_signs"][key]["words"]]
    names = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9])(?:{names})(?![a-z0-9])", re.I)


# a number read as a sign's value that is a clock time: "3h", "22h30", "3 h da manhã", "22:00"
# ("temp 38.4 hr 104": "hr" before a number is the heart rate; an hour or a span is whole)
_CLOCK_AFTER = re.compile(r"(?:h(?:\d{2})?(?![a-z])|hrs?(?![a-z])(?!\s*\d)|:\d{2}(?!\d))", re.I)
_WAS_VALUE = re.compile(rf"\b(?:was|is|foi|era|e|fue|es|etait|est)\s+(?:(?:a|de|of|at)\s+)?"
                        rf"{_NUMBER}\s*([a-z°%/ ]{{0,20}})", re.I)


# the time it was taken said between the sign and its value ("sugar this morning was 14", "bm
# at 7 was 3.2", "glycémie ce matin était à 2,1", "glucosa esta mañana fue 250"): the value
# after its verb of being
_TIMED_BETWEEN = re.compile(
    r"\s*(?:this|last|earlier|yesterday|today|tonight|overnight|ce|cette|hier|esta|este|anoche|"
    r"ayer|hoje|ontem|de|da|at|@|a|à|as|a las)?\s*(?:morning|am|a\.m\.|pm|evening|night|afternoon|"
    r"matin|soir|nuit|manana|tarde|noche|manha|noite|\d{1,2}(?::\d{2})?\s*(?:am|pm|h)?)\s*,?"
    r"\s*(?:was|is|foi|era|fue|etait|est)\s+(?:(?:a|de|of|at|à)\s+)?"
    rf"{_NUMBER}\s*([a-z°%/ ]{{0,20}})", re.I)


def _reading(text: str, key: str, entry: dict[str, Any]) -> Reading | None:
    for m in _vital_words(key).finditer(text):
        after = text[m.end():m.end() + 120]
        timed = None if entry.get("pair") else _TIMED_BETWEEN.match(after)
        if timed and _plausible_word(key, m.group(0), timed, entry):
            return _valued(key, m.group(0), timed, entry)
        if entry.get("pair"):
            small = _in_cmhg(after, entry)
            if small:
                return small
            pair = _PAIR.search(after)
            if pair:
                return Reading(key, (float(pair.group(1)), float(pair.group(2))), pair.group(0))
            continue
        # "il sature à 92%", "pouls à 110", "satura a 91%": the value after "à/a" as after "at"
        value = re.match(
            rf"\s*(?:is|was|of|at|de|a|à|=|:|-|\.|'|\"|now|today)?\s*(?:is|was|of|at)?\s*['\"]?{_NUMBER}\s*"
            rf"([a-z°%/ ]{{0,20}})",
            after,
            re.I,
        )
        if value and _PAIR_AFTER.match(after, value.end(1)):
            # "p 122/78", "p one twenty two over seventy eight": a pressure's pair right after
            # the letter, never a single sign's value (the pulse would be its systolic)
            continue
        if (value and value.group(1).isdigit()  # "3h", "48h": an hour or a span, never a value
                and _CLOCK_AFTER.match(after[value.start(2):])):
            # "hgt de 3h da manhã foi 58": the hour it was taken, never its value; the value is
            # the number said after a verb of being ("foi 58", "était à 0,58", "fue de 250")
            value = _WAS_VALUE.search(after, value.end(1))
            if not value:
                continue
        if value and not _plausible_word(key, m.group(0), value, entry):
            continue
        if value:
            return _valued(key, m.group(0), value, entry)
    return _value_before(text, key, entry) or _apart_with_unit(text, key, _vital_words(key), entry)


def _value_before(text: str, key: str, entry: dict[str, Any]) -> Reading | None:
    """A single sign's value said before its word with "de" ("hizo 39.4 de temperatura", "tuvo
    39,2 de temp", "fez 38,9 de febre", "il a fait 39 de fièvre"), read only when the value is
    plausible for the sign ("dia 2 de febre", "5 de la mañana" are none); never a pair."""
    if entry.get("pair"):
        return None
    for m in _VALUE_BEFORE.finditer(text):
        word = _vital_words(key).match(text, m.end())
        if not word:
            continue
        found = _valued(key, word.group(0), m, entry)
        if implausible(found) is None:
            return found
    return None


# a number, its unit or none, then "de" (and an article) before the sign's word
_VALUE_BEFORE = re.compile(
    rf"(?<![\d.,/]){_NUMBER}(\s*(?:°c|°|%)?)\s+de\s+(?:(?:la|le|sa|su|a)\s+)?", re.I)


def _valued(key: str, word: str, value: re.Match[str], entry: dict[str, Any]) -> Reading:
    """The reading of the number ``value`` holds, in the recorded unit ("0,58" of a "dextro" is
    in g/L)."""
    unit = value.group(2)
    if _bare_g_l(entry, word, float(value.group(1)), unit):
        unit = "g/l"
    return Reading(key, (_in_unit(float(value.group(1)), unit, entry),),
                   f"{value.group(1)} {unit.strip()}".strip())


def _plausible_word(key: str, word: str, value: re.Match[str], entry: dict[str, Any]) -> bool:
    """A word of ``plausible_only`` ("febre", "fièvre", "fiebre", "glucose") names the sign only
    with a value in its plausible range once in the recorded unit ("glucose 3.1": 3.1 mmol/L) and
    no span after it ("febre de 38,7": a reading; "febre de 3 dias", "fiebre de 40 horas": none)."""
    if fold(word).lower() not in entry.get("plausible_only", ()):
        return True
    return (implausible(_valued(key, word, value, entry)) is None
            and not re.match(r"\s*(?:h|hr|hrs|hours?|heures?|horas?|d|days?|jours?|j|dias?)\b",
                             value.group(2), re.I))


def _apart_with_unit(text: str, key: str, word: re.Pattern[str],
                     entry: dict[str, Any]) -> Reading | None:
    """A sign whose value stands apart from its word, read only with its unit written
    (``apart_with_unit``: "weigh him and record it: 20.5 kg"), never a dose per unit ("mg/kg")."""
    if not entry.get("apart_with_unit"):
        return None
    units = "|".join(re.escape(u) for u in sorted(entry["units"], key=len, reverse=True))
    for m in word.finditer(text):
        after = text[m.end():m.end() + 60]
        value = re.search(rf"(?<![\d.]){_NUMBER}\s*({units})(?![a-z/])", after, re.I)
        if value:
            unit = value.group(2)
            return Reading(key, (_in_unit(float(value.group(1)), unit, entry),),
                           f"{value.group(1)} {unit}")
    return None


def _bare_g_l(entry: dict[str, Any], word: str, value: float, unit_words: str) -> bool:
    """A bare glycaemia after a French word, below the table's bound: in g/L."""
    rule: dict[str, Any] = entry.get("bare_g_l") or {}
    low = unit_words.strip().lower()
    written = any(re.match(rf"{re.escape(u)}(?![a-z])", low) for u in entry["units"])
    return bool(rule) and not written and word.lower() in rule["words"] and value < rule["below"]


_CMHG = re.compile(rf"\s*(?:[:=\-]|de|of|is|was|a)?\s*(\d{{1,2}}(?:\.\d)?){_PAIR_SAID}"
                   rf"(\d{{1,2}}(?:\.\d)?)(?![\d./]){_NOT_A_SPAN}(?:\s*cm\s*hg)?")


def _in_cmhg(after: str, entry: dict[str, Any]) -> Reading | None:
    """A pressure said in cmHg right after its word ("TA 16/9", "PA 12x8"), in mmHg."""
    bound = entry.get("cmhg")
    m = _CMHG.match(after)
    if not bound or not m:
        return None
    sys_, dia = float(m.group(1)), float(m.group(2))
    if not (dia < sys_ <= bound["systolic"] and dia <= bound["diastolic"]):
        return None
    said = f"{m.group(1)}/{m.group(2)} cmHg"
    return Reading("blood pressure", (float(round(sys_ * 10)), float(round(dia * 10))), said)


def _in_unit(value: float, unit_words: str, entry: dict[str, Any]) -> float:
    """The value in the recorded unit: a unit written converts by its factor; none written,
    the site's bare-number rules (°F above ``fahrenheit_above``, mmol/L below ``mmol_below``)."""
    low = unit_words.strip().lower()
    unit = next((u for u in sorted(entry["units"], key=len, reverse=True)
                 if re.match(rf"{re.escape(u)}(?![a-z])", low)), None)
    factor = entry["units"][unit] if unit else None
    if factor is None:
        if entry.get("fahrenheit_above") is not None and value > entry["fahrenheit_above"]:
            factor = "fahrenheit"
        elif entry.get("mmol_below") is not None and value < entry["mmol_below"]:
            factor = entry["units"]["mmol/l"]
        else:
            factor = 1
    if factor == "fahrenheit":
        return round((value - 32) * 5 / 9, 1)
    return round(value * float(factor), 2)


def implausible(reading: Reading) -> str | None:
    """Why a reading cannot be a real one (outside the table's ranges), or None."""
    entry, unit = reading.entry, reading.entry["unit"]["shown"]
    if entry.get("pair"):
        (low_s, high_s), (low_d, high_d) = (
            entry["components"][c]["plausible"] for c in ("systolic", "diastolic")
        )
        sys_, dia = reading.values
        if not (low_s <= sys_ <= high_s and low_d <= dia <= high_d) or dia >= sys_:
            return (f"A blood pressure of {_num(sys_)}/{_num(dia)} {unit} is not a "
                    f"plausible reading (systolic {low_s}–{high_s}, diastolic "
                    f"{low_d}–{high_d} {unit}, diastolic below systolic), so it was not "
                    f"recorded. Please check the reading and say it again.")
    else:
        low, high = entry["plausible"]
        if not low <= reading.values[0] <= high:
            return (
                f"{'An' if reading.vital[:1] in 'aeiou' else 'A'} {reading.vital} of "
                f"{_num(reading.values[0])} {unit} is not a plausible reading "
                f"({low}–{high} {unit}), so it was not recorded. "
                "Please check the reading and say it again."
            )
    return None


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def reading_text(reading: Reading) -> str:
    values = "/".join(_num(v) for v in reading.values)
    return f"{reading.vital} {values} {reading.entry['unit']['shown']}"
