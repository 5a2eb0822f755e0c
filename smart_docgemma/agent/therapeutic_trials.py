"""A drug tried on the patient in context, told from a search for studies of it.

"trial of losartan?", "give her a trial of amitriptyline", "essai de prégabaline ?", "prueba
terapéutica con gabapentina" ask to try the drug on her: the drug's one safety check runs and no
study is searched for. "trials of losartan in pregnancy", "any RCTs on …", "ensayos clínicos de …"
search; a drug of hers named in such a search is checked as well and its findings come with the
search's answer, as code's own note: a search never hides a finding, and the tools the search
ran (what the model route is scored on) stay the search alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..checks import drug_safety
from ..checks.context import HookData
from ..languages import N_, answer_language, fold, message, say
from .prompts import rules

# the searches of published sources
SEARCHES = frozenset({"find_clinical_trials", "search_medical_literature"})


@lru_cache(maxsize=2)
def _phrases(key: str) -> re.Pattern[str]:
    words = sorted(rules()[key], key=len, reverse=True)
    return re.compile(rf"(?<![a-z'])(?:{'|'.join(re.escape(w) for w in words)})(?![a-z])")


def tried_on_her(text: str) -> bool:
    """A therapeutic trial asked ("trial of losartan?"), with no word of a search for studies
    ("trials of …", "any RCTs on …", "ensayos clínicos de …")."""
    low = " ".join(fold(text or "").lower().replace("’", "'").split())
    return bool(_phrases("therapeutic_trials").search(low)) and not _phrases(
        "trial_searches").search(low)


def beside_the_search(drugs: list[str], data: HookData | None) -> str:
    """The safety check of ``drugs`` (named in a search for studies) on this chart, in the
    words of the check: its findings, what it could not read, or what it does not cover."""
    names = ", ".join(dict.fromkeys(drugs))
    if data is None:
        return say(message(N_("No patient in context: %(drugs)s was not checked against a "
                              "chart."), drugs=names), answer_language())
    report = drug_safety.check(list(dict.fromkeys(drugs)), data, asking=True)
    head = say(message(N_("The search named %(drugs)s; checked against this patient's chart "
                          "as well:"), drugs=names), answer_language())
    return "\n".join([head, *(f"- {line}" for line in report.lines() if line)])
