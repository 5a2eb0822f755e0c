"""One clinician's message read once, into one typed ``Request``.

INPUT_ASSEMBLY reads each turn's message once (``agent/extraction.read``): the words the agent's
rules name (drugs, doses, actions, people, ids) and the ward's words (``reading/ward.py``), with
the conversation's state (the question just asked back, the pending card) and the chart in
context as typed values. The ``Request`` keeps all of it on the turn; routing
(``agent/planning``, ``agent/ward_requests``), the tools' arguments, the clarification and the
cards read its fields, and nothing downstream reads the message's words again.

    request = extraction.read(message, chart=read_for_turn(ctx).in_context)
    request.kind            # Kind.ORDER
    request.ward.tests      # ("basic metabolic panel",)
    request.focus, request.window
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from ..languages import fold
from ..tools.chart.answers import focus_of
from ..tools.chart.in_context import ChartInContext
from ..tools.words.windows import Asked, asked
from .dosage import Dose
from .dose_change import DoseChange
from .drugs import asks_general_knowledge, ordered_drug, stopped_drugs
from .entities import Entities
from .kind_asked import Kind as AskedKind
from .kind_asked import kind_asked
from .people import leading_people
from .subject import (
    InContext,
    Subject,
    ages_not_hers,
    initial_of_another,
    other_of_her_name,
    pronoun_of_other_sex,
    said_birth_date,
    said_birth_year,
    shares_a_name,
    subject_of,
    titled_of_other_sex,
    without_identifiers,
    year_after_name,
)
from .ward import Ward


class Kind(str, Enum):
    """What the message does: asks, orders, records or reviews."""

    ASK = "ask"
    ORDER = "order"
    RECORD = "record"
    REVIEW = "review"


# the actions of the agent's rules that order, record or review (any other action asks)
_ORDERS = frozenset({"prescribe", "prescribe_drug", "administer", "order_line", "order_lab",
                     "change_dose", "refer", "protocol", "switch", "order_gaps", "periop"})
_RECORDS = frozenset({"record_vital", "save_note", "document_allergy", "record_no_known_allergy"})
_REVIEWS = frozenset({"care_gaps", "reconcile", "plan"})
# the chart foci answered with the whole-list review of her medications
_REVIEW_FOCI = frozenset({"review", "medications"})


@dataclass(frozen=True)
class Conversation:
    """The conversation's state a message is read with: the question just asked back (the
    message answers it) and the pending card a follow-up changes or completes."""

    asked_back: str | None = None  # the assistant's last question, when the message answers it
    pending_card: str | None = None  # the pending medication card's proposal id
    pending_drug: str | None = None  # that card's ingredient: a change of its dose is the card's


@dataclass(frozen=True)
class Words:
    """What the message asks beyond its entities, read by the agent's rules (``agent/data/
    rules.yaml``) on the message as written, once: the planning's questions of it."""

    label: bool = False  # names what only the FDA label answers ("boxed warning")
    her_state: bool = False  # a word of her own state ("with her kidneys", "pregnant")
    her_medications: bool = False  # a word of her own medications ("her meds")
    allergy_substance: bool = False  # an allergy's substance named ("allergy to X", "X allergy")
    note_text: str | None = None  # what follows the first colon
    note_type: str = "clinical note"
    topic: str | None = None  # a trials or literature question's subject
    count: int = 0  # the words of the message


@dataclass(frozen=True)
class Switch:
    """A drug switch said in full: the new drug, its dose and frequency, the drug it replaces."""

    new_drug: str
    dosage: str
    frequency: str
    replaces: str | None = None


@dataclass(frozen=True)
class Workflow:
    """A ward workflow's words, read once (``agent/ward_requests.workflow_of``): the switch said
    in full, the problem a plan names with the value stated for it, the protocol named and the
    age of a result it re-orders, and the care gaps' and peri-operative plan's qualifiers."""

    switch: Switch | None = None
    problem: str | None = None  # a key of ``plan_problems`` ("hyperkalaemia")
    stated_value: float | None = None  # "K is 5.6": 5.6
    stated_unit: str | None = None  # "glycémie 0,5 g/L": the unit said with that value
    protocol: str | None = None  # a key of ``tools/data/protocols.yaml``
    protocol_value: float | None = None  # "K 3.2 on the gas - K protocol": 3.2
    protocol_unit: str | None = None  # "Mg 0.5 mmol/L": the unit said with that value
    older_than_days: int | None = None  # "older than 6 months": 180
    labs_only: bool = False  # care gaps to order: only their labs
    low_bleeding: bool = False  # a surgery of low bleeding risk
    bleeding: bool = False  # bleeding said ("INR 9 with melaena"); "no bleeding" is not
    plan_asked: bool = False  # a plan asked ("asthma plan"), whether or not a problem is known
    dose_change: DoseChange | None = None  # "increase amlodipine to 10mg od"
    stop: str | None = None  # "stop the aspirin": the drug stopped (a hold is not a stop)


