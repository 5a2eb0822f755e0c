"""A value the clinician states with a replacement protocol ("K 2.9 - start the potassium
protocol"), on the real HAPI: used when the chart holds no result of the analyte, said as stated;
confirmed first when the chart's latest contradicts it; never used for an analyte whose units
differ ("Mg 0.5": mmol/L or mg/dL) unless its unit is said ("Mg 0.5 mmol/L", converted); a charted
result in the window wins over it."""
from __future__ import annotations

from smart_docgemma.tools.args import ProtocolArgs
from smart_docgemma.tools.writes.protocols import DEFAULT, run_apply_protocol

from tests.support.launch_context import PATIENT_SCOPES, launch, tool_context
from tests.ward.conftest import of_patient, result


def _ctx(fhir_base, patient, tmp_path):
    from smart_docgemma.proposals.store import ProposalStore
    from smart_docgemma.storage import Storage

    lc = launch(fhir_base, patient, PATIENT_SCOPES + " patient/ServiceRequest.crs")
    ctx = tool_context(lc, ProposalStore(Storage(f"sqlite:///{tmp_path / 'p.sqlite'}", "key")))
    ctx.config = {"PROTOCOLS_FILE": str(DEFAULT)}
    return ctx


def _apply(fhir_base, patient, tmp_path, protocol, value, unit=None):
    args = ProtocolArgs(patient_id=patient, protocol=protocol, stated_value=value, stated_unit=unit)
    return run_apply_protocol(args, _ctx(fhir_base, patient, tmp_path))


def test_a_stated_potassium_with_none_charted_is_replaced_and_said_as_stated(
        fhir_base, patient, tmp_path):
    done = _apply(fhir_base, patient, tmp_path, "potassium", 2.9)
    assert done.status == "proposal", done.text
    assert "as you stated, not a charted result" in done.text and "potassium chloride" in done.text
    assert of_patient(fhir_base, "MedicationRequest", patient) == []  # proposed, not written


def test_a_stated_value_the_chart_contradicts_is_confirmed_first(fhir_base, patient, tmp_path):
    result(fhir_base, patient, "2823-3", 5.6, "mmol/L", hours_ago=24 * 20)  # outside the window
    done = _apply(fhir_base, patient, tmp_path, "potassium", 3.2)
    assert done.status == "ok" and "Which is current?" in done.text and "5.6" in done.text
    assert "nothing was ordered" in done.text


def test_a_charted_result_in_the_window_wins_over_the_stated_one(fhir_base, patient, tmp_path):
    result(fhir_base, patient, "2823-3", 3.6, "mmol/L", hours_ago=1)
    done = _apply(fhir_base, patient, tmp_path, "potassium", 3.2)
    assert done.status == "ok" and "The latest potassium is 3.6" in done.text
    assert "nothing is ordered" in done.text


def test_a_stated_magnesium_is_never_read_in_a_guessed_unit(fhir_base, patient, tmp_path):
    done = _apply(fhir_base, patient, tmp_path, "magnesium", 0.5)
    assert done.status == "ok" and "with no unit" in done.text and "mg/dL" in done.text
    assert of_patient(fhir_base, "MedicationRequest", patient) == []


def test_a_stated_magnesium_with_its_unit_is_converted_and_replaced(fhir_base, patient, tmp_path):
    done = _apply(fhir_base, patient, tmp_path, "magnesium", 0.5, "mmol/L")
    assert done.status == "proposal", done.text
    assert "magnesium 0.5 mmol/L (1.22 mg/dL) as you stated" in done.text
    assert "magnesium sulfate" in done.text
    assert of_patient(fhir_base, "MedicationRequest", patient) == []  # proposed, not written


def test_a_stated_magnesium_in_range_once_converted_orders_nothing(fhir_base, patient, tmp_path):
    done = _apply(fhir_base, patient, tmp_path, "magnesium", 0.9, "mmol/L")
    assert done.status == "ok" and "is not below" in done.text, done.text
