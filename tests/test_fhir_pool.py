"""The app's gateways share open connections to a FHIR server, never credentials or cookies.

A real HTTP/1.1 server with keep-alive (the standard library's) counts the connections it
accepts and records what each request carried."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from smart_docgemma.extensions import get_fhir_pool
from smart_docgemma.fhir import FhirGateway


class _Recorder(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    connections = 0
    seen: list = []

    def setup(self):
        type(self).connections += 1
        super().setup()

    def do_GET(self):
        type(self).seen.append((self.headers.get("Authorization"), self.headers.get("Cookie")))
        body = json.dumps({"resourceType": "Patient", "id": "p1"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/fhir+json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Set-Cookie", "affinity=node-7")  # e.g. a load balancer's
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def fhir_server():
    _Recorder.connections, _Recorder.seen = 0, []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/fhir"
    server.shutdown()


def test_two_sessions_reuse_connections_but_send_only_their_own_token(app, fhir_server):
    pool = get_fhir_pool(app)
    alice, bob = FhirGateway(fhir_server, "token-alice", connections=pool), FhirGateway(fhir_server, "token-bob",
                                                                                        connections=pool)
    for _ in range(3):
        alice.read("Patient", "p1")
        bob.read("Patient", "p1")
    assert _Recorder.connections == 1  # one socket, reused by both sessions' requests
    assert [auth for auth, _ in _Recorder.seen] == ["Bearer token-alice", "Bearer token-bob"] * 3
    bob_cookies = [cookie for auth, cookie in _Recorder.seen if auth == "Bearer token-bob"]
    alice_cookies = [cookie for auth, cookie in _Recorder.seen if auth == "Bearer token-alice"]
    assert alice_cookies[0] is None and bob_cookies[0] is None  # nobody starts with another's cookie
    assert get_fhir_pool(app) is pool  # one pool per app


def test_without_the_pool_every_gateway_opens_its_own_connection(fhir_server):
    for token in ("token-alice", "token-bob"):
        FhirGateway(fhir_server, token).read("Patient", "p1")
    assert _Recorder.connections == 2
