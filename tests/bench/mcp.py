"""``python -m tests.bench.mcp [--calls 30]``: what the MCP layer costs.

Starts the sandbox and the app (werkzeug, one process) in front of HAPI (``FHIR_UPSTREAM_URL``,
else the project's HAPI), gets a token for the MCP endpoint by the authorization-code flow, and
times over real HTTP, one call at a time:

- the first ``tools/call`` (reads the EHR's discovery and JWKS, exchanges the token);
- ``tools/list`` and ``tools/call get_patient_chart`` warm (the exchanged token cached);
- the same chart read with ``chart_summary`` directly through the sandbox's FHIR proxy with a FHIR
  token: the work without MCP, authorisation and JSON-RPC.

Prints median and 95th percentile in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import requests

PATIENT = "pt-warfarin"
SCOPE = "launch/patient openid fhirUser patient/*.rs"


def _timed(call, n: int) -> list[float]:
    out = []
    for _ in range(n):
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1000)
    return out


def _line(name: str, ms: list[float]) -> str:
    p95 = sorted(ms)[max(0, round(0.95 * len(ms)) - 1)]
    return f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {p95:.1f} |"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.mcp")
    parser.add_argument("--calls", type=int, default=30)
    calls = parser.parse_args(argv).calls
    from launch.fixtures import load_fixtures
    from launch.sandbox import create_sandbox
    from launch.upstream import start_upstream
    from smart_docgemma import create_app
    from smart_docgemma.fhir import FhirGateway
    from smart_docgemma.smart.scopes import GrantedScopes
    from smart_docgemma.tools.chart.chart import chart_summary

    from tests.support.mcp_oauth import authorize_token, register
    from tests.support.servers import free_port, serve

    upstream = start_upstream(port=0)
    load_fixtures(upstream.base_url)
    app_port, sandbox_port = free_port(), free_port()
    sandbox_url, mcp_url = f"http://127.0.0.1:{sandbox_port}", f"http://127.0.0.1:{app_port}/mcp"
    sandbox = create_sandbox(
        {
            "FHIR_UPSTREAM": upstream.base_url,
            "PORT": sandbox_port,
            "PUBLIC_URL": sandbox_url,
            "PROTECTED_RESOURCES": {mcp_url: "docgemma"},
        }
    )
    folder = tempfile.mkdtemp(prefix="bench-mcp-")
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "DATABASE_URL": f"sqlite:///{folder}/app.sqlite",
            "ISS_ALLOWLIST": [f"{sandbox_url}/fhir"],
            "MCP_URL": mcp_url,
            "ENDPOINT": None,
        }
    )
    try:
        with serve(sandbox, sandbox_port), serve(app, app_port):
            client = register(sandbox_url)
            token = authorize_token(sandbox_url, client, SCOPE, mcp_url, PATIENT)["access_token"]
            fhir_token = authorize_token(
                sandbox_url, client, SCOPE, f"{sandbox_url}/fhir", PATIENT
            )["access_token"]
            http = requests.Session()
            headers = {
                "Authorization": f"Bearer {token}",
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            }

            def rpc(method: str, params: dict):
                body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
                res = http.post(mcp_url, json=body, headers=headers, timeout=60)
                assert res.status_code == 200 and "result" in res.json(), res.text[:300]

            chart = {"name": "get_patient_chart", "arguments": {"patient_id": PATIENT}}
            first = _timed(lambda: rpc("tools/call", chart), 1)
            listed = _timed(lambda: rpc("tools/list", {}), calls)
            charted = _timed(lambda: rpc("tools/call", chart), calls)
            gateway = FhirGateway(f"{sandbox_url}/fhir", fhir_token)
            scopes = GrantedScopes.parse(SCOPE)
            direct = _timed(lambda: chart_summary(gateway, PATIENT, scopes), calls)
    finally:
        upstream.stop()
    print("| measurement | calls | median ms | p95 ms |\n|---|---|---|---|")
    for name, ms in (
        ("first tools/call (discovery, JWKS, token exchange)", first),
        ("tools/list (warm)", listed),
        ("tools/call get_patient_chart (warm)", charted),
        ("chart_summary direct via the FHIR proxy (no MCP)", direct),
    ):
        print(_line(name, ms))


if __name__ == "__main__":
    main()
