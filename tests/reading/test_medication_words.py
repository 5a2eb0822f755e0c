"""The medication list named in any of the four languages, as typed: the chart question's
focus is the active medications (whose answer carries the whole-list safety check) for every
synonym of the vocabulary and a one-letter slip in a long one, never for a near word that means
something else. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.tools.chart.answers import chart_focus, names_medications


@pytest.mark.parametrize("text", [
    # synonyms, as written
    "is his medication list safe?", "meds?", "any drugs to worry about", "her treatment ok?",
    "ttt en cours ?", "ordonnance ok ou pas ?", "tu peux regarder ses médocs stp",
    "ses médicaments", "a prescrição dele está segura?", "a receita dela", "os remédios dele",
    "a medicação dele",
    "¿su tratamiento es seguro?", "échale un ojo a sus fármacos", "sus medicinas", "la receta",
    # one slip in a long synonym
    "is his medicaton list safe?", "medciations ok?", "revue des medicamnets", "ses traitemnt",
    "o tratamneto dela", "su tratamento", "as prescricoes dele",
])
def test_the_medication_list_in_any_language_and_with_a_slip(text):
    assert names_medications(text)
    assert chart_focus(text) in ("medications", "review", "interactions")


@pytest.mark.parametrize("text", [
    "she does meditation daily", "medicina interna", "refer to internal medicine",
    "pode receitar amoxicilina 500 mg", "recetar paracetamol", "medical history please",
    "ordonner une NFS", "tratar la fiebre", "he dragged his leg", "trauma series",
    "the premedication area", "dosage of drug X", "ordinance", "remediation",
])
def test_near_words_are_not_the_medication_list(text):
    assert not names_medications(text)


@pytest.mark.parametrize("text", [
    "is his medicaton list safe?", "is his medication list safe?", "are his meds ok?",
    "is her treatment safe?", "review her medicamentos", "any concerns with his treatmnet",
])
def test_a_review_of_the_list_whatever_word_names_it(text):
    assert chart_focus(text) == "review"


@pytest.mark.parametrize("text", [
    "is his medicaton list safe?", "is his medication list safe?", "is her treatment safe?",
])
def test_asking_whether_the_list_is_safe_reads_the_chart(text):
    from smart_docgemma.agent.extraction import extract

    assert "chart_question" in extract(text).actions


@pytest.mark.parametrize("text", [
    "any red flags in his drug list?", "anything off on the med chart?", "any concerns with his current tx?",
])
def test_the_list_named_as_a_list_or_in_shorthand_is_reviewed(text):
    assert chart_focus(text) == "review"


@pytest.mark.parametrize(("text", "chart"), [
    ("whats he on", True), ("what is she on?", True), ("¿qué toma?", True),
    ("¿qué está tomando?", True), ("il prend quoi ?", True), ("o que ele toma?", True),
    ("whats on the menu", False), ("toma de muestra de sangre?", False),
    ("¿qué es la toma de decisiones compartida?", False), ("metformina se toma con comida?", False),
])
def test_what_she_takes_is_her_medication_list(text, chart):
    from smart_docgemma.agent.extraction import extract

    assert ("chart_question" in extract(text).actions) is chart
    if chart:
        assert chart_focus(text) in ("medications", "review")


@pytest.mark.parametrize("text", ["¿cómo va la función renal?", "fonction rénale ?",
                                  "como está a função renal dela?"])
def test_kidney_function_asked_in_any_language_is_her_egfr(text):
    from smart_docgemma.agent.extraction import extract

    assert chart_focus(text) == "lab:eGFR" and "chart_question" in extract(text).actions


@pytest.mark.parametrize("text", ["happy with his current prescriptions?", "comfortable with her meds?"])
def test_contentment_with_the_list_asks_its_review(text):
    assert chart_focus(text) == "review"


def test_with_his_current_list_and_no_drug_named_is_the_review():
    from smart_docgemma.agent.extraction import extract

    assert "chart_question" in extract("happy with his current prescriptions?").actions
