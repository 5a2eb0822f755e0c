"""The sandbox's SMART authorization server (authlib ``AuthorizationServer``).

Endpoints: ``/auth/authorize`` (GET and POST, SMART ``authorize-post``),
``/auth/decide`` (the patient-picker/consent form posts here) and ``/auth/token``.

SMART App Launch 2.2 rules enforced on top of RFC 6749:
- PKCE S256 is required for every client; ``plain`` and a missing challenge are refused.
- ``state`` is required; ``aud`` (or RFC 8707 ``resource``) must be the sandbox FHIR base.
- ``redirect_uri`` must be registered (exact match, or loopback any-port when enabled);
  an unknown client or redirect URI gets an error page, never a redirect.
- An EHR launch's ``launch`` handle binds patient, encounter and practitioner.
- Codes are single use (popped on first redemption) and live ``CODE_TTL_S``.
- Refresh tokens are issued only for ``online_access``/``offline_access`` and ROTATE:
  each refresh returns a new one and revokes the old one. Refresh scope may narrow,
  never widen (authlib's RefreshTokenGrant), and needs no ``launch``. The sandbox
  tracks no login sessions, so ``online_access`` and ``offline_access`` refresh tokens
  both live ``REFRESH_TTL_S``; everything is in memory and gone after a restart.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field, replace

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import AuthorizationCodeMixin, OAuth2Request, grants
from authlib.oauth2.rfc6749.errors import InvalidClientError, InvalidRequestError, InvalidScopeError
from authlib.oauth2.rfc6749.requests import BasicOAuth2Payload
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from flask import Blueprint, current_app, render_template, request

bp = Blueprint("sandbox_auth", __name__)
REFRESH_SCOPES = {"online_access", "offline_access"}
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
CONTINUING = {"refresh_token", TOKEN_EXCHANGE}


@dataclass
class LaunchContext:
    """Who and what a grant is about: authlib's "user" for the SMART grants."""

    practitioner: str
    patient: str | None = None
    encounter: str | None = None
    need_patient_banner: bool = True
    consent: bool = False
    approved_scopes: frozenset | None = None  # set on the consent page
    audience: str | None = None  # the token's aud: the FHIR base or a protected resource (RFC 8707)
    actor: str | None = None  # the client acting for the user (RFC 8693 ``act``): exchanged tokens


@dataclass
class CodeRecord(AuthorizationCodeMixin):
    client_id: str
    redirect_uri: str
    scope: str
    context: LaunchContext
    code_challenge: str
    code_challenge_method: str
    nonce: str | None = None
    auth_time: int = field(default_factory=lambda: int(time.time()))

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


@dataclass
class RefreshRecord:
    token: str
    client_id: str
    scope: str
    context: LaunchContext

    def check_client(self, client):
        return client.client_id == self.client_id

    def get_scope(self):
        return self.scope


def state():
    """The per-app sandbox state (see ``launch.sandbox.Sandbox``)."""
    return current_app.extensions["sandbox"]


def audience_for(requested: str | None) -> str | None:
    """The audience a token asked for with ``aud``/``resource`` gets: the FHIR base or a
    configured protected resource, spelled as configured; None when it is neither."""
    wanted = normalise_base(requested)
    known = [state().fhir_base, *state().config["PROTECTED_RESOURCES"]]
    return next((url for url in known if wanted and normalise_base(url) == wanted), None)


def normalise_base(url: str | None) -> str:
    """Compare FHIR bases tolerant of one trailing slash and scheme/host case."""
    if not url:
        return ""
    url = url.strip().rstrip("/")
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme.lower()}{sep}{host.lower()}{slash}{path}"


class InvalidTargetError(OAuth2Error):
    """RFC 8707 §2: the requested resource is not one this server issues tokens for."""

    error = "invalid_target"


class SmartCodeChallenge(CodeChallenge):
    """PKCE as SMART requires: S256 only, mandatory for public and confidential clients."""

    DEFAULT_CODE_CHALLENGE_METHOD = "S256"
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("PKCE is required: missing 'code_challenge' (S256).")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError(
                "'code_challenge_method' must be S256; 'plain' is not supported."
            )
        super().validate_code_challenge(grant, redirect_uri)

    def validate_code_verifier(self, grant, result):
        if not grant.request.form.get("code_verifier"):
            raise InvalidRequestError("Missing 'code_verifier' (PKCE).")
        super().validate_code_verifier(grant, result)


