"""French, Portuguese and Spanish as clinicians type them, without a model: the right tool, the
right drug (INN spellings mapped to the core's ingredients), another patient named in any
language, and the templated answers in the clinician's language. The evaluation sets
(smart_docgemma/evaluation/languages/) measure the same on real HAPI (docs/languages.md)."""
from __future__ import annotations

import re

import pytest
from smart_docgemma.agent import languages
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.graph import Agent
from smart_docgemma.agent.state import new_turn
from smart_docgemma.agent.synthesis import answer_messages as _messages
from smart_docgemma.proposals.followup import followup
from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.base import ToolContext, ToolResult
from smart_docgemma.tools.chart.in_context import ChartInContext, InContext, Medication

from .conftest import FakeTool, ok

CHART = "Robert Mensah, 76 y male; problems: atrial fibrillation; meds: warfarin 5 mg daily; allergies: none recorded"
# the same chart typed, as the chart read gives it with its brief
IN_CHART = ChartInContext(patient=InContext(name="Robert Mensah", id="rm-1"), sex="male", age=76,
                          medications=(Medication("warfarin 5 mg daily", ("warfarin",)),))
SCOPES = GrantedScopes.parse("launch openid fhirUser patient/*.rs patient/MedicationRequest.cu")


def _run(message, language="en"):
    tools = {name: FakeTool(name, result) for name, result in (
        ("get_patient_chart", ok("Robert Mensah: AF on warfarin", count=1)),
        ("check_drug_interactions", ok("Major interaction", count=1)),
        ("check_drug_safety", ok("BOXED WARNING: x", count=None)),
        ("prescribe_medication", ToolResult(status="proposal", text="Order prepared.", proposal_id="p-1")),
        ("add_allergy", ToolResult(status="proposal", text="Allergy prepared.", proposal_id="p-2")))}
    ctx = ToolContext(patient_id="rm-1", scopes=SCOPES, language=language)
    turn = Agent(None, {n: f.tool() for n, f in tools.items()}, ctx).run(
        message, chart_summary=CHART, chart=IN_CHART)
    return turn, {n: f.calls for n, f in tools.items() if f.calls}


@pytest.mark.parametrize("written, ingredient", [
    ("warfarine", "warfarin"), ("varfarina", "warfarin"), ("warfarina", "warfarin"),
    ("amoxicilline", "amoxicillin"), ("amoxicilina", "amoxicillin"), ("paracétamol", "acetaminophen"),
    ("acetaminofén", "acetaminophen"), ("ibuprofène", "ibuprofen"), ("ibuprofeno", "ibuprofen"),
    ("oméprazole", "omeprazole"), ("omeprazol", "omeprazole"), ("métformine", "metformin"),
    ("metotrexato", "methotrexate"), ("amiodarona", "amiodarone"), ("anlodipino", "amlodipine"),
    ("sinvastatina", "simvastatin"), ("claritromicina", "clarithromycin"), ("furosémide", "furosemide"),
    ("hidroclorotiazida", "hydrochlorothiazide"), ("acide acétylsalicylique", "aspirin"),
    ("amoxiciline", "amoxicillin"), ("amoxicilna", "amoxicillin"),  # typos: one edit from the spelling
])
def test_drug_names_as_written_in_each_language_reach_the_core_ingredient(written, ingredient):
    assert extract(f"interaction {written} et warfarine").drugs[0] == ingredient


def test_words_that_look_like_drugs_are_not_drugs():
    assert extract("quelle est la dernière créatinine ?").drugs == ()
    assert extract("dernières kaliémie et natrémie").drugs == ()


@pytest.mark.parametrize("message, tool, drugs", [
    ("interaction entre warfarine et ibuprofène ?", "check_drug_interactions", ["warfarin", "ibuprofen"]),
    ("¿hay interacción entre warfarina y aspirina?", "check_drug_interactions", ["warfarin", "aspirin"]),
    ("posso dar tramadol pra ele?", "check_drug_interactions", ["tramadol", "warfarin"]),
    ("peut-on lui donner du fluconazole ?", "check_drug_interactions", ["fluconazole", "warfarin"]),
    ("quelle est la dernière kaliémie ?", "get_patient_chart", None),
    ("qual é a última creatinina?", "get_patient_chart", None),
    ("TA y FC de hoy", "get_patient_chart", None),
    ("contre indications du lisinopril", "check_drug_safety", None),
])
def test_questions_in_each_language_run_the_tool_they_ask_for(message, tool, drugs):
    turn, calls = _run(message)
    assert list(calls) == [tool] and turn.proposals == []
    if drugs:
        assert calls[tool][0]["drug_names"] == drugs


