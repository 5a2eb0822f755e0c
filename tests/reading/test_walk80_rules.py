"""Rules from the eighteenth stop's walk 80 (fixture charts, no model): a given name typed in lower
case that an order or chart question is for ("check inr for grace tomorrow"), her own name after
"for" dropped with its preposition so what is asked reads as for her ("check K for Samuel"), a
low glucose told for its plan, a kind of drug asked of her list ("is she on insulin?"), a fever
or a kidney injury asked as a whole; each with the near words that must not trigger it."""
from __future__ import annotations

import pytest
from smart_docgemma.agent import drug_follow_ups, ward_amendments
from smart_docgemma.agent.extraction import extract, read
from smart_docgemma.agent.ward_requests import workflow_actions, workflow_of
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.languages import fold
from smart_docgemma.reading.kind_asked import kind_asked
from smart_docgemma.reading.lower_names import (
    order_object_people,
    ordered_for_lower,
    placed_people,
)
from smart_docgemma.reading.people import leading_people
from smart_docgemma.reading.subject import as_the_patient, is_own_name
from smart_docgemma.reading.unknown_words import leading_lower_name
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.chart.answers import focus_of
from smart_docgemma.tools.chart.in_context import InContext
from smart_docgemma.tools.writes import plans
from smart_docgemma.tools.writes.dose_change import orders_of


@pytest.mark.parametrize(("said", "drugs", "who"), [
    ("check inr for grace tomorrow", set(), "grace"),   # a given name that is also a word
    ("check k for samuel", set(), "samuel"),            # a census name the lists hold
    ("paracetamol 1g for kwame pls", {"paracetamol"}, "kwame"),  # no word of any list
    ("bloods for fatou tmrw", set(), "fatou"),
    ("potasio para samuel por favor", set(), "samuel"),
    ("fbc for esther in am", set(), "esther"),
])
def test_a_lower_case_name_an_order_is_for_is_a_person(said, drugs, who):
    assert ordered_for_lower(said, drugs) == [who]


@pytest.mark.parametrize(("said", "drugs"), [
    ("morphine 2.5mg for comfort", {"morphine"}),      # what it is given for
    ("oxycodone 5mg for breakthrough", {"oxycodone"}),
    ("atropine for brady", {"atropine"}),
    ("paracetamol for pain", {"paracetamol"}),
    ("senna for constipation", {"senna"}),
    ("give augmentin for chest infection", {"augmentin"}),  # not the order's end
    ("check inr for now", set()),
    ("fbc for tomorrow", set()),
    ("inr for him tomorrow", set()),
    ("fbc for ward round", set()),
    ("warfarin for af", {"warfarin"}),
    ("order fbc for mark", set()),                     # a name the lists use as a word first
    ("refer to cardiology for svt", set()),
    ("transfert pour lyon", set()),                    # no order before it
])
def test_what_an_order_is_for_is_no_person(said, drugs):
    assert ordered_for_lower(said, drugs) == []


def test_the_person_read_reaches_the_names_of_the_message():
    assert "grace" in extract("check inr for grace tomorrow").patient_names


@pytest.mark.parametrize("said", ["check K for Samuel", "check k for samuel",
                                  "K for Samuel please", "check the K for samuel"])
def test_her_own_name_after_for_leaves_her_question(said):
    here = InContext(id="pt-t2dm", name="Samuel Okoro")
    assert focus_of(as_the_patient(said, here)) == "lab:Potassium"


def test_another_name_after_for_stays():
    here = InContext(id="pt-t2dm", name="Samuel Okoro")
    assert "Grace" in as_the_patient("check K for Grace", here)


# ---------------------------------------------------------------- a low glucose told for its plan
@pytest.mark.parametrize(("said", "value", "unit"), [
    ("glucose 2.9 - hypo protocol?", 2.9, None),
    ("glicemia 50 agora, o que faço?", 50.0, None),
    ("glycémie 0,45 g/l, que faire ?", 0.45, "g/L"),
    ("BM 3.4!", 3.4, None),
    ("sugar 3.1 what should I do", 3.1, None),
    ("glucemia 2,8 mmol/l, qué hago?", 2.8, "mmol/L"),
])
def test_a_low_glucose_told_asks_its_plan(said, value, unit):
    flow = workflow_of(said)
    assert flow.problem == "low_glucose" and flow.stated_value == value
    assert flow.stated_unit == unit
    assert "plan" in workflow_actions(fold(said).lower(), flow)


