"""``docgemma-sandbox`` as a user runs it: a child process that brings up the sandbox
and the app in front of the session's HAPI, prints the launcher URL, serves a
launch, and stops everything on SIGTERM."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
import requests

from tests.support.mcp_oauth import call_over_mcp
from tests.support.servers import free_port

pytestmark = pytest.mark.slow


def test_stack_starts_serves_a_launch_and_stops_on_sigterm(fhir_base, synthea, tmp_path):
    sandbox_port, app_port = free_port(), free_port()
    env = {**os.environ, "FHIR_UPSTREAM_URL": fhir_base, "SANDBOX_PORT": str(sandbox_port),
           "DOCGEMMA_PORT": str(app_port), "DOCGEMMA_DATABASE_URL": f"sqlite:///{tmp_path / 'app.sqlite'}",
           "DOCGEMMA_SECRET_KEY": "stack-test"}
    env.pop("DOCGEMMA_GGUF", None)
    log = tmp_path / "stack.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "launch.stack"], env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "Ready in" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.3)
        text = log.read_text()
        sandbox_url = f"http://127.0.0.1:{sandbox_port}"
        assert f"EHR sandbox launcher:  {sandbox_url}/" in text
        # the Synthea population, loaded after Ready (cached and already on this server here)
        wanted = f"Synthea population (seed {synthea.spec.seed}, {len(synthea.patients)} patients"
        while wanted not in log.read_text() and time.monotonic() < deadline + 60:
            time.sleep(0.3)
        assert all(p.id in log.read_text() for p in synthea.patients), log.read_text()
        assert requests.get(f"{sandbox_url}/").status_code == 200
        direct = next(line.split()[-1] for line in text.splitlines() if line.startswith("Direct EHR launch:"))
        res = requests.get(direct, allow_redirects=False)
        assert res.status_code == 302
        assert res.headers["Location"].startswith(f"http://127.0.0.1:{app_port}/launch?iss=")
        assert requests.get(f"http://127.0.0.1:{app_port}/static/app.css").status_code == 200  # the app answers
        mcp_url = next(line.split()[-1] for line in text.splitlines()
                       if line.startswith("MCP (Streamable"))
        chart = call_over_mcp(mcp_url, "pt-warfarin", "get_patient_chart",
                              {"patient_id": "pt-warfarin"})
        assert chart.structured_content["status"] == "ok"  # authorised by this sandbox (docs/mcp.md)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
    with pytest.raises(requests.ConnectionError):
        requests.get(f"http://127.0.0.1:{sandbox_port}/", timeout=2)
