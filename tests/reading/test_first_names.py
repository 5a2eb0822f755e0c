"""A given name anywhere in a message is a person (``reading/first_names``), found by walk 92:
13 of 28 messages naming someone by a given name in a place no reader looked at were answered or
carded from the chart in context ("also peter - any allergies?", "hba1c of michael?", "y
carmen, ¿qué toma?", "ok thanks. linda needs an inr tomorrow"). Near words: the given names the
ward writes as words, a colleague's, a relative's and an eponym's name, a place."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.extraction import extract
from smart_docgemma.reading.first_names import first_name_people
from smart_docgemma.reading.subject import InContext, names_another

ROBERT = InContext(id="pt-warfarin", name="Robert Mensah", mrn="MRN-100587",
                   born="1950-09-30")


@pytest.mark.parametrize(("said", "name"), [
    ("what is tom on?", "tom"),
    ("what's mary taking at the moment", "mary"),
    ("and tom?", "tom"),
    ("ok thanks. linda needs an inr tomorrow", "linda"),
    ("also peter - any allergies?", "peter"),
    ("how much does james weigh", "james"),
    ("inr for tom and fbc", "tom"),
    ("tom inr?", "tom"),
    ("allergies - fatima?", "fatima"),
    ("has linda had her bloods", "linda"),
    ("re patricia, any drug allergies", "patricia"),
    ("hba1c of michael?", "michael"),
    ("et pour jean, la kaliémie ?", "jean"),
    ("y carmen, ¿qué toma?", "carmen"),
    ("e a fernanda, tem alergia a algo?", "fernanda"),
    ("¿cuánto pesa lucía?", "lucía"),
    ("bp 150/90 for tom, record it", "tom"),
    ("can you give mary some paracetamol 1g", "mary"),
])
def test_a_given_name_anywhere_is_someone(said, name):
    assert name in first_name_people(said)
    names = extract(said).patient_names
    assert names and names_another(names, (), ROBERT)


@pytest.mark.parametrize("said", [
    "robert's inr?", "is robert on aspirin", "how is robert doing"])
def test_her_own_given_name_anywhere_is_hers(said):
    names = extract(said).patient_names
    assert not names_another(names, (), ROBERT)


@pytest.mark.parametrize("said", [
    # given names the ward writes as words
    "will his inr be ok with the aspirin?", "mark the warfarin as held today",
    "echo tomorrow - anything with his meds?", "hx of tia? on aspirin",
    "ed visit last week - latest inr?", "page the registrar if glucose > 20",
    "frank haematuria this am", "tender abdomen, guarding", "drew bloods at 6",
    "needs a walker to mobilise", "chin laceration sutured", "scarlet fever?",
    "urine claire, pas de fièvre", "tome 1 comprimido a cada 8 horas", "dolor en la vena",
    "palma de la mano", "comfort measures only", "grace period for the refill",
    "hope his k is ok", "una linda niña con fiebre", "porter to take him to x-ray",
    "graças a deus, o potássio desceu?", "analisa o raio-x anexado",
    # a colleague, a relative, an eponym, a saint
    "d/w james (reg) - start metformin", "per sarah the pharmacist stop the aspirin",
    "spoke to linda on call, hold warfarin", "his wife mary says he missed doses",
    "bell's palsy?", "allen test before the abg", "l'infirmière Tânia demande l'INR",
    "St John's wort with warfarin?", "Dr Peter wants an INR",
    # the ward's letters in capitals
    "TIA last year, on aspirin", "ED said INR 3.4",
])
def test_a_word_a_colleague_or_an_eponym_is_no_one(said):
    assert first_name_people(said) == []


# walk 93: a reading's time said between the sign and its value was read as a question
@pytest.mark.parametrize(("said", "value"), [
    ("sugar this morning was 14, record it", 14.0), ("cbg this morning was 3.2, record", 3.2),
    ("bm at 7 was 3.2, pls chart", 3.2), ("temp last night was 38.5, record", 38.5),
    ("glycémie ce matin était à 2,1, à noter", 2.1), ("pulse this am was 110 - document", 110.0),
])
def test_a_reading_with_its_time_before_the_value_is_recorded(said, value):
    from smart_docgemma.tools.words.ward_words import readings

    assert "record_vital" in extract(said).actions
    assert any(r.said.split()[0] == f"{value:g}" for r in readings(said))


@pytest.mark.parametrize("said", ["sugar this morning was fine", "temp last night was normal",
                                  "bp this morning was 150/90?"])
def test_a_time_then_no_value_records_nothing(said):
    assert "record_vital" not in extract(said).actions


# walk 94: two lower-case words opening a message, the second an abstract noun, are no name
@pytest.mark.parametrize(("said", "names"), [
    ("grant application aside, what's his inr", []),
    ("discharge documentation done - latest k?", []),
    ("grace adeyemi weight pls", ["grace adeyemi"]),
])
def test_an_abstract_noun_opening_a_message_is_no_name(said, names):
    from smart_docgemma.reading.people import leading_lower_people

    assert leading_lower_people(said) == names


# walk after probe37_intl: Brazil's short given names, "Ze" of two letters among them, are people;
# other two-letter words and the shout "ZE" are not
@pytest.mark.parametrize(("said", "names"), [
    ("e o seu ze do 10, ja tomou a insulina?", ["ze"]),
    ("o tiao ja tomou?", ["tiao"]),
    ("o zeca do 10 ja tomou?", ["zeca"]),
    ("de 8/8h po", []),
    ("do leito 4 ja fez o INR?", []),
    ("ZE", []),
])
def test_brazilian_short_given_names(said, names):
    from smart_docgemma.reading.first_names import first_name_people

    assert first_name_people(said) == names


# walk after probe38_intl: Andean and Argentine nicknames are people ("la esposa de don lucho
# pregunta si le pueden dar su amlodipino" was checked in the chart in context); the near words
# "cacho" (a piece), "luchar", "fermenta" are not
@pytest.mark.parametrize(("said", "names"), [
    ("la esposa de don lucho pregunta si le pueden dar su amlodipino", ["lucho"]),
    ("y el tincho de la 3, ya comio?", ["tincho"]),
    ("don fercho de la 12 tiene dolor", ["fercho"]),
    ("un cacho de pan", []),
    ("luchar contra la sepsis", []),
    ("fermenta", []),
])
def test_andean_and_argentine_nicknames(said, names):
    from smart_docgemma.reading.first_names import first_name_people

    assert first_name_people(said) == names
# seed 733: a given name before the digit it also names is the finger, not a person ("refer to
# ortho, jammed pinkie finger" was refused as a question about "pinkie"); the name alone, or
# owning something, is still hers or someone else's
@pytest.mark.parametrize("said", ["refer to ortho, jammed pinkie finger playing volleyball",
                                  "pinky toe fracture, refer ortho",
                                  "pinkie finger pain - refer ortho"])
def test_a_given_name_before_the_digit_it_names_is_no_person(said):
    assert first_name_people(said) == []


@pytest.mark.parametrize(("said", "name"), [("what is Pinkie on?", "Pinkie"),
                                            ("what was Pinkie's last sugar", "Pinkie"),
                                            ("jammed pinkie", "pinkie")])
def test_the_same_given_name_without_the_digit_is_a_person(said, name):
    assert first_name_people(said) == [name]
