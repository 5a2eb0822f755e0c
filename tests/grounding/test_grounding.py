"""Cited answers and the grounding check: the evaluation sets, templated and model answers
over the chat (real HAPI, scripted model), the page's numbered links, metrics, remove mode."""

from __future__ import annotations

import json
import re

import pytest
from smart_docgemma.grounding.check import MARK, ground
from smart_docgemma.grounding.evaluate import evaluate, load

from tests.support.chat_session import open_session, scripted_app
from tests.support.model_server import ScriptedModelServer


@pytest.mark.parametrize("split", ["tuned", "holdout"])
def test_citation_evaluation_meets_its_goals(split):
    figures, rows = evaluate(load(split, charts="fixture"))
    assert figures["answers"] >= (40 if split == "tuned" else 25)
    _meets_goals(figures)


@pytest.mark.parametrize("split", ["tuned", "holdout"])
def test_citation_evaluation_on_synthea_charts_meets_its_goals(split, synthea, fhir_base):
    """The Synthea answers, each chart read by the chart tool from the real HAPI."""
    cases = load(split, charts="synthea")
    assert {c["patient"] for c in cases} <= {p.id for p in synthea.patients}
    figures, rows = evaluate(cases, fhir_base)
    assert figures["answers"] >= 12 and figures["sentences"] >= 36
    _meets_goals(figures)


def test_the_citation_set_has_sixty_answers_on_fixture_and_synthea_charts():
    cases = load("all")
    kinds = {c.get("chart", "fixture") for c in cases}
    assert len(cases) >= 60 and kinds == {"fixture", "synthea", "image"}


@pytest.mark.parametrize("split", ["tuned", "holdout"])
def test_image_findings_evaluation_meets_its_goals(split):
    """Answers about an image's findings (image_*.yaml): invented findings and negation flips
    in four languages are marked, restatements are cited to the image, hedges are left."""
    figures, rows = evaluate(load(split, charts="image"))
    assert figures["answers"] >= 20 and {r["chart"] for r in rows} == {"image"}
    languages = {c.get("language", "en") for c in load(split, charts="image")}
    assert languages == {"en", "fr", "pt", "es"}
    assert figures["unsupported_caught"] >= 0.9 and figures["unsupported_precision"] >= 0.9
    _meets_goals(figures)


@pytest.mark.parametrize("lang, said, finding, polarity", [
    ("en", "There is no consolidation, effusion or pneumothorax.", "pneumothorax", "denied"),
    ("en", "The heart is not enlarged.", "cardiomegaly", "denied"),
    ("en", "Normal heart size.", "cardiomegaly", "denied"),
    ("en", "The heart size is not normal.", "cardiomegaly", "affirmed"),
    ("en", "The lungs are clear.", "consolidation", "denied"),
    ("es", "Los pulmones están limpios.", "infiltrate", "denied"),
    ("en", "A possible small pneumothorax is seen at the apex.", "pneumothorax", "affirmed"),
    ("en", "Consider a CT to exclude a pneumothorax.", "pneumothorax", "hedged"),
    ("en", "A small pneumothorax cannot be excluded.", "pneumothorax", "hedged"),
    ("en", "Is there a pneumothorax?", "pneumothorax", "hedged"),
    ("en", "No effusion, but a small pneumothorax at the apex.", "pneumothorax", "affirmed"),
    ("en", "A pneumothorax is excluded.", "pneumothorax", "denied"),
    ("fr", "Il n'y a pas d'épanchement pleural.", "pleural effusion", "denied"),
    ("fr", "Absence de pneumothorax.", "pneumothorax", "denied"),
    ("fr", "Un scanner est proposé pour éliminer une masse.", "mass", "hedged"),
    ("pt", "Observa-se uma consolidação no lobo inferior direito.", "consolidation", "affirmed"),
    ("pt", "Não há derrame pleural no hemitórax esquerdo.", "pleural effusion", "denied"),
    ("es", "No se observa cardiomegalia.", "cardiomegaly", "denied"),
    ("es", "Considere una TC para descartar un neumotórax.", "pneumothorax", "hedged"),
])
def test_a_finding_is_read_affirmed_denied_or_hedged(lang, said, finding, polarity):
    from smart_docgemma.grounding.image_findings import mentions

    assert (finding, polarity) in {(m.finding, m.polarity) for m in mentions(said, lang)}


@pytest.mark.parametrize("said", [
    "Her body mass index is 31 kg/m2.",
    "She has ankle edema.",
    "Warfarin raises her bleeding risk and the risk of haemorrhage.",
    "She has a history of hip fracture.",
    "The patient collapsed at home.",
])
def test_a_chart_sentence_in_an_image_turn_claims_no_image_finding(said):
    """Words a chart uses (body mass, ankle edema, a bleeding risk, a history of a fracture)
    are no claim about the image: they are not held to its findings."""
    from smart_docgemma.grounding.image_findings import mentions

    assert [m for m in mentions(said) if m.polarity != "hedged"] == []