@pytest.mark.parametrize("message, dose, frequency, notes", [
    ("prescrire amoxicilline 500 mg trois fois par jour pendant 5 jours", "500 mg", "trois fois par jour",
     "for 5 days"),
    ("prescrever amoxicilina 500 mg de 8/8h por 7 dias", "500 mg", "8/8h", "for 7 days"),
    ("indicar amoxicilina 500 mg VO cada 8 horas por 7 días", "500 mg", "cada 8 horas", "route oral; for 7 days"),
])
def test_an_order_in_any_language_is_the_same_ingredient_with_the_dosage_as_written(message, dose, frequency,
                                                                                     notes):
    turn, calls = _run(message)
    args = calls["prescribe_medication"][0]
    assert (args["medication_name"], args["dosage"], args["frequency"]) == ("amoxicillin", dose, frequency)
    assert args["notes"] == notes and turn.proposals == ["p-1"]


@pytest.mark.parametrize("message", [
    "prescrire amoxicilline 1 g 3 fois par jour pour James Wilson",
    "prescrever metformina 850 mg 12/12h para o Samuel Okoro",
    "historia clínica de Grace Adeyemi",
    "dossier de Mme Diallo",
])
def test_another_patient_named_in_any_language_gets_no_tool_and_no_write(message):
    turn, calls = _run(message)
    assert calls == {} and turn.proposals == []
    assert "this chart only" in turn.answer


def test_the_launch_patient_named_with_a_title_is_still_this_chart():
    turn, calls = _run("prescrire amoxicilline 500 mg 3 fois par jour pour M. Mensah")
    assert "prescribe_medication" in calls and calls["prescribe_medication"][0]["patient_id"] == "rm-1"


@pytest.mark.parametrize("language, words", [
    ("fr", "Je travaille dans ce dossier uniquement"), ("pt", "Trabalho apenas neste prontuário"),
    ("es", "Trabajo solo en esta historia clínica"), ("en", "I work in this chart only")])
def test_templated_answers_are_in_the_clinicians_language(language, words):
    turn, _ = _run("dossier de Samuel Okoro", language=language)
    assert turn.answer.startswith(words) and "Samuel Okoro" in turn.answer


def test_degraded_summaries_and_tool_labels_follow_the_language():
    turn, _ = _run("interaction warfarine ibuprofène", language="fr")
    assert turn.answer.startswith("**Modèle indisponible")
    assert "**Vérification des interactions**" in turn.answer
    turn, _ = _run("demander une radio du thorax", language="es")  # lab orders are ward requests now
    assert turn.answer.startswith("Las solicitudes de imágenes: no disponible aquí")
    assert languages.answer_language() == "en"  # the turn's language does not leak past it


def test_synthesis_is_told_the_language_and_classification_stays_english():
    state = new_turn("interaction warfarine ibuprofène")
    with languages.answering("pt"):
        system = _messages(state)[0]["content"]
    assert system.endswith("Write the whole answer in Portuguese, the clinician's language. Keep drug names, "
                           "doses, units, codes and quoted source text exactly as given.")
    assert "Portuguese" not in _messages(state)[0]["content"]


def test_the_follow_up_after_a_decision_is_in_the_language():
    approved = {"decision": "approved", "action": "Prescrire amoxicilline 500 mg", "result_ref":
                "MedicationRequest/1", "provenance": "Provenance/2",
                "changes": [{"field": "dose", "before": "500 mg", "after": "1 g"}]}
    with languages.answering("fr"):
        text = followup(approved)
        rejected = followup({"decision": "rejected", "action": "X", "reason": "doublon"})
    assert text == ("Fait : Prescrire amoxicilline 500 mg. MedicationRequest/1 créé dans le dossier "
                    "(Provenance : Provenance/2). Vous l'avez d'abord modifié : dose 500 mg → 1 g.")
    assert rejected.startswith("Non fait : X. Vous l'avez refusé (doublon)")
    assert followup(approved).startswith("Done: Prescrire amoxicilline 500 mg.")


def test_every_answer_file_has_every_english_key():
    from smart_docgemma.agent.prompts import load

    english = load("prompts")
    for lang in ("fr", "pt", "es"):
        written = languages.answers(lang)
        assert set(written["messages"]) == set(english["messages"]), lang
        assert set(written["errors"]) == set(english["errors"]), lang
        for key, text in written["messages"].items():  # the same fields to fill
            assert set(_fields(text)) == set(_fields(english["messages"][key])), (lang, key)


