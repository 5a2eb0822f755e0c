"""The multi-step task set's grader (evaluation/multistep): the task files load and are well
formed, and each check reads FHIR resources as a reader of the chart would."""

import base64

import pytest
from smart_docgemma.evaluation.multistep.run import Outcome, grade
from smart_docgemma.evaluation.multistep.score import check_written, resource_text
from smart_docgemma.evaluation.multistep.tasks import Checkpoint, ExpectedResource, Task, load_tasks

LOINC = "http://loinc.org"


def _doc(text: str, code: str = "18842-5", patient: str = "pt-1") -> dict:
    return {
        "resourceType": "DocumentReference",
        "id": "d1",
        "subject": {"reference": f"Patient/{patient}"},
        "type": {"coding": [{"system": LOINC, "code": code}]},
        "content": [
            {
                "attachment": {
                    "contentType": "text/plain",
                    "data": base64.b64encode(text.encode()).decode(),
                }
            }
        ],
    }


def test_the_task_set_is_well_formed():
    tasks = load_tasks()
    assert len(tasks) >= 20
    assert all(len(t.checkpoints) >= 5 for t in tasks)
    assert {t.split for t in tasks} == {"tuned", "holdout"}
    assert {t.perturbation for t in tasks} >= {"missing", "stale", "conflicting", "wrong_patient"}
    assert {t.source for t in tasks} == {"fixtures", "synthea"}


def test_a_checkpoint_holds_exactly_one_check():
    with pytest.raises(ValueError):
        Checkpoint(name="x", phase="retrieve", says=["a"], once=True)
    with pytest.raises(ValueError):
        Checkpoint(name="x", phase="retrieve")


def test_a_document_is_read_decoded_and_either_document_type_counts():
    doc = _doc("Potassium 5.6 mmol/L (2026-11-10) [Observation/k4]")
    assert "5.6 mmol/L" in resource_text(doc)
    want = ExpectedResource(
        resourceType="Document", type=[f"{LOINC}|18842-5"], contains=["5.6", "potassium | K+"]
    )
    assert check_written([want], [doc], "pt-1") == []
    assert check_written([want], [_doc("5.6", code="11506-3")], "pt-1") != []
    assert check_written([want], [_doc("5.6 potassium", patient="pt-2")], "pt-1") != []


def test_a_referral_letter_must_be_linked_from_the_order():
    letter = {**_doc("eGFR 38 (2026-11-10)", code="57133-1"), "id": "letter"}
    order = {
        "resourceType": "ServiceRequest",
        "id": "s1",
        "subject": {"reference": "Patient/pt-1"},
        "priority": "urgent",
        "contained": [letter],
        "supportingInfo": [{"reference": "#letter"}],
    }
    want = ExpectedResource(
        resourceType="ServiceRequest",
        priority="urgent",
        letter=[f"{LOINC}|57133-1"],
        letter_contains=["38"],
    )
    assert check_written([want], [order], "pt-1") == []
    assert check_written([want], [{**order, "supportingInfo": []}], "pt-1") != []
    assert check_written([want], [order, _doc("x")], "pt-1") == ["unexpected DocumentReference/d1"]


def test_nothing_written_fails_every_step_that_needs_a_write():
    task = Task(
        id="t",
        family="f",
        split="tuned",
        source="fixtures",
        patient="pt-1",
        turns=["q"],
        checkpoints=[
            Checkpoint(name="a", phase="retrieve", says=["5.6"]),
            Checkpoint(name="b", phase="propose", proposes=["Document"]),
            Checkpoint(name="c", phase="before_approval", no_early_write=True),
            Checkpoint(
                name="d", phase="document", writes=[ExpectedResource(resourceType="Document")]
            ),
            Checkpoint(name="e", phase="once", once=True),
        ],
    )
    out = Outcome(answer="K 5.6", cards=[], early=[], written=[], refused=[], duplicates=[])
    assert [c.ok for c in grade(task, out)] == [True, False, True, False, False]
