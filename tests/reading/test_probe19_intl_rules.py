"""The rules probe19_intl's blind run asked for, each beside the near words it must not read: a
window since a month named ("depuis mai", "desde agosto") starts at that month's first midnight;
a cancel followed by a clause that refuses or waits ("esquece, não vamos mais fazer") withdraws
the card, while one that names a replacement or a number changes it; brands of French,
Portuguese and Spanish wards the tables missed resolve to their ingredient; "as needed" alone
keeps the card's interval; breastfeeding said in other words ("está lactando", "da el pecho")
is her state, and a drug the lactation table lacks is said not covered. Pure: no HAPI."""
from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from smart_docgemma.agent.amendments import _bare_dose, _frequency, cancels
from smart_docgemma.agent.extraction import read
from smart_docgemma.checks import drug_safety
from smart_docgemma.checks.context import HookData
from smart_docgemma.knowledge.mentions import find_drugs
from smart_docgemma.reading.states import said_in
from smart_docgemma.tools.words.windows import asked, bounds
from smart_docgemma.tools.writes.orders import parse_timing

NOW = datetime(2026, 12, 6, 5, 0, tzinfo=UTC)


@pytest.mark.parametrize("said, start", [
    ("son potassium le plus bas depuis mai ?", datetime(2026, 5, 1, tzinfo=UTC)),
    ("a creatinina mais baixa desde maio", datetime(2026, 5, 1, tzinfo=UTC)),
    ("¿el INR más bajo desde agosto?", datetime(2026, 8, 1, tzinfo=UTC)),
    ("combien d'INR depuis le mois d'août ?", datetime(2026, 8, 1, tzinfo=UTC)),
    ("glucose since the start of March", datetime(2026, 3, 1, tzinfo=UTC)),
    ("potassium desde el mes de enero de 2025", datetime(2025, 1, 1, tzinfo=UTC)),
    ("since December", datetime(2026, 12, 1, tzinfo=UTC)),
])
def test_a_window_since_a_month_named(said, start):
    window = asked(said).window
    assert window and bounds(window, NOW, UTC).start == start


@pytest.mark.parametrize("said", [
    # a month without "since" is no window; "mai"/"mars" are words of their own
    "rdv en mai", "elle revient en mars", "desde ontem", "may I ask her potassium?",
    "potassium in May",
])
def test_a_month_without_since_is_no_month_window(said):
    assert not re.fullmatch(r"m\d.*", asked(said).window or "")


def test_a_month_ahead_of_today_is_last_years():
    assert bounds("m12", datetime(2026, 11, 20, tzinfo=UTC), UTC).start.year == 2025


@pytest.mark.parametrize("said", [
    "esquece, não vamos mais fazer", "laisse tomber, on attend la culture",
    "olvídalo, ya no hace falta", "cancel that, we'll wait for the culture",
    "annule, on ne le fait plus", "esquece isso, não precisa mais",
    "laisse tomber, pas besoin", "cancel that, not needed",
])
def test_a_cancel_with_a_clause_refusing_or_waiting_withdraws(said):
    assert cancels(said)


@pytest.mark.parametrize("said", [
    # a replacement or a number after the cancel is an order or a change, never only a cancel
    "annule, mets plutôt 500", "cancel it, give cefalexin instead",
    "esquece, não vamos dar 500", "cancela, pero dale paracetamol",
    "annule, ne donne pas l'amoxicilline mais la céphalexine",
    # no cancel word at all ("no, wait for the culture" puts the card off: a cancel since
    # probe22_en's walk 50, tests/reading/test_probe22_rules.py)
    "no, 500 mg", "non, 250",
])
def test_a_clause_with_a_replacement_or_no_cancel_word_is_not_a_cancel(said):
    assert not cancels(said)


@pytest.mark.parametrize("said, drug", [
    ("Apiretal 15 mg/kg c/6h", "acetaminophen"), ("Melhoral infantil", "aspirin"),
    ("Tahor 40", "atorvastatin"), ("Mopral 20", "omeprazole"), ("Seguril 40", "furosemide"),
    ("Emconcor 5", "bisoprolol"), ("Solupred 20", "prednisolone"),
    ("Seroplex 10", "escitalopram"), ("Adalate LP", "nifedipine"),
])
def test_regional_brands_resolve(said, drug):
    assert drug in [m.name for m in find_drugs(said)]


@pytest.mark.parametrize("said", ["tahoe", "melhor", "seguir", "mopra"])
def test_near_words_are_no_brand(said):
    assert not find_drugs(said)


