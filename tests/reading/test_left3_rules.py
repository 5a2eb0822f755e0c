"""The reading's known leftovers as general rules (pure, no HAPI): a word in capitals standing
where a name stands is asked about, never answered from the chart in context, while the ward's
abbreviations, common words and drugs in capitals stay words; a drug declined with its dose is
never ordered, the drug beside it is, at its own dose; the ward's day (the night just passed,
this morning, the last shift) is read as its window."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.reading.unknown_words import is_shouted, shouted_name, unknown_names
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.words.windows import asked, bounds


@pytest.mark.parametrize("said, name", [
    ("PACO, INR?", "PACO"), ("TIÃO k?", "TIÃO"), ("ENGRACIA alergias", "ENGRACIA"),
    ("BERT - K?", "BERT"), ("DOLORES inr pls", "DOLORES"), ("MARCEL, kaliémie ?", "MARCEL"),
    ("JOAQUINA: creatinina?", "JOAQUINA"), ("NUNO hb?", "NUNO"),
])
def test_a_word_in_capitals_leading_a_short_question_is_a_name(said, name):
    assert name in unknown_names(said)


@pytest.mark.parametrize("said", [
    # the ward's abbreviations (data/abbreviations.yaml) and the vocabulary's words
    "ORIF, INR?", "OPAT referral pls", "ANCA sent?", "NOAC vs warfarin - INR?", "AF, INR?",
    "IRC, kaliémie ?", "ERC, ¿potasio?", "EPOC, gasometría?", "SBAR: stable overnight",
    "AINE, posso?", "STAT trop", "INR?", "ECBU ?",
    # common words of the four languages said loud, and words with no vowel to say
    "URGENT K?", "PLEASE INR", "BONJOUR, INR ?", "HOLA, ¿potasio?", "SORRY, K?", "HBPM ?",
    "ALLERGIES?", "CURRENT meds",
    # a name standing elsewhere than first, or a long message led by a capitalised word
    "INR for the patient please", "NOTE: stable, eating and drinking, mobilising with frame, "
    "K 4.1 this morning, no changes",
])
def test_capitals_that_are_no_name_are_words(said):
    assert not unknown_names(said)


def test_a_drug_in_capitals_is_no_name():
    found = extract("ROCEPHINE 1G IV 1X/J")
    assert not found.patient_names


def test_the_shape_alone_tells_a_name_from_an_abbreviation_no_better():
    assert is_shouted("PACO") and not is_shouted("Paco") and not is_shouted("PACO GIL")
    assert not shouted_name("NFS") and not shouted_name("AAA") and shouted_name("NUNO")


def test_a_name_in_capitals_reaches_the_request_as_a_person():
    assert "PACO" in extract("PACO, INR?").patient_names
    assert "TIAO" in extract("TIÃO k?").patient_names  # read accent-folded


@pytest.mark.parametrize("said, dose", [
    ("pas d'aspirine 250 mg chez lui, paracétamol 300 mg toutes les 6 h", "300 mg"),
    ("não dar tramadol 50 mg, só paracetamol 300 mg de 6/6h", "300 mg"),
    ("nada de aspirina 100 mg, mejor paracetamol 300 mg cada 6 horas", "300 mg"),
    ("não iniciar ibuprofeno, só paracetamol 1 g 8/8h", "1 g"),
    ("pas d'ibuprofène, paracétamol 1 g 3x/j à la place", "1 g"),
])
def test_a_drug_declined_with_its_dose_leaves_the_other_drug_ordered_at_its_own(said, dose):
    found = extract(said)
    assert "order_line" in found.actions and found.dose and found.dose.written == dose


@pytest.mark.parametrize("said", [
    "do not start spironolactone 25 mg", "no iniciar espironolactona 25 mg, solo control de K",
    "decided against spironolactone 25mg od", "no le des ibuprofeno 400",
    "ne pas débuter le ramipril 2,5 mg",
])
def test_the_one_drug_declined_with_a_dose_is_never_ordered(said):
    assert not {"order_line", "prescribe", "prescribe_drug"} & set(extract(said).actions)


@pytest.mark.parametrize("said", [
    # near-words: "no" or "plus de" before no drug, a limit said after the order
    "start amlodipine 5 mg, no more than 10", "paracetamol 1g qds, no more than 4 g a day",
    "amoxicilline 1 g x3/j, plus de fièvre depuis hier",
])
def test_a_declining_word_before_no_drug_leaves_the_order(said):
    assert {"order_line", "prescribe", "prescribe_drug"} & set(extract(said).actions)


@pytest.mark.parametrize("said, key", [
    ("highest K overnight?", "night"), ("K max cette nuit ?", "night"),
    ("potássio mais alto esta noite?", "night"), ("¿potasio más alto anoche?", "night"),
    ("any K over 5 since last evening?", "night"), ("K depuis hier soir", "night"),
    ("K mais alto desde ontem à noite?", "night"), ("glucemias desde ayer por la noche", "night"),
    ("K results since this morning?", "morning"), ("glicemia desde esta manhã", "morning"),
    ("¿potasio máximo en el último turno?", "shift"), ("mean K in the last shift", "shift"),
    ("glicemias no último plantão", "shift"),
    # near-words: the day and its calendar windows are unchanged
    ("K since yesterday", "yesterday"), ("glucose today", "today"), ("K d'hier ?", "yesterday"),
    ("INR tonight?", None), ("night sweats - any fevers?", None),
])
def test_the_ward_day_is_read_as_its_window(said, key):
    assert asked(said).window == key


def test_the_night_starts_the_evening_before_at_any_hour():
    tz = UTC
    for hour in (1, 7, 12, 19, 23):
        now = datetime(2026, 12, 5, hour, 30, tzinfo=tz)
        night = bounds("night", now, tz)
        assert night.start == datetime(2026, 12, 4, 20, 0, tzinfo=tz) and night.end == now
        assert "20:00" in night.label
    morning = bounds("morning", datetime(2026, 12, 5, 9, 0, tzinfo=tz), tz)
    assert morning.start == datetime(2026, 12, 5, 6, 0, tzinfo=tz) and "06:00" in morning.label
    shift = bounds("shift", datetime(2026, 12, 5, 9, 0, tzinfo=tz), tz)
    assert shift.start == datetime(2026, 12, 4, 21, 0, tzinfo=tz) and "12 h" in shift.label


def test_a_mean_this_admission_with_no_stay_is_answered_over_the_window_said():
    from smart_docgemma.tools.chart import admission
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient
    from smart_docgemma.tools.words.windows import Aggregate, Asked

    now = datetime(2026, 12, 5, 12, tzinfo=UTC)
    none = ChartData(patient=ChartPatient("p"))
    window, said = admission.resolved(Asked(window="admission", statistic=Aggregate.MEAN),
                                      none, now)
    assert window.window == "7d" and "No admission is in progress" in said and "7 days" in said
    # the latest results, as before, when no statistic is asked
    window, said = admission.resolved(Asked(window="admission"), none, now)
    assert window.window is None and "latest results" in said


@pytest.mark.parametrize("said, kg", [
    ("weigh him and record it: 20.5 kg", 20.5), ("pesé: 20,5 kg, enregistre", 20.5),
    ("peso hoje 20,5 kg registrar", 20.5), ("pesado hoy: 20,5 kg, anótalo", 20.5),
    ("weighed this am 78.4kg pls chart it", 78.4), ("poids du jour 81 kg, à noter", 81.0),
    ("weighed him: 44 lbs, chart it", 19.96),
])
def test_a_weight_to_record_is_a_reading_carded_not_a_read_of_the_vitals(said, kg):
    found = extract(said)
    assert "record_vital" in found.actions
    (reading,) = read_ward(said).readings
    assert reading.vital == "body weight" and reading.values[0] == pytest.approx(kg, abs=0.01)


@pytest.mark.parametrize("said", [
    # near-words: a dose per kg, a question of the weight, a weight said with no unit
    "amoxicillin 40 mg/kg/day for his weight", "what does he weigh now?",
    "has he put on weight since 20 kg?", "weigh him tomorrow please, then 15 mg/kg",
])
def test_a_weight_word_without_a_mass_to_record_records_nothing(said):
    assert "record_vital" not in extract(said).actions


def _changed(said: str):
    from smart_docgemma.agent.ward_requests import workflow_of

    return workflow_of(said).dose_change


@pytest.mark.parametrize("said, drug, dose, frequency", [
    ("increase amlodipine to 10mg od", "amlodipine", "10 mg", "once daily"),
    ("monte l'amlodipine à 10", "amlodipine", "10 mg", None),
    ("subir a dose de metformina para 1 g 12/12h", "metformin", "1 g", "12/12h"),
    ("reduce warfarin to 3mg", "warfarin", "3 mg", None),
    ("reduzir varfarina para 2,5 mg/dia", "warfarin", "2.5 mg", "once daily"),
    ("sube la atorvastatina a 40 mg", "atorvastatin", "40 mg", None),
    ("bump her amlodipine up to 7.5mg daily", "amlodipine", "7.5 mg", "once daily"),
    ("baisser la dose de warfarine à 4 mg", "warfarin", "4 mg", None),
])
def test_a_dose_change_is_read_with_its_drug_dose_and_frequency(said, drug, dose, frequency):
    change = _changed(said)
    assert change and (change.drug, change.dosage, change.frequency) == (drug, dose, frequency)
    assert "change_dose" in extract(said).actions


@pytest.mark.parametrize("said", [
    # near-words: a question, no new dose, a new drug, a switch, no drug at all
    "should I increase amlodipine to 10mg?", "increase amlodipine, bp still high",
    "start amlodipine 5mg od", "change warfarin to apixaban 5mg bd", "increase fluids to 2 L",
    "up the amlodipine", "K up to 5.6 this morning",
])
def test_no_dose_change_is_read_without_a_drug_and_its_new_dose(said):
    assert _changed(said) is None


def test_a_dose_change_is_one_transaction_created_once_and_conditional_on_the_version():
    from smart_docgemma.proposals.store import IDENTIFIER_SYSTEM, stamped, written_type
    from smart_docgemma.tools.writes.dose_change import transaction

    new = {"resourceType": "MedicationRequest", "status": "active", "intent": "order",
           "medicationCodeableConcept": {"text": "amlodipine"},
           "subject": {"reference": "Patient/p1"}}
    old = {**new, "id": "m1", "meta": {"versionId": "3"}}
    bundle = stamped(transaction(new, old, "amlodipine 10 mg once daily"), "abc")
    assert bundle["type"] == "transaction" and written_type(bundle) == "MedicationRequest"
    post, put = bundle["entry"]
    assert post["resource"]["priorPrescription"] == {"reference": "MedicationRequest/m1"}
    assert post["resource"]["identifier"] == [{"system": IDENTIFIER_SYSTEM, "value": "abc"}]
    assert post["request"]["ifNoneExist"] == f"identifier={IDENTIFIER_SYSTEM}|abc"
    assert put["request"] == {"method": "PUT", "url": "MedicationRequest/m1", "ifMatch": 'W/"3"'}
    assert put["resource"]["status"] == "stopped" and "identifier" not in put["resource"]


@pytest.mark.parametrize("dosage, said", [
    ({"text": "5 mg by mouth once daily", "timing": {"repeat": {"frequency": 1, "period": 1,
                                                                 "periodUnit": "d"}}},
     "once daily"),
    ({"text": "500 mg twice a day", "timing": {"repeat": {"frequency": 2, "period": 1,
                                                           "periodUnit": "d"}}}, "twice daily"),
    ({"timing": {"repeat": {"frequency": 1, "period": 8, "periodUnit": "h"}}}, "every 8 hours"),
    # no timing: the text without its old dose, never "10 mg 5 mg by mouth …" on the new order
    ({"text": "5 mg by mouth at night"}, "by mouth at night"),
])
def test_a_dose_change_keeps_the_old_frequency_never_the_old_dose(dosage, said):
    from smart_docgemma.tools.writes.dose_change import frequency_of

    assert frequency_of({"dosageInstruction": [dosage]}) == said


def test_a_dose_change_of_the_pending_cards_drug_is_the_cards_even_if_her_list_holds_it():
    from smart_docgemma.agent.extraction import read
    from smart_docgemma.reading.request import Conversation
    from smart_docgemma.reading.subject import InContext
    from smart_docgemma.tools.chart.in_context import ChartInContext, Medication

    med = Medication(text="omeprazole 20 MG", names=("omeprazole",))
    chart = ChartInContext(patient=InContext(name="Robert Mensah", id="pt-warfarin"),
                           medications=(med,))
    said = "change the omeprazole to 40mg for 8 weeks"
    assert read(said, chart=chart).workflow.dose_change is not None
    held = read(said, chart=chart,
                conversation=Conversation(pending_card="p1", pending_drug="omeprazole"))
    assert held.workflow.dose_change is None