@dataclass(frozen=True)
class Drug:
    """A drug the message names, with the dose written for it (the ordered drug's)."""

    name: str  # the generic name
    said: str  # as written
    dose: Dose | None = None


@dataclass(frozen=True)
class Request:
    """A message read once: what it does, about whom, and everything it names, typed."""

    message: str  # as written
    understood: str  # the message completed by the question it answers
    kind: Kind
    entities: Entities  # drugs, dose, allergy, people, ids, actions
    ward: Ward
    subject: Subject
    focus: str | None = None  # the chart focus asked ("medications", "lab:Potassium"…)
    # every chart focus the message's requests ask, in the order written, when it makes several
    # ("K and eGFR pls, and is naproxen ok") or an order waits on a result ("if K < 3.5 …")
    foci: tuple[str, ...] = ()
    asked_of_her: str = ""  # the question without her own identifiers
    window: Asked = field(default_factory=Asked)  # window, statistic, thresholds, unit
    language: str = "en"
    general_knowledge: bool = False  # asks of a drug in general, not for her
    ordered: str | None = None  # the drug an order names: the one drug, or the one before the dose
    stopped: tuple[str, ...] = ()  # drugs an instruction stops or holds ("hold warfarin tonight")
    words: Words = field(default_factory=Words)  # what it asks beyond its entities
    workflow: Workflow = field(default_factory=Workflow)  # a ward workflow's words
    # the order lines beside the first, each one drug with its own dose and frequency ("…
    # and paracetamol 1 g qds"): each is carded as an order of its own
    also_ordered: tuple[Drug, ...] = ()
    conversation: Conversation = field(default_factory=Conversation)
    # a kind of drug asked of her list ("is he on a statin?", "her insulin?"): her list answers
    asked_kind: AskedKind | None = None
    # the chart in context, typed (``tools/chart/in_context.py``)
    chart: ChartInContext = field(default_factory=ChartInContext)

    @property
    def tests(self) -> tuple[str, ...]:
        return self.ward.tests

    @property
    def dose(self) -> Dose | None:
        return self.entities.dose

    @property
    def drugs(self) -> tuple[Drug, ...]:
        """Each drug named once, the dose with the drug it was written for."""
        first: dict[str, str] = {}
        for mention in self.entities.drug_mentions:
            if mention.name and mention.name not in first:
                first[mention.name] = mention.surface
        return tuple(Drug(name, said, self.dose if name == self.ordered else None)
                     for name, said in first.items())

    @property
    def tested_drugs(self) -> frozenset[str]:
        """The drugs named that are the analytes of a list of lab tests ("NFS, magnésium demain
        matin": magnesium is the test, not a drug asked about)."""
        from ..knowledge import analytes

        if not self.ward.tests:
            return frozenset()
        return frozenset(d for d in self.entities.drugs if analytes.named_in(d) is not None)


def kind_of(actions: tuple[str, ...], focus: str | None) -> Kind:
    """Order > record > review > ask, from the actions read and the chart focus."""
    said = set(actions)
    if said & _ORDERS:
        return Kind.ORDER
    if said & _RECORDS:
        return Kind.RECORD
    if said & _REVIEWS or focus in _REVIEW_FOCI:
        return Kind.REVIEW
    return Kind.ASK


def _half_hers(text: str, found: Entities, here: InContext) -> list[str]:
    """Two lower-case words before a short chart question, one a word of her name and the other
    not ("samuel okafor a1c" in Samuel Okoro's chart): someone who shares a name with her."""
    drug_words = {w for d in found.drug_mentions for w in d.surface.split()}
    return [n for n in leading_people(text, drug_words) if shares_a_name(n, here)]


