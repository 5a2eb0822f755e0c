"""The app's error hierarchy and its single mapping to HTTP responses.

::

    DocGemmaError                 500  internal (never shown with details)
    ├── UnknownTransition         500  a node returned an outcome the agent's table does not know
    ├── BadRequest                400  malformed input from the browser or EHR
    │   ├── PayloadTooLarge       413
    │   └── UnsupportedMedia      415
    ├── LaunchError               400  SMART launch could not proceed
    │   ├── UnknownIssuer         400  iss not on the allow-list
    │   ├── StateMismatch         400  state missing, wrong or replayed
    │   ├── AccessDenied          403  the EHR or user refused authorization
    │   └── TokenExchangeError    502  the token endpoint failed
    ├── SessionExpired            401  no session, or tokens expired and cannot refresh
    │   └── RefreshRefused        401  the EHR refused the refresh token (invalid_grant):
    │                                  session over
    ├── OperatorCredentialRequired 401  an operator page without the operator credential
    ├── Forbidden                 403  scope not granted / other patient
    ├── NotFound                  404
    ├── Conflict                  409  e.g. a proposal already decided
    │   └── TurnCancelled         409  the clinician cancelled the running turn (its worker stops)
    ├── RateLimited               429
    ├── ServerBusy                503  this worker serves as many event streams as it may (retry)
    ├── UpstreamError             502  FHIR server, model or knowledge source failed
    │   ├── FHIRError             502  (FHIR 401/403/404 are mapped to the classes above)
    │   ├── ModelError            503  the language model failed
    │   │   ├── ModelUnavailable  503  unreachable (VisionUnsupported: refuses images)
    │   │   ├── ModelTimeout      503  no answer in time
    │   │   ├── InvalidModelOutput 503 output did not match the schema
    │   │   └── EmbeddedModelError 503 the embedded llama.cpp server did not start
    │   ├── SourceError           503  a public knowledge source could not answer
    │   └── AuditUnavailable      503  the audit record could not be stored: data withheld
    └── CDSError                  400  CDS Hooks request rejected
        ├── Unauthorized          401  the CDS client's JWT failed
        └── PreconditionFailed    412  data a check needs could not be had

Each class carries an ``error`` code (authlib style) and an HTTP ``status``.
Nothing here knows about Flask: ``web/errorpages.py`` is the one place where
these become HTTP responses (a page or JSON), and where any other exception
becomes a plain 500 without a stack trace.
"""
from __future__ import annotations

from .languages import N_, english
from .languages import message as language_message


class DocGemmaError(Exception):
    """Base class: ``error`` is a short code, ``status`` the HTTP status."""

    error = "server_error"
    status = 500
    title = "Something went wrong"
    headers: dict | None = None  # extra response headers, e.g. WWW-Authenticate

    def __init__(self, description: str = "", *, status: int | None = None,
                 message: dict | None = None):
        description = description or (english(message) if message else "")
        super().__init__(description or self.title)
        self.description = description or self.title
        self.wording = message  # the description language-neutral (languages.message), for the page
        if status is not None:
            self.status = status


class UnknownTransition(DocGemmaError):
    """A programming error: the agent's transition table has no row for a (node, outcome) pair."""

    error = "unknown_transition"


class BadRequest(DocGemmaError):
    error, status, title = "bad_request", 400, "The request could not be understood"


class PayloadTooLarge(BadRequest):
    error, status, title = "payload_too_large", 413, "The upload is too large"


class UnsupportedMedia(BadRequest):
    error, status, title = "unsupported_media", 415, "This file type is not supported"


class LaunchError(DocGemmaError):
    error, status, title = "launch_error", 400, "The app could not be launched"


class UnknownIssuer(LaunchError):
    error, title = "unknown_iss", "This EHR is not registered with the assistant"


class StateMismatch(LaunchError):
    error, title = "state_mismatch", "The launch could not be verified"


class AccessDenied(LaunchError):
    error, status, title = "access_denied", 403, "Access was not granted"


class TokenExchangeError(LaunchError):
    error, status, title = "token_error", 502, "The EHR did not issue a token"


class SessionExpired(DocGemmaError):
    error, status, title = "session_expired", 401, "Your session has ended"


class RefreshRefused(SessionExpired):
    """The token endpoint answered ``invalid_grant`` (or another final refusal) to a refresh:
    the refresh token is dead, so the session is ended rather than retried (RFC 6749 §5.2)."""

    error = "refresh_refused"


class OperatorCredentialRequired(DocGemmaError):
    """An operator page (the audit listing) asked for without the operator credential; the
    browser then asks for it (HTTP Basic, any user name, the credential as password)."""

    error, status, title = "operator_credential_required", 401, "Operator credential required"
    headers = {"WWW-Authenticate": 'Basic realm="DocGemma operator", charset="UTF-8"'}


class Forbidden(DocGemmaError):
    error, status, title = "forbidden", 403, "Not permitted"


class NotFound(DocGemmaError):
    error, status, title = "not_found", 404, "Not found"


class Conflict(DocGemmaError):
    error, status, title = "conflict", 409, "Already done"
    retry_after: int | None = None  # seconds, sent as Retry-After when the wait is known


