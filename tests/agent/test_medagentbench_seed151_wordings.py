"""The rules the seed-151 ward set (``smart_docgemma/evaluation/medagentbench_seed151.yaml``)
found missing, without a server: a follow-up to the last request's cards in any language
("cancel the referral", "no, anúlalo" withdraw them whatever they hold; "sorry, it was 150/95"
re-drafts the reading waiting on its card, and nothing else does), the age asked before whose
("age? pt <id>") or after her name, "FSBG", "this month" as a window, "commande une HbA1c" as an
order, a protocol named by its disorder ("hypoK") or a condition in Portuguese ("se > 12 meses"),
a weight in four languages, "SBAR:" before a referral's text, and the store's cards of one
request. The whole loop against HAPI is
``tests/synthea/test_medagentbench_seeds.py``."""
from __future__ import annotations

import pytest
from smart_docgemma import create_app, get_storage
from smart_docgemma.agent import amendments
from smart_docgemma.agent.extraction import chart_focus, find_names, read
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.proposals.store import ProposalStore
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.storage import proposals as table
from smart_docgemma.tools.words.ward_words import referral_note
from smart_docgemma.tools.words.windows import asked
from sqlalchemy import update


def card(reading: str, kind: str = "vital_sign", edited: bool = False) -> PendingCard:
    return PendingCard("c1", "record_vital_sign", kind, f"Record {reading}",
                       {"reading": reading, "taken": None}, edited)


@pytest.mark.parametrize("said", [
    "cancel the referral", "cancel the lab please", "annule la demande", "non, annule",
    "annule l'ordonnance", "cancela o encaminhamento", "anula la interconsulta", "no, anúlalo",
    "cancel it", "scrap that"])
def test_a_message_that_only_cancels_names_any_card_of_the_request(said):
    assert amendments.cancels(said)


@pytest.mark.parametrize("said", [
    "cancel the referral and order an MRI", "cancel warfarin", "cancel the appointment tomorrow?",
    "what was the referral for?"])
def test_a_request_of_its_own_is_no_cancel(said):
    assert not amendments.cancels(said)


@pytest.mark.parametrize(("pending", "said", "again"), [
    ("blood pressure 150/90 mmHg", "sorry, it was 150/95", "blood pressure 150/95 mmHg"),
    ("blood pressure 140/90 mmHg", "não, era 140/95", "blood pressure 140/95 mmHg"),
    ("blood pressure 140/90 mmHg", "perdón, fue 145/90", "blood pressure 145/90 mmHg"),
    ("body temperature 38.4 °C", "non, c'était 38,2", "body temperature 38.2 °C"),
    ("oxygen saturation 94 %", "sorry, 92", "oxygen saturation 92 %"),
    ("heart rate 110 beats/min", "typo - 100", "heart rate 100 beats/min"),
])
def test_a_correction_redrafts_the_reading_waiting_on_its_card(pending, said, again):
    assert amendments.corrected_reading(read(said), card(pending)) == again


@pytest.mark.parametrize(("pending", "said"), [
    ("blood pressure 150/90 mmHg", "what was his BP yesterday?"),  # a question
    ("blood pressure 150/90 mmHg", "sorry, 95"),  # one number for a pair
    ("blood pressure 150/90 mmHg", "150/95"),  # no word of change: a reading of its own
    ("heart rate 110 beats/min", "sorry, 110 and 120"),  # two values for one
    ("blood pressure 150/90 mmHg", "no, give amlodipine 5 mg"),  # a drug
    ("heart rate 110 beats/min", "sorry, it was 150/90"),  # a pair for one value
])
def test_anything_else_leaves_the_reading_alone(pending, said):
    assert amendments.corrected_reading(read(said), card(pending)) is None


def test_an_edited_card_or_another_kind_is_never_redrafted_from_words():
    said = read("sorry, it was 150/95")
    assert amendments.corrected_reading(said, card("blood pressure 150/90 mmHg", edited=True)) \
        is None
    assert amendments.corrected_reading(said, card("blood pressure 150/90 mmHg", "lab_order")) \
        is None


@pytest.mark.parametrize("said", [
    "age? pt 1E21E8B4-3D2C-193E-462C-83B64823BC25", "age - MRN 1e21e8b4-3d2c-193e",
    "age: patient 93bf4ec3-ff6b-fd66-025a-0081c7abc1d2"])
def test_the_age_asked_before_whose_is_her_age(said):
    assert chart_focus(said) == "age"


def test_fsbg_is_a_capillary_glucose_and_this_month_the_last_thirty_days():
    assert chart_focus("latest fsbg") == "lab:Capillary glucose"
    assert asked("mean CBG this month?").window == "30d"
    assert asked("glycémie capillaire moyenne ce mois-ci").window == "30d"


def test_commande_orders_a_test_in_french():
    assert read_ward("commande une HbA1c").order_words
    assert read_ward("prescris un iono pour demain").order_words


def test_the_cards_of_the_last_request_are_those_drafted_with_the_newest(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}",
                      "SECRET_KEY": "x" * 32, "CACHE_PATH": str(tmp_path / "cache")})
    store = ProposalStore(get_storage(app))

    def made(title: str, at: float) -> str:
        resource = {"resourceType": "Observation", "subject": {"reference": "Patient/p1"}}
        pid = store.create(sid="s1", patient_id="p1", tool="record_vital_sign",
                           resource=resource, summary={"title": title, "kind": "vital_sign"})
        with store.storage.begin() as conn:
            conn.execute(update(table).where(table.c.id == pid).values(created_at=at))
        return pid

    made("Record heart rate 88 beats/min", 1000.0)  # an earlier request, still pending
    order, recheck = made("Give potassium", 2000.0), made("Order serum potassium", 2000.4)
    assert [c.proposal_id for c in store.last_cards("s1", "p1")] == [recheck, order]
    assert store.last_cards("s1", "another") == []
    store.withdraw_ids([order, recheck], reason="cancelled")
    assert [c.title for c in store.last_cards("s1", "p1")] == ["Record heart rate 88 beats/min"]


@pytest.mark.parametrize("said", ["Andrea Spinka 04/02/1951 - age?", "âge de Mme Nienow ?"])
def test_the_age_asked_after_her_name_or_first_in_french_is_her_age(said):
    assert chart_focus(said) == "age"


def test_no_vocabulary_file_hides_a_name():
    # the words of the vocabulary files are no names ("Mg", "Hb"): a name written in one of their
    # comments would never again be read as a person
    assert find_names("how old is Andrea Spinka?", []) == ["Andrea Spinka"]
    assert find_names("âge de Micheal Nienow ?", []) == ["Micheal Nienow"]


@pytest.mark.parametrize("said", [
    "hypoK - replete per protocol w/ am recheck", "hypomagnesemia - replace per protocol",
    "hipopotasemia: reponer según protocolo",
    "hemoglobina glicada: última e data; se > 12 meses, solicitar nova"])
def test_a_protocol_named_by_its_disorder_or_condition_in_any_language(said):
    assert "protocol" in read(said).entities.actions


def test_a_weight_is_a_reading_in_four_languages_and_sbar_labels_a_referral_note():
    for said in ("Peso 72,5 kg hoje, registrar", "poids 64 kg ce matin, à noter", "wt 80kg record"):
        [reading] = read_ward(said).readings
        assert reading.vital == "body weight", said
    assert referral_note("ortho referral, SBAR: S - dislocated; B - third time; A - unstable; "
                         "R - ortho opinion.") == ("S - dislocated; B - third time; A - unstable; "
                                                   "R - ortho opinion.")