@pytest.mark.parametrize("pending, said, kept", [
    ("c/8h", "si dolor", "c/8h si dolor"), ("de 8/8h", "se dor", "de 8/8h se dor"),
    ("qds", "prn", "qds prn"), ("x3/j", "si douleur", "x3/j si douleur"),
    # a new interval, or the card had none: the one said
    ("c/8h", "cada 12 horas", "cada 12 horas"), ("c/8h", "c/6h si dolor", "c/6h si dolor"),
    (None, "si dolor", "si dolor"), ("c/8h", None, "c/8h"),
])
def test_as_needed_alone_keeps_the_cards_interval(pending, said, kept):
    assert _frequency(pending, said) == kept


@pytest.mark.parametrize("said", [
    "laisse tomber, on verra avec le chirurgien", "deixa pra lá, vamos esperar a cultura",
    "olvídalo, lo hablamos mañana", "deixa quieto, ele recusou", "laisse tomber, elle refuse",
    "cancel that, he declined", "olvídalo, lo rechaza",
])
def test_a_cancel_put_off_to_later_withdraws(said):
    assert cancels(said)


@pytest.mark.parametrize("said, state", [
    ("está lactando, ¿le doy Nolotil?", "breastfeeding"), ("da el pecho a su bebé", "breastfeeding"),
    ("dando de mamar, pode dipirona?", "breastfeeding"), ("elle donne le sein", "breastfeeding"),
    ("nursing mother, ok for ibuprofen?", "breastfeeding"), ("está encinta", "pregnant"),
])
def test_her_state_said_in_other_words(said, state):
    assert said_in(said).get(state) is True


@pytest.mark.parametrize("said", [
    "lactate 2.1", "lactulose 15 ml", "au sein de l'équipe", "no está lactando", "nursing home",
])
def test_near_words_say_no_breastfeeding(said):
    assert not said_in(said).get("breastfeeding")


def test_a_drug_the_lactation_table_lacks_is_said_not_covered_while_breastfeeding():
    empty = {"conditions": [], "pregnancy": [], "labs": []}
    said = HookData(resources=empty, stated=frozenset({"breastfeeding"}))
    assert drug_safety.check(["metamizole"], said, None, True).lactation_uncovered == ["metamizole"]
    assert drug_safety.check(["tramadol"], said, None, True).lactation_uncovered == []
    assert drug_safety.check(["metamizole"], HookData(resources=empty), None,
                             True).lactation_uncovered == []


@pytest.mark.parametrize("said, a_day", [
    ("4 prises par jour", 4), ("2 prises/j", 2), ("4 doses por dia", 4), ("3 tomadas ao dia", 3),
    ("4 tomas al día", 4), ("3 dosis por día", 3), ("repartido en 3 tomas", 3),
    ("4 doses a day", 4),
])
def test_the_doses_a_day_counted_in_words(said, a_day):
    timing = parse_timing(said)
    assert timing and timing["frequency"] == a_day and timing["periodUnit"] == "d"


@pytest.mark.parametrize("said", ["4 doses au total", "3 tomas en total", "2 prises de sang"])
def test_a_count_of_doses_with_no_day_is_no_frequency(said):
    assert parse_timing(said) is None


def test_a_dose_per_dose_with_its_count_a_day_is_the_dose_and_the_frequency():
    dose = read("Dafalgan 15 mg/kg par prise, 4 prises par jour").entities.dose
    assert dose and dose.written == "15 mg/kg" and dose.frequency == "4 prises par jour"


@pytest.mark.parametrize("said, number", [
    ("alias, faz 875 de 12/12h", "875"), ("de hecho, haz 600", "600"), ("du coup, fais 250", "250"),
])
def test_an_aside_and_the_verb_of_making_give_the_new_dose(said, number):
    assert _bare_dose(said) == number


def test_a_number_of_days_after_faz_is_no_dose():
    assert _bare_dose("faz 2 dias que ele tem febre") is None


@pytest.mark.parametrize("said", ["coloca paracetamol 1 g de 6/6h", "ponle paracetamol 1 g c/8h",
                                  "põe dipirona 1 g de 6/6h"])
def test_the_imperative_of_putting_orders(said):
    assert "prescribe_drug" in read(said).entities.actions


@pytest.mark.parametrize("said", ["posso colocar paracetamol?", "¿le pongo paracetamol?"])
def test_putting_asked_orders_nothing(said):
    assert "prescribe_drug" not in read(said).entities.actions
