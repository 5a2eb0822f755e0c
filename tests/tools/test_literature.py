"""search_medical_literature against recorded Europe PMC and NCBI bodies."""
from __future__ import annotations

import re

from smart_docgemma.tools import args
from smart_docgemma.tools.sources.literature import TOOLS, search_europepmc

from tests.tools.conftest import recorded, requests_to

tool = TOOLS[0]
EPMC = "/europepmc/search"


def test_europepmc_core_results_cite_pmids_with_plain_abstracts(httpserver, ctx):
    httpserver.expect_request(EPMC).respond_with_json(recorded("europepmc/search_core_cancer.json"))
    result = tool.run(args.LiteratureSearchArgs(query="immunotherapy (fibrolamellar) carcinoma"), ctx)
    (req,) = requests_to(httpserver, "/europepmc")
    assert (req.args["format"], req.args["resultType"], req.args["pageSize"]) == ("json", "core", "5")
    assert req.args["query"] == ('(immunotherapy  fibrolamellar  carcinoma) AND SRC:MED '
                                 'NOT PUB_TYPE:"retracted publication"')
    assert result.status == "ok" and result.count == 5  # the recorded page has 25; we keep 5
    assert result.text.startswith('Europe PMC: 5059039 articles match "immunotherapy (fibrolamellar) carcinoma"')
    assert "1. Abscopal response in a patient with fibrolamellar hepatocellular carcinoma" in result.text
    assert "(PMID 39709209)" in result.text
    assert result.sources[0].url == "https://pubmed.ncbi.nlm.nih.gov/39709209/"
    assert result.sources[0].label.startswith("PMID 39709209: Abscopal response")
    abstracts = " ".join(a["abstract"] for a in result.data["articles"])
    assert "<h4>" not in result.text and not re.search(r"</?[a-z]+[0-9]?>", abstracts)
    assert "Objective: This study investigated" in abstracts  # section headings kept as words
    assert any(a["abstract"] for a in result.data["articles"]) and len(result.text) < 4000


def test_lite_shape_with_flat_journal_title_is_read(httpserver, ctx):
    httpserver.expect_request(EPMC).respond_with_json(recorded("europepmc/search_lite_pmid_20516115.json"))
    total, (article,) = search_europepmc(ctx.http, "EXT_ID 20516115")
    assert (total, article["pmid"], article["journal"], article["year"]) == (1, "20516115", "Cancer Res", "2010")


def test_no_hits_is_empty_not_an_error(httpserver, ctx):
    httpserver.expect_request(EPMC).respond_with_json(recorded("europepmc/search_no_results.json"))
    result = tool.run(args.LiteratureSearchArgs(query="asdkfjhasdkfjh"), ctx)
    assert result.status == "empty" and result.error_kind is None and result.count == 0
    assert 'No articles were found in Europe PMC for "asdkfjhasdkfjh"' in result.text


def test_pubmed_answers_when_europepmc_is_down(httpserver, ctx):
    httpserver.expect_request(EPMC).respond_with_data("down", status=503)
    httpserver.expect_request("/eutils/esearch.fcgi").respond_with_json(recorded("ncbi/esearch_pubmed_pten_small.json"))
    httpserver.expect_request("/eutils/esummary.fcgi").respond_with_json(recorded("ncbi/esummary_pubmed_38054408.json"))
    result = tool.run(args.LiteratureSearchArgs(query="PTEN D326N"), ctx)
    search, summary = requests_to(httpserver, "/eutils")
    assert (search.args["term"], search.args["retmax"], search.args["tool"]) == ("PTEN D326N", "5", "smart_docgemma")
    assert summary.args["id"] == "32150788,29373119,17427195"
    assert len(requests_to(httpserver, "/europepmc")) == 3  # tried with retries first
    assert result.status == "ok" and result.data["service"] == "PubMed"
    assert "Recommendations for risk allele evidence curation" in result.text and "Genet Med 2024" in result.text
    assert result.sources[0].url == "https://pubmed.ncbi.nlm.nih.gov/38054408/"


def test_both_services_down_says_so_and_forbids_citing_from_memory(httpserver, ctx):
    httpserver.expect_request(EPMC).respond_with_data("down", status=500)
    httpserver.expect_request("/eutils/esearch.fcgi").respond_with_json(
        recorded("ncbi/error_429_rate_limit_esummary.json"), status=429)
    result = tool.run(args.LiteratureSearchArgs(query="warfarin fluconazole"), ctx)
    assert result.status == "error" and result.error_kind == "rate_limited"
    assert result.text == ("The PubMed literature service is busy (request limit reached), so the literature "
                           "search is unavailable right now. Try again in a minute. The Europe PMC literature "
                           "service was also unavailable. Do not cite studies from memory.")


def test_pubmed_with_no_ids_is_empty(httpserver, ctx):
    httpserver.expect_request(EPMC).respond_with_data("down", status=502)
    httpserver.expect_request("/eutils/esearch.fcgi").respond_with_json(
        {"header": {"type": "esearch", "version": "0.3"},
         "esearchresult": {"count": "0", "retmax": "0", "retstart": "0", "idlist": []}})
    result = tool.run(args.LiteratureSearchArgs(query="zzqx"), ctx)
    assert result.status == "empty" and "No articles were found in PubMed" in result.text
    assert requests_to(httpserver, "/eutils/esummary.fcgi") == []
