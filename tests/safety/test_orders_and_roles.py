"""Prescriptions as clinicians write them become coded FHIR through the chat (prn with its
reason, duration, route, frequency, stat), and only a prescriber may approve one: the card says
so and the server refuses (403) whatever the page shows. Cases: cases.yaml / holdout.yaml."""

from __future__ import annotations

import pytest

from tests.safety import charts
from tests.support.chat_session import open_session, post_question

ROLE_CHART = {"age": 50, "sex": "male"}


@pytest.fixture(scope="module")
def app(sources, tmp_path_factory):
    from smart_docgemma import create_app

    tmp = tmp_path_factory.mktemp("orders")
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "DATABASE_URL": f"sqlite:///{tmp / 'a.sqlite'}",
            "CACHE_PATH": str(tmp / "cache"),
            "ENDPOINT": None,
            **sources,
        }
    )


@pytest.fixture(scope="module")
def patient(fhir_base):
    return charts.load(fhir_base, {"id": "orders", "chart": ROLE_CHART})


def proposed(app, fhir_base, patient, message, **context):
    """The proposal the chat made for ``message`` (client, proposal)."""
    from smart_docgemma.proposals.store import proposal_store
    from smart_docgemma.turns.store import turn_store

    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, patient, **context)
    turn_id = post_question(client, message)
    with app.app_context():
        ids = turn_store(app).get(turn_id).turn.proposals
        assert ids, f"no proposal for {message!r}"
        return client, proposal_store(app).get(ids[0])


ORDER_CASES = [c for split in ("tuned", "holdout") for c in charts.cases(split) if "message" in c]


@pytest.mark.parametrize("case", ORDER_CASES, ids=[c["id"] for c in ORDER_CASES])
def test_prescription_words_become_coded_fhir(app, fhir_base, patient, case):
    _, p = proposed(app, fhir_base, patient, case["message"])
    inst, want = p.resource["dosageInstruction"][0], case["expect_order"]
    repeat = (inst.get("timing") or {}).get("repeat") or {}
    for key in ("frequency", "period", "periodUnit", "count"):
        if key in want:
            assert repeat.get(key) == want[key], (key, inst)
    if "when" in want:
        assert repeat.get("when") == [want["when"]]
    if want.get("as_needed") is True:
        assert inst.get("asNeededBoolean") is True
    elif "as_needed" in want:
        assert inst["asNeededCodeableConcept"]["text"] == want["as_needed"]
    else:
        assert "asNeededBoolean" not in inst and "asNeededCodeableConcept" not in inst
    if "duration" in want:
        unit = want.get("duration_unit", "days")
        assert (
            repeat["boundsDuration"]["value"] == want["duration"]
            and repeat["boundsDuration"]["unit"] == unit
        )
        assert p.resource["dispenseRequest"]["expectedSupplyDuration"] == repeat["boundsDuration"]
    if "route" in want:
        assert inst["route"]["text"] == want["route"]


ROLE_CASES = [c for split in ("tuned", "holdout") for c in charts.cases(split) if "user" in c]


@pytest.mark.parametrize("case", ROLE_CASES, ids=[c["id"] for c in ROLE_CASES])
def test_only_a_prescriber_may_approve_a_prescription(app, fhir_base, patient, case):
    client, p = proposed(app, fhir_base, patient, "prescribe amlodipine 5 mg od", user=case["user"])
    card = client.get(f"/proposals/{p.id}").get_data(as_text=True)
    res = client.post(
        f"/proposals/{p.id}/approve",
        json={"version": p.version},
        headers={"X-CSRF-Token": client.csrf, "Accept": "application/json"},
    )
    if case["may_approve"]:
        assert "Approve and write to chart" in card and "Prescriber approval needed" not in card
        assert res.status_code == 200 and res.get_json()["status"] == "approved", res.get_data(
            as_text=True
        )
    else:
        assert "Prescriber approval needed" in card and "Approve and write to chart" not in card
        assert res.status_code == 403 and "prescriber" in res.get_json()["error_description"]
        assert (
            client.get(f"/proposals/{p.id}", headers={"Accept": "application/json"}).get_json()[
                "status"
            ]
            == "pending"
        )  # kept as a draft for a prescriber


def test_a_configured_prescriber_list_vouches_for_a_user(sources, fhir_base, patient, tmp_path):
    from smart_docgemma import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "k",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite'}",
            "CACHE_PATH": str(tmp_path / "cache"),
            "ENDPOINT": None,
            **sources,
            "PRESCRIBERS": ["Practitioner/nurse-ali"],
        }
    )
    client, p = proposed(
        app, fhir_base, patient, "prescribe amlodipine 5 mg od", user="Practitioner/nurse-ali"
    )
    assert "Prescriber approval needed" not in client.get(f"/proposals/{p.id}").get_data(
        as_text=True
    )


def test_an_allergy_keeps_the_reaction_as_written_and_states_no_confirmation_it_was_not_given(
    app, fhir_base, patient
):
    _, p = proposed(app, fhir_base, patient, "add allergy to penicillin, urticarial rash")
    r = p.resource
    assert r["reaction"][0]["manifestation"][0]["text"] == "urticarial rash"
    assert r["verificationStatus"]["coding"][0]["code"] == "unconfirmed" and "criticality" not in r
    rows = dict(p.summary["fields"])
    assert rows["Criticality"].startswith("not stated") and rows["Verification"].startswith(
        "unconfirmed"
    )
    _, confirmed = proposed(
        app, fhir_base, patient, "record a confirmed penicillin allergy: anaphylaxis"
    )
    assert confirmed.resource["verificationStatus"]["coding"][0]["code"] == "confirmed"
    assert confirmed.resource["criticality"] == "high"
