"""One patient-safety check for every path (chat answer, approval card, CDS order hooks).

``check.check(drugs, data)`` runs the knowledge core against the chart of the patient in
context — the CDS order rules (interactions, duplicates, allergies, pregnancy/lactation,
renal flags, monitoring labs, boxed warnings) plus ``rules`` (drug–disease contraindications
from the problem list, children's weight-based doses, and what the chart lacks for a check) —
and ``render`` gives the same sentence and severity each path shows.
"""
