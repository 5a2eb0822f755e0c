"""SMART client helpers: iss normalisation and discovery handling (no EHR needed)."""
from __future__ import annotations

import pytest
from smart_docgemma import errors
from smart_docgemma.smart import protocol as smart


@pytest.mark.parametrize("raw,expected", [
    ("HTTPS://EHR.Example.org/fhir/", "https://ehr.example.org/fhir"),
    ("https://ehr.example.org:443/fhir", "https://ehr.example.org/fhir"),
    ("http://127.0.0.1:9000/fhir", "http://127.0.0.1:9000/fhir"),
])
def test_iss_is_normalised_for_exact_matching(raw, expected):
    assert smart.normalise_iss(raw) == expected


@pytest.mark.parametrize("iss", [None, "", "https://ehr.example.org/fhir/other", "https://evil.example.org/fhir",
                                 "https://ehr.example.org.evil.com/fhir"])
def test_iss_outside_the_allow_list_is_refused(iss):
    with pytest.raises(errors.UnknownIssuer):
        smart.allowed_iss(iss, ["https://ehr.example.org/fhir"])


def test_discovery_resolves_relative_endpoints_and_requires_s256(httpserver):
    base = httpserver.url_for("/fhir")
    httpserver.expect_request("/fhir/.well-known/smart-configuration").respond_with_json({
        "authorization_endpoint": "../auth/authorize", "token_endpoint": "/auth/token",
        "jwks_uri": "keys", "code_challenge_methods_supported": ["S256"]})
    config = smart.discover(base, timeout=5)
    root = httpserver.url_for("/")
    assert config["authorization_endpoint"] == root + "auth/authorize"
    assert config["token_endpoint"] == root + "auth/token"
    assert config["jwks_uri"] == base + "/keys"


def test_discovery_without_s256_is_refused_unless_allowed(httpserver):
    base = httpserver.url_for("/fhir")
    httpserver.expect_request("/fhir/.well-known/smart-configuration").respond_with_json({
        "authorization_endpoint": "https://x/auth", "token_endpoint": "https://x/token",
        "code_challenge_methods_supported": ["plain"]})
    with pytest.raises(errors.LaunchError, match="PKCE"):
        smart.discover(base, timeout=5)
    assert smart.discover(base, timeout=5, allow_no_pkce=True)["token_endpoint"] == "https://x/token"


def test_unreachable_discovery_is_a_502(httpserver):
    with pytest.raises(errors.LaunchError) as info:
        smart.discover("http://127.0.0.1:1/fhir", timeout=2)
    assert info.value.status == 502


@pytest.mark.parametrize("exp", ["tomorrow", None, True, [1]])
def test_an_id_token_with_a_mistyped_exp_is_refused_not_a_500(httpserver, exp):
    import time

    from joserfc import jwt
    from joserfc.jwk import KeySet, RSAKey

    key = RSAKey.generate_key(2048, parameters={"kid": "k1"})
    httpserver.expect_request("/jwks").respond_with_json(KeySet([key]).as_dict(private=False))
    pending = {"iss": "https://ehr.example.org/fhir", "jwks_uri": httpserver.url_for("/jwks"), "nonce": "n"}
    claims = {"iss": pending["iss"], "aud": "docgemma", "nonce": "n", "iat": int(time.time()), "exp": exp}
    token = jwt.encode({"alg": "RS256", "kid": "k1"}, claims, key)
    with pytest.raises(errors.TokenExchangeError):
        smart.validate_id_token(token, pending, "docgemma", timeout=5)
    with pytest.raises(errors.TokenExchangeError):
        smart.validate_id_token({"not": "a token"}, pending, "docgemma", timeout=5)
