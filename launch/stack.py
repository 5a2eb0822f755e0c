"""``docgemma-sandbox``: the whole local stack in one command (README "The two commands").

1. the FHIR upstream (``launch.upstream.start_upstream``: FHIR_UPSTREAM_URL, Docker, or
   the project's HAPI module on HAPI_PORT, default 8080) and the ``fhir_fixtures/`` patients;
2. the EHR sandbox (``launch.sandbox``) on SANDBOX_PORT (9000);
3. the app (``smart_docgemma.create_app``) on DOCGEMMA_PORT (8000), with the sandbox
   FHIR base added to its ``iss`` allow-list: a thread of this process, or, with
   ``SANDBOX_APP_PROCESS=gunicorn``, the ``docgemma`` command (gunicorn, DOCGEMMA_WORKERS
   workers) as a process of its own, as in production (its settings passed as DOCGEMMA_*
   variables), so it can be restarted or lose a worker while the EHR stays up. With
   ``HAPI_DATA_DIR`` the project's HAPI keeps its data on disk (``launch.upstream``);
4. optionally an embedded model when DOCGEMMA_GGUF is set (``start_embedded_model`` hook);
5. after "Ready", the Synthea population (``launch.synthea``: generated while HAPI starts on the
   first run, then cached; ``launch.population``: loaded with stable ids in a background thread,
   so the first start's budget is HAPI, the fixtures and the app). ``DOCGEMMA_SYNTHEA_SIZE=0``
   turns it off.

It prints the launcher URL and a direct launch URL, then waits; Ctrl-C or SIGTERM
stops everything it started, in reverse order.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from urllib.parse import urlencode

from werkzeug.serving import make_server

SAMPLE_PATIENT = "pt-warfarin"
SAMPLE_PRACTITIONER = "dr-okafor"


class ServedApp:
    """A WSGI app on a threaded werkzeug server in a background thread."""

    def __init__(self, app, host: str, port: int):
        self._server = make_server(host, port, app, threaded=True)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=10)


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def start_fhir(stack: ExitStack) -> tuple[str, Future | None]:
    """Start (or find) HAPI and load the fixtures; returns the upstream FHIR base and the
    Synthea population being generated (first run only) while HAPI starts, or None."""
    from launch.fixtures import load_fixtures
    from launch.upstream import start_upstream

    generating = start_population()
    print(
        "Starting the FHIR server (first run builds HAPI with Maven; allow a few minutes)...",
        flush=True,
    )
    upstream = start_upstream(port=_env_int("HAPI_PORT", 8080))
    stack.callback(upstream.stop)
    print(f"  {upstream.kind} FHIR server at {upstream.base_url}", flush=True)
    counts = load_fixtures(upstream.base_url)
    print(
        f"  loaded fixtures: {', '.join(f'{n} {t}' for t, n in sorted(counts.items()))}", flush=True
    )
    return upstream.base_url, generating


def start_population() -> Future | None:
    """Generate (or find in the cache) the Synthea population in a background thread;
    None when ``DOCGEMMA_SYNTHEA_SIZE=0`` turns it off."""
    from launch.synthea import PopulationSpec, generate

    spec = PopulationSpec.from_env()
    if spec.size <= 0:
        return None
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="synthea")
    future = pool.submit(generate, spec)
    pool.shutdown(wait=False)
    return future


def load_population_into(base_url: str, generating: Future) -> None:
    """Load the generated population; a failure is reported and the sandbox goes on without it."""
    from launch.population import PopulationError, load_population
    from launch.synthea import SyntheaUnavailable

    try:
        population = load_population(base_url, generating.result())
    except (SyntheaUnavailable, PopulationError) as exc:
        print(f"  Synthea population not loaded (the scenario patients are): {exc}", flush=True)
        return
    spec = population.spec
    print(
        f"  Synthea population (seed {spec.seed}, {len(population.patients)} patients, "
        f"generated in {population.generate_s:.0f} s, loaded in {population.load_s:.0f} s):",
        flush=True,
    )
    for p in population.patients:
        print(f"    {p.id}  {p.name}, {p.age()} y {p.gender}{' (deceased)' if p.deceased else ''}, "
              f"{p.resources} resources", flush=True)
    if population.skipped:
        print(
            f"    not loaded (too large for the sandbox): {', '.join(population.skipped)}",
            flush=True,
        )


def start_sandbox(stack: ExitStack, fhir_upstream: str):
    """The EHR sandbox on SANDBOX_PORT; returns its Flask app."""
    from launch.sandbox import create_sandbox
    from launch.sandbox.config import load
    from smart_docgemma.config import read

    port = int(load(None)["PORT"])
    # the app's MCP endpoint: a resource the sandbox issues tokens for
    mcp_url = f"{app_base_url()}/mcp"
    client = read()["CLIENT_ID"]  # the app's client serves it (and exchanges its tokens)
    app = create_sandbox(
        {
            "FHIR_UPSTREAM": fhir_upstream,
            "PORT": port,
            "PROTECTED_RESOURCES": {mcp_url: client},
            "APP_LAUNCH_URL": f"{app_base_url()}/launch",
        }
    )
    server = ServedApp(app, app.extensions["sandbox"].config["HOST"], port)
    stack.callback(server.stop)
    return app


def app_base_url() -> str:
    """The app's base URL from DOCGEMMA_HOST / DOCGEMMA_PORT (the launcher's "App launch URL")."""
    from smart_docgemma.config import read

    settings = read()
    return f"http://{settings['HOST']}:{int(settings['PORT'])}"


def app_config(sandbox_fhir: str) -> dict:
    """The app trusts the sandbox it runs beside (its FHIR base, also as ``localhost``), plus
    DOCGEMMA_ISS_ALLOWLIST when set; not the default :9000 issuers, which may be another EHR.
    The sandbox also authorises the app's MCP endpoint."""
    raw = os.environ.get("DOCGEMMA_ISS_ALLOWLIST")
    allow = json.loads(raw) if raw else []
    alias = sandbox_fhir.replace("://127.0.0.1:", "://localhost:")
    return {"ISS_ALLOWLIST": list(dict.fromkeys([sandbox_fhir, alias, *allow])),
            "MCP_AUTHORIZATION_SERVER": sandbox_fhir, "MCP_URL": f"{app_base_url()}/mcp"}


