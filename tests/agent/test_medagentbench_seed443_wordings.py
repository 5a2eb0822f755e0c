"""The rules the seed-443 ward set (``smart_docgemma/evaluation/medagentbench_seed443.yaml``:
typed fast, dictated, three girls' charts) found missing, without a server: "NKDA?" asks her
allergy list; a recheck refused beside a kept card ("just the potassium, no recheck"); a refusal
alone with its reason ("actually dont, ill recheck it"); the pending drug by the ward's short name
("scrap the mag"); a cancel naming a test with a figure in its name ("cancel the a1c"); the
24-hour clock and "half past" said in words; "last cr?"; her past problems asked; "age of the
kiddo"; an A&E attendance; "n° de dossier"; a protocol's "if not" after a colon. The whole loop
against HAPI is ``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import find_actions, read
from smart_docgemma.knowledge import analytes
from smart_docgemma.reading.spoken import as_typed
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said", ["NKDA?", "is she NKA?", "no known drug allergies?",
                                  "pas d'allergie connue ?"])
def test_no_known_allergy_asked_reads_her_list(said):
    actions = read(said).entities.actions
    assert "allergy_question" in actions and "record_no_known_allergy" not in actions


@pytest.mark.parametrize("said", ["NKDA", "NKDA, please record", "nkda - record it?",
                                  "pt is NKDA."])
def test_no_known_allergy_said_or_recorded_is_still_recorded(said):
    assert "record_no_known_allergy" in read(said).entities.actions


@pytest.mark.parametrize("said", ["just the potassium, no recheck", "no recheck",
                                  "no need for a recheck", "juste le potassium, pas de contrôle",
                                  "apenas o potássio, sem controlo", "solo el potasio, sin control",
                                  "keep the potassium, drop the recheck"])
def test_a_recheck_refused_names_the_paired_lab_card(said):
    assert amendments.names_the_recheck(amendments.cancel_clause(said))


@pytest.mark.parametrize("said", ["no recheck of the INR", "no K", "no, recheck it tomorrow",
                                  "just the potassium", "no repeat needed?"])
def test_no_recheck_refused(said):
    assert not amendments.names_the_recheck(amendments.cancel_clause(said))


@pytest.mark.parametrize("said", ["actually dont, ill recheck it", "dont", "no, don't",
                                  "non, ne le fais pas", "no lo hagas, la repito",
                                  "não faça, vou repetir"])
def test_a_refusal_alone_cancels(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", ["don't give the amlodipine tonight", "dont start it till 8",
                                  "don't record the 6am one, record this: 120/80"])
def test_a_refusal_before_another_request_is_no_cancel(said):
    assert not amendments.cancels(said)


@pytest.mark.parametrize(("said", "ingredient"), [
    ("scrap the mag", "magnesium sulfate"), ("drop the KCl", "potassium chloride"),
    ("cancel the K", "potassium chloride"), ("annule le mag", "magnesium sulfate")])
def test_the_pending_drug_by_its_short_name(said, ingredient):
    named = amendments.cancels_what(said)
    assert named is not None and amendments.names_short(named, ingredient)


@pytest.mark.parametrize(("said", "ingredient"), [
    ("scrap the mag", "potassium chloride"), ("cancel the amox", "magnesium sulfate"),
    ("scrap the magic", "magnesium sulfate")])
def test_a_short_name_of_another_drug_is_not_the_card(said, ingredient):
    named = amendments.cancels_what(said)
    assert named is None or not amendments.names_short(named, ingredient)


def test_a_cancel_names_a_test_with_a_figure_in_its_name():
    assert amendments.cancels_what("cancel the a1c") == "a1c"
    assert amendments.cancels_what("cancel the b12") == "b12"
    assert amendments.cancels_what("cancel the K 20 mmol") is None  # a dose: a new order


@pytest.mark.parametrize(("said", "typed"), [
    ("RR twenty at oh six hundred, record", "RR 20 at 06:00, record"),
    ("temp at zero five thirty", "temp at 05:30"),
    ("HR 88 at oh seven forty five hours", "HR 88 at 07:45"),
    ("temp 37.8 at half past five", "temp 37.8 at half past 5"),
    ("at quarter past six", "at quarter past 6"),
])
def test_clock_times_said_in_words(said, typed):
    assert as_typed(said) == typed


@pytest.mark.parametrize(("said", "typed"), [
    ("six hundred mg", "600 mg"), ("oh six ninety", "oh six ninety"), ("oh no", "oh no"),
    ("oh five hundred milligrams of amox", "500 mg of amox"),
    ("half past the hour", "half past the hour")])
def test_numbers_that_are_no_clock_time_stay(said, typed):
    assert as_typed(said) == typed


@pytest.mark.parametrize("said", ["last cr?", "Cr?", "latest cr", "cr level please"])
def test_cr_is_her_creatinine(said):
    found = analytes.named_in(said.lower())
    assert found is not None and found.name == "Creatinine"


@pytest.mark.parametrize("said", ["nifedipine cr 30 mg od", "CrCl?", "CRP?", "cr tabs"])
def test_cr_as_a_release_form_or_another_test_is_not_creatinine(said):
    found = analytes.named_in(said.lower())
    assert found is None or found.name != "Creatinine"


@pytest.mark.parametrize("said", ["any fractures in her history?", "past medical history?",
                                  "has she ever had a fracture?", "dans ses antécédents ?",
                                  "ela já teve fratura?", "¿alguna vez ha tenido asma?"])
def test_her_past_asked_reads_the_past_problems(said):
    assert chart_focus(said) == "history"


@pytest.mark.parametrize("said", ["problem list?", "pmh?", "history of present illness?",
                                  "is CKD on her problem list?"])
def test_her_present_problems_stay_the_problem_list(said):
    assert chart_focus(said) == "problems"


@pytest.mark.parametrize("said", ["age of the kiddo?", "age of this little one",
                                  "how old is the little girl", "age of the baby?"])
def test_the_age_of_the_child_in_context(said):
    assert chart_focus(said) == "age"


def test_the_age_of_a_thing_is_no_age_asked():
    assert chart_focus("age of the fracture?") != "age"


@pytest.mark.parametrize("said", ["last A&E attendance?", "ED attendances this year?",
                                  "any ER visits?"])
def test_an_emergency_attendance_asks_the_encounters(said):
    assert chart_focus(said) == "encounters"


@pytest.mark.parametrize("said", ["n° de dossier de lea martin, nee le 17/11/1952 ?",
                                  "numero de dossier de lea martin, nee le 17/11/1952 ?",
                                  "no do prontuario da lea martin?"])
def test_an_abbreviated_record_number_is_no_chart_read(said):
    assert "chart" not in find_actions(said)


def test_her_record_itself_is_still_read():
    assert "chart" in find_actions("le dossier de lea martin ?")


@pytest.mark.parametrize("said", ["HbA1c: si no hay en el último año, pedirla",
                                  "HbA1c: if none in the last year, order one"])
def test_a_protocols_if_not_after_a_colon_is_a_conditional_order(said):
    assert "protocol" in read(said).entities.actions
