"""The one input layer for what browsers and EHRs send: JSON bodies, fields, form values, headers.

Every view reads its input through here, so malformed input is a clear 4xx
(``errors.BadRequest`` or the caller's own subclass, e.g. ``CDSError``) and
never reaches code that assumes a type:

- ``json_body()`` — the request body as a JSON object, with a size limit
  (``JSON_MAX_BYTES``) and a nesting limit (``JSON_MAX_DEPTH``): a deeply
  nested array makes Python's parser raise ``RecursionError``, which Flask's
  ``get_json(silent=True)`` does not catch.
- ``field()`` — one member of a parsed object, checked against the JSON type
  the endpoint expects (a number where text belongs is refused, not coerced).
- ``text()`` — a text value from a form field or the JSON body, bounded.
- ``arg()`` — a query-string value, printable and bounded (launch and callback parameters).
- ``header()`` — a header value that is printable ASCII (anything else is
  treated as absent: werkzeug hands headers over as Latin-1 text, and
  ``hmac.compare_digest`` refuses non-ASCII text with a TypeError).
- ``value()``, ``form_value()``, ``upload()``, ``has_arg()`` — a field's raw value (JSON or
  form), a raw form field, an uploaded file, whether a query parameter was sent: the caller
  checks the type or the size itself.
- what the request says about itself and what it accepts: ``is_json()``, ``mimetype()``,
  ``best_accepted()``, ``best_language()``, ``method()``, ``path()``, ``route()``, ``url()``,
  ``base_url()``, ``host_url()``.

No other module of the package touches Flask's ``request`` (``tests/test_inputs_only.py``
walks every module and fails on one that does).
"""
from __future__ import annotations

import json
from typing import Any

from flask import current_app, request
from werkzeug.datastructures import FileStorage

from . import errors

JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "number": (int, float),
}


def json_body(*, error: type[errors.DocGemmaError] = errors.BadRequest) -> dict:
    """The body as a JSON object within the configured size and depth, or ``error`` (4xx)."""
    cfg = current_app.config
    limit, depth = int(cfg["JSON_MAX_BYTES"]), int(cfg["JSON_MAX_DEPTH"])
    if (request.content_length or 0) > limit:
        raise errors.PayloadTooLarge(f"The JSON body is larger than {limit} bytes.")
    raw = request.get_data(cache=True)
    if len(raw) > limit:
        raise errors.PayloadTooLarge(f"The JSON body is larger than {limit} bytes.")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise error("The request body must be a JSON object.") from exc
    if not isinstance(body, dict):
        raise error("The request body must be a JSON object.")
    if nesting(body) > depth:
        raise error(f"The JSON body is nested more than {depth} levels deep.")
    return body


def nesting(value) -> int:
    """How deeply containers nest in ``value`` (iteratively: no recursion limit to hit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in item if isinstance(child, (dict, list)))
    return deepest


def field(body: dict, name: str, kind: str, *, required: bool = False,
          error: type[errors.DocGemmaError] = errors.BadRequest):
    """``body[name]`` when it has JSON type ``kind``; None when absent/null and not required."""
    value = body.get(name)
    if value is None:
        if required:
            raise error(f"{name} is required.")
        return None
    wanted = JSON_TYPES[kind]
    if not isinstance(value, wanted) or (kind == "number" and isinstance(value, bool)):
        raise error(f"{name} must be a JSON {kind}.")
    return value


def text(name: str, *, max_chars: int | None = None, json_allowed: bool = True) -> str:
    """A text input from the form or (for JSON requests) the body; "" when absent.

    A JSON value of another type is refused (400) rather than turned into text.
    """
    if json_allowed and request.is_json:
        value = field(json_body(), name, "string") or ""
    else:
        value = request.form.get(name, "")
    if max_chars is not None and len(value) > max_chars:
        raise errors.BadRequest(
            f"{name} is {len(value)} characters long; the limit is {max_chars}."
        )
    return value


def arg(name: str, *, max_chars: int = 2048) -> str | None:
    """A query-string value without control characters within ``max_chars``; None otherwise
    (launch parameters come from another site: an oversized or binary value is not one)."""
    value = request.args.get(name)
    if value is None or len(value) > max_chars or not value.isprintable():
        return None
    return value


def arg_list(name: str, *, max_chars: int = 2048) -> list[str]:
    """Every value of a repeated query-string parameter that ``arg`` would accept."""
    return [v for v in request.args.getlist(name)
            if v and len(v) <= max_chars and v.isprintable()]


def header(name: str, *, max_chars: int = 1024) -> str:
    """A header's value if it is printable ASCII within ``max_chars``; "" otherwise."""
    value = request.headers.get(name, "")
    if len(value) > max_chars or not value.isascii() or not value.isprintable():
        return ""
    return value


def value(name: str) -> Any:
    """``name`` from the JSON body (any JSON type) or, for other requests, the form (text);
    None when absent. The caller checks what it got."""
    if request.is_json:
        return json_body().get(name)
    return request.form.get(name)


def form_value(name: str) -> str | None:
    """A form field as sent; None when absent."""
    return request.form.get(name)


def upload(name: str) -> FileStorage | None:
    """An uploaded file (``multipart/form-data``); None when absent."""
    return request.files.get(name)


def has_arg(name: str) -> bool:
    """Whether the query string carries a non-empty ``name`` (whatever its value)."""
    return bool(request.args.get(name))


def is_json() -> bool:
    """Whether the body is declared JSON (``application/json`` or ``+json``)."""
    return request.is_json


def mimetype() -> str:
    """The body's declared type, without parameters ("" when none)."""
    return request.mimetype


def best_accepted(choices: list[str] | None = None) -> str | None:
    """The response type the client prefers among ``choices`` (its first preference when None)."""
    accept = request.accept_mimetypes
    return accept.best if choices is None else accept.best_match(choices)


def best_language(choices: list[str]) -> str | None:
    """The client's preferred language among ``choices`` (``Accept-Language``)."""
    return request.accept_languages.best_match(choices)


def method() -> str:
    return request.method


def path() -> str:
    return request.path


def route() -> str:
    """The matched URL rule (e.g. ``/proposals/<proposal_id>/approve``), "unmatched" for none."""
    return request.url_rule.rule if request.url_rule is not None else "unmatched"


def url() -> str:
    """The full URL as received, query string included (an OAuth callback checks it)."""
    return request.url


def base_url() -> str:
    """The URL as received without its query string."""
    return request.base_url


def host_url() -> str:
    """The scheme and host the request was sent to, with a trailing slash."""
    return request.host_url
