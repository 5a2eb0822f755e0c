"""Understanding the clinician: the right patient, the right tool and the arguments said,
on phrasings clinicians type (another patient named, disease names that look like ids,
dose shorthands, unsupported orders, questions without a model)."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.graph import Agent
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext, ToolResult
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext, Medication
from smart_docgemma.tools.sources.imaging import image_meta

from .conftest import FakeTool, ok

CHART = "Robert Mensah, 67 y male; problems: atrial fibrillation; meds: warfarin 5 mg daily; allergies: none recorded"
# the same chart typed, as the chart read gives it with its brief
IN_CHART = ChartInContext(patient=InContext(name="Robert Mensah", id="rm-1"), sex="male", age=67,
                          medications=(Medication("warfarin 5 mg daily", ("warfarin",)),))
PATIENT_SCOPES = GrantedScopes.parse("launch openid fhirUser patient/*.rs patient/MedicationRequest.cu")
USER_SCOPES = GrantedScopes.parse("launch openid fhirUser user/*.rs user/MedicationRequest.cu")


def _proposal(text="Medication order prepared for approval."):
    return ToolResult(status="proposal", text=text, proposal_id="p-1")


def _tools():
    return {name: FakeTool(name, result) for name, result in (
        ("search_patient", ok("James Wilson (id jw-1)", count=1, patients=[{"id": "jw-1"}])),
        ("get_patient_chart", ok("Robert Mensah: AF on warfarin", count=1)),
        ("check_drug_interactions", ok("Major interaction", count=1)),
        ("check_drug_safety", ok("BOXED WARNING: x", count=None)),
        ("find_clinical_trials", ok("2 trials", count=2)),
        ("search_medical_literature", ok("3 articles", count=3)),
        ("prescribe_medication", _proposal()),
        ("add_allergy", _proposal("Allergy prepared.")),
        ("save_clinical_note", _proposal("Note prepared.")))}


def _run(message, scopes=PATIENT_SCOPES, tools=None):
    tools = tools or _tools()
    ctx = ToolContext(patient_id="rm-1", scopes=scopes)
    turn = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(
        message, chart_summary=CHART, chart=IN_CHART)
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("message", [
    "Prescribe amoxicillin 500 mg three times daily for James Wilson",
    "Add an allergy to penicillin for Grace Adeyemi",
    "Review the chart of James Wilson",
    "Show the chart for MRN 88412",
    "Prescribe lisinopril 10 mg daily for Patient/abc",
])
def test_another_patient_in_a_chart_only_session_gets_no_tool_and_no_proposal(message):
    turn, calls = _run(message)
    assert calls == {} and turn.proposals == []
    assert "this chart only" in turn.answer and "Robert Mensah" in turn.answer


def test_the_launch_patient_named_is_still_this_chart():
    tools = _tools()
    tools["search_patient"] = FakeTool("search_patient", ok("Robert Mensah", count=1, patients=[{"id": "rm-1"}]))
    turn, calls = _run("Prescribe amoxicillin 500 mg three times daily for Robert Mensah", tools=tools)
    assert "this chart only" not in turn.answer
    assert calls["prescribe_medication"][0]["patient_id"] == "rm-1"


def test_with_user_scopes_another_patient_is_searched_and_the_order_is_for_them():
    turn, calls = _run("Prescribe amoxicillin 500 mg three times daily for James Wilson", scopes=USER_SCOPES)
    assert calls["search_patient"] == [{"name": "James Wilson"}]
    assert calls["prescribe_medication"][0]["patient_id"] == "jw-1"


def test_with_user_scopes_an_ambiguous_name_is_asked_and_nothing_is_prepared():
    tools = _tools()
    tools["search_patient"] = FakeTool("search_patient", ok("2 matches", count=2, patients=[{"id": "a"}, {"id": "b"}]))
    turn, calls = _run("Prescribe amoxicillin 500 mg tid for James Wilson", USER_SCOPES, tools)
    assert "prescribe_medication" not in calls and "Which one" in turn.answer


def test_with_user_scopes_a_name_not_found_is_never_replaced_by_the_launch_patient():
    tools = _tools()
    tools["search_patient"] = FakeTool("search_patient", ToolResult(status="empty", text="No patient found.", count=0))
    turn, calls = _run("Prescribe amoxicillin 500 mg tid for James Wilson", USER_SCOPES, tools)
    assert "prescribe_medication" not in calls and turn.proposals == []


@pytest.mark.parametrize("text", ["Review her chart for covid-19 vaccination status", "H1N1 vaccine for patient",
                                  "HbA1c trend in T2DM", "is the COVID19 booster due", "chart: SARS-CoV-2 PCR"])
def test_disease_names_are_not_patient_ids(text):
    assert list(extract(text).patient_ids) == []


def test_her_chart_for_covid_reviews_the_launch_chart():
    turn, calls = _run("Review her chart for covid-19 vaccination status")
    assert calls["get_patient_chart"] == [{"patient_id": "rm-1", "focus": "immunizations"}]


@pytest.mark.parametrize("text,dose", [
    ("amoxicillin 500mg tid x7d", {"dose": "500 mg", "frequency": "tid", "duration": "7 days"}),
    ("ceftriaxone 1 g IV q8h", {"dose": "1 g", "frequency": "q8h", "route": "IV"}),
    ("omeprazole 40 mg at night", {"dose": "40 mg", "frequency": "at night"}),
    ("salbutamol 2 puffs prn", {"dose": "2 puffs", "frequency": "prn"}),
    ("amoxicillin 500 mg bd", {"dose": "500 mg", "frequency": "twice daily"}),
    ("amlodipine 5 mg od", {"dose": "5 mg", "frequency": "once daily"}),
    ("paracetamol 1 g qds", {"dose": "1 g", "frequency": "four times daily"}),
    ("zopiclone 7.5 mg nocte", {"dose": "7.5 mg", "frequency": "at night"}),
])
def test_dose_route_frequency_and_duration_shorthands(text, dose):
    found = extract(text).dose
    assert found is not None and found.said() == dose


def test_route_and_duration_reach_the_order():
    turn, calls = _run("Prescribe ceftriaxone 1 g IV q8h x5d")
    args = calls["prescribe_medication"][0]
    assert (args["dosage"], args["frequency"]) == ("1 g", "q8h") and "IV" in args["notes"] and "5 days" in args["notes"]


@pytest.mark.parametrize("message,asked", [
    ("Prescribe metformin 500 mg", "frequency"),
    ("Prescribe metformin twice daily", "dose"),
    ("Prescribe metformin", "dose and frequency"),
    ("Write a progress note", "note text"),
])
def test_a_write_missing_a_field_asks_one_question_and_prepares_nothing(message, asked):
    """Nothing is written; the drug of an order still waiting for a field is checked against the
    chart (a read) so its findings come with the question."""
    turn, calls = _run(message)
    assert set(calls) <= {"check_drug_safety"} and turn.proposals == []
    question = turn.answer.split("\n\n")[0]
    assert asked in question and question.count("?") == 1


def test_a_new_progress_note_is_a_note_only():
    turn, calls = _run("Please start a new progress note: stable on warfarin, INR 2.4, continue plan")
    assert list(calls) == ["save_clinical_note"]
    assert "INR 2.4" in calls["save_clinical_note"][0]["note_text"]


@pytest.mark.parametrize("message,tool,args", [
    ("Order a CBC", "order_lab_test", {"test": "complete blood count"}),
    ("Please order a BMP and an INR for tomorrow", "order_lab_test",
     {"test": "basic metabolic panel and inr", "when": "tomorrow"}),
    ("Refer him to cardiology", "refer_patient", {"specialty": "cardiology"})])
def test_lab_orders_and_referrals_are_proposed_from_code(message, tool, args):
    tools = {**_tools(), tool: FakeTool(tool, _proposal("Order prepared."))}
    turn, calls = _run(message, GrantedScopes.parse("launch patient/*.rs patient/ServiceRequest.c"), tools)
    assert list(calls) == [tool] and calls[tool][0] == {"patient_id": "rm-1", **args}
    assert turn.proposals == ["p-1"]


def test_a_lab_order_the_grant_does_not_allow_is_to_be_placed_in_the_ehr():
    turn, calls = _run("Order a CBC")
    assert calls == {} and turn.proposals == []
    assert "not granted permission to create ServiceRequest records, so the lab order must be placed in the EHR" \
        in turn.answer


def test_unsupported_orders_are_said_and_nothing_is_prepared():
    turn, calls = _run("Order a chest x-ray")
    assert calls == {} and turn.proposals == []
    assert "Imaging orders are not supported here" in turn.answer


@pytest.mark.parametrize("message,tool,args", [
    ("can I give ibuprofen to someone on coumadin?", "check_drug_interactions", {"drug_names": ["ibuprofen",
                                                                                                "warfarin"]}),
    ("ddi check: simvastatin + clarithromycin + amlodipine", "check_drug_interactions",
     {"drug_names": ["simvastatin", "clarithromycin", "amlodipine"]}),
    ("hydrochlorothiazide and lithium together?", "check_drug_interactions",
     {"drug_names": ["hydrochlorothiazide", "lithium"]}),
    ("can I give naproxen?", "check_drug_interactions", {"drug_names": ["naproxen", "warfarin"]}),
    ("any recruiting trials for glioblastoma?", "find_clinical_trials", {"condition": "glioblastoma"}),
    ("latest evidence on SGLT2 inhibitors in heart failure", "search_medical_literature",
     {"query": "SGLT2 inhibitors in heart failure"}),
])
def test_without_a_model_single_tool_questions_route_from_code(message, tool, args):
    turn, calls = _run(message)
    assert calls.get(tool) == [args], calls
    assert "No information source matched" not in turn.answer


@pytest.mark.parametrize("text", ["trials for Multiple Sclerosis", "literature on Heart Failure",
                                  "studies about Crohn Disease", "Save a note to Dr Okafor"])
def test_capitalised_conditions_are_not_other_patients(text):
    assert list(extract(text).patient_names) == []


def test_a_trials_question_naming_a_condition_is_answered_in_a_chart_only_session():
    turn, calls = _run("Any recruiting trials for Multiple Sclerosis?")
    assert calls["find_clinical_trials"] == [{"condition": "Multiple Sclerosis"}]


def _run_with_image(message):
    from .conftest import PNG
    tools = _tools()
    tools["analyze_medical_image"] = FakeTool("analyze_medical_image", ok("No acute findings.", count=None))
    ctx = ToolContext(patient_id="rm-1", scopes=PATIENT_SCOPES)
    agent = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx)
    turn = agent.run(message, chart_summary=CHART, chart=IN_CHART, image=PNG, meta=image_meta(PNG, "image/png"))
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


def test_an_image_referred_to_is_analysed_alongside_the_other_tools():
    turn, calls = _run_with_image("check the interactions of warfarin and aspirin and look at this film")
    assert set(calls) == {"check_drug_interactions", "analyze_medical_image"}


def test_an_attached_image_not_used_is_mentioned_in_the_answer():
    turn, calls = _run_with_image("check the interactions of warfarin and aspirin")
    assert "analyze_medical_image" not in calls and "attached image was not analysed" in turn.answer


@pytest.mark.parametrize("message", ["ok to start simvastatin?", "review her allergies in the chart"])
def test_questions_with_order_or_allergy_words_write_nothing(message):
    turn, calls = _run(message)
    assert turn.proposals == [] and not {"prescribe_medication", "add_allergy"} & set(calls)


# ------------------------------------------------------------------ did you mean
def test_a_misspelling_close_to_two_drugs_is_asked_about_never_guessed():
    from smart_docgemma.agent.extraction import extract

    ent = extract("Prescribe prednislone 20 mg once daily")
    assert ent.drugs == ()  # neither candidate is taken silently
    [mention] = ent.ambiguous_drugs
    assert set(mention.candidates) == {"prednisolone", "prednisone"}
    turn, calls = _run("Prescribe prednislone 20 mg once daily")
    assert calls == {} and not turn.proposals
    assert "did you mean prednisolone or prednisone" in turn.answer


def test_a_misspelling_close_to_one_drug_is_still_understood():
    from smart_docgemma.agent.extraction import extract

    assert list(extract("start metformine 500 mg bd").drugs) == ["metformin"]
    assert list(extract("interactions of amoxicilin and warfarin").ambiguous_drugs) == []


@pytest.mark.parametrize("message,focus", [
    ("quick rundown of this patient please", None),
    ("what is she taking at the moment?", "medications"),
    ("her k level?", "lab:Potassium"),
    ("potassium level?", "lab:Potassium"),  # potassium is a drug too; asked as the lab
    ("serum creatinine?", "lab:Creatinine"),
    ("vaccination history", "immunizations"),
    ("was he in hospital lately", "encounters"),
    ("are there interactions between the drugs he is on", "interactions"),
])
def test_a_chart_question_about_the_patient_in_context_reads_the_chart(message, focus):
    turn, calls = _run(message)
    assert list(calls) == ["get_patient_chart"], calls
    assert calls["get_patient_chart"][0].get("focus") == focus


@pytest.mark.parametrize("message", [
    "what is eGFR?",  # a definition, not this patient's value
    "What causes a falling eGFR in an elderly patient?",
    "Summarise the stages of chronic kidney disease by eGFR.",
])
def test_a_general_question_on_a_chart_word_reads_no_chart(message):
    _, calls = _run(message)
    assert "get_patient_chart" not in calls, calls


@pytest.mark.parametrize("message, drug", [
    # the lead's unseen probe of 2026-11-25 (first run: interactions or a chart read)
    ("is nitrofurantoin ok with her renal function?", "nitrofurantoin"),
    ("¿puedo darle enalapril a esta embarazada?", "enalapril"),
    ("je peux donner de l'ibuprofène avec ses reins ?", "ibuprofen"),
    ("posso dar metformina com os rins dela?", "metformin"),
])
def test_a_drug_asked_against_her_own_state_in_any_language_is_the_safety_check(message, drug):
    _, calls = _run(message)
    # the safety check, never the interaction check; a result named as such ("her renal
    # function") may be read beside it
    assert set(calls) - {"get_patient_chart"} == {"check_drug_safety"}, calls
    assert calls["check_drug_safety"][0]["drug_name"] == drug, calls


def test_the_glycated_haemoglobin_as_clinicians_write_it_reads_the_chart():
    for message in ("qual foi a ultima glicada dele?", "su ultima glicosilada?", "sa derniere glyquee ?"):
        _, calls = _run(message)
        assert list(calls) == ["get_patient_chart"], (message, calls)


def test_a_drug_asked_against_her_kidneys_is_the_safety_check_and_against_her_meds_the_interactions():
    _, calls = _run("can he have metformin 500 MG Oral Tablet with his kidneys?")
    assert list(calls) == ["check_drug_safety"] and calls["check_drug_safety"][0]["drug_name"] == "metformin"
    _, calls = _run("can he have metformin with his current meds?")
    assert calls.get("check_drug_interactions") == [{"drug_names": ["metformin", "warfarin"]}], calls


OWN = ("Robert Mensah, 67 y male, born 1958-12-14, MRN 88412-A; problems: atrial fibrillation; "
       "meds: warfarin 5 mg daily; allergies: none recorded")
OWN_CHART = ChartInContext(
    patient=InContext(name="Robert Mensah", id="rm-1", mrn="88412-A", born="1958-12-14"),
    sex="male", age=67, medications=IN_CHART.medications)


def _run_own(message, scopes=PATIENT_SCOPES):
    tools = _tools()  # a patient-level lookup reads the launch patient (tools/chart/patients.py)
    tools["search_patient"] = FakeTool("search_patient", ok("Robert Mensah", count=1, patients=[{"id": "rm-1"}]))
    ctx = ToolContext(patient_id="rm-1", scopes=scopes)
    turn = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(
        message, chart_summary=OWN, chart=OWN_CHART)
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("message, focus", [
    ("What is the most recent CBG of the patient rm-1?", "lab:Capillary glucose"),
    ("What's the age of the patient with MRN of 88412-A?", "age"),
    ("latest potassium for Robert Mensah, DOB 1958-12-14", "lab:Potassium"),
])
def test_the_patients_own_id_mrn_or_name_with_birth_date_mean_the_patient_in_context(message, focus):
    turn, calls = _run_own(message)
    assert set(calls) <= {"search_patient", "get_patient_chart"} and turn.proposals == [], calls
    args = calls["get_patient_chart"][0]  # her name with her birth date needs no lookup
    assert (args["patient_id"], args["focus"]) == ("rm-1", focus)
    assert "this chart only" not in turn.answer


@pytest.mark.parametrize("message", [
    "What is the most recent CBG of the patient with MRN 99731-B?",
    "latest potassium for Robert Mensah, DOB 1971-02-03",  # a namesake: another birth date
])
def test_another_patients_mrn_or_a_namesakes_birth_date_is_still_refused(message):
    turn, calls = _run_own(message)
    assert calls == {} and "this chart only" in turn.answer


def test_with_user_level_scopes_an_mrn_is_searched_by_name_and_birth_date():
    tools = _tools()
    ctx = ToolContext(patient_id=None, scopes=USER_SCOPES)
    turn = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(
        "What's the MRN of the patient with name Lavern240 Treutel973 and DOB of 1999-02-10?")
    assert tools["search_patient"].calls[0] == {"name": "Lavern240 Treutel973", "birth_date": "1999-02-10"}
    assert "James Wilson (id jw-1)" in turn.answer  # what the lookup found is the answer


# Found by the lead's unseen probe (2026-11-27): each of these was "No information source matched"
# or an order read without its frequency.
@pytest.mark.parametrize("question, focus", [
    ("how many years old is she now?", "age"),
    ("any issues with what she's taking at the moment?", "review"),
    ("problems with what he is on?", "review"),
    ("check her medication list for interactions", "interactions"),
])
def test_chart_questions_in_words_not_in_any_set(question, focus):
    from smart_docgemma.tools.chart.answers import chart_focus

    assert chart_focus(question) == focus


@pytest.mark.parametrize("order, frequency", [
    ("amoxicillin 40 mg/kg/day in 2 divided doses for 5 days", "twice daily"),
    ("start amoxicillin 40 mg/kg/day in three doses", "three times daily"),
])
def test_a_days_amount_in_divided_doses_is_an_order_with_its_frequency(order, frequency):
    found = extract(order)
    assert found.dose and found.dose.frequency == frequency
    assert {"order_line", "prescribe_drug"} & set(found.actions)


@pytest.mark.parametrize("question, ids", [
    ("Order a BMP for patient pt-warfarin", ["pt-warfarin"]),  # an EHR id needs no digit
    ("Start amlodipine 5 mg daily for patient pt-jw-1958", ["pt-jw-1958"]),  # the whole id, not "jw-1958"
    ("patient self-reported pain, start paracetamol", []),
    ("the patient follow-up is tomorrow", []),
])
def test_an_id_after_patient_is_read_whole(question, ids):
    assert list(extract(question).patient_ids) == ids


@pytest.mark.parametrize("question", [
    "he has a CT with contrast tomorrow, anything about his metformin?",
    "scanner avec produit de contraste demain, et sa metformine ?",
    "tomografia com contraste amanhã, e a metformina?",
])
def test_contrast_as_clinicians_name_it_is_checked_with_metformin(question):
    from smart_docgemma import knowledge

    drugs = extract(question).drugs
    assert set(drugs) == {"iodinated contrast", "metformin"}
    [finding] = knowledge.interaction_findings(list(drugs))
    assert "lactic acidosis" in finding.summary


def test_contrast_in_an_ordinary_sentence_is_no_drug():
    assert extract("in contrast to yesterday, start metformin 500 bd").drugs == ("metformin",)


@pytest.mark.parametrize("message", ["bp 150/95 - can we add ramipril 5mg", "BP 150/95, thinking of ramipril"])
def test_a_drug_named_beside_a_reading_is_still_checked(message):
    """Safety by content: the drug named beside a reading is checked against the chart; nothing
    is ordered, and the reading told as context is not carded ("add" is the drug's verb)."""
    turn, calls = _run(message)
    checked = [c.get("drug_name") for c in calls.get("check_drug_safety", [])] + [
        d for c in calls.get("check_drug_interactions", []) for d in c["drug_names"]]
    assert "ramipril" in checked  # either check is the one patient check of the drug
    assert "prescribe_medication" not in calls and turn.proposals == []


def test_an_order_waiting_for_a_field_shows_the_drugs_findings_with_the_question():
    tools = _tools()
    tools["check_drug_safety"] = FakeTool(
        "check_drug_safety",
        ok("CRITICAL — Avoid ibuprofen with warfarin — major bleeding risk", safety_findings=[{
            "severity": "critical", "text": "CRITICAL — Avoid ibuprofen with warfarin",
            "terms": [["ibuprofen"], ["warfarin"]]}]),
    )
    turn, calls = _run("add ibuprofen", tools=tools)
    assert turn.proposals == [] and "prescribe_medication" not in calls
    assert "what dose and frequency" in turn.answer
    assert "Avoid ibuprofen with warfarin" in turn.answer


@pytest.mark.parametrize("message", [
    "INR 3,4 com varfarina - pulo a dose de hoje?",
    "INR 3,4 con warfarina, ¿suspendo la dosis de hoy?",
])
def test_a_result_stated_with_her_drug_reads_the_result_and_checks_the_drug(message):
    _, calls = _run(message)
    assert calls["check_drug_safety"][0]["drug_name"] == "warfarin", calls
    assert "get_patient_chart" in calls


@pytest.mark.parametrize("message", ["latest potassium today?", "her magnesium today"])
def test_a_result_that_is_also_a_drug_is_not_checked_as_one(message):
    _, calls = _run(message)
    assert "check_drug_safety" not in calls and "get_patient_chart" in calls, calls
