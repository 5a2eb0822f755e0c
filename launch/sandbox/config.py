"""Sandbox configuration defaults, in one place.

Each key can be overridden by an environment variable ``SANDBOX_<KEY>`` (parsed
as JSON when it parses, like Flask's ``from_prefixed_env``) or by the mapping
given to ``create_sandbox``. ``SANDBOX_PORT`` and ``FHIR_UPSTREAM_URL`` keep the
names the README's ports and commands use.
"""
from __future__ import annotations

import os
from pathlib import Path

from smart_docgemma.config import read

LAUNCH_DIR = Path(__file__).resolve().parent.parent

DEFAULTS: dict = {
    "HOST": "127.0.0.1",
    "PORT": 9000,
    # External base URL of the sandbox; None -> http://{HOST}:{PORT}. The FHIR
    # base the apps see (the SMART ``iss`` and the token ``aud``) is PUBLIC_URL + "/fhir".
    "PUBLIC_URL": None,
    "FHIR_UPSTREAM": "http://127.0.0.1:8080/fhir",  # the HAPI base the proxy forwards to
    "CLIENTS_FILE": str(LAUNCH_DIR / "clients.json"),
    # RFC 8252 §7.3: a registered http://127.0.0.1:P/path (or localhost) redirect URI
    # also matches any port on the same loopback host and path. On by default in this
    # dev sandbox so apps under test can run on random ports; set False for exact match.
    "LOOPBACK_ANY_PORT": True,
    "TOKEN_TTL_S": 3600,  # access and id token life (SMART: SHOULD be <= 1 h)
    "REFRESH_TTL_S": 24 * 3600,
    "CODE_TTL_S": 60,  # authorization codes: single use, this short life
    "LAUNCH_TTL_S": 300,  # opaque launch handles
    "SIGNING_KEY_FILE": None,  # PEM RSA private key; None -> a new key per process
    "SIGNING_ALG": "RS256",  # RS256 or RS384
    "DEFAULT_PRACTITIONER": "dr-okafor",  # the user of standalone launches
    # launcher page default; None -> DOCGEMMA_HOST:DOCGEMMA_PORT (8000)/launch
    "APP_LAUNCH_URL": None,
    "UPSTREAM_TIMEOUT_S": 60,
    "SECRET_KEY": None,  # None -> random per process (sandbox pages only)
    # Protected resources besides the FHIR API, by RFC 8707 resource indicator, each with the
    # registered client that serves it. A client may ask for a token whose audience is one of
    # them (``resource`` at authorize); only the serving client may exchange such a token for
    # a FHIR token (RFC 8693, ``exchange.py``). The app's MCP endpoint is the one there is.
    "PROTECTED_RESOURCES": {
        "http://127.0.0.1:8000/mcp": "docgemma",
        "http://localhost:8000/mcp": "docgemma",
    },
    "REGISTRATION": True,  # RFC 7591 dynamic client registration at /auth/register
    "CLIENT_METADATA_DOCUMENTS": True,  # a client_id that is its metadata document's URL
}


def load(config: dict | None) -> dict:
    """DEFAULTS, then SANDBOX_* (the app's reader, ``smart_docgemma.config.read``) and
    FHIR_UPSTREAM_URL, then ``config``."""
    upstream = os.environ.get("FHIR_UPSTREAM_URL")
    values = read(
        {"FHIR_UPSTREAM": upstream} if upstream else None, defaults=DEFAULTS, prefix="SANDBOX"
    )
    values.update(config or {})
    values["FHIR_UPSTREAM"] = values["FHIR_UPSTREAM"].rstrip("/")
    if not values["APP_LAUNCH_URL"]:  # the app the stack starts beside this sandbox
        app = read()  # the app's own settings: DOCGEMMA_HOST / DOCGEMMA_PORT
        values["APP_LAUNCH_URL"] = f"http://{app['HOST']}:{app['PORT']}/launch"
    if not values.get("PUBLIC_URL"):
        values["PUBLIC_URL"] = f"http://{values['HOST']}:{values['PORT']}"
    values["PUBLIC_URL"] = values["PUBLIC_URL"].rstrip("/")
    return values
