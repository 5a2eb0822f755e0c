"""A clarifying answer completes the pending request, in any language.

When a write lacks what only the clinician can say, the agent asks one question (``ask_fields``
of ``data/prompts.yaml`` and ``answers/<lang>.yaml``: "To prepare the medication order, what dose
should I use?"). The clinician's reply — "500 mg", "500", "azithromycin", "une fois" — means
nothing alone; read together with the request it answers, it completes it, and the turn goes on
to the card and its safety findings as if the request had been whole.

The turn's history holds the exchanges as text (``turns/store.py`` ``history``), so a question of
the agent is recognised by its templates, in every language it answers in; a reply that makes a
request of its own ("review her chart") is a new request, never glued to the pending one.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .. import knowledge
from ..knowledge import analytes
from ..knowledge.mentions import find_drugs
from ..languages import ANSWERED, answers
from ..reading.drugs import unrecognised_drug
from ..reading.entities import Entities
from ..reading.people import brings_back, fold_accents
from ..reading.subject import is_own_name, names_another
from ..tools.chart.in_context import ChartInContext, InContext
from ..tools.words import ward_words, windows
from . import order_lines

# extraction reads this module's sibling rules
from .extraction import extract, gives_route_or_length
from .prompts import load, rules


@lru_cache(maxsize=1)
def _questions() -> tuple[re.Pattern[str], ...]:
    """The clarifying question (``ask_fields``) of every language, its fields left open."""
    said = [load("prompts")["messages"]["ask_fields"]]
    said += [
        (answers(lang).get("messages") or {}).get("ask_fields") for lang in ANSWERED if lang != "en"
    ]
    return tuple(
        re.compile(
            re.escape(text)
            .replace(re.escape("{label}"), ".+?")
            .replace(re.escape("{fields}"), ".+?")
        )
        for text in said
        if text
    )


def asked_fields(text: str) -> bool:
    """The agent's message asked what a write still needs."""
    return any(q.search(text or "") for q in _questions())


def pending_request(history: list[dict[str, Any]]) -> list[str]:
    """The clinician's messages the agent's last questions answered, oldest first ([] when the
    last answer asked nothing): the request, then each earlier reply that still left a field
    open."""
    said: list[str] = []
    turns = history[-2 * rules()["clarification_turns"]:]
    while (
        len(turns) >= 2
        and turns[-1].get("role") == "assistant"
        and asked_fields(str(turns[-1].get("content")))
    ):
        said.insert(0, str(turns[-2].get("content") or ""))
        turns = turns[:-2]
    line = order_line_before(turns) if said else None
    if line and only_route_or_length(said[0], extract(said[0])):
        said.insert(0, line)  # "iv, for 5 days" was asked its frequency for the line before it
    return said


# how far back a question asked of an order stays open while the clinician asks of the chart
_OPEN_TURNS = 8


def open_request(history: list[dict[str, Any]]) -> tuple[list[str], str] | None:
    """The order left open several turns back, when every message since only asked of the chart
    (no drug, dose, order or person of its own): an order the agent asked a field of ("start
    fluconazole 150mg" asked its frequency, then "latest INR?", "any allergies?"), or an order
    line answered with its check, waiting for its frequency ("fluconazole 150 mg", then "INR ?").
    Its messages and the answer to them; None when another request came since."""
    turns = history[-2 * _OPEN_TURNS:]
    for i in range(len(turns) - 1, -1, -1):
        turn = turns[i]
        if turn.get("role") != "user":
            continue
        text = str(turn.get("content") or "")
        reply = str(turns[i + 1].get("content") or "") if i + 1 < len(turns) else ""
        if asked_fields(reply):
            said = pending_request(turns[: i + 2])
            return (said, reply) if said else None
        ent = extract(text)
        if order_line_before([turn]) and set(ent.actions) <= _ORDER_WORDS:
            return [text], reply
        if ent.drugs or ent.dose or ent.patient_names or ent.patient_ids or (
            set(ent.actions) - _CHART_ASKS
        ):
            return None
    return None


# the actions of an order line written without its frequency ("fluconazole 150 mg")
_ORDER_WORDS = frozenset({"order_line", "prescribe", "prescribe_drug", "this_patient"})


