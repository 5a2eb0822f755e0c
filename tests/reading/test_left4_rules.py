"""The reading's and drafts' leftover rules, pure: several analytes in one question, an NSAID's
card in the check's own words, a draft's latest results beside its card."""

from __future__ import annotations

import pytest
from smart_docgemma.checks.rules import _knowledge_message
from smart_docgemma.knowledge import analytes
from smart_docgemma.knowledge.finding import Finding
from smart_docgemma.knowledge.limits import Renal, renal_findings
from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient, ChartPoint, ChartSeries
from smart_docgemma.tools.writes.drafts import results_line


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("son K et son eGFR ?", ["Potassium", "eGFR"]),
        ("o K e a creatinina dela?", ["Potassium", "Creatinine"]),
        ("¿su K y su creatinina?", ["Potassium", "Creatinine"]),
        ("his K and Mg", ["Potassium", "Magnesium"]),
        # vitamin K is a drug, never the potassium result
        ("sa vitamine K et son INR", ["INR"]),
        ("give him vitamin K and check the INR", ["INR"]),
    ],
)
def test_every_analyte_named(question: str, names: list[str]) -> None:
    assert [a.name for a in analytes.all_named_in(question)] == names


def _renal(drug: str, egfr: float) -> Finding:
    from datetime import date

    return renal_findings(drug, Renal(egfr, "eGFR", date(2026, 11, 10)))[0]


def test_nsaid_card_says_the_checks_risk() -> None:
    f = _renal("ibuprofen", 38)
    said = _knowledge_message(f, "ibuprofen", [], None, None)
    text = said["id"] % said["args"]
    assert "NSAIDs worsen kidney function" in text and "Adjust" not in text
    assert "NSAIDs worsen kidney function" in f.summary  # the check's words, the same


def test_a_dose_rule_still_says_adjust_the_dose() -> None:
    said = _knowledge_message(_renal("gentamicin", 38), "gentamicin", [], None, None)
    assert said["id"].startswith("Adjust the %(drug)s dose")


def _series(code: str, name: str, unit: str, value: float, day: str) -> ChartSeries:
    point = ChartPoint(day, value, f"Observation/{code}")
    return ChartSeries(code, name, unit, 1, "", point, (point,))


def test_results_line_each_value_with_its_date() -> None:
    chart = ChartData(ChartPatient("p1"), labs=(
        _series("6301-6", "INR", "{INR}", 3.4, "2026-10-05"),
        _series("2823-3", "Potassium", "mmol/L", 5.6, "2026-11-10"),
    ))
    line = results_line(chart)
    assert "Potassium 5.6 mmol/L on 2026-11-10" in line and "INR 3.4 on 2026-10-05" in line


def test_results_line_none_only_when_read() -> None:
    assert results_line(ChartData(ChartPatient("p1"))) == "Results on the draft: none on file"
    unread = ChartData(ChartPatient("p1"), unavailable={"labs": "HTTP 503"})
    assert "not read (HTTP 503)" in results_line(unread)
    assert "none on file" not in results_line(unread)


_ASKED = [
    {"role": "user", "content": "combien en ml ?"},
    {"role": "assistant", "content": "What strength is it (mg per ml, as on the bottle)?"},
]


@pytest.mark.parametrize("reply", ["120mg/5ml", "250 mg/5 ml", "c'est du 250 mg/5 ml"])
def test_a_bare_strength_answers_the_strength_asked(reply: str) -> None:
    from smart_docgemma.agent.drug_follow_ups import strength_given
    from smart_docgemma.agent.extraction import extract

    given = strength_given(reply, extract(reply), _ASKED)
    assert given is not None and given[0] == "ml" and given[1].endswith(reply)


