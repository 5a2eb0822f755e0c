"""An OpenAI-compatible model server that answers every case correctly.

``OracleModelServer(cases)`` is the scripted server (``tests/support/model_server``)
with its answers derived from the case expectations instead of a queue: each
request is matched to its case by the query text it carries (the longest case
query found in the messages), and the schema name says what to answer —

- ``IntentClassification``: DIRECT when the case expects no tools, else
  TOOL_NEEDED with the first expected tool suggested;
- ``ToolSelection``: the first expected tool not yet listed under "Already done";
- ``<Tool>Args``: the case's key arguments for that tool;
- ``ResultAssessment`` success; ``RetryStrategy`` retry_same; ``ImageFindings``
  a plain normal study; plain text: a one-line answer naming the query.

``wrong={(case_id, schema_name): answer}`` replaces one answer (to prove that
the evaluation notices a wrong model). Queued scripts and injections of the
base class still come first, so failure modes can be mixed in.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
from contextlib import contextmanager

from smart_docgemma.tools.catalog import spec, specs

from tests.support.model_server import ScriptedModelServer, minimal, reply

ARG_SCHEMA_TOOL = {s.args_model.__name__: tool for tool, s in specs().items()}
IMAGE_FINDINGS = {"modality": "chest X-ray", "findings": ["No focal consolidation", "No pleural effusion"],
                  "impression": "No acute cardiopulmonary abnormality.", "confidence": "moderate",
                  "specialist_review": False}


class OracleModelServer(ScriptedModelServer):
    def __init__(self, cases, latency: float = 0.0, wrong: dict | None = None, **kw):
        super().__init__(latency=latency, **kw)
        self.cases = sorted(cases, key=lambda c: -len(c.query))
        self.wrong = dict(wrong or {})
        self._local = threading.local()

    def _answer(self, body: dict):
        self._local.body = body
        return super()._answer(body)

    def _next(self, name: str, schema: dict | None):
        with self._lock:
            queued = bool(self._injected or self._queues[name])
        if queued:
            return super()._next(name, schema)
        body = self._local.body
        case = self.case_for(body)
        answer = self.wrong.get((case.id, name)) if case else None
        if answer is None:
            answer = self.answer(case, name, body, schema)
        return reply(answer)

    def case_for(self, body: dict):
        text = json.dumps(body.get("messages", []), ensure_ascii=False)
        return next((c for c in self.cases if json.dumps(c.query, ensure_ascii=False)[1:-1] in text), None)

    def answer(self, case, name: str, body: dict, schema: dict | None):
        if name == "":
            return f"Answer for: {case.query}" if case else "Answer."
        if case is None or name == "RetryStrategy":
            return {"strategy": "retry_same"} if name == "RetryStrategy" else minimal(schema or {})
        if name == "IntentClassification":
            out = {"intent": "TOOL_NEEDED" if case.tools else "DIRECT", "task_summary": case.query[:200]}
            return {**out, "suggested_tool": case.tools[0]} if case.tools else out
        if name == "ToolSelection":
            return {"tool_name": self._next_tool(case, body, schema)}
        if name in ARG_SCHEMA_TOOL:
            return case.args.get(ARG_SCHEMA_TOOL[name]) or minimal(schema or {})
        if name == "ResultAssessment":
            return {"quality": "success_rich", "brief_summary": "The result answers the question."}
        if name == "ImageFindings":
            return IMAGE_FINDINGS
        return minimal(schema or {})

    @staticmethod
    def _next_tool(case, body: dict, schema: dict | None) -> str:
        text = json.dumps(body.get("messages", []), ensure_ascii=False)
        allowed = ((schema or {}).get("properties", {}).get("tool_name", {}).get("enum")) or list(specs())
        for tool in case.tools:
            if f"Already done \u2014 {spec(tool).label}" not in text and tool in allowed:
                return tool
        return allowed[0]


@contextmanager
def oracle_process(latency_ms: float = 0.0):
    """The oracle over the bundled case set in a separate process (its own GIL,
    like a real model server); yields its base URL (…/v1)."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.bench.oracle", "--latency-ms", str(latency_ms)],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        if not line.startswith("http"):
            raise RuntimeError(f"oracle server did not start (exit {proc.poll()})")
        _wait_listening(line + "/models", proc)
        yield line
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_listening(url: str, proc, timeout: float = 60) -> None:
    import time

    import requests

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"oracle server not answering at {url}")


def _serve(argv=None) -> None:
    """Serve the oracle with gunicorn (threads, HTTP keep-alive), as vLLM's server keeps the
    app's connections open; werkzeug's development server closes every connection, which would
    charge each model call a TCP connect the deployed app never pays."""
    from gunicorn.app.base import BaseApplication
    from smart_docgemma.evaluation import load_cases

    from tests.support.servers import free_port

    p = argparse.ArgumentParser(prog="python -m tests.bench.oracle")
    p.add_argument("--latency-ms", type=float, default=0.0)
    p.add_argument("--port", type=int, default=0, help="default: a free port")
    args = p.parse_args(argv)
    srv, port = OracleModelServer(load_cases(), latency=args.latency_ms / 1000), args.port or free_port()

    class _Server(BaseApplication):
        def load_config(self):
            for key, value in {"bind": f"127.0.0.1:{port}", "worker_class": "gthread", "workers": 1,
                               "threads": 256, "keepalive": 30, "graceful_timeout": 2,
                               "loglevel": "warning"}.items():
                self.cfg.set(key, value)

        def load(self):
            return srv._wsgi

    print(f"http://127.0.0.1:{port}/v1", flush=True)
    _Server().run()


if __name__ == "__main__":
    _serve()