@pytest.mark.parametrize("said, verdict", [
    ("There is a right pleural effusion.", "unsupported"),
    ("There is a small left pleural effusion.", "supported"),
    ("There is no right pleural effusion.", "uncheckable"),  # a side the image does not name
    ("There is no left pleural effusion.", "unsupported"),
    ("Há derrame pleural à direita e à esquerda.", "unsupported"),
    ("Derrame pleural esquerdo.", "supported"),
])
def test_the_side_of_a_finding_is_compared(said, verdict):
    """The image names a left effusion (and restates it without a side in the impression)."""
    from smart_docgemma.grounding.evidence import from_image

    image = from_image({"modality": "chest X-ray", "impression": "Pleural effusion.",
                        "findings": ["Small left pleural effusion"]}, 1, "Image analysis")
    assert ground(said, image).checks[0].verdict == verdict


def test_an_invented_or_flipped_finding_is_marked_and_a_restated_one_cited():
    from smart_docgemma.grounding.evidence import from_image

    image = from_image({"modality": "chest X-ray", "impression": "Left lower lobe pneumonia.",
                        "findings": ["Left lower lobe consolidation", "No pneumothorax"]},
                       1, "Image analysis")
    done = ground(
        "There is a left lower lobe consolidation. There is no pneumothorax. "
        "There is a small right pleural effusion. No consolidation is seen. "
        "Consider a CT to exclude a pleural effusion.",
        image,
    )
    assert [c.verdict for c in done.checks] == [
        "supported", "supported", "unsupported", "unsupported", "uncheckable"]
    assert done.checks[2].missing == ("right pleural effusion",)
    assert done.checks[3].missing == ("no consolidation",)
    assert [c.key for c in done.citations] == ["image:1"] and done.shown.count(MARK) == 2
    assert ground("There is a small right pleural effusion.", []).checks[0].verdict == "uncheckable"


def _meets_goals(figures: dict) -> None:
    assert figures["precision"] >= 0.9 and figures["recall"] >= 0.9, figures
    assert figures["unsupported_caught"] >= 0.9 and figures["false_alarm_rate"] <= 0.1, figures


def test_a_seeded_wrong_number_is_marked_and_a_right_one_cited():
    from smart_docgemma.grounding.evaluate import chart_records

    done = ground(
        "Her potassium was 5.6 mmol/L on 2026-11-10. Her potassium was 6.6 mmol/L on 2026-11-10.",
        chart_records("pt-ckd-elder"),
    )
    first, second = done.checks
    assert (
        first.verdict == "supported"
        and second.verdict == "unsupported"
        and "6.6 mmol/l" in second.missing
    )
    assert done.citations[0].key == "Observation/pt-ckd-elder-obs4"
    assert (
        done.shown.count(MARK) == 1
        and "[\\[1\\]](http://ehr.test/fhir/Observation/pt-ckd-elder-obs4)" in done.shown
    )


@pytest.mark.parametrize("said, wrong", [
    ("Sa kaliémie était à 5.6 mmol/L le 10 novembre 2026.", "le 10 novembre 2025"),
    ("O potássio era 5.6 mmol/L em 10 de novembro de 2026.", "em 10 de novembro de 2025"),
    ("El potasio era 5.6 mmol/L el 10 de noviembre de 2026.", "el 10 de noviembre de 2025"),
    ("Potassium 5.6 mmol/L (10 nov. 2026).", "(10 nov. 2025)"),
])
def test_a_date_as_french_portuguese_or_spanish_write_it_is_checked(said, wrong):
    """Answers on a French, Portuguese or Spanish page write dates in the locale's form
    (``languages.day_text``): the check reads them as the ISO date of the record."""
    from smart_docgemma.grounding.evaluate import chart_records

    records = chart_records("pt-ckd-elder")
    right = ground(said, records)
    assert right.checks[0].verdict == "supported", right.checks
    assert right.citations[0].key == "Observation/pt-ckd-elder-obs4"
    moved = re.sub(r"(le|em|el|\() ?10 (de )?nov[\w.]* (de )?2026", wrong, said)
    assert moved != said
    shifted = ground(moved, records)
    assert shifted.checks[0].verdict == "unsupported" and "2025-11-10" in shifted.checks[0].missing


def test_a_citation_the_turn_never_read_is_unsupported():
    from smart_docgemma.grounding.evaluate import chart_records

    done = ground("Potassium 5.6 mmol/L (Observation/not-read).", chart_records("pt-ckd-elder"))
    assert (
        done.checks[0].verdict == "unsupported"
        and "Observation/not-read (not read in this answer)" in done.checks[0].missing
    )


