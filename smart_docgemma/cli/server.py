"""``docgemma``: run the app in production with gunicorn (threads), or Flask's server as a
fallback."""
from __future__ import annotations

import os

from .. import config


def main() -> None:
    """Serve ``create_app()`` on DOCGEMMA_HOST:DOCGEMMA_PORT with DOCGEMMA_WORKERS processes."""
    settings = config.read()
    host, port, workers = settings["HOST"], int(settings["PORT"]), int(settings["WORKERS"])
    from gunicorn.app.base import BaseApplication

    from .. import logs

    level = settings["LOG_LEVEL"]
    logs.configure(level)
    _metrics_folder()

    from .. import create_app
    from ..knowledge.warmup import warm_up

    class _App(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("threads", int(settings["THREADS"]))
            self.cfg.set("workers", workers)
            self.cfg.set("timeout", 180)
            self.cfg.set("child_exit", _worker_exited)
            self.cfg.set("logconfig_dict", logs.gunicorn_config(level))

        def load(self):
            app = create_app()
            warm_up()
            return stalled_clients_cut(app, float(app.config["CLIENT_IO_TIMEOUT_S"]))

    embedded = _start_embedded()
    try:
        _App().run()
    finally:
        if embedded is not None:
            embedded.stop()


def stalled_clients_cut(app, seconds: float):
    """A client that stops reading its answer (or stops sending its body) leaves gunicorn's
    thread blocked in a socket write (read) with no end: each request's socket gets a timeout
    of ``seconds`` per operation, so such a client loses the connection and the thread is free.
    gunicorn makes the socket blocking without a timeout again for the next request."""
    def wsgi(environ, start_response):
        sock = environ.get("gunicorn.socket")
        if sock is not None:
            sock.settimeout(seconds)
            environ["wsgi.input"] = _TimedBody(environ["wsgi.input"])
        return app(environ, start_response)
    return wsgi


class _TimedBody:
    """The request body, whose socket timing out is werkzeug's ``RequestTimeout`` (408, an HTTP
    error the app answers like any other) instead of an exception it would answer with 500."""

    def __init__(self, body):
        self.body = body

    def read(self, size=None):
        return self._timed(self.body.read, size)

    def readline(self, size=None):
        return self._timed(self.body.readline, size)

    def readlines(self, size=None):
        return self._timed(self.body.readlines, size)

    def __iter__(self):
        return iter(self.readline, b"")

    @staticmethod
    def _timed(read, size):
        from werkzeug.exceptions import RequestTimeout

        try:
            return read(size)
        except TimeoutError as exc:
            raise RequestTimeout("The request body stopped arriving.") from exc


def _metrics_folder() -> None:
    """Workers are separate processes: prometheus-client's multiprocess mode keeps their
    samples in files that /metrics sums. The folder must exist, and be empty, before any
    worker imports prometheus_client (a stale file would add a dead run's counts)."""
    import shutil
    import tempfile

    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    else:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="docgemma-metrics-")


def _worker_exited(server, worker) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def _start_embedded():
    """DOCGEMMA_GGUF set: start the local llama.cpp server first; its endpoint and
    schema dialect go into DOCGEMMA_* so every worker's ``create_app()`` uses it."""
    from ..modelserver.embedded import start_embedded_model

    model = start_embedded_model()
    if model is not None:
        print(f"Embedded model {model.model} ready in {model.started_s} s at {model.endpoint} "
              f"(log: {model.log_path})", flush=True)
    return model


if __name__ == "__main__":
    main()
