"""A draft asked again in another language, through the chat without a model in a real SMART
launch (sandbox + HAPI): "in French please" after a discharge summary replaces the pending card
with the same draft, its title and headings in French, the answer saying the chart's words stay
as recorded; approval writes one DocumentReference holding the French headings."""
from __future__ import annotations

import base64

from tests.ward.conftest import answer_text, cards, written


def test_a_draft_re_rendered_in_french_is_what_is_written(doctor, fhir_base):
    [first] = cards(doctor.ask("draft a discharge summary"))
    html = doctor.ask("in French please")
    said = answer_text(html)
    assert "Compte rendu de sortie" in said and "stay as recorded" in said
    assert "Results on the draft" in said
    [pid] = [c for c in cards(html) if c != first]
    assert doctor.approve(pid).status_code == 200
    [doc] = written(fhir_base, "DocumentReference", pid)
    text = base64.b64decode(doc["content"][0]["attachment"]["data"]).decode()
    assert doc["content"][0]["attachment"]["title"] == "Compte rendu de sortie"
    assert "PROBLÈMES" in text and "ALLERGIES" in text
    assert doc["subject"]["reference"] == f"Patient/{doctor.patient}"
    assert written(fhir_base, "DocumentReference", first) == []  # the replaced card wrote nothing
