"""Text pasted from a document, with the clinician's question typed after it.

"Résultats labo du 10/11 : K 5,6 H, DFG 38. Je voulais ajouter du Diovan 80, ok?", "Receita do
dentista: 'Amoxicilina 500mg 8/8h …'. Tudo certo pra ele?", "Courrier du cardiologue : « …
ajouter amiodarone 200 mg/j ». On fait ?": what the pasted text says (a colleague's order, a lab
sheet's results, a letter's words) is what the question is about; what the clinician asks is the
question after it. So the message's requests (an order, a chart question, a check) are read on
the question, and its drugs, results and people on the whole message: a colleague's order in a
pasted letter is checked, never carded as the clinician's own.

A message is pasted text and a question when it ends with a question mark, the question is a
sentence of its own (after a full stop, a closing quote or a colon), and what stands before it
opens with a document's label and a colon ("Informe:", "Nota de envío:", the heading words of
``data/people.yaml``) or holds a quotation.
"""
from __future__ import annotations

import re

from .people import fold_accents, people_data

_QUOTED = re.compile(r"[«\"'\u201c\u2018][^«»\"\u201c\u201d]{12,}?[»\"'\u201d\u2019]")
# the label before the first colon: at most six words, no digit ("Résultats labo du 10/11 :"
# holds a date, so its words are taken up to the digits)
_LABEL = re.compile(r"^\s*([^\W\d_][^:\d]{0,60}?)[\s\d/.-]*:")
# the question: the last sentence, after a full stop, a closing quote or a colon, ending with "?"
_QUESTION = re.compile(r"(?:[.!»\"\u201d\u2019']|:)\s+([^.!»\"\u201d\u2019':]*\?)\s*$")


def _labelled(before: str) -> bool:
    m = _LABEL.match(before)
    if not m:
        return False
    headings = {fold_accents(str(w)).lower() for w in people_data()["headings"]}
    words = re.findall(r"[a-z]+", fold_accents(m.group(1)).lower())
    return len(words) <= 6 and bool(words) and words[0] in headings


def question_after(text: str) -> str | None:
    """The question typed after pasted text, or None when ``text`` is not pasted text and a
    question."""
    said = (text or "").rstrip()
    m = _QUESTION.search(said) if said.endswith("?") else None
    if not m:
        return None
    before = said[:m.start(1)]
    return m.group(1) if _QUOTED.search(before) or _labelled(before) else None
