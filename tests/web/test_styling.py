"""The EHR's look from ``smart_style_url`` (``smart_docgemma.styling``).

The style JSON comes from the EHR over the network and ends up inside the page's
stylesheet, so only values that really are a colour, a length or a font list may
pass; anything that could close the declaration or the rule is dropped. Fetching
is best effort (a 404, a huge or non-JSON body, a non-http URL, a slow server all
mean "default look") and the result is cached per URL so pages do not refetch.
"""
from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import pytest
from smart_docgemma import create_app
from smart_docgemma.web import styling
from smart_docgemma.web.styling import CACHE_S, MAX_BYTES, css, css_for, fetch_style, variables
from werkzeug import Response

GOOD = {"color_background": "#f7f7f7", "color_text": "rgb(10, 20, 30)", "color_highlight": "rebeccapurple",
        "color_error": "rgba(200,0,0,0.9)", "color_success": "#0a0", "dim_border_radius": "4px",
        "dim_font_size": "1.25rem", "dim_spacing_size": "1.5em", "font_family_body": "'Segoe UI', Arial, sans-serif",
        "font_family_heading": "Georgia"}


def test_valid_values_become_variables():
    assert variables(GOOD) == {"--bg": "#f7f7f7", "--fg": "rgb(10, 20, 30)", "--accent": "rebeccapurple",
                               "--crit": "rgba(200,0,0,0.9)", "--ok": "#0a0", "--radius": "4px",
                               "--font-size": "1.25rem", "--space": "1.5em",
                               "--font": "'Segoe UI', Arial, sans-serif", "--font-heading": "Georgia"}
    assert variables({"color_text": "  #123  "}) == {"--fg": "#123"}  # whitespace trimmed
    assert variables({"unknown_key": "#fff"}) == {}


@pytest.mark.parametrize("key, value", [
    ("color_background", "red;}body{display:none"),
    ("color_highlight", "url(javascript:alert(1))"),
    ("color_text", "#fff;background:url(https://evil/x)"),
    ("color_error", "expression(alert(1))"),
    ("dim_font_size", "12px;}*{display:none}"),
    ("dim_spacing_size", "calc(100vw)"),
    ("dim_border_radius", 4),
    ("font_family_body", "Arial;}body{display:none"),
    ("font_family_heading", "x</style><script>alert(1)</script>"),
    ("font_family_body", "Arial/*"),
])
def test_injection_attempts_are_dropped(key, value):
    assert variables({key: value, "color_success": "green"}) == {"--ok": "green"}


def test_a_font_with_an_unbalanced_quote_is_dropped():
    # An unterminated CSS string runs to the end of the line, swallowing the
    # declarations after it (here --font-heading) and the rule's closing brace.
    out = variables({"font_family_body": "'Segoe UI, Arial", "font_family_heading": "Georgia"})
    assert "--font" not in out
    assert out == {"--font-heading": "Georgia"}


def test_css_output():
    assert css({"color_text": "#000", "dim_border_radius": "6px"}) == ":root{--fg:#000;--radius:6px;}\n"
    assert css({}) == "/* no usable EHR style */\n"
    assert css({"color_text": "red;}"}) == "/* no usable EHR style */\n"


def test_fetch_style_returns_the_json(httpserver):
    httpserver.expect_request("/style.json").respond_with_json(GOOD)
    assert fetch_style(httpserver.url_for("/style.json"), 5) == GOOD
    [(request, _)] = [entry for entry in httpserver.log if entry[0].path == "/style.json"]
    assert request.headers["Accept"] == "application/json"


@pytest.mark.parametrize("respond", [
    lambda r: r.respond_with_json({"error": "not found"}, status=404),
    # valid JSON padded past the limit: its first MAX_BYTES would still parse
    lambda r: r.respond_with_data('{"color_text": "#000"}' + " " * MAX_BYTES, content_type="application/json"),
    lambda r: r.respond_with_data("<html>not json</html>", content_type="text/html"),
    lambda r: r.respond_with_json(["#fff"]),
], ids=["404", "oversize", "not-json", "not-an-object"])
def test_fetch_style_failures_give_default(httpserver, respond):
    respond(httpserver.expect_request("/style.json"))
    assert fetch_style(httpserver.url_for("/style.json"), 5) == {}
    assert len(httpserver.log) == 1


def test_fetch_style_accepts_a_body_of_exactly_max_bytes(httpserver):
    body = json.dumps({"color_text": "#000", "pad": ""})
    body = body[:-2] + " " * (MAX_BYTES - len(body)) + '"}'
    assert len(body.encode()) == MAX_BYTES
    httpserver.expect_request("/style.json").respond_with_data(body, content_type="application/json")
    assert fetch_style(httpserver.url_for("/style.json"), 5)["color_text"] == "#000"


def test_fetch_style_slow_server_gives_default(httpserver):
    answered = threading.Event()

    def slow(request):
        time.sleep(1.0)
        answered.set()
        return Response('{"color_text": "#000"}', content_type="application/json")

    httpserver.expect_request("/style.json").respond_with_handler(slow)
    started = time.monotonic()
    assert fetch_style(httpserver.url_for("/style.json"), 0.2) == {}
    assert time.monotonic() - started < 0.9
    assert answered.wait(5)  # let the server finish before the next test reuses it


def test_lengths_with_three_decimals_are_kept():
    # 0.875rem (14 px on a 16 px root) is a common EHR font size; LENGTH allows two decimals only.
    assert variables({"dim_font_size": "0.875rem"}) == {"--font-size": "0.875rem"}


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://ehr.example/style.json", "javascript:alert(1)",
                                 "//ehr.example/style.json"])
def test_fetch_style_only_over_http(httpserver, url):
    assert fetch_style(url, 5) == {}
    assert httpserver.log == []


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "k", "DATABASE_URL": f"sqlite:///{tmp_path}/a.sqlite"})


def test_css_for_caches_per_url(httpserver, app):
    httpserver.expect_request("/a.json").respond_with_json({"color_text": "#111"})
    httpserver.expect_request("/b.json").respond_with_json({"color_text": "#222"})
    first = css_for(httpserver.url_for("/a.json"), app)
    assert first == ":root{--fg:#111;}\n"
    assert css_for(httpserver.url_for("/a.json"), app) == first
    assert len(httpserver.log) == 1  # the second call made no request
    assert css_for(httpserver.url_for("/b.json"), app) == ":root{--fg:#222;}\n"
    assert len(httpserver.log) == 2


def test_css_for_refetches_after_an_hour(httpserver, app, monkeypatch):
    httpserver.expect_request("/a.json").respond_with_json({"color_text": "#111"})
    clock = SimpleNamespace(time=lambda: 1_000_000.0)
    monkeypatch.setattr(styling, "time", clock)
    css_for(httpserver.url_for("/a.json"), app)
    clock.time = lambda: 1_000_000.0 + CACHE_S - 1
    css_for(httpserver.url_for("/a.json"), app)
    assert len(httpserver.log) == 1
    clock.time = lambda: 1_000_000.0 + CACHE_S + 1
    css_for(httpserver.url_for("/a.json"), app)
    assert len(httpserver.log) == 2


def test_css_for_without_url_is_the_default(httpserver, app):
    assert css_for(None, app) == css_for("", app) == "/* no usable EHR style */\n"
    assert httpserver.log == []