def _fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def test_coverage_of_commonly_prescribed_drugs_written_in_each_language():
    """How many of 50 common drugs, as written in fr / pt / es, reach the core's ingredient
    (docs/languages.md reports the figure; a drop below it fails here)."""
    import yaml
    from smart_docgemma.evaluation.cases import CASES_FILE

    table = yaml.safe_load((CASES_FILE.parent / "languages" / "drug_names.yaml").read_text())
    hits = {lang: 0 for lang in ("fr", "pt", "es")}
    for ingredient, written in table.items():
        for lang, name in zip(hits, written, strict=False):
            found = extract(f"interaction {name} ?").drugs
            hits[lang] += bool(found) and ingredient in found[0]
    assert len(table) == 50
    assert hits == {"fr": 50, "pt": 50, "es": 50}, hits


@pytest.mark.parametrize("message, english", [
    ("prescrire amoxicilline 500 mg trois fois par jour", "prescribe amoxicillin 500 mg three times daily"),
    ("prescrever amoxicilina 500 mg de 8/8h", "prescribe amoxicillin 500 mg every 8 hours"),
    ("indicar paracetamol 1 g cada 6 horas si dolor", "prescribe paracetamol 1 g every 6 hours prn pain"),
    ("prescrire paracétamol 1 g 4x/j si douleur", "prescribe paracetamol 1 g qds prn for pain"),
    ("prescrever ibuprofeno 400 mg de 8/8h se dor", "prescribe ibuprofen 400 mg every 8 hours prn pain"),
    ("prescrire salbutamol 2 bouffées si besoin", "prescribe albuterol 2 puffs as needed"),
    ("prescrire metformine 500 mg matin et soir", "prescribe metformin 500 mg twice daily"),
])
def test_a_translated_order_is_the_same_coded_medication_request_as_its_english_twin(message, english):
    """Same RxNorm coding, same structured timing and as-needed flag; only the text differs (kept
    in the clinician's words)."""
    from smart_docgemma.tools.writes.orders import dosage_instruction, rxnorm_coding

    def order(text):
        args = _run(text)[1]["prescribe_medication"][0]
        inst = dosage_instruction(args["dosage"], args["frequency"], args.get("notes"))
        return rxnorm_coding(args["medication_name"]), inst, args["frequency"]

    (code, inst, said), (code_en, inst_en, _) = order(message), order(english)
    assert code == code_en and code["system"] == "http://www.nlm.nih.gov/research/umls/rxnorm"
    assert inst.get("timing") == inst_en.get("timing")
    assert _as_needed(inst) == _as_needed(inst_en)
    assert said in inst["text"] and said in message


def _as_needed(inst):
    """The order's as-needed flag or its coded reason (pain: SNOMED CT 22253000)."""
    concept = inst.get("asNeededCodeableConcept")
    return [c["code"] for c in concept["coding"]] if concept else inst.get("asNeededBoolean")


@pytest.mark.parametrize("message, words", [
    ("prescrire paracétamol 1 g x3/j si douleur", "si douleur"),
    ("prescrever paracetamol 750 mg de 8/8h se dor", "se dor"),
    ("indicar ibuprofeno 400 mg c/8h si dolor", "si dolor"),
    ("prescribe paracetamol 1 g qds prn pain", "prn pain"),
])
def test_if_pain_is_the_coded_as_needed_reason_of_the_order(message, words):
    """"si douleur" / "se dor" / "si dolor" / "prn pain": asNeededCodeableConcept pain (SNOMED CT),
    the clinician's words as its text; never only words in the notes."""
    from smart_docgemma.tools.writes.orders import dosage_instruction

    args = _run(message)[1]["prescribe_medication"][0]
    inst = dosage_instruction(args["dosage"], args["frequency"], args.get("notes"))
    concept = inst["asNeededCodeableConcept"]
    assert concept["coding"] == [{"system": "http://snomed.info/sct", "code": "22253000",
                                  "display": "Pain"}]
    assert concept["text"] == words and "asNeededBoolean" not in inst


def test_french_clinicians_read_the_ansm_interaction_as_the_thesaurus_words_it():
    from smart_docgemma.knowledge import ddi
    from smart_docgemma.tools.sources.drugreport import table_text

    row = ddi.pair("warfarin", "ibuprofen")
    with languages.answering("fr"):
        french = table_text(row)
    assert french == f"ASSOCIATION DÉCONSEILLÉE — Thésaurus ANSM : {row.quote}"
    assert row.quote.startswith("Augmentation du risque hémorragique")
    # Portuguese and Spanish read the table's text in their language (translations/interactions.yaml)
    for lang, said in (("en", "AVOID — major bleeding risk. Mechanism: NSAIDs inhibit"),
                       ("pt", "EVITAR — risco de sangramento grave. Mecanismo: Os AINEs inibem"),
                       ("es", "EVITAR — riesgo de sangrado grave. Mecanismo: Los AINE inhiben")):
        with languages.answering(lang):
            assert table_text(row).startswith(said)


