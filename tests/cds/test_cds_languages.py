"""CDS Hooks cards in the clinician's language, over real HTTP with signed JWTs on the scenario
patients in real HAPI: the request's Accept-Language, else the practitioner's choice kept by the
page (keyed by the hook's userId), else DOCGEMMA_LANGUAGE; English by default."""
from __future__ import annotations

import pytest

from tests.cds.ehr_client import app_behind_mini_ehr
from tests.cds.test_cds_cards import SIGN, cards_of, draft, hook, problem_cards

KETOROLAC = ("pt-warfarin", "ketorolac tromethamine 10 MG Oral Tablet", "834022")
ENGLISH = "Avoid ketorolac with warfarin — major bleeding risk; consider acetaminophen (paracetamol)"
SAID = {"fr": "Éviter ketorolac avec warfarin", "pt": "Evitar ketorolac com warfarin",
        "es": "Evitar ketorolac con warfarin"}
MECHANISM = {"fr": "**Mécanisme:**", "pt": "**Mecanismo:**", "es": "**Mecanismo:**"}
IN_ENGLISH = {"fr": "**En anglais:**", "pt": "**Em inglês:**", "es": "**En inglés:**"}
# orders that give cards of several kinds: interaction, boxed warning, allergy, kidney, age
ORDERS = [KETOROLAC, ("pt-pen-allergy", "amoxicillin 500 MG Oral Capsule", "308191"),
          ("pt-ckd-elder", "ibuprofen 400 MG Oral Tablet", "197806")]


@pytest.fixture
def ehr(app_config):
    with app_behind_mini_ehr(app_config) as client:
        yield client


def _sign(ehr, fhir_base, patient, text, rxnorm, language=None, user=None):
    body = hook("order-sign", patient, fhir_base, [draft(patient, text, rxnorm)])
    if user:
        body["context"]["userId"] = user
    return problem_cards(cards_of(ehr.call(SIGN, body, language=language)))


@pytest.mark.parametrize("lang", ["fr", "pt", "es"])
def test_cards_follow_the_requests_accept_language(ehr, fhir_base, lang):
    [card] = _sign(ehr, fhir_base, *KETOROLAC, language=f"{lang},en;q=0.5")
    assert card["summary"] == SAID[lang] and card["indicator"] == "critical"
    detail = card["detail"]
    # nothing of the English card is lost: its sentence, mechanism and management stay
    assert f"{IN_ENGLISH[lang]} {ENGLISH}" in detail and MECHANISM[lang] in detail
    assert "**Mechanism:**" not in detail and "at most 5 days" in detail
    assert card["suggestions"] and card["overrideReasons"]


@pytest.mark.parametrize("lang", ["fr", "pt", "es"])
def test_every_cards_summary_stays_under_140_characters_in_each_language(ehr, fhir_base, lang):
    english = [c for order in ORDERS for c in _sign(ehr, fhir_base, *order)]
    said = [c for order in ORDERS for c in _sign(ehr, fhir_base, *order, language=lang)]
    assert len(said) == len(english) >= 3
    for card, twin in zip(said, english, strict=False):
        assert len(card["summary"]) <= 140 and "…" not in card["summary"]  # cards_of: < 140 too
        assert card["summary"] != twin["summary"] and twin["summary"] in card["detail"]


def test_without_accept_language_the_practitioners_choice_on_the_page_is_used(app_config, fhir_base):
    from smart_docgemma import create_app
    from smart_docgemma.languages import choices as language

    with app_behind_mini_ehr(app_config) as ehr:
        page = create_app(app_config)  # the same database: the page's store of choices
        with page.app_context():
            language.remember("https://ehr.example/fhir/Practitioner/dr-pereira", "pt")
        [chosen] = _sign(ehr, fhir_base, *KETOROLAC, user="Practitioner/dr-pereira")
        [other] = _sign(ehr, fhir_base, *KETOROLAC, user="Practitioner/dr-okafor")
        [asked] = _sign(ehr, fhir_base, *KETOROLAC, language="es", user="Practitioner/dr-pereira")
    assert chosen["summary"] == SAID["pt"] and other["summary"] == ENGLISH
    assert asked["summary"] == SAID["es"]  # the request's header first


def test_else_the_deployments_language(app_config, fhir_base):
    app_config["LANGUAGE"] = "fr"
    with app_behind_mini_ehr(app_config) as ehr:
        [card] = _sign(ehr, fhir_base, *KETOROLAC)
        [english] = _sign(ehr, fhir_base, *KETOROLAC, language="en")
    assert card["summary"] == SAID["fr"] and english["summary"] == ENGLISH


def test_the_card_that_opens_the_assistant_is_in_the_language_too(ehr, fhir_base):
    from tests.cds.test_cds_cards import PV

    def opener(language):
        res = ehr.call(PV, hook("patient-view", "pt-warfarin", fhir_base), language=language)
        return next(c for c in cards_of(res) if any(x["type"] == "smart" for x in c.get("links", [])))

    said, english = opener("es"), opener("en")
    assert said["summary"].startswith("Abrir DocGemma para revisar la historia de ")
    assert said["links"][0]["label"] == "Abrir el asistente DocGemma"
    assert english["summary"].startswith("Open DocGemma to review the chart for ")
    assert english["links"][0]["label"] == "Open DocGemma assistant"
