"""probe30_intl's rules, each with near words that must not trigger: after a French, Portuguese
or Spanish word of since, a day in digits is day first ("desde 1/12": since 1 December), while
English "since 1/12" and a day in digits alone stay unread; a clock hour dictated in words after
its preposition is read in digits ("às sete e meia": 07:30), while a number word with no
preposition before it stays as written; the Colombian "formulación" looked over and the Spanish
verb with its pronouns ("revíseme") are the whole-list review, while a drug's pharmaceutical
form ("formulación pediátrica") is not; "die" after a route, a form, a unit or a number is once a
day ("po die x 5j"), never the English verb."""
from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.languages import frequency
from smart_docgemma.reading.numbers import in_digits
from smart_docgemma.tools.chart.answers import chart_focus
from smart_docgemma.tools.words import windows
from smart_docgemma.tools.words.when import clock_said

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(("said", "key"), [
    ("qual foi o magnésio mais baixo desde 1/12?", "from12-1"),
    ("glucosa desde el 01/12", "from12-1"),
    ("K depuis le 3/11/2025", "from11-3-2025"),
    ("glicemias a partir do dia 2/12", "from12-2"),
    ("kaliémie à partir du 30/11", "from11-30"),
])
def test_a_day_in_digits_after_a_romance_since_is_day_first(said, key):
    asked = windows.asked(said)
    assert asked.window == key
    window = windows.bounds(key, NOW, UTC)
    assert window.end == NOW and window.label.startswith("since ")


@pytest.mark.parametrize("said", [
    "glucose since 1/12",          # English: month or day first differs by country
    "K le 1/12",                   # the day in digits alone, no since
    "desde 12/13",                 # no thirteenth month
    "desde 31/2",                  # no 31 February
    "INR desde 1/12/",             # a date cut short
])
def test_near_words_english_since_or_a_day_alone_stay_unread(said):
    assert not (windows.asked(said).window or "").startswith("from")


@pytest.mark.parametrize(("said", "at"), [
    ("pedir analises pra amanha as sete e meia: hemograma", time(7, 30)),
    ("mañana a las siete y media", time(7, 30)),
    ("hemograma às oito da manhã", time(8, 0)),
    ("amanhã às onze e meia", time(11, 30)),
    ("a la una y media", time(13, 30)),
])
def test_a_clock_hour_dictated_after_its_preposition_is_read(said, at):
    clock = clock_said(in_digits(said))
    assert clock is not None and clock.at in (at, time(at.hour % 12, at.minute))


@pytest.mark.parametrize("said", [
    "duas e meia colheres",        # no preposition: a quantity, as written
    "sete e meia",                 # the time with no preposition before it
    "tomar uno y medio",           # a tablet and a half
    "a dos de ellos",              # a preposition, but no half nor part of the day after
])
def test_near_words_number_words_with_no_clock_preposition_stay(said):
    assert in_digits(said) == said


@pytest.mark.parametrize("said", [
    "revíseme la formulación del paciente, ¿algo para tener en cuenta?",
    "chequea su formulación", "revíseme la medicación del paciente", "revisale el tto",
])
def test_the_formulacion_looked_over_and_revise_with_pronouns_are_the_review(said):
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", [
    "revise la formulación pediátrica de amoxicilina",   # a drug's pharmaceutical form
    "mire la formulación en jarabe",
    "revisa la formulacion de la suspension",
    "formulación de amoxicilina?",                       # no verb of looking over
])
def test_near_words_a_pharmaceutical_formulation_is_no_review(said):
    assert chart_focus(said) != "review"


# --- the holdout's miss: "die" (once a day) after a route, a form, a unit or a number

@pytest.mark.parametrize("said", ["po die x 5j", "céfixime 400 mg die", "1 co die", "400 die"])
def test_die_after_a_route_form_unit_or_number_is_once_a_day(said):
    assert frequency.repeat(said) == {"frequency": 1, "period": 1, "periodUnit": "d"}


@pytest.mark.parametrize("said", [
    "could he die from this", "risk he will die in 2 days",   # the English verb
    "audie 2", "die Tablette",
])
def test_near_words_die_as_a_word_is_no_frequency(said):
    assert frequency.repeat(said) is None


def test_the_route_frequency_and_length_given_complete_the_order_line():
    history = [{"role": "user", "content": "céfixime 400 mg"},
               {"role": "assistant", "content": "(checked)"}]
    assert clarification.completed("po die x 5j", history).endswith("céfixime 400 mg po die x 5j")


# --- the walk of thirty new fr/pt/es questions (fifteenth stop)

@pytest.mark.parametrize(("said", "name"), [
    ("et la dame Thompson, ses reins sont comment ?", "Thompson"),
    ("la Dame Adeyemi a des allergies ?", "Adeyemi"),
])
def test_la_dame_before_a_capitalised_surname_is_a_title(said, name):
    from smart_docgemma.agent.languages import fold, title_pattern
    m = title_pattern().search(fold(said))
    assert m is not None and (m.group("name") or m.group("cap")) == name


@pytest.mark.parametrize("said", [
    "la dame du lit 4 a eu sa kaliémie ?",    # the lady of a bed, no surname
    "la dame âgée, sa créat ?",               # the lady, described
    "la dame enceinte peut prendre du fer ?",
])
def test_near_words_la_dame_before_a_lower_case_word_names_no_one(said):
    from smart_docgemma.agent.languages import fold, title_pattern
    m = title_pattern().search(fold(said))
    assert m is None or not (m.group("name") or m.group("cap") or "").lower().startswith(
        ("du", "agee", "enceinte"))


@pytest.mark.parametrize("said", [
    "tira isso, deixa como estava", "deixa como estava", "laisse comme c'était",
    "no, leave it as it was", "dejalo como estaba", "laisse comme avant",
])
def test_the_card_put_back_as_it_was_withdraws_it(said):
    from smart_docgemma.agent.amendments import cancels
    assert cancels(said)


@pytest.mark.parametrize("said", [
    "deixa como estava e aumenta o lisinopril",   # another order after it
    "laisse comme avant mais à 10 mg",            # a new dose
    "fica como estava a dose de 500?",
])
def test_near_words_as_it_was_with_a_new_order_is_no_cancel(said):
    from smart_docgemma.agent.amendments import cancels
    assert not cancels(said)


@pytest.mark.parametrize("said", ["l'INR est dans la cible ?", "la glycémie est hors cible ?",
                                  "la kaliémie est dans les normes ?"])
def test_a_value_in_or_out_of_its_target_is_hers(said):
    from smart_docgemma.agent.extraction import extract
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["quelle est la cible d'INR ?",
                                  "INR cible pour une valve mécanique ?"])
def test_near_words_the_target_in_general_is_no_value_of_hers(said):
    from smart_docgemma.agent.extraction import extract
    assert "chart_question" not in extract(said).actions


@pytest.mark.parametrize(("said", "at"), [
    ("FR 22 às nove e meia da noite", time(21, 30)),
    ("a las 9 y media de la noche", time(21, 30)),
    ("a las 8 menos cuarto de la noche", time(19, 45)),
])
def test_the_half_of_the_day_after_a_half_or_quarter_counts(said, at):
    clock = clock_said(in_digits(said))
    assert clock is not None and clock.at == at


@pytest.mark.parametrize(("said", "at"), [
    ("às 7 e meia da manhã", time(7, 30)),     # the morning: as said
    ("às 9 e meia", time(9, 30)),              # no half of the day: as said
])
def test_near_words_the_morning_or_none_keeps_the_hour(said, at):
    clock = clock_said(in_digits(said))
    assert clock is not None and clock.at == at