class TurnCancelled(Conflict):
    """Raised inside a turn's worker at the step after the clinician cancelled it."""

    error, title = "turn_cancelled", "Cancelled"


class RateLimited(DocGemmaError):
    error, status, title = "rate_limited", 429, "Too many requests"
    retry_after: int | None = None  # seconds, sent as Retry-After


class ServerBusy(DocGemmaError):
    """This worker already holds as many event streams as it may (``web/streams.py``): nothing
    started; asking again in a moment reaches a free thread, here or in another worker."""

    error, status, title = "server_busy", 503, "The assistant is busy"
    retry_after: int | None = 2


class UpstreamError(DocGemmaError):
    error, status, title = "upstream_error", 502, "A connected service failed"


class FHIRError(UpstreamError):
    error, title = "fhir_error", "The EHR's FHIR server returned an error"
    # True when a write was sent and its outcome is unknown (no answer in time, the connection
    # dropped after sending, a 5xx from the server or a proxy): it may still land.
    may_have_landed = False


class ModelError(UpstreamError):
    error, status, title = "model_error", 503, "The language model is unavailable"


class CDSError(DocGemmaError):
    error, status, title = "cds_error", 400, "CDS Hooks request rejected"


class ModelUnavailable(ModelError):
    title = "The language model server could not be reached"


class VisionUnsupported(ModelUnavailable):
    """The server refused image input (a text-only model, or llama.cpp without mmproj):
    a property of the deployment, so the call is never retried."""

    title = "The model server does not accept images"


class ModelTimeout(ModelError):
    title = "The language model did not answer in time"


class InvalidModelOutput(ModelError):
    title = "The language model returned output that did not match the expected form"


class EmbeddedModelError(ModelError):
    title = "The embedded model server could not be started"


class SourceError(UpstreamError):
    """A knowledge source could not answer.

    ``kind`` is one of ToolResult's error kinds: ``unreachable`` (connection
    failure, timeout, 5xx), ``rate_limited`` (429, or RxNav's 403),
    ``invalid`` (400: the query was refused), ``forbidden`` (403: API key).
    """

    error, status, title = "source_error", 503, "A knowledge source is unavailable"

    def __init__(self, kind: str, source: str, status: int | None = None, *, label: str = ""):
        self.kind, self.source, self.source_status = kind, source, status
        self.source_label = label or source
        super().__init__(f"{self.source_label}: {kind}" + (f" (HTTP {status})" if status else ""))

    def said(self, unavailable: str, caution: str = "") -> dict:
        """``message`` language-neutral (``unavailable`` and ``caution`` marked sentences)."""
        what = {
            "unreachable": N_(
                "The %(label)s could not be reached, so %(unavailable)s is unavailable right now."
            ),
            "rate_limited": N_(
                "The %(label)s is busy (request limit reached), so %(unavailable)s is unavailable "
                "right now. Try again in a minute."
            ),
            "invalid": N_(
                "The %(label)s could not process this search, so %(unavailable)s is unavailable. "
                "Rephrase it with a single drug, condition or topic name."
            ),
            "forbidden": N_(
                "The %(label)s refused the request (its access key was not accepted), so "
                "%(unavailable)s is unavailable. An administrator should check the API key."
            ),
        }[self.kind]
        said = language_message(
            what, label=self.source_label, unavailable=language_message(unavailable)
        )
        if not caution:
            return said
        return language_message(
            N_("%(what)s %(caution)s"), what=said, caution=language_message(caution)
        )

    def message(self, unavailable: str, caution: str = "") -> str:
        """Pre-formatted text for the agent, e.g. ``drug-safety information``."""
        label = self.source_label
        what = {
            "unreachable": f"The {label} could not be reached, so {unavailable} "
            "is unavailable right now.",
            "rate_limited": f"The {label} is busy (request limit reached), so {unavailable} "
            "is unavailable right now. Try again in a minute.",
            "invalid": f"The {label} could not process this search, so {unavailable} is "
            "unavailable. Rephrase it with a single drug, condition or topic name.",
            "forbidden": f"The {label} refused the request (its access key was not accepted), "
            f"so {unavailable} is unavailable. An administrator should check the API key.",
        }[self.kind]
        return f"{what} {caution}".strip()


class DatabaseUnavailable(UpstreamError):
    """The app's own database did not answer (stopped, restarting, unreachable, or every pooled
    connection still busy when the pool's wait ran out): the request did nothing."""

    error, status, title = "database_unavailable", 503, "The assistant's database is not answering"
    retry_after: int | None = 10


class AuditUnavailable(UpstreamError):
    """A read of patient data happened but its audit record could not be stored: under the
    ``refuse`` policy (``AUDIT_ON_FAILURE``) the data is withheld (see ``audit/trail.py``)."""

    error, status, title = "audit_unavailable", 503, "The audit trail is unavailable"


class Unauthorized(CDSError):
    error, status, title = "unauthorized", 401, "CDS client not authenticated"
    headers = {"WWW-Authenticate": 'Bearer realm="cds-services"'}


class PreconditionFailed(CDSError):
    error, status, title = (
        "precondition_failed",
        412,
        "Data needed for this check could not be obtained",
    )
