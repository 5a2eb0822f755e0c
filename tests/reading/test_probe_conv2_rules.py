"""The twenty-second stop's set of conversations holding the pending card (probe_conv2), each
rule with near words that must not trigger: a pending lab card moved to a bare hour ("move that
to 10, …") is re-drafted at that clock; a course said in words ("diez días") completes the card
as its figures do; a count of days said bare after an order line's frequency is its course; a
change with a pronoun ("make it bd", "ponlo cada 12 horas", "passe-la à 40") after a card of one
drug approved is the dose change of that order on her list. From the holdout: a stop until
further notice is a stop; a card declined with a shrug, "ya no" or a talk later is cancelled; a
drug said "then" in a later sentence takes a critical card's place; "for a week" is a course."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, clarification, ward_amendments
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.agent.languages import fold
from smart_docgemma.agent.ward_requests import workflow_of
from smart_docgemma.approval.types import PendingOrder
from smart_docgemma.tools.chart.in_context import ChartInContext, Medication


def _history(*said: str) -> list[dict[str, str]]:
    out = []
    for text in said:
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": "(carded)"}]
    return out


# --- a pending lab card moved to a bare hour

@pytest.mark.parametrize(("said", "hour"), [
    ("can you move that to 10, she's busy first thing", "10:00"),
    ("move it to 10", "10:00"),
    ("push the bloods to 9, pls", "09:00"),
    ("push it to 3pm", "15:00"),
    ("décale-le à 10, elle a un scanner", "10:00"),
    ("passa pra 9, ela tem fisio", "09:00"),
    ("pásalo a las 11, tiene eco", "11:00"),
])
def test_a_card_moved_to_a_bare_hour_is_that_clock(said, hour):
    assert ward_amendments._moved_to_hour(fold(said).lower()) == hour


@pytest.mark.parametrize("said", [
    "move that to 10,5",  # a decimal, no hour
    "push 2 g magnesium",  # no "to" and clock
    "move it to 10 mg",  # a dose
    "iv push over 10 min",
    "10, she's busy",  # no verb moving the card
])
def test_no_bare_hour_without_a_move_to_a_clock(said):
    assert ward_amendments._moved_to_hour(fold(said).lower()) is None


# --- a course said in words completes the card as its figures do

_CEFUROXIME = PendingOrder(proposal_id="p1", patient_id="pt", medication="cefuroxime",
                           ingredient="cefuroxime", dosage="500 mg", frequency="", notes=None)


@pytest.mark.parametrize(("said", "days"), [
    ("por boca, dos veces al día, diez días", 10),
    ("cada 12 horas, siete días", 7),
    ("2x/j, huit jours", 8),
    ("12/12h por dez dias", 10),
    ("bd for ten days", 10),
])
def test_a_course_in_words_is_read_in_figures(said, days):
    change = amendments.read(read(said), _CEFUROXIME)
    assert change is not None and change.days == days


def test_a_dose_in_words_is_no_course():
    change = amendments.read(read("non, plutôt cinq cents mg"), _CEFUROXIME)
    assert change is None or change.days is None


# --- a count of days said bare after the order line's frequency is its course

@pytest.mark.parametrize(("said", "course"), [
    ("cefuroxime 500mg bd po 10 days", "10 days"),
    ("amoxicillin 500mg tds 7 days", "7 days"),
    ("cefuroxima 500 mg vo c/12h 10 días", "10 days"),
    ("doxiciclina 100 mg VO 12/12h 10 dias", "10 days"),
    ("amoxicilline 500 mg 3x/j per os 7 jours", "7 days"),
    ("ciprofloxacino 500 mg cada 12 horas, 5 días", "5 days"),
    ("sertraline 50 mg od 2 weeks", "2 weeks"),
])
def test_days_after_the_frequency_are_the_course(said, course):
    dose = extract(said).dose
    assert dose is not None and dose.duration == course


@pytest.mark.parametrize("said", [
    "metformin 500 bd 2 weeks ago",  # a time gone by
    "amoxicilina 500 cada 8 horas 10 días de fiebre",  # the illness's length
    "naproxeno 500 mg 12/12h",  # no days said
    "amoxicilina 500 mg cada 8 horas, 3 días de fiebre",  # the illness's length
])
def test_no_course_from_days_said_of_something_else(said):
    dose = extract(said).dose
    assert dose is None or dose.duration is None


# --- a change with a pronoun after a card approved: the dose change of that order

def _on_her_list(drug: str) -> ChartInContext:
    return ChartInContext(medications=(Medication(text=f"{drug} 20 mg", names=(drug,),
                                                  dose="20 mg daily"),))


@pytest.mark.parametrize(("before", "said", "drug", "understood"), [
    ("omeprazol 20 mg al día", "ponlo cada 12 horas", "omeprazole",
     "change omeprazol to 20 mg cada 12 horas"),
    ("omeprazol 20 mg al día", "cámbialo a 40", "omeprazole", "change omeprazol a 40"),
    ("start simvastatin 20mg nocte", "make it 40", "simvastatin", "change simvastatin 40"),
    ("start lisinopril 20mg od", "change it to bd", "lisinopril",
     "change lisinopril to 20 mg to bd"),
    ("atorvastatine 20 mg le soir", "mets-la à 40", "atorvastatin", "change atorvastatine a 40"),
    ("sinvastatina 20 mg à noite", "muda ela pra 40", "simvastatin", "change sinvastatina pra 40"),
])
def test_a_change_of_the_drug_just_approved(before, said, drug, understood):
    got = clarification.changes_discussed(said, extract(said), _history(before),
                                          _on_her_list(drug))
    assert got == understood


@pytest.mark.parametrize(("before", "said", "drug"), [
    ("omeprazol 20 mg al día", "ponlo cada 12 horas", "lisinopril"),  # not on her list
    ("omeprazol 20 mg al día", "ponle amoxicilina", "omeprazole"),  # no pronoun of the drug
    ("omeprazol 20 mg al día", "make it amlodipine 5", "omeprazole"),  # another drug named
    ("omeprazol and amlodipine", "make it bd", "omeprazole"),  # two drugs discussed
    ("omeprazol 20 mg al día", "make bd", "omeprazole"),  # no pronoun at all
    ("omeprazole od", "make it bd", "omeprazole"),  # no dose said to keep
])
def test_no_change_without_one_drug_of_her_list_and_a_pronoun(before, said, drug):
    assert clarification.changes_discussed(said, extract(said), _history(before),
                                           _on_her_list(drug)) is None


def test_the_change_is_the_dose_change_of_her_order():
    chart = _on_her_list("omeprazole")
    said = read("ponlo cada 12 horas", understood="change omeprazol to 20 mg cada 12 horas",
                chart=chart)
    change = said.workflow.dose_change
    assert change is not None and change.drug == "omeprazole"
    assert change.dosage == "20 mg" and change.frequency == "cada 12 horas"


# --- the holdout's rules: a stop until further notice is a stop, never a hold

@pytest.mark.parametrize(("said", "drug"), [
    ("suspéndele la aspirina hasta nueva orden", "aspirin"),
    ("suspendele el AAS hasta nuevo aviso", "aspirin"),
    ("suspéndale la aspirina", "aspirin"),
    ("arrête le Kardégic jusqu'à nouvel ordre", "aspirin"),
    ("suspende o AAS até segunda ordem", "aspirin"),
    ("stop the aspirin until further notice", "aspirin"),
])
def test_a_stop_until_further_notice_is_a_stop(said, drug):
    assert workflow_of(said).stop == drug


@pytest.mark.parametrize("said", [
    "suspends le Kardégic jusqu'à la chirurgie",  # until something: a hold
    "suspéndele la warfarina esta noche",  # one night: a hold
    "hold the aspirin until further notice",  # a hold said as such
    "no le suspendas la aspirina",  # a stop denied
    "¿le suspendo la aspirina?",  # asked
])
def test_near_words_a_hold_denial_or_question_stops_nothing(said):
    assert workflow_of(said).stop is None


# --- a card declined with a shrug, "no longer", or talked about later

@pytest.mark.parametrize("said", [
    "bof, oublie, on en reparlera en consultation",
    "bah, laisse tomber",
    "no, ya no, lo dejamos así",
    "dejémoslo así",
    "not anymore",
    "no longer needed",
    "já não",
    "oublie, on en rediscutera lundi",
])
def test_a_card_declined_in_other_words_is_cancelled(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", [
    "no, ya no hay dolor?",  # a question
    "ya no le duele, cambia a 500",  # a change
    "no, ya no le des 500",  # a number: no cancel alone
    "bof, 250 plutôt",
])
def test_near_words_a_change_or_question_is_no_cancel(said):
    assert not amendments.cancels(said)


# --- a drug said "then" in a later sentence takes the critical card's place

_LOSARTAN = PendingOrder(proposal_id="p2", patient_id="pt", medication="losartan",
                         ingredient="losartan", dosage="50 mg", frequency="once daily",
                         notes=None, critical=True)


@pytest.mark.parametrize("said", [
    "ah é, gestante. então metildopa 250 mg 8/8h",
    "oh she's pregnant. ok then labetalol 200 bd",
    "ah oui, enceinte. bon alors labétalol 200 mg 2x/j",
    "ay, embarazada. entonces metildopa 250 mg c/8h",
])
def test_a_drug_then_after_her_state_takes_the_cards_place(said):
    low = " ".join(fold(said).lower().split())
    assert amendments.in_its_place(low, _LOSARTAN)
    change = amendments.read(read(said), _LOSARTAN)
    assert change is not None and change.drug is not None


@pytest.mark.parametrize("said", [
    "ah é, gestante. então também metildopa 250 mg 8/8h",  # added beside it
    "ah é, gestante. então metildopa?",  # asked
])
def test_near_words_an_addition_or_question_takes_no_place(said):
    low = " ".join(fold(said).lower().split())
    assert not amendments.in_its_place(low, _LOSARTAN)


def test_no_place_taken_after_a_card_without_a_critical_finding():
    plain = PendingOrder(proposal_id="p3", patient_id="pt", medication="losartan",
                         ingredient="losartan", dosage="50 mg", frequency="once daily", notes=None)
    assert not amendments.in_its_place("ah e, gestante. entao metildopa 250 mg 8/8h", plain)


# --- one week or month said with its article, shown in the singular

@pytest.mark.parametrize(("said", "course"), [
    ("clarithromycin 500mg bd po for a week", "1 weeks"),
    ("sertraline 50 mg od for one month", "1 months"),
])
def test_one_week_or_month_with_its_article_is_the_course(said, course):
    dose = extract(said).dose
    assert dose is not None and dose.duration == course


def test_no_course_of_a_week_gone_by():
    dose = extract("amox 500 tds, ill for a week before").dose
    assert dose is None or dose.duration is None


@pytest.mark.parametrize(("value", "unit", "shown"), [
    (1, "weeks", "1 week"), (1, "months", "1 month"), (2, "weeks", "2 weeks"), (7, "days", "7 days"),
])
def test_the_cards_duration_is_said_in_the_singular_for_one(value, unit, shown):
    from smart_docgemma.tools.writes.orders import _order_rows

    rows = dict(_order_rows({}, {"expectedSupplyDuration": {"value": value, "unit": unit}}))
    assert rows["Duration"] == shown
