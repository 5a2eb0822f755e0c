"""Discovery documents: SMART configuration, OAuth (RFC 8414) and OpenID configuration, JWKS, the
style sheet for ``smart_style_url``, and the CapabilityStatement with the
(deprecated but still read by fhirclient <= 4.3) ``oauth-uris`` extension."""
from __future__ import annotations

import json

from flask import Blueprint, jsonify

from .authserver import TOKEN_EXCHANGE, state
from .proxy import FHIR_JSON, outcome, to_public

bp = Blueprint("sandbox_discovery", __name__)

CAPABILITIES = [
    "launch-ehr", "launch-standalone", "client-public", "client-confidential-symmetric",
    "context-ehr-patient", "context-ehr-encounter", "context-standalone-patient",
    "context-banner", "context-style", "permission-patient", "permission-user",
    "permission-v1", "permission-v2", "permission-offline", "permission-online",
    "sso-openid-connect", "authorize-post",
]
SCOPES_SUPPORTED = [
    "openid", "fhirUser", "profile", "launch", "launch/patient", "launch/encounter",
    "online_access", "offline_access", "patient/*.cruds", "user/*.cruds", "patient/*.read",
    "patient/*.write", "user/*.read", "user/*.write", "patient/*.*", "user/*.*",
]
STYLE = {  # SMART "context-style" (experimental): hints for an app's look inside the EHR
    "color_background": "#f6f7f9", "color_error": "#b00020", "color_highlight": "#0b6e4f",
    "color_modal_backdrop": "", "color_success": "#2e7d32", "color_text": "#1c1e21",
    "dim_border_radius": "6px", "dim_font_size": "15px", "dim_spacing_size": "16px",
    "font_family_body": "system-ui, sans-serif", "font_family_heading": "system-ui, sans-serif",
}


def smart_configuration() -> dict:
    """SMART App Launch 2.2 conformance §Metadata (every required and recommended field)."""
    sandbox = state()
    base = sandbox.public_url
    return {
        "issuer": sandbox.fhir_base,
        "jwks_uri": f"{base}/.well-known/jwks.json",
        "authorization_endpoint": f"{base}/auth/authorize",
        "token_endpoint": f"{base}/auth/token",
        "token_endpoint_auth_methods_supported": [
            "client_secret_basic",
            "client_secret_post",
            "none",
        ],
        "grant_types_supported": ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
        "scopes_supported": SCOPES_SUPPORTED,
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "capabilities": CAPABILITIES,
        **(
            {"registration_endpoint": f"{base}/auth/register"}
            if sandbox.config["REGISTRATION"]
            else {}
        ),
        "client_id_metadata_document_supported": bool(sandbox.config["CLIENT_METADATA_DOCUMENTS"]),
    }


@bp.route("/fhir/.well-known/smart-configuration")
def smart_config():
    return jsonify(smart_configuration())


@bp.route("/.well-known/oauth-authorization-server/fhir")
def oauth_metadata():
    """RFC 8414 metadata, at the path its §3.1 derives from the issuer (the FHIR base): where
    MCP clients look, having read the issuer in the MCP server's protected resource metadata."""
    return jsonify(smart_configuration())


@bp.route("/fhir/.well-known/openid-configuration")
def openid_config():
    """OIDC discovery at ``{issuer}/.well-known/openid-configuration`` (issuer = FHIR base)."""
    doc = smart_configuration()
    doc.update({"subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": [state().key.alg],
                "claims_supported": ["iss", "sub", "aud", "exp", "iat", "nonce", "fhirUser"]})
    return jsonify(doc)


@bp.route("/.well-known/jwks.json")
@bp.route("/jwks")
def jwks():
    return jsonify(state().key.jwks())


@bp.route("/smart-style.json")
def smart_style():
    return jsonify(STYLE)


@bp.route("/fhir/metadata")
def metadata():
    """HAPI's CapabilityStatement (public, no token) with SMART security added to rest[0]."""
    sandbox = state()
    try:
        res = sandbox.upstream.http.get(f"{sandbox.config['FHIR_UPSTREAM']}/metadata",
                                        headers={"Accept": "application/fhir+json"},
                                        timeout=float(sandbox.config["UPSTREAM_TIMEOUT_S"]))
        statement = json.loads(to_public(res.content))
    except (OSError, ValueError):
        return outcome(502, "transient", "The EHR's FHIR server did not answer.")
    for rest in statement.get("rest") or []:
        rest["security"] = _security(rest.get("security") or {})
    return json.dumps(statement), 200, {"Content-Type": FHIR_JSON}


def _security(security: dict) -> dict:
    config = smart_configuration()
    uris = {"url": "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
            "extension": [{"url": "authorize", "valueUri": config["authorization_endpoint"]},
                          {"url": "token", "valueUri": config["token_endpoint"]}]}
    security["extension"] = [
        e for e in security.get("extension") or [] if e.get("url") != uris["url"]
    ] + [uris]
    security["service"] = [
        {
            "coding": [
                {
                    "system": "http://terminology.hl7.org/CodeSystem/restful-security-service",
                    "code": "SMART-on-FHIR",
                }
            ],
            "text": "OAuth2 using SMART-on-FHIR profile",
        }
    ]
    security["cors"] = False
    return security
