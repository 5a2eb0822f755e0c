"""The agent's interaction tool with a patient in context: the question's drugs are also checked
against the patient's active medications and allergies in HAPI (naproxen on warfarin)."""
from __future__ import annotations

from smart_docgemma.tools import args
from smart_docgemma.tools.sources.drugs import TOOLS
from smart_docgemma.tools.sources.http import KnowledgeHttp

from tests.support.launch_context import PATIENT_SCOPES, launch, tool_context
from tests.support.servers import free_port

interactions = next(t for t in TOOLS if t.name == "check_drug_interactions")


def offline_ctx(fhir_base, patient_id, tmp_path):
    ctx = tool_context(launch(fhir_base, patient_id, PATIENT_SCOPES))
    dead = f"http://127.0.0.1:{free_port()}"
    ctx.http = KnowledgeHttp({"OPENFDA_URL": dead, "RXNAV_URL": dead, "CACHE_PATH": str(tmp_path / "c"),
                              "KNOWLEDGE_MAX_RETRIES": 0})
    return ctx


def test_the_question_drugs_are_checked_against_the_patients_warfarin(fhir_base, tmp_path):
    asked = args.DrugInteractionArgs(drug_names=["naproxen", "omeprazole"])
    result = interactions.run(asked, offline_ctx(fhir_base, "pt-warfarin", tmp_path))
    assert result.status == "ok"
    assert "naproxen" in result.text and "warfarin" in result.text and "major bleeding risk" in result.text
    assert "Checked against the patient's active medications" in result.text


def test_the_patients_penicillin_allergy_is_named(fhir_base, tmp_path):
    ctx = offline_ctx(fhir_base, "pt-pen-allergy", tmp_path)
    result = interactions.run(args.DrugInteractionArgs(drug_names=["Augmentin", "acetaminophen"]), ctx)
    assert result.status == "ok" and "ALLERGY (CRITICAL) — amoxicillin/clavulanate" in result.text


def test_an_answer_from_a_thesaurus_only_pair_is_english(fhir_base, tmp_path):
    from smart_docgemma.knowledge import looks_french

    ctx = offline_ctx(fhir_base, "pt-pen-allergy", tmp_path)
    result = interactions.run(args.DrugInteractionArgs(drug_names=["abiraterone", "metoprolol"]), ctx)
    assert "adjust the dose" in result.text
    lines = [ln for ln in result.text.splitlines() if "Offline interaction tables:" not in ln]
    assert not looks_french("\n".join(lines)), result.text
