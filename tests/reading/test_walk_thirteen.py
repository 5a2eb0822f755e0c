"""The lead's walks of 2026-12-05 evening (drafts, reconciliation, odd shapes): the rules found
there, with near-words that must not match. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import amendments, extraction
from smart_docgemma.agent.ward_requests import workflow_actions
from smart_docgemma.reading.drugs import unglued
from smart_docgemma.reading.request import Workflow


@pytest.mark.parametrize("typed, read", [
    ("amox500tds", "amox 500 tds"),
    ("pcm1g qds", "pcm 1g qds"),
    ("amoxicillin500mg tds", "amoxicillin 500mg tds"),
    ("warfarin5mg od", "warfarin 5mg od"),
    # not a drug's whole name: as written
    ("HbA1c 7.2", "HbA1c 7.2"),
    ("B12 low", "B12 low"),
    ("T4 and TSH", "T4 and TSH"),
    ("K4.1 Na135", "K4.1 Na135"),
    ("covid19 swab", "covid19 swab"),
])
def test_a_drug_typed_against_its_dose_is_read_apart(typed, read):
    assert unglued(typed) == read


@pytest.mark.parametrize("text, yes", [
    ("mum gives him calpol 10ml four times a day", True),
    ("la mère lui donne du doliprane 2 fois par jour", True),
    ("a mãe dá-lhe paracetamol", True),
    ("la madre le da ibuprofeno cada 8 horas", True),
    ("med rec: amlodipine 5, furosemide 40", True),
    ("med rec - he takes nothing else", True),
    ("give him calpol 10ml qds", False),  # an order, not a report
    ("can mum give him calpol?", False),  # a question
])
def test_what_the_family_gives_at_home_is_a_reconciliation(text, yes):
    low = " ".join(extraction.fold_accents(text).lower().split())
    assert (workflow_actions(low, Workflow()) == ["reconcile"]) is yes


@pytest.mark.parametrize("text, yes", [
    ("approve them", True), ("ok sign them all", True), ("valide tout", True),
    ("aprova todos", True), ("apruébalos", True),
    ("approve the amox?", False), ("them", False), ("should I approve them?", False),
])
def test_approving_several_cards_in_words(text, yes):
    assert amendments.approves(text) is yes


@pytest.mark.parametrize("text, gaps", [
    ("is he due an INR?", True),
    ("when is her next HbA1c due", True),
    ("is she due bloods?", True),
    ("¿qué le falta por hacer? vacunas, controles", True),
    ("is he due for surgery?", False),
    ("he's due for his op on Tuesday", False),
])
def test_whether_a_check_is_due_asks_the_care_gaps(text, gaps):
    low = " ".join(extraction.fold_accents(text).lower().split())
    assert (workflow_actions(low, Workflow()) == ["care_gaps"]) is gaps


@pytest.mark.parametrize("text", [
    "le voisin de lit, il est allergique ?", "e o vizinho de cama, toma varfarina?",
    "el vecino de cama tiene alergias?", "his bed neighbour has a cough - any issue?",
])
def test_the_bed_neighbour_is_another_patient(text):
    from smart_docgemma.reading.subject import InContext
    from smart_docgemma.tools.chart.in_context import ChartInContext

    here = ChartInContext(patient=InContext(name="Robert Mensah", id="pt-warfarin"), sex="male")
    assert extraction.read(text, chart=here).subject.about == "other"


@pytest.mark.parametrize("text, analyte", [
    ("CRP trend", "C-reactive protein"), ("TSH, when?", "TSH"), ("BNP, last?", "BNP"),
    ("nt-probnp?", "NT-proBNP"), ("PSA, ever done?", "PSA"),
])
def test_ward_round_results_are_analytes_of_the_table(text, analyte):
    from smart_docgemma.knowledge import analytes

    assert analyte in [a.name for a in analytes.all_named_in(text)]


@pytest.mark.parametrize("said, dose", [("twice that", "100 mg"), ("half that dose", "25 mg"),
                                        ("double it", "100 mg")])
def test_a_factor_said_after_the_card_is_its_dose_never_twice_a_day(said, dose):
    from smart_docgemma.approval.types import PendingOrder

    card = PendingOrder(proposal_id="p1", patient_id="pt-t2dm", medication="sertraline",
                        ingredient="sertraline", dosage="50 mg", frequency="daily", notes=None)
    change = amendments.read(extraction.read(said), card)
    assert change is not None and change.dose == dose and change.frequency is None
