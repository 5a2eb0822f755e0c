"""The rule the seed-691 ward set (``smart_docgemma/evaluation/medagentbench_seed691.yaml``: the
benchmark's own wording with the patient's id, dictation, shorthand, typos, windows said as the
ward says them, other patients of the population named in one chart) found missing, without a
server. Found by the holdout: the age asked in a short question opened by its question word with
no word naming her ("¿qué edad tiene?", "quel âge ?", "que idade tem?", "what age?") is hers, as
"¿cuántos años tiene?" and "quel âge a-t-elle ?" already were (before: no source matched); an
age asked of something else or in general ("what is bone age?", "¿qué edad es normal?") is not."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.tools.chart.answers import chart_focus


@pytest.mark.parametrize("said", ["¿qué edad tiene?", "qué edad tiene", "¿y qué edad tiene?",
                                  "¿qué edad tiene ahora?", "qué edad tenía?", "que idade tem?",
                                  "qual a idade?", "quel âge ?", "what age?", "Quel âge a-t-il ?"])
def test_the_age_asked_with_its_question_word_alone_is_hers(said):
    assert chart_focus(said) == "age"
    assert "chart_question" in extract(said).actions


@pytest.mark.parametrize("said", ["what is bone age?", "o que é idade óssea?", "¿qué edad es normal?",
                                  "quel âge gestationnel ?", "qual a idade mínima?",
                                  "what age do babies walk?", "what age is normal for menarche",
                                  "¿qué edad tiene que tener para la vacuna?", "what age means adult?"])
def test_an_age_asked_in_general_or_of_another_kind_is_not_her_chart(said):
    assert "chart_question" not in extract(said).actions
