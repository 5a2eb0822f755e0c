"""The project's multi-step task set (PhysicianBench-shaped): a clinician's request and its
follow-ups on one chart, graded by five or more checkpoints each — retrieve, reason, propose,
document, nothing written before Approve, exactly once after — scored by code against FHIR.
Tasks are data (one YAML file per family here, ``tasks.py``); ``run.py`` drives the real agent
and grades; ``python -m smart_docgemma.evaluation.multistep`` runs it."""