@pytest.fixture
def srv():
    with ScriptedModelServer() as server:
        yield server


def _ask(client, message):
    res = client.post(
        "/api/chat",
        data={"message": message},
        headers={"X-CSRF-Token": client.csrf},
        content_type="multipart/form-data",
    )
    text = res.get_data(as_text=True)
    done = [json.loads(m) for m in re.findall(r"^event: done\ndata: (.*)$", text, re.M)][0]
    return done["id"], done["html"]


def test_templated_answers_cite_each_line_to_the_resources_read(app, fhir_base):
    from smart_docgemma.turns.store import turn_store

    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    turn_id, html = _ask(client, "Summarise the chart")
    assert "Model unavailable" in html and '<div class="citations"><h4>Citations</h4>' in html
    assert re.search(
        r'<a href="[^"]+/Observation/pt-ckd-elder-obs4"[^>]*>\[\d+\]</a>', html
    )  # a numbered link
    turn = turn_store(app).get(turn_id).turn
    keys = {c.key for c in turn.citations}
    assert {
        "Observation/pt-ckd-elder-obs4",
        "Condition/pt-ckd-elder-cond1",
        "MedicationRequest/pt-ckd-elder-med1",
    } <= keys
    verdicts = [g.verdict for g in turn.grounding]
    assert (
        "unsupported" not in verdicts and verdicts.count("supported") >= 8
    )  # the tools' own text holds up


def test_a_model_answer_with_a_wrong_number_is_marked_and_counted(
    app_config, sources, srv, fhir_base
):
    app = scripted_app(app_config, sources, srv)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    srv.say(
        "Her potassium rose from 4.9 to 5.6 mmol/L. Her eGFR is now 31 mL/min/1.73 m2. "
        "Recheck soon."
    )
    _, html = _ask(client, "Summarise her potassium and eGFR")
    text = re.sub(r"\s+", " ", html)
    links = re.search(r"5\.6 mmol/L\. ((?:<a [^>]+>\[\d+\]</a>)+)", text).group(1)
    assert (
        "Observation/pt-ckd-elder-obs2" in links and "Observation/pt-ckd-elder-obs4" in links
    )  # 4.9 and 5.6
    assert re.search(
        r"31 mL/min/1\.73 m2\. <em>\(not found in any record read for this answer\)</em>", text
    )
    assert "1 sentence could not be found" in text
    metrics = client.get("/metrics").get_data(as_text=True)
    assert re.search(r'docgemma_grounding_sentences_total\{verdict="unsupported"\} [1-9]', metrics)


def test_remove_mode_drops_the_unsupported_sentence(app_config, sources, srv, fhir_base):
    app = scripted_app(app_config, sources, srv, GROUNDING_UNSUPPORTED="remove")
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    srv.say("Her potassium is 5.6 mmol/L. Her eGFR is now 31 mL/min/1.73 m2.")
    turn_id, html = _ask(client, "Summarise her potassium and eGFR")
    assert "5.6 mmol/L" in html and "31 mL/min" not in html


def _ask_with_image(client, message, lang="en"):
    import io

    import PIL.Image

    png = io.BytesIO()
    PIL.Image.new("L", (64, 64), 128).save(png, format="PNG")
    data = {"message": message, "image": (io.BytesIO(png.getvalue()), "cxr.png", "image/png")}
    headers = {"X-CSRF-Token": client.csrf, "Accept-Language": lang}
    res = client.post("/api/chat", data=data, headers=headers, content_type="multipart/form-data")
    text = res.get_data(as_text=True)
    return [json.loads(m) for m in re.findall(r"^event: done\ndata: (.*)$", text, re.M)][0]["html"]


@pytest.mark.parametrize("lang, answer, marked", [
    ("en", "The radiograph shows no focal consolidation. There is a small right pneumothorax.",
     True),
    ("en", "The radiograph shows no focal consolidation and no pneumothorax.", False),
    ("pt", "A radiografia não mostra consolidação focal no pulmão direito. "
           "Há um pequeno pneumotórax no ápice direito.", True),
    ("pt", "A radiografia não mostra consolidação focal nem pneumotórax no pulmão direito.",
     False),
])
def test_an_image_answer_inventing_a_finding_is_marked_on_the_page(
    app_config, sources, srv, fhir_base, lang, answer, marked
):
    """A chat turn with an attached X-ray: the vision model's findings deny a pneumothorax; an
    answer that invents one shows the sentence marked, the faithful answer shows no mark."""
    app = scripted_app(app_config, sources, srv)
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    srv.script("ImageFindings", {"modality": "chest X-ray", "confidence": "high",
                                 "findings": ["No focal consolidation", "No pneumothorax"],
                                 "impression": "No acute cardiopulmonary process.",
                                 "specialist_review": False})
    srv.say(answer)
    text = re.sub(r"\s+", " ", _ask_with_image(client, "What does this X-ray show?", lang))
    flagged = re.search(r"(right pneumothorax|no ápice direito)\. \[\d+\] <em>\([^)]+\)</em>",
                        text)
    assert bool(flagged) is marked, text
    assert answer.split(".")[0] in text and text.count("<em>(") == marked


