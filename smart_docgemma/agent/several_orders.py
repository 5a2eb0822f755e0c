"""Several medication orders in one message, each a line of its own: "start amoxicillin 250mg
tds and paracetamol 1g qds", "amoxicilline 500 mg 3x/j et paracétamol 1 g 4x/j", "amoxicilina
500 mg cada 8 horas y paracetamol 1 g cada 6 horas".

The message is cut at its joining words ("and", "et", "e", "y", "+", ";"); when every piece is
one drug with its own dose and frequency, each is an order: the first is the request's order,
the others ride with it (``Request.also_ordered``) and are carded beside it, each checked by the
order's own safety check, and the drugs are checked together as before. Anything less (a piece
without its own dose or frequency, a piece naming two drugs, "amoxicillin and clavulanate") is
no list of orders, and the message is read as it was.

    said = several(said, read)   # the Request with also_ordered, or as it was
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ..reading.request import Drug, Kind, Request

# the words that join two order lines; a comma is no joint ("500 mg, 3x/j" is one line)
_JOINT = re.compile(r"(?i)\s+(?:and|et|e|y|plus|\+|&)\s+|\s*[;+\n]\s*")
_MAX_LINES = 4


def lines(message: str, read: Callable[[str], Request]) -> list[Drug]:
    """Each piece of ``message`` as one drug with its own dose and frequency, when every piece
    is one ([] otherwise, or when there is only one)."""
    pieces = [p.strip() for p in _JOINT.split(message or "") if p and p.strip()]
    if not 2 <= len(pieces) <= _MAX_LINES:
        return []
    found = []
    for piece in pieces:
        said = read(piece)
        dose = said.entities.dose
        if len(set(said.entities.drugs)) != 1 or not (dose and dose.written and dose.frequency):
            return []
        found.append(Drug(said.entities.drugs[0], piece, dose))
    if len({d.name for d in found}) != len(found):
        return []  # the same drug twice: a dose and its change, not two orders
    return found


def several(said: Request, read: Callable[[str], Request],
            as_order: Callable[[str], Request]) -> Request:
    """``said`` with the order lines beside its first; a message of order lines with no word of
    ordering ("amoxicilline 500 mg 3x/j et paracétamol 1 g 4x/j") read as the order it is
    (``as_order``)."""
    if said.subject.about != "patient":
        return said
    found = lines(said.message, read)
    if not found:
        return said
    if said.kind != Kind.ORDER and said.message.rstrip().endswith("?"):
        # "Receita do dentista: 'amoxicilina … + Voltaren …'. Tudo certo pra ele?": order lines
        # pasted before a question are asked about (each checked), never carded
        return said
    if said.kind != Kind.ORDER or said.ordered != found[0].name:
        said = as_order(f"start {said.message}")
    if said.kind != Kind.ORDER or said.ordered != found[0].name:
        return said
    # the first card's dose is its own line's ("omeprazol 20 mg al día y paracetamol 1 g cada 8
    # horas": 20 mg a day, never the paracetamol's "every 8 hours" read across both lines)
    entities = replace(said.entities, dose=found[0].dose)
    return replace(said, entities=entities, also_ordered=tuple(found[1:]))
