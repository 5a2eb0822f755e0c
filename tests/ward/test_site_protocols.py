"""A site's own protocol file replaces the shipped one (DOCGEMMA_PROTOCOLS_FILE): its threshold,
dose, version and source are the ones applied and shown; a protocol naming an analyte the table
lacks orders nothing and says why."""
from __future__ import annotations

import yaml
from smart_docgemma.tools.args import ProtocolArgs
from smart_docgemma.tools.writes.protocols import DEFAULT, run_apply_protocol

from tests.support.launch_context import PATIENT_SCOPES, launch, tool_context
from tests.ward.conftest import of_patient, result


def _site_file(tmp_path, **changes):
    table = yaml.safe_load(DEFAULT.read_text())
    table["protocols"]["potassium_oral"].update(changes)
    path = tmp_path / "site-protocols.yaml"
    path.write_text(yaml.safe_dump(table))
    return path


def _ctx(fhir_base, patient, path):
    from smart_docgemma.proposals.store import ProposalStore
    from smart_docgemma.storage import Storage

    lc = launch(fhir_base, patient, PATIENT_SCOPES + " patient/ServiceRequest.crs")
    ctx = tool_context(lc, ProposalStore(Storage(f"sqlite:///{path.parent / 'p.sqlite'}", "key")))
    ctx.config = {"PROTOCOLS_FILE": str(path)}
    return ctx


def test_the_sites_threshold_and_version_are_applied_and_shown(fhir_base, patient, tmp_path):
    result(fhir_base, patient, "2823-3", 3.7, "mmol/L", hours_ago=1)  # normal by the shipped 3.5
    path = _site_file(tmp_path, low_below=3.8, per_step={"step": 0.1, "dose": 10, "below": 3.8},
                      version="ward-7 2026-12", source="St Elsewhere renal unit")
    done = run_apply_protocol(ProtocolArgs(patient_id=patient, protocol="potassium"), _ctx(fhir_base, patient, path))
    assert done.status == "proposal", done.text
    assert "version ward-7 2026-12" in done.text and "St Elsewhere renal unit" in done.text
    assert "10 mEq" in done.text  # one step below 3.8
    assert of_patient(fhir_base, "MedicationRequest", patient) == []  # proposed, not written


def test_a_protocol_whose_analyte_the_table_lacks_orders_nothing(fhir_base, patient, tmp_path):
    path = _site_file(tmp_path, analyte="Serum potassium (site code)")
    done = run_apply_protocol(ProtocolArgs(patient_id=patient, protocol="potassium"), _ctx(fhir_base, patient, path))
    assert done.status == "error" and "analyte table lacks" in done.text and "nothing was ordered" in done.text
