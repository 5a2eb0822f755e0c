"""The reading's named leftovers as general rules (pure, no HAPI): an order left open several
turns back is completed by a reply of its fields; a change by a factor of the pending dose; a
result judged against its own range, else a sourced adult interval, else none."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import clarification
from smart_docgemma.agent.amendments import _by_factor
from smart_docgemma.agent.extraction import extract
from smart_docgemma.agent.order_lines import asks_about_drug
from smart_docgemma.knowledge import reference_intervals
from smart_docgemma.knowledge.reference_intervals import Interval
from smart_docgemma.languages import fold
from smart_docgemma.tools.words.windows import asked

ASKED = ("To prepare the medication order (needs your approval), what frequency should I use?")


def _turns(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    out = []
    for user, assistant in pairs:
        out += [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
    return out


def test_an_order_asked_its_frequency_stays_open_while_the_chart_is_asked():
    history = _turns(("whats his inr", "Latest INR: 3.4"),
                     ("ok start fluconazole 150mg", ASKED),
                     ("any allergies?", "Allergies: none recorded."),
                     ("and his BP?", "Latest blood pressure: 140/80"))
    assert clarification.completed("just the one dose", history).startswith(
        "ok start fluconazole 150mg")
    said = clarification.completed("make it 200mg", history)
    assert "150" not in said and "200" in said  # the reply's dose is the order's


def test_an_order_line_answered_with_its_check_stays_open_too():
    history = _turns(("fluconazole 150 mg", "Patient safety check: CRITICAL …"),
                     ("INR ?", "Dernier INR : 3,4"))
    assert clarification.completed("plutôt 200 mg", history).startswith("fluconazole")


@pytest.mark.parametrize("between", [
    "start amoxicillin 500mg tds",  # another order since
    "what about Grace Adeyemi's INR?",  # someone else since
    "is ibuprofen ok for him?",  # another drug since
])
def test_another_request_since_closes_the_order_left_open(between):
    history = _turns(("start fluconazole 150mg", ASKED), (between, "…"))
    assert clarification.open_request(history) is None


@pytest.mark.parametrize("reply", ["INR?", "is that a lot?", "thanks", "what's her eGFR"])
def test_a_reply_that_gives_no_field_completes_nothing(reply):
    history = _turns(("start fluconazole 150mg", ASKED), ("any allergies?", "none"))
    assert "fluconazole" not in clarification.completed(reply, history)


@pytest.mark.parametrize(("said", "frequency"), [
    ("só uma dose", "dose unica"), ("uma só dose", "dose unica"),
    ("una sola dosis", "dosis unica"), ("solo una dosis", "dosis unica"),
    ("une seule dose", "dose unique"), ("juste une prise", "dose unique"),
])
def test_a_single_dose_in_every_language(said, frequency):
    dose = extract(said).dose
    assert dose is not None and dose.frequency == frequency


def test_an_opening_ok_agrees_and_asks_nothing():
    assert "give" not in extract("ok start fluconazole 150mg").actions
    assert "give" in extract("ok to start fluconazole 150mg").actions
    assert asks_about_drug(fold("je mets fluconazole 150 mg, ok ?").lower(), ["prescribe_drug"],
                           ["fluconazole"], True)


@pytest.mark.parametrize(("said", "dose"), [
    ("half that dose", "20 mg"), ("half of that", "20 mg"), ("twice that", "80 mg"),
    ("twice the dose", "80 mg"), ("la moitié", "20 mg"), ("a metade", "20 mg"),
    ("el doble", "80 mg"),
])
def test_a_factor_of_the_pending_dose(said, dose):
    assert _by_factor(fold(said).lower(), "40 mg") == dose


@pytest.mark.parametrize("said", ["double check the dose", "twice daily", "half past eight"])
def test_near_words_are_no_factor(said):
    assert _by_factor(fold(said).lower(), "40 mg") is None


@pytest.mark.parametrize("question", [
    "K? is that normal?", "creat? is that high?", "dfg ? c'est normal ?", "¿potasio? ¿está alto?",
    "sódio? está baixo?", "a1c? is that ok?", "kaliémie ? c'est trop ?", "K high?",
])
def test_a_result_judged(question):
    assert asked(question).judge


@pytest.mark.parametrize("question", [
    "highest K in 6 months", "lowest eGFR this year", "last 3 Ks", "K below 3.5 this week?",
    "creat since admission",
])
def test_near_words_judge_nothing(question):
    assert not asked(question).judge


def test_the_adult_interval_is_sourced_by_sex_and_one_sided_where_the_source_is():
    k = reference_intervals.adult("Potassium", "female")
    assert k is not None and (k.low, k.high) == (3.7, 5.2) and "MedlinePlus" in k.source
    assert k.place(5.6) == "above" and k.place(3.5) == "below" and k.place(4.4) == "within"
    creat_f, creat_m = (reference_intervals.adult("Creatinine", s) for s in ("female", "male"))
    assert creat_f and creat_m and creat_f.place(1.2) == "above" and creat_m.place(1.2) == "within"
    assert reference_intervals.adult("Creatinine", None) is None  # by sex, the sex unknown
    a1c = reference_intervals.adult("HbA1c", "male")
    assert a1c and a1c.place(5.7) == "above" and a1c.place(5.6) == "within"
    assert a1c.text() == "< 5.7"
    egfr = reference_intervals.adult("eGFR", "female")
    assert egfr and egfr.place(38) == "below" and egfr.text() == "≥ 60"
    assert reference_intervals.adult("INR", "male") is None  # a target, not a reference range
    assert reference_intervals.adult("Body weight", "male") is None


def test_the_results_own_range_and_flag_come_as_written():
    own = reference_intervals.own_range([{"low": {"value": 3.5, "unit": "mmol/L"},
                                          "high": {"value": 5.1, "unit": "mmol/L"}}])
    assert own == Interval(3.5, 5.1, "mmol/L")
    assert reference_intervals.own_range([{"text": "see report"}]) is None
    assert reference_intervals.flag_of([{"coding": [{"code": "H", "display": "High"}]}]) == "High"
    assert reference_intervals.flag_of([]) is None


@pytest.mark.parametrize(("question", "names"), [
    ("K, Na, creat", ["Potassium", "Sodium", "Creatinine"]),
    ("kaliémie, natrémie et créat ?", ["Potassium", "Sodium", "Creatinine"]),
    ("potássio, sódio e creatinina?", ["Potassium", "Sodium", "Creatinine"]),
    ("¿hba1c, filtrado y colesterol?", ["HbA1c", "eGFR", "Cholesterol"]),
    ("inr + hb?", ["INR", "Hemoglobin"]),
    ("latest finger-prick glucose", ["Capillary glucose"]),  # the narrower, not its family too
    ("albumin creatinine ratio?", ["Urine albumin/creatinine"]),  # the longer reading
])
def test_every_result_named_in_the_order_written(question, names):
    from smart_docgemma.knowledge import analytes

    assert [a.name for a in analytes.all_named_in(question)] == names


@pytest.mark.parametrize("question", [
    "vitamin k, iron", "give vit k and hold warfarin", "ela está na UTI", "na semana passada",
])
def test_near_words_name_no_result(question):
    from smart_docgemma.knowledge import analytes

    assert analytes.all_named_in(question) == ()


def test_a_panel_asked_is_each_of_its_results_and_an_order_is_no_question():
    from smart_docgemma.agent import extraction

    said = extraction.read("u&e + lfts?")
    assert {"Sodium", "Potassium", "Creatinine", "ALT"} <= set(said.window.analytes)
    assert "chart_question" in said.entities.actions
    for order in ("K, Na, creat tomorrow am", "NFS + iono demain à 7h"):
        assert extraction.read(order).window.analytes == ()
    assert extraction.read("K?").window.analytes == ()  # one result: its own answer


@pytest.mark.parametrize("question", [
    "creat since admission", "K this admission?", "créat depuis l'admission ?",
    "¿creatinina desde el ingreso?", "potássio desde a admissão", "INRs during this admission",
])
def test_since_admission_is_a_window(question):
    assert asked(question).window == "admission"


@pytest.mark.parametrize("question", ["admission date?", "creat on discharge", "K x3"])
def test_near_words_are_no_admission_window(question):
    assert asked(question).window != "admission"


def _enc(status: str, start: str, end: str = "", admission: str | None = None):
    from smart_docgemma.tools.chart.chartdata import ChartEncounter

    return ChartEncounter(date=start, end=end, type="", reason="", status=status,
                          admission=admission, ref=f"Encounter/{start}")


def test_the_stay_in_progress_gives_the_window_and_none_says_so():
    from datetime import UTC, datetime

    from smart_docgemma.tools.chart import admission
    from smart_docgemma.tools.chart.chartdata import ChartData, ChartPatient
    from smart_docgemma.tools.words.windows import Asked

    now = datetime(2026, 12, 5, 12, tzinfo=UTC)
    stay = _enc("in-progress", "2026-12-03", admission="inpatient")
    d = ChartData(patient=ChartPatient("p"), encounters=(
        _enc("finished", "2026-11-10", "2026-11-10"), _enc("in-progress", "2026-12-04"), stay))
    assert admission.current(d.encounters) == stay  # the admission before a clinic visit
    window, said = admission.resolved(Asked(window="admission"), d, now)
    assert window.window == "60h" and "2026-12-03" in said
    none = ChartData(patient=ChartPatient("p"), encounters=(_enc("finished", "2026-11-10", "x"),))
    window, said = admission.resolved(Asked(window="admission"), none, now)
    assert window.window is None and "No admission is in progress" in said
    failed = ChartData(patient=ChartPatient("p"), unavailable={"encounters": "HTTP 500"})
    window, said = admission.resolved(Asked(window="admission"), failed, now)
    assert window.window is None and "could not be read" in said
    assert admission.resolved(Asked(window="24h"), d, now) == (Asked(window="24h"), "")


@pytest.mark.parametrize(("question", "focus"), [
    ("when was his last eye check", "procedure:eye_exam"),
    ("dernier fond d'oeil ?", "procedure:eye_exam"),
    ("¿cuándo fue su última colonoscopia?", "procedure:colonoscopy"),
    ("última mamografia?", "procedure:mammography"),
    ("has he had a foot check recently?", "procedure:foot_exam"),
])
def test_a_procedure_asked_by_when_it_was_last_done(question, focus):
    from smart_docgemma.tools.chart.answers import focus_of

    assert focus_of(question) == focus


@pytest.mark.parametrize("question", ["eye drops?", "footnote", "K?", "check his feet for oedema"])
def test_near_words_ask_no_procedure(question):
    from smart_docgemma.tools.chart.answers import focus_of

    assert not (focus_of(question) or "").startswith("procedure:")


def test_the_last_procedure_found_or_what_was_searched_or_what_failed():
    from smart_docgemma.tools.chart import procedures

    eye = {"resourceType": "Procedure", "id": "p1", "status": "completed",
           "code": {"text": "Examination of retina"}, "performedDateTime": "2025-03-02"}
    scope = {"resourceType": "Procedure", "id": "p2", "status": "completed",
             "code": {"text": "Colonoscopy"}, "performedDateTime": "2024-01-01"}
    said = procedures.answer("procedure:eye_exam", {"procedures": [eye, scope]}, {})
    assert "2025-03-02" in said and "Procedure/p1" in said
    none = procedures.answer("procedure:eye_exam", {"procedures": [scope], "encounters": []}, {})
    assert none.startswith("No eye examination") and "1 procedures" in none
    half = procedures.answer("procedure:eye_exam", {"encounters": []},
                             {"procedures": "access not granted"})
    assert "not a full answer" in half and "access not granted" in half
    failed = procedures.answer("procedure:eye_exam", {},
                               {"procedures": "HTTP 500", "encounters": "HTTP 500"})
    assert failed.startswith("Not known")


@pytest.mark.parametrize("said", [
    "insulin sliding scale?", "can you write him up for a sliding scale",
    "protocole d'insuline selon dextro ?", "escala de insulina conforme glicemia?",
    "pauta móvil de insulina",
])
def test_an_insulin_scale_asked_is_answered_with_what_can_be_done(said):
    from smart_docgemma.agent.nodes import _asks_insulin_scale

    assert _asks_insulin_scale(said)


@pytest.mark.parametrize("said", ["insulin glargine 10 units nocte", "is he on insulin?",
                                  "pain scale 7/10", "escala de dor"])
def test_near_words_ask_no_insulin_scale(said):
    from smart_docgemma.agent.nodes import _asks_insulin_scale

    assert not _asks_insulin_scale(said)


def test_her_initial_is_hers_and_monsieur_is_french():
    from smart_docgemma.agent.extraction import written_in_french
    from smart_docgemma.reading.subject import InContext, titled_of_other_sex

    here = InContext(id="pt-ckd-elder", name="Margaret Thompson", born="1943-05-12")
    assert titled_of_other_sex("M. Thompson K?", here, "female", french=False) == ()
    assert titled_of_other_sex("M. Thompson, il a eu sa kaliémie ?", here, "female",
                               french=True) == ("M. Thompson",)
    assert titled_of_other_sex("Mr Thompson K?", here, "female", french=False) == ("Mr Thompson",)
    assert written_in_french("M. Thompson prend-il de l'amlodipine ?")
    assert not written_in_french("is M. Thompson on amlodipine?")


@pytest.mark.parametrize(("said", "name", "born"), [
    ("Okoro Samuel F.N. 03-11-1962 última hba1c", "Okoro Samuel", "1962-11-03"),
    ("Samuel Okoro D.N. 03/11/1962 - alergias?", "Samuel Okoro", "1962-11-03"),
    ("Okoro Samuel F.N. 03-11-1965 hba1c?", "Okoro Samuel", "1965-11-03"),
])
def test_a_dotted_birth_word_is_no_initial(said, name, born):
    found = extract(said)
    assert found.patient_names == (name,) and found.birth_dates == (born,)


def test_a_drugs_target_comes_before_the_adult_interval():
    from smart_docgemma.knowledge import analytes
    from smart_docgemma.tools.chart.chartdata import ChartPoint, ChartSeries
    from smart_docgemma.tools.chart.ranges import placed

    inr = analytes.analyte("INR")
    point = ChartPoint("2026-10-05", 3.4, "Observation/i")
    series = ChartSeries("6301-6", "INR", "{INR}", 1, "", point, (point,))
    on_warfarin = placed(series, inr, "male", "warfarin sodium 5 mg oral tablet")
    assert "above the target for a patient on warfarin, 2–3" in on_warfarin
    assert "No reference range is known" in placed(series, inr, "male", "aspirin 81 mg")