# the actions of a question asked of the chart in context, which leave an order's question open
_CHART_ASKS = frozenset({"lab_or_vital", "this_patient", "chart_question", "chart",
                         "allergy_question"})


def completed(
    message: str, history: list[dict[str, Any]] | None, own: Entities | None = None,
    here: InContext | None = None,
) -> str:
    """``message`` with the request it answers in front ("rx azithro 500mg od x3d azithromycin"),
    or ``message`` alone when it answers no question or asks something of its own (``own``: what
    the message says by itself, when already read)."""
    pending = pending_request(history or [])
    own = own if own is not None else extract(message)
    if not pending and only_order_fields_said(message, own):
        earlier = open_request(history or [])  # asked several turns back, the chart asked since
        if earlier:
            reply = order_lines.reply_dose(message) or message
            return " ".join([*_redosed(earlier[0], own), reply])
    if not pending:
        line = order_line_before(history or [])
        # a frequency, or a route or length alone ("iv, for 5 days", "VO, 5 jours", "IV por 7
        # días"), completes the order line: the line then waits for what it still lacks
        if line and (only_order_fields(message, own) or only_order_fields_said(message, own)):
            return " ".join([*_redosed([line], own), order_lines.reply_dose(message) or message])
        if line and only_route_or_length(message, own):
            # the line is now ordered: the order asks back what it still lacks (how often)
            return f"start {line} {message}"
        drug = drug_discussed(history or [])
        number = _NUMBER.search(message)
        # "ok start it 10mg od": that drug; never when a word the vocabularies lack stands in
        # the drug's place ("and add senna 15mg nocte" is senna, asked, not the drug before)
        if drug and number and orders_it(message, own) and \
                unrecognised_drug(fold_accents(message), set()) is None:
            return f"{drug} {message[number.start():]}"
        return referred_back(message, own, history or [], here) or message
    # "poe 300 mg", "put 300mg" to "what dose?": a verb of ordering with no drug of its own
    # answers the question; any other request, drug or person is a new request
    ordering = set() if own.drugs else {"prescribe", "prescribe_drug", "order_line"}
    if set(own.actions) - ordering or own.patient_names or own.patient_ids:
        return message  # a new request, not an answer
    reply = order_lines.reply_dose(message) or message  # "500" to "what dose?": 500 mg
    return " ".join([*_redosed(pending, own), reply])


_WRITTEN_DOSE = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?\s*(?:mg|g|mcg|ug|µg|ml|units?)(?![a-z])",
                           re.I)


def _redosed(said: list[str], own: Entities) -> list[str]:
    """The request's messages without the dose they wrote, when the reply writes another ("make
    it 200mg" after "start fluconazole 150mg" was asked its frequency): the reply's dose is the
    order's, never the two read together."""
    if own.dose is None or not own.dose.written:
        return said
    return [_WRITTEN_DOSE.sub(" ", text) for text in said]


# the longest follow-up read as pointing back ("and how has it changed over the last 2 years?")
_BACK_WORDS = 10


