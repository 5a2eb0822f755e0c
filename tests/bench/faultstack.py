"""The production shape of the stack for the fault bench, each part a process (or server) of its
own that the bench can kill, pause or restart while clinicians work:

- PostgreSQL (``tests.support.postgres.Cluster``: ``restart``);
- HAPI FHIR with its data on disk (``HAPI_DATA_DIR``: ``kill`` -9 and ``start`` again);
- a real HTTP proxy before HAPI (``tests.support.fhir_proxy``: slow, paused);
- the EHR sandbox (OAuth server + FHIR proxy, its signing key in a file so a restart keeps
  the tokens it issued valid, its refresh tokens and launches in memory: lost on restart);
- the model server (``tests.bench.oracle`` in its own process: ``kill_model`` / ``start_model``);
- the app under gunicorn (``docgemma``, 2 workers) on PostgreSQL, its cache folder given.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from launch.fixtures import load_fixtures
from launch.stack import AppProcess, ServedApp
from launch.upstream import start_local

from tests.support.fhir_proxy import FhirProxy
from tests.support.postgres import Cluster
from tests.support.servers import free_port

from .knowledge import recorded_sources

HAPI_OPTS = "-Xmx768m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss1m"


class FaultStack:
    def __init__(self, workers: int = 2):
        self.folder = Path(tempfile.mkdtemp(prefix="docgemma-faults-"))
        self.workers = workers
        self.ports = {k: free_port() for k in ("hapi", "sandbox", "app", "model")}
        self.app_url = f"http://127.0.0.1:{self.ports['app']}"
        self.sandbox_url = f"http://127.0.0.1:{self.ports['sandbox']}"
        self.cache = self.folder / "cache"
        self._sources = recorded_sources()

    # -- start and stop everything --------------------------------------------------
    def __enter__(self) -> FaultStack:
        os.environ["HAPI_DATA_DIR"] = str(self.folder / "hapi-data")
        os.environ["HAPI_JAVA_OPTS"] = HAPI_OPTS
        self.pg = Cluster().start()
        self.database = self.pg.new_database()
        self.start_hapi()
        load_fixtures(self.hapi.base_url)
        self.proxy = FhirProxy(self.hapi.base_url, port=free_port()).start()
        self._key_file()
        self.start_sandbox()
        self.start_model()
        self.knowledge = self._sources.__enter__()
        from tests.cds.ehr_client import MiniEHR

        self.cds_client = MiniEHR(self.app_url)  # the EHR's CDS Hooks client, trusted by the app
        self.start_app()
        return self

    def __exit__(self, *exc) -> None:
        for stop in (
            self.stop_app,
            self.kill_model,
            self.stop_sandbox,
            self.proxy.stop,
            self.hapi.stop,
            self.pg.stop,
        ):
            try:
                stop()
            except Exception as error:  # stop the rest whatever one of them did
                print(f"stopping: {error}", file=sys.stderr)
        self._sources.__exit__(None, None, None)

    # -- HAPI ------------------------------------------------------------------------
    def start_hapi(self) -> float:
        started = time.monotonic()
        self.hapi = start_local(self.ports["hapi"], self.folder / "hapi-logs")
        return time.monotonic() - started

    def restart_hapi(self) -> None:
        """Start HAPI again on its files while the proxy holds the traffic (as a load balancer's
        readiness check does), then let it through. A HAPI started under the clinicians' load
        did not become ready in 180 s (its 16 database connections all busy, 13 waiting)."""
        for attempt in range(2):
            try:
                self.start_hapi()
                break
            except Exception as error:  # noqa: BLE001 - one more try, then give up
                print(f"HAPI restart failed ({attempt + 1}): {str(error)[:200]}", file=sys.stderr)
                self.hapi.stop()
        self.proxy.resume()

    def kill_hapi(self) -> None:
        os.kill(self.hapi.pid, signal.SIGKILL)
        self.hapi.stop()

    # -- the sandbox (OAuth server) ----------------------------------------------------
    def _key_file(self) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.key = self.folder / "sandbox-key.pem"
        self.key.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )

    def start_sandbox(self) -> None:
        from launch.sandbox import create_sandbox

        app = create_sandbox(
            {
                "FHIR_UPSTREAM": self.proxy.url,
                "PORT": self.ports["sandbox"],
                "SIGNING_KEY_FILE": str(self.key),
                "APP_LAUNCH_URL": f"{self.app_url}/launch",
                "PROTECTED_RESOURCES": {f"{self.app_url}/mcp": "docgemma"},
            }
        )
        self.sandbox = ServedApp(app, "127.0.0.1", self.ports["sandbox"])

    def stop_sandbox(self) -> None:
        self.sandbox.stop()
        self.sandbox._server.server_close()

    # -- the model server ------------------------------------------------------------
    def start_model(self) -> None:
        self.model = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.bench.oracle",
                "--latency-ms",
                "200",
                "--port",
                str(self.ports["model"]),
            ],
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.model_url = self.model.stdout.readline().strip()
        _wait(self.model_url + "/models")

    def kill_model(self) -> None:
        if self.model.poll() is None:
            os.killpg(self.model.pid, signal.SIGKILL)  # the server and its worker
            self.model.wait(10)

    # -- the app under gunicorn --------------------------------------------------------
    def config(self) -> dict:
        return {
            "SECRET_KEY": "fault-bench",
            "DATABASE_URL": self.database,
            "ENDPOINT": self.model_url,
            "SCHEMA_DIALECT": "json_schema",
            "CHAT_RATE_PER_MIN": 1000,
            "CACHE_PATH": str(self.cache),
            "ISS_ALLOWLIST": [f"{self.sandbox_url}/fhir"],
            "MODEL_PREFILL_NEXT_TURN": False,
            "MCP_URL": f"{self.app_url}/mcp",
            "MCP_AUTHORIZATION_SERVER": f"{self.sandbox_url}/fhir",
            "CDS_ISSUERS": {self.cds_client.issuer: {"jwks": self.cds_client.jwks()}},
            **self.knowledge,
        }

    def start_app(self) -> None:
        """The sandbox's own way of running the app as a process (``SANDBOX_APP_PROCESS``)."""
        os.environ.update(
            DOCGEMMA_HOST="127.0.0.1",
            DOCGEMMA_PORT=str(self.ports["app"]),
            DOCGEMMA_WORKERS=str(self.workers),
            DOCGEMMA_THREADS="16",
            PYTHONPATH=os.getcwd(),
        )
        self.app_log = self.folder / "app.log"
        self.app = AppProcess(self.config(), self.app_url, log=open(self.app_log, "a")).proc

    def stop_app(self) -> None:
        if self.app.poll() is None:
            self.app.terminate()
            self.app.wait(30)

    def worker_pids(self) -> list[int]:
        """gunicorn's workers: the processes whose parent is the app's master."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.app.pid:
                found.append(int(stat.parent.name))
        return sorted(found)


def worker_rss_mb(pid: int) -> float:
    text = Path(f"/proc/{pid}/status").read_text()
    return (
        int(next(line.split()[1] for line in text.splitlines() if line.startswith("VmRSS:"))) / 1024
    )


def _wait(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} not answering after {timeout} s")
