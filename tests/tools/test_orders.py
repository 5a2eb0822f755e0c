"""The write tools build validated, coded FHIR resources as proposals and never write to HAPI."""
from __future__ import annotations

import base64

import pytest
from smart_docgemma.proposals.store import IDENTIFIER_SYSTEM, ProposalStore
from smart_docgemma.storage import Storage
from smart_docgemma.tools.args import AddAllergyArgs, ClinicalNoteArgs, PrescribeMedicationArgs
from smart_docgemma.tools.writes.draft import validated
from smart_docgemma.tools.writes.orders import run_add_allergy, run_prescribe, run_save_note

from tests.support.launch_context import PATIENT_SCOPES, count, launch, tool_context


@pytest.fixture
def store(tmp_path):
    return ProposalStore(Storage(f"sqlite:///{tmp_path / 'p.sqlite'}", "k"))


def ctx_for(fhir_base, store, patient_id, scopes=PATIENT_SCOPES):
    return tool_context(launch(fhir_base, patient_id, scopes), store)


def prescribe(ctx, patient_id, drug="amoxicillin", dose="500 mg", freq="three times daily"):
    return run_prescribe(PrescribeMedicationArgs(patient_id=patient_id, medication_name=drug, dosage=dose,
                                                 frequency=freq), ctx)


