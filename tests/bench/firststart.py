"""A new user's first start, measured end to end: ``pip install -e . && docgemma-sandbox``.

Run: ``python -m tests.bench.firststart [--runs 2] [--keep] [--checkout PATH] [--cold-synthea]``.

Each run copies this checkout (tracked and unignored files, so no built jar), makes a fresh
virtualenv (no system site packages), and runs the README's command in it with an empty pip
cache and an empty Maven local repository (``MAVEN_OPTS=-Dmaven.repo.local=…``, so ``~/.m2``
is neither read nor touched), until the sandbox prints its "Ready" line. Phases are the
timestamps of the lines the command prints; the load average is read before and after,
since the machine is shared. The sandbox then gets SIGTERM, as Ctrl-C would stop it.

``--cold-synthea``: the run also has an empty cache folder (``XDG_CACHE_HOME``, which
``launch.synthea`` reads), so the Synthea population is generated as on a new machine
(Synthea's jars resolved into the empty Maven repository, then the simulation); the run goes
on after "Ready" until the sandbox lists the loaded population. Without it, the user's cached
population (``~/.cache/smart_docgemma/synthea``) is used, and never changed either way.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "pip install -q -e . && docgemma-sandbox"
# line prefix -> phase name: the first line starting with it ends that phase
MARKS = {"Starting the FHIR server": "pip_install", "HAPI jar built in": "maven_build",
         "  local-java FHIR server at": "hapi_ready", "  loaded fixtures": "fixtures",
         "Ready in": "ready", "  Synthea population (seed": "population_listed",
         "  Synthea population not loaded": "population_failed"}


def copy_checkout(checkout: Path, dest: Path) -> Path:
    """The checkout's files as git sees them (no target/, no venvs, no caches)."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=checkout,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = checkout / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def environment(work: Path, cold_synthea: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DOCGEMMA_", "PIP_", "VIRTUAL_ENV", "PYTHON")) and k != "FHIR_UPSTREAM_URL"}
    env.update(PATH=f"{work / 'venv' / 'bin'}:{env['PATH']}", VIRTUAL_ENV=str(work / "venv"),
               PIP_CACHE_DIR=str(work / "pip-cache"), PIP_DISABLE_PIP_VERSION_CHECK="1",
               MAVEN_OPTS=f"{os.environ.get('MAVEN_OPTS', '')} -Dmaven.repo.local={work / 'm2'}".strip(),
               HAPI_PORT=str(free_port()), SANDBOX_PORT=str(free_port()), DOCGEMMA_PORT=str(free_port()))
    if cold_synthea:
        env["XDG_CACHE_HOME"] = str(work / "xdg-cache")
    return env


def one_run(checkout: Path, timeout_s: float, keep: bool, cold_synthea: bool = False) -> dict:
    work = Path(tempfile.mkdtemp(prefix="firststart-"))
    try:
        src = copy_checkout(checkout, work / "src")
        subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
        result = {"load_before": os.getloadavg()}
        until = ("population_listed", "population_failed") if cold_synthea else ()
        result.update(_timed_command(src, environment(work, cold_synthea), timeout_s, until))
        result["load_after"] = os.getloadavg()
        result["m2_mb"] = round(_size(work / "m2") / 1e6)
        result["hapi_target_mb"] = round(_size(src / "launch" / "hapi" / "target") / 1e6)
        return result
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def _timed_command(src: Path, env: dict, timeout_s: float, until: tuple[str, ...] = ()) -> dict:
    """Run COMMAND until its "Ready" line (and then one of the ``until`` phases, if given);
    seconds since start at each marked line."""
    started = time.monotonic()
    proc = subprocess.Popen(["bash", "-c", COMMAND], cwd=src, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    phases, lines = {}, []
    try:
        for line in proc.stdout:
            lines.append(line.rstrip())
            for prefix, name in MARKS.items():
                if line.startswith(prefix) and name not in phases:
                    phases[name] = round(time.monotonic() - started, 1)
            done = "ready" in phases and (not until or any(u in phases for u in until))
            if done or time.monotonic() - started > timeout_s:
                break
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    return {"phases_s": phases, "total_s": phases.get("ready"), "tail": lines[-5:] if "ready" not in phases else []}


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.firststart", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=600.0, help="give up on a run after this many seconds")
    p.add_argument("--keep", action="store_true", help="keep each run's folder (venv, Maven repository, logs)")
    p.add_argument("--checkout", type=Path, default=ROOT, help="the git checkout to install (default: this one)")
    p.add_argument("--cold-synthea", action="store_true",
                   help="an empty cache folder too: Synthea resolved and run as on a new machine")
    args = p.parse_args(argv)
    runs = []
    for n in range(args.runs):
        runs.append(one_run(args.checkout.resolve(), args.timeout, args.keep, args.cold_synthea))
        print(json.dumps({"run": n + 1, **runs[-1]}), flush=True)
    return 0 if all(r["total_s"] is not None for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
