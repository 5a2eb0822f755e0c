"""The rules probe21_intl's blind run asked for, each beside the near words it must not read: a
cancel followed by the patient's reason ("finalement annule-le, il a mal à l'estomac") withdraws
the card, while a clause with a replacement or a number changes it; a bare strength parted from
its count of tablets by a colon or a comma ("Doliprane 500 : 2 cp") is still the product's; a
test named as the last result beside a lab order ("donne-moi sa dernière HbA1c et demande une
NFS") is read from the chart, never ordered, while "repeat the last INR" and a time's "last"
("last week", "last 48h") keep the order. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import cancels
from smart_docgemma.agent.extraction import _strength_count, read
from smart_docgemma.agent.several_asks import parts
from smart_docgemma.tools.words.ward_words import lab_tests, last_result_named
from smart_docgemma.tools.writes.orders import parse_timing


@pytest.mark.parametrize("said", [
    "finalement annule-le, il a mal à l'estomac", "cancela, ele está com gastrite",
    "quítalo, tiene gastritis", "cancel it, she's vomiting", "annule, car elle saigne",
    "esquece, porque ele vomitou", "olvídalo, ya que tiene insuficiencia renal",
    "cancel that, because he has a rash",
])
def test_a_cancel_with_the_patients_reason_withdraws(said):
    assert cancels(said)


@pytest.mark.parametrize("said", [
    # a replacement, a need of another drug or a number: a change or an order, never only a cancel
    "annule, il faut donner du paracétamol", "cancela, tem que dar dipirona",
    "quítalo, hay que darle paracetamol", "annule, il a besoin de 500 mg",
    "cancel it, she has to switch to cefalexin",
    # a reason with no cancel word is no cancel
    "il a mal à l'estomac", "tiene gastritis",
])
def test_a_reason_with_a_replacement_or_no_cancel_word_is_not_a_cancel(said):
    assert not cancels(said)


@pytest.mark.parametrize("said, dose", [
    ("Doliprane 500 : 2 cp x3/j si douleur", "1000 mg (2 × 500 mg)"),
    ("ibuprofeno 600, 1 comp. c/8h x 5 días", "600 mg"),
    ("metformine 850, 1 cp matin et soir", "850 mg"),
    ("amoxi 500 2 comp", "1000 mg (2 × 500 mg)"),
])
def test_a_strength_parted_from_its_count(said, dose):
    assert _strength_count(said) == dose


@pytest.mark.parametrize("said", [
    "paracétamol 1 g x3/j pendant 10 jours", "ibuprofeno 600 mg c/8h", "2 cp le soir",
    "glicemia 180, 2 vezes ao dia",
])
def test_no_bare_strength_and_count_is_no_strength(said):
    assert _strength_count(said) is None


@pytest.mark.parametrize("said, ordered", [
    ("donne-moi sa dernière HbA1c et demande une NFS pour demain matin", ["complete blood count"]),
    ("what was her last potassium, and order a CBC for tomorrow", ["complete blood count"]),
    ("qual a última HbA1c dele? e pede hemograma amanhã", ["complete blood count"]),
    ("¿cuál fue su último potasio? y pide hemograma mañana", ["complete blood count"]),
    # a word that does the test again, or a time's "last": the test stays ordered
    ("repeat the last INR tomorrow", ["inr"]),
    ("K over the last 48h, order one tomorrow", ["serum potassium"]),
    ("last week order CBC for tomorrow", ["complete blood count"]),
    ("NFS + iono demain à 7h", ["complete blood count", "electrolytes panel"]),
])
def test_a_test_named_as_the_last_result_is_not_ordered(said, ordered):
    assert lab_tests(said) == ordered


@pytest.mark.parametrize("said, count", [
    ("donne-moi sa dernière HbA1c et demande une NFS", 2),
    ("o potássio e a creatinina", 2), ("el INR y pide hemograma", 2),
    # "e"/"y"/"et" inside a word never part the message
    ("metformine et", 1), ("elle prend quoi", 1), ("yoga", 1),
])
def test_and_in_each_language_parts_the_requests(said, count):
    assert len(parts(said)) == count


@pytest.mark.parametrize("said, hours", [
    ("de 8 en 8 horas", 8), ("de 12 en 12 h", 12), ("de 12 en 12", 12), ("de 6 en 6 hs", 6),
])
def test_the_interval_said_twice_in_spanish(said, hours):
    assert parse_timing(said) == {"frequency": 1, "period": hours, "periodUnit": "h"}


@pytest.mark.parametrize("said", ["de 2 en 2 días", "de 10 en 10 minutos"])
def test_an_interval_of_days_or_minutes_is_no_hourly_interval(said):
    timing = parse_timing(said)
    assert not timing or timing.get("periodUnit") != "h"


@pytest.mark.parametrize("said, named", [
    ("dame su último potasio y pídele un ionograma para mañana", True),
    ("donne-moi sa dernière HbA1c et demande une NFS", True),
    # a time's "last", a redo, or no result after "last"
    ("K over the last 48h, order one tomorrow", False), ("repeat the last INR", False),
    ("order a CBC tomorrow, the last was normal", False), ("NFS demain", False),
])
def test_a_result_named_as_the_last_one(said, named):
    assert last_result_named(said) is named


# ---- rules written after the holdout was read (its unsafe answers), general and in four languages


@pytest.mark.parametrize("said", [
    "quita eso, mejor lo vemos mañana", "annule, bon, on verra demain",
    "esquece, melhor vamos esperar a cultura", "cancel it, actually we will wait for the culture",
])
def test_an_aside_may_open_the_clause_after_a_cancel(said):
    assert cancels(said)


@pytest.mark.parametrize("said", [
    "cancela, melhor dar 500", "quita eso, mejor dale paracetamol", "annule, plutôt 500 mg",
    "cancel that, actually 10 mg", "actually we will wait",
])
def test_an_aside_before_a_replacement_or_with_no_cancel_is_no_cancel(said):
    assert not cancels(said)


@pytest.mark.parametrize("said, asked", [
    # an order word asked with her chart as its context: asked, never carded
    ("on peut lui donner du diclofenac 50 mg toutes les 8h avec son bilan renal ?", True),
    ("posso dar ibuprofeno 400 mg de 8/8h com a funcao renal dela?", True),
    ("can i give ibuprofen 400 mg tds given her renal function?", True),
    # an order with a chart read beside it, not asked: no question
    ("give ibuprofen 400 mg tds, check her renal function", False),
])
def test_an_order_word_asked_beside_her_chart_is_asked(said, asked):
    assert ("give" in read(said).entities.actions) is asked


@pytest.mark.parametrize("said, kind", [
    ("fais une synthèse pour le médecin de garde", "handoff"),
    ("resumo para o médico de plantão", "handoff"),
    ("resumen para el residente de guardia", "handoff"),
    ("summary for the on-call doctor please", "handoff"),
    # a note of the night read, or the on-call doctor as the subject: no draft
    ("la note de garde d'hier disait quoi ?", None),
    ("le médecin de garde a noté un INR à 3.4", None),
    ("résumé: INR 3.4 ce matin, vu par la garde", None),
])
def test_a_summary_for_whoever_is_on_call_is_the_handover(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind

    assert request_kind(said) == kind


@pytest.mark.parametrize("said, ordered", [
    ("pide un INR para mañana y dime si le puedo dar naproxeno", True),
    ("demande un INR pour demain et dis-moi si je peux lui donner de l'ibuprofène", True),
    ("INR in 2 days and tell me if I should stop aspirin", True),
    # a decision asked of the result on file: read, never ordered
    ("check the INR and tell me if I should hold the warfarin", False),
    ("el INR de esta mañana, dime si le puedo dar naproxeno", False),
    ("checa o INR e me fala se preciso ajustar a varfarina", False),
])
def test_a_decision_beside_a_test_for_later_keeps_the_order(said, ordered):
    from smart_docgemma.agent.ward_requests import actions

    assert ("order_lab" in actions(said)) is ordered


@pytest.mark.parametrize("said", [
    "K and creat over the last 48h", "la créatinine et le potassium des 2 derniers jours",
    "o potássio e a creatinina das últimas 48 horas",
])
def test_several_results_asked_over_a_window_keep_the_window(said):
    """Each result answered over the window (found by a walk: the latest results outside it
    were shown as "Results asked")."""
    from smart_docgemma.agent.planning import chart_args
    from smart_docgemma.tools.args import PatientChartArgs
    from smart_docgemma.tools.chart import answers
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient
    from smart_docgemma.tools.words.windows import Asked

    from ..ward.test_window_questions import NOW, ZONE, Result, observation

    args = PatientChartArgs(**chart_args(read(said), "p1"))
    assert args.tests and args.window
    chart = [Result("2823-3", 5.9, "mmol/L", 6), Result("2823-3", 4.8, "mmol/L", 70),
             Result("2160-0", 1.6, "mg/dL", 30)]
    text = answers.several_in_window(
        args.tests.split(","), ChartData(patient=ChartPatient(id="p1")), Asked(args.window),
        [observation(i, r) for i, r in enumerate(chart)], ZONE, NOW)
    assert "5.9" in text and "1.6" in text and "4.8" not in text


# ---- found by walks after the holdout was read


@pytest.mark.parametrize("said", [
    "cancélalo, que tiene diarrea", "tira isso, que ele vomitou", "annule, qu'il a vomi",
])
def test_the_spoken_que_of_cause_after_a_cancel_withdraws(said):
    assert cancels(said)


@pytest.mark.parametrize("said, rest", [
    ("annule, elle prendra du paracétamol", "elle prendra du paracetamol"),
    ("cancela, ela vai tomar dipirona", "ela vai tomar dipirona"),
    ("cancel that, she'll have paracetamol", "she'll have paracetamol"),
    # only a cancel, a replacement, a number, or no cancel at the start: none
    ("annule", None), ("cancel it, give cefalexin instead", None), ("annule, mets 500", None),
    ("elle prendra du paracétamol, annule", None), ("esquece, não vamos mais fazer", None),
])
def test_a_cancel_that_goes_on_to_say_something_else(said, rest):
    from smart_docgemma.agent.amendments import cancel_then

    assert cancel_then(said) == rest


@pytest.mark.parametrize("said", [
    "cancela, o utente tem úlcera", "annule, le malade a une insuffisance rénale",
    "quítalo, la paciente está sangrando", "cancel that, the patient has an ulcer",
])
def test_the_patient_named_as_the_ward_names_them_after_a_cancel_withdraws(said):
    assert cancels(said)


@pytest.mark.parametrize("said", [
    # the patient's need of another drug or a dose: no plain cancel
    "cancela, o utente tem que tomar dipirona", "annule, le malade a besoin de 500 mg",
])
def test_the_patient_with_a_replacement_or_a_dose_is_no_plain_cancel(said):
    assert not cancels(said)
