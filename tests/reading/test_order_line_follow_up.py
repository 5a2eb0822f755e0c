"""An order line typed without its frequency ("amoxicilina 250 mg", answered with its safety
check) is completed by a follow-up that only gives the frequency, in any language; anything else
after it is a request of its own. Pure: no HAPI."""
from __future__ import annotations

import pytest
from smart_docgemma.agent.clarification import completed


def _after(first: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": first}, {"role": "assistant", "content": "Safety check…"}]


@pytest.mark.parametrize(("first", "reply", "whole"), [
    ("amoxicilina 250 mg", "três vezes ao dia", "amoxicilina 250 mg três vezes ao dia"),
    ("cipro pra ITU dele", "500 de 12/12h", "cipro pra ITU dele 500 mg de 12/12h"),
    ("cipro para la ITU", "500 mg c/12h", "cipro para la ITU 500 mg c/12h"),
    ("amoxicilline 500 mg", "toutes les 8 heures", "amoxicilline 500 mg toutes les 8 heures"),
    ("amoxicillin 250mg", "tds", "amoxicillin 250mg tds"),
])
def test_a_frequency_completes_the_order_line_before_it(first, reply, whole):
    assert completed(reply, _after(first)) == whole


@pytest.mark.parametrize(("first", "reply"), [
    ("can she have amoxicillin?", "tds"),  # a question, not an order line
    ("amoxicillin 500 mg tds", "bd"),  # had its frequency: a change, read as an amendment
    ("amoxicillin and warfarin", "tds"),  # two drugs
    ("amoxicilina 250 mg", "e a Grace?"),  # a request of its own
    ("amoxicilina 250 mg", "latest INR?"),
    ("amoxicilina 250 mg", "ibuprofeno 400 mg 8/8h"),
    ("latest INR?", "tds"),
])
def test_anything_else_is_read_alone(first, reply):
    assert completed(reply, _after(first)) == reply


def _card(first: str):
    from smart_docgemma import knowledge
    from smart_docgemma.agent.extraction import extract
    from smart_docgemma.agent.planning import _order_notes
    from smart_docgemma.approval.types import PendingOrder
    from smart_docgemma.reading.dosage import Dose

    ent = extract(first)
    dose = ent.dose or Dose()
    return PendingOrder("p1", "pat", ent.drugs[0], knowledge.generic(ent.drugs[0]), dose.written,
                        dose.frequency, _order_notes(dose))


@pytest.mark.parametrize(("first", "reply", "dose"), [
    ("gabapentina 300 mg de 8/8h", "troca pra 600", "600 mg"),
    ("metformin 500mg bd", "up it to 850mg", "850 mg"),
    ("metformina 500 mg cada 12 horas", "sube a 850 mg", "850 mg"),
    ("metformine 500 mg 2x/j", "passe à 850", "850 mg"),
    ("gabapentina 300 mg 3x ao dia", "aumenta pra 400", "400 mg"),
    ("gabapentina 300 mg tres veces al día", "cambia la dosis a 150 mg", "150 mg"),
])
def test_a_dose_change_in_any_language_redrafts_the_pending_card(first, reply, dose):
    from smart_docgemma.agent import amendments
    from smart_docgemma.agent.extraction import read

    card = _card(first)
    change = amendments.read(read(reply), card)
    assert change is not None and amendments.redraft(card, change)["dosage"] == dose


@pytest.mark.parametrize(("first", "reply"), [
    ("metformina 500 mg 2 veces al día", "una vez al día mejor"),
    ("metformine 500 mg 2x/j", "plutôt une fois par jour"),
    ("metformina 500 mg 2x ao dia", "uma vez ao dia em vez disso"),
])
def test_a_frequency_change_written_with_accents(first, reply):
    from smart_docgemma.agent import amendments
    from smart_docgemma.agent.extraction import read
    from smart_docgemma.tools.writes.orders import parse_timing

    change = amendments.read(read(reply), _card(first))
    assert change is not None and parse_timing(change.frequency or "")["frequency"] == 1


@pytest.mark.parametrize("asked, reply, completed", [
    ("thinking of enalapril", "ok start it 10mg od", "enalapril 10mg od"),
    ("amoxicillin for her chest infection?", "fine, go ahead 500 tds", "amoxicillin 500 tds"),
    ("¿puede tomar ibuprofeno?", "vale, 400 mg cada 8 h", "ibuprofeno 400 mg cada 8 h"),
    # not an order of that drug: another request, another drug, or no dose
    ("can he have ibuprofen?", "and her INR?", "and her INR?"),
    ("can he have ibuprofen?", "naproxen 500 bd", "naproxen 500 bd"),
    ("warfarin and aspirin together?", "ok start it 5mg od", "ok start it 5mg od"),
])
def test_a_reply_that_orders_the_drug_just_discussed_names_it(asked, reply, completed):
    from smart_docgemma.agent.clarification import completed as complete

    history = [{"role": "user", "content": asked}, {"role": "assistant", "content": "(its check)"}]
    assert complete(reply, history) == completed
