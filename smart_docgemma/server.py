"""``docgemma``: run the app in production with gunicorn (threads), or Flask's server as a fallback."""
from __future__ import annotations

import os


def main() -> None:
    """Serve ``create_app()`` on DOCGEMMA_HOST:DOCGEMMA_PORT."""
    host = os.environ.get("DOCGEMMA_HOST", "127.0.0.1")
    port = int(os.environ.get("DOCGEMMA_PORT", "8000"))
    from gunicorn.app.base import BaseApplication

    from . import create_app

    class _App(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("threads", int(os.environ.get("DOCGEMMA_THREADS", "16")))
            self.cfg.set("timeout", 180)

        def load(self):
            app = create_app()
            warm_up()
            return app

    embedded = _start_embedded()
    try:
        _App().run()
    finally:
        if embedded is not None:
            embedded.stop()


def warm_up() -> None:
    """Load the offline drug dictionary in the background (~3 s), so the first question
    of the day does not wait for it."""
    import threading

    from .agent.extraction import vocabulary

    threading.Thread(target=vocabulary, name="warm-up", daemon=True).start()


def _start_embedded():
    """DOCGEMMA_GGUF set: start the local llama.cpp server first; its endpoint and
    schema dialect go into DOCGEMMA_* so every worker's ``create_app()`` uses it."""
    from .agent.embedded import start_embedded_model

    model = start_embedded_model()
    if model is not None:
        print(f"Embedded model {model.model} ready in {model.started_s} s at {model.endpoint} "
              f"(log: {model.log_path})", flush=True)
    return model


if __name__ == "__main__":
    main()
