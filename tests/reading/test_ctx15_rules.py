"""Rules from probe_ctx15 (twenty-first stop): a relative's own name before a verb of saying
reports for the patient; an MRN's digits grouped by spaces are one number; "whats her k doing";
the clinician's own patient brings a question back; her own name after another patient's
question carries it to her; "and hers?" in a man's chart is someone else's; a lab order's card
shows the test's latest result."""
from typing import Any

import pytest
from smart_docgemma import errors
from smart_docgemma.agent.clarification import referred_back
from smart_docgemma.agent.extraction import extract, find_names, find_patient_ids
from smart_docgemma.knowledge.analytes import named_in
from smart_docgemma.reading.people import beside_people, brings_back, is_beside, relatives_names
from smart_docgemma.reading.subject import pronoun_of_other_sex
from smart_docgemma.tools.base import ToolContext
from smart_docgemma.tools.chart.in_context import InContext
from smart_docgemma.tools.writes.ward_orders import latest_result


# ------------------------------------------------------------------ a relative named, reporting
@pytest.mark.parametrize("text", [
    "his wife Abena says he takes ibuprofen",
    "his daughter Ama says he's been taking ibuprofen for his knee, is that a problem?",
    "her daughter Ada says she's allergic to penicillin, can she have augmentin?",
    "her daughter Ada says she's wheezy, can she have ibuprofen?",
    "sa fille Awa dit qu'elle est allergique à la pénicilline, on peut lui donner de l'augmentin ?",
    "son mari Tunde dit qu'elle fait de l'asthme, ibuprofène possible ?",
    "a filha dela, a Ada, diz que ela é alérgica a penicilina - pode tomar augmentin?",
    "o filho dele, o Kwame, disse que ele anda a tomar ibuprofeno para as costas",
    "su hija Ada dice que es alérgica a la penicilina, ¿puede tomar augmentin?",
    "su marido Chidi dice que toma ibuprofeno para el dolor de cabeza, ¿hay problema?",
])
def test_a_relative_named_before_a_verb_of_saying_reports_for_the_patient(text):
    assert find_names(text, []) == []
    assert beside_people(text) == []


@pytest.mark.parametrize(("text", "who"), [
    # the relative named is the subject, not a reporter: refused as the relative
    ("his wife Abena - is she on anything?", "wife"),
    ("her daughter Ada is asthmatic, can she have ibuprofen?", "daughter"),
    ("sa fille Awa a de la fièvre, elle peut prendre de l'ibuprofène ?", "fille"),
    ("her son Samuel Okoro - his hba1c?", "son"),
])
def test_a_relative_named_as_the_subject_stays_the_relative(text, who):
    assert who in find_names(text, [])


def test_a_patient_named_beside_a_relative_is_still_named():
    assert "Grace Adeyemi" in find_names("his wife and Grace Adeyemi", [])
    assert "Grace Adeyemi" in find_names("Grace Adeyemi potassium", [])


@pytest.mark.parametrize(("text", "names"), [
    ("his wife Abena says", {"abena"}),
    ("a filha dela, a Ada, diz", {"ada"}),
    ("sa fille Awa dit", {"awa"}),
    # no possessive, a full stop between, or no relative: no relative's name
    ("the wife Abena says", set()),
    ("ask his wife. Abena Mensah's inr?", set()),
    ("Abena says he takes ibuprofen", set()),
    # "wifely", "sonar": no relative's word
    ("his sonar Abena", set()),
])
def test_relatives_names(text, names):
    assert relatives_names(text) == names


# ------------------------------------------------------------------ an MRN grouped by spaces
@pytest.mark.parametrize(("text", "ids"), [
    ("mrn 100 231 - whats her k doing", ["100 231"]),
    ("MRN: 100 587 potassium?", ["100 587"]),
    ("mrn 100-231", ["100-231"]),
    ("historia MRN-100-587: ¿su INR está en rango?", ["MRN-100-587"]),
    ("MRN 100231 k 5.6", ["100231"]),
    # near: a dose or a short group after the first is no MRN's second group
    ("mrn 100 mg", ["100"]),
    ("mrn 123 45", ["123"]),
    ("mrn 100 231.5", ["100"]),
])
def test_an_mrns_digits_grouped_by_spaces_are_one_number(text, ids):
    assert find_patient_ids(text) == ids


# ------------------------------------------------------------------ "whats her k doing"
@pytest.mark.parametrize("text", ["whats her k doing", "what's her k?", "his k doing ok?",
                                  "her k looking better?", "the k trending up?"])
def test_her_k_asked_without_an_apostrophe_or_with_doing_is_potassium(text):
    found = named_in(text)
    assert found is not None and found.name == "Potassium"


@pytest.mark.parametrize("text", ["whats her vit k dose", "k doing", "what's the k-wire for",
                                  "her kdoing"])
def test_near_words_are_not_potassium(text):
    found = named_in(text)
    assert found is None or found.name != "Potassium"


# ------------------------------------------------------------------ back to her
@pytest.mark.parametrize("text", [
    "voltando à nossa paciente - ela pode continuar o lisinopril?",
    "e o nosso doente, tem alergias?",
    "volvamos a mi paciente: ¿alergias?",
    "retour à ma patiente, son potassium ?",
])
def test_the_clinicians_own_patient_brings_the_question_back(text):
    assert brings_back(text)


