"""An embedded CPU model for clinics without a GPU: a local
OpenAI-compatible llama.cpp server on a GGUF file the clinic downloaded once.

``DOCGEMMA_GGUF=/models/medgemma-1.5-4b-it-Q4_K_M.gguf`` (plus optional
``DOCGEMMA_MMPROJ=/models/mmproj-F16.gguf`` for images) makes ``docgemma`` and
``docgemma-sandbox`` call ``start_embedded_model(config)`` before the app is
built: it starts ``python -m llama_cpp.server`` (llama-cpp-python, the
``embedded`` extra) on a loopback port, waits until ``/v1/models`` answers and
returns an ``EmbeddedModel`` whose ``app_config()`` points the agent at it.

Why llama-cpp-python's server: it installs from PyPI with pip (no separate
llama.cpp build) and speaks the OpenAI chat API. Its one quirk is the schema
dialect: it accepts ``{"type": "json_object", "schema": ...}`` and answers
``json_schema`` with HTTP 500 (its llama_types.py has no json_schema), so the
app is told ``SCHEMA_DIALECT=json_object_schema`` instead of probing. Images
use the generic libmtmd handler (``--chat_format mtmd --clip_model_path``),
which renders the GGUF's own chat template (Gemma 3 for MedGemma).

The server is a child process that cannot outlive us: ``stop()`` terminates it
(then kills it), and on Linux ``PR_SET_PDEATHSIG`` makes the kernel send it
SIGTERM if the starting thread dies without calling ``stop()``.
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib.metadata
import importlib.util
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from ..agent.prompts import load, request, template
from ..agent.window import context_size
from ..config import read
from ..errors import EmbeddedModelError
from ..tools import catalog

DIALECT = "json_object_schema"  # what llama-cpp-python's server accepts (see module docstring)
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


@dataclass
class EmbeddedModel:
    """A running local model server: where it answers and how to stop it."""

    endpoint: str  # OpenAI base URL, ending in /v1
    model: str  # the alias requests name (the server serves one model)
    process: subprocess.Popen[bytes] = field(repr=False)
    log_path: Path
    dialect: str = DIALECT
    vision: bool = False
    started_s: float = 0.0  # seconds from spawn to ready
    # forked children (gunicorn workers) must not stop it
    owner_pid: int = field(default_factory=os.getpid)

    timeout_s: float = 300.0  # per model call: a 4B model on a few cores needs minutes per turn
    n_ctx: int = 4096  # its context window (tokens)
    cache_dir: Path | None = None  # where its prompt cache is kept (None: no prompt cache)

    def app_config(self) -> dict[str, Any]:
        """Config keys that point the app's ``ModelClient`` at this server."""
        return {"ENDPOINT": self.endpoint, "SCHEMA_DIALECT": self.dialect, "MODEL": self.model,
                "MODEL_TIMEOUT_S": self.timeout_s, "MODEL_CONTEXT_TOKENS": self.n_ctx}

    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM, wait, then SIGKILL: never leave the server behind. Only the
        process that started the server stops it (a worker exiting must not)."""
        if os.getpid() == self.owner_pid and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)


def settings(config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The app's settings (``config.read``) with ``config`` on top; callers may pass a
    partial mapping, and a None value there leaves the setting as it was."""
    return read({k: v for k, v in dict(config or {}).items() if v is not None})


def server_command(gguf: str, *, port: int, host: str = "127.0.0.1", n_ctx: int = 4096,
                   threads: int | None = None, mmproj: str | None = None,
                   alias: str | None = None, cache_mb: int = 0,
                   cache_dir: Path | None = None, whole: bool = False, slots: int = 3) -> list[str]:
    """The ``llama_cpp.server`` command line (flags from its ``settings.py``); with ``cache_mb``
    the same server with the prompt cache (``promptcache.py``), kept in ``cache_dir``; with
    ``whole`` as well, that server computing every prompt whole (the bench's reference);
    ``slots``: the contexts it keeps live."""
    server = (
        ["llama_cpp.server"]
        if cache_mb <= 0
        else [
            "smart_docgemma.modelserver",
            "--prompt_cache_mb",
            str(cache_mb),
            "--prompt_slots",
            str(slots),
            *(["--prompt_cache_dir", str(cache_dir)] if cache_dir else []),
            *(["--prompt_whole"] if whole else []),
        ]
    )
    cmd = [
        sys.executable,
        "-m",
        *server,
        "--model",
        str(gguf),
        "--host",
        host,
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        str(threads or os.cpu_count() or 1),
        "--model_alias",
        alias or Path(gguf).stem,
    ]
    if mmproj:  # generic multimodal handler over the GGUF's own chat template
        cmd += ["--chat_format", "mtmd", "--clip_model_path", str(mmproj)]
    return cmd


