"""The evaluation harness (``docgemma-eval``) kept working in CI.

It runs against the oracle model server (answers derived from the case
expectations, over real HTTP), real HAPI with the fixtures, and the knowledge
sources served from recorded bodies. A correct model must score 100 %; one
wrong answer must show up as exactly that case failing.
"""
from __future__ import annotations

import json
import logging

import pytest
from smart_docgemma.cli.evaluation import main
from smart_docgemma.evaluation import CATEGORIES, evaluate, load_cases
from smart_docgemma.evaluation.harness import args_match
from smart_docgemma.tools.catalog import specs

from tests.bench.knowledge import URL_KEYS, recorded_sources
from tests.bench.oracle import OracleModelServer


@pytest.fixture(scope="module")
def sources():
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with recorded_sources() as config:
        yield config


def test_case_set_covers_every_category_and_every_tool():
    cases = load_cases()
    assert len(cases) >= 200 and sum(c.split == "holdout" for c in cases) >= 40
    assert {c.category for c in cases} == set(CATEGORIES)
    single = {t for c in cases if c.category == "single_tool" for t in c.tools}
    assert single == set(specs())  # all ten tools, one at a time


def test_cli_scores_a_correct_model_at_100_percent(fhir_base, sources, monkeypatch, tmp_path, capsys):
    for key, url in sources.items():  # the documented way to point the app at other sources
        monkeypatch.setenv(f"DOCGEMMA_{key}", url)
    out = tmp_path / "report.json"
    with OracleModelServer(load_cases()) as srv:
        code = main(["--endpoint", srv.url, "--model", srv.model, "--fhir", fhir_base,
                     "--no-fixtures", "--dialect", "json_schema", "--out", str(out)])
    report = json.loads(out.read_text())
    holdout = {c.id for c in load_cases() if c.split == "holdout"}
    assert code == 0 and set(report["failures"]) <= holdout  # the agent's own misses, measured
    assert set(report["categories"]) == set(CATEGORIES)
    tuned = report["splits"]["tuned"]
    assert tuned["route_accuracy"] == tuned["tool_accuracy"] == tuned["argument_accuracy"] == 1.0
    assert report["overall"]["other_patient_proposals"] == report["overall"]["unrequested_writes"] == 0
    direct = [r["model_calls"] for r in report["results"] if r["expected_route"] == "direct"]
    assert set(direct) == {2}  # intent + synthesis
    unsupported = [r for r in report["results"] if r["id"].startswith("intent-0") and r["route"] == "ask"]
    assert unsupported and all(r["model_calls"] == 0 for r in unsupported)  # answered by code
    assert report["overall"]["model_calls_mean"] < report["overall"]["seed_calls_mean"]
    proposals = [r for r in report["results"] if r["route"] == "proposal"]
    assert proposals and all(r["route_ok"] for r in proposals)
    table = capsys.readouterr().out
    assert "| category | cases | route | tools |" in table and f"| **all** | {len(load_cases())} |" in table
    assert "| split: holdout |" in table and "Proposals for another patient: 0" in table


def test_one_wrong_model_answer_fails_that_case_only(fhir_base, sources):
    cases = [c for c in load_cases() if c.category == "single_tool" and c.split == "tuned"]
    wrong = {("trials-01", "ToolSelection"): {"tool_name": "search_medical_literature"}}
    with OracleModelServer(cases, wrong=wrong) as srv:
        report = evaluate(cases, endpoint=srv.url, fhir_base=fhir_base,
                          config={**sources, "SCHEMA_DIALECT": "json_schema"})
    assert report["failures"] == ["trials-01"]
    bad = next(r for r in report["results"] if r["id"] == "trials-01")
    assert bad["tools"][0] == "search_medical_literature" and not bad["tools_ok"]
    assert bad["tools"][-1] == "find_clinical_trials"  # the unmet trials pattern: code runs it next
    assert report["categories"]["single_tool"]["tool_accuracy"] == round(1 - 1 / len(cases), 4)


def test_an_unreachable_model_scores_as_code_only_and_the_run_goes_on(fhir_base, sources):
    """A configured model that refuses connections answers every case as no-model mode does
    (agent/fallback.py): the same routes, tools and arguments as ``--code-only``."""
    cases = [c for c in load_cases() if c.id in ("direct-01", "trials-01", "lit-01")]
    dead = evaluate(cases, endpoint="http://127.0.0.1:9/v1", fhir_base=fhir_base,
                    config={**sources, "SCHEMA_DIALECT": "json_schema", "MODEL_RETRIES": 0})
    code = evaluate(cases, endpoint="", fhir_base=fhir_base, config=sources)
    assert len(dead["results"]) == 3
    assert [(r["route"], r["tools"], r["args"]) for r in dead["results"]] == \
        [(r["route"], r["tools"], r["args"]) for r in code["results"]]


def test_an_image_case_reads_its_image_once(fhir_base, sources, monkeypatch):
    """The harness reads the case image's kind once, as the chat does on upload, and hands the
    reading to the turn; neither the agent nor the imaging tool sniffs the bytes again."""
    from smart_docgemma.tools.sources import imaging

    sniffed: list[bytes] = []
    real = imaging.sniff
    monkeypatch.setattr(imaging, "sniff", lambda data: sniffed.append(data) or real(data))
    cases = [c for c in load_cases() if c.id == "image-tool-01"]
    with OracleModelServer(cases) as srv:
        report = evaluate(cases, endpoint=srv.url, fhir_base=fhir_base,
                          config={**sources, "SCHEMA_DIALECT": "json_schema"})
    assert report["failures"] == [] and report["results"][0]["tools"] == ["analyze_medical_image"]
    assert len(sniffed) == 1


@pytest.mark.parametrize("expected,actual,ok", [
    ({"query": "chest X-ray"}, {"query": "What do you see on this chest X-ray?"}, True),
    ({"drug_names": ["warfarin", "aspirin"]}, {"drug_names": ["Aspirin", "warfarin"]}, True),
    ({"drug_names": ["warfarin", "aspirin"]}, {"drug_names": ["warfarin"]}, False),
    ({"condition": "diabetic kidney disease"}, {"condition": "kidney disease"}, False),
    ({"patient_id": "pt-t2dm"}, {}, False)])
def test_key_arguments_match_by_words_and_items(expected, actual, ok):
    assert args_match(expected, actual) is ok


def test_a_typo_in_the_case_file_is_refused_with_its_id(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text('- {id: x-1, category: direct, route: direct, query: "hi", tools: [check_drug_safty]}\n')
    with pytest.raises(ValueError, match="x-1"):
        load_cases(path)


def test_recorded_sources_cover_every_knowledge_url():
    from smart_docgemma.tools.sources.http import SOURCES

    assert set(URL_KEYS.values()) == {spec.url_key for spec in SOURCES.values()}


def test_a_case_file_the_contract_refuses_is_one_sentence_and_status_2(tmp_path, capsys):
    """A bad case file (unparseable YAML, a number where text is expected, no file) is named
    with the reason on stderr and exit status 2, never a traceback."""
    bad = tmp_path / "bad.yaml"
    for text, said in (("- {id: x, unit: mm[Hg]}\n", "flow mapping"),
                       ("- {id: c1, category: single_tool, route: tool, tools: [], query: q, answer_contains: [150]}\n",
                        "case c1")):
        bad.write_text(text)
        assert main(["--code-only", "--cases", str(bad)]) == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err
    assert main(["--code-only", "--cases", str(tmp_path / "none.yaml")]) == 2
