"""check_drug_safety and check_drug_interactions against recorded openFDA/RxNorm bodies."""
from __future__ import annotations

import copy
import json
from urllib.parse import parse_qs

from smart_docgemma import knowledge
from smart_docgemma.tools import args
from smart_docgemma.tools.sources.druglabel import DAILYMED, newest_per_set
from smart_docgemma.tools.sources.drugreport import interaction_result
from smart_docgemma.tools.sources.drugs import TOOLS
from smart_docgemma.tools.sources.openfda import label_safety
from werkzeug import Response

from tests.support.servers import free_port
from tests.tools.conftest import recorded, requests_to

LABEL = "/openfda/drug/label.json"
VYVANSE = recorded("openfda/label_vyvanse_boxed_warning_2015.json")
VYVANSE_SET = "704e4378-ca83-445c-8b45-3cfa51c1ecad"
NOT_FOUND = recorded("openfda/error_404_not_found.json")
safety = next(t for t in TOOLS if t.name == "check_drug_safety")
interactions = next(t for t in TOOLS if t.name == "check_drug_interactions")


def serve_labels(httpserver, bodies: dict[str, dict]):
    """openFDA stand-in: the body whose key appears in the ``search`` param, else the recorded 404."""
    def handler(request):
        search = request.args.get("search", "")
        for needle, body in bodies.items():
            if f'"{needle}"' in search:
                return Response(json.dumps(body), content_type="application/json")
        return Response(json.dumps(NOT_FOUND), status=404, content_type="application/json")

    httpserver.expect_request(LABEL).respond_with_handler(handler)
    httpserver.expect_request("/rxnav/spellingsuggestions.json").respond_with_json(
        {"suggestionGroup": {"name": None, "suggestionList": None}})


def offline(make_ctx):
    return make_ctx(OPENFDA_URL=f"http://127.0.0.1:{free_port()}", RXNAV_URL=f"http://127.0.0.1:{free_port()}")


# --- check_drug_safety ----------------------------------------------------------

def test_brand_name_search_is_quoted_or_of_brand_and_generic_and_newest_first(httpserver, ctx):
    serve_labels(httpserver, {"vyvanse": VYVANSE})
    result = safety.run(args.DrugSafetyArgs(drug_name="Vyvanse"), ctx)
    (req,) = requests_to(httpserver, "/openfda")
    raw = req.query_string.decode()
    assert "limit=5" in raw and "sort=effective_time%3Adesc" in raw
    assert parse_qs(raw)["search"] == ['openfda.generic_name:"vyvanse" openfda.brand_name:"vyvanse" '
                                       'openfda.generic_name:"lisdexamfetamine" openfda.brand_name:"lisdexamfetamine"']
    assert "+" in raw.split("search=")[1] and "%22vyvanse%22" in raw  # space as '+', quotes encoded
    assert result.status == "ok" and result.count == 1
    assert result.text.startswith("FDA label for LISDEXAMFETAMINE DIMESYLATE (Vyvanse), effective 2015-04-01")
    assert "Boxed warning: WARNING: ABUSE AND DEPENDENCE CNS stimulants" in result.text
    assert "Contraindications: VYVANSE is contraindicated" in result.text  # "4 CONTRAINDICATIONS" heading stripped
    assert "Warnings and precautions: Serious Cardiovascular Reactions" in result.text
    assert "Pregnancy: Pregnancy Category C" in result.text
    assert len(result.text) < 3500, "the 4B model reads this; sections are bounded"
    assert result.sources[0].url == DAILYMED + VYVANSE_SET and "set id " + VYVANSE_SET in result.sources[0].label


def test_one_label_per_set_id_newest_version_and_the_asked_drug_preferred(httpserver, ctx):
    current = VYVANSE["results"][0]
    old = copy.deepcopy(current) | {"effective_time": "20100101", "boxed_warning": ["WARNING: OLD VERSION TEXT"]}
    other = copy.deepcopy(current) | {"set_id": "other-set", "effective_time": "20160101",
                                      "openfda": {"generic_name": ["DEXTROAMPHETAMINE SULFATE"],
                                                  "brand_name": ["Zenzedi"]}}
    assert [lb["effective_time"] for lb in newest_per_set([old, other, current])] == ["20160101", "20150401"]
    serve_labels(httpserver, {"lisdexamfetamine": {"meta": VYVANSE["meta"], "results": [other, current, old]}})
    result = safety.run(args.DrugSafetyArgs(drug_name="lisdexamfetamine"), ctx)
    assert result.data["set_id"] == VYVANSE_SET and result.data["effective_time"] == "20150401"
    assert "OLD VERSION TEXT" not in result.text
    assert "other label" not in result.text and "Zenzedi" not in result.text  # another product: not this drug's