@pytest.mark.parametrize("said", [
    "hypos this month?",               # a window of results asked
    "glucose trend?",
    "lowest glucose this month?",
    "glucose 5.4 this am",             # told, no plan asked, no alarm
])
def test_a_glucose_asked_of_the_chart_plans_nothing(said):
    flow = workflow_of(said)
    assert "plan" not in workflow_actions(fold(said).lower(), flow)


@pytest.mark.parametrize(("value", "unit", "expected"), [
    (2.9, None, (52.2, "2.9 mmol/L = 52.2 mg/dL")),   # under 35: mmol/L
    (0.45, None, (45.0, "0.45 g/L = 45 mg/dL")),      # under 1: grams per litre
    (50.0, None, (50.0, "")),                         # mg/dL as told
    (1.2, "g/L", (120.0, "1.2 g/L = 120 mg/dL")),     # the unit said decides
])
def test_the_glucose_told_is_read_in_its_unit(value, unit, expected):
    assert plans.stated(plans.table()["low_glucose"], value, unit) == expected


def test_a_low_plan_is_past_its_threshold_below_it():
    low, high = plans.table()["low_glucose"], plans.table()["high_potassium"]
    assert plans.beyond(low, 52) and not plans.beyond(low, 70)
    assert plans.beyond(high, 5.6) and not plans.beyond(high, 5.4)


def test_a_glucose_told_beside_tests_ordered_still_orders_them():
    ward = read_ward("K 3.3, FBC + U&E in am")
    assert ward.tests


# ---------------------------------------------------------------- a kind of drug asked of her list
@pytest.mark.parametrize(("said", "cls", "drug"), [
    ("is he on a statin?", "statin", None),
    ("is she on insulin?", "insulin", None),
    ("her insulin?", "insulin", None),
    ("is he on a blood thinner?", "anticoagulant", None),
    ("on any blood thinners?", "anticoagulant", None),
    ("is she on an ace-i?", "ace_inhibitor", None),
    ("is she on any water tablets", "diuretic", None),
    ("est-elle sous statine ?", "statin", None),
    ("ela toma anticoagulante?", "anticoagulant", None),
    ("¿toma insulina?", "insulin", None),
    ("is he on warfarin?", None, "warfarin"),
])
def test_a_kind_asked_of_her_list_is_read(said, cls, drug):
    kind = kind_asked(said)
    assert kind is not None and (kind.cls, kind.drug) == (cls, drug)


@pytest.mark.parametrize("said", [
    "her k?", "her weight?", "her allergies?", "her meds?", "is he on oxygen?",
    "is she on a diet?", "is he on the ward?", "can she have insulin?",
    "start insulin glargine 10 units nocte",
])
def test_what_is_no_kind_of_her_list_is_not(said):
    assert kind_asked(said) is None


def test_the_kind_says_which_of_her_drugs_are_of_it():
    kind = kind_asked("is she on a statin?")
    assert kind is not None and kind.of("atorvastatin") and not kind.of("aspirin")


@pytest.mark.parametrize("said", ["is she on insulin?", "her insulin?", "is he on a statin?",
                                  "is he on a blood thinner?"])
def test_a_kind_asked_is_her_chart_question(said):
    assert "chart_question" in extract(said).actions


# ---------------------------------------------------------------- fever and kidney asked whole
@pytest.mark.parametrize("said", ["is he spiking?", "still spiking?", "is she febrile?",
                                  "does he have a fever?", "il fait de la fièvre ?",
                                  "está com febre?", "¿tiene fiebre?"])
def test_a_fever_asked_as_a_whole_is_her_temperatures(said):
    assert focus_of(said) == "lab:Temperature"


@pytest.mark.parametrize("said", ["aki?", "is she in aki?", "any AKI?", "acute kidney injury?",
                                  "insuffisance rénale aiguë ?", "lesão renal aguda?",
                                  "¿tiene lesión renal aguda?"])
def test_a_kidney_injury_asked_is_her_creatinine(said):
    assert focus_of(said) == "lab:Creatinine"