def referred_back(message: str, own: Entities, history: list[dict[str, Any]],
                  here: InContext | None = None) -> str | None:
    """``message`` with the clinician's last message in front, when it only points back at the
    drugs or the medication list that message named ("any probs with those?" after "his meds?",
    "ok together?" after "warfarin and aspirin", "et ça, c'est grave ?"): short, naming no drug,
    dose, patient or request of its own. None otherwise. ``here``: the patient in context, whose
    own name brings a question of another patient back to her ("and Mrs Thompson's?" in Margaret
    Thompson's chart after "what's Grace Adeyemi's potassium?")."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    if not said or len(message.split()) > _BACK_WORDS:
        return None
    hers = here is not None and bool(here.name and own.patient_names) and all(
        is_own_name(n, here) for n in own.patient_names)
    if own.drugs or own.dose or (own.patient_names and not hers) or own.patient_ids or \
            _asks_own(own):
        return None
    before = str(said[-1].get("content") or "")
    named = extract(before)
    # "is that too high?" after "INR?": the value the question before asked for
    of_value = "chart_question" in named.actions and _back_words(
        "value_back_references").search(_folded(message))
    # "vale, ¿y el de este paciente?" after a question of another patient: that question of her
    of_her = bool(named.patient_names) and "chart_question" in named.actions and (
        brings_back(message) or hers)
    # "and the lowest?" after "avg cbg last 24h": the question before, with this statistic
    of_statistic = ("chart_question" in named.actions and not own.actions
                    and windows.statistic_of(message) is not None
                    and windows.statistic_of(message) != windows.statistic_of(before))
    if of_statistic:
        return f"{windows.without_statistic(before)} {message}"
    if not (_back_words().search(_folded(message)) or of_value or of_her):
        return None
    if not (named.drugs or _medication_pattern().search(_folded(before)) or of_value
            or "chart_question" in named.actions):
        return None
    if named.patient_names and (brings_back(message) or hers):
        # "and what about this patient's?" after "Mercy Otieno - allergies?": the question
        # asked again of her, without the other person it was asked of
        before = fold_accents(before)
        for name in named.patient_names:
            before = re.sub(rf"(?i)\b{re.escape(fold_accents(name))}(?:['\u2019]s)?\b", " ", before)
    return f"{before} {message}"


def _asks_own(own: Entities) -> bool:
    """A request of its own beside the pointing back: a write, a lab, a search."""
    return bool(set(own.actions) - {"this_patient", "chart_question", "safety", "give",
                                    "check_interactions"})


def _folded(text: str) -> str:
    return fold_accents(text.lower())


@lru_cache(maxsize=2)
def _back_words(key: str = "back_references") -> re.Pattern[str]:
    words = sorted((fold_accents(w) for w in rules()[key]), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])")


@lru_cache(maxsize=1)
def _medication_pattern() -> re.Pattern[str]:
    words = sorted({fold_accents(w) for w in rules()["own_medication_words"]}, key=len,
                   reverse=True)
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")


def order_line_before(history: list[dict[str, Any]]) -> str | None:
    """The clinician's last message when it was an order line waiting for a field: one drug, with
    no question, no other request and no frequency ("amoxicilina 250 mg", "cipro pra ITU dele"),
    answered with its safety check; None otherwise."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    replied = [t for t in history[-2:] if t.get("role") == "assistant"]
    if not said or (replied and "what dose" in str(replied[-1].get("content") or "")):
        return None  # the dose asked for is the question's answer, read with its card
    text = str(said[-1].get("content") or "")
    ent = extract(text)
    asks = set(ent.actions) - {"order_line", "prescribe", "prescribe_drug", "this_patient"}
    if "?" in text or len(set(ent.drugs)) != 1 or asks or ent.patient_names or ent.patient_ids:
        return None
    return None if ent.dose is not None and ent.dose.frequency else text


def drug_discussed(history: list[dict[str, Any]], here: InContext | None = None) -> str | None:
    """The one drug the clinician's last message asked about for her ("thinking of enalapril",
    "amoxicillin for his ear infection?", "paracetamol dose for kofi?" in Kofi's chart), as
    written; None when it named none, several, or someone else."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    return _one_drug(extract(str(said[-1].get("content") or "")), here) if said else None


def _one_drug(ent: Entities, here: InContext | None = None) -> str | None:
    """The one drug a message named for her, as written; None for none, several, or another
    person's."""
    if len(set(ent.drugs)) != 1 or names_another(ent.patient_names, ent.patient_ids, here):
        return None
    return ent.drug_mentions[0].surface if ent.drug_mentions else ent.drugs[0]


_NUMBER = re.compile(r"\d")

# a dose alone, with or without its unit ("10", "5 mg", "2,5", "10 then"): never a count of days
# or doses ("7 days", "x3")
_DOSE_ALONE = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*(mg|g|mcg|ug|micrograms?)?\s*"
                         r"(?:please|pls|then|svp|por favor)?\s*[.!]?\s*$", re.I)


# a dose with its unit opening a short line of its own fields ("40mg with breakfast", "500 mg
# bd", "5 mg od x7d")
_DOSE_FIRST = re.compile(r"^\s*(\d+(?:[.,]\d+)?)\s*(mg|g|mcg|ug)\b(?:\s+[^\d\s?][^?]{0,40})$",
                         re.I)