def test_unknown_drug_is_empty_after_one_rxnorm_spelling_retry(httpserver, ctx):
    httpserver.expect_request("/rxnav/spellingsuggestions.json").respond_with_json(
        recorded("rxnorm/spellingsuggestions_2015.json"))
    serve_labels(httpserver, {})
    result = safety.run(args.DrugSafetyArgs(drug_name="ambienn"), ctx)
    searches = [r.args["search"] for r in requests_to(httpserver, "/openfda")]
    assert len(searches) == 2 and '"ambien"' in searches[1]
    assert requests_to(httpserver, "/rxnav")[0].args["name"] == "ambienn"
    assert result.status == "empty" and result.error_kind is None
    assert 'No FDA drug label was found for "ambienn"' in result.text
    assert "not evidence that the drug is safe" in result.text


def test_quotes_in_a_drug_name_cannot_break_out_of_the_phrase(httpserver, ctx):
    serve_labels(httpserver, {})
    safety.run(args.DrugSafetyArgs(drug_name='x" OR _exists_:id'), ctx)
    search = requests_to(httpserver, "/openfda")[0].args["search"]
    outside_quotes = search.split('"')[0::2]
    assert search.count('"') % 2 == 0 and '"x or _exists_ id"' in search
    assert not any("_exists_" in part or ":id" in part for part in outside_quotes)


def test_openfda_unreachable_gives_the_preformatted_message(make_ctx):
    result = safety.run(args.DrugSafetyArgs(drug_name="dofetilide"), offline(make_ctx))
    assert result.status == "error" and result.error_kind == "unreachable"
    assert result.text == ("The FDA drug label service could not be reached, so drug-safety information is "
                           "unavailable right now. Do not assume the drug is safe.")


def test_openfda_rate_limit_and_bad_request_are_reported_as_such(httpserver, ctx):
    httpserver.expect_request(LABEL,
                              query_string={"search": 'openfda.generic_name:"warfarin" openfda.brand_name:"warfarin"',
                                                   "limit": "5", "sort": "effective_time:desc"}
                              ).respond_with_json(recorded("openfda/error_429_over_rate_limit.json"), status=429)
    busy = safety.run(args.DrugSafetyArgs(drug_name="warfarin"), ctx)
    assert busy.error_kind == "rate_limited" and "busy" in busy.text and "Do not assume the drug is safe." in busy.text
    assert len(requests_to(httpserver, "/openfda")) == 3
    httpserver.expect_request(LABEL).respond_with_json(recorded("openfda/error_400_bad_request.json"), status=400)
    bad = safety.run(args.DrugSafetyArgs(drug_name="aspirin"), ctx)
    assert bad.error_kind == "invalid" and "could not process this search" in bad.text


def test_configured_openfda_key_is_sent(httpserver, make_ctx):
    serve_labels(httpserver, {"vyvanse": VYVANSE})
    safety.run(args.DrugSafetyArgs(drug_name="Vyvanse"), make_ctx(OPENFDA_API_KEY="fda-key"))
    assert requests_to(httpserver, "/openfda")[0].args["api_key"] == "fda-key"


def test_label_safety_is_usable_without_a_tool_context(httpserver, ctx):
    serve_labels(httpserver, {"lisdexamfetamine": VYVANSE})
    info = label_safety(ctx.http, "lisdexamfetamine")
    assert info.set_id == VYVANSE_SET and "Drug Interactions" in info.texts
    assert label_safety(ctx.http, "lisdexamfetamine") is not None
    assert len(requests_to(httpserver, "/openfda")) == 1  # the second lookup is a cache hit


# --- check_drug_interactions -------------------------------------------------------

def test_offline_table_still_flags_critical_pairs_and_says_labels_were_not_checked(make_ctx):
    result = interactions.run(args.DrugInteractionArgs(drug_names=["Coumadin", "Advil", "amiodarone"]),
                              offline(make_ctx))
    assert result.status == "ok" and result.count == 2
    assert "warfarin + ibuprofen:" in result.text and "AVOID — major bleeding risk" in result.text
    assert "warfarin + amiodarone:" in result.text and "warfarin and amiodarone FDA labels" in result.text
    assert "ANSM Thésaurus des interactions médicamenteuses" in result.text
    assert ("The FDA drug label service could not be reached, so the FDA label interaction check is unavailable"
            in result.text)
    assert "Do not assume there is no interaction." in result.text
    assert result.data["labels_checked"] is False
    assert any("ONC high-priority DDI list" in s.label for s in result.sources)


