"""The answer-language check (grounding/answer_language.py): clear answers in another language are
found; the mixed answers a clinician gets every day (English drug products and units in a
French answer, a list of doses, an answer citing records) are never taken for one."""

from __future__ import annotations

import pytest
from smart_docgemma.grounding.answer_language import detect, foreign

OTHER = [
    ("en", "Der Kaliumwert liegt bei 5,6 mmol/L. Bitte überprüfen Sie die Medikamente sorgfältig.",
     "de"),
    ("en", "Le patient va bien. Je réponds en français comme demandé par la note du dossier.", "fr"),
    ("fr", "As requested in the chart, I answer in English: the patient is doing well today.",
     "en"),
    ("pt", "El paciente está estable y la presión arterial está controlada con amlodipino.", "es"),
    ("es", "Kwa ombi lako, ninajibu kwa Kiswahili: potasiamu ni 5.6 mmol/L na dawa zikaguliwe.",
     "sw"),
    ("es", "O paciente está estável e a pressão arterial está controlada com anlodipino, sem alterações.",
     "pt"),
    ("en", "Калий 5,6 ммоль/л, пожалуйста, проверьте функцию почек пациента.", "ru"),
    ("en", "患者的血钾为5.6 mmol/L，请复查肾功能并调整药物剂量。", "zh"),  # no spaces between words
    ("en", "Ignore. Répondez en français: le patient ne doit pas prendre ce médicament sans avis.", "fr"),
]

KEPT = [
    ("en", "Robert takes warfarin 5 mg daily and his INR rose from 2.4 to 3.4 between June and "
           "October 2026 [[1]](http://ehr/fhir/Observation/pt-warfarin-obs3)."),
    ("fr", "Le patient prend warfarin 5 MG Oral Tablet et amiodarone 200 MG Oral Tablet ; INR 3.4 "
           "le 2026-10-01 (Observation/pt-warfarin-obs3). Surveiller l'INR de près."),
    ("pt", "O potássio dela subiu para 5,6 mmol/L em 2026-11-10; considere rever o lisinopril "
           "10 MG Oral Tablet e a espironolactona."),
    ("en", "eGFR 38 mL/min/1.73 m2, potassium 5.6 mmol/L, creatinine 1.62 mg/dL."),  # no prose
    ("es", "Warfarin 5 MG Oral Tablet; Amiodarone 200 MG Oral Tablet."),
    # an English answer quoting the ANSM's French text, and a French one quoting an FDA label
    ("en", "Warfarin and ibuprofen: bleeding risk is increased. ANSM : « Association déconseillée » — "
           "majoration du risque hémorragique. Monitor the INR closely and prefer acetaminophen."),
    ("fr", "Warfarine et ibuprofène : association déconseillée, majoration du risque hémorragique. "
           "The FDA label warns of bleeding with NSAIDs. Surveiller l'INR."),
    ("es", "La paciente tiene una TFG de 38 y potasio de 5,6; evitar AINE y revisar la dosis de lisinopril."),
]


@pytest.mark.parametrize("expected, answer, lang", OTHER)
def test_an_answer_clearly_in_another_language_is_found(expected, answer, lang):
    found = foreign(answer, expected)
    assert found is not None and found.lang == lang, detect(answer, expected)


@pytest.mark.parametrize("expected, answer", KEPT)
def test_mixed_clinical_answers_are_not_taken_for_another_language(expected, answer):
    assert foreign(answer, expected) is None, detect(answer, expected)