def start_embedded_model_hook(stack: ExitStack, config: dict) -> None:
    """HOOK: with DOCGEMMA_GGUF set, start the embedded model if the app ships one.

    Calls ``smart_docgemma.modelserver.embedded.start_embedded_model(config)`` when that module
    exists; a returned handle with ``stop()`` is stopped at exit, and a returned
    ``endpoint`` (attribute or str) becomes the app's ENDPOINT.
    """
    if not os.environ.get("DOCGEMMA_GGUF"):
        return
    try:
        from smart_docgemma.modelserver.embedded import start_embedded_model
    except ImportError:
        print(
            "  DOCGEMMA_GGUF is set but smart_docgemma.modelserver.embedded "
            "is not available; running degraded."
        )
        return
    handle = start_embedded_model(config)
    if hasattr(handle, "stop"):
        stack.callback(handle.stop)
    endpoint = handle if isinstance(handle, str) else getattr(handle, "endpoint", None)
    if endpoint:
        config["ENDPOINT"] = endpoint


def start_app(stack: ExitStack, sandbox_fhir: str):
    """The app on DOCGEMMA_HOST:DOCGEMMA_PORT (threaded werkzeug); returns its base URL."""
    from smart_docgemma import create_app
    from smart_docgemma.config import read

    settings = read()
    host, port = settings["HOST"], int(settings["PORT"])
    config = app_config(sandbox_fhir)
    start_embedded_model_hook(stack, config)
    if os.environ.get("SANDBOX_APP_PROCESS", "").strip() == "gunicorn":
        stack.callback(AppProcess(config, f"http://{host}:{port}").stop)
        return f"http://{host}:{port}"
    server = ServedApp(create_app(config), host, port)
    stack.callback(server.stop)
    from smart_docgemma.knowledge.warmup import warm_up

    warm_up()
    return f"http://{host}:{port}"


class AppProcess:
    """The ``docgemma`` command (gunicorn) as a child process, ready when ``/healthz`` answers;
    ``config`` reaches it as DOCGEMMA_<KEY> variables (JSON), as an operator would set them."""

    READY_S = 120.0

    def __init__(self, config: dict, url: str, log=None):
        """``log``: a file for its output (default: this process's)."""
        import subprocess

        env = {**os.environ, **{f"DOCGEMMA_{k}": json.dumps(v) for k, v in config.items()}}
        command = [sys.executable, "-c", "from smart_docgemma.cli.server import main; main()"]
        self.proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT if log else None)
        self._wait(f"{url}/healthz")

    def _wait(self, url: str) -> None:
        import requests

        deadline = time.monotonic() + self.READY_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app (gunicorn) exited with code {self.proc.returncode}")
            try:
                if requests.get(url, timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"the app (gunicorn) did not answer {url} in {self.READY_S:.0f} s")

    def stop(self) -> None:
        """SIGTERM (gunicorn's graceful stop), then kill after 30 s."""
        import subprocess

        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def banner(sandbox_url: str, app_url: str) -> str:
    direct = f"{sandbox_url}/launch?" + urlencode(
        {
            "patient": SAMPLE_PATIENT,
            "practitioner": SAMPLE_PRACTITIONER,
            "launch_url": f"{app_url}/launch",
        }
    )
    return (f"\nEHR sandbox launcher:  {sandbox_url}/\n"
            f"Direct EHR launch:     {direct}\n"
            f"Sandbox FHIR (iss):    {sandbox_url}/fhir\n"
            f"App:                   {app_url}\n"
            f"MCP (Streamable HTTP): {app_url}/mcp\n"
            "Press Ctrl-C to stop everything.\n")


def main(argv: list[str] | None = None) -> int:
    from smart_docgemma import logs
    from smart_docgemma.config import read

    logs.configure(read()["LOG_LEVEL"])  # JSON lines, request ids, no secrets
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    started = time.monotonic()
    with ExitStack() as stack:
        try:
            fhir_upstream, generating = start_fhir(stack)
            sandbox = start_sandbox(stack, fhir_upstream)
            sandbox_url = sandbox.extensions["sandbox"].public_url
            app_url = start_app(stack, f"{sandbox_url}/fhir")
            print(
                f"Ready in {time.monotonic() - started:.0f} s.{banner(sandbox_url, app_url)}",
                flush=True,
            )
            if generating is not None:  # after Ready: the first start stays within its budget
                print("Loading the Synthea population in the background (the launcher lists each "
                      "patient once loaded)...", flush=True)
                threading.Thread(target=load_population_into, args=(fhir_upstream, generating),
                                 daemon=True, name="synthea-load").start()
            while not stop.wait(1):
                pass
        except KeyboardInterrupt:
            pass
        except Exception as exc:  # start-up failures: say what failed, no traceback
            print(f"docgemma-sandbox: {exc}", file=sys.stderr)
            return 1
        finally:
            print("Stopping...", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
