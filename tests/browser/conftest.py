"""Headless Chromium (Debian's ``chromium``) driven by Playwright for Python.

Playwright's own browser download is never used (no network for it here, and
CI installs ``chromium`` with apt): ``executable_path`` points at the system
browser. The app runs on a real port behind the local EHR sandbox, with the
scripted model server and knowledge sources served from recorded bodies.
Screenshots go to ``tests/browser/artifacts/`` (git-ignored) for people to look at.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.model_server import ScriptedModelServer, refused_url
from tests.support.servers import serve

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-sync", "--metrics-recording-only"]


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("Chromium is needed for the browser tests: apt-get install chromium "
                           "(or set CHROMIUM=/path/to/chrome). .ci/run installs it.")
    return path


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def model():
    with ScriptedModelServer() as srv:
        yield srv


@pytest.fixture
def assistant(app_config, sandbox, model, sources):
    """The app on a real port, trusting the sandbox, answering through the scripted model."""
    from smart_docgemma import create_app

    # openFDA is refused here: the one recorded label body (Vyvanse) would otherwise answer for
    # every drug. The cards then say honestly that the FDA label could not be checked.
    app = create_app({**app_config, **sources, "OPENFDA_URL": refused_url(), "ISS_ALLOWLIST": [sandbox.fhir_url],
                      "ENDPOINT": model.url,
                      "MODEL": model.model, "SCHEMA_DIALECT": "json_schema", "MODEL_RETRIES": 0})
    with serve(app) as server:
        yield server.url


@pytest.fixture
def page(browser, request):
    """A fresh browser context per test; console errors (CSP violations…) are collected."""
    context = browser.new_context(viewport={"width": 400, "height": 860})
    pg = context.new_page()
    pg.console_errors = []
    pg.on("console", lambda m: pg.console_errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.console_errors.append(str(e)))
    yield pg
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-last.png"), full_page=True)
    context.close()


def shot_path(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def element_shot(locator, name: str) -> Path:
    """A picture of one element for the docs. The page's script swaps a card for its decided
    version (and the transcript may redraw it) while the picture waits for the element to be
    still: a second attempt finds the new one."""
    from playwright.sync_api import Error

    path = shot_path(name)
    try:
        locator.screenshot(path=str(path))
    except Error:
        locator.page.wait_for_timeout(500)
        locator.screenshot(path=str(path))
    return path


def shot(pg, name: str, full_page: bool = True) -> Path:
    path = shot_path(name)
    pg.screenshot(path=str(path), full_page=full_page)
    return path
