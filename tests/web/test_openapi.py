"""``/openapi.json`` describes exactly the routes the app registers, as valid OpenAPI 3.1."""
from __future__ import annotations

import re

import jsonschema

IGNORED_METHODS = {"HEAD"}  # answered by Flask for every GET


def registered(app) -> set[tuple[str, str]]:
    """(OpenAPI path, method) for every route of the app (OPTIONS only where a view answers it)."""
    ops = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        explicit = {"OPTIONS"} if rule.endpoint.endswith("preflight") else set()
        methods = (rule.methods - IGNORED_METHODS - {"OPTIONS"}) | explicit
        ops |= {(path, m.lower()) for m in methods}
    return ops


def described(document) -> set[tuple[str, str]]:
    verbs = {"get", "post", "put", "patch", "delete", "options"}
    return {(path, m) for path, item in document["paths"].items() for m in item if m in verbs}


def test_every_route_is_described_and_nothing_else(client, app):
    res = client.get("/openapi.json")
    assert res.status_code == 200 and res.json["openapi"].startswith("3.1")
    assert registered(app) == described(res.json)


def test_the_document_is_valid_openapi_3_1(client):
    document = client.get("/openapi.json").json
    refs = re.findall(r'"\$ref": "#/([^"]+)"', client.get("/openapi.json").get_data(as_text=True))
    for ref in refs:  # every internal reference resolves
        node = document
        for part in ref.split("/"):
            node = node[part]
    for schema in document["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)
    for path, item in document["paths"].items():
        names = set(re.findall(r"{(\w+)}", path))
        for method, op in item.items():
            params = [p if "$ref" not in p else document["components"]["parameters"][p["$ref"].split("/")[-1]]
                      for p in op.get("parameters", [])]
            assert names == {p["name"] for p in params if p["in"] == "path"}, (path, method)
            assert op["responses"], (path, method)
