"""Generate a Synthea population once and keep it in the user's cache.

Synthea (``org.mitre.synthea:synthea``, Apache-2.0) simulates whole lives and writes one FHIR R4
transaction Bundle per patient, plus the hospitals and practitioners they refer to. It runs
offline: Maven resolves the jar and its ~140 dependencies from Maven Central once (``~/.m2``),
and the simulation itself needs no network.

The output is a pure function of (Synthea version, seed, clinician seed, size, reference date),
so it is cached under ``~/.cache/smart_docgemma/synthea/<that key>/`` and generated only when
that folder is missing: the sandbox, the tests and the evaluation all read the same bundles, and
a CI machine that keeps ``~/.cache`` generates them once. The reference date is fixed (not today)
so that the same key gives the same patients on any day, and the evaluation's expected answers,
computed from the bundles, stay true.

    population = generate(PopulationSpec())    # cached after the first call
    population.patient_files                   # [Path, ...] one bundle per patient
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SYNTHEA_VERSION = "3.3.0"
DEFAULT_SEED = 42
DEFAULT_SIZE = 5  # living patients; Synthea adds the dead it simulated on the way (3 for seed 42)
# The simulation's "today" (YYYYMMDD), fixed for reproducible charts. Synthea reads two dates:
# ``-r`` (the reference for ages) and ``-e`` (where the simulated lives stop, the current time
# by default). Both are pinned to it: with ``-r`` alone a population generated a week later holds
# a week more of encounters and results, and the case files computed from it no longer match.
REFERENCE_DATE = "20261101"
JAVA_HEAP = "-Xmx2g"
_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.docgemma</groupId><artifactId>synthea-runner</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.mitre.synthea</groupId><artifactId>synthea</artifactId>
      <version>{version}</version></dependency>
  </dependencies>
</project>
"""