def dose_after_drug(message: str, own: Entities, history: list[dict[str, Any]]) -> str | None:
    """A dose alone ("10", "5 mg") right after a message that named one drug and nothing else
    ("warfarin", "start atorvastatin"): the drug's dose, read with that message ("warfarin 10",
    then as any drug with a bare number: checked, and an order asks only what it lacks); None
    when the message is more than a dose, or the last message said more than its drug (a dose of
    its own, a test, a question, another patient)."""
    m = _DOSE_ALONE.match(message or "") or _DOSE_FIRST.match(message or "")
    if not m or own.drugs or own.patient_names or own.patient_ids or "?" in message:
        return None
    said = [t for t in history[-2:] if t.get("role") == "user"]
    replied = [t for t in history[-2:] if t.get("role") == "assistant"]
    if not said or (replied and "what dose" in str(replied[-1].get("content") or "")):
        return None  # the dose asked for is the question's answer, read with its card
    before = str(said[-1].get("content") or "").strip()
    ent = extract(before)
    drug = _one_drug(ent)
    if not drug or (ent.dose and (ent.dose.written or ent.dose.frequency)) or "?" in before \
            or _NUMBER.search(before) or len(before.split()) > 4:
        return None
    if m.re is _DOSE_FIRST:  # "40mg with breakfast": the dose and its timing, as written
        return f"{before} {message.strip()}"
    return f"{before} {m.group(1)}{' ' + m.group(2) if m.group(2) else ''}"


@lru_cache(maxsize=1)
def _acts_on_it() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """For each thing done (``acts_on_it`` in rules.yaml), its verbs with a pronoun after them,
    fused after a hyphen or as a suffix, or a French "l'" before them."""
    said = rules()
    pronouns = "|".join(map(re.escape, sorted(said["acts_on_it_pronouns"], key=len, reverse=True)))
    clitics = "|".join(map(re.escape, said["acts_on_it_clitics"]))
    found = []
    lead = "|".join(map(re.escape, sorted(said["acts_alone_leads"], key=len, reverse=True)))
    for done, verbs in said["acts_on_it"].items():
        stems = "|".join(map(re.escape, sorted(verbs, key=len, reverse=True)))
        found.append((done, re.compile(
            rf"(?<![\w'])(?:(?:{stems})(?:\s+(?:{pronouns})|-(?:{clitics}))|l'(?:{stems})"
            rf"|(?:{stems})(?:{clitics}))(?![\w'-])")))
        # a verb of ordering alone is the whole message ("pode prescrever", "ok, start",
        # "vas-y, prescris", "puedes indicar"): it orders the drug just discussed too ("stop"
        # alone may end the conversation: a stop names what it stops)
        if done == "start":
            found.append((done, re.compile(
                rf"^\W*(?:(?:{lead})\W+)*(?:{stems})(?:\W+(?:{lead}))*\W*$")))
    return tuple(found)


def redo_discussed(message: str, own: Entities, tests: tuple[str, ...],
                   history: list[dict[str, Any]]) -> str | None:
    """"recheck it tomorrow am", "repeat in the morning", "à refaire demain" after a question
    about one test's results ("her K?"): the message with that test after its verb; None when
    the message names a test (``tests``: those it names), a drug or a patient, or the last
    message asked no test."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    said = [t for t in history[-2:] if t.get("role") == "user"]
    if not said or own.drugs or own.patient_names or own.patient_ids or len(message.split()) > 8:
        return None
    asked = str(said[-1].get("content") or "")
    focus = focus_of(asked) or ""
    low = _folded(message)
    verb = _redo().search(low)
    if not focus.startswith("lab:") or not verb or tests:
        return None
    # "recheck both tomorrow" after "creat and K?": each test asked, by the lab table's names
    # (never "potassium and sodium" read as drugs), not the first alone
    several = ward_words.lab_tests(asked) if len(analytes.all_named_in(asked)) > 1 else []
    named = " and ".join(several) if len(several) > 1 else focus[4:].lower()
    rest = re.sub(r"^\s*(?:both|all|them|all of them|les deux|os dois|ambos|los dos)\b", " ",
                  low[verb.end():])
    return " ".join(f"{low[:verb.end()]} {named} {rest}".split())


@lru_cache(maxsize=1)
def _redo() -> re.Pattern[str]:
    from ..tools.words import ward_words

    words = sorted(ward_words.table()["redo_words"]["words"], key=len, reverse=True)
    return re.compile(rf"(?<![\w'])(?:{'|'.join(map(re.escape, words))})(?![\w'])")


def several_discussed(message: str, own: Entities, history: list[dict[str, Any]]) -> list[str]:
    """"stop it", "add that one" after a message that named several drugs ("is his metformin ok
    with the gliclazide?"): those drugs, as written, so which one is asked, never guessed; empty
    when the message names a drug or a patient, runs long, acts on nothing, or one drug was
    discussed."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    if (not said or own.drugs or own.patient_names or own.patient_ids
            or len(message.split()) > 12
            or not any(p.search(_folded(message)) for _, p in _acts_on_it())):
        return []
    before = extract(str(said[-1].get("content") or ""))
    if before.patient_names or before.patient_ids or len(set(before.drugs)) < 2:
        return []
    return list(dict.fromkeys(m.surface for m in before.drug_mentions)) or list(before.drugs)


