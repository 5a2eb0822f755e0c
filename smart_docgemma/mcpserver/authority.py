"""The MCP endpoint as an OAuth resource server of the EHR's SMART authorization server.

MCP clients get their tokens from the EHR (the authorization server our protected resource
metadata names), with this endpoint's URL as the RFC 8707 resource, so a token's ``aud`` is
the MCP URL. ``Authority.verify`` accepts exactly those: signed by a key in the EHR's JWKS,
issued by the EHR, ``aud`` equal to the MCP URL, unexpired. A token for the FHIR API (``aud``
the FHIR base) or for any other resource is refused, so a token cannot be replayed here from
elsewhere, nor ours replayed at FHIR (the EHR checks ``aud`` too).

The client's token never reaches FHIR. ``Authority.fhir_token`` trades it at the EHR's token
endpoint (OAuth 2.0 Token Exchange, RFC 8693) for a FHIR token on the same user's behalf,
authenticating as this app's registered client and asking only for the read scopes the client's
token holds: the MCP side never writes (writes are proposals, approved on the app's page under
the clinician's own launch). Exchanged tokens are kept in memory until shortly before they expire.
Tokens are never logged: log lines name the client and the reason only.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from functools import cached_property

import requests
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from .. import errors
from ..fhir import local_ref
from ..smart.scopes import GrantedScopes

log = logging.getLogger(__name__)
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
ALGORITHMS = ["RS256", "RS384", "ES256", "ES384"]
EXCHANGE_LEEWAY_S = 30  # an exchanged token this close to expiry is exchanged again
# A bad token must not make us read the EHR's JWKS each time: re-read (a rotated key?)
# at most this often.
JWKS_REREAD_S = 60


@dataclass(frozen=True)
class McpGrant:
    """What one verified MCP token lets its calls do; the patient comes from the token only."""

    client_id: str
    client_name: str
    user: str | None  # fhirUser as a relative reference, e.g. Practitioner/dr-okafor
    patient_id: str | None
    scopes: GrantedScopes
    expires_at: int

    @classmethod
    def from_claims(cls, claims: dict) -> McpGrant:
        return cls(
            client_id=str(claims.get("client_id") or "unknown client"),
            client_name=str(claims.get("client_name") or ""),
            user=local_ref(claims.get("fhirUser")),
            patient_id=claims.get("patient"),
            scopes=GrantedScopes.parse(claims.get("scope")),
            expires_at=int(claims["exp"]),
        )

    @property
    def client_label(self) -> str:
        """How cards and Provenance name the client: its registered name and id."""
        return f"{self.client_name} ({self.client_id})" if self.client_name else self.client_id


class Authority:
    """The EHR's authorization server, as this MCP endpoint (a resource server) uses it."""

    def __init__(
        self,
        issuer: str,
        mcp_url: str,
        client_id: str,
        client_secret: str | None,
        timeout: float = 15,
    ):
        self.issuer, self.mcp_url = issuer.rstrip("/"), mcp_url
        self._client = (client_id, client_secret or "")
        self._timeout = timeout
        self._http = requests.Session()
        self._keys: KeySet | None = None
        self._keys_read_at = 0.0
        self._exchanged: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    @cached_property
    def metadata(self) -> dict:
        """The EHR's SMART configuration (jwks_uri, token_endpoint), read once."""
        res = self._http.get(
            f"{self.issuer}/.well-known/smart-configuration", timeout=self._timeout
        )
        res.raise_for_status()
        return res.json()

    @property
    def fhir_base(self) -> str:
        """The EHR's FHIR API: its SMART issuer is its FHIR base."""
        return self.issuer

    # -- verification ------------------------------------------------------------
    def verify(self, token: str) -> dict | None:
        """The token's claims when it is a valid token issued for this MCP endpoint, else None."""
        try:
            claims = self._decode(token)
        except (JoseError, ValueError, requests.RequestException) as exc:
            log.info("MCP token refused: %s", type(exc).__name__)
            return None
        problem = self._problem(claims)
        if problem:
            log.info("MCP token from client %s refused: %s", claims.get("client_id"), problem)
            return None
        return claims

    def _decode(self, token: str) -> dict:
        try:
            return dict(jwt.decode(token, self._key_set(), algorithms=ALGORITHMS).claims)
        except JoseError:  # perhaps a rotated key: read the JWKS once more and retry
            if time.monotonic() - self._keys_read_at < JWKS_REREAD_S:
                raise
            return dict(jwt.decode(token, self._key_set(fresh=True), algorithms=ALGORITHMS).claims)

    def _key_set(self, fresh: bool = False) -> KeySet:
        if self._keys is None or fresh:
            self._keys_read_at = time.monotonic()
            res = self._http.get(self.metadata["jwks_uri"], timeout=self._timeout)
            res.raise_for_status()
            self._keys = KeySet.import_key_set(res.json())
        return self._keys

    def _problem(self, claims: dict) -> str | None:
        if not _same_url(claims.get("iss"), self.issuer):
            return "issued by another server"
        if not _audience_is(claims.get("aud"), self.mcp_url):
            return "issued for another resource (audience)"
        if not isinstance(claims.get("exp"), int) or claims["exp"] <= time.time():
            return "expired"
        return None

    # -- token exchange ------------------------------------------------------------
    def fhir_token(self, token: str, grant: McpGrant) -> str:
        """A FHIR token for ``token``'s user and patient, by token exchange (cached until
        near expiry)."""
        key = hashlib.sha256(token.encode()).hexdigest()
        with self._lock:
            cached = self._exchanged.get(key)
            if cached and cached[0] > time.time() + EXCHANGE_LEEWAY_S:
                return cached[1]
        answer = self._exchange(token, grant)
        with self._lock:
            self._exchanged = {k: v for k, v in self._exchanged.items() if v[0] > time.time()}
            self._exchanged[key] = (
                time.time() + int(answer.get("expires_in", 300)),
                answer["access_token"],
            )
        return answer["access_token"]

    def _exchange(self, token: str, grant: McpGrant) -> dict:
        form = {
            "grant_type": TOKEN_EXCHANGE,
            "subject_token": token,
            "subject_token_type": ACCESS_TOKEN_TYPE,
            "requested_token_type": ACCESS_TOKEN_TYPE,
            "resource": self.fhir_base,
            "scope": read_scopes(grant.scopes.raw),
        }
        try:
            res = self._http.post(
                self.metadata["token_endpoint"], data=form, auth=self._client, timeout=self._timeout
            )
        except requests.RequestException as exc:
            raise errors.FHIRError("The EHR's authorization server is unreachable.") from exc
        if res.status_code != 200:
            log.info(
                "token exchange for client %s refused: HTTP %s", grant.client_id, res.status_code
            )
            raise errors.Forbidden(
                "The EHR did not allow this MCP client's token to be used for its "
                "FHIR API (token exchange refused)."
            )
        return res.json()


def read_scopes(scope: str) -> str:
    """The scopes of ``scope`` the MCP side needs for FHIR: context, identity and any with a read
    or search letter (``patient/MedicationRequest.c`` is left out). Narrowing is by whole scope:
    the EHR grants an exchange only scopes the client's token holds, verbatim."""
    kept = []
    for text in scope.split():
        perms = GrantedScopes.parse(text).permissions
        if not perms or perms[0].interactions & {"r", "s"}:
            kept.append(text)
    return " ".join(kept)


def _same_url(a, b) -> bool:
    return isinstance(a, str) and a.rstrip("/").lower() == b.rstrip("/").lower()


def _audience_is(aud, url: str) -> bool:
    """``aud`` (a string or a list) names ``url`` (RFC 7519 §4.1.3)."""
    values = aud if isinstance(aud, list) else [aud]
    return any(_same_url(v, url) for v in values)
