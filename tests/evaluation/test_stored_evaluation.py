"""``docgemma-eval --stored``: the app's own turns scored against the case set, period by period.

Turns are real: asked over the chat view with the scripted model, HAPI and recorded sources, then
read back from the app's SQLite database by the CLI."""
from __future__ import annotations

import json

import pytest
from smart_docgemma.cli.evaluation import main as eval_cli
from smart_docgemma.evaluation import load_cases
from smart_docgemma.evaluation.stored import drift, period_of, stored_report
from smart_docgemma.extensions import get_storage
from smart_docgemma.lessons.store import LessonStore
from smart_docgemma.storage import turns
from sqlalchemy import update

from tests.support.chat_session import open_session, scripted_app
from tests.support.chat_session import post_question as ask
from tests.support.model_server import ScriptedModelServer

WEEK = 7 * 24 * 3600


@pytest.fixture
def app(app_config, sources):
    with ScriptedModelServer() as srv:
        srv.say(*["Warfarin with aspirin raises bleeding risk."] * 4)
        yield scripted_app(app_config, sources, srv)




def _age(app, turn_id: str, seconds: float) -> None:
    with get_storage(app).begin() as conn:
        conn.execute(update(turns).where(turns.c.id == turn_id).values(created_at=turns.c.created_at - seconds))


def test_stored_turns_are_scored_against_matching_cases_with_ratings(app, fhir_base, capsys):
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    first = ask(client, "check interactions between Warfarin and Aspirin!")  # case interact-01, other spelling
    ask(client, "What is the weather like?")  # matches no case: counted, not scored
    client.post(f"/app/turns/{first}/rating", data={"useful": "yes", "csrf_token": client.csrf})
    report = stored_report(get_storage(app), load_cases())
    [(name, week)] = report["periods"].items()
    assert week["turns"] == 2 and week["matched_cases"] == 1
    assert week["tool_accuracy"] == 1.0 and week["route_accuracy"] == 1.0 and week["argument_accuracy"] == 1.0
    assert week["rated"] == 1 and week["useful_rate"] == 1.0 and report["drift"] == []
    cfg = {k: app.config[k] for k in ("SECRET_KEY", "DATABASE_URL", "TESTING")}
    assert eval_cli(["--stored", "--period", "week"], config=cfg) == 0
    out = capsys.readouterr().out
    assert f"| {name} | 2 | 0 |" in out and "Drift: none" in out


def test_a_drop_between_periods_is_reported_as_drift(app, fhir_base, tmp_path):
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    old = ask(client, "Check interactions between warfarin and aspirin")
    _age(app, old, WEEK)
    new = ask(client, "Check interactions between warfarin and aspirin")
    client.post(f"/app/turns/{new}/rating", data={"useful": "no", "csrf_token": client.csrf})
    client.post(f"/app/turns/{old}/rating", data={"useful": "yes", "csrf_token": client.csrf})
    report = stored_report(get_storage(app), load_cases())
    assert len(report["periods"]) == 2
    assert any(d.startswith("useful rate 100% in") and d.endswith("0% in " + list(report["periods"])[-1])
               for d in report["drift"])
    out = tmp_path / "stored.json"
    cfg = {k: app.config[k] for k in ("SECRET_KEY", "DATABASE_URL", "TESTING")}
    assert eval_cli(["--stored", "--out", str(out)], config=cfg) == 0
    assert json.loads(out.read_text())["drift"] == report["drift"]


def test_drift_needs_two_periods_and_a_real_fall():
    assert drift({"2026-W47": {"tool_accuracy": 1.0}}) == []
    same = {"a": {"tool_accuracy": 0.95}, "b": {"tool_accuracy": 0.9}}
    assert drift(same) == []  # 5 points: noise, not drift
    fell = {"a": {"tool_accuracy": 1.0, "second_look_high_rate": 0.0}, "b": {"tool_accuracy": 0.8,
                                                                             "second_look_high_rate": 0.5}}
    assert drift(fell) == ["tool accuracy 100% in a -> 80% in b", "second look high rate 0% in a -> 50% in b"]
    assert period_of(0, "week") == "1970-W01" and period_of(0, "day") == "1970-01-01"


def test_endpoint_is_still_required_without_stored(capsys):
    with pytest.raises(SystemExit):
        eval_cli([])
    assert "--endpoint is required" in capsys.readouterr().err


def test_a_row_stored_before_turns_were_typed_is_counted_unreadable_and_never_harvested(app, fhir_base):
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-warfarin")
    kept = ask(client, "Check interactions between warfarin and aspirin")
    old = ask(client, "Check interactions between warfarin and aspirin")
    with get_storage(app).begin() as conn:
        conn.execute(update(turns).where(turns.c.id == old).values(state=json.dumps({"question": "old shape"})))
    for turn_id in (kept, old):
        client.post(f"/app/turns/{turn_id}/rating", data={"useful": "yes", "csrf_token": client.csrf})
    report = stored_report(get_storage(app), load_cases())
    assert report["turns"] == 2 and report["unreadable"] == 1
    assert sum(p["turns"] for p in report["periods"].values()) == 1
    store = LessonStore(get_storage(app))
    assert len(store.harvest()) == 1  # the readable, rated turn only
