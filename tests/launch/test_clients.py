"""Registered clients (launch/clients.json): redirect URI matching and scope filtering."""
from __future__ import annotations

from launch.sandbox.clients import load_clients
from launch.sandbox.config import DEFAULTS


def test_registered_clients_and_exact_redirect_match():
    clients = load_clients(DEFAULTS["CLIENTS_FILE"], loopback_any_port=False)
    app, public = clients["docgemma"], clients["docgemma-public"]
    assert app.check_client_secret("docgemma-dev-secret") and not app.check_client_secret("wrong")
    assert public.is_public and not public.check_client_secret("")
    assert app.check_redirect_uri("http://127.0.0.1:8000/callback")
    assert not app.check_redirect_uri("http://127.0.0.1:8001/callback")  # exact match only


def test_loopback_any_port_matches_only_the_port():
    app = load_clients(DEFAULTS["CLIENTS_FILE"], loopback_any_port=True)["docgemma"]
    assert app.check_redirect_uri("http://127.0.0.1:53123/callback")
    assert app.check_redirect_uri("http://localhost:4000/callback")
    for bad in ("http://127.0.0.1:53123/other", "https://127.0.0.1:53123/callback",
                "http://evil.example:8000/callback", "http://user@127.0.0.1:1/callback",
                "http://127.0.0.1:1/callback?x=1", "http://127.0.0.1:notaport/callback"):
        assert not app.check_redirect_uri(bad), bad


def test_unknown_scopes_are_dropped_not_granted():
    app = load_clients(DEFAULTS["CLIENTS_FILE"])["docgemma"]
    assert app.get_allowed_scope("launch patient/*.rs admin openid patient/Observation.xyz") == \
        "launch patient/*.rs openid"
