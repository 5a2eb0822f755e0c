"""Rules added for probe37_intl (fr/pt/es), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest


# p37-es-3: what she brought from home is her list, which carries its review
@pytest.mark.parametrize("said", ["ojo con lo que trae de casa, algo que no combine?",
                                  "revisa o que ele trouxe de casa",
                                  "ce qu'elle a apporte de chez elle, ca va ensemble ?"])
def test_what_she_brought_from_home_is_her_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["o que traz o exame?",
                                  "trae de casa su glucometro"])
def test_bringing_names_no_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) is None


@pytest.mark.parametrize("said", ["ojo con lo que trae de casa, algo que no combine?",
                                  "revisa o que ele trouxe de casa"])
def test_what_she_brought_from_home_asks_her_chart(said):
    from smart_docgemma.agent.extraction import extract
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["trae de casa su glucometro", "o que traz o exame?"])
def test_bringing_alone_asks_no_chart(said):
    from smart_docgemma.agent.extraction import extract
    assert "chart_question" not in extract(said).actions


# p37-es-7: the discharge as Mexico names it, "egreso"
@pytest.mark.parametrize(("said", "kind"), [
    ("hazme la nota de egreso", "discharge"),
    ("resumen de egreso para el paciente", "discharge"),
    ("fecha de egreso?", None),
    ("ya tiene egreso?", None),
    ("nota de ingreso", None),
])
def test_the_discharge_note_by_its_mexican_name(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind
    assert request_kind(said) == kind


# walk after the set: what is pending in his care, asked as the ward asks it
@pytest.mark.parametrize("said", ["quais as pendencias dele?", "pendencias dela antes da alta",
                                  "tem pendencias?", "cuales son sus pendientes?"])
def test_what_is_pending_in_her_care_is_her_care_gaps(said):
    from smart_docgemma.agent import ward_requests
    assert "care_gaps" in ward_requests.actions(said)


@pytest.mark.parametrize("said", ["pendencias dele da farmacia", "pendencias administrativas dela",
                                  "a consulta ta pendente?", "sus pendientes de laboratorio ya salieron?"])
def test_other_pending_lists_are_no_care_gaps(said):
    from smart_docgemma.agent import ward_requests
    assert "care_gaps" not in ward_requests.actions(said)


# walk after the set: a cancel with the reason that the patient already has it
@pytest.mark.parametrize("said", ["finalement on arrete, il en a deja",
                                  "on arrete, elle en prend deja a la maison",
                                  "cancela, ele ja usa em casa", "quitalo, ya lo toma en casa",
                                  "cancel that, he already has some at home"])
def test_a_cancel_because_she_already_has_it_withdraws(said):
    from smart_docgemma.agent.amendments import cancels
    assert cancels(said)


@pytest.mark.parametrize("said", ["on arrete, il en a besoin de 20 mg", "il en a deja",
                                  "annule, il en a deja pris 2 g", "ele ja usa em casa"])
def test_having_it_with_a_number_or_no_cancel_word_is_no_cancel(said):
    from smart_docgemma.agent.amendments import cancels
    assert not cancels(said)


# walk after the set: a dose in millions of units is its units in figures, never 2.4 mg
@pytest.mark.parametrize(("said", "read"), [
    ("penicilina benzatinica 2.4 millones IM dosis unica",
     "penicilina benzatinica 2400000 UI IM dosis unica"),
    ("Benzetacil 1,2 milhao de UI IM", "Benzetacil 1200000 UI IM"),
    ("Extencilline 2,4 MUI IM", "Extencilline 2400000 UI IM"),
    ("penicilina 2.4 millones de unidades", "penicilina 2400000 UI"),
])
def test_millions_of_units_are_written_in_figures(said, read):
    from smart_docgemma.reading.numbers import in_digits
    assert in_digits(said) == read


@pytest.mark.parametrize("said", ["2 millions de plaquettes", "amoxicilina 500 mg",
                                  "heparina 5.000 UI SC", "sao 2 milhoes de celulas"])
def test_no_million_of_units_is_left_as_written(said):
    from smart_docgemma.reading.numbers import in_digits
    assert in_digits(said) == said


# walk after the set: the discharge itself asked to be written in Portuguese and Spanish
@pytest.mark.parametrize(("said", "kind"), [
    ("faz a alta dele, com as orientacoes", "discharge"),
    ("hazle el alta", "discharge"),
    ("a alta dele e amanha?", None),
    ("ja deu alta?", None),
    ("faz a prescricao dele", None),
])
def test_the_discharge_asked_written_in_pt_and_es(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind
    assert request_kind(said) == kind


# third walk: the referral form as Mexico names it
@pytest.mark.parametrize(("said", "kind"), [
    ("hazle su hoja de referencia a gineco", "referral"),
    ("nota de referencia a cardio", "referral"),
    ("hoja de indicaciones", None),
    ("sus valores de referencia?", None),
])
def test_the_mexican_referral_form(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind
    assert request_kind(said) == kind