@pytest.mark.parametrize("text", [
    "e ela, está voltando do raio-x?",
    "volvamos a la señora de la cama 2",
    "e a nossa enfermeira?",
    "et mon collègue ?",
])
def test_coming_back_alone_or_another_of_ours_does_not(text):
    assert not brings_back(text)


_GRACE_K = [{"role": "user", "content": "what's Grace Adeyemi's potassium?"},
            {"role": "assistant", "content": "I work in this chart only (Margaret Thompson) …"}]
_MARGARET = InContext(name="Margaret Thompson", id="pt-ckd-elder", mrn="MRN-100231")


@pytest.mark.parametrize("text", ["and Mrs Thompson's?", "Mrs Thompson's then",
                                  "sorry - Mrs Thompson's then", "ok Margaret Thompson's?"])
def test_her_own_name_after_another_patients_question_asks_it_of_her(text):
    again = referred_back(text, extract(text), _GRACE_K, _MARGARET)
    assert again is not None and "potassium" in again and "Adeyemi" not in again


@pytest.mark.parametrize(("text", "here"), [
    # another patient's name, a near name, or no chart in context: not brought back
    ("and Mrs Banda's?", _MARGARET),
    ("and Mrs Tompson's?", _MARGARET),
    ("and Mrs Thompson's?", InContext(name="Amara Nwosu", id="pt-pregnant")),
    ("and Mrs Thompson's?", None),
])
def test_another_name_a_near_name_or_no_chart_is_not_her(text, here):
    assert referred_back(text, extract(text), _GRACE_K, here) is None


# ------------------------------------------------------------------ a lab card's latest result
class _Gateway:
    def __init__(self, found: list[dict[str, Any]] | Exception):
        self.found, self.asked = found, []

    def search(self, resource_type, params=None, max_pages=5, **_):
        self.asked.append((resource_type, params))
        if isinstance(self.found, Exception):
            raise self.found
        return self.found


def _obs(value, unit, when="2026-10-05T09:00:00Z"):
    return {"resourceType": "Observation", "valueQuantity": {"value": value, "unit": unit},
            "effectiveDateTime": when}


@pytest.mark.parametrize(("found", "shown"), [
    ([_obs(3.4, "{INR}")], "3.4 (2026-10-05)"),
    ([_obs(5.6, "mmol/L", "2026-11-10T08:00:00Z")], "5.6 mmol/L (2026-11-10)"),
    ([_obs(38, "mL/min/{1.73_m2}")], "38 mL/min/{1.73_m2} (2026-10-05)"),
    # a newer result entered in error is never shown: the newest that holds one is
    ([{**_obs(9.9, "{INR}", "2026-11-01T09:00:00Z"), "status": "entered-in-error"},
      _obs(3.4, "{INR}")], "3.4 (2026-10-05)"),
    # none on file, a result with no value (a comment, a coded result): no line
    ([], None),
    ([{"resourceType": "Observation", "valueString": "haemolysed"}], None),
])
def test_a_lab_cards_latest_result(found, shown):
    gateway = _Gateway(found)
    ctx = ToolContext(patient_id="pt-warfarin", scopes=None, fhir=gateway)  # type: ignore[arg-type]
    assert latest_result(ctx, "6301-6") == shown
    assert gateway.asked[0][1]["code"] == "http://loinc.org|6301-6"
    assert gateway.asked[0][1]["_sort"] == "-date"


def test_a_chart_that_cannot_be_searched_drafts_the_card_without_it():
    gateway = _Gateway(errors.UpstreamError("down"))
    ctx = ToolContext(patient_id="pt-warfarin", scopes=None, fhir=gateway)  # type: ignore[arg-type]
    assert latest_result(ctx, "6301-6") is None


# ------------------------------------------------------------------ "and hers?" in a man's chart
@pytest.mark.parametrize(("text", "sex", "said"), [
    ("and hers?", "male", ("hers",)),
    ("what about hers then?", "male", ("hers",)),
    ("And his?", "female", ("his",)),
    ("e o dele?", "female", ("dele",)),
    ("e a dela?", "male", ("dela",)),
])
def test_a_bare_possessive_of_the_other_sex_is_someone_else(text, sex, said):
    assert pronoun_of_other_sex(text, sex) == said
    assert all(is_beside(w) for w in said)


@pytest.mark.parametrize(("text", "sex"), [
    # her own sex's pronoun: the follow-up rules decide, not this one
    ("and his?", "male"),
    ("e o dela?", "female"),
    # more than the pronoun ("his inr?", "is this hers?"), a word holding it ("this", "history"),
    # a chart with no sex said, French and Spanish possessives (no owner's sex)
    ("and his inr?", "female"),
    ("is this hers?", "male"),
    ("and this?", "female"),
    ("history?", "female"),
    ("and hers?", ""),
    ("et le sien ?", "male"),
    ("¿y el suyo?", "female"),
])
def test_her_own_pronoun_more_words_or_no_sex_is_not_read(text, sex):
    assert pronoun_of_other_sex(text, sex) == ()
