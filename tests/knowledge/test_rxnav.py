"""A code the shipped table lacks goes to RxNav over real HTTP (KnowledgeHttp against a local
server answering in RxNav's shape), once thanks to the cache; RxNav unreachable → the order is
unidentified and says why."""
from __future__ import annotations

import json
from pathlib import Path

from smart_docgemma import knowledge
from smart_docgemma.knowledge import rxnav
from smart_docgemma.tools.sources.http import KnowledgeHttp

from tests.support.servers import free_port
from tests.tools.conftest import requests_to

from .cases import RXNORM

RECORDED = Path(__file__).with_name("recorded")


def body(name: str) -> dict:
    return json.loads((RECORDED / name).read_text())


def code(c: str) -> dict:
    return {"coding": [{"system": RXNORM, "code": c}]}


def test_unknown_code_is_resolved_through_rxnav_and_asked_once(httpserver, knowledge_config):
    httpserver.expect_request("/rxnav/rxcui/562508/related.json", query_string="tty=IN%2BMIN").respond_with_json(
        body("related_augmentin.json"))
    http = KnowledgeHttp(knowledge_config)
    first = knowledge.identify(code("562508"), resolver=rxnav.resolver(http))
    again = knowledge.identify(code("562508"), resolver=rxnav.resolver(KnowledgeHttp(knowledge_config)))
    assert first.via == "rxnav" and first.names == ["amoxicillin", "clavulanate"]
    assert again.names == first.names
    assert len(requests_to(httpserver, "/rxnav")) == 1  # the second answer came from the persistent cache
    [conflict] = knowledge.allergy_conflicts("Penicillin", first, "high", "anaphylaxis")
    assert conflict.severity == "critical" and conflict.drug == "amoxicillin"


def test_falls_back_to_allrelated_when_related_lists_no_ingredient(httpserver, knowledge_config):
    httpserver.expect_request("/rxnav/rxcui/1000000/related.json").respond_with_json(body("related_empty.json"))
    httpserver.expect_request("/rxnav/rxcui/1000000/allrelated.json").respond_with_json(body("allrelated_ketorolac.json"))
    found = knowledge.identify(code("1000000"), resolver=rxnav.resolver(KnowledgeHttp(knowledge_config)))
    assert found.names == ["ketorolac"]
    [hit] = knowledge.interactions(found.names, with_=["warfarin"])
    assert hit.critical


def test_unreachable_rxnav_leaves_the_order_unidentified_with_the_reason(knowledge_config):
    http = KnowledgeHttp({**knowledge_config, "RXNAV_URL": f"http://127.0.0.1:{free_port()}/rxnav"})
    found = knowledge.identify(code("562508"), resolver=rxnav.resolver(http))
    assert not found.identified and "RxNav could not be reached for RxNorm 562508" in found.reason
