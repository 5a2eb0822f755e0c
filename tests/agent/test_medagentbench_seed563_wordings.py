"""The rules the seed-563 ward set (``smart_docgemma/evaluation/medagentbench_seed563.yaml``:
dictation, shorthand, typos, relative times and windows, four children) found missing, without a
server: a birth date's word spelled letter by letter as dictation writes it ("d o b"); a birth
date said in words after its month ("feb third nineteen eighty one"); glucose cut to "gluc"
("last POC gluc?", "last gluc?")."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import find_birth_dates, find_names
from smart_docgemma.reading.spoken import dates_said
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize(("said", "name"), [
    ("mrn jutta morissette d o b feb third nineteen eighty one", "jutta morissette"),
    ("mrn for dawn buckridge d o b january twenty fourth 1938", "dawn buckridge"),
    ("mrn peter lindqvist d o b 5/28/1998", "peter lindqvist")])
def test_a_birth_date_word_spelled_letter_by_letter_follows_a_name(said, name):
    assert find_names(said, []) == [name]


def test_the_date_after_a_spelled_birth_date_word_is_read():
    assert find_birth_dates("mrn jutta morissette d o b feb 3 1981") == ("1981-02-03",)


@pytest.mark.parametrize("said", ["check her d o b", "d o b?", "vitamin d or b12",
                                  "mrn, d o b 1990-01-01"])
def test_letters_that_are_no_name_before_it_name_no_one(said):
    assert find_names(said, []) == []


@pytest.mark.parametrize(("said", "born"), [
    ("mrn jutta morissette d o b feb third nineteen eighty one", "1981-02-03"),
    ("MRN? edward ortiz, dob may twenty third twenty twenty three", "2023-05-23"),
    ("mrn for max mills dob jan twenty first nineteen thirty five", "1935-01-21"),
    ("born march the fifth nineteen oh five", "1905-03-05"),
    ("dob jan 21st nineteen thirty five", "1935-01-21"),
    ("M R N for Kai Lesch date of birth September twenty seventh 2021", "2021-09-27"),
    ("lookup Ena Dicki d o b january twenty fourth 1938", "1938-01-24")])
def test_a_birth_date_said_in_words_after_its_month(said, born):
    assert find_birth_dates(said) == (born,)


@pytest.mark.parametrize("said", ["may twenty third", "give march 5 mg",
                                  "k 3.1 on may the third, recheck in twenty four hours",
                                  "jan third nineteen", "feb thirty first nineteen eighty one"])
def test_a_month_and_words_that_make_no_date_stay_as_said(said):
    assert dates_said(said) == said


@pytest.mark.parametrize(("said", "focus"), [("last POC gluc?", "lab:Capillary glucose"),
                                             ("cap gluc this am?", "lab:Capillary glucose"),
                                             ("last gluc?", "lab:Glucose")])
def test_glucose_cut_to_gluc(said, focus):
    assert chart_focus(said) == focus


@pytest.mark.parametrize("said", ["calcium gluconate 1 g iv", "glucagon 1 mg im",
                                  "any glucosamine on her list?"])
def test_words_that_begin_with_gluc_are_no_glucose(said):
    assert chart_focus(said) not in {"lab:Glucose", "lab:Capillary glucose"}