@pytest.mark.parametrize("said", ["what is aki?", "fever?", "spiking temps and pulse"])
def test_a_definition_or_another_sign_is_not(said):
    assert focus_of(said) not in ("lab:Creatinine", "lab:Temperature")


@pytest.mark.parametrize(("said", "cls"), [("any blood thinners?", "anticoagulant"),
                                           ("any statins on board?", "statin"),
                                           ("any abx?", "antibacterial")])
def test_a_class_after_any_is_asked_of_her_list(said, cls):
    kind = kind_asked(said)
    assert kind is not None and kind.cls == cls


@pytest.mark.parametrize("said", ["any aspirin?", "any allergies?", "any fevers?"])
def test_a_drug_or_another_thing_after_any_is_not(said):
    assert kind_asked(said) is None


# ---------------------------------------------------------------- a class stopped or changed
def _order(text: str, id_: str) -> dict:
    return {"id": id_, "medicationCodeableConcept": {"text": text}}


ACTIVE = [_order("lisinopril 10 MG Oral Tablet", "m1"), _order("amlodipine 5 MG Oral Tablet", "m2")]


@pytest.mark.parametrize("said", ["ACE inhibitor", "lisinopril"])
def test_the_order_of_a_class_said_is_hers_of_that_class(said):
    assert [m["id"] for m in orders_of(said, ACTIVE)] == ["m1"]


def test_a_class_she_takes_none_of_finds_no_order():
    assert orders_of("statin", ACTIVE) == []


@pytest.mark.parametrize(("said", "name"), [("stop the ace-i, creat going up", "ACE inhibitor")])
def test_the_ward_shorthand_of_a_class_is_the_class(said, name):
    assert name in extract(said).drugs


# ---------------------------------------------------------------- walk 81
@pytest.mark.parametrize("said", ["how many weeks is she?", "how far along is she?", "gestation?",
                                  "combien de semaines ?", "de quantas semanas ela está?",
                                  "¿de cuántas semanas está?", "quantas semanas de gravidez?",
                                  "elle est enceinte de combien ?",
                                  "ela está grávida de quantas semanas?"])
def test_how_far_along_she_is_asks_her_pregnancy(said):
    assert focus_of(said) == "pregnancy"


@pytest.mark.parametrize("said", ["how many weeks of amoxicillin?", "cuantas semanas de amoxicilina?",
                                  "combien de semaines de traitement ?"])
def test_weeks_of_a_course_are_no_pregnancy(said):
    assert focus_of(said) != "pregnancy"


def test_a_possessive_is_no_part_of_a_lower_case_name():
    assert leading_people("samuel okafor's a1c?") == ["samuel okafor"]


@pytest.mark.parametrize("said", ["BP 88/52 HR 118 just now, what should I do?",
                                  "TA 9/5, FC 120 - que faire ?",
                                  "sats 88% rr 28 just now - what now"])
def test_readings_told_with_a_plan_asked_chart_nothing(said):
    assert "record_vital" not in extract(said).actions


@pytest.mark.parametrize("said", ["BP 88/52 HR 118 just now, pls record", "TA 9/5, FC 120",
                                  "sats 88% rr 28 at 0600"])
def test_readings_told_to_chart_still_chart(said):
    assert "record_vital" in extract(said).actions


@pytest.mark.parametrize("said", ["contrast CT tomorrow - anything with his meds?",
                                  "contrast enhanced ct abdo", "CT contrast on monday"])
def test_a_scan_named_by_its_contrast_gives_the_contrast(said):
    assert "iodinated contrast" in extract(said).drugs


@pytest.mark.parametrize("said", ["the contrast is poor on this image", "in contrast, her bp is ok"])
def test_contrast_as_a_word_is_no_drug(said):
    assert "iodinated contrast" not in extract(said).drugs


# ---------------------------------------------------------------- walk 83: a day alone moves a lab
def _inr_card(when: str) -> PendingCard:
    return PendingCard(proposal_id="p1", tool="order_lab_test", kind="lab_order",
                       title="Order inr", request={"test": "inr", "when": when}, edited=False)


