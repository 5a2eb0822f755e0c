"""What the eleventh blind French/Portuguese/Spanish set (probe11_intl) found read wrongly, read
rightly, each rule beside the near-words it must not catch: a result asked with its article or as
the subject of a state ("o INR anterior?", "la K est toujours haute ?") is her chart's; a name in
lower case after "se a" / "si" before a verb of taking is another patient; "no lo hagas" withdraws
the card; "¿por qué?" after a card checks its drug again; a dose change said with its verb
("subir metformina a 850 mg") is an order, never in a question ("el potasio sube con …?"); a
result asked beside a drug ("INR ? et arrête l'aspirine") reads the result as well."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, planning, state
from smart_docgemma.agent.extraction import read
from smart_docgemma.reading.request import Kind
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words.windows import asked

from ..support.fixture_charts import chart

WARFARIN = chart("02-warfarin.json")  # Robert Mensah: warfarin and aspirin, INR 3.4


@pytest.mark.parametrize("message, focus", [
    ("la K est toujours haute ?", "lab:Potassium"),
    ("o K está alto?", "lab:Potassium"),
    ("el K sigue alto?", "lab:Potassium"),
    ("is the K still high?", "lab:Potassium"),
    # near-words: vitamin K, K as a dose, a K with nothing said of it
    ("la vitamine K est prescrite ?", None),
    ("vitamin k is ok?", None),
])
def test_her_k_as_the_subject_of_a_state_is_her_potassium(message, focus):
    assert chart_focus(message) == focus


@pytest.mark.parametrize("message, asked", [
    ("o INR?", True),
    ("o INR anterior era quanto?", True),
    ("la K est toujours haute ?", True),
    ("el potasio sigue alto?", True),
    # a definition asked, with or without its article
    ("o que é INR?", False),
    ("qu'est-ce que l'INR ?", False),
])
def test_a_result_asked_with_its_article_is_a_chart_question(message, asked):
    assert ("chart_question" in read(message).entities.actions) is asked


@pytest.mark.parametrize("message, about", [
    ("pode ver se a grace adeyemi tem alergia a penicilina?", "other"),
    ("tu sais si margaret thompson prend du potassium ?", "other"),
    ("sabes si el kofi asante toma ibuprofeno?", "other"),
    # near-words: her own pronoun, a word for the patient, no verb of taking
    ("se ela ainda toma varfarina?", "patient"),
    ("sabe se a paciente ainda toma metformina?", "patient"),
    ("ver se o doente tem alergia", "patient"),
])
def test_a_lower_case_name_after_se_or_si_is_another_patient(message, about):
    assert read(message, chart=WARFARIN.in_context).subject.about == about


@pytest.mark.parametrize("message, cancels", [
    ("dejalo, no lo hagas", True),
    ("non, ne le fais pas", True),
    ("melhor não", True),
    ("better not", True),
    ("laisse, on verra demain", True),  # the card put off
    ("agora não", True),
    # near-words: a change of the card, an order
    ("mejor 500", False),
    ("no lo hagas en ayunas, dale con la comida", False),
])
def test_the_act_declined_in_words_withdraws_the_card(message, cancels):
    assert amendments.cancels(message) is cancels


@pytest.mark.parametrize("message, asked", [
    ("¿por qué?", "nitrofurantoin ok for her? ¿por qué?"),
    ("por que? qual o risco?", "nitrofurantoin ok for her? por que? qual o risco?"),
    ("pourquoi ?", "nitrofurantoin ok for her? pourquoi ?"),
    ("ok, why?", "nitrofurantoin ok for her? ok, why?"),
    # another drug asked beside the card's, or its safety for her kidneys
    ("y con la warfarina?", "nitrofurantoin y con la warfarina?"),
    ("c'est bon pour ses reins ?", "nitrofurantoin c'est bon pour ses reins ?"),
    # near-words: a reason asked of something else, a question naming her result
    ("por que ela toma isso?", None),
    ("why is her K high?", None),
])
def test_the_reason_asked_of_a_card_checks_its_drug_again(message, asked):
    assert amendments.asked_of(read(message), "nitrofurantoin", "nitrofurantoin") == asked


@pytest.mark.parametrize("message, kind", [
    ("subir metformina a 850 mg cada 12 h", Kind.ORDER),
    ("augmente la metformine à 850 mg 2x/j", Kind.ORDER),
    ("augmente la metformine", Kind.ORDER),  # its dose is asked
    ("aumenta a metformina para 850 mg de 12/12h", Kind.ORDER),
    # in a question the verb of change orders nothing
    ("el potasio sube con la espironolactona?", Kind.ASK),
    ("la créatinine augmente avec l'ibuprofène ?", Kind.ASK),
])
def test_a_dose_change_said_with_its_verb_is_an_order(message, kind):
    assert read(message).kind == kind


def _tools(message: str) -> list[str]:
    said = read(message, chart=WARFARIN.in_context)
    turn = state.merge(state.new_turn(message, patient_id="pt-warfarin",
                                      chart_summary=WARFARIN.brief, chart=WARFARIN.in_context),
                       {"request": said, "entities": said.entities})
    return planning.required_tools(turn)


def test_a_result_asked_beside_a_drug_reads_the_result_too():
    # the stop drafted since the sixteenth stop (tests/ward/test_stop_chat.py)
    assert set(_tools("INR ? et arrête l'aspirine")) >= {"get_patient_chart", "stop_medication"}
    # the drug alone is checked, no chart read in its place
    assert "get_patient_chart" not in _tools("et l'aspirine, on arrête ?")


@pytest.mark.parametrize("message", ["HBPM préventive en plus chez lui ?", "iniciar hbpm",
                                     "LMWH prophylaxis ok?"])
def test_low_molecular_weight_heparin_by_its_abbreviation_is_an_anticoagulant(message):
    assert read(message).entities.drugs == ("anticoagulant",)


@pytest.mark.parametrize("message, window", [
    ("se K < 3,5 repor KCl 20 mEq VO de 12/12h", None),  # the order's interval, no window
    ("cefalexina 500 cada 6 h", None),
    ("amox 500 q8h", None),
    ("paracetamol 1 g toutes les 6 h", None),
    ("24h mean glucose", "24h"),
    ("glucose < 4 in 48h?", "48h"),
    ("K in the last 12h?", "12h"),
])
def test_an_orders_interval_is_no_window(message, window):
    assert asked(message).window == window


@pytest.mark.parametrize("message, drugs", [
    ("se tomó un Ibupirac anoche", ("ibuprofen",)),
    ("le di Tafirol y Novemina", ("acetaminophen", "metamizole")),
    ("Flanax 550 cada 12 h", ("naproxen",)),
])
def test_latin_american_brands_are_their_ingredient(message, drugs):
    assert read(message).entities.drugs == drugs


@pytest.mark.parametrize("message, about", [
    ("¿y el hijo de la paciente? pesa 15 kg, ¿cuanta amoxicilina le doy?", "other"),
    ("e o filho dela, pode tomar amoxicilina?", "other"),
    ("et la fille de la patiente, elle peut prendre du Doliprane ?", "other"),
    # near-words: the patient herself with an article
    ("y el paciente, ¿qué toma?", "patient"),
    ("el paciente toma warfarina?", "patient"),
])
def test_a_relative_of_the_patient_with_its_article_is_someone_else(message, about):
    assert read(message, chart=WARFARIN.in_context).subject.about == about


def test_a_result_asked_beside_a_drug_without_a_question_mark_is_read_too():
    tools = _tools("pasame la ultima creatinina y decime si puedo darle naproxeno")
    assert "get_patient_chart" in tools


def test_a_drug_named_with_a_protocol_is_checked_too():
    ckd = chart("01-ckd-elder.json")  # Margaret Thompson, K 5.6
    message = "se K < 3,5 repor KCl 20 mEq VO de 12/12h"
    said = read(message, chart=ckd.in_context)
    turn = state.merge(state.new_turn(message, patient_id="pt-ckd-elder", chart_summary=ckd.brief,
                                      chart=ckd.in_context),
                       {"request": said, "entities": said.entities})
    assert set(planning.required_tools(turn)) == {"apply_protocol", "check_drug_safety"}


@pytest.mark.parametrize("message, kind", [
    ("ne pas débuter de spironolactone chez elle pour l'instant, on en reparle", Kind.ASK),
    ("do not start spironolactone", Kind.ASK),
    ("no darle ibuprofeno", Kind.ASK),
    # near-words: the order itself, and another drug ordered with its dose beside the one declined
    ("débuter spironolactone 25 mg le matin", Kind.ORDER),
    ("nao iniciar AINE; so paracetamol 1 g de 6/6h se dor", Kind.ORDER),
])
def test_an_order_said_not_to_be_made_orders_nothing(message, kind):
    assert read(message).kind == kind


@pytest.mark.parametrize("message, days", [
    ("pendant une semaine", 7), ("por uma semana", 7), ("durante una semana", 7),
    ("for a week", 7), ("10 dias", 10), ("un mois", 30), ("ok", None),
])
def test_a_length_said_with_its_article_is_one(message, days):
    assert amendments._days(None, message) == days


def test_the_one_drug_she_takes_asked_alone_is_its_safety_check():
    pregnant = chart("08-pregnant.json")  # Amara Nwosu, on lisinopril
    message = "Nwosu Amara (22/04/1994), ¿puede seguir con el lisinopril?"
    said = read(message, chart=pregnant.in_context)
    turn = state.merge(state.new_turn(message, patient_id="pt-pregnant",
                                      chart_summary=pregnant.brief, chart=pregnant.in_context),
                       {"request": said, "entities": said.entities})
    assert planning.required_tools(turn) == ["check_drug_safety"]


@pytest.mark.parametrize("message, focus", [
    ("¿como vienen las presiones?", "vitals:bp"),
    ("como estão as pressões dela?", "vitals:bp"),
    ("ses tensions ?", "vitals:bp"),
])
def test_blood_pressures_asked_together_are_her_readings(message, focus):
    said = read(message)
    assert said.focus == focus and "chart_question" in said.entities.actions


def test_a_result_of_hers_asked_beside_the_card_asks_of_its_drug():
    asked = amendments.asked_of(read("¿y con el potasio que tiene?"), "enalapril", "enalapril")
    assert asked == "enalapril ¿y con el potasio que tiene?"
    # a result asked on its own, pointing at nothing, is not about the card
    assert amendments.asked_of(read("potasio?"), "enalapril", "enalapril") is None
