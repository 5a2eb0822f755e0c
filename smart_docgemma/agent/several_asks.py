"""Several requests in one message, and a result an order waits on.

"INR? and stop the aspirin", "allergies + current meds", "K and eGFR pls, and is naproxen ok":
each part of the message is read for the chart question it asks, so that every result asked is
shown beside the other requests, not only the first the message's one focus names. "consider vit
K if INR >5", "if K < 3.5 give sando-k": the result an order is conditional on is shown with it,
and the order waits (nothing is carded on a condition no one has read).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from ..knowledge import analytes
from ..languages import fold
from ..tools.chart.answers import chart_focus

# where one request of a message ends and the next begins: after a question mark (kept: "a1c?"
# asks, "a1c" alone may order), a list sign, a comma
# or "and"/"also"/"plus" ("INR? and stop the aspirin", "allergies + current meds"), a slash
# between two words ("K/eGFR?") but never after a unit ("15mg/kg", "mmol/L")
# ... or its word in French, Portuguese and Spanish ("donne-moi sa dernière HbA1c et demande une
# NFS", "o potássio e a creatinina", "el INR y pide hemograma", "puis", "depois", "luego")
_PARTS = re.compile(r"(?<=\?)|;|\+|&|,|\n|\s/\s|\b(?:and|also|plus|aswell|then|et|puis|e|y|"
                    r"depois|luego)\b"
                    r"|(?<=[a-z+])(?<!mg)(?<!mcg)(?<!ml)(?<!g)(?<!mmol)(?<!units)(?<!iu)/(?=[a-z])")
# a result an instruction waits on: "if K < 3.5", "if INR >5", "when the creat comes back
# above 2", "if her K is below 3", "stop if creat rises"
# a part that states a result rather than asking it ("k 5.6", "inr = 3.4", "k 5,6"): a number
# right after a word (a window or a count asked, "last 3 ks", is read by the one focus)
_STATED = re.compile(r"[a-z+]\s*(?:is|of|=|:)?\s*\d+(?:[.,]\d+)?(?![a-z\d])")  # not "a1c"
_COMPARED = (r"(?:<|>|≤|≥|=|\b(?:is |are |gets |goes )?(?:above|below|over|under|less than|"
             r"more than|greater than|higher than|lower than|rises|falls|drops|climbs|goes up|"
             r"goes down|is high|is low|still high|still low)\b)")
_CONDITION = re.compile(
    rf"\b(?:if|when|unless|once|should)\s+(?:the |her |his |their |pt'?s |patient'?s )?"
    rf"([a-z][a-z0-9+ ]{{0,24}}?)\s*{_COMPARED}")


def parts(text: str) -> list[str]:
    """The message's requests, as written, accent folded and lower case."""
    found = (p.strip(" -:.!") for p in _PARTS.split(fold(text or "").lower()))
    found = (p for p in found if p.strip("? "))
    return [p for p in found if p]


def chart_foci(text: str, asks: Callable[[str, str], bool]) -> tuple[str, ...]:
    """Every chart focus the message's parts ask (``asks(part, focus)``: the part is a chart
    question about her, by the agent's rules), and the result an order is conditional on, in the
    order written; nothing for a message of one part with no condition (its one focus says it)."""
    low = fold(text or "").lower()
    found = []
    pieces = parts(text)
    if len(pieces) >= 2:
        for part in pieces:
            focus = chart_focus(part)
            if focus and focus != "summary" and not _STATED.search(part) and asks(part, focus):
                found.append(focus)
    found += conditions(low)
    return tuple(dict.fromkeys(found))


def conditions(low: str) -> list[str]:
    """The lab foci of the results an instruction is conditional on ("if K < 3.5": Potassium)."""
    named = (analytes.named_in(f"{m.group(1).strip()}?") for m in _CONDITION.finditer(low))
    return [a.focus for a in named if a is not None]


def conditional_order(text: str, drug_words: list[str]) -> bool:
    """An order written on a result's condition in the same clause as its drug ("if K < 3.5
    give sando-k 2 tabs bd", "consider vit K if INR >5"): it waits for the result; never a
    clause that stops on a condition without naming the drug ("…, stop if creat rises")."""
    for clause in re.split(r"[,;\n]|\.(?!\d)", fold(text or "").lower()):
        named = any(w and w.lower() in clause for w in drug_words)
        if conditions(clause) and (named or _GIVE.search(clause)):
            return True
    return False


# an order's verb in a conditional clause whose drug no vocabulary names ("if K < 3.5 give
# sando-k 2 tabs bd")
_GIVE = re.compile(r"\b(?:give|start|add|prescribe|administer|replace|supplement|top up)\b")
