"""The tool catalog: each tool is defined once (``catalog.yaml`` + its argument schema) and the
registry, the agent and the session's grant all read that one definition."""
from __future__ import annotations

from smart_docgemma.smart.scopes import GrantedScopes
from smart_docgemma.tools.catalog import running_order, spec, specs
from smart_docgemma.tools.registry import all_tools, tools_for


def test_every_catalog_tool_runs_with_its_own_spec():
    tools = all_tools()
    assert sorted(t.name for t in tools) == sorted(specs())
    assert all(t.spec is spec(t.name) for t in tools)
    assert all(s.args_model.__name__.endswith("Args") for s in specs().values())


def test_writes_need_a_create_grant_and_reads_without_scopes_are_always_present():
    patient_read = set(tools_for(GrantedScopes.parse("launch openid patient/Patient.r")))
    assert "get_patient_chart" in patient_read and "check_drug_safety" in patient_read
    assert not {n for n in patient_read if spec(n).kind == "write"}
    writes = set(tools_for(GrantedScopes.parse("patient/Patient.r patient/MedicationRequest.c")))
    assert "prescribe_medication" in writes and "add_allergy" not in writes


def test_running_order_finds_the_patient_first_and_writes_last():
    order = running_order()
    assert order[:2] == ("search_patient", "get_patient_chart")
    assert {spec(n).kind for n in order[-3:]} == {"write"}
    assert len({spec(n).order for n in order}) == len(order)  # no two tools share a place
