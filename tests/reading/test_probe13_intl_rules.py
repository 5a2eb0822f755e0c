"""What the thirteenth blind French/Portuguese/Spanish set (probe13_intl) found read wrongly, read
rightly, each rule beside the near-words it must not catch: numbers in words before a unit;
text pasted from a document with the question after it; a decision asked of a result ("dis-moi si
je dois …") orders no test; a result to be told ("checa o INR e me fala") is her chart's; an order
verb in the first person with a question mark asks; a meal is a time of the dose, never a drug
taken "with" it; "cada 12" is every 12 hours, never 12 mg; "bórralo" withdraws the card; a
document's label before a colon is no person; a drafted document carries its medication review."""
from __future__ import annotations

from datetime import date

import pytest
from smart_docgemma.agent import amendments, ward_requests
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.numbers import in_digits
from smart_docgemma.reading.pasted import question_after
from smart_docgemma.reading.people import heading_names
from smart_docgemma.reading.request import Kind
from smart_docgemma.tools.writes.drafts import DraftRequest, compose
from smart_docgemma.tools.writes.orders import parse_timing

from ..support.fixture_charts import chart
from .test_order_line_follow_up import _card

WARFARIN = chart("02-warfarin.json")


@pytest.mark.parametrize("message, digits", [
    ("Doliprane quinze milligrammes par kilo", "Doliprane 15 mg/kg"),
    ("Brufen seiscentos miligramas de 12 em 12 horas", "Brufen 600 mg de 12 em 12 horas"),
    ("ibuprofeno 10 mg por kg cada 8 horas", "ibuprofeno 10 mg/kg cada 8 horas"),
    ("ciprofloxacino quinientos mg cada doce horas", "ciprofloxacino 500 mg cada 12 horas"),
    ("cinq cents milligrammes", "500 mg"),
    ("deux cent cinquante mg", "250 mg"),
    ("Augmentin un gramme", "Augmentin 1 g"),
    # near-words: an article, a count of doses the card shows in words, a number with no unit
    ("un IEC pour sa tension ?", "un IEC pour sa tension ?"),
    ("trois fois par jour", "trois fois par jour"),
    ("dos veces al día", "dos veces al día"),
    ("et la deux, son INR ?", "et la deux, son INR ?"),
])
def test_numbers_in_words_before_a_unit_are_digits(message, digits):
    assert in_digits(message) == digits


@pytest.mark.parametrize("message, dose", [
    ("ibuprofène dix mg/kg trois fois par jour pendant trois jours", "10 mg/kg"),
    ("Brufen seiscentos miligramas de 12 em 12 horas", "600 mg"),
    ("amoxicilina ochenta miligramos por kilo al día repartidos en dos tomas", "80 mg/kg/day"),
])
def test_a_dose_in_words_is_read_as_the_dose(message, dose):
    said = read(message)
    assert said.kind == Kind.ORDER and said.entities.dose.written == dose


@pytest.mark.parametrize("message, question", [
    ("Receita do dentista: 'Amoxicilina 500mg 8/8h 7 dias + Voltaren 50mg 8/8h'. Tudo certo?",
     "Tudo certo?"),
    ("Courrier du cardiologue : « poursuivre AVK, ajouter amiodarone 200 mg/j ». On fait ?",
     "On fait ?"),
    ("Résultats labo du 10/11 : K 5,6 H, DFG 38. Je voulais ajouter du Diovan 80, ok?",
     "Je voulais ajouter du Diovan 80, ok?"),
    # near-words: no label nor quotation before it, or no question after it
    ("K 5.6 this morning. Was going to start spironolactone - is that safe?", None),
    ("Plan: start ramipril 2.5 mg od", None),
])
def test_the_question_after_pasted_text(message, question):
    assert question_after(message) == question


@pytest.mark.parametrize("message", [
    "Receita do dentista: 'Amoxicilina 500mg 8/8h 7 dias + Voltaren 50mg 8/8h 5 dias'. Tudo certo?",
    "Courrier du cardiologue : « FA permanente, ajouter amiodarone 200 mg/j ». On fait ?",
    "son K et son eGFR please, avant que je start la spironolactone",
])
def test_an_order_pasted_or_before_a_result_is_checked_not_carded(message):
    assert read(message).kind != Kind.ORDER


@pytest.mark.parametrize("message", [
    "je mets du propranolol pour la tachycardie ?",
    "le pongo augmentine 875 cada 8h?",
    "dou dipirona pra febre?",
])
def test_an_order_verb_asked_with_a_question_mark_is_a_question(message):
    assert "give" in read(message).entities.actions


@pytest.mark.parametrize("message", [
    "je mets du propranolol 40 mg 2 fois par jour",  # the same verb without the mark: an order
    "medio comprimido de glibenclamida de 5 mg con el desayuno",
])
def test_the_near_orders_stay_orders(message):
    assert read(message).kind == Kind.ORDER


@pytest.mark.parametrize("message, ordered", [
    ("check l'INR stp et dis moi si je dois hold la warfarine ce soir", False),
    ("check INR and tell me if I should hold the warfarin tonight", False),
    ("checa o INR e me fala se precisa ajustar", False),
    # near-words: the test ordered with a time, the clinician's own decision taken
    ("check INR tomorrow am", True),
    ("recontrôler l'INR demain matin", True),
])
def test_a_decision_asked_of_a_result_orders_no_test(message, ordered):
    assert ("order_lab" in ward_requests.actions(message)) is ordered


