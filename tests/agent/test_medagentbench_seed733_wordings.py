"""The rules the seed-733 ward set (``smart_docgemma/evaluation/medagentbench_seed733.yaml``: the
benchmark's own wording with the patient's id, dictation, shorthand, two given names that are
also words, other patients of the population named in one chart) found missing, without a
server. Found by the tuned split: a pending lab card moved by a verb and a clock ("push the
recheck to 10am" left the 8am card to be approved); a month's name that is a given name, typed
before a surname and a birth date ("mrn for avril bernier, dob 3/7/87": no one looked up). Found
by the holdout: the same name written before a surname in another chart ("refer Avril Bernier to
ortho" was carded for the patient in context); the blood sugar typed "bs" after a statistic
("mean bs over the last day": no source matched). The finger a given name also names ("jammed
pinkie finger") is pinned in tests/reading/test_first_names.py."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.amendments import changes_a_field
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.languages import fold
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said", ["push the recheck to 10am", "move the K to 6am",
                                  "bump the labs to 0600", "push it back to 9",
                                  "décale le contrôle à 10h", "adia o controle para as 10h",
                                  "pasa el control a las 10"])
def test_a_card_moved_by_a_verb_and_a_clock_is_a_change(said):
    assert changes_a_field(fold(said).lower())


@pytest.mark.parametrize("said", ["iv push over 10 min", "push 2 g magnesium", "push to 2 g",
                                  "push fluids to 2 l", "shift to 40 meq", "push the recheck",
                                  "move her to bed 10", "muda a segunda para 2x/dia"])
def test_the_verb_without_a_clock_after_it_changes_nothing(said):
    assert not changes_a_field(fold(said).lower())


@pytest.mark.parametrize(("said", "name"), [
    ("mrn for avril bernier, dob 3/7/87", "avril bernier"),
    ("mrn for june hartmann dob 6/5/1970", "june hartmann"),
    ("refer Avril Bernier to ortho", "Avril Bernier"),
    ("refer April Smith to ortho", "April Smith"),
])
def test_a_months_name_that_is_a_given_name_before_a_surname_is_a_person(said, name):
    assert extract(said).patient_names == (name,)


@pytest.mark.parametrize("said", ["INR since April Monday", "seen in June, INR 2.3",
                                  "labs from may dob 3/7/87", "since April INR stable",
                                  "Seen In April By Ortho", "Last A1c in April Was 6.1",
                                  "inr since april, dob 3/7/87"])
def test_a_month_said_as_a_month_names_no_one(said):
    assert extract(said).patient_names == ()


@pytest.mark.parametrize("said", ["mean bs over the last day", "last bs?", "avg bs last 24h",
                                  "bs readings"])
def test_the_blood_sugar_typed_bs_after_a_statistic_is_the_capillary_glucose(said):
    assert chart_focus(said) == "lab:Capillary glucose"
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["bs clear bilaterally", "bs normal",
                                  "bowel sounds present, bs normal"])
def test_breath_and_bowel_sounds_typed_bs_are_no_glucose(said):
    assert chart_focus(said) is None
    assert "chart_question" not in extract(said).actions


# found after the holdout by a check of the same names alone (not a case of the set): "is April
# allergic to anything?" answered the chart in context and "refer avril to ortho" carded for it
@pytest.mark.parametrize(("said", "name"), [
    ("what is Avril on?", "Avril"), ("is April allergic to anything?", "April"),
    ("refer avril to ortho", "avril"), ("is june still on warfarin", "june"),
    ("send june to ortho", "june"), ("what was april on?", "april"),
])
def test_a_months_name_alone_where_only_a_person_stands_is_a_person(said, name):
    assert extract(said).patient_names == (name,)


@pytest.mark.parametrize("said", ["is May 3 ok for the echo", "refer in June 2027",
                                  "is it on in april?", "send for may review",
                                  "is she on it since april", "what is the plan for april"])
def test_a_month_said_as_a_month_where_a_person_might_stand_names_no_one(said):
    assert extract(said).patient_names == ()