def listed_by_place(message: str, own: Entities, history: list[dict[str, Any]]) -> str | None:
    """"d/c the 2nd one", "hold the first", "is the last one ok?" after an answer that showed
    her active medication list: the message with the drug at that place in place of the words
    ("d/c aspirin"); None when the message names a drug or a patient, runs long, names no place
    (or a place of something else: "the first dose"), or the last answer showed no list or a
    shorter one (never a guess)."""
    if own.drugs or own.patient_names or own.patient_ids or len(message.split()) > 12:
        return None
    low = _folded(message)
    m = _list_place().search(low)
    shown = [t for t in history[-1:] if t.get("role") == "assistant"]
    if not m or not shown:
        return None
    listed = _listed_drugs(str(shown[-1].get("content") or "")) or _options_asked(history)
    place = next(int(k) for k, words in rules()["list_places"].items()
                 if m.group("place") in {str(w) for w in words})
    if not listed or place > len(listed):
        return None
    drug = listed[place - 1] if place > 0 else listed[-1]
    return " ".join(f"{low[:m.start()]} {drug} {low[m.end():]}".split())


@lru_cache(maxsize=1)
def _list_place() -> re.Pattern[str]:
    said = rules()
    places = "|".join(map(re.escape, sorted({str(w) for ws in said["list_places"].values()
                                              for w in ws}, key=len, reverse=True)))
    articles = "|".join(map(re.escape, said["list_place_articles"]))
    nouns = "|".join(map(re.escape, sorted(said["list_place_nouns"], key=len, reverse=True)))
    # the place with a noun of the list, or ending its clause ("stop the second", "is the 2nd ok?")
    return re.compile(rf"(?<![\w'])(?:{articles})\s+(?P<place>{places})"
                      rf"(?:\s+(?:{nouns})(?![\w'])|(?=\s*(?:[?.!,;]|$|\s(?:pls|please|then|now|"
                      rf"tonight|today|ok|okay|safe|fine|too)\b)))")


# drugs offered as options ("doxycycline or clarithromycin for her chest?", "amox vs doxy?",
# "nitrofurantoin / trimethoprim?"): two or more, each joined to the next by a word of choice
_OR = r"\s*(?:,|\bor\b|\bvs\.?|\bversus\b|/|\bou\b|\bo\b)\s*"


def _options_asked(history: list[dict[str, Any]]) -> list[str]:
    """The drugs the clinician's last message offered as options, in the order written
    ("doxycycline or clarithromycin for her chest?": doxycycline, clarithromycin); none when it
    named fewer than two, or named them otherwise than as a choice ("warfarin with aspirin")."""
    asked = [t for t in history[-2:-1] if t.get("role") == "user"]
    if not asked:
        return []
    low = _folded(str(asked[-1].get("content") or ""))
    found = [(low.find(d.surface.lower()), d) for d in find_drugs(low) if d.name]
    found = sorted((at, d) for at, d in found if at >= 0)
    names = list(dict.fromkeys(str(d.name) for _, d in found))
    if len(names) < 2:
        return []
    for (at, d), (nxt, _) in zip(found, found[1:], strict=False):
        if not re.fullmatch(_OR, low[at + len(d.surface):nxt]):
            return []
    return names


