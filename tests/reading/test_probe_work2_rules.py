"""probe_work2 (twenty-second stop): a clinician's multi-step work asked in words the drafts did
not read. A document's name typed with one slip ("d/c sumary") is read as meant; a transfer note
is the handover's summary for the team receiving; the French discharge letter named for its
occasion ("courrier de sortie") and a summary for the family doctor with its topic between
("summarise his diabetes mx for his GP") are the discharge letter; a plan written problem by
problem ("problem based plan") plans the raised value her chart holds; Latin America's
"ginecobstetricia" is obstetrics and the anticoagulation clinic haematology's; a ward unit after
"for" ("transfer note for CCU") is no person's initials; a medication reconciliation says the
allergies on file beside her list. Each rule beside the near words it must not catch."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import nodes
from smart_docgemma.agent.draft_requests import kind_asked
from smart_docgemma.agent.extraction import find_names, read, reconciliation_asked
from smart_docgemma.agent.state import Turn
from smart_docgemma.reading.slips import document_named
from smart_docgemma.tools.words.arguments import specialty

from ..support.fixture_charts import chart

CKD = chart("01-ckd-elder.json")
PEN = chart("03-penicillin-allergy.json")
T2DM = chart("04-t2dm-overdue-hba1c.json")


# w2-1: a document's name with one slip, read as meant
@pytest.mark.parametrize(("said", "kind"), [
    ("d/c sumary for mensah pls", "discharge"),  # w2-1
    ("dc summray pls", "discharge"),
    ("handvoer for nights pls, she's stable", "handoff"),  # w2-5 (holdout)
    ("hadnover for the night team", "handoff"),
    ("refferal letter to cardiology re his AF", "referral"),
    ("dischrage summary please", "discharge"),
    ("Dischrage summary please", "discharge"),  # capitalised as the message opens
])
def test_a_document_named_with_one_slip_is_that_document(said, kind):
    assert kind_asked(said) == kind


@pytest.mark.parametrize("said", [
    "he was discharged yesterday, inr?",  # a word of the lists, one slip from "discharge"
    "any transfers to ward 5 today?",
    "summer holiday - is her k ok?",
    "sumatriptan for her migraine?",
    "summary of his inr please",  # the words right, no document asked
    "what's Mr Hanover's INR?",  # a surname one slip from "handover" is a person's, as typed
])
def test_words_near_a_document_name_ask_no_document(said):
    assert kind_asked(said) is None


def test_only_a_word_no_list_holds_is_mended():
    assert document_named("he was discharged, d/c sumary pls") == (
        "he was discharged, d/c summary pls")


# w2-14 (and w2-13, holdout): the note for the team receiving a patient moved
@pytest.mark.parametrize("said", [
    "necesito el informe de traslado a la UCI",  # w2-14
    "transfer note for CCU please, he's going up tonight",  # w2-13
    "lettre de transfert pour la réa stp",
    "faz a nota de transferência pro hospital de origem",
    "hoja de traslado por favor",
])
def test_a_transfer_note_is_the_stays_summary(said):
    # one list holds the transfer note's words (probe40_intl's, the discharge summary's)
    assert kind_asked(said) == "discharge"


@pytest.mark.parametrize("said", [
    "transfer to ICU tonight?",
    "when is his transfer?",
    "traslado a la UCI a las 8, su potasio?",
])
def test_a_transfer_itself_asks_no_document(said):
    assert kind_asked(said) is None


# w2-15, w2-16 (and w2-17, holdout): the discharge letter, named for its occasion or as a summary
# for the family doctor with its topic between
@pytest.mark.parametrize("said", [
    "fais-moi le courrier de sortie pour son médecin traitant",  # w2-15
    "courrier de fin d'hospitalisation stp",
    "can u summarise his diabetes mx for his GP",  # w2-16
    "summarize her kidney disease for the family doctor",
    "resumen de su insuficiencia renal para el médico de cabecera",  # w2-17
    "resumo da diabetes dele para o médico de família",
])
def test_a_summary_for_the_family_doctor_is_the_discharge_letter(said):
    assert kind_asked(said) == "discharge"


@pytest.mark.parametrize("said", [
    "resume his warfarin for the gp",  # "resume" restarts a drug in English
    "summarise his labs",  # no doctor named
    "the GP summarised his meds - anything to flag?",
    "le courrier du cardiologue dit quoi ?",
])
def test_near_words_of_the_gp_summary_draft_nothing(said):
    assert kind_asked(said) != "discharge"


# w2-18: a plan written problem by problem plans the raised value her chart holds
@pytest.mark.parametrize("said", [
    "problem based plan for the ward round pls",  # w2-18
    "problem-oriented plan please",
    "plan by problem for today",
    "plano por problema pra visita",
])
def test_a_problem_based_plan_plans_her_raised_potassium(said):
    assert read(said, chart=CKD.in_context).workflow.problem == "high_potassium"


@pytest.mark.parametrize("said", ["asthma plan", "she had a problem with her inhaler", "plan?"])
def test_a_named_or_bare_plan_is_no_problem_based_plan(said):
    assert read(said, chart=PEN.in_context).workflow.problem is None


# w2-12, w2-9 (holdout): the specialties as wards name them
@pytest.mark.parametrize(("said", "named"), [
    ("interconsulta a ginecobstetricia por el embarazo", "obstetrics"),  # w2-12
    ("refer to obs and gynae", "obstetrics"),
    ("referral letter to the anticoagulation clinic regarding his high INR", "hematology"),  # w2-9
    ("carta para a clínica de anticoagulação", "hematology"),
    # near words: gynaecology alone stays gynaecology; an anticoagulation plan names no clinic
    ("hoja de referencia a gineco", "gynecology"),
    ("the anticoagulation plan for tonight", None),
])
def test_the_specialties_as_wards_name_them(said, named):
    assert specialty(said) == named


# w2-13 (holdout): a ward unit after "for" is no person's initials
@pytest.mark.parametrize("said", [
    "transfer note for CCU please, he's going up tonight",
    "handover for NICU",
    "informe de traslado para la UCI",
])
def test_a_ward_unit_is_no_initials(said):
    assert find_names(said, ()) == []


@pytest.mark.parametrize(("said", "who"), [
    ("for JM - inr?", ["J M"]),
    ("re: AB k?", ["A B"]),
])
def test_initials_after_for_still_name_a_person(said, who):
    assert find_names(said, ()) == who


# w2-20 (holdout): a medication reconciliation says the allergies on file
@pytest.mark.parametrize("said", [
    "conciliation médicamenteuse d'entrée svp",  # w2-20
    "med rec pls",
    "can you reconcile his meds against what he came in on",
    "reconciliação medicamentosa dela",
    "conciliación de medicamentos al ingreso",
])
def test_a_reconciliation_is_named(said):
    assert reconciliation_asked(said)


@pytest.mark.parametrize("said", ["what meds is she on", "review her meds", "is she allergic?"])
def test_a_list_asked_is_no_reconciliation(said):
    assert not reconciliation_asked(said)


def _turn(said: str, data) -> Turn:
    request = read(said, chart=data.in_context)
    return Turn(message=said, entities=request.entities, request=request, patient_id="p1")


def test_a_reconciliation_says_her_penicillin_anaphylaxis():
    [line] = nodes._allergies_reconciled(_turn("conciliation médicamenteuse d'entrée svp", PEN))
    assert "Penicillin" in line and "naphylaxis" in line


def test_a_reconciliation_with_no_allergy_on_file_says_none_recorded():
    [line] = nodes._allergies_reconciled(_turn("med rec pls", T2DM))
    assert "none recorded" in line


def test_her_list_asked_adds_no_allergy_line():
    assert nodes._allergies_reconciled(_turn("what meds is she on", PEN)) == []
