"""Evaluation harness: run the clinician case set (``cases.yaml``) through the
agent against a live OpenAI-compatible server and HAPI FHIR with the scenario
fixtures, and score route, tool and argument accuracy, model calls and latency
per category.

    docgemma-eval --endpoint http://gpu-box:8000/v1 --model google/medgemma-1.5-4b-it

or in code::

    from smart_docgemma.evaluation import load_cases, evaluate
    report = evaluate(load_cases(), endpoint=url, fhir_base=fhir)
"""
from ..agent.state import route_of
from .cases import CATEGORIES, Case, load_cases
from .harness import evaluate
from .report import markdown

__all__ = ["CATEGORIES", "Case", "load_cases", "evaluate", "route_of", "markdown"]