@pytest.mark.parametrize(("said", "drafted", "when"), [
    ("no, Thursday", "tomorrow", "thursday"),
    ("make it thursday", "tomorrow", "thursday"),
    ("thursday instead", "tomorrow", "thursday"),
    ("non, jeudi", "demain", "jeudi"),
    ("não, na quinta", "amanhã", "quinta"),
    ("thursday", "tomorrow 6am", "thursday 6am"),      # the card's clock kept
])
def test_a_day_alone_after_a_lab_card_moves_it(said, drafted, when):
    call = ward_amendments.changed_card(read(said), _inr_card(drafted), "pt-1")
    assert call is not None and when in fold(call.args["when"]).lower()


@pytest.mark.parametrize("said", ["no", "no, stop", "thursday's INR was fine?", "and an FBC"])
def test_what_is_no_day_moves_nothing(said):
    assert ward_amendments.changed_card(read(said), _inr_card("tomorrow"), "pt-1") is None


@pytest.mark.parametrize("said", ["what strength syrup?", "which suspension?", "quel sirop ?",
                                  "qual xarope?", "¿qué jarabe?"])
def test_the_liquid_asked_is_the_volume_question(said):
    assert drug_follow_ups.asked(said, extract(said)) == "ml"


@pytest.mark.parametrize("said", ["what strength is her amlodipine?", "cough syrup ok?"])
def test_a_strength_of_a_drug_named_or_a_product_is_not(said):
    assert drug_follow_ups.asked(said, extract(said)) != "ml"


@pytest.mark.parametrize("said", [
    "Plan prednisolone 30mg od for 5 days then stop, and recheck his sugars.",
    "hypotension - plan?", "sugars plan for discharge?",
])
def test_glucose_words_with_no_value_and_no_hypo_plan_no_low_glucose(said):
    assert workflow_of(said).problem != "low_glucose"


@pytest.mark.parametrize("said", ["hypo protocol?", "hypoglycaemia plan?", "protocolo de hipoglicemia?"])
def test_a_hypo_named_with_no_value_asks_its_plan(said):
    assert workflow_of(said).problem == "low_glucose"


def test_her_own_name_after_the_drug_leaves_it_discussed():
    from smart_docgemma.agent import clarification
    here = InContext(id="pt-child", name="Kofi Asante")
    history = [{"role": "user", "content": "paracetamol dose for kofi?"}]
    assert clarification.drug_discussed(history, here) == "paracetamol"
    assert clarification.drug_discussed(history, InContext(id="x", name="Grace Adeyemi")) is None


# ---------------------------------------------------------------- walk 85: who it is about
@pytest.mark.parametrize(("said", "who"), [("okafor a1c", "okafor"), ("mensah - inr?", "mensah"),
                                           ("okoro k?", "okoro")])
def test_one_lower_case_surname_opening_a_chart_question_is_a_person(said, who):
    assert leading_lower_name(said) == [who]


@pytest.mark.parametrize("said", ["creat a1c", "bloods tomorrow", "trop a1c", "ward round k?",
                                  "metformin dose?", "okafor 5.2", "vanc trough?", "nkda allergies?"])
def test_a_clinical_word_opening_a_question_is_no_person(said):
    assert leading_lower_name(said) == []


def test_a_lower_case_surname_not_hers_is_refused_and_hers_answered():
    okoro = InContext(id="pt-t2dm", name="Samuel Okoro")
    assert "okafor" in extract("okafor a1c").patient_names
    assert is_own_name("okoro", okoro) and not is_own_name("okafor", okoro)


@pytest.mark.parametrize("said", ["what about mr thompson's potassium?", "samuel okafor's a1c?"])
def test_no_name_read_keeps_its_possessive(said):
    assert not any(n.endswith("'s") for n in extract(said).patient_names)


@pytest.mark.parametrize("said", ["give me his inr", "dob 30/09/1950, confirm and give me his inr",
                                  "can you give me the latest k"])
def test_give_me_asks_to_be_told_and_orders_nothing(said):
    actions = extract(said).actions
    assert "administer" not in actions and "chart_question" in actions


@pytest.mark.parametrize("said", ["give 40mg furosemide stat", "give him paracetamol 1g"])
def test_give_with_a_drug_and_dose_still_orders(said):
    assert "administer" in extract(said).actions


@pytest.mark.parametrize("said", ["her potassium?", "her ferritin?", "her magnesium?",
                                  "her sodium?", "her calcium?"])
