"""probe22_en's rules, each with near words that must not trigger: the first card chosen back in
a choosing verb; the pending lab orders' tests again at a new time; tests ordered beside an ECG;
the patient's weeks of pregnancy and the ward's breastfeeding shorthand; what she is due for;
the discharge written up; a reconciliation asked of her list; a test wanted "rechecked" with a
day ahead; the kidney dose within its band said on the card and never carded alone in CDS."""
from __future__ import annotations

from datetime import date

import pytest
import smart_docgemma.knowledge as k
from smart_docgemma.agent import card_picks, ward_amendments
from smart_docgemma.agent.extraction import read
from smart_docgemma.approval.types import PendingCard
from smart_docgemma.reading.states import said_in
from smart_docgemma.reading.ward import read_ward
from smart_docgemma.tools.writes.drafts import request_kind


@pytest.mark.parametrize("said", [
    "no, go with the first one", "stick with the original", "let's go with the first one please",
    "fica com o primeiro", "me quedo con el primero", "non, on garde le premier", "use the first one",
])
def test_the_first_card_chosen_back(said):
    assert card_picks.points_at_other(said)


@pytest.mark.parametrize("said", [
    "go with amoxicillin", "take the first dose now", "the first one is fine but make it bd",
    "use the first one's dose for the second", "stick with the plan",
])
def test_near_words_choose_no_card(said):
    assert not card_picks.points_at_other(said)


def _lab_card(test: str = "basic metabolic panel", when: str = "tomorrow 8am") -> PendingCard:
    return PendingCard(proposal_id="p1", tool="order_lab_test", kind="lab_order", title=test,
                       request={"test": test, "when": when}, edited=False)


@pytest.mark.parametrize("said, at", [
    ("same again on friday", "friday 8am"), ("repeat it in 3 days", "in 3 days"),
    ("otra vez el lunes", "lunes 8am"), ("de novo na segunda às 7h", "na segunda as 7h"),
    ("encore une fois vendredi", "vendredi 8am"),
])
def test_the_pending_tests_again_at_a_new_time(said, at):
    call = ward_amendments.repeated_lab_orders(read(said), [_lab_card()], "pt-1")
    assert call is not None and call.args["when"] == at
    assert call.args["test"] == "basic metabolic panel"


@pytest.mark.parametrize("said", [
    "same again but 6am", "actually friday", "again?", "repeat the INR on friday",
    "same again for Robert Mensah on friday", "again please",
])
def test_near_words_order_nothing_again(said):
    assert ward_amendments.repeated_lab_orders(read(said), [_lab_card()], "pt-1") is None


def test_a_medication_card_is_never_repeated_as_a_test():
    card = PendingCard(proposal_id="p1", tool="prescribe_medication", kind="medication",
                       title="gliclazide", request={}, edited=False)
    assert ward_amendments.repeated_lab_orders(read("same again on friday"), [card], "p") is None


@pytest.mark.parametrize("said", ["ECG and trop please", "12 lead ECG and a troponin",
                                  "trop + ECG stat"])
def test_tests_beside_an_ecg_are_ordered(said):
    entities = read(said).entities
    assert "order_lab" in entities.actions and "ECG orders" in entities.unsupported


@pytest.mark.parametrize("said", ["ECG and trop normal?", "was the ECG and trop ok?"])
def test_a_question_of_an_ecg_and_a_test_orders_nothing(said):
    assert "order_lab" not in read(said).entities.actions


@pytest.mark.parametrize("said", ["she's 12/40 - ibuprofen ok?", "G1 32+3/40", "elle est à 28 SA",
                                  "12 SG, puede tomar ibuprofeno?"])
def test_her_weeks_of_pregnancy_say_she_is_pregnant(said):
    assert said_in(said) == {"pregnant": True}


@pytest.mark.parametrize("said", ["BP 120/40", "give 1/40 of the dose", "INR 2.5/40", "3/40",
                                  "sa fille a 12 ans"])
def test_near_numbers_say_no_pregnancy(said):
    assert "pregnant" not in said_in(said)


@pytest.mark.parametrize("said", ["BF mum - ok to use codeine?", "she's BF'ing", "EBF, baby 2 months"])
def test_the_wards_breastfeeding_shorthand(said):
    assert said_in(said).get("breastfeeding") is True


def test_bf_alone_is_not_breastfeeding():
    assert "breastfeeding" not in said_in("her bf is visiting later")


