"""What a clinician's message asks beyond its keywords, read from its structure (every language).

Keywords name most requests ("prescribe", "interactions", "dernière kaliémie"). Clinicians also
write requests that no keyword names; these are read here from what the message holds and how
it is built, with the words of ``drug_question`` and ``order_line`` in ``data/rules.yaml`` and each
language's ``agent/rules/<lang>.yaml``:

- a drug asked about for the patient in context — a word that asks (or a question mark) and a
  word for the patient, no other request ("is the lisinopril ok for her?", "anything about his
  metformin?", "Puis-je lui donner de l'ibuprofène ?", "paracetamol dose for him?"): the action
  ``give``, so the one safety check runs whatever the wording;
- an order written as a line without a verb ("salbutamol inh 2 puffs q4h prn wheeze"): the
  message starts with the drug and has a dose and a frequency, and asks nothing: ``order_line``;
- a dose without its unit right after the drug of an order that has a frequency ("cipro 500 bd
  x7d"): milligrams, as clinicians write it.
"""
from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from ..knowledge.mentions import DrugMention
from ..reading.drugs import replaced_drugs
from ..reading.people import fold_accents
from ..tools.words.dosing import NUMBER, amount
from .prompts import rules

_NUMBER = NUMBER
# what may follow a number that is a dose in mg: a frequency, a route, the end — never a unit
_UNIT_AFTER = re.compile(
    r"\s*(?:mg|g|mcg|ug|µg|micro\w*|ml|l|%|units?|unit[eé]s?|unidad\w*|iu|ui|u|/|puffs?|tabs?|"
    r"caps?|drops?|kg|x(?!\s*\d+\s*[/ ]\s*(?:j|jour|day|dia|día)\b)|fois|times|"
    r"vez|vezes|veces|par|por|ao|al|a day|daily|"
    # a unit written in full or another form is never read as milligrams ("50 micrograms")
    r"milli\w*|mili\w*|nano\w*|gram\w*|gms?|mgs|mls|mmol|meq|tablets?|capsules?|"
    r"sachets?|patch\w*|sprays?|vials?|amps?|ampoules?|suppositor\w*|nebs?)(?![a-z])",
    re.I,
)


@cache
def _words(*path: str) -> re.Pattern[str]:
    """Any phrase of the rules' list at ``path`` as whole words, on folded lower-case text."""
    table: Any = rules()
    for key in path:
        table = table[key]
    return re.compile(
        r"(?<![a-z'])(?:"
        + "|".join(map(re.escape, sorted(table, key=len, reverse=True)))
        + r")(?![a-z])"
    )


def asks_about_drug(low: str, actions: list[str], drugs: list[str], dosed: bool = False) -> bool:
    """A drug asked about for the patient in context (``low``: folded, lower case; ``dosed``: a
    dose is written, without which "give" orders nothing)."""
    rule = rules()["drug_question"]
    blocking = set(actions) & set(rule["not_with"]) - (set() if dosed else {"administer"})
    if not drugs:
        return False
    planned = _words("drug_question", "planned").search(f" {low} ")
    may_i = _words("drug_question", "may_i").search(f" {low} ") or planned
    # a bare "ok" asks only with a question mark: "ok start empagliflozin 10mg od" assents
    if may_i and may_i.group(0) in ("ok", "okay") and "?" not in low:
        may_i = None
    if may_i is None and "?" in low:  # "je mets du propranolol ?": an order verb asked
        may_i = _words("drug_question", "asked_verbs").search(f" {low} ")
    if blocking and blocking - set(rule.get("read_with") or ()) <= set(rule["writes"]) and may_i:
        # "Puis-je lui donner…", "ok to start…": an order word asked, for the patient in
        # context
        return True
    if blocking:
        return False
    if planned:
        return True
    if "check_interactions" in actions and len(drugs) >= 2:
        return False  # "is X ok with Y": the two named drugs, already an interaction question
    asking = "?" in low or bool(_words("drug_question", "asking").search(low))
    # "le pongo augmentine?", "dou dipirona?": the verb in the first person is for her
    return asking and bool(_words("drug_question", "patient").search(f" {low} ") or (
        may_i and "?" in low))