def test_a_result_after_her_possessive_is_no_kind_of_her_list(said):
    assert kind_asked(said) is None


def test_a_blood_thinner_is_an_anticoagulant_or_an_antiplatelet():
    kind = kind_asked("pt on any blood thinners?")
    assert kind is not None and kind.of("clopidogrel") and kind.of("warfarin")
    assert not kind.of("metformin")
    assert "blood thinners" not in " ".join(extract("pt on any blood thinners?").drugs)


# ---------------------------------------------------------------- walk 86: an order and a referral
@pytest.mark.parametrize("said", ["amoxicillin 250mg tds x5d and refer to ENT",
                                  "amlodipine 10mg od and refer to nephrology"])
def test_an_order_line_then_a_referral_are_both_read(said):
    actions = extract(said).actions
    assert "order_line" in actions and "refer" in actions


@pytest.mark.parametrize("said", ["refer to cardiology for amiodarone review",
                                  "refer to renal re her lisinopril 10 od"])
def test_a_drug_inside_a_referral_orders_nothing(said):
    assert "order_line" not in extract(said).actions


# ---------------------------------------------------------------- walk 87: the one it is given to
@pytest.mark.parametrize(("said", "drugs", "who"), [
    ("refer samuel to diabetes clinic", set(), "samuel"),
    ("start Samuel on metformin 500 bd", {"metformin"}, "Samuel"),
    ("give kwame paracetamol 1g", {"paracetamol"}, "kwame"),
    ("refer Grace to ortho", set(), "Grace"),
    ("encaminha o José para a cardio", set(), "Jose"),
    ("take samuel off his metformin", {"metformin"}, "samuel"),
    ("wean esther off the oxycodone", {"oxycodone"}, "esther"),
])
def test_the_object_of_an_order_verb_is_a_person(said, drugs, who):
    assert order_object_people(said, drugs) == [who]


@pytest.mark.parametrize(("said", "drugs"), [
    ("start metformin on monday", {"metformin"}), ("send bloods to lab", set()),
    ("refer him to cardiology", set()), ("give paracetamol for pain", {"paracetamol"}),
    ("start patient on ramipril", {"ramipril"}), ("book echo for tomorrow", set()),
    ("refer back to gp", set()), ("give baby some calpol", {"calpol"}),
    ("give mum a leaflet", set()), ("transfer pt to icu", set()),
    ("take him off the aspirin", {"aspirin"}), ("take off the dressing", set()),
    ("wean off oxygen", set()),
])
def test_what_an_order_verb_acts_on_is_no_person(said, drugs):
    assert order_object_people(said, drugs) == []


@pytest.mark.parametrize(("said", "who"), [("same for kofi", "kofi"), ("and for margaret?", "margaret"),
                                           ("pareil pour Awa", "Awa"), ("lo mismo para Carmen", "Carmen")])
def test_the_request_made_again_for_someone_names_them(said, who):
    assert who in extract(said).patient_names


@pytest.mark.parametrize("said", ["and for him?", "same for tomorrow", "and for pain?"])
def test_the_request_made_again_for_her_or_a_time_names_no_one(said):
    assert extract(said).patient_names == ()


# ---------------------------------------------------------------- the floors after the merges
@pytest.mark.parametrize("said", ["repásame su tratamiento completo", "pásame el potasio"])
def test_an_imperative_with_its_pronoun_opening_a_question_is_no_name(said):
    assert leading_lower_name(said) == []


def test_a_contraction_opening_a_question_is_no_given_name():
    assert leading_people("what's kofi's weight") == []


# ---------------------------------------------------------------- walk 88
@pytest.mark.parametrize(("said", "who"), [("u&e for agnes tmrw", "agnes"),
                                           ("U&E for Agnes tomorrow", "Agnes")])
def test_a_test_written_with_an_ampersand_is_ordered_for_the_one_named(said, who):
    assert who in extract(said).patient_names


@pytest.mark.parametrize(("said", "focus"), [("is the little one febrile?", "lab:Temperature"),
                                             ("AKI on CKD?", "lab:Creatinine"),
                                             ("what gestation is she?", "pregnancy")])
def test_more_wordings_asked_whole(said, focus):
    assert focus_of(said) == focus