def test_amoxicillin_for_penicillin_allergy_is_a_flagged_coded_proposal_and_nothing_is_written(fhir_base, store):
    before = count(fhir_base, "MedicationRequest", patient="pt-pen-allergy")
    result = prescribe(ctx_for(fhir_base, store, "pt-pen-allergy"), "pt-pen-allergy")
    assert result.status == "proposal" and result.proposal_id
    p = store.get(result.proposal_id)
    assert p.status == "pending" and p.patient_id == "pt-pen-allergy"
    med = p.resource
    assert med["medicationCodeableConcept"]["coding"][0] == {
        "system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "723", "display": "amoxicillin"}
    inst = med["dosageInstruction"][0]
    assert inst["doseAndRate"][0]["doseQuantity"]["value"] == 500
    assert inst["timing"]["repeat"] == {"frequency": 3, "period": 1, "periodUnit": "d"}
    assert med["requester"] == {"reference": "Practitioner/dr-okafor"} and med["status"] == "active"
    assert {"system": IDENTIFIER_SYSTEM, "value": p.id} in med["identifier"]
    allergy = [f for f in p.summary["flags"] if f["kind"] == "allergy"]
    assert allergy and allergy[0]["severity"] == "critical" and "Penicillin" in allergy[0]["text"]
    assert "awaiting the clinician's approval" in result.text and "Penicillin" in result.text
    assert count(fhir_base, "MedicationRequest", patient="pt-pen-allergy") == before


def test_nsaid_for_warfarin_patient_flags_the_interaction(fhir_base, store):
    result = prescribe(ctx_for(fhir_base, store, "pt-warfarin"), "pt-warfarin", "ibuprofen", "400 mg", "every 8 hours")
    flags = store.get(result.proposal_id).summary["flags"]
    assert any(f["kind"] == "drug-interaction" and "warfarin" in f["text"] for f in flags)
    assert store.get(result.proposal_id).resource["dosageInstruction"][0]["timing"]["repeat"]["period"] == 8


def test_uncoded_drug_falls_back_to_text(fhir_base, store):
    result = prescribe(ctx_for(fhir_base, store, "pt-demo-only"), "pt-demo-only", "zzfakeamab", "10 mg", "weekly")
    med = store.get(result.proposal_id).resource["medicationCodeableConcept"]
    assert med == {"text": "zzfakeamab"}


def test_other_patient_or_missing_scope_is_refused_and_stores_nothing(fhir_base, store):
    other = prescribe(ctx_for(fhir_base, store, "pt-pen-allergy"), "pt-warfarin")
    assert other.error_kind == "forbidden" and "patient in context" in other.text
    no_scope = prescribe(ctx_for(fhir_base, store, "pt-pen-allergy", "patient/MedicationRequest.rs"), "pt-pen-allergy")
    assert no_scope.error_kind == "forbidden" and "MedicationRequest" in no_scope.text
    assert store.for_session("") == [] and not other.proposal_id and not no_scope.proposal_id


def test_a_card_says_what_the_check_does_not_cover_beside_its_findings(fhir_base, store):
    """Gliclazide at 83 with eGFR 38: the age list's warning, and the renal rules' and the
    drug–disease rules' gaps said on the card as the answer says them (a card with no line
    read as a drug checked and found clean)."""
    result = prescribe(ctx_for(fhir_base, store, "pt-ckd-elder"), "pt-ckd-elder", "gliclazide",
                       "40 mg", "once daily")
    flags = store.get(result.proposal_id).summary["flags"]
    assert any(f["kind"] == "age" and f["severity"] == "warning" for f in flags)
    gaps = [f["text"] for f in flags if f["kind"] == "not_covered"]
    assert any(t.startswith("Not covered: the renal rules have no entry for gliclazide, so no "
                            "dose is checked against eGFR 38") for t in gaps), gaps
    assert "Not covered: the renal rules" in result.text
    held = prescribe(ctx_for(fhir_base, store, "pt-warfarin"), "pt-warfarin", "amoxicillin")
    assert not any("amoxicillin" in f["text"] and f["kind"] == "not_covered" and "renal" in f["text"]
                   for f in store.get(held.proposal_id).summary["flags"])


def test_add_allergy_is_snomed_coded_and_flags_a_duplicate(fhir_base, store):
    args = AddAllergyArgs(patient_id="pt-pen-allergy", substance="penicillin", reaction="hives", severity="moderate")
    result = run_add_allergy(args, ctx_for(fhir_base, store, "pt-pen-allergy"))
    p = store.get(result.proposal_id)
    res = p.resource
    assert res["code"]["coding"][0]["code"] == "764146007" and res["category"] == ["medication"]
    assert res["reaction"][0]["manifestation"][0]["coding"][0]["code"] == "126485001"
    assert res["reaction"][0]["severity"] == "moderate" and res["patient"]["reference"] == "Patient/pt-pen-allergy"
    assert res["clinicalStatus"]["coding"][0]["code"] == "active"
    assert any(f["kind"] == "duplicate" for f in p.summary["flags"])


def test_allergy_that_conflicts_with_an_active_med_is_flagged(fhir_base, store):
    args = AddAllergyArgs(patient_id="pt-warfarin", substance="aspirin", reaction="wheezing", severity="severe")
    p = store.get(run_add_allergy(args, ctx_for(fhir_base, store, "pt-warfarin")).proposal_id)
    assert any(f["kind"] == "allergy" and "aspirin" in f["text"] for f in p.summary["flags"])
    # severity of a reaction is not criticality: unstated criticality stays unknown, and an
    # allergy the clinician did not call confirmed is recorded unconfirmed
    assert "criticality" not in p.resource
    assert p.resource["verificationStatus"]["coding"][0]["code"] == "unconfirmed"


def test_clinical_note_is_a_loinc_typed_document_with_the_text(fhir_base, store):
    args = ClinicalNoteArgs(patient_id="pt-ckd-elder", note_type="consult note",
                            note_text="Renal consult: start low K diet.")
    p = store.get(run_save_note(args, ctx_for(fhir_base, store, "pt-ckd-elder")).proposal_id)
    doc = p.resource
    assert doc["type"]["coding"][0]["code"] == "11488-4" and doc["status"] == "current"
    assert base64.b64decode(doc["content"][0]["attachment"]["data"]).decode() == "Renal consult: start low K diet."
    assert doc["author"] == [{"reference": "Practitioner/dr-okafor"}]
    assert p.summary["preview"].startswith("Renal consult")


def test_invalid_resource_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="subject"):
        validated({"resourceType": "MedicationRequest", "status": "active", "intent": "order",
                   "medicationCodeableConcept": {"text": "x"}})
