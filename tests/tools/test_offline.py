"""Offline copies of public sources: a label fetched while online is answered, dated, when the
uplink is down; past the age limit it is shown only as out of date; what was never fetched is
said to be unreachable. ``docgemma-offline-pack`` fills the cache for a formulary and reports
its coverage. Recorded openFDA/RxNav bodies over real HTTP; the network is then closed (the
server stopped: its port refuses connections)."""
from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from pytest_httpserver import HTTPServer
from smart_docgemma.agent.graph import Agent
from smart_docgemma.cli.offline_pack import main
from smart_docgemma.tools import catalog
from smart_docgemma.tools.base import Tool, ToolContext
from smart_docgemma.tools.sources.drugs import run_drug_safety
from smart_docgemma.tools.sources.http import KnowledgeHttp
from smart_docgemma.tools.sources.offline import Formulary, load_formulary, pack
from werkzeug import Response

from tests.support.servers import free_port

from .conftest import recorded_text

LABELLED = "lisdexamfetamine"


def _answer(request) -> Response:
    """openFDA: the recorded Vyvanse label for lisdexamfetamine, the recorded 404 otherwise;
    RxNav: no spelling suggestion."""
    if request.path.startswith("/rxnav"):
        return Response(json.dumps({"suggestionGroup": {"suggestionList": {}}}),
                        content_type="application/json")
    if LABELLED in request.args.get("search", ""):
        return Response(recorded_text("openfda/label_vyvanse_boxed_warning_2015.json"),
                        content_type="application/json")
    return Response(recorded_text("openfda/error_404_not_found.json"), status=404,
                    content_type="application/json")


@pytest.fixture
def uplink():
    server = HTTPServer(port=free_port(), threaded=True)
    server.expect_request("/openfda/drug/label.json").respond_with_handler(_answer)
    server.expect_request("/rxnav/spellingsuggestions.json").respond_with_handler(_answer)
    server.start()
    yield server
    if server.is_running():
        server.stop()


@pytest.fixture
def config(uplink, tmp_path) -> dict:
    return {"OPENFDA_URL": uplink.url_for("/openfda"), "RXNAV_URL": uplink.url_for("/rxnav"),
            "CACHE_PATH": str(tmp_path / "cache"), "KNOWLEDGE_CONNECT_TIMEOUT_S": 1,
            "KNOWLEDGE_READ_TIMEOUT_S": 1, "KNOWLEDGE_MAX_RETRIES": 0}


def ask(config: dict, question: str, **overrides) -> str:
    """The no-model answer to ``question`` with the drug-safety tool over ``config``'s sources."""
    http = KnowledgeHttp({**config, **overrides})
    ctx = ToolContext(patient_id=None, scopes=None, http=http, config=config)
    tools = {"check_drug_safety": Tool(catalog.spec("check_drug_safety"), run_drug_safety)}
    try:
        return Agent(None, tools, ctx).run(question).answer
    finally:
        http.close()


def go_offline(uplink, config) -> None:
    """The uplink fails, a while later: every cached answer is past its cache lifetime."""
    uplink.stop()
    http = KnowledgeHttp(config)
    http.session.cache.reset_expiration(0)
    http.close()


def test_a_packed_label_is_served_dated_when_the_source_is_unreachable(uplink, config):
    http = KnowledgeHttp(config)
    coverage = pack(http, Formulary([LABELLED, "paracetamol"], "test list", "1"))
    http.close()
    assert coverage.labelled == [LABELLED] and coverage.no_label == ["paracetamol"]
    assert coverage.percent() == 50.0 and coverage.failed == []
    go_offline(uplink, config)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    answer = ask(config, f"FDA warnings for {LABELLED}")
    assert f"FDA drug label service answer as retrieved on {today}" in answer
    assert "unreachable now" in answer and "VYVANSE" in answer.upper()
    stale = ask(config, f"FDA warnings for {LABELLED}", KNOWLEDGE_OFFLINE_MAX_AGE_DAYS=1e-9)
    assert "OUT OF DATE" in stale and f"retrieved on {today}" in stale
    assert "VYVANSE" in stale.upper()  # shown, but only as clearly stale
    never = ask(config, "FDA warnings for dofetilide")
    assert "could not be reached" in never and "retrieved on" not in never


def test_a_source_that_answers_is_never_replaced_by_a_copy(uplink, config):
    assert "retrieved on" not in ask(config, f"FDA warnings for {LABELLED}")
    assert "retrieved on" not in ask(config, f"FDA warnings for {LABELLED}")  # a fresh cache hit


def test_the_pack_command_reports_coverage_of_the_who_list(uplink, config, capsys, tmp_path):
    formulary = load_formulary()
    assert "23rd" in formulary.edition and "WHO" in formulary.source
    assert len(formulary.names) > 300 and "amoxicillin" in formulary.names
    out, clinic = tmp_path / "coverage.json", tmp_path / "formulary.yaml"
    clinic.write_text(f"source: a clinic's own list\nnames: [{LABELLED}, amoxicillin, metformin]\n")
    status = main(["--list", str(clinic), "--only", LABELLED, "amoxicillin", "--quiet", "--out", str(out)],
                  config={**config, "DATABASE_URL": f"sqlite:///{tmp_path / 'app.sqlite'}"})
    report = json.loads(out.read_text())
    assert status == 0 and report["labelled"] == [LABELLED]
    assert report["no_label"] == ["amoxicillin"]
    assert "1/2 medicines (50.0 %)" in capsys.readouterr().out