@pytest.mark.parametrize(("said", "problem", "value"), [("sugar's 14 - plan?", "low_glucose", 14.0),
                                                       ("K's 6.1 - plan?", "high_potassium", 6.1)])
def test_a_value_told_after_a_contracted_is_is_stated(said, problem, value):
    flow = workflow_of(said)
    assert (flow.problem, flow.stated_value) == (problem, value)


# ---------------------------------------------------------------- walk 90: a name where a patient stands
@pytest.mark.parametrize(("said", "who"), [
    ("tom needs his inr checked tomorrow", "tom"), ("grace needs amoxicillin 500 tds", "grace"),
    ("mary is on warfarin too - inr?", "mary"), ("does tom have any allergies", "tom"),
    ("can tom have ibuprofen", "tom"), ("re: tom - fbc pls", "tom"), ("tom: fbc, u&e tmrw", "tom"),
    ("tom's bp is 180/100", "tom"), ("is tom's inr in range?", "tom"),
])
def test_a_given_name_where_a_patient_stands_is_a_person(said, who):
    assert placed_people(said) == [who]


@pytest.mark.parametrize("said", [
    "she needs amoxicillin", "this is urgent", "today's k?", "patient's inr", "potassium: 5.2",
    "bp: 120/80", "plan: stop aspirin", "will need inr", "inr - 3.4", "k - 5.9", "mum's question",
    "can she have ibuprofen", "wife's meds", "doctor's note", "june's clinic", "hx: asthma",
    "meds: aspirin", "allergies: nkda", "sugar's 14", "k's 6.1", "aki - creat up",
])
def test_a_word_where_a_patient_stands_is_no_person(said):
    assert placed_people(said) == []


@pytest.mark.parametrize(("said", "who"), [("temp 38.5 for tom, please record", "tom")])
def test_the_one_a_reading_is_for_before_the_charting_asked(said, who):
    assert who in extract(said).patient_names


# ---------------------------------------------------------------- walk 91: the same in fr/pt/es
@pytest.mark.parametrize(("said", "who"), [
    ("maria precisa de um INR amanhã", "maria"), ("juan necesita amoxicilina 500 cada 8 horas", "juan"),
    ("pierre a besoin d'une NFS demain", "pierre"), ("o joão tem alergia?", "joao"),
    ("¿ana puede tomar ibuprofeno?", "ana"), ("ana: hemograma mañana", "ana"),
    ("est-ce que marie peut prendre de l'ibuprofène ?", "marie"), ("John - k?", "John"),
    ("le INR de paul ?", "paul"), ("o INR do zé?", "ze"), ("el INR de pepe", "pepe"),
])
def test_a_given_name_where_a_patient_stands_in_four_languages(said, who):
    assert placed_people(said) == [who]


@pytest.mark.parametrize("said", [
    "ela precisa de um INR", "il a besoin d'une NFS", "o paciente tem alergia?",
    "la tension de la patiente ?", "o INR do paciente?", "el INR de hoy", "le INR de ce matin ?",
    "el potasio de ayer", "la dose de paracetamol ?", "ANA: positive", "max: 4 g a day",
])
def test_a_word_where_a_patient_stands_in_four_languages_is_no_person(said):
    assert placed_people(said) == []


@pytest.mark.parametrize("said", ["St John's wort with warfarin?", "san juan's drops"])
def test_a_drug_named_after_a_saint_is_no_person_where_a_patient_stands(said):
    assert placed_people(said) == []


@pytest.mark.parametrize("said", ["interconsulta a traumatología por dolor de muñeca",
                                  "dor de cabeça", "fratura do rádio"])
def test_a_word_after_de_that_asks_no_result_is_no_owner(said):
    assert placed_people(said) == []


@pytest.mark.parametrize("said", ["el nene tiene fiebre le doy aspirina o q",
                                  "o miúdo tem febre, paracetamol 15 mg/kg de 6/6h",
                                  "la doña está preñada, ¿le doy naproxeno?",
                                  "la abuelita puede tomar ibuprofeno pa la rodilla?",
                                  "o kota está com dores, dou-lhe Brufen?"])
def test_the_peoples_words_where_a_patient_stands_are_her(said):
    assert placed_people(said) == []