@pytest.mark.parametrize(
    ("reply", "history"),
    [
        ("120mg/5ml", []),  # nothing was asked
        ("120mg/5ml", [{"role": "assistant", "content": "What dose and frequency?"}]),
        # a new order with its own drug, never an answer to the strength
        ("amoxicillin 250mg/5ml 5 ml tds for 7 days", _ASKED),
        ("what is the usual strength of the 250 mg/5 ml syrup for a child?", _ASKED),
    ],
)
def test_not_an_answer_to_the_strength(reply: str, history: list[dict]) -> None:
    from smart_docgemma.agent.drug_follow_ups import strength_given
    from smart_docgemma.agent.extraction import extract

    assert strength_given(reply, extract(reply), history) is None


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("para 1g qds prn", ["acetaminophen"]),
        ("PARA 1G QDS", ["acetaminophen"]),
        ("NOT ibuprofen 400 - para 1g qds prn", ["ibuprofen", "acetaminophen"]),
        # "para" as Portuguese/Spanish "for" or "to": never paracetamol
        ("aumentar metformina para 1 g", ["metformin"]),
        ("ibuprofeno 400 mg para el dolor cada 8 h", ["ibuprofen"]),
        ("amoxicilina 500 mg 8/8h para 7 dias", ["amoxicillin"]),
        ("para 1 g de metformina", ["metformin"]),
        ("subir para 1 g", []),
        ("PA 160/95, iniciar amlodipina 5 mg", ["amlodipine"]),
    ],
)
def test_para_is_paracetamol_only_where_it_stands_as_a_drug(text: str, names: list[str]) -> None:
    from smart_docgemma.knowledge.mentions import find_drugs

    assert [d.name for d in find_drugs(text)] == names


@pytest.mark.parametrize(
    ("text", "orders"),
    [
        ("STARTING RAMIPRIL 2.5MG OD", True),
        ("commencing amoxicillin 500 tds", True),
        ("is she starting ramipril 2.5mg od?", False),
        ("thinking about starting ramipril", False),
        ("WHY IS SHE ON AMLODIPINE?", False),
    ],
)
def test_a_progressive_order_word_orders(text: str, orders: bool) -> None:
    from smart_docgemma.agent.extraction import find_actions

    said = set(find_actions(text)) & {"prescribe", "prescribe_drug", "administer"}
    assert bool(said) == orders


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("in French please", "fr"),
        ("en français", "fr"),
        ("em português", "pt"),
        ("en español por favor", "es"),
        ("can you write it in Portuguese?", "pt"),
        ("back to English", "en"),
        # a language named, no draft asked in it
        ("the patient speaks French only", None),
        ("her daughter is Spanish-speaking", None),
        ("draft a discharge summary", None),
    ],
)
def test_the_language_a_draft_is_asked_in(text: str, lang: str | None) -> None:
    from smart_docgemma.tools.writes.draft_words import language_asked

    assert language_asked(text) == lang


def test_a_draft_rendered_in_french_keeps_the_charts_words() -> None:
    from datetime import date

    from smart_docgemma.tools.writes.draft_words import render
    from smart_docgemma.tools.writes.drafts import DraftRequest, compose

    chart = ChartData(ChartPatient("p1", "Ana Silva"), labs=(
        _series("2823-3", "Potassium", "mmol/L", 5.6, "2026-11-10"),))
    draft = compose(DraftRequest("discharge", "draft a discharge summary"), chart,
                    date(2026, 12, 5))
    french = render(draft, "fr")
    text = french.text()
    assert french.title == "Compte rendu de sortie"
    assert "RÉSULTATS PRINCIPAUX" in text and "ALLERGIES" in text
    assert "Potassium 5.6 mmol/L on 2026-11-10" in text  # the chart's words as recorded
    assert render(draft, "en") == draft


@pytest.mark.parametrize(
    ("text", "dose"),
    [
        ("amoxicilina comprimidos de 500 8/8h", "500 mg"),
        ("metformin tabs of 500 bd", "500 mg"),
        ("2 cp de 850 matin et soir", "1700 mg (2 × 850 mg)"),
        ("metformine 850 1 cp matin et soir", "850 mg"),
        # a volume, a time: never a tablet's strength
        ("amoxicilina sachets de 500 ml", "500 ml"),
    ],
)
def test_a_tablet_named_with_its_strength(text: str, dose: str) -> None:
    from smart_docgemma.agent.extraction import extract

    said = extract(text).dose
    assert said is not None and said.written == dose