@pytest.mark.parametrize("message, asked", [
    ("checa o INR pls e me fala se precisa ajustar", True),
    ("regarde sa kaliémie et dis-moi si c'est grave", True),
    ("revisa el potasio y dime si hay que preocuparse", True),
    # near-words: a definition asked
    ("o que é INR?", False),
])
def test_a_result_to_be_told_is_her_chart(message, asked):
    assert ("chart_question" in read(message).entities.actions) is asked


@pytest.mark.parametrize("first, reply, dose, per_day", [
    ("amoxicilina 500 mg cada 8 horas", "mejor cada 12", None, 2.0),
    ("amoxicilline 500 mg 3 fois par jour", "plutôt toutes les 12", None, 2.0),
    ("amoxicilina 500 mg de 8/8h", "melhor de 12 em 12", None, 2.0),
    # near-words: a new dose said with the frequency kept
    ("amoxicilina 500 mg cada 8 horas", "mejor 250", "250", None),
])
def test_an_interval_without_its_unit_is_hours_never_a_dose(first, reply, dose, per_day):
    change = amendments.read(read(reply), _card(first))
    assert change is not None and change.dose == dose
    if per_day:
        timing = parse_timing(change.frequency or "")
        assert timing and timing["frequency"] * 24 / timing["period"] == per_day


@pytest.mark.parametrize("message, cancels", [
    ("bórralo", True), ("apaga isso", True), ("efface-le", True), ("supprime", True),
    # near-words: a drug named to remove from her list is no cancel of the card
    ("borra el registro de ayer de la tensión y pon 150/90", False),
])
def test_erased_in_words_withdraws_the_card(message, cancels):
    assert amendments.cancels(message) is cancels


@pytest.mark.parametrize("message, names", [
    ("Informe: 'Se programa tomografía con contraste yodado el lunes'. ¿Y la metformina?", []),
    ("Courrier du cardiologue : « FA permanente »", []),
    ("Carta de referência: grávida de 24 semanas", []),
    # near-words: a surname heading the message is still a person
    ("Adeyemi : allergies ?", ["Adeyemi"]),
])
def test_a_documents_label_is_no_person(message, names):
    assert heading_names(message) == names


def test_a_drafted_document_carries_the_review_of_the_list_it_shows():
    from ..tools.test_drafts import CHART

    review = ("Medication review of 2 active medication(s):",
              "CRITICAL — Avoid warfarin with aspirin — major bleeding risk")
    draft = compose(DraftRequest("discharge", "rédige le compte rendu de sortie"), CHART,
                    date(2026, 11, 20), review=review)
    assert ("MEDICATION REVIEW OF 2 ACTIVE MEDICATION(S)\n- CRITICAL — Avoid warfarin with aspirin"
            in draft.text())


@pytest.mark.parametrize("message, drugs", [
    ("on switch le lisinopril pour du Coversyl ?", ("lisinopril", "perindopril")),
    ("vc acha q posso passar alivium pra ele?", ("ibuprofen",)),
    ("Triatec 2,5 mg le matin", ("ramipril",)),
    ("Losacor 50 una vez al día", ("losartan",)),
    ("ponle ketorolaco 30 mg IM stat", ("ketorolac",)),
    # near-words: a word of the four languages one letter from a brand is no drug, a
    # misspelt drug still is
    ("Informe: 'Se programa tomografía con contraste yodado'. ¿Y la metformina?",
     ("iodinated contrast", "metformin")),
    ("amoxcilin 500 tds", ("amoxicillin",)),
])
def test_the_brands_of_other_countries_and_no_word_as_a_drug(message, drugs):
    assert read(message).entities.drugs == drugs


def test_a_brand_after_a_partitive_is_a_drug_never_a_person():
    said = read("on switch le lisinopril pour du Coversyl ?")
    assert said.subject.about == "patient" and not said.entities.patient_names


@pytest.mark.parametrize("message, focus", [
    ("e ela pode continuar com o remédio da pressão?", "review"),
    ("ses médicaments pour la tension sont ok ?", "review"),
    ("las pastillas de la presión, ¿las sigue?", "review"),
    # near-words: her blood pressure itself
    ("e a pressão?", "vitals:bp"),
    ("qual a pressão dela?", "vitals:bp"),
])
def test_her_medicine_for_the_blood_pressure_is_her_list(message, focus):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(message) == focus


def test_a_drug_closing_a_quotation_is_named():
    said = read("Nota de envío: 'Paciente con embarazo, HAS en tratamiento con lisinopril'. ¿Algo?")
    assert said.entities.drugs == ("lisinopril",)


@pytest.mark.parametrize("message, about", [
    ("che el potasio de la sra q dio", "patient"),
    ("o potássio da senhora, quanto deu?", "patient"),
    # near-word: a name after the title is someone else
    ("el potasio de la sra Garcia q dio", "other"),
])
def test_the_patient_by_her_title_alone_is_her(message, about):
    said = read(message, chart=WARFARIN.in_context)
    assert said.subject.about == about
    assert about == "other" or "chart_question" in said.entities.actions
