"""The route of administration a message names ("IV", "per os", "VO", "sc"): the words of
``routes`` in data/rules.yaml (with the language rules'), read by the order's reading
(``extraction``) and by a follow-up that changes a pending card (``amendments``), which must
not depend on the whole reading to know a route."""
from __future__ import annotations

import re
from functools import lru_cache

from .prompts import rules


def route_said(text: str) -> str | None:
    """The route a text names, as ``routes`` in data/rules.yaml words it ("per os" → "oral")."""
    found = route_pattern().search(text)
    return rules()["routes"].get(found.group(1).lower(), found.group(1).lower()) if found else None


@lru_cache(maxsize=1)
def route_pattern() -> re.Pattern[str]:
    """Any route word of ``routes`` in data/rules.yaml and the language rules ("IV", "per os",
    "VO")."""
    words = sorted(rules()["routes"], key=len, reverse=True)
    # a letter of any alphabet ends a word: "préscrire" holds no "pr" (per rectum)
    return re.compile(rf"(?<![^\W\d_])({'|'.join(re.escape(w) for w in words)})(?![^\W\d_])",
                      re.I)