_LISTED = re.compile(r"^\s*-\s+(?P<drug>[^\n\u2014]+?)\s+\u2014", re.M)


def _listed_drugs(answer: str) -> list[str]:
    """The generic names of the drugs of the active medication list an answer showed, in its
    order ("Active medications (2):" then "- warfarin sodium 5 MG Oral Tablet — 5 mg …")."""
    at = answer.find("Active medications (")
    if at < 0:
        return []
    block = answer[at:].split("\n", 1)[-1]
    out = []
    for line in block.split("\n"):
        m = _LISTED.match(line)
        if not m:
            break
        out.append(knowledge.generic(m.group("drug")) or m.group("drug"))
    return out


def acts_on_discussed(message: str, own: Entities, history: list[dict[str, Any]],
                      here: InContext | None = None) -> str | None:
    """"stop it", "add that one", "on l'arrête", "suspende-a", "agrégalo" after a message that
    discussed one drug for her: the message with what is done to that drug in place of the
    pronoun ("stop lisinopril and start labetalol 100 bd"); None when the message names that
    drug or a patient, runs long, or no drug was discussed."""
    if own.patient_names or own.patient_ids or len(message.split()) > 12:
        return None
    drug = drug_discussed(history, here)
    if not drug or drug.lower() in {d.lower() for d in own.drugs}:
        return None
    low = _folded(message)
    for done, pattern in _acts_on_it():
        m = pattern.search(low)
        if m:
            # "ok order it" after "is paracetamol 1g qds ok for him?": the dose asked about
            said = _dose_discussed(history) if done == "start" and own.dose is None else ""
            return " ".join(f"{low[:m.start()]} {done} {drug} {said} {low[m.end():]}".split())
    return None


