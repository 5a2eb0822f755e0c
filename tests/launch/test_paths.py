"""The sandbox's FHIR path grammar (launch/sandbox/paths.py): every path the proxy forwards is
rebuilt from parts a strict grammar accepted; anything else is a 400 before any policy runs."""
from __future__ import annotations

import pytest
from launch.sandbox.paths import Malformed, parse


@pytest.mark.parametrize("method, path, interaction, upstream", [
    ("GET", "", "operation", ""),
    ("POST", "/", "transaction", ""),
    ("GET", "Observation", "search", "Observation"),
    ("POST", "Observation/_search", "search", "Observation/_search"),
    ("POST", "MedicationRequest", "create", "MedicationRequest"),
    ("GET", "Patient/pt-1", "read", "Patient/pt-1"),
    ("PUT", "Observation/a.b-1", "update", "Observation/a.b-1"),
    ("GET", "Patient/pt-1/_history", "history", "Patient/pt-1/_history"),
    ("GET", "Patient/pt-1/_history/3", "vread", "Patient/pt-1/_history/3"),
    ("GET", "Patient/pt-1/$everything", "operation", "Patient/pt-1/$everything"),
    ("GET", "Patient/pt-1/Observation", "search", "Observation"),
    ("GET", "Observation/_history", "operation", "Observation/_history"),
    ("POST", "$graphql", "operation", "$graphql"),
])
def test_paths_in_the_grammar_are_rebuilt_from_their_parts(method, path, interaction, upstream):
    route = parse(path)
    assert route.interaction(method) == interaction
    assert route.upstream() == upstream


@pytest.mark.parametrize("path", [
    "Practitioner/x/../../Patient/pt-2", "Patient/./pt-2", "Practitioner/x/%2E%2E/Patient",
    "Patient/pt-1%2F..%2Fpt-2", "Patient/pt-1\\..\\pt-2", "Patient//pt-2", "Patient/pt-1/_history/1/extra",
    "patient/pt-1", "Patient/pt 1", "Patient/pt-1/Observation/x", "Patient/pt-1/..;", "metadata",
    "Observation/_search/x", "Patient/%252E%252E",
])
def test_paths_outside_the_grammar_are_malformed(path):
    with pytest.raises(Malformed):
        parse(path)


@pytest.mark.parametrize("method, path", [("POST", "Patient/pt-1"), ("DELETE", "Patient/pt-1/_history"),
                                          ("GET", "Observation/_search"), ("PUT", "")])
def test_methods_a_shape_does_not_take_are_malformed(method, path):
    with pytest.raises(Malformed):
        parse(path).interaction(method)
