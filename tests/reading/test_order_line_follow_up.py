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


@pytest.mark.parametrize(("first", "reply", "dose"), [
    ("gabapentina 300 mg de 8/8h", "troca pra 600", "600 mg"),
    ("metformin 500mg bd", "up it to 850mg", "850 mg"),
    ("metformina 500 mg cada 12 horas", "sube a 850 mg", "850 mg"),
    ("metformine 500 mg 2x/j", "passe à 850", "850 mg"),
    ("gabapentina 300 mg 3x ao dia", "aumenta pra 400", "400 mg"),
])
def test_a_dose_change_in_any_language_redrafts_the_pending_card(first, reply, dose):
    from smart_docgemma import knowledge
    from smart_docgemma.agent import amendments
    from smart_docgemma.agent.extraction import extract, read
    from smart_docgemma.agent.planning import _order_notes
    from smart_docgemma.approval.types import PendingOrder

    ent = extract(first)
    said = ent.dose
    assert said is not None
    card = PendingOrder("p1", "pat", ent.drugs[0], knowledge.generic(ent.drugs[0]), said.written,
                        said.frequency, _order_notes(said))
    change = amendments.read(read(reply), card)
    assert change is not None and amendments.redraft(card, change)["dosage"] == dose