@pytest.mark.parametrize("message, dose, frequency", [
    ("prescrire salbutamol 2 bouffées si besoin", "2 bouffées", "si besoin"),
    ("prescrever salbutamol 2 jatos se necessário", "2 jatos", "se necessário"),
    ("indicar salbutamol 2 puff según necesidad", "2 puff", "según necesidad"),
])
def test_doses_in_each_languages_units_are_kept_with_the_clinicians_accents(message, dose, frequency):
    found = extract(message)
    assert found.drugs == ("albuterol",) and found.dose is not None
    assert (found.dose.written, found.dose.frequency) == (dose, frequency)


@pytest.mark.parametrize("message", [
    "note : INR 3,4, pas d'allergie connue, contrôle dans 1 semaine",
    "evolução: INR 3,4, sem alergias conhecidas, retorno em 1 semana",
    "nota de evolución: INR 3,4, sin alergias conocidas",
])
def test_no_known_allergy_is_said_in_a_note_and_records_no_allergy(message):
    turn, calls = _run(message)
    assert "add_allergy" not in calls and "document_allergy" not in extract(message).actions


@pytest.mark.parametrize("message", [
    "NKDA", "no known drug allergies", "pas d'allergie connue", "pas d allergie connue",
    "allergies : aucune", "sem alergias conhecidas", "sem alergia conhecida", "sin alergias conocidas",
    "sin alergia conocida", "Allergies: NKDA",
])
def test_no_known_allergy_is_a_no_known_allergy_record_to_approve(message):
    """"NKDA" and its French, Portuguese and Spanish words (accents or not) prepare the
    no-known-allergy AllergyIntolerance (confirmed), never a chart read or an allergy to a
    substance; inside a note they stay the note's words."""
    _, calls = _run(message)
    assert list(calls) == ["add_allergy"], calls
    args = calls["add_allergy"][0]
    assert (args["substance"], args["verification"], args["patient_id"]) == \
        ("no known allergy", "confirmed", "rm-1")
    _, in_note = _run("note : INR 3,4, pas d'allergie connue, contrôle dans 1 semaine")
    assert "add_allergy" not in in_note


def test_no_known_allergy_for_another_patient_prepares_nothing():
    turn, calls = _run("pas d'allergie connue pour Mme Adeyemi")
    assert "add_allergy" not in calls


def test_immunisation_and_encounter_answers_and_their_dates_follow_the_language():
    from smart_docgemma import languages as run_language
    from smart_docgemma.tools.chart.answers import answer
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartEncounter, ChartImmunization, ChartPatient

    chart = ChartData(
        ChartPatient(name="Ana Silva", gender="female", birth_date="1950-03-02", age=76, mrn=None, id="p1"),
        immunizations=(ChartImmunization("2026-10-01", "Influenza", "completed", "Immunization/i1"),
                       ChartImmunization("2025-10-03", "Influenza", "completed", "Immunization/i2")),
        encounters=(ChartEncounter("2026-09-14", "2026-09-18", "Inpatient", "Pneumonia", "finished",
                                   admission="Hospital admission", ref="Encounter/e1"),))
    english = answer("immunizations", chart) + answer("encounters", chart)
    assert "Influenza: 2026-10-01 (2 recorded)" in english and "since 2026-09-14" in english
    with run_language.answering("pt"):
        said = answer("immunizations", chart) + "\n" + answer("encounters", chart)
    assert "nascido(a) em 2 de março de 1950" in said
    assert "- Influenza: 1 de outubro de 2026 (2 registrada(s))" in said
    assert "(desde 14 de setembro de 2026)" in said and "→ 18 de setembro de 2026" in said
    assert "Atendimentos mais recentes:" in said and not re.search(r"\d{4}-\d{2}-\d{2}", said)


def test_the_models_prompt_keeps_iso_dates_on_a_french_turn():
    """The chart text a French turn reads has French dates (for the clinician); the model's
    prompt has them back as ISO days."""
    from dataclasses import replace

    from smart_docgemma import languages as run_language
    from smart_docgemma.tools.chart.chartdata import ChartPatient
    from smart_docgemma.tools.chart.summary import patient_line

    person = ChartPatient(name="Ana Silva", gender="female", birth_date="1950-03-02", age=76, mrn=None, id="p1")

    with run_language.answering("fr"):
        brief = patient_line(person) + "\n- Potassium (mmol/L): 5.6 (10 nov. 2026)"
        state = replace(new_turn("quelle est la dernière kaliémie ?"), chart_summary=brief)
        prompt = "\n".join(m["content"] for m in _messages(state))  # the chart is in the fixed part
    assert "né(e) le 2 mars 1950" in brief
    assert "né(e) le 1950-03-02" in prompt and "5.6 (2026-11-10)" in prompt
    assert not re.search(r"\d{1,2} (mars|nov)", prompt)
