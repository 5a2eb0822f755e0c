"""Rules added for probe37_intl (fr/pt/es), pinned by pure tests with near wordings that must not
trigger them."""

from __future__ import annotations

import pytest


# p37-es-3: what she brought from home is her list, which carries its review
@pytest.mark.parametrize("said", ["ojo con lo que trae de casa, algo que no combine?",
                                  "revisa o que ele trouxe de casa",
                                  "ce qu'elle a apporte de chez elle, ca va ensemble ?"])
def test_what_she_brought_from_home_is_her_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) == "medications"


@pytest.mark.parametrize("said", ["o que traz o exame?",
                                  "trae de casa su glucometro"])
def test_bringing_names_no_list(said):
    from smart_docgemma.tools.chart.answers import chart_focus
    assert chart_focus(said) is None


@pytest.mark.parametrize("said", ["ojo con lo que trae de casa, algo que no combine?",
                                  "revisa o que ele trouxe de casa"])
def test_what_she_brought_from_home_asks_her_chart(said):
    from smart_docgemma.agent.extraction import extract
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["trae de casa su glucometro", "o que traz o exame?"])
def test_bringing_alone_asks_no_chart(said):
    from smart_docgemma.agent.extraction import extract
    assert "chart_question" not in extract(said).actions


# p37-es-7: the discharge as Mexico names it, "egreso"
@pytest.mark.parametrize(("said", "kind"), [
    ("hazme la nota de egreso", "discharge"),
    ("resumen de egreso para el paciente", "discharge"),
    ("fecha de egreso?", None),
    ("ya tiene egreso?", None),
    ("nota de ingreso", None),
])
def test_the_discharge_note_by_its_mexican_name(said, kind):
    from smart_docgemma.tools.writes.drafts import request_kind
    assert request_kind(said) == kind
