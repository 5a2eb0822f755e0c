"""Three rules from a walk of ordinary ward requests: an ECG asked last in a lab order is said
to be undone (not swallowed into the order's time); a bare number before a ward frequency code
away from the only drug named is its dose in mg; each child's weight-based dose cites its own
source. Each beside the near words it must not read. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import order_lines
from smart_docgemma.agent.extraction import find_unsupported
from smart_docgemma.knowledge import disease
from smart_docgemma.knowledge.mentions import find_drugs


@pytest.mark.parametrize("said", [
    "K 5.6 - recheck in the morning and an ECG", "recheck K tomorrow and ECG.",
    "iono demain 7h et un ECG", "hemograma amanhã e ECG", "potasio mañana y un ECG",
])
def test_an_ecg_asked_last_in_an_order_is_said_undone(said):
    assert "ECG orders" in find_unsupported(said)


@pytest.mark.parametrize("said", [
    "was there an echo and ecg?", "any ecg and echo results?", "ECG and echo both normal",
    "compare with the previous ECG?",
])
def test_an_ecg_asked_about_is_no_order(said):
    assert "ECG orders" not in find_unsupported(said)


def _bare(said: str) -> str | None:
    low = said.lower()
    return order_lines.bare_dose(low, find_drugs(low), {"frequency": "set"})


@pytest.mark.parametrize("said, dose", [
    ("ibuprofen for her back pain, 400 tds", "400 mg"),
    ("clarithromycin for his chest - 500 bd", "500 mg"),
    ("naproxen for the gout, 250 tds", "250 mg"),
])
def test_a_bare_number_before_a_frequency_code_is_the_only_drugs_dose(said, dose):
    assert _bare(said) == dose


@pytest.mark.parametrize("said", [
    "ibuprofen for her back pain, 400mg tds",      # its unit is read elsewhere
    "ibuprofen for pain, 1.5 bd",                   # a small number may count tablets
    "ibuprofen and paracetamol for pain, 400 tds",  # whose dose?
    "ibuprofen for pain, 400 tds and 200 od",       # two numbers
    "ibuprofen for her back pain",                  # no number at all
])
def test_numbers_that_are_no_bare_dose(said):
    assert _bare(said) is None


@pytest.mark.parametrize("drug, source, not_in", [
    ("gentamicin", "WHO Pocket Book", "BNF"),
    ("acetaminophen", "BNF for Children", "otitis"),
    ("amoxicillin", "otitis media", "WHO"),
])
def test_each_childs_dose_cites_its_own_source(drug, source, not_in):
    limit = disease.paediatric_limit(drug)
    assert limit is not None
    assert source in limit.source and not_in not in limit.source


# the thirty-fifth walk: what is missing from a patient's care, in other words and languages;
# a dose said in a reconciliation that is not the order's

@pytest.mark.parametrize("said", [
    "what's missing in his diabetes care", "¿qué controles le faltan?",
    "o que está em atraso no diabetes dele?", "any overdue monitoring for her ckd",
    "are any of his diabetes checks overdue?", "que vacunas le faltan", "bilan diabète en retard ?",
])
def test_what_is_missing_from_the_care_is_the_care_gaps(said):
    from smart_docgemma.agent.ward_requests import _any, _low
    assert _any("care_gap_words").search(_low(said))


@pytest.mark.parametrize("said", [
    "he has falta de ar and diabetes", "tiene falta de aire, diabetes", "is the K result missing?",
    "any missing doses of insulin?", "diabetes - missing his insulin doses at night",
])
def test_missing_words_beside_no_care_are_no_care_gaps(said):
    from smart_docgemma.agent.ward_requests import _any, _low
    assert not _any("care_gap_words").search(_low(said))


@pytest.mark.parametrize("said, surface, mg", [
    ("he takes warfarin 3mg od", "warfarin", 3.0), ("metformina 850 2x/dia", "metformina", 850.0),
    ("metformin 1g bd", "metformin", 1000.0), ("aspirin 81", "aspirin", 81.0),
    ("levothyroxine 50 micrograms", "levothyroxine", 0.05), ("he takes warfarin", "warfarin", None),
    ("warfarin, INR 3", "warfarin", None),
])
def test_the_dose_said_after_a_drug_in_mg(said, surface, mg):
    from smart_docgemma.tools.writes.reconciliation import said_mg
    assert said_mg(said, surface) == mg


def test_a_dose_differs_only_beside_a_structured_order_dose():
    from smart_docgemma.tools.writes.reconciliation import Reported
    ref = "MedicationRequest/1: warfarin 5 MG Oral Tablet"
    assert Reported("warfarin", "warfarin", "takes", ref, 3.0, 5.0).differs
    assert not Reported("warfarin", "warfarin", "takes", ref, 5.0, 5.0).differs
    assert not Reported("warfarin", "warfarin", "takes", ref, 3.0, None).differs  # no dose held
    assert not Reported("warfarin", "warfarin", "stopped", ref, 3.0, 5.0).differs


@pytest.mark.parametrize("said, kind", [
    ("handover: Kofi", "handoff"), ("discharge summary: Kofi Asante", "discharge"),
    ("handover for Kofi", "handoff"),
])
def test_a_name_after_the_documents_colon_heads_a_draft(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind
    assert request_kind(said) == kind


@pytest.mark.parametrize("said", [
    "progress note: stable overnight", "handover: Stable overnight, INR 3", "handover: bed 3 stable",
])
def test_text_after_the_colon_is_the_clinicians_own(said):
    from smart_docgemma.tools.writes.drafts import request_kind
    assert request_kind(said) is None


@pytest.mark.parametrize("said", [
    "and order the ones that are due", "order the tests which are overdue",
    "prescris ceux qui sont en retard", "pede os que estão em atraso", "pide los que faltan",
])
def test_ordering_what_is_due_in_other_words(said):
    from smart_docgemma.agent.ward_requests import _any, _low
    assert _any("gap_order_words").search(_low(said))


@pytest.mark.parametrize("said, specialty", [
    ("referral to obstetric medicine for BP", "obstetrics"), ("refer to maternal medicine", "obstetrics"),
    ("write to the diabetes team asking for review", "endocrinology"),
])
def test_specialties_in_other_words(said, specialty):
    from smart_docgemma.tools.words import arguments
    assert arguments.specialty(said) == specialty


# the thirty-sixth walk: a new anticoagulant asked beside the one she takes

def _on_warfarin():
    from smart_docgemma.checks.context import HookData
    order = {"resourceType": "MedicationRequest", "id": "m1", "status": "active", "intent": "order",
             "medicationCodeableConcept": {"text": "warfarin sodium 5 MG Oral Tablet"},
             "subject": {"reference": "Patient/p1"}}
    patient = {"resourceType": "Patient", "id": "p1", "gender": "male", "birthDate": "1970-01-01"}
    return HookData(resources={"patient": [patient], "medications": [order], "allergies": [],
                               "conditions": [], "pregnancy": [], "labs": [], "weight": []})


@pytest.mark.parametrize("new", ["apixaban", "enoxaparin", "dabigatran"])
def test_a_new_anticoagulant_is_said_added_to_hers_never_the_mirror(new):
    from smart_docgemma.checks import drug_safety
    said = "\n".join(drug_safety.check([new, "warfarin"], _on_warfarin(), asking=True).lines())
    assert f"Do not add {new}: warfarin is already ordered" in said
    assert f"{new} is already ordered" not in said


@pytest.mark.parametrize("said", [
    "she fell last night - anything on her list that could cause falls?",
    "could his meds be causing the confusion?", "which of her tablets might explain the low sodium",
    "what in his meds could cause hyperkalaemia",
])
def test_an_event_put_down_to_her_list_is_the_whole_list_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "review"


@pytest.mark.parametrize("said", ["what caused the fall?", "anything in the chart about falls?"])
def test_a_cause_asked_of_no_list_is_no_review(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) != "review"


@pytest.mark.parametrize("said, surface", [
    ("¿le dejamos el ieca?", "ieca"), ("is she still on the ace inhibitor??", "ace inhibitor"),
    ("on garde son iec ?", "iec"),
])
def test_a_class_said_as_hers_is_the_member_she_takes(said, surface):
    from smart_docgemma.reading.drugs import hers_of_class
    assert hers_of_class(said, {"ACE inhibitor": surface}, ["lisinopril"]) == {"ACE inhibitor"}


@pytest.mark.parametrize("said, surface, taking", [
    ("add an ace inhibitor?", "ace inhibitor", ["lisinopril"]),       # one more of the class
    ("un ieca nuevo?", "ieca", ["lisinopril"]),
    ("is she still on the ace inhibitor?", "ace inhibitor", ["amlodipine"]),  # none of it
])
def test_a_class_said_as_one_more_or_not_hers_stays_the_class(said, surface, taking):
    from smart_docgemma.reading.drugs import hers_of_class
    assert hers_of_class(said, {"ACE inhibitor": surface}, taking) == set()


@pytest.mark.parametrize("said, when", [
    ("INR tmrw please and hold tonight's warfarin", "tmrw"),
    ("iono demain 7h et suspendre le kardégic ce soir", "demain 7h"),
    ("hold warfarin tonight, INR in am", "in am"),
])
def test_the_orders_time_is_never_the_holds(said, when):
    from smart_docgemma.reading.ward import when_words
    found = when_words(said)
    assert found is not None and found.startswith(when) and "soir" not in found
    assert "tonight" not in found


@pytest.mark.parametrize("said, adds", [
    ("does it mention the penicillin allergy?", False),
    ("est-ce qu'elle mentionne l'allergie à la pénicilline ?", False),
    ("ponle también el salbutamol", True), ("add the salbutamol too", True),
])
def test_a_question_about_the_draft_adds_no_drug(said, adds):
    from smart_docgemma.agent.draft_requests import _ALLERGY_BESIDE, _ASKS_OF_IT
    assert (not _ASKS_OF_IT.search(said) and not _ALLERGY_BESIDE.search(said)) is adds


@pytest.mark.parametrize("said, plans", [
    ("INR 3.4 - give tonight's dose or not?", True), ("INR 4,1, on donne la dose ce soir ?", True),
    ("what dose of amox", False), ("INR 3.4 on monday", False),
])
def test_the_next_dose_asked_beside_a_value_asks_its_plan(said, plans):
    from smart_docgemma.agent.ward_requests import _low, _plan_words
    assert _plan_words(_low(said)) is plans


@pytest.mark.parametrize("said, plans", [
    ("INR 3.4 - give tonight's dose or not?", True), ("INR 4,1, on donne la dose ce soir ?", True),
    ("INR 3,4 - dou a dose de hoje?", True),
    # the drug named: its safety check, in every language (the matrix's reading)
    ("inr 3.4 on warfarin - hold tonight's dose?", False), ("INR 3.4 - hold warfarin?", False),
    ("INR à 3,4 sous coumadine, on suspend ?", False),
    ("INR 3,4 com varfarina - pulo a dose de hoje?", False),
    ("INR 3,4 con warfarina, ¿suspendo la dosis de hoy?", False),
    ("INR 3.4 hold warfarin tonight and recheck tomorrow", False),
    ("INR 3,4 — puedo dar ibuprofeno?", False), ("INR 3.4 on warfarin, can I give ibuprofen?", False),
])
def test_the_next_dose_asked_with_no_drug_named_is_its_plan_in_every_language(said, plans):
    from smart_docgemma.agent.ward_requests import _low, workflow_actions, workflow_of
    assert (workflow_actions(_low(said), workflow_of(said)) == ["plan"]) is plans


@pytest.mark.parametrize("said, new, replaces", [
    ("swap lisinopril for nifedipine MR 30 od", "nifedipine MR", "lisinopril"),
    ("stop the metformin, start gliclazide MR 30 od", "gliclazide MR", "metformin"),
    ("swap the ramipril to losartan 50 od", "losartan", "ramipril"),
    ("swap ramipril with candesartan 8mg od", "candesartan", "ramipril"),
    ("swap her over to labetalol 100 bd", "labetalol", None),
    # a question, or no drug: no switch
    ("swap lisinopril for nifedipine?", None, None), ("can we swap shifts", None, None),
])
def test_a_swap_is_a_switch(said, new, replaces):
    from smart_docgemma.agent.ward_requests import _low, switch_parts
    parts = switch_parts(_low(said)) or {}
    assert (parts.get("new_drug"), parts.get("replaces")) == (new, replaces)


@pytest.mark.parametrize("said, focus", [
    ("elle est sous quoi ?", "medications"), ("il est sous quoi comme traitement", "medications"),
    ("sous quoi ?", "medications"), ("sous quoi on met le patient en cas de douleur", None),
])
def test_what_she_is_on_in_french(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == focus


@pytest.mark.parametrize("said, gaps", [
    ("¿qué le falta por control?", True), ("o que falta de controle?", True),
    ("que le falta por controlar", True), ("le falta insulina", False),
])
def test_what_is_still_due_asked_openly(said, gaps):
    from smart_docgemma.agent.ward_requests import _any, _low
    assert bool(_any("care_gap_words").search(_low(said))) is gaps


@pytest.mark.parametrize("said, focus", [
    ("is she pregnant?", "pregnancy"), ("est-elle enceinte ?", "pregnancy"),
    ("ela está grávida?", "pregnancy"), ("¿está embarazada?", "pregnancy"),
    ("she's pregnant, can I give lisinopril?", None), ("is lisinopril safe in pregnancy?", None),
])
def test_whether_she_is_pregnant_is_asked_of_her_chart(said, focus):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == focus