def assemble(message: str, understood: str, found: Entities, ward: Ward, *, chart: ChartInContext,
             born_words: str, language: str = "en",
             conversation: Conversation | None = None, focus: str | None = "",
             words: Words | None = None, workflow: Workflow | None = None,
             foci: tuple[str, ...] = (), french: bool = False) -> Request:
    """The ``Request`` of a message whose words were read into ``found`` (extraction) and
    ``ward``: who it is about, the chart focus and window it asks (read here, once, from the
    words understood; ``focus``: their chart focus, when already read; ``french``: the words
    are French, so "M." is Monsieur)."""
    here = chart.patient
    rest = without_identifiers(understood, here, born_words)
    rest_focus = focus_of(rest) if rest != understood else None
    if rest_focus:  # "MRN-100587 any allergies?": what is asked of her, without her MRN
        question, focus = rest, rest_focus
    else:
        question = understood
        focus = focus_of(question) if focus == "" else None if focus == "summary" else focus
    several = results_asked(question, ward.tests) if kind_of(found.actions, focus) == Kind.ASK \
        else ()
    if focus == "encounters" and several and asked(question).window == "admission":
        focus = f"lab:{several[0]}"  # "K this admission?": the result, since the stay began
    if len(several) > 1 and (focus is None or focus.startswith("lab")):
        focus = f"lab:{several[0]}"  # "u&e + lfts?": each result, the first leading
    # "her potassium?": a result asked, never a kind of her list
    asked_kind = kind_asked(question) if focus in (None, "medications") else None
    if asked_kind is not None and focus is None:
        focus = "medications"  # "is she on insulin?": her list, which of it is insulin said
    windowed = focus is not None and (focus.startswith("lab:")
                                      or focus == "vitals:bp")
    return Request(
        message=message, understood=understood,
        kind=kind_of(found.actions, focus), entities=found, ward=ward,
        subject=subject_of((*found.patient_names, *_half_hers(understood, found, here)),
                           found.patient_ids,
                           said_birth_date(found.birth_dates, here.born)
                           or said_birth_year(understood, born_words)
                           or year_after_name(understood, found.patient_names), here,
                           titled_of_other_sex(understood, here, chart.sex, french)
                           + ages_not_hers(understood, chart.age, chart.sex)
                           # "M. Okoro, HbA1c ?" in a man's chart: Monsieur, in any language
                           + initial_of_another(understood, here,
                                                french or chart.sex == "male")
                           + other_of_her_name(understood, here)
                           # "and hers?" in a man's chart: someone else's
                           + pronoun_of_other_sex(message, chart.sex)),
        focus=focus, asked_of_her=question,
        window=replace(asked(question), analytes=several if len(several) > 1 else ())
        if windowed else Asked(
            judge=bool(focus and focus.startswith("vitals") and asked(question).judge)),
        language=language, conversation=conversation or Conversation(), chart=chart,
        general_knowledge=asks_general_knowledge(fold(understood)),
        ordered=ordered_of(found, understood), words=words or Words(),
        stopped=stopped_drugs(fold(understood), [(m.name, m.surface) for m in found.drug_mentions
                                                 if m.name]),
        workflow=workflow or Workflow(), foci=foci, asked_kind=asked_kind,
    )


def results_asked(question: str, tests: tuple[str, ...]) -> tuple[str, ...]:
    """The results a question asks in one read, as analytes' names in the order written: each
    panel named ("u&e", "lfts", "lipids") as the results it reports, then each analyte named
    ("K, Na, creat", "inr + hb?")."""
    from ..knowledge import analytes

    names: list[str] = []
    for test in tests:
        names += [a.name for a in analytes.panel(test)]
    names += [a.name for a in analytes.all_named_in(question)]
    return tuple(dict.fromkeys(names))


def ordered_of(found: Entities, understood: str) -> str | None:
    """The drug an order names: the one drug, or of several the one written before the dose
    ("add losartan 50mg od, bp still high on the lisinopril" orders losartan)."""
    if len(found.drugs) == 1:
        return found.drugs[0]
    mentions = [(m.name, m.surface) for m in found.drug_mentions if m.name]
    return ordered_drug(fold(understood), mentions, found.dose.written if found.dose else None)
