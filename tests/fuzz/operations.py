"""Hypothesis strategies for HTTP requests, built from an OpenAPI 3.1 document.

Every operation the document describes becomes a strategy for a request to it:
path parameters from known-good values or arbitrary text, query parameters,
credentials (valid, missing, foreign or garbage), and bodies in each media type
the operation accepts — built from its schema, from schema-shaped values of the
wrong JSON type, from arbitrary JSON, deeply nested JSON and raw bytes. A few
requests use methods or paths the document does not describe at all.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import quote

from hypothesis import strategies as st

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64), st.floats(allow_nan=False),
                    st.text(max_size=30))
ANY_JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=12), inner, max_size=4)),
                        max_leaves=12)
HEADER_TEXT = st.text(st.characters(min_codepoint=33, max_codepoint=255, blacklist_characters="\x7f\x85\xa0"),
                      max_size=60)


@dataclass
class Request:
    """One request to send: everything ``requests.request`` needs, plus a label for reports."""

    method: str
    path: str
    params: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    cookies: dict = field(default_factory=dict)
    data: object = None
    files: dict | None = None

    def describe(self) -> str:
        body = self.data if isinstance(self.data, (str, bytes)) else json.dumps(self.data)[:200] if self.data else ""
        return f"{self.method} {self.path} params={self.params} headers={self.headers} body={str(body)[:200]!r}"


@dataclass
class Credentials:
    """What the fuzzer may present: named cookie jars with their CSRF tokens, and a CDS JWT maker."""

    sessions: dict  # name -> (cookies, csrf)
    cds_token: object  # callable(url) -> a valid CDS client JWT
    base_url: str


def from_schema(schema: dict, document: dict, depth: int = 0) -> st.SearchStrategy:
    """Values that follow ``schema`` (a practical subset: refs, enums, objects, arrays, scalars)."""
    if "$ref" in schema:
        return from_schema(_resolve(document, schema["$ref"]), document, depth)
    if "oneOf" in schema:
        return st.one_of([from_schema(s, document, depth) for s in schema["oneOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "object" and depth < 4:
        props = {name: from_schema(s, document, depth + 1) for name, s in schema.get("properties", {}).items()}
        required = set(schema.get("required", []))
        return st.fixed_dictionaries({k: v for k, v in props.items() if k in required},
                                     optional={k: v for k, v in props.items() if k not in required})
    if kind == "array" and depth < 4:
        return st.lists(from_schema(schema.get("items", {}), document, depth + 1), max_size=3)
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 80), 80))
    if kind == "boolean":
        return st.booleans()
    if kind in ("integer", "number"):
        return st.integers(-10, 10**6)
    return ANY_JSON


def mistyped(schema: dict, document: dict) -> st.SearchStrategy:
    """An object whose members have the wrong JSON type (the classic 500 of a lenient view)."""
    schema = _resolve(document, schema["$ref"]) if "$ref" in schema else schema
    names = list(schema.get("properties", {})) or ["x"]
    return st.dictionaries(st.sampled_from(names), ANY_JSON, min_size=1, max_size=len(names))


def nested(depth: st.SearchStrategy = st.sampled_from([41, 200, 5000, 100_000])) -> st.SearchStrategy:
    return depth.flatmap(lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n,
                                                     '{"message":' + "[" * n + "]" * n + "}"]))


def json_bodies(schema: dict, document: dict) -> st.SearchStrategy:
    encoded = st.one_of(from_schema(schema, document), mistyped(schema, document), ANY_JSON).map(json.dumps)
    return st.one_of(encoded, encoded, nested(), nested(), st.binary(max_size=200), st.text(max_size=100))


def form_bodies(schema: dict, document: dict) -> st.SearchStrategy:
    schema = _resolve(document, schema["$ref"]) if "$ref" in schema else schema
    names = [n for n, s in schema.get("properties", {}).items() if s.get("type") == "string"] or ["x"]
    values = st.one_of(st.text(max_size=60), st.text(max_size=5000), st.sampled_from(["", " ", "yes", "no"]))
    return st.dictionaries(st.one_of(st.sampled_from(names), st.text(max_size=10)), values, max_size=4)


def operation(document: dict, path: str, method: str, op: dict, known: dict,
              creds: Credentials) -> st.SearchStrategy:
    """Requests for one described operation."""
    params = [_resolve(document, p["$ref"]) if "$ref" in p else p for p in op.get("parameters", [])]
    path_values = {p["name"]: _value(p["name"], known) for p in params if p["in"] == "path"}
    query = {p["name"]: _value(p["name"], known) for p in params if p["in"] == "query"}
    content = (op.get("requestBody") or {}).get("content", {})

    @st.composite
    def build(draw):
        concrete = path
        for name, values in path_values.items():
            concrete = concrete.replace("{" + name + "}", quote(draw(values), safe=""))
        req = Request(method.upper(), concrete)
        req.params = draw(st.fixed_dictionaries({}, optional=query))
        _credentials(draw, req, creds, op)
        req.headers["Accept"] = draw(st.sampled_from(["text/html", "application/json", "*/*", "text/event-stream"]))
        if content:
            _body(draw, req, content, document)
        if draw(st.integers(0, 30)) == 0:
            req.headers[draw(st.sampled_from(["Host", "X-Forwarded-For", "Origin", "Content-Length-Junk"]))] = \
                draw(HEADER_TEXT)
        return req
    return build()


def undescribed(creds: Credentials) -> st.SearchStrategy:
    """Methods and paths outside the document: 404/405, never a 500."""
    return st.builds(lambda m, p: Request(m, "/" + quote(p, safe="/")),
                     st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]),
                     st.one_of(st.text(max_size=30), st.sampled_from(["app/turns", "api/chat/x", "cds-services/a/b/c",
                                                                      "proposals", "static/../setup.cfg"])))


def requests_for(document: dict, known: dict, creds: Credentials) -> st.SearchStrategy:
    """One request to any operation of ``document`` (or, now and then, to none)."""
    ops = [operation(document, path, method, op, known, creds)
           for path, item in document["paths"].items() for method, op in item.items()]
    return st.one_of(*ops, undescribed(creds))


# --------------------------------------------------------------------- pieces
def _value(name: str, known: dict) -> st.SearchStrategy:
    good = known.get(name) or []
    weird = st.one_of(st.text(max_size=40), st.sampled_from(["", ".", "..", "%00", "a" * 300, "\u202e", "😀"]))
    return st.one_of(st.sampled_from(good), weird) if good else weird


def _credentials(draw, req: Request, creds: Credentials, op: dict) -> None:
    schemes = {name for option in op.get("security", []) for name in option}
    if "cdsJwt" in schemes:
        kind = draw(st.sampled_from(["valid", "valid", "valid", "none", "garbage", "basic"]))
        url = creds.base_url + req.path
        req.headers["Authorization"] = {"valid": lambda: f"Bearer {creds.cds_token(url)}", "none": lambda: "",
                                        "garbage": lambda: "Bearer " + draw(HEADER_TEXT),
                                        "basic": lambda: "Basic dXNlcjpwYXNz"}[kind]()
        if not req.headers["Authorization"]:
            del req.headers["Authorization"]
        return
    name = draw(st.sampled_from(sorted(creds.sessions) + ["none"]))
    if name != "none":
        cookies, csrf = creds.sessions[name]
        req.cookies = dict(cookies)
        token = draw(st.sampled_from([csrf, csrf, csrf, "", "wrong", "é" * 8, "\x7f"]))
        if token:
            req.headers["X-CSRF-Token"] = token


def _body(draw, req: Request, content: dict, document: dict) -> None:
    media = draw(st.sampled_from(sorted(content)))
    schema = content[media].get("schema", {})
    if media == "application/json":
        req.headers["Content-Type"] = draw(st.sampled_from(["application/json", "application/json; charset=utf-8",
                                                            "text/plain", "application/json; charset=latin-1"]))
        req.data = draw(json_bodies(schema, document))
    elif media == "multipart/form-data":
        req.data = draw(form_bodies(schema, document))
        if draw(st.booleans()):
            req.files = {"image": (draw(st.text(max_size=20)) or "x.png", draw(st.binary(max_size=300)),
                                   draw(st.sampled_from(["image/png", "image/jpeg", "application/dicom",
                                                         "text/plain"])))}
    else:
        req.data = draw(form_bodies(schema, document))


def _resolve(document: dict, ref: str) -> dict:
    node = document
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def mutated(resource: dict) -> st.SearchStrategy:
    """``resource`` with one member, at any depth, replaced by arbitrary JSON."""
    paths = []

    def walk(node, path):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for key, child in items:
            paths.append(path + (key,))
            walk(child, path + (key,))
    walk(resource, ())

    def replace(path, value):
        copy = json.loads(json.dumps(resource))
        node = copy
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return copy
    return st.builds(replace, st.sampled_from(paths), ANY_JSON)