def test_a_question_after_a_claim_is_a_sentence_of_its_own_in_spanish():
    """"¿" and accented capitals start a sentence: the question does not hedge the claim."""
    from smart_docgemma.grounding.evidence import from_image
    from smart_docgemma.languages import answering

    image = from_image({"modality": "chest X-ray", "impression": "Normal.",
                        "findings": ["No pleural effusion"]}, 1, "Image analysis")
    with answering("es"):
        done = ground("Hay un derrame pleural. ¿Hay neumotórax? Él no tiene derrame.", image)
    assert [c.verdict for c in done.checks] == ["unsupported", "uncheckable", "supported"]


def test_a_finding_recalled_from_a_dated_note_is_cited_to_the_note():
    """In a turn that read a chart and an image, a sentence whose date finds a note that states
    the finding is borne out by that note; the same finding without the date is held to the
    image."""
    from smart_docgemma.grounding.evidence import Evidence, from_image

    note = Evidence("DocumentReference/n1", "Note", None, "2024-03-01",
                    "Note radiology 2024-03-01: right pleural effusion, small.")
    records = [note] + from_image({"modality": "chest X-ray", "impression": "Clear lungs.",
                                   "findings": ["No pleural effusion"]}, 2, "Image analysis")
    done = ground("The note of 2024-03-01 described a right pleural effusion. "
                  "There is a right pleural effusion. Today there is no effusion.", records)
    assert [c.verdict for c in done.checks] == ["supported", "unsupported", "supported"]
    assert [c.key for c in done.citations] == ["DocumentReference/n1", "image:2"]


def test_a_finding_claimed_from_an_image_whose_analysis_failed_is_marked():
    """The image was attached but its analysis did not complete (a text-only model server):
    a finding the answer affirms has nothing that bears it out and is marked; a sentence about
    the failure itself, and the same finding in a turn without an image, are not checked."""
    from dataclasses import replace

    from smart_docgemma.agent.state import ToolRun, new_turn
    from smart_docgemma.grounding import ground_turn
    from smart_docgemma.tools.base import ToolResult

    meta = {"kind": "png", "mime": "image/png", "bytes": 1000, "accepted": True}
    failed = ToolRun(tool="analyze_medical_image", label="Image analysis", args={},
                     result=ToolResult(status="error", text="The model server does not accept images",
                                       error_kind="unsupported"))
    turn = replace(new_turn("What does this X-ray show?", image_meta=meta), tool_runs=[failed])
    done = ground_turn(turn, "There is a right pleural effusion. I could not analyse the image.")
    assert [c.verdict for c in done.checks] == ["unsupported", "uncheckable"]
    assert "not found in the cited record" in done.shown
    plain = ground_turn(new_turn("What is a pleural effusion?"), "There is a right pleural effusion.")
    assert [c.verdict for c in plain.checks] == ["uncheckable"]


def test_a_medication_line_built_from_the_record_is_supported_and_another_drug_is_not():
    """A Synthea order's RxNorm name writes qualifiers after commas ("insulin, regular, human");
    the summary's line built from it names "insulin regular" and is the record's, not marked."""
    from smart_docgemma.grounding.evidence import from_chart
    from smart_docgemma.tools.chart import records, summary
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient

    name = ("insulin isophane, human 70 UNT/ML / insulin, regular, human 30 UNT/ML Injectable Suspension "
            "[Humulin]")
    order = {"resourceType": "MedicationRequest", "id": "humulin-1", "status": "active", "authoredOn": "2026-01-05",
             "medicationCodeableConcept": {"coding": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm",
                                                       "code": "106892", "display": name}], "text": name}}
    med = records.medication(order)
    line = summary.medication_line(med)
    assert line.endswith("— dose and frequency not recorded")
    evidence = from_chart(ChartData(ChartPatient(id="p1", name="Dennise Beahan"), medications=(med,)),
                          "http://ehr.test/fhir")
    done = ground(line, evidence)
    assert [c.verdict for c in done.checks] == ["supported"] and MARK not in done.shown
    assert "MedicationRequest/humulin-1" in done.shown
    wrong = ground(line.replace("insulin, regular", "insulin glargine"), evidence)
    assert [c.verdict for c in wrong.checks] == ["unsupported"] and MARK in wrong.shown
