"""Figures a sentence works out from other figures, shown with their sums.

"15 mg/kg × 20.1 kg = 301.5 mg", "(5.1 + 4.2 + 3.9) / 3 = 4.4 mmol/L", "240 mg ÷ 24 mg/ml = 10
ml": the figure after "=" is in no record, but it is grounded by its inputs when the sum holds.
Such a figure is marked as computed, with its sum; its inputs are checked against the records
like any other figure of the sentence, so an input found nowhere still leaves the sentence
unsupported. A figure that is neither in a record nor the result of a sum that holds stays
flagged. A chain may go on from the last result ("40 mg/kg/day ÷ 3 doses = 13.3 mg/kg a dose;
× 20.1 kg = 268 mg"): the next sum starts from it.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass

_NUM = r"\d+(?:\.\d+)?"
# a unit or a counted word after a number ("mg/kg/day", "kg", "doses", "ml"), never an operator
_UNIT = r"(?:\s?(?!x\s)[a-zA-Zµ%]+(?:/[a-zA-Z0-9]+)*\.?(?:\s(?:a|per)\s(?:day|dose))?)?"
_OP = r"[+\-−×x*÷/]"
_TERM = rf"\(?\s*{_NUM}{_UNIT}\s*\)?"
_SUM = re.compile(
    rf"(?P<lhs>(?:{_OP}\s*)?{_TERM}(?:\s*{_OP}\s*{_TERM})*?)\s*=\s*(?P<rhs>{_NUM})")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv}
_SYMBOL = {"×": "*", "x": "*", "÷": "/", "−": "-"}
# a sum's result may be rounded at every step ("13.3 mg/kg × 20.1 kg = 268 mg", from 13.33…)
_TOLERANCE = 0.01


@dataclass(frozen=True)
class Worked:
    """One sum of a sentence that holds: its result and how it was written."""

    result: float
    shown: str  # "15 × 20.1 = 301.5"


def worked_out(sentence: str) -> list[Worked]:
    """The sums written in ``sentence`` whose result holds (to rounding)."""
    found: list[Worked] = []
    last: float | None = None
    for m in _SUM.finditer(sentence):
        expr = _expression(m["lhs"])
        if expr and expr[0] in "+-*/":
            if last is None:
                continue
            expr = f"{last:g}{expr}"
        value = _value(expr) if expr else None
        rhs = float(m["rhs"])
        if value is None or not _close(value, rhs):
            last = None
            continue
        last = rhs
        shown = " ".join(m[0].split())
        found.append(Worked(rhs, shown))
    return found


def _expression(lhs: str) -> str:
    """The numbers, operators and brackets of ``lhs``, units dropped ("15 mg/kg × 20.1 kg" →
    "15*20.1")."""
    out = []
    for token in re.finditer(rf"({_NUM})|({_OP})(?=\s*[\d(])|([()])", lhs):
        number, op, bracket = token.groups()
        out.append(number or _SYMBOL.get(op or "", op or "") or bracket or "")
    return "".join(out)


def _value(expr: str) -> float | None:
    try:
        return _eval(ast.parse(expr, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError):
        return None


def _eval(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return float(_OPS[type(node.op)](_eval(node.left), _eval(node.right)))
    raise ValueError("not a sum")


def _close(value: float, said: float) -> bool:
    return abs(value - said) <= max(_TOLERANCE * abs(said), 0.051)
