"""Rules from probe_ctx16 (twenty-first stop, second round): a saint's word before a capitalised
word is a place; MedAgentBench's record numbers and a record number opening the message are
ids; a side room written "SR2" is a bed; a name set off by a staff role before a verb of saying
is the colleague reporting."""
import pytest
from smart_docgemma.agent.extraction import find_names, find_patient_ids
from smart_docgemma.reading.people import beside_people, colleagues_asking, is_place


# ------------------------------------------------------------------ a saint's word: a place
@pytest.mark.parametrize("text", [
    "veio transferido da Santa Casa, pode tomar ibuprofeno pra dor?",
    "veio da Santa Casa de Misericórdia, pode tomar ibuprofeno?",
    "vino del San Roque, ¿le doy ibuprofeno?",
    "lo derivaron del Hospital San Juan de Dios, ¿le puedo dar ibuprofeno?",
    "she came over from St Luke's on co-amoxiclav, ok to continue it here?",
    "transferred from the Santa Maria last night - inr?",
])
def test_a_saints_word_before_a_capitalised_word_is_a_place(text):
    assert find_names(text, []) == []


def test_a_saint_place_is_read_by_is_place():
    assert is_place("Santa", "veio da Santa Casa ontem")
    assert is_place("San Roque", "vino del San Roque ayer")


@pytest.mark.parametrize(("text", "who"), [
    # a saint's word alone, nothing capitalised after it: a person's name
    ("e a Santa, qual o INR?", "Santa"),
    ("a dona Santa do leito 3 pode tomar?", "Santa"),
    # a title before it keeps a surname of that form
    ("la señora San Martín de la cama 3, ¿alergias?", "San Mart"),
])
def test_near_a_saints_word_stays_a_person(text, who):
    assert any(n.startswith(who) for n in find_names(text, []))


# ------------------------------------------------------------------ ids typed bare
@pytest.mark.parametrize(("text", "ids"), [
    ("S6534835 - what's the most recent INR?", ["S6534835"]),
    ("latest a1c for S2874099?", ["S2874099"]),
    ("100587 is his inr in range?", ["100587"]),
    ("100712 : elle est allergique à quoi ?", ["100712"]),
    ("100712 - can she have co-amoxiclav?", ["100712"]),
    ("100 231 - her k?", ["100 231"]),
])
def test_a_lettered_record_number_or_one_opening_the_message_is_an_id(text, ids):
    assert find_patient_ids(text) == ids


@pytest.mark.parametrize("text", [
    "B12 level?", "T2DM review", "G6PD status?",  # a letter and few digits: a test, a type
    "s6534835 inr?",  # lower case: not the form
    "100000 units heparin sc",  # a dose opening the message
    "250000 - 300000 platelets",  # a range
    "her inr was 100587 - typo?",  # digits inside the sentence stay a number
    "20261205",  # nothing after
])
def test_near_ids_stay_numbers_and_words(text):
    assert find_patient_ids(text) == []


# ------------------------------------------------------------------ a side room written short
@pytest.mark.parametrize(("text", "bed"), [
    ("faith in SR2 is on warfarin as well - whats her inr?", "SR2"),
    ("the lady in sr4 - inr?", "sr4"),
])
def test_a_side_room_written_joined_is_a_bed(text, bed):
    assert bed in beside_people(text)


@pytest.mark.parametrize("text", [
    "nifedipine SR 20mg od", "nifedipine SR20 mg od", "start tegretol sr 200 bd",
    "Sr. Okoro - inr?",
])
def test_near_a_side_room_no_bed(text):
    assert not any(b.lower().startswith("sr") and b[2:3].isdigit() for b in beside_people(text))


# ------------------------------------------------------------------ a colleague set off by a role
@pytest.mark.parametrize(("text", "who"), [
    ("a Luz, enfermeira da noite, disse que ela está com dor de cabeça - pode tomar ibuprofeno?",
     "Luz"),
    ("Joy, the night nurse, says she has a headache - ok for ibuprofen?", "Joy"),
    ("Amparo, la enfermera de guardia, dice que le duele la cabeza", "Amparo"),
    ("Mercy, l'infirmière de nuit, dit qu'elle a mal à la tête", "Mercy"),
])
def test_a_name_set_off_by_a_staff_role_before_saying_is_the_colleague(text, who):
    assert who in colleagues_asking(text)
    assert find_names(text, []) == []


@pytest.mark.parametrize(("text", "who"), [
    # the aside names a role but no verb of saying follows: the one asked about
    ("Joy, the nurse, has a headache - can she have ibuprofen?", "Joy"),
    # the aside is a bed, not a role
    ("a Luz, do leito 4, disse que tem dor", "Luz"),
    ("la señora Amparo, cama 3, dice que le duele", "Amparo"),
])
def test_near_a_colleague_the_name_stays_a_person(text, who):
    assert who in find_names(text, [])