@pytest.mark.parametrize("said", ["what's he overdue for?", "is she due anything?",
                                  "anything overdue?", "o que ela tem em atraso?"])
def test_what_she_is_due_for_is_her_care_gaps(said):
    assert "care_gaps" in read(said).entities.actions


@pytest.mark.parametrize("said", ["is he due for surgery?", "the INR is due tomorrow"])
def test_near_words_are_no_care_gaps(said):
    assert "care_gaps" not in read(said).entities.actions


@pytest.mark.parametrize("said", ["write up her discharge", "can you do his discharge",
                                  "draft the discharge please"])
def test_the_discharge_written_up_is_its_summary(said):
    assert request_kind(said) == "discharge"


@pytest.mark.parametrize("said", ["when is her discharge?", "discharge planning meeting at 2"])
def test_near_words_draft_no_discharge(said):
    assert request_kind(said) is None


@pytest.mark.parametrize("said", ["let's do a med rec", "on fait la conciliation médicamenteuse ?",
                                  "vamos fazer a reconciliação medicamentosa",
                                  "hagamos la conciliación de medicamentos"])
def test_a_reconciliation_asked_is_of_her_list(said):
    assert "chart_question" in read(said).entities.actions


@pytest.mark.parametrize("said, tests", [
    ("Dr Okafor wants her K rechecked tomorrow", ("serum potassium",)),
    ("her K rechecked tomorrow please", ("serum potassium",)),
    ("K rechecked this morning: 5.1", ()), ("was her K rechecked?", ()),
])
def test_a_test_wanted_rechecked_with_a_day_ahead(said, tests):
    assert read_ward(said).tests == tests


def test_the_kidney_dose_within_its_band_is_said_not_warned():
    renal = k.Renal(38, "eGFR", date(2026, 11, 10))
    [note] = k.renal_findings("gabapentin", renal, k.dose_of(text="300 mg tds"))
    assert note.severity == "info" and "400-1400 mg a day in 2 divided doses" in note.summary
    [over] = k.renal_findings("gabapentin", renal, k.dose_of(text="600 mg tds"))
    assert over.severity == "warning"


# the walk after the set (walk 46)
@pytest.mark.parametrize("said, switch", [
    ("labetalol 100 bd instead of the lisinopril", ("labetalol", "bd", "lisinopril")),
    ("nifedipino 10 mg cada 12 horas en lugar del lisinopril",
     ("nifedipine", "cada 12 horas", "lisinopril")),
    ("gliclazide 40 od in place of metformin", ("gliclazide", "od", "metformin")),
])
def test_an_order_instead_of_a_drug_is_a_switch(said, switch):
    found = read(said).workflow.switch
    assert found is not None
    assert (found.new_drug, found.frequency, found.replaces) == switch


@pytest.mark.parametrize("said", ["labetalol 100 bd instead of lisinopril?",
                                  "instead of calling, I emailed: labetalol 100 bd"])
def test_near_words_switch_nothing(said):
    found = read(said).workflow.switch
    assert found is None or found.replaces is None


@pytest.mark.parametrize("said", ["sugar 22 at 1400, record please", "sugars 3.1 at 0300"])
def test_the_bedside_sugar_is_a_capillary_glucose(said):
    assert [r.vital for r in read_ward(said).readings] == ["capillary glucose"]


def test_sugar_without_a_value_is_no_reading():
    assert read_ward("is he on a sugar free diet?").readings == ()


@pytest.mark.parametrize("said", ["flu vaccine given this year?",
                                  "has he had his pneumococcal vaccine?"])
def test_a_vaccine_asked_as_given_is_her_immunisations(said):
    entities = read(said).entities
    assert entities.drugs == () and "chart_question" in entities.actions


@pytest.mark.parametrize("said", ["give him the flu vaccine today",
                                  "is the flu vaccine ok with warfarin?"])
def test_a_vaccine_to_give_is_still_checked(said):
    assert read(said).entities.drugs


def test_diabetic_eye_screening_is_an_ophthalmology_referral():
    assert read_ward("refer to diabetic eye screening").specialties == ("ophthalmology",)


