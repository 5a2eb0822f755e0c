"""The rules probe18_intl's blind run asked for, each beside the near words it must not read:
her kidneys said by the clinician (dialysis, kidney failure) are judged by the kidney rules when
no eGFR is on file; what the clinician would stop, asked alone of her list in fr/pt/es, is the
whole-list review; the cancel said as the better course withdraws the card; a colleague's wish
with the patient as a pronoun asks whether she may have it. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import cancels
from smart_docgemma.agent.extraction import read
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.context import HookData
from smart_docgemma.reading.states import said_in
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said, state", [
    ("il est sous dialyse depuis l'an dernier", "dialysis"),
    ("está en diálisis, ¿sigo con la metformina?", "dialysis"),
    ("paciente em hemodiálise, posso dar ibuprofeno?", "dialysis"),
    ("ESRD on HD three times a week", "dialysis"),
    ("insuffisant rénal, je peux lui passer de l'ibuprofène ?", "kidneys_poor"),
    ("tiene insuficiencia renal, ¿puedo darle naproxeno?", "kidneys_poor"),
    ("doença renal crônica, pode metformina?", "kidneys_poor"),
    ("known CKD, can he have naproxen?", "kidneys_poor"),
])
def test_her_kidneys_said_are_a_state(said, state):
    assert said_in(said).get(state) is True


@pytest.mark.parametrize("said", [
    # denied or asked: not said
    "he's not on dialysis, ok to continue metformin?", "il n'est pas dialysé",
    "no tiene insuficiencia renal", "est-il dialysé ?",
])
def test_her_kidneys_denied_or_asked_are_not_said(said):
    assert not any(said_in(said).get(s) for s in ("dialysis", "kidneys_poor"))


@pytest.mark.parametrize("said", [
    # near words: another organ's failure, a stone, a short word inside a longer one
    "insuffisance cardiaque, on peut mettre du bisoprolol ?", "insuficiencia cardíaca",
    "renal colic last year", "cálculo renal", "akinesia of the left ventricle",
    "ERCP booked tomorrow", "renal ultrasound normal",
])
def test_near_words_say_no_kidney_state(said):
    assert not any(said_in(said).get(s) for s in ("dialysis", "kidneys_poor"))


@pytest.mark.parametrize("state, drug, finding", [
    ("dialysis", "metformin", "Avoid metformin — on dialysis (said by the clinician)"),
    ("kidneys_poor", "naproxen", "Avoid naproxen — kidney failure, said by the clinician"),
])
def test_the_kidney_rules_judge_the_state_said_when_no_egfr_is_on_file(state, drug, finding):
    empty = {"conditions": [], "pregnancy": [], "labs": []}
    said = HookData(resources=empty, stated=frozenset({state}))
    lines = [f.summary for f in drug_safety.check([drug], said, None, True).findings]
    assert any(line.startswith(finding) for line in lines)
    unsaid = HookData(resources=empty)
    assert not any("said by the clinician" in f.summary
                   for f in drug_safety.check([drug], unsaid, None, True).findings)


def test_an_egfr_on_file_is_judged_itself_not_the_state_said():
    egfr = {"resourceType": "Observation", "status": "final",
            "code": {"coding": [{"system": "http://loinc.org", "code": "33914-3"}]},
            "valueQuantity": {"value": 75, "unit": "mL/min/{1.73_m2}"},
            "effectiveDateTime": "2026-11-01"}
    data = HookData(resources={"conditions": [], "pregnancy": [], "labs": [egfr]},
                    stated=frozenset({"kidneys_poor"}))
    assert not any("said by the clinician" in f.summary
                   for f in drug_safety.check(["naproxen"], data, None, True).findings)


@pytest.mark.parametrize("said", [
    "¿qué le quitarías?", "o que você tiraria?", "qu'est-ce que tu enlèverais ?",
    "tu arrêterais quoi ?", "desprescrever? o que dá pra tirar?", "¿qué suspenderías?",
])
def test_what_she_could_stop_asked_alone_is_her_list_reviewed(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    # near words: a time, a drug's dose, a suggestion, something else taken
    "¿qué hora es?", "que tal parar?", "o que ele tira?", "tira a pressão dele",
])
def test_near_words_are_no_list_review(said):
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("said", [
    "mejor cancela eso", "melhor cancela isso", "plutôt annule", "better cancel that",
])
def test_the_cancel_said_as_the_better_course_cancels(said):
    assert cancels(said)


@pytest.mark.parametrize("said", ["mejor 500 mg", "melhor de 12/12h", "plutôt 250"])
def test_a_change_said_as_the_better_course_is_no_cancel(said):
    assert not cancels(said)


@pytest.mark.parametrize("message", [
    "l'interne veut lui prescrire du kétoprofène", "le chir souhaite lui donner du naproxène",
    "o residente quer receitar diclofenaco", "la residente quiere recetarle ibuprofeno",
])
def test_a_wish_with_her_pronoun_asks_whether_she_may_have_it(message):
    assert "give" in read(message).entities.actions


@pytest.mark.parametrize("said", [
    "¿qué le sobra?", "o que está sobrando?", "qu'est-ce qui est en trop dans son traitement ?",
    "dá pra enxugar a prescrição?", "alléger son ordonnance ?", "simplificar la medicación",
])
def test_what_is_too_much_or_the_list_trimmed_is_her_list_reviewed(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    # near words: something else left over or simplified
    "¿qué sobra de la comida?", "o que sobra do soro?", "simplifier la phrase",
])
def test_near_words_of_too_much_are_no_list_review(said):
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("message, beside", [
    ("a senhora da cama ao lado tem alergia?", ("cama ao lado",)),
    ("le monsieur du lit d'en face, il prend quoi ?", ("lit d'en face",)),
    ("la señora de la habitación de enfrente, ¿qué INR tiene?", ("habitacion de enfrente",)),
    ("what is the lady in the bed opposite on?", ("bed opposite",)),
    # near words: a new bed is furniture, her own bed by the window is hers
    ("la cama nueva llegó, ¿le doy metformina?", ()),
    ("elle est dans le lit près de la fenêtre, K ?", ()),
])
def test_a_bed_beside_hers_holds_another_patient(message, beside):
    from smart_docgemma.reading.people import beside_people

    assert tuple(beside_people(message)) == beside