class SmartOpenIDCode(OpenIDCode):
    """id_token for ``openid fhirUser``: iss = discovery ``issuer`` (the FHIR base)."""

    def exists_nonce(self, nonce, request):
        return False  # codes are single use; a replayed nonce has no code to redeem

    def generate_user_info(self, user, scope):
        info = UserInfo(sub=user.practitioner)
        if "fhirUser" in scope.split() or "profile" in scope.split():
            info["fhirUser"] = f"{state().fhir_base}/Practitioner/{user.practitioner}"
        return info

    def resolve_client_private_key(self, client):
        return state().key.key

    def get_client_algorithm(self, client):
        return state().key.alg

    def get_encode_header(self, client):
        return {"alg": state().key.alg, "kid": state().key.kid, "typ": "JWT"}

    def get_client_claims(self, client):
        now = int(time.time())
        return {"iss": state().fhir_base, "aud": client.client_id, "iat": now,
                "exp": now + int(state().config["TOKEN_TTL_S"])}


class SmartAuthorizationCodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

    def validate_authorization_request(self):
        redirect_uri = super().validate_authorization_request()
        try:
            self._validate_smart()
        except OAuth2Error as error:
            error.redirect_uri = redirect_uri
            raise
        return redirect_uri

    def _validate_smart(self):
        data = self.request.payload.data
        if not data.get("state"):
            raise InvalidRequestError("Missing 'state'.")
        if audience_for(data.get("aud") or data.get("resource")) is None:
            raise InvalidRequestError(f"'aud' must be this server's FHIR base {state().fhir_base} "
                                      "(or 'resource' one of its protected resources).")
        requested = (data.get("scope") or "").split()
        launch = data.get("launch")
        if "launch" in requested and not launch:
            raise InvalidRequestError(
                "The 'launch' scope needs the 'launch' parameter of an EHR launch."
            )
        if launch and state().launches.get(launch) is None:
            raise InvalidRequestError(
                "Unknown or expired 'launch'; launch the app from the EHR again."
            )
        if not self.request.scope:
            raise InvalidScopeError("None of the requested scopes is supported.")

    def validate_token_request(self):
        """RFC 8707 §2.2: a ``resource`` sent with the code must be the one it was issued for."""
        super().validate_token_request()
        asked = self.request.form.get("resource")
        bound = self.request.authorization_code.context.audience or state().fhir_base
        if asked and normalise_base(asked) != normalise_base(bound):
            raise InvalidTargetError(description="'resource' differs from the one authorized.")

    def save_authorization_code(self, code, request):
        data = request.payload.data
        audience = audience_for(data.get("aud") or data.get("resource"))
        context = replace(request.user, audience=audience)
        scopes = request.scope.split()
        if context.approved_scopes is not None:
            scopes = [s for s in scopes if s in context.approved_scopes]
        record = CodeRecord(
            request.client.client_id,
            data.get("redirect_uri"),
            " ".join(scopes),
            context,
            data.get("code_challenge"),
            data.get("code_challenge_method"),
            data.get("nonce"),
        )
        state().codes.put(record, key=code)

    def query_authorization_code(self, code, client):
        record = state().codes.pop(code)  # popped now: a code is redeemable once
        if record is not None and record.client_id == client.client_id:
            return record
        return None

    def delete_authorization_code(self, authorization_code):
        pass  # already removed by query_authorization_code

    def authenticate_user(self, authorization_code):
        return authorization_code.context


class SmartRefreshTokenGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
    INCLUDE_NEW_REFRESH_TOKEN = True  # rotation

    def authenticate_refresh_token(self, refresh_token):
        return state().refresh_tokens.get(refresh_token)

    def authenticate_user(self, refresh_token):
        return refresh_token.context

    def revoke_old_credential(self, refresh_token):
        state().refresh_tokens.pop(refresh_token.token)


class SmartAuthorizationServer(AuthorizationServer):
    """authlib's Flask server that also accepts a stored OAuth2Request (consent step)."""

    def create_oauth2_request(self, request):
        if isinstance(request, OAuth2Request):
            return request
        return super().create_oauth2_request(request)

    def authenticate_client(self, request, methods, endpoint="token"):
        """authlib's reading of an Authorization header lets ValueError escape (a 500 page) when
        the credentials are not UTF-8 or the header is ``Basic`` and blanks: credentials that
        cannot be read are a client that did not authenticate."""
        try:
            return super().authenticate_client(request, methods, endpoint)
        except ValueError as exc:  # UnicodeDecodeError included
            raise InvalidClientError(status_code=401, description=(
                "The Authorization header holds no valid HTTP Basic credentials "
                "(base64 of UTF-8 'client_id:client_secret').")) from exc


class StoredAuthorizationRequest(OAuth2Request):
    """An authorization request replayed from the server-side consent transaction."""

    def __init__(self, url: str, data: dict):
        super().__init__("GET", url)
        self.payload = BasicOAuth2Payload(data)

    @property
    def args(self):
        return self.payload.data

    @property
    def form(self):
        return {}


