"""Every English case re-phrased as clinicians type it, in French, Portuguese, Spanish and English
(``smart_docgemma/evaluation/languages/rephrased/``, written before the rules were tuned on them),
run without a model on real HAPI with the knowledge sources' recorded bodies: each language's
route figure must not fall below the one reached (docs/languages.md, "Clinicians' own words").

The cases whose right route needs a model cannot be right here in any language (an image needs
the vision model; "analyse the attached X-ray" with no image and "interactions with warfarin"
alone are asked back by the model): they count as misses in these figures, as in English."""
from __future__ import annotations

from pathlib import Path

import pytest
from smart_docgemma.evaluation import evaluate, load_cases

SETS = Path(__file__).parents[2] / "smart_docgemma" / "evaluation" / "languages" / "rephrased"
# route right without a model, per split, as reached on 2026-11-27 (the holdout never tuned on)
FLOORS = {
    "fr": {"tuned": 0.95, "holdout": 0.89},
    "pt": {"tuned": 0.96, "holdout": 0.90},
    "es": {"tuned": 0.96, "holdout": 0.94},
    "en": {"holdout": 0.85},
}

@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_each_languages_set_routes_at_least_the_reached_figure_without_a_model(lang, fhir_base, sources):
    report = evaluate(load_cases(SETS / f"{lang}.yaml"), endpoint="", fhir_base=fhir_base, config=sources)
    reached = {split: report["splits"][split]["route_accuracy"] for split in FLOORS[lang]}
    missed = [r["id"] for r in report["results"] if not r["route_ok"]]
    for split, floor in FLOORS[lang].items():
        assert reached[split] >= floor, f"{lang} {split}: {reached[split]:.3f} < {floor} (missed {missed})"
    # whatever the wording: no write for another patient, no write nobody asked for
    assert report["overall"]["other_patient_proposals"] == 0
    assert report["overall"]["unrequested_writes"] == 0, missed


def test_the_sets_are_the_english_set_re_phrased_with_a_holdout_per_language():
    english = {c.id: c for c in load_cases()}
    for lang in FLOORS:
        cases = load_cases(SETS / f"{lang}.yaml")
        # the English set as it was when they were written (232 cases), its expectations as they are now
        assert {c.id.split("-", 1)[1] for c in cases} <= set(english) and len(cases) == 232, lang
        assert all((c.route, c.tools) == (english[c.id.split("-", 1)[1]].route, english[c.id.split("-", 1)[1]].tools)
                   for c in cases), lang
        same = [c.id for c in cases if c.query == english[c.id.split("-", 1)[1]].query]
        assert len(same) <= 1, same  # "rx apixaban 5 mg" is written so in Spanish too
        holdout = sum(c.split == "holdout" for c in cases)
        assert holdout == len(cases) if lang == "en" else len(cases) // 4 <= holdout < len(cases) // 2, lang