class SyntheaUnavailable(RuntimeError):
    """Synthea could not be resolved or run; the message says what failed."""


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/smart_docgemma/synthea`` (``~/.cache/...`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "smart_docgemma" / "synthea"


@dataclass(frozen=True)
class PopulationSpec:
    """What to generate; ``DOCGEMMA_SYNTHEA_SIZE`` / ``_SEED`` / ``_AGES`` override.

    ``ages`` ("65-95") restricts the living patients' ages (Synthea's ``-a``): the unseen
    evaluation asks for older patients, whose drug answers carry age and renal context.
    """

    size: int = DEFAULT_SIZE
    seed: int = DEFAULT_SEED
    reference_date: str = REFERENCE_DATE
    version: str = SYNTHEA_VERSION
    ages: str = ""

    @classmethod
    def from_env(cls) -> PopulationSpec:
        env = os.environ
        return cls(
            size=int(env.get("DOCGEMMA_SYNTHEA_SIZE", DEFAULT_SIZE)),
            seed=int(env.get("DOCGEMMA_SYNTHEA_SEED", DEFAULT_SEED)),
            ages=env.get("DOCGEMMA_SYNTHEA_AGES", ""),
        )

    @classmethod
    def parse(cls, text: str) -> PopulationSpec:
        """``SEED:SIZE[:AGES]`` ("8:3:65-95"), as the evaluation and the case generator take it."""
        seed, size, *ages = text.split(":")
        return cls(size=int(size), seed=int(seed), ages=ages[0] if ages else "")

    @property
    def key(self) -> str:
        ages = f"-a{self.ages}" if self.ages else ""  # none by default: seed 42 keeps its key
        # "-e": populations generated before the end date was pinned ran to the day they were
        # made; a new key never reuses them
        key = f"synthea-{self.version}-s{self.seed}-p{self.size}{ages}-r{self.reference_date}"
        return key + f"-e{self.reference_date}"


@dataclass
class Generated:
    """The bundles of one population on disk, and how long making them took (0 when cached)."""

    spec: PopulationSpec
    directory: Path
    seconds: float = 0.0
    patient_files: list[Path] = field(default_factory=list)
    shared_files: list[Path] = field(default_factory=list)  # hospitals, then practitioners


def generate(spec: PopulationSpec | None = None, root: Path | None = None) -> Generated:
    """The population's bundles, generated on the first call for this spec (file-locked)."""
    spec = spec or PopulationSpec.from_env()
    target = (root or cache_root()) / spec.key
    target.parent.mkdir(parents=True, exist_ok=True)
    seconds = 0.0
    with open(target.parent / f".{spec.key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test runs or a test run and the sandbox
        if not (target / "fhir" / ".complete").exists():
            seconds = _run(spec, target)
    return _listing(spec, target, seconds)


def _listing(spec: PopulationSpec, target: Path, seconds: float) -> Generated:
    fhir = target / "fhir"
    shared = sorted(fhir.glob("hospitalInformation*.json")) + sorted(
        fhir.glob("practitionerInformation*.json")
    )
    patients = sorted(p for p in fhir.glob("*.json") if p not in shared)
    return Generated(spec, fhir, seconds, patients, shared)


def classpath(root: Path | None = None) -> str:
    """The Synthea jar and its dependencies (Maven Central via ``mvn``; cached as ``cp.txt``)."""
    folder = (root or cache_root()) / f"runner-{SYNTHEA_VERSION}"
    cp_file = folder / "cp.txt"
    if cp_file.exists():
        return cp_file.read_text().strip()
    _require("mvn", "java")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pom.xml").write_text(_POM.format(version=SYNTHEA_VERSION))
    # -q still prints ANSI codes on stdout: the classpath goes to a file, stdout is kept for errors
    cmd = [
        "mvn",
        "-q",
        "-B",
        "-f",
        str(folder / "pom.xml"),
        "dependency:build-classpath",
        f"-Dmdep.outputFile={folder / 'cp.part'}",
    ]
    result = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        raise SyntheaUnavailable(
            "Maven could not resolve Synthea "
            + SYNTHEA_VERSION
            + ":\n"
            + (result.stdout + result.stderr)[-2000:]
        )
    (folder / "cp.part").rename(cp_file)
    return cp_file.read_text().strip()


def command(spec: PopulationSpec, out: Path, cp: str) -> list[str]:
    """The Synthea command line: FHIR R4 only, seeded population and clinicians."""
    return [
        "java",
        JAVA_HEAP,
        "-cp",
        cp,
        "App",
        "-p",
        str(spec.size),
        "-s",
        str(spec.seed),
        "-cs",
        str(spec.seed),
        "-r",
        spec.reference_date,
        "-e",
        spec.reference_date,
        "--exporter.baseDirectory",
        str(out),
        "--exporter.fhir.export",
        "true",
        "--exporter.csv.export",
        "false",
        "--exporter.ccda.export",
        "false",
        *(["-a", spec.ages] if spec.ages else []),
    ]


def _run(spec: PopulationSpec, target: Path) -> float:
    print(
        f"Generating the Synthea population {spec.key} (once; cached in {target.parent})...",
        file=sys.stderr,
        flush=True,
    )
    started = time.monotonic()
    cp = classpath(target.parent)
    work = target.with_name(target.name + ".part")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # niced: the sandbox generates while HAPI starts, and HAPI's start-up must win the CPU
    result = subprocess.run(
        command(spec, work, cp),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=work,
        preexec_fn=lambda: os.nice(10),
    )
    if result.returncode != 0 or not list((work / "fhir").glob("*.json")):
        raise SyntheaUnavailable(
            f"Synthea {spec.version} failed:\n" + (result.stdout + result.stderr)[-2000:]
        )
    (work / "synthea.log").write_text(result.stdout)
    (work / "fhir" / ".complete").write_text(spec.key)
    shutil.rmtree(target, ignore_errors=True)
    work.rename(target)
    return time.monotonic() - started


def _require(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        raise SyntheaUnavailable(
            f"{', '.join(missing)} not found on PATH: Synthea needs Java 17 and Maven."
        )


def main(argv: list[str] | None = None) -> int:
    """``python -m launch.synthea``: generate (or find) the population and list its files."""
    try:
        population = generate()
    except SyntheaUnavailable as exc:
        print(f"synthea: {exc}", file=sys.stderr)
        return 1
    print(
        f"{population.directory} ({len(population.patient_files)} "
        f"patients, {population.seconds:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