def order_line(
    low: str, actions: list[str], drugs: list[DrugMention], dose: dict[str, Any] | None
) -> bool:
    """An order without a verb: it starts with the one drug named, has a frequency, and asks
    nothing ("salbutamol inh 2 puffs q4h prn wheeze", "amoxicilline 1g x3/j pdt 7j"); without
    its dose ("cipro 2 fois par jour pendant 7 jours") the dose is asked, never guessed."""
    # "enalapril 10 c/12h en vez del lisinopril": the drug replaced is not a second order
    replaced = replaced_drugs(low, [(d.name, d.surface) for d in drugs if d.name])
    named = {d.name for d in drugs if d.name} - set(replaced)
    if len(named) != 1 or not dose or not dose.get("frequency") or "?" in low:
        return False
    if set(actions) & set(rules()["order_line"]["not_with"]) - {"order_lab", "refer"}:
        return False
    if _asked_tail().search(low):  # "naproxeno 500 c/12h, que te parece": asked, not ordered
        return False
    # "… and FBC tomorrow", "… and refer to ENT": a test or a referral in a clause of its own
    if {"order_lab", "refer"} & set(actions) and not _line_beside_a_test(low, drugs[0].surface):
        return False
    surface = drugs[0].surface.split()
    # "Dona Grace com amigdalite: amoxicilina 500 8/8h": the line after a heading that names
    # no drug is the order line
    head, colon, line = low.rpartition(":")
    starts = [low] + ([line] if colon and drugs[0].surface not in head else [])
    # "le petit fait 39 de fièvre, paracétamol 15 mg/kg toutes les 6h", "o miúdo tem febre,
    # paracetamol …": the line after a clause of her state that names no drug is the order line
    starts += _after_state_clause(low, drugs[0].surface)
    # "the reg wants naproxen 500 bd", "cont abx - amoxicillin 500 tds": the line after who asks
    starts += [_after_lead_in(said) for said in starts]
    # "also paracetamol 500mg qds", "et aussi paracétamol …": the line after the words adding it
    starts += [_after_leading(said) for said in starts]
    starts += [_after_tablet_fraction(said) for said in starts]  # "half a tab of bisoprolol …"
    starts += [_after_leading_dose(said) for said in starts]  # "10 mg/kg ibuprofen every 8 hours"
    # "the doxy - 100mg bd" (after "not the amox,"): the drug after its article
    starts += [_ARTICLE.sub("", said, count=1) for said in starts]
    return any(re.sub(r"[-/,+]", " ", said).split()[: len(surface)] == surface for said in starts)


@cache
def _asked_tail() -> re.Pattern[str]:
    """An opinion asked at the very end of the line (``order_line.asked_tails``)."""
    tails = sorted(rules()["order_line"]["asked_tails"], key=len, reverse=True)
    return re.compile(r"(?:^|[\s,;\-])(?:" + "|".join(map(re.escape, tails))
                      + r")\s*[.!]*\s*$")


def _after_state_clause(low: str, surface: str) -> list[str]:
    """The rest of ``low`` after each comma whose words before name no drug (the clause of what
    she has, then the order line); the first comma after the drug ends the search, so "paracetamol
    1 g, c/6h" is read from its start only."""
    rests: list[str] = []
    # a dash or a semicolon ends the clause as a comma does ("he weighs 22 kg today - amoxicillin
    # 40mg/kg/day bd")
    for comma in re.finditer(r",|;|\s[-\u2013]\s", low):
        if surface in low[: comma.start()]:
            break
        rests.append(low[comma.end():])
    return rests


# "KCl 20 mEq PO once now, and a serum K tomorrow 08:00": the order line, then the test
_THEN_A_TEST = re.compile(r"\s*(?:,\s*|\s)(?:and|plus|then|et|puis|e|y|\+|;)\s+|\s*[;+]\s*")


def _line_beside_a_test(low: str, surface: str) -> bool:
    """A drug's order line written first, with a test ordered in a clause of its own after it
    (the lab order is carded beside it): the drug opens the message and its clause holds no
    other order word."""
    first = _THEN_A_TEST.split(low, maxsplit=1)
    return len(first) == 2 and first[0].strip().startswith(surface) and surface not in first[1]


@cache
def _leading() -> re.Pattern[str]:
    words = sorted(rules()["order_line"]["leading"], key=len, reverse=True)
    return re.compile(rf"^(?:\s*(?:{'|'.join(map(re.escape, words))})(?![\w'])[\s,]*)+")


@cache
def _tablet_fraction() -> re.Pattern[str]:
    fractions = sorted(rules().get("tablet_fractions") or (), key=len, reverse=True)
    forms = "|".join(rules().get("strength_forms") or ())
    said = "|".join(map(re.escape, fractions))
    return re.compile(rf"^\s*(?:{said})\s+(?:(?:of\s+)?an?\s+|de\s+)?(?:{forms})\b"
                      rf"(?:\s+(?:of|de|do|da|del))?\s*")


