"""Benchmarks (``python -m tests.bench --out bench.json``) and the scripted
stand-ins they share with ``tests/evaluation/test_evaluation.py``. No module here is
named ``test_*``, and ``tests/conftest.py`` ignores this folder, so the default
``pytest`` run never collects it."""
