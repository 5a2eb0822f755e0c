"""The fast loop (``pytest -m "not slow"``) starts no JVM, browser, PostgreSQL or model server:
tests that use a fixture starting one are marked slow at collection, and a fast test that starts
one anyway fails, naming the program."""
from __future__ import annotations

import sys

import pytest

from tests.conftest import HEAVY_FIXTURES, _heavy


def test_a_real_jvm_browser_or_server_module_is_heavy(tmp_path):
    assert _heavy(["java", "-jar", "hapi.jar"], {"PATH": "/usr/bin:/bin"}) == "java"
    assert _heavy("chromium --headless", None) == "chromium"
    assert _heavy([sys.executable, "-m", "gunicorn", "app"], None) == "gunicorn"
    assert _heavy([sys.executable, "-m", "launch.upstream"], None) == "launch.upstream"


def test_a_stand_in_script_or_a_mere_mention_is_not(tmp_path):
    fake = tmp_path / "java"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert _heavy(["java", "-version"], {"PATH": str(tmp_path)}) == ""
    assert _heavy([sys.executable, "-c", "import launch.upstream"], None) == ""
    assert _heavy([sys.executable, "-m", "pip", "wheel", "."], None) == ""


def test_the_server_fixtures_mark_their_tests_slow(request):
    assert {"fhir_base", "sandbox", "postgres", "browser", "llama_endpoint"} <= HEAVY_FIXTURES
    assert request.node.get_closest_marker("slow") is None  # this one uses none of them


def test_a_fast_test_that_starts_a_jvm_fails_naming_it():
    import subprocess

    with pytest.raises(pytest.fail.Exception, match="starts java: mark it slow"):
        subprocess.Popen(["java", "-version"])