def generate_token(
    sandbox, grant_type, client, user, scope, expires_in=None, include_refresh_token=True
):
    """Token response body: a signed JWT access token plus the SMART launch context."""
    ttl = int(sandbox.config["TOKEN_TTL_S"])
    now, granted = int(time.time()), scope.split()
    # SMART 2.x: a refresh keeps the launch context without re-requesting the launch scopes.
    # A refresh or an exchange keeps the context of the token it continues.
    launched = {"launch", "launch/patient"} & set(granted) or grant_type in CONTINUING
    context_patient = user.patient if launched else None
    audience = user.audience or sandbox.fhir_base
    claims = {"iss": sandbox.fhir_base, "aud": audience, "sub": user.practitioner,
              "client_id": client.client_id, "iat": now, "exp": now + ttl, "jti": uuid.uuid4().hex,
              "scope": scope, "fhirUser": f"{sandbox.fhir_base}/Practitioner/{user.practitioner}"}
    if getattr(client, "client_name", ""):
        claims["client_name"] = client.client_name
    if user.actor:
        claims["act"] = {"sub": user.actor}
    if context_patient:
        claims["patient"] = context_patient
    token = {"access_token": sandbox.key.sign(claims), "token_type": "Bearer", "expires_in": ttl,
             "scope": scope, "need_patient_banner": user.need_patient_banner,
             "smart_style_url": f"{sandbox.public_url}/smart-style.json"}
    if context_patient:
        token["patient"] = context_patient
    if user.encounter and (
        {"launch", "launch/encounter"} & set(granted) or grant_type in CONTINUING
    ):
        token["encounter"] = user.encounter
    if include_refresh_token and REFRESH_SCOPES & set(granted):
        token["refresh_token"] = uuid.uuid4().hex + uuid.uuid4().hex
    return token


def save_token(sandbox, token, req):
    if "refresh_token" in token:
        record = RefreshRecord(
            token["refresh_token"], req.client.client_id, token["scope"], req.user
        )
        sandbox.refresh_tokens.put(record, key=token["refresh_token"])


# -- views ----------------------------------------------------------------------
@bp.route("/auth/authorize", methods=["GET", "POST"])
def authorize():
    """Validate, then grant at once, or show the picker/consent page when one is needed."""
    server = state().server
    try:
        grant = server.get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return _error_response(server, error)
    data = grant.request.payload.data
    params = {k: data.get(k) for k in data}
    context = _context_for(params)
    if context.consent or ("launch/patient" in grant.request.scope.split() and not context.patient):
        txn = state().transactions.put({"params": params, "context": context, "url": request.url})
        return _decision_page(txn, grant, context)
    return server.create_authorization_response(grant=grant, grant_user=context)


@bp.route("/auth/decide", methods=["POST"])
def decide():
    """The picker/consent form: the unguessable, single-use ``txn`` binds it to its request."""
    txn = state().transactions.pop(request.form.get("txn"))
    if txn is None:
        return _page("This authorization request has expired; launch the app again.", 400)
    server, stored = state().server, StoredAuthorizationRequest(txn["url"], txn["params"])
    try:
        grant = server.get_consent_grant(request=stored, end_user=None)
    except OAuth2Error as error:
        return _error_response(server, error)
    if request.form.get("decision") != "approve":
        return server.create_authorization_response(request=stored, grant=grant, grant_user=None)
    context = replace(txn["context"])
    if not context.patient and "launch/patient" in grant.request.scope.split():
        context.patient = request.form.get("patient") or None
        if not context.patient or not state().upstream.patient_exists(context.patient):
            return _page("Choose a patient from the list.", 400)
    if context.consent:  # the user may only narrow what the launch allows
        chosen = frozenset(request.form.getlist("scope"))
        context.approved_scopes = (
            chosen & context.approved_scopes if context.approved_scopes else chosen
        )
    return server.create_authorization_response(request=stored, grant=grant, grant_user=context)


@bp.after_request
def no_store(response):
    """SMART: token responses (and everything else here) SHALL NOT be cached."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


@bp.route("/auth/token", methods=["POST"])
def token():
    return state().server.create_token_response()


def _context_for(params: dict) -> LaunchContext:
    record = state().launches.get(params.get("launch")) if params.get("launch") else None
    if record is not None:
        return replace(record)
    consent = params.get("consent") == "1"
    return LaunchContext(practitioner=state().config["DEFAULT_PRACTITIONER"], consent=consent)


def _decision_page(txn: str, grant, context: LaunchContext):
    patients = [] if context.patient else state().upstream.list_patients()
    scopes = [s for s in grant.request.scope.split()
              if context.approved_scopes is None or s in context.approved_scopes]
    return render_template("authorize.html", txn=txn, client=grant.client,
                           scopes=scopes, consent=context.consent,
                           patients=patients, patient=context.patient)


def _error_response(server, error: OAuth2Error):
    """Redirect errors to a validated redirect URI; otherwise a 400 page (never an open
    redirect)."""
    if error.redirect_uri:
        return server.handle_error_response(None, error)
    return _page(f"{error.error}: {error.get_error_description() or ''}", 400)


def _page(message: str, status: int):
    return render_template("error.html", message=message), status