def changes_discussed(message: str, own: Entities, history: list[dict[str, Any]],
                      chart: ChartInContext) -> str | None:
    """"make it bd from today", "ponlo cada 12 horas", "passe-la à 40" after a message that named
    one drug now on her active list (its card approved since): the message as a change of that
    order ("change omeprazol to 20 mg cada 12 horas"), the dose last said when it gives none.
    None when it names a drug or a patient, runs long, or the drug is not on her list."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    if not said or own.drugs or own.patient_names or own.patient_ids or len(message.split()) > 12:
        return None
    last = extract(str(said[-1].get("content") or ""))  # read once: its drug and its dose
    drug, m = _one_drug(last, chart.patient), _changes_it().search(_folded(message))
    on_list = {n for med in chart.medications for n in med.names}
    if not drug or not m or last.drugs[0] not in on_list:
        return None
    rest = _folded(message)[m.end():]
    if _GIVES_A_DOSE.match(rest):  # "passe-la à 40": its own dose
        return " ".join(f"change {drug} {rest}".split())
    if last.dose is None or not last.dose.written:
        return None  # the dose last said cannot be read: the change is not guessed
    return " ".join(f"change {drug} to {last.dose.written} {rest}".split())


# the change gives its own dose: a number after "to"/"à"/"a"/"para", never a frequency's ("make
# it 12 hourly", "ponlo cada 12 horas", "passe-la à 2x/j")
_GIVES_A_DOSE = re.compile(r"\s*(?:(?:to|a|au|para|pra|en|at)\s+)?\d+(?:[.,]\d+)?"
                           r"(?![\d/]|\s*(?:x\b|h\b|hr|hour|hora|heure|times|fois|veces|vezes|/))")


@lru_cache(maxsize=1)
def _changes_it() -> re.Pattern[str]:
    """A verb of change with a pronoun after it, fused after a hyphen or as a suffix
    (``changes_it``, with the pronouns and clitics of ``acts_on_it``)."""
    said = rules()
    pronouns = "|".join(map(re.escape, sorted(
        [*said["acts_on_it_pronouns"], *said["changes_it_pronouns"]], key=len, reverse=True)))
    clitics = "|".join(map(re.escape, said["acts_on_it_clitics"]))
    stems = "|".join(map(re.escape, sorted(set(said["changes_it"]), key=len, reverse=True)))
    return re.compile(rf"(?<![\w'])(?:(?:{stems})(?:\s+(?:{pronouns})|-(?:{clitics}))"
                      rf"|l'(?:{stems})|(?:{stems})(?:{clitics}))(?![\w'-])")


def _dose_discussed(history: list[dict[str, Any]]) -> str:
    """The dose and frequency the last message asked about with its one drug ("is paracetamol
    1g qds ok for him?": "1g qds"), "" when it said no dose or no frequency: a drug asked about
    with its dose is ordered with it, never with a dose the clinician did not write."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    dose = extract(str(said[-1].get("content") or "")).dose if said else None
    if dose is None or not (dose.written and dose.frequency):
        return ""
    return f"{dose.written} {dose.frequency}"


def ordered_instead(message: str, own: Entities, history: list[dict[str, Any]],
                    card_drug: str, instead: re.Pattern[str]) -> str | None:
    """"ok do that then, 100 bd x5" after "what about doxy instead?" while an amoxicillin card
    waits: the drug the last message offered in the card's place, with this message's fields
    ("doxy 100 bd x5 instead"); "ok start it 400 tds" after "is ibuprofen ok for her?": that
    drug ordered beside the card ("ibuprofen 400 tds"). None unless the last message discussed
    one drug other than the card's and this one orders it without naming a drug."""
    said = [t for t in history[-2:] if t.get("role") == "user"]
    number = _NUMBER.search(message)
    if not said or not number or not orders_it(message, own):
        return None
    before = str(said[-1].get("content") or "")
    named = extract(before)  # read once: the drug discussed, and whether it is the card's
    drug = _one_drug(named)
    if not drug or card_drug in named.drugs:
        return None
    in_place = bool(instead.search(" ".join(fold_accents(before).lower().split())))
    started = any(done == "start" and p.search(_folded(message)) for done, p in _acts_on_it())
    if not (in_place or started):
        return None  # "make it 400 tds": the card's own change
    return f"{drug} {message[number.start():]}" + (" instead" if in_place else "")


def orders_it(message: str, own: Entities) -> bool:
    """A reply that orders the drug just discussed without naming it: a dose (or a number with a
    frequency), no drug, no one else ("ok start it 10mg od", "fine, go ahead 500 tds", "vale,
    250 mg cada 8 h")."""
    dose = own.dose
    dosed = dose is not None and bool(dose.written or (dose.frequency and _NUMBER.search(message)))
    return dosed and not own.drugs and not own.patient_names and not own.patient_ids


def only_order_fields_said(message: str, own: Entities) -> bool:
    """A message that only gives an order's fields (a dose, a frequency, a route or a length):
    "make it 200mg", "just the one dose", "plutôt 200 mg"; no question, drug, person or request
    of its own."""
    dose = own.dose
    return bool(
        "?" not in message and not own.drugs and not set(own.actions) - {"order_line"}
        and not own.patient_names and not own.patient_ids and dose is not None
        and (dose.written or dose.frequency or dose.duration or dose.route)
    )


# the longest reply read as giving only an order's route or length ("iv, for 5 days")
_FIELD_WORDS = 6


def only_route_or_length(message: str, own: Entities) -> bool:
    """A short reply giving only an order's route or length, with no dose or frequency ("iv, for
    5 days", "VO, 5 jours", "IV por 7 días"); no question, drug, person or request of its own."""
    return bool(
        "?" not in message and own.dose is None and not own.drugs and not own.actions
        and not own.patient_names and not own.patient_ids
        and len(message.split()) <= _FIELD_WORDS and gives_route_or_length(message)
    )


def only_order_fields(message: str, own: Entities | None = None) -> bool:
    """A message that only gives an order's frequency (with a dose, route or duration): "três
    vezes ao dia", "500 mg c/12h", "de 8 em 8 horas"; not a question or a request of its own."""
    ent = own if own is not None else extract(message)
    return bool(
        "?" not in message and not ent.drugs and not set(ent.actions) - {"order_line"}
        and not ent.patient_names and not ent.patient_ids
        and ent.dose is not None and bool(ent.dose.frequency)
    )
