"""Rules from probe_ctx14 (twentieth stop, second round): a follow-up whose pronouns are the
patient's, after her relative was named with her possessive, is about the patient again; the
relative's own pronoun, a relative of the possessor's sex, or no pronoun stays the relative's."""
import pytest
from smart_docgemma.reading.people import back_to_the_possessor


@pytest.mark.parametrize(("before", "text"), [
    ("can his wife take aspirin?", "and his inr?"),
    ("his wife asks if she can have ibuprofen", "ok, what about his allergies?"),
    ("her husband wants to know if he can take naproxen", "and her potassium?"),
    ("her husband has a cold, can he take sudafed?", "and can she stay on her lisinopril?"),
    ("his daughter's on amoxil, is that ok for her?", "and is he on anything for pain?"),
    ("His Mum asks about paracetamol", "and his egfr?"),
    ("a esposa dele pode tomar aspirina?", "e o INR dele?"),
    ("o marido dela tem dor, pode tomar naproxeno?", "e o potássio dela?"),
])
def test_the_possessors_pronoun_after_a_relative_of_the_other_sex_is_the_patient(before, text):
    assert back_to_the_possessor(text, before)


@pytest.mark.parametrize(("before", "text"), [
    # the relative's own pronoun: the relative
    ("can his wife take aspirin?", "and her inr?"),
    ("can his wife take aspirin?", "and is she allergic to anything?"),
    # both sexes' pronouns: whose is not said
    ("can his wife take aspirin?", "and can he give her his tablets?"),
    # a relative of the possessor's sex: "his" may be either
    ("can his son have ibuprofen?", "and his weight?"),
    ("her sister is here too", "and her allergies?"),
    # no pronoun: the relative, as before
    ("can his wife take aspirin?", "and the inr?"),
    # no possessive before the relative ("the wife"), or another patient named
    ("the wife is asking about aspirin", "and his inr?"),
    ("what is Margaret Thompson's potassium?", "and his inr?"),
    # near words: "this" holds "his", "where" holds "her", "others" holds "her"
    ("can his wife take aspirin?", "and this one?"),
    ("her husband wants naproxen", "and where are the others?"),
    # a possessive of the other sex before the relative: not the patient's
    ("her wife asks about aspirin", "and his inr?"),
    # Portuguese: the relative's pronoun, a same-sex relative, no pronoun
    ("a esposa dele pode tomar aspirina?", "e ela, tem alergia?"),
    ("a esposa dele pode tomar aspirina?", "e o INR dela?"),
    ("o filho dele pode tomar ibuprofeno?", "e o peso dele?"),
    ("a esposa dele pode tomar aspirina?", "e o INR?"),
    # near words: "elevado" and "delegado" hold "ele" and "dele"
    ("a esposa dele pode tomar aspirina?", "e o INR elevado, delegado?"),
    # French and Spanish possessives say no possessor's sex
    ("sa femme peut prendre de l'aspirine ?", "et son INR ?"),
    ("su esposa puede tomar aspirina?", "y el INR de el?"),
])
def test_the_relatives_pronoun_a_same_sex_relative_or_no_pronoun_stays_the_relative(
        before, text):
    assert not back_to_the_possessor(text, before)
