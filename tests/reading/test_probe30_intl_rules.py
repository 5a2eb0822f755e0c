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
