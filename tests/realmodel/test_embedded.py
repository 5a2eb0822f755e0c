"""The embedded CPU model (``DOCGEMMA_GGUF``): started on a real GGUF, used by the
app through its config, stopped with no orphan — even when its parent is killed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import requests
from smart_docgemma import create_app
from smart_docgemma.agent.model import CallStats, model_from_config
from smart_docgemma.agent.schemas import IntentClassification
from smart_docgemma.modelserver.embedded import EmbeddedModelError, start_embedded_model
from tests.support.llama_server import smollm2_gguf


def _gone(pid: int, within: float = 15) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


def test_no_gguf_means_no_embedded_model(monkeypatch):
    monkeypatch.delenv("DOCGEMMA_GGUF", raising=False)
    assert start_embedded_model({}, export=False) is None


def test_missing_model_file_is_a_clear_error(tmp_path):
    with pytest.raises(EmbeddedModelError, match="Model file not found: .*absent.gguf"):
        start_embedded_model({"GGUF": str(tmp_path / "absent.gguf")}, export=False)


def test_app_uses_the_embedded_model_and_stop_leaves_nothing(app_config):
    model = start_embedded_model({"GGUF": str(smollm2_gguf()), "EMBEDDED_THREADS": 1,
                                  "EMBEDDED_N_CTX": 1024}, export=False)
    try:
        listed = requests.get(f"{model.endpoint}/models", timeout=10).json()
        assert [m["id"] for m in listed["data"]] == [model.model]
        app = create_app({**app_config, **model.app_config()})
        client = model_from_config(app.config)
        assert app.config["SCHEMA_DIALECT"] == "json_object_schema"
        stats = CallStats()
        messages = [{"role": "user", "content": "Query: what is a normal heart rate?"}]
        out = client.structured("intent_classify", messages, IntentClassification, stats)
        assert out.intent in ("DIRECT", "TOOL_NEEDED") and stats.calls == 1 and stats.probes == 0
    finally:
        model.stop()
    assert model.process.returncode is not None and _gone(model.process.pid)
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{model.endpoint}/models", timeout=2)


def test_server_dies_with_a_killed_parent(tmp_path):
    """PR_SET_PDEATHSIG: SIGKILL on the parent (no cleanup runs) still ends the server."""
    script = textwrap.dedent(f"""
        import sys, time
        from smart_docgemma.modelserver.embedded import start_embedded_model
        m = start_embedded_model({{"GGUF": {str(smollm2_gguf())!r}, "EMBEDDED_THREADS": 1,
                                   "EMBEDDED_N_CTX": 512}}, export=False)
        print(m.process.pid, flush=True)
        time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              cwd=os.getcwd())
    try:
        server_pid = int(parent.stdout.readline())
        os.kill(server_pid, 0)  # running
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
    assert _gone(server_pid), "the model server outlived its parent"
