"""English for every interaction the app can show: derived from the reviewed glossary (never the
French text in an English field), the French kept as the source quote, and no French in what the
agent's interaction tool or a CDS card says in English."""
from __future__ import annotations

from smart_docgemma import knowledge
from smart_docgemma.knowledge import ddi, glossary


def test_no_english_field_of_any_showable_thesaurus_entry_is_french():
    pairs = ddi.showable_pairs()
    assert len(pairs) > 2500
    french = []
    for a, b in pairs:
        hit = ddi.pair(a, b)
        if hit is None:
            continue
        for text in (hit.summary, hit.mechanism, hit.management):
            if glossary.looks_french(text):
                french.append((a, b, text))
    assert not french, french[:10]


def test_the_french_detector_sees_thesaurus_text():
    assert glossary.looks_french("Risque d'apparition d'un syndrome sérotoninergique. Surveillance clinique.")
    assert glossary.looks_french("Adaptation de la posologie pendant l'association.")
    assert not glossary.looks_french("Serotonin syndrome; clinical monitoring; adjust the dose.")


def test_glossary_phrases_become_english_with_the_french_kept():
    [hit] = knowledge.interactions(["abiraterone"], with_=["metoprolol"])
    assert hit.mechanism.startswith("In heart failure; more adverse effects of metoprolol")
    assert hit.quote.startswith("Chez l'insuffisant cardiaque")
    assert "adjust the dose" in hit.management and "posologie" in hit.quote
    en = glossary.english("Risque majoré de troubles du rythme ventriculaire, notamment de torsades de pointes.",
                          "Surveillance clinique et électrocardiographique pendant l'association.", "precaution")
    assert en.effect == "Ventricular arrhythmia; torsades de pointes." and en.derived
    assert en.management == "Combine only with precautions. ECG monitoring; during the combination."


def test_a_text_the_glossary_does_not_know_gets_the_level_sentence_not_french():
    en = glossary.english("Risque d'hyperchélation.", "Pour connaître les risques, se reporter aux AMM.", "avoid")
    assert en.effect == glossary.NO_EFFECT + "." and en.management == "Avoid the combination."
    assert not en.derived and not en.managed


def test_coverage_of_the_entries_the_app_can_show():
    cover = ddi.english_coverage()
    print(f"\nEnglish from the glossary: {cover}")
    assert cover["effect_coverage"] >= 0.95 and cover["management_coverage"] >= 0.95


def test_advice_written_in_the_mechanism_text_is_management_not_an_effect():
    [hit] = knowledge.interactions(["furosemide"], with_=["lisinopril"])
    assert hit.mechanism == "Hypotension; acute kidney injury."
    assert "Start at a very low dose" in hit.management and "check kidney function" in hit.management
    assert hit.quote.startswith("Dans l'insuffisance cardiaque congestive")
