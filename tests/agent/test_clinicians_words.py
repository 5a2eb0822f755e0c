"""Clinicians' own words in the chat, end to end: no model, real HAPI (a copy of a
scenario patient per test), the knowledge sources' recorded bodies over real HTTP.

A question that names a drug for the patient in context runs the one safety check and its
finding is in the answer, whatever the wording and the language; a clarifying question is
asked in the clinician's language only, and the reply ("500 mg", "une fois") completes the
pending request up to the card and its findings."""
from __future__ import annotations

import json
import re

import pytest

from tests.support.chat_session import open_session
from tests.support.launch_context import clone_patient
from tests.web.test_languages_page import _english_phrases, _visible


@pytest.fixture
def app(app_config, sources):
    from smart_docgemma import create_app

    return create_app({**app_config, **sources})


def _clinician(app, fhir_base, patient: str, lang: str):
    """The chat on a copy of ``patient``, in ``lang``: ``ask(message)`` → the answer's visible text."""
    client = app.test_client()
    client.patient = clone_patient(fhir_base, patient)
    client.csrf = open_session(app, client, fhir_base, client.patient)

    def ask(message: str) -> str:
        res = client.post("/api/chat", data={"message": message}, content_type="multipart/form-data",
                          headers={"X-CSRF-Token": client.csrf, "Accept-Language": lang})
        done = re.findall(r"^event: done\ndata: (.*)$", res.get_data(as_text=True), re.M)[-1]
        client.html = json.loads(done)["html"]
        return _visible(client.html)

    client.ask = ask
    return client


@pytest.mark.parametrize("patient, lang, question, finding", [
    # potassium 5.6 on file: the order's card carries the hyperkalaemia finding
    ("pt-ckd-elder", "en", "add spironolactone 25 mg daily", "Do not start spironolactone — potassium 5.6"),
    ("pt-ckd-elder", "fr", "Puis-je lui donner de l'ibuprofène ?", "Réévaluer ibuprofen à cette fonction rénale"),
    ("pt-ckd-elder", "pt", "posso dar ibuprofeno pra ela?", "Rever ibuprofen com esta função renal"),
    ("pt-ckd-elder", "es", "puedo darle ibuprofeno?", "Revisar ibuprofen con esta función renal"),
    ("pt-pregnant", "en", "is the lisinopril ok for her?", "Avoid lisinopril in pregnancy"),
    ("pt-pregnant", "en", "lisinopril ok in pregnancy?", "Avoid lisinopril in pregnancy"),
    ("pt-warfarin", "en", "start cipro 500 bd x7d for uti", "Avoid ciprofloxacin with warfarin"),
    ("pt-pen-allergy", "fr", "prescrire ceftriaxone 1g IM dose unique", "Ne pas donner ceftriaxone"),
])
def test_a_question_naming_a_drug_for_the_patient_carries_its_finding(app, fhir_base, patient, lang, question,
                                                                      finding):
    answer = _clinician(app, fhir_base, patient, lang).ask(question)
    assert finding in answer, answer[:2000]


def test_a_metformin_question_around_a_contrast_scan_runs_the_safety_check(app, fhir_base):
    answer = _clinician(app, fhir_base, "pt-t2dm", "en").ask(
        "he has a CT with contrast tomorrow, anything about his metformin?")
    assert "Patient safety check against this patient's chart" in answer
    assert "lactic acidosis" in answer  # the boxed warning the label check reports
    assert "No information source matched" not in answer


def test_a_french_lab_word_is_that_lab_not_the_whole_chart(app, fhir_base):
    answer = _clinician(app, fhir_base, "pt-ckd-elder", "fr").ask("Dernière kaliémie ?")
    assert "Dernier résultat de Potassium : 5.6 mmol/L le 10 novembre 2026" in answer
    assert "Lecture du dossier" in answer and "Amlodipine" not in answer  # not the whole chart


def test_the_reply_to_what_dose_completes_the_order_up_to_its_critical_finding(app, fhir_base):
    clinician = _clinician(app, fhir_base, "pt-warfarin", "en")
    asked = clinician.ask("start cipro bd x7d for uti")
    assert "To prepare the medication order (needs your approval), what dose should I use?" in asked
    assert 'id="proposal-' not in clinician.html  # nothing prepared yet
    card = clinician.ask("500 mg")
    assert 'id="proposal-' in clinician.html
    assert "Start ciprofloxacin 500 mg twice daily for 7 days" in card
    assert "Critical: Avoid ciprofloxacin with warfarin" in card