# walk 47
def _history(said: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": said}, {"role": "assistant", "content": "…"}]


@pytest.mark.parametrize("said, ordered", [
    ("ok order it", "ok start paracetamol 1 g four times daily"),
    ("prescribe that", "start paracetamol 1 g four times daily"),
    ("start it 500 qds", "start paracetamol 500 qds"),  # its own dose, never the one asked about
    ("stop it", "stop paracetamol"),
])
def test_the_drug_asked_about_is_ordered_with_its_dose(said, ordered):
    from smart_docgemma.agent import clarification
    history = _history("is paracetamol 1g qds ok for him?")
    assert clarification.acts_on_discussed(said, read(said).entities, history) == ordered


def test_a_drug_asked_about_without_a_dose_is_ordered_without_one():
    from smart_docgemma.agent import clarification
    history = _history("is paracetamol ok for him?")
    assert clarification.acts_on_discussed("order it", read("order it").entities,
                                           history) == "start paracetamol"


@pytest.mark.parametrize("said", ["INR 5.2 no bleed", "INR 6, pas de saignement",
                                  "INR 4.8, not bleeding"])
def test_a_high_inr_told_with_the_bleeding_asks_its_plan(said):
    assert "plan" in read(said).entities.actions


@pytest.mark.parametrize("said", ["INR 2.5 - bleeding risk with aspirin?", "INR 2.6 no bleed",
                                  "INR 5 and bleeding risk of apixaban"])
def test_near_words_ask_no_inr_plan(said):
    assert "plan" not in read(said).entities.actions


# probe23_mix
@pytest.mark.parametrize("said, clause", [
    ("drop the FBC, just the INR", "drop the FBC"), ("annule la NFS, garde l'INR", "annule la NFS"),
    ("cancel the INR but keep the FBC", "cancel the INR"), ("cancel the INR", "cancel the INR"),
])
def test_a_cancels_clause_ends_where_the_kept_begins(said, clause):
    from smart_docgemma.agent import amendments
    assert amendments.cancel_clause(said) == clause


@pytest.mark.parametrize("said, kept", [
    ("drop the FBC, just the INR", ("inr",)), ("annule la NFS, garde l'INR", ("inr",)),
    ("tira o hemograma, deixa só o INR", ("inr",)), ("cancel the INR", ()),
])
def test_the_tests_kept_beside_a_cancel(said, kept):
    assert read_ward(said).kept_tests == kept


@pytest.mark.parametrize("said, what", [
    ("scrap the U&E", "u&e"), ("pode cancelar o hemograma", "hemograma"),
    ("can you cancel the INR please", "inr"), ("drop the FBC", "fbc"), ("cancel 500", None),
])
def test_a_cancel_names_its_card_politely_and_in_ward_shorthand(said, what):
    from smart_docgemma.agent import amendments
    assert amendments.cancels_what(said) == what


@pytest.mark.parametrize("said, ahead", [
    ("bloods tomorrow", True), ("bilan demain matin", True), ("exames amanhã cedo", True),
    ("her bloods tomorrow please", True), ("her bloods this morning", False),
    ("any bloods this week?", False), ("tomorrow's plan", False),
])
def test_the_wards_sample_for_a_time_ahead(said, ahead):
    assert read_ward(said).samples_ahead is ahead


# probe_ctx12
@pytest.mark.parametrize("said", ["any reason not to add Sando-K?", "would you start co-amox for her chest?",
                                  "une raison de ne pas lui donner du spironolactone ?"])
def test_an_order_asked_as_a_question_is_a_check(said):
    assert "give" in read(said).entities.actions


@pytest.mark.parametrize("said, drug", [
    ("pip-taz ok for her?", "piperacillin and tazobactam"), ("pip/taz ok?", "piperacillin and tazobactam"),
    ("amoxi-clav 625 tds", "amoxicillin-clavulanate"), ("co-amox for her?", "amoxicillin-clavulanate"),
])
def test_combinations_written_short(said, drug):
    assert read(said).entities.drugs == (drug,)


def test_an_unknown_word_asked_as_safe_for_her_is_said_not_recognised():
    from smart_docgemma.reading.drugs import unrecognised_drug
    assert unrecognised_drug("plixarin ok for her?", set()) == "plixarin"
    assert unrecognised_drug("this ok for her?", set()) is None


# walk 48
@pytest.mark.parametrize("said, drug", [
    ("calcium resonium 15g tds", "calcium polystyrene sulfonate"),
    ("kayexalate 15 g", "sodium polystyrene sulfonate"), ("lokelma 10g tds", "sodium zirconium cyclosilicate"),
    ("calcium polystyrene sulfonate 15g tds", "calcium polystyrene sulfonate"),
    ("calcium 1g od", "calcium"),
])
def test_potassium_binders_are_never_calcium_or_another_resin(said, drug):
    assert read(said).entities.drugs == (drug,)


@pytest.mark.parametrize("said, route", [
    ("furosemide 40 iv then 40 po od", "oral"), ("furosemide 40mg iv then 40mg po od", "oral"),
    ("ceftriaxone 2g iv od", "IV"),
])
def test_the_order_goes_on_by_the_route_after_then(said, route):
    from smart_docgemma.agent.extraction import find_dose
    assert (find_dose(said) or {}).get("route") == route


@pytest.mark.parametrize("said", ["when was she diagnosed with asthma?", "how long has he had diabetes?",
                                  "depuis quand est-il diabétique ?", "desde quando tem asma?"])
def test_when_a_condition_began_is_her_problem_list(said):
    from smart_docgemma.tools.chart.answers import focus_of
    assert focus_of(said) == "problems"


@pytest.mark.parametrize("said", ["is this the right James Wilson, DOB 14/03/58?",
                                  "confirm his identity please", "c'est bien le bon patient ?"])
def test_her_identity_checked_is_her_identifiers(said):
    from smart_docgemma.tools.chart.answers import focus_of
    assert focus_of(said) == "identifiers"


def test_an_ambiguous_birth_date_not_hers_is_said_both_ways():
    from smart_docgemma.reading.subject import said_birth_date
    assert said_birth_date(("1971-02-09", "1971-09-02"), "1958-03-14") == "1971-02-09 or 1971-09-02"
    assert said_birth_date(("1943-12-05", "1943-05-12"), "1943-05-12") == "1943-05-12"


# walk 49: doses a thousandfold out
@pytest.mark.parametrize("said, dose", [
    ("digoxine 0,125 mg par jour", "0.125 mg"), ("levothyroxine 0,075 mg", "0.075 mg"),
    ("digoxina 0,0625 mg", "0.0625 mg"), ("amoxicillin 1,000 mg tds", "1000 mg"),
    ("heparin 5,000 units bd", "5000 units"), ("paracétamol 2,5 mg/kg", None),
])
def test_a_decimal_comma_after_a_zero_is_never_thousands(said, dose):
    from smart_docgemma.agent.extraction import find_dose
    found = (find_dose(said) or {}).get("dose")
    assert found == dose or (dose is None and found != "25 mg/kg")


@pytest.mark.parametrize("said, dose", [
    ("digoxin 125 od", "125 mcg"), ("digoxin 0.125 od", "0.125 mg"), ("levothyroxine 50 od", "50 mcg"),
    ("amlodipine 5 od", "5 mg"),
])
def test_a_bare_number_after_a_microgram_drug_is_micrograms(said, dose):
    assert read(said).entities.dose is not None and read(said).entities.dose.written == dose


@pytest.mark.parametrize("drug, said", [("digoxin", "125 mg od"), ("levothyroxine", "50 mg od")])
def test_milligrams_where_micrograms_are_meant_are_critical(drug, said):
    found = [f for f in k.order_findings(drug, k.dose_of(text=said)) if f.topic == "dose"]
    assert found and found[0].severity == "critical"


@pytest.mark.parametrize("drug, said", [("digoxin", "0.25 mg od"), ("levothyroxine", "0.1 mg od")])
def test_usual_microgram_doses_raise_no_dose_finding(drug, said):
    assert not [f for f in k.order_findings(drug, k.dose_of(text=said)) if f.topic == "dose"]


@pytest.mark.parametrize("said, dose", [
    ("héparine 5 000 UI x2/j", "5000 ui"), ("daltéparine 2 500 UI/j", "2500 ui"),
    ("heparina 5.000 UI cada 12h", "5000 ui"), ("vitamine D 100 000 UI", "100000 ui"),
    ("paracetamol 1 000 mg", "1000 mg"), ("amoxicilina 1.000 mg cada 8 horas", "1000 mg"),
    ("amlodipine 5.5 mg", "5.5 mg"), ("digoxin 0.125 mg", "0.125 mg"),
])
def test_thousands_with_a_space_or_one_point_are_thousands(said, dose):
    from smart_docgemma.agent.extraction import find_dose
    assert (find_dose(said) or {}).get("dose") == dose


# walk 50: a card taken back in the ward's other words
@pytest.mark.parametrize("said", [
    "hold off on that for now", "on second thoughts no", "nah", "no thanks", "don't bother",
    "I've changed my mind", "the patient refused it", "he doesn't want it",
    "pharmacy says out of stock, cancel", "that was meant for Mr Mensah", "oops that was for bed 5",
    "wrong patient", "let's wait for the a1c first", "wait until the HbA1c is back before starting that",
    "scrap both", "on attend la culture", "mudei de ideia", "no hace falta",
])
def test_a_card_taken_back_in_other_words(said):
    from smart_docgemma.agent import amendments
    assert amendments.cancels(said, ["Prescribe gliclazide 40 mg once daily"])


@pytest.mark.parametrize("said", [
    "start metformin, cancel that", "no thanks to the aspirin, give paracetamol 1g",
    "let's wait 2 days then start 40 od", "hold warfarin tonight", "nah make it 20",
    "that was a good idea", "thanks",
])
def test_near_words_take_no_card_back(said):
    from smart_docgemma.agent import amendments
    assert not amendments.cancels(said, ["Prescribe gliclazide 40 mg once daily"])


def test_a_reason_naming_a_drug_no_card_holds_is_no_cancel():
    from smart_docgemma.agent import amendments
    said = "ne pas débuter de spironolactone chez elle pour l'instant, on en reparle"
    assert not amendments.cancels(said)
    assert not amendments.cancels(said, ["Prescribe gliclazide 40 mg"], ["spironolactone"])


@pytest.mark.parametrize("said, keeps", [
    ("only keep the HbA1c", True), ("ne garde que l'INR", True), ("deja solo el INR", True),
    ("keep the gliclazide", False), ("only keep 2", False),
])
def test_keeping_only_some_cards(said, keeps):
    from smart_docgemma.agent import amendments
    assert amendments.keeps_only(said) is keeps


def test_make_it_urgent_redrafts_the_lab_card_at_that_priority():
    card = PendingCard(proposal_id="p1", tool="order_lab_test", kind="lab_order",
                       title="Order basic metabolic panel", request={
                           "test": "basic metabolic panel", "when": "tomorrow 8am"}, edited=False)
    call = ward_amendments.changed_card(read("make it urgent"), card, "pt-1")
    assert call is not None and call.args["priority"] == "urgent"
    assert call.args["when"] == "tomorrow 8am"
    assert ward_amendments.changed_card(read("make it urgent tomorrow 6am"), card, "pt-1") is None \
        or ward_amendments.changed_card(read("make it urgent tomorrow 6am"), card, "pt-1").args[
            "when"] != "tomorrow 8am"


@pytest.mark.parametrize("said", ["no, wait for the culture", "non, on attend"])
def test_a_card_put_off_is_withdrawn(said):
    from smart_docgemma.agent import amendments
    assert amendments.cancels(said)


# walk 51: a calendar month as a window
@pytest.mark.parametrize("said, key", [
    ("average glucose in october", "c10"), ("glycémie moyenne en octobre ?", "c10"),
    ("média da glicemia em outubro?", "c10"), ("¿glucosa más alta en octubre?", "c10"),
    ("INRs in march 2025", "c3-2025"), ("glucose since september", "m9"), ("INRs in 2026", "y2026"),
])
def test_a_calendar_month_named_is_the_window(said, key):
    from smart_docgemma.tools.words.windows import asked
    assert asked(said).window == key


def test_a_months_window_runs_from_its_first_to_its_last_day():
    from datetime import UTC, datetime

    from smart_docgemma.tools.words.windows import bounds
    now = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
    october = bounds("c10", now, UTC)
    assert (october.start, october.end) == (datetime(2026, 10, 1, tzinfo=UTC),
                                            datetime(2026, 10, 31, 23, 59, 59, tzinfo=UTC))
    assert bounds("c12", now, UTC).end == now  # the month running ends now
    assert bounds("c12", now, UTC).start.year == 2026 and bounds("c3-2025", now, UTC).start.year == 2025


def test_hr_after_a_temperature_is_the_heart_rate_not_its_hour():
    found = [(r.vital, r.values) for r in read_ward("temp 38.4 hr 104 - pls document").readings]
    assert ("body temperature", (38.4,)) in found and ("heart rate", (104.0,)) in found


@pytest.mark.parametrize("said", ["media de glucemias 48h", "mean glucose 24h", "glycémie 72h"])
def test_a_span_in_hours_after_a_sign_is_never_its_value(said):
    assert read_ward(said).readings == ()