def _after_tablet_fraction(said: str) -> str:
    """``said`` without a leading fraction of a tablet ("half a tab of", "meio comprimido de"):
    the drug after it starts the order line (the dose is the fraction of its strength)."""
    m = _tablet_fraction().match(fold_accents(said))
    return said[m.end():] if m else said


# the dose written before the drug ("10 mg/kg ibuprofen every 8 hours", "500mg of amoxicillin
# tds", "1 g de paracetamol c/8h"): the drug after it starts the order line
_LEADING_DOSE = re.compile(
    r"^\s*\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|microgrammes?|micrograms?|ml|units?|iu|ui)\b"
    r"(?:\s*/\s*kg\b(?:\s*/\s*(?:day|d|24\s*h|j|jour|dia|d\u00eda))?)?\s+(?:of\s+|de\s+|d')?")


def _after_leading_dose(said: str) -> str:
    m = _LEADING_DOSE.match(said)
    return said[m.end():] if m else said


def _after_leading(said: str) -> str:
    """``said`` without the words adding it to what was said before (read accent-folded; the
    folding keeps the letters' places)."""
    m = _leading().match(fold_accents(said))
    return said[m.end():] if m else said


@cache
def _lead_in() -> re.Pattern[str]:
    """Who asks for the order and how ("the reg wants", "nurse asks can we write him up for"),
    or a ward word carrying it on ("cont abx -"), before an order line."""
    table = rules()["order_line"]

    def any_of(words: list[str]) -> str:
        return "|".join(map(re.escape, sorted(words, key=len, reverse=True)))

    who = rf"(?:[\w'.]+\s+){{0,{int(table['lead_in_words'])}}}?"
    asked = rf"{who}(?:{any_of(table['lead_ins'])})(?:\s+(?:{any_of(table['lead_in_objects'])}))?"
    ward = rf"(?:{any_of(table['ward_leads'])})(?:\s+\w+\s*[-:])?"
    return re.compile(rf"^\s*(?:{asked}|{ward})(?![\w'])[\s,:-]*")


def _after_lead_in(said: str) -> str:
    """``said`` without who asks for the order before it (read accent-folded)."""
    m = _lead_in().match(fold_accents(said))
    return said[m.end():] if m else said


_ARTICLE = re.compile(r"^\s*(?:the|le|la|l'|o|a|el)\s+")
RELEASE = r"(?:mr|sr|xl|xr|er|cr|la|lp|ld|retard|cd|sa)"  # a release form after a drug


def bare_dose(low: str, drugs: list[DrugMention], dose: dict[str, Any] | None) -> str | None:
    """"500" right after the drug of an order with a frequency, as "500 mg"; with no frequency,
    a number ending the message after the drug that cannot count tablets ("shall we start
    lisinopril 5": 5 mg); None otherwise, and for a number below the drug's smallest strength
    ("metformin 2 bd": two tablets, the dose asked)."""
    if dose and dose.get("dose"):
        return None
    timed = bool(dose and dose.get("frequency"))
    text = re.sub(r"[-/+]|,(?!\d)|(?<!\d),", " ", low)  # "2,5" stays a number
    for mention in drugs:
        # a release form between ("nifedipine MR 20 bd", "metformin SR 500 od")
        m = _number_after(mention.surface).search(text)
        if not m:
            continue
        number = float(amount(m.group(1)))
        if number < _least_mg(mention.name):
            return None  # fewer mg than the drug's smallest tablet: a count
        if not timed and (_may_count(number) or not _ends_message(text, m.end())):
            continue
        if timed and _counted_after(text, m):
            continue
        return f"{amount(m.group(1))} {_bare_unit(mention.name, number)}"
    return _number_before_frequency(text, drugs) if timed else None


def _least_mg(drug: str | None) -> float:
    """The drug's least dose in mg (``order_line.least_mg``), a combination's name written with
    a hyphen or a slash alike ("amoxicillin-clavulanate", "amoxicillin/clavulanate")."""
    least = rules()["order_line"].get("least_mg", {})
    name = drug or ""
    return float(least.get(name) or least.get(name.replace("-", "/"))
                 or least.get(name.replace("/", "-")) or 0)


