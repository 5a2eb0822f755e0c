"""Walk 100 (the issue's intents in new words, twentieth stop): her list to be adjusted for her
kidneys answered with her eGFR alone; an order card of a drug the check's tables lack
(gliclazide in an 83-year-old with eGFR 38) carried no line at all, where the answer said "Not
covered"; gliclazide, the sulfonylurea most wards here prescribe, was on no age list."""
from __future__ import annotations

import pytest
from smart_docgemma import knowledge
from smart_docgemma.checks.drug_safety import Report
from smart_docgemma.languages import say
from smart_docgemma.tools.chart.answers import focus_of


@pytest.mark.parametrize("said", [
    "any of her meds need adjusting for renal function",
    "do any of his medications need dose adjustment for his kidneys?",
    "ses médicaments à adapter à la fonction rénale ?",
    "algum remédio dela precisa de ajuste renal?",
    "hay que ajustar sus medicamentos al riñón?",
])
def test_her_list_adjusted_for_her_kidneys_is_her_review(said):
    assert focus_of(said) == "review"


@pytest.mark.parametrize(("said", "focus"), [
    # near words: a drug named, her kidney result, her list only
    ("adjust the gentamicin for renal function", "lab:eGFR"),
    ("does the vanc need adjusting for her kidneys", "lab:eGFR"),
    ("renal function?", "lab:eGFR"),
    ("her meds list please", "medications"),
])
def test_a_drug_or_her_kidneys_alone_is_no_review(said, focus):
    assert focus_of(said) == focus


def test_what_the_tables_do_not_cover_is_said_as_the_answer_says_it():
    renal = knowledge.Renal(38.0)
    report = Report(drugs=["gliclazide"], renal=renal, renal_uncovered=["gliclazide"],
                    uncovered=["Hypertensive disorder"])
    said = [say(m, "en") for m in report.not_covered()]
    assert said[1] == ("Not covered: the renal rules have no entry for gliclazide, so no dose is "
                       "checked against eGFR 38 (date unknown).")
    assert "Hypertensive disorder" in said[0] and set(said) <= set(report.lines())


def test_a_drug_every_table_holds_has_nothing_not_covered():
    assert Report(drugs=["metformin"], renal=knowledge.Renal(38.0)).not_covered() == []


def test_gliclazide_is_on_the_age_list_as_every_sulfonylurea():
    found = knowledge.age_findings("gliclazide", 83)
    assert [f.severity for f in found] == ["warning"] and "sulfonylurea" in found[0].summary
    assert knowledge.age_findings("gliclazide", 60) == []


# Walk 101 (conversations, work, other people): "cr" in a list of tests was said not a test;
# a dictated handover ("handover for the night team: bed 7 Thompson, K 5.6, on amlodipine")
# became a check of amlodipine or nothing; "what needs doing before he goes home" matched nothing.

@pytest.mark.parametrize(("said", "tests"), [
    ("check k and cr in the morning", ["serum potassium", "creatinine"]),
    ("k, cr, mg tmrw", ["serum potassium", "creatinine", "serum magnesium"]),
    # near words: a release form, a lone abbreviation
    ("nifedipine cr 30 od", []), ("cr?", []),
])
def test_cr_is_creatinine_in_a_list_of_tests_only(said, tests):
    from smart_docgemma.tools.words.ward_words import lab_tests

    assert lab_tests(said) == tests


@pytest.mark.parametrize(("said", "dictated"), [
    ("handover for the night team: bed 7 Thompson, K 5.6, on amlodipine", True),
    ("handover: stable overnight, K 5.6 - recheck in am", True),
    ("sbar: 76M AF on warfarin, INR 3.4, no bleeding, pls review in am", True),
    # near words: a drafted handover asked, a question of a pasted block, a name only
    ("handover pls", False), ("handover for the night team", False),
    ("Handover:\nBed 4 Robert Mensah - INR 3.4\nBed 7 Margaret Thompson - K 5.6\ncheck bed 4", False),
    ("handover: is she stable?", False), ("handover: Margaret Thompson", False),
    ("what did the handover say: anything about K", False),
])
def test_a_dictated_handover_is_theirs_to_save(said, dictated):
    from smart_docgemma.tools.writes.drafts import dictated_handover

    assert dictated_handover(said) is dictated


@pytest.mark.parametrize(("said", "gaps"), [
    ("what needs doing before he goes home", True), ("anything to sort before discharge?", True),
    ("what else needs to be done before she leaves", True),
    # near words: a plan of a result, a date of discharge
    ("what needs doing about his INR", False), ("when does he go home", False),
])
def test_what_is_left_before_she_goes_home_asks_her_care_gaps(said, gaps):
    from smart_docgemma.agent.ward_requests import workflow_actions, workflow_of
    from smart_docgemma.languages import fold

    low = fold(said).lower()
    assert ("care_gaps" in workflow_actions(low, workflow_of(said))) is gaps


# Walk 102 (a drug for her in any verb, mood or brand): "she needs something for her chest
# infection" matched nothing, where her penicillin anaphylaxis is what she must not be given.

@pytest.mark.parametrize(("said", "asked"), [
    ("she needs something for her chest infection", True), ("which abx for her uti?", True),
    ("what antibiotic can she have", True), ("algo para a infecção urinária dela?", True),
    # near words: a drug named, an allergy asked, her infection markers, pain relief
    ("amoxicillin for the chest infection?", False), ("antibiotic allergy?", False),
    ("her infection markers", False), ("something for the pain?", False),
])
def test_a_treatment_of_an_infection_asked_with_no_drug(said, asked):
    from smart_docgemma.agent.extraction import treatment_asked

    assert treatment_asked(said) is asked


def test_her_allergies_come_beside_the_review_when_a_treatment_is_asked():
    from smart_docgemma.agent.extraction import read

    assert read("she needs something for her chest infection").foci == ("review", "allergies")
    assert "allergies" not in read("something for the pain?").foci