def test_a_number_alone_is_the_dose_in_milligrams(app, fhir_base):
    clinician = _clinician(app, fhir_base, "pt-warfarin", "en")
    clinician.ask("start ciprofloxacin twice daily for 7 days")
    card = clinician.ask("500")
    assert "Start ciprofloxacin 500 mg twice daily" in card and "Avoid ciprofloxacin with warfarin" in card


def test_the_reply_naming_the_drug_completes_the_order(app, fhir_base):
    clinician = _clinician(app, fhir_base, "pt-warfarin", "en")
    asked = clinician.ask("rx zpak 500mg od x3d")
    assert "what drug should I use?" in asked
    card = clinician.ask("azithromycin")
    assert "Start azithromycin 500 mg once daily for 3 days" in card


def test_a_french_clarification_is_french_only_and_its_reply_completes_the_order(app, fhir_base):
    clinician = _clinician(app, fhir_base, "pt-pen-allergy", "fr")
    asked = clinician.ask("prescrire ceftriaxone 1g IM")
    assert "Pour préparer : prescription (à valider), précisez : la fréquence." in asked
    english = _english_phrases("fr") | {"frequency", "dose", "should I use"}
    assert not [w for w in english if re.search(rf"\b{re.escape(w)}\b", asked.split("Cette réponse")[0])]
    card = clinician.ask("une fois")
    assert 'id="proposal-' in clinician.html
    assert "Débuter ceftriaxone 1 g" in card and "Critique: Ne pas donner ceftriaxone — allergie à Penicillin" in card


def test_a_new_request_after_a_clarifying_question_is_not_glued_to_it(app, fhir_base):
    clinician = _clinician(app, fhir_base, "pt-warfarin", "en")
    clinician.ask("start cipro bd x7d for uti")
    answer = clinician.ask("what's the latest INR")
    assert "INR" in answer and 'id="proposal-' not in clinician.html


def test_a_dose_question_for_a_child_uses_the_weight_on_file_with_its_date(app, fhir_base):
    answer = _clinician(app, fhir_base, "pt-child", "en").ask("paracetamol dose for him?")
    assert ("Weight-based dose of acetaminophen for this child: 15 mg/kg a dose = 301.5 mg for 20.1 kg "
            "(weight of 2026-") in answer
    assert "at most 1000 mg a dose" in answer


def test_a_dose_question_for_a_child_without_a_weight_says_so(app, fhir_base):
    import requests

    clinician = _clinician(app, fhir_base, "pt-child", "fr")
    found = requests.get(f"{fhir_base}/Observation", params={"patient": clinician.patient, "code": "29463-7"},
                         timeout=30).json()
    for entry in found.get("entry") or []:  # this copy's weights only
        requests.delete(f"{fhir_base}/Observation/{entry['resource']['id']}", timeout=30).raise_for_status()
    answer = clinician.ask("dose de paracetamol pour lui ?")
    assert "Weight-based" not in answer and "poids" in answer.lower()


@pytest.mark.parametrize("lang, question, said", [
    ("fr", "interaction warfarine aspirine ?",
     "ÉVITER — risque hémorragique majeur. [1] [2] Mécanisme : Effets antiagrégant et anticoagulant additifs"),
    ("pt", "interacao varfarina e AAS?", "EVITAR — risco de sangramento grave"),
    ("es", "interaccion warfarina aspirina?", "EVITAR — riesgo de sangrado grave"),
])
def test_an_interaction_row_is_in_the_clinicians_language(app, fhir_base, lang, question, said):
    """The tables' clinical text, once English inside a French answer ("AVOID — major bleeding risk …
    Mécanisme : Additive antiplatelet…"), is written in the language (translations/interactions.yaml)."""
    answer = _clinician(app, fhir_base, "pt-warfarin", lang).ask(question)
    assert said in answer, answer[:2000]
    for english in ("AVOID", "major bleeding risk", "Additive antiplatelet", "Use together only",
                    "No FDA label was found"):
        assert english not in answer, english


def test_an_age_question_in_french_is_answered_in_french(app, fhir_base):
    from datetime import date

    today = date.today()
    age = today.year - 1943 - ((today.month, today.day) < (5, 12))  # born 1943-05-12
    answer = _clinician(app, fhir_base, "pt-ckd-elder", "fr").ask("quel âge a-t-elle ?")
    assert f"Âge : {age} ans (né(e) le 12 mai 1943)." in answer, answer[:1000]
    assert "years" not in answer and "born" not in answer
