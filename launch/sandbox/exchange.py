"""OAuth 2.0 Token Exchange (RFC 8693) at ``/auth/token``: a resource server trades a token
issued for itself for a FHIR token on the same user's behalf.

The app's MCP endpoint is such a resource server: MCP clients get tokens whose audience is
the MCP URL (RFC 8707), and those tokens are refused by the FHIR API (``proxy.py`` checks
``aud``). To read the chart, the MCP server presents the client's token here as
``subject_token`` and receives a FHIR token: audience the FHIR base, the same practitioner
and patient, the scopes asked for (never more than the subject token had), ``act`` naming
the exchanging client, and no refresh token. The client's token itself never reaches FHIR.

Rules: the exchanging client authenticates (confidential clients only) and is registered for
this grant; the subject token is ours, unexpired, and its audience is a protected resource
that this very client serves (``PROTECTED_RESOURCES``): nobody else can trade it in.
"""

from __future__ import annotations

import time

from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6749.errors import (
    InvalidGrantError,
    InvalidRequestError,
    InvalidScopeError,
    UnauthorizedClientError,
)

from .authserver import (
    TOKEN_EXCHANGE,
    InvalidTargetError,
    LaunchContext,
    audience_for,
    normalise_base,
    state,
)
from .keys import InvalidJWT

ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
DESCRIBABLE = frozenset(chr(c) for c in range(0x20, 0x7F)) - {'"', "\\"}


class TokenExchangeGrant(grants.BaseGrant, grants.TokenEndpointMixin):
    GRANT_TYPE = TOKEN_EXCHANGE
    TOKEN_ENDPOINT_AUTH_METHODS = ("client_secret_basic", "client_secret_post")

    def validate_token_request(self):
        client = self.authenticate_token_endpoint_client()
        if not client.check_grant_type(self.GRANT_TYPE):
            raise UnauthorizedClientError("This client may not exchange tokens.")
        form = self.request.form
        if form.get("subject_token_type") != ACCESS_TOKEN_TYPE or not form.get("subject_token"):
            raise InvalidRequestError(f"'subject_token' of type {ACCESS_TOKEN_TYPE} is required.")
        if form.get("requested_token_type") not in (None, "", ACCESS_TOKEN_TYPE):
            raise InvalidRequestError("Only access tokens are issued by exchange.")
        claims = _subject_claims(form["subject_token"], client.client_id)
        audience = audience_for(form.get("resource") or form.get("audience") or state().fhir_base)
        if audience is None or normalise_base(audience) != normalise_base(state().fhir_base):
            raise InvalidTargetError(description="Tokens are exchanged for the FHIR API only.")
        self.request.client = client
        self.request.user = LaunchContext(
            practitioner=claims["sub"],
            patient=claims.get("patient"),
            audience=audience,
            actor=client.client_id,
        )
        self._scope = _narrowed(claims.get("scope", ""), form.get("scope"))

    def create_token_response(self):
        token = self.generate_token(
            user=self.request.user, scope=self._scope, include_refresh_token=False
        )
        token["issued_token_type"] = ACCESS_TOKEN_TYPE
        self.save_token(token)
        return 200, token, self.TOKEN_RESPONSE_HEADER


def _subject_claims(token: str, client_id: str) -> dict:
    """The subject token's claims: signed by us, unexpired, for a resource ``client_id`` serves."""
    sandbox = state()
    try:
        claims = sandbox.key.verify(token)
    except InvalidJWT as exc:
        raise InvalidGrantError("The subject token is not valid.") from exc
    if normalise_base(claims.get("iss")) != normalise_base(sandbox.fhir_base):
        raise InvalidGrantError("The subject token was not issued here.")
    if int(claims.get("exp", 0)) <= time.time():
        raise InvalidGrantError("The subject token has expired.")
    served = {
        normalise_base(url)
        for url, owner in sandbox.config["PROTECTED_RESOURCES"].items()
        if owner == client_id
    }
    if normalise_base(claims.get("aud")) not in served:
        raise InvalidGrantError(
            "The subject token was not issued for a resource this client serves."
        )
    return claims


def _narrowed(subject_scope: str, requested: str | None) -> str:
    """The requested scopes, each of which the subject token must hold; none asked: all of them."""
    held = subject_scope.split()
    if not requested:
        return " ".join(held)
    extra = [s for s in requested.split() if s not in held]
    if extra:  # named only in the characters an error_description may hold (RFC 6749 §5.2)
        named = "".join(c if c in DESCRIBABLE else "?" for c in " ".join(extra))[:200]
        raise InvalidScopeError(f"Scopes beyond the subject token's: {named}.")
    return " ".join(dict.fromkeys(requested.split()))
