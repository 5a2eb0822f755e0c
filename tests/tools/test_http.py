"""KnowledgeHttp over real HTTP: cache, retries, limits, typed failures, keys."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from smart_docgemma.tools.sources.http import KnowledgeHttp, SourceError, TokenBucket, get_http
from werkzeug import Response

from tests.support.servers import free_port
from tests.tools.conftest import recorded, recorded_text, requests_to

LABEL = "/openfda/drug/label.json"


@pytest.fixture
def http(knowledge_config):
    client = KnowledgeHttp(knowledge_config)
    yield client
    client.close()


def test_second_identical_get_is_served_from_the_cache(httpserver, http):
    httpserver.expect_request(LABEL).respond_with_data(
        recorded_text("openfda/label_keytruda_minimized_2026.json"), content_type="application/json")
    first = http.get_json("openfda", "/drug/label.json", {"search": 'openfda.brand_name:"keytruda"'})
    started = time.perf_counter()
    second = http.get_json("openfda", "/drug/label.json", {"search": 'openfda.brand_name:"keytruda"'})
    elapsed = time.perf_counter() - started
    assert first == second and first["results"][1]["openfda"]["brand_name"] == ["KEYTRUDA"]
    assert len(requests_to(httpserver, "/openfda")) == 1
    assert elapsed < 0.05, f"cache hit took {elapsed * 1000:.1f} ms"


def test_cache_persists_across_clients_on_the_same_sqlite_file(httpserver, knowledge_config):
    httpserver.expect_request("/ctgov/studies").respond_with_json({"studies": []})
    for _ in range(2):
        client = KnowledgeHttp(knowledge_config)
        assert client.get_json("ctgov", "/studies", {"query.cond": "melanoma"}) == {"studies": []}
        client.close()
    assert len(requests_to(httpserver, "/ctgov")) == 1


def test_openfda_404_means_no_match_and_is_cached(httpserver, http):
    httpserver.expect_request(LABEL).respond_with_json(recorded("openfda/error_404_not_found.json"), status=404)
    assert http.get_json("openfda", "/drug/label.json", {"search": 'openfda.generic_name:"zzz"'}) is None
    assert http.get_json("openfda", "/drug/label.json", {"search": 'openfda.generic_name:"zzz"'}) is None
    assert len(requests_to(httpserver, "/openfda")) == 1


def test_429_then_success_is_retried_transparently(httpserver, http):
    httpserver.expect_oneshot_request(LABEL).respond_with_json(
        recorded("openfda/error_429_over_rate_limit.json"), status=429)
    httpserver.expect_oneshot_request(LABEL).respond_with_json({"results": [{"set_id": "x"}]})
    assert http.get_json("openfda", "/drug/label.json", {"search": "a"}) == {"results": [{"set_id": "x"}]}
    assert len(requests_to(httpserver, "/openfda")) == 2


def test_persistent_429_gives_up_after_two_retries_with_small_total_wait(httpserver, http):
    httpserver.expect_request("/eutils/esummary.fcgi").respond_with_json(
        recorded("ncbi/error_429_rate_limit_esummary.json"), status=429, headers={"Retry-After": "60"})
    started = time.perf_counter()
    with pytest.raises(SourceError) as err:
        http.get_json("eutils", "/esummary.fcgi", {"db": "pubmed", "id": "1"})
    elapsed = time.perf_counter() - started
    assert err.value.kind == "rate_limited" and err.value.source_status == 429
    assert len(requests_to(httpserver, "/eutils")) == 3  # first try + 2 retries
    assert elapsed < 5, "Retry-After: 60 must be capped"
    assert "PubMed literature service is busy" in err.value.message("literature results")


def test_server_error_is_retried_then_succeeds(httpserver, http):
    httpserver.expect_oneshot_request("/europepmc/search").respond_with_data("upstream down", status=503)
    httpserver.expect_oneshot_request("/europepmc/search").respond_with_json({"hitCount": 0})
    assert http.get_json("europepmc", "/search", {"query": "x"}) == {"hitCount": 0}
    assert len(requests_to(httpserver, "/europepmc")) == 2


def test_read_timeout_is_unreachable_and_not_retried(httpserver, http):
    def slow(_request):
        time.sleep(1.6)
        return Response("{}", content_type="application/json")

    httpserver.expect_request(LABEL).respond_with_handler(slow)
    started = time.perf_counter()
    with pytest.raises(SourceError) as err:
        http.get_json("openfda", "/drug/label.json", {"search": "slow"})
    assert err.value.kind == "unreachable"
    assert time.perf_counter() - started < 1.5
    assert err.value.message("drug-safety information", "Do not assume the drug is safe.") == (
        "The FDA drug label service could not be reached, so drug-safety information is unavailable "
        "right now. Do not assume the drug is safe.")


def test_connection_refused_is_unreachable(knowledge_config):
    client = KnowledgeHttp({**knowledge_config, "CTGOV_URL": f"http://127.0.0.1:{free_port()}/api/v2"})
    with pytest.raises(SourceError) as err:
        client.get_json("ctgov", "/studies", {"query.cond": "x"})
    assert err.value.kind == "unreachable" and err.value.source_label == "ClinicalTrials.gov registry"


@pytest.mark.parametrize("body,status,source,kind", [
    ("openfda/error_400_bad_request.json", 400, "openfda", "invalid"),
    ("openfda/error_403_api_key_invalid.json", 403, "openfda", "forbidden"),
    ("openfda/error_500_server_error.json", 500, "openfda", "invalid"),  # lexer error, has "details"
    ("openfda/error_403_api_key_invalid.json", 403, "rxnav", "rate_limited"),  # RxNav's limit is a 403
])
def test_error_statuses_are_typed(httpserver, http, body, status, source, kind):
    prefix = {"openfda": "/openfda", "rxnav": "/rxnav"}[source]
    httpserver.expect_request(prefix + "/x.json").respond_with_json(recorded(body), status=status)
    with pytest.raises(SourceError) as err:
        http.get_json(source, "/x.json", {})
    assert (err.value.kind, err.value.source_status) == (kind, status)


def test_openfda_key_is_sent_but_never_stored_in_the_cache(httpserver, knowledge_config):
    client = KnowledgeHttp({**knowledge_config, "OPENFDA_API_KEY": "SECRET-FDA-KEY"})
    httpserver.expect_request(LABEL).respond_with_json({"results": []})
    client.get_json("openfda", "/drug/label.json", {"search": "x"})
    client.close()
    (req,) = requests_to(httpserver, "/openfda")
    assert req.args["api_key"] == "SECRET-FDA-KEY"
    db = Path(knowledge_config["CACHE_PATH"] + ".sqlite")
    rows = sqlite3.connect(db).execute("select value from responses").fetchall()
    assert rows and all(b"SECRET-FDA-KEY" not in bytes(r[0]) for r in rows)


def test_ncbi_gets_tool_email_and_key_and_a_faster_bucket(httpserver, knowledge_config):
    client = KnowledgeHttp({**knowledge_config, "NCBI_API_KEY": "K", "NCBI_EMAIL": "dev@example.org"})
    httpserver.expect_request("/eutils/esearch.fcgi").respond_with_json(recorded("ncbi/esearch_pubmed_pten_small.json"))
    client.get_json("eutils", "/esearch.fcgi", {"db": "pubmed", "term": "pten"})
    (req,) = requests_to(httpserver, "/eutils")
    assert (req.args["tool"], req.args["email"], req.args["api_key"]) == ("smart_docgemma", "dev@example.org", "K")
    assert client.buckets["eutils"].rate == 10.0
    assert KnowledgeHttp(knowledge_config).buckets["eutils"].rate == 3.0


def test_token_bucket_paces_requests_beyond_the_burst():
    bucket = TokenBucket(rate=10.0, burst=2)
    started = time.perf_counter()
    for _ in range(5):
        bucket.acquire()
    assert 0.25 < time.perf_counter() - started < 0.6  # 3 tokens beyond the burst at 10/s


def test_get_http_builds_one_client_per_app_with_the_cache_in_the_instance_folder(tmp_path):
    from smart_docgemma import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "k", "DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}",
                      "CACHE_PATH": None})
    app.instance_path = str(tmp_path / "instance")  # keep the checkout's instance folder clean
    first = get_http(app)
    assert get_http(app) is first
    assert Path(app.instance_path, "knowledge-cache.sqlite").exists()
    first.close()


def test_threads_share_one_client_and_its_cache(httpserver, http):
    """The app serves turns on threads (gunicorn gthread); one KnowledgeHttp serves them all."""
    from concurrent.futures import ThreadPoolExecutor

    httpserver.expect_request("/rxnav/spellingsuggestions.json").respond_with_json(
        recorded("rxnorm/spellingsuggestions_2015.json"))
    names = [f"drug{i % 4}" for i in range(32)]
    with ThreadPoolExecutor(8) as pool:
        bodies = list(pool.map(lambda n: http.get_json("rxnav", "/spellingsuggestions.json", {"name": n}), names))
    assert all(b["suggestionGroup"]["name"] == "ambienn" for b in bodies)
    assert 4 <= len(requests_to(httpserver, "/rxnav")) < 32  # each name fetched at least once; the rest hit the cache
