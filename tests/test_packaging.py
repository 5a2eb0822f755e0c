"""The app as a hospital installs it: from the wheel, in a fresh virtualenv, no checkout.

The wheel is built from this checkout (``pip wheel``), installed (not editable) into a
new virtualenv that borrows the already-installed dependencies (``--system-site-packages``)
but takes ``smart_docgemma`` itself only from the wheel, and served by its own ``docgemma``
command from a directory outside the checkout. A SMART launch through the sandbox, the
assistant page, an approval card and the CDS discovery document must all come from it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import requests
from smart_docgemma import PROJECT_ROOT

from tests.support.app_process import docgemma
from tests.support.servers import free_port

ROOT = Path(PROJECT_ROOT)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A virtualenv with the wheel installed; yields its bin directory."""
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(ROOT)],
                   check=True, timeout=600, cwd=tmp)
    wheel = next((tmp / "dist").glob("smart_docgemma-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp / "venv")], check=True, timeout=300)
    bin_dir = tmp / "venv" / "bin"
    subprocess.run([str(bin_dir / "pip"), "install", "-q", "--no-deps", "--ignore-installed", str(wheel)], check=True,
                   timeout=600)
    return bin_dir


def _env() -> dict:
    # No PYTHONPATH: the checkout must not be importable from the installed app. (A development
    # install in the borrowed site-packages stays behind the venv's own: pip --ignore-installed.)
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("DOCGEMMA_")}


def test_wheel_carries_templates_and_data(installed):
    code = ("import smart_docgemma, pathlib as p; d = p.Path(smart_docgemma.__file__).parent; "
            "print(d); print(sorted(x.name for x in (d / 'templates').rglob('*.html'))); "
            "print(len(list((d / 'checks').glob('*.yaml')))); "
            "print((d / 'admin' / 'templates' / 'audit' / 'accesses.html').is_file())")
    out = subprocess.run([str(installed / "python"), "-c", code], capture_output=True, text=True, check=True,
                         env=_env(), cwd=installed).stdout.splitlines()
    assert out[0].startswith(str(installed.parent)), out  # imported from the wheel, not the checkout
    assert "card.html" in out[1] and "app.html" in out[1]
    assert int(out[2]) >= 1
    assert out[3] == "True"  # the operator's audit page keeps its template with its blueprint


def test_production_wheel_carries_neither_the_sandbox_nor_testcontainers(installed):
    wheel = next(installed.parent.parent.glob("dist/smart_docgemma-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert not [n for n in names if n.startswith(("launch/", "fhir_fixtures/"))]
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert all("extra ==" in line for line in requires if "testcontainers" in line)
    assert any("testcontainers" in line and 'extra == "sandbox"' in line for line in requires)
    # the wheel's docgemma-sandbox says where the sandbox is instead of failing on an import
    run = subprocess.run([str(installed / "docgemma-sandbox")], capture_output=True, text=True, env=_env(),
                         cwd=installed, timeout=120)
    assert run.returncode != 0 and "needs the project's checkout" in run.stderr


def test_installed_app_serves_launch_app_card_and_cds(installed, sandbox, fhir_base, tmp_path):
    from smart_docgemma import create_app

    from tests.cds.ehr_client import ISSUER, MiniEHR
    from tests.cds.test_cds_cards import SIGN, draft, hook
    from tests.proposals.test_proposals_http import session_and_proposal

    port = free_port()
    ehr = MiniEHR(f"http://127.0.0.1:{port}")
    db = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    env = {**_env(), "DOCGEMMA_PORT": str(port), "DOCGEMMA_DATABASE_URL": db, "DOCGEMMA_SECRET_KEY": "wheel-test",
           "DOCGEMMA_ISS_ALLOWLIST": json.dumps([sandbox.fhir_url]), "DOCGEMMA_THREADS": "4",
           "DOCGEMMA_CDS_ISSUERS": json.dumps({ISSUER: {"jwks": ehr.jwks()}})}
    with docgemma([str(installed / "docgemma")], env, tmp_path) as (url, _):
        # The checkout's app only shares the database, to store what the agent would propose.
        helper = create_app({"DATABASE_URL": db, "SECRET_KEY": "wheel-test", "ISS_ALLOWLIST": [sandbox.fhir_url],
                             "CACHE_PATH": str(tmp_path / "cache")})
        browser, pid = session_and_proposal(helper, sandbox, url)  # launch + /app on the installed app
        page = browser.get(f"{url}/app")
        assert page.status_code == 200 and "<textarea" in page.text and "Ask" in page.text
        card = browser.get(f"{url}/proposals/{pid}")
        assert card.status_code == 200 and "lisinopril" in card.text.lower() and "Approve" in card.text
        assert len(ehr.discovery().json()["services"]) >= 3  # checks/services.yaml came with the wheel
        order = draft("pt-warfarin", "ketorolac tromethamine 10 MG Oral Tablet", "834022")
        cards = ehr.call(SIGN, hook("order-sign", "pt-warfarin", fhir_base, [order])).json()["cards"]
        assert cards[0]["indicator"] == "critical" and "warfarin" in cards[0]["summary"]
        assert "function" in requests.get(f"{url}/static/app.js", timeout=30).text
        assert requests.get(f"{url}/readyz", timeout=30).json()["database"]["up"]
        assert "docgemma_" in requests.get(f"{url}/metrics", timeout=30).text