def cache_folder(gguf: str, n_ctx: int, root: str | None = None) -> Path:
    """Where the prompt cache of this model file and context size lives: a state is only valid
    for the exact file (path, size, modification time) and context it was computed with."""
    stat = Path(gguf).stat()
    ident = f"{Path(gguf).resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{n_ctx}|{_llama_version()}"
    base = Path(root) if root else Path.home() / ".cache" / "smart_docgemma" / "prompt-cache"
    return base / f"{Path(gguf).stem}-{hashlib.sha1(ident.encode()).hexdigest()[:12]}"


def _llama_version() -> str:
    try:
        return importlib.metadata.version("llama-cpp-python")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def start_llama_server(
    gguf: str,
    *,
    mmproj: str | None = None,
    host: str = "127.0.0.1",
    port: int | None = None,
    n_ctx: int = 4096,
    threads: int | None = None,
    alias: str | None = None,
    timeout: float = 300,
    log_dir: str | None = None,
    cache_mb: int = 0,
    cache_dir: str | None = None,
    whole: bool = False,
    slots: int = 3,
) -> EmbeddedModel:
    """Start the server on ``gguf`` and return once ``/v1/models`` answers; with ``cache_mb``
    its prompt cache (RAM budget in MB) is kept under ``cache_dir`` (``cache_folder``)."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise EmbeddedModelError(
            "DOCGEMMA_GGUF needs llama-cpp-python: pip install 'smart_docgemma[embedded]'"
        )
    for path in filter(None, (gguf, mmproj)):
        if not Path(path).is_file():
            raise EmbeddedModelError(f"Model file not found: {path}")
    port = port or _free_port(host)
    alias = alias or Path(gguf).stem
    log_path = Path(tempfile.mkstemp(prefix="llama-server-", suffix=".log", dir=log_dir)[1])
    folder = cache_folder(gguf, n_ctx, cache_dir) if cache_mb > 0 else None
    cmd = server_command(
        gguf,
        port=port,
        host=host,
        n_ctx=n_ctx,
        threads=threads,
        mmproj=mmproj,
        alias=alias,
        cache_mb=cache_mb,
        cache_dir=folder,
        whole=whole,
        slots=slots,
    )
    started = time.monotonic()
    # OpenMP threads spin while waiting by default; on cores shared with the app,
    # HAPI or CI jobs that spinning made a 135M model ~20x slower (measured).
    env = {"OMP_WAIT_POLICY": "PASSIVE", **os.environ}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                   stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
    model = EmbeddedModel(endpoint=f"http://{host}:{port}/v1", model=alias, process=process,
                          log_path=log_path, vision=bool(mmproj), n_ctx=n_ctx, cache_dir=folder)
    try:
        _wait_ready(model, timeout)
    except BaseException:
        model.stop()
        raise
    model.started_s = round(time.monotonic() - started, 1)
    return model


def start_embedded_model(
    config: Mapping[str, Any] | None = None, *, export: bool = True
) -> EmbeddedModel | None:
    """With ``GGUF`` configured, start the local server; otherwise None.

    ``config`` may be partial (the sandbox passes only its overrides): missing
    keys come from ``DOCGEMMA_*`` and DEFAULTS. With ``export`` the server's
    ``app_config()`` goes into ``DOCGEMMA_*`` variables, so any ``create_app()``
    after this call (a gunicorn worker, the sandbox's app) uses it. Callers
    call ``model.stop()`` at exit.
    """
    cfg = settings(config)
    if not cfg.get("GGUF"):
        return None
    gguf = str(cfg["GGUF"])
    if not Path(gguf).is_file():
        raise EmbeddedModelError(f"Model file not found: {gguf}")
    model = start_llama_server(
        gguf,
        mmproj=cfg.get("MMPROJ") or None,
        port=cfg.get("EMBEDDED_PORT") or None,
        n_ctx=int(cfg.get("EMBEDDED_N_CTX") or context_size(trained_context(gguf))),
        threads=cfg.get("EMBEDDED_THREADS") or None,
        timeout=float(cfg["EMBEDDED_START_TIMEOUT_S"]),
        cache_mb=int(cfg["EMBEDDED_CACHE_MB"] or 0),
        cache_dir=cfg.get("EMBEDDED_CACHE_DIR") or None,
        slots=int(cfg["EMBEDDED_SLOTS"] or 1),
    )
    model.timeout_s = max(float(cfg.get("MODEL_TIMEOUT_S") or 0), 300.0)
    if export:
        export_env(model)
    if model.cache_dir is not None:
        threading.Thread(
            target=warm, args=(model,), daemon=True, name="prompt-cache-warm-up"
        ).start()
    return model


def warm(model: EmbeddedModel) -> list[int]:
    """Compute every node's fixed part once, in the background, so a session's first question
    does not (the system texts, and TOOL_SELECT's list of every tool). A state already saved
    on disk makes this a cache hit. Returns the prompt tokens computed per request."""
    tools = template("tool_list").format(
        tool_list="\n".join(f"- {catalog.spec(n).description}" for n in catalog.running_order()))
    prompts = [request(node, "", fixed=(tools,) if node == "tool_select" else ())
               for node in load("prompts")["system"] if node != "vision"]
    computed: list[int] = []
    for messages in prompts:
        try:
            answer = requests.post(
                f"{model.endpoint}/chat/completions",
                timeout=model.timeout_s,
                json={
                    "model": model.model,
                    "messages": messages,
                    "max_tokens": 1,
                    "temperature": 0,
                },
            ).json()
        except (requests.RequestException, ValueError):
            return computed  # the server stopped: nothing to warm
        computed.append(int((answer.get("timings") or {}).get("prompt_n", -1)))
    return computed


def trained_context(gguf: str) -> int | None:
    """The context the model was trained for (``<architecture>.context_length`` in the GGUF's
    metadata: 131,072 for MedGemma 1.5 4B, 32,768 for Gemma 3 270M), or None when unstated.

    Read here, not with the ``gguf`` package: its reader parses the whole file's metadata, the
    262,144-entry vocabulary included (38 s measured on 2 busy cores); the key sought comes
    before the vocabulary, so this reads a few hundred bytes."""
    with open(gguf, "rb") as fh:
        magic, version, _, entries = struct.unpack("<4sIQQ", fh.read(24))
        if magic != b"GGUF" or version < 2:
            return None
        arch = None
        for _ in range(entries):
            key, kind = _gguf_string(fh), struct.unpack("<I", fh.read(4))[0]
            value = _gguf_value(fh, kind)
            if key == "general.architecture":
                arch = value
            elif arch is not None and key == f"{arch}.context_length":
                return int(str(value))
    return None


_GGUF_SCALARS = {
    0: "B",
    1: "b",
    2: "H",
    3: "h",
    4: "I",
    5: "i",
    6: "f",
    7: "?",
    10: "Q",
    11: "q",
    12: "d",
}


def _gguf_string(fh: Any) -> str:
    (size,) = struct.unpack("<Q", fh.read(8))
    return str(fh.read(size).decode("utf-8", "replace"))


def _gguf_value(fh: Any, kind: int) -> object:
    """One metadata value (GGUF v2/v3 types); an array is skipped (None)."""
    if kind == 8:
        return _gguf_string(fh)
    if kind == 9:
        item, count = struct.unpack("<IQ", fh.read(12))
        if item in _GGUF_SCALARS:
            fh.seek(count * struct.calcsize(_GGUF_SCALARS[item]), 1)
        else:
            for _ in range(count):
                _gguf_value(fh, item)
        return None
    fmt = "<" + _GGUF_SCALARS[kind]
    return struct.unpack(fmt, fh.read(struct.calcsize(fmt)))[0]


def export_env(model: EmbeddedModel) -> None:
    """Put ``app_config()`` into ``DOCGEMMA_*`` variables, for apps built later
    (gunicorn workers call ``create_app()`` after forking)."""
    for key, value in model.app_config().items():
        os.environ[f"DOCGEMMA_{key}"] = str(value)


def _wait_ready(model: EmbeddedModel, timeout: float) -> None:
    """Poll ``/v1/models``; fail early (with the log's tail) if the process exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not model.running():
            raise EmbeddedModelError(
                f"llama_cpp.server exited with code {model.process.returncode}: "
                f"{_tail(model.log_path)}"
            )
        try:
            if requests.get(f"{model.endpoint}/models", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.25)
    raise EmbeddedModelError(f"llama_cpp.server did not answer within {timeout:.0f} s "
                             f"(log: {model.log_path})")


def _tail(path: Path, lines: int = 5) -> str:
    text = path.read_text(errors="replace").strip().splitlines()
    return " | ".join(text[-lines:]) or "(no output)"


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM when the parent thread exits (Linux)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])
