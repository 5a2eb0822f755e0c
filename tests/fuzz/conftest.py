"""The protocol fuzzers' shared stack (``protocols.py``), started once per fuzz module."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def protocol_stack(fhir_base, sources, tmp_path_factory):
    from tests.fuzz.protocols import start

    stack, servers = start(fhir_base, sources, tmp_path_factory.mktemp("fuzz-protocols"))
    try:
        yield stack
    finally:
        for server in reversed(servers):
            server.__exit__(None, None, None)