@lru_cache(maxsize=1024)
def _number_after(surface: str) -> re.Pattern[str]:
    """The drug as written, a release form maybe, then a number (compiled once per drug)."""
    return re.compile(rf"(?<![a-z]){re.escape(surface)}(?:\s+{RELEASE})?\s+{_NUMBER}(?![\d.,])")


def _may_count(number: float) -> bool:
    """A number that may count tablets (``order_line.tablet_counts``: 1, 2, a half …)."""
    return number in {float(n) for n in rules()["order_line"].get("tablet_counts", [])}


# what may end a message after the bare dose ("start lisinopril 5 please", "lisinopril 5 ?")
_MESSAGE_END = re.compile(r"\s*(?:(?:please|pls|plz|then|svp|por favor|stp)\s*)?[.?!]*\s*$")


def _ends_message(text: str, at: int) -> bool:
    return _MESSAGE_END.fullmatch(text, at) is not None


def _counted_after(text: str, number: re.Match[str]) -> bool:
    """A unit or a count word after the bare number ("500 mg", "2 tabs", "2 daily"); "daily"
    or "a day" after a number that cannot count tablets is the dose's frequency ("metformin 500
    daily", "amlodipine 5 daily"): no one takes five tablets of it a day."""
    after = _UNIT_AFTER.match(text, number.end())
    if after and after.group(0).strip() in ("daily", "a day"):
        return _may_count(float(amount(number.group(1))))
    return after is not None


def _bare_unit(drug: str | None, number: float) -> str:
    """The unit of a bare number after ``drug``: mg, unless the drug's orders count a form and
    the number is a count of it (``order_line.counted``), or the drug is dosed in micrograms and
    the number is one (``order_line.in_micrograms``)."""
    line = rules()["order_line"]
    form, most = line.get("counted", {}).get(drug, ("mg", 0))
    if number >= line.get("in_micrograms", {}).get(drug, float("inf")):
        return "mcg"  # "digoxin 125 od": 125 micrograms
    return form if number <= most else "mg"


# a ward frequency code straight after a number ("400 tds", "500 8/8h", "1 g c/12h" is not bare)
_CODE_AFTER = re.compile(
    r"\s+(?:od|bd|bid|tds|tid|qds|qid|qh|q\d{1,2}h|nocte|mane|stat|\d{1,2}\s*/\s*\d{1,2}\s*h|"
    r"c/?\d{1,2}\s*h|\d{1,2}\s*x\s*/\s*(?:j|d|dia|día))(?![a-z])", re.I)


def _number_before_frequency(text: str, drugs: list[DrugMention]) -> str | None:
    """One drug named, and a bare number with a ward frequency code after it elsewhere in the
    message ("ibuprofen for her back pain, 400 tds"): that number is the dose in mg. Two drugs
    leave it unread (the number could belong to either), and so does a small number ("1.5 bd"
    away from the drug may count tablets): the card then asks for the dose."""
    if len({d.name for d in drugs}) != 1:
        return None
    found = [m for m in re.finditer(rf"(?<![\w.,/]){_NUMBER}(?![\d.,])", text)
             if _CODE_AFTER.match(text, m.end()) and float(amount(m.group(1))) >= 10]
    return f"{amount(found[0].group(1))} mg" if len(found) == 1 else None


def reply_dose(reply: str) -> str | None:
    """A reply to "what dose should I use?" that starts with a number without its unit ("500",
    "500 bd"): the reply with the number in milligrams; None when it has a unit or no number."""
    m = re.match(rf"\s*{_NUMBER}(?![\d.,])", reply)
    if not m or _UNIT_AFTER.match(reply, m.end()):
        return None
    return f"{amount(m.group(1))} mg{reply[m.end():]}"


def pasted_list_asked(text: str, drugs: list[DrugMention]) -> bool:
    """A medication list pasted into the box with a question after it ("Pt on: warfarin 5mg,
    aspirin 75mg …\nPlan: add amiodarone 200mg tds\nany problems?"): the lines are what she
    takes or may take, and the last line asks of them ("anything to flag before we add
    naproxen?"). Nothing is ordered or recorded ("NKDA" in a pasted summary is the summary's);
    every drug named is checked together. The question line holds no dose of its own."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(lines) < 2 or not lines[-1].endswith("?") or re.search(r"\d", lines[-1]):
        return False
    listed = {d.name for d in drugs if d.name and d.surface.lower() in
              fold_accents(" ".join(lines[:-1])).lower()}
    return len(listed) >= 2