def test_offline_with_no_table_hit_is_an_error_not_a_reassurance(make_ctx):
    result = interactions.run(args.DrugInteractionArgs(drug_names=["metformin", "atorvastatin"]), offline(make_ctx))
    assert result.status == "error" and result.error_kind == "unreachable"
    assert "Do not assume there is no interaction." in result.text
    assert "The offline tables list no interaction for metformin + atorvastatin" in result.text


def test_label_names_the_other_drugs_class(httpserver, ctx):
    serve_labels(httpserver, {"lisdexamfetamine": VYVANSE})
    result = interactions.run(args.DrugInteractionArgs(drug_names=["Vyvanse", "phenelzine"]), ctx)
    assert result.status == "ok" and result.count == 1
    (pair,) = result.data["pairs"]
    # the offline tables hold the pair too (the ONC high-priority list: MAOI + amphetamines);
    # the label's own finding is still read and names the other drug's class
    (finding,) = [f for f in pair["findings"] if f.get("kind") == "label"]
    assert any(f["source"].startswith("Offline interaction tables: ONC") for f in pair["findings"])
    assert finding["section"] == "Drug Interactions" and not finding["reassuring"]
    assert "mentions \"maoi\"" in finding["text"] and "hypertensive crisis" in result.text
    assert "No FDA label was found for phenelzine" in result.text
    assert result.sources[-1].url == DAILYMED + VYVANSE_SET


def test_label_statement_of_no_interaction_is_quoted_not_counted_as_a_warning(httpserver, ctx):
    serve_labels(httpserver, {"lisdexamfetamine": VYVANSE})
    result = interactions.run(args.DrugInteractionArgs(drug_names=["lisdexamfetamine", "omeprazole"]), ctx)
    (finding,) = result.data["pairs"][0]["findings"]
    assert finding["reassuring"] is True
    assert "says no dose adjustment / no important interaction with \"omeprazole\"" in finding["text"]
    assert "no dose adjustment of VYVANSE is necessary" in finding["text"]


def test_no_finding_is_empty_with_an_explicit_caveat(httpserver, ctx):
    serve_labels(httpserver, {"lisdexamfetamine": VYVANSE})
    result = interactions.run(args.DrugInteractionArgs(drug_names=["lisdexamfetamine", "metformin"]), ctx)
    assert result.status == "empty" and result.count == 0
    assert "Absence of label text is not proof that a combination is safe." in result.text


def test_the_same_drug_twice_is_not_a_pair(ctx):
    result = interactions.run(args.DrugInteractionArgs(drug_names=["Coumadin", "warfarin"]), ctx)
    assert result.status == "error" and result.error_kind == "invalid"


def test_critical_pairs_and_allergy_conflicts_work_without_network():
    pairs = knowledge.drug_interactions(["sertraline", "phenelzine", "simvastatin", "clarithromycin"])
    assert {(p.drug_a, p.drug_b, p.critical) for p in pairs} >= {("sertraline", "phenelzine", True),
                                                                  ("simvastatin", "clarithromycin", True)}
    conflicts = {c.drug: c.severity for d in ["amoxicillin", "cefazolin", "metformin"]
                 for c in knowledge.allergy_conflicts("Penicillin", d)}
    assert conflicts == {"amoxicillin": "critical", "cefazolin": "warning"}


def test_critical_pairs_come_first_and_long_results_are_cut_with_a_pointer(make_ctx):
    names = ["clarithromycin", "warfarin", "simvastatin"]  # first pair in input order is only a precaution
    result = interactions.run(args.DrugInteractionArgs(drug_names=names), offline(make_ctx))
    assert result.text.index("CONTRAINDICATED") < result.text.index("PRECAUTION")
    long = [{"drugs": [f"a{i}", f"b{i}"], "findings": [{"source": "FDA label", "text": "x" * 600}]} for i in range(12)]
    cut = interaction_result({}, long, [], {}, None)
    assert len(cut.text) < 3500 + 800 and "more pair(s) with label mentions are in the full result" in cut.text
    assert cut.count == 12 and len(cut.data["pairs"]) == 12
