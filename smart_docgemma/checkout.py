"""The development checkout around an editable install.

The EHR sandbox (``launch/``) and the scenario patients (``fhir_fixtures/``) live in the
project's checkout, not in the app's wheel: a hospital installs the app, a developer runs the
sandbox from a clone (``pip install -e . && docgemma-sandbox``). The commands that need them
call ``require``: it puts the checkout on the import path, or stops with what to do instead.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def require(command: str) -> None:
    """Make ``launch`` importable from the checkout, or exit with a clear message."""
    if not (ROOT / "launch" / "stack.py").is_file():
        raise SystemExit(
            f"{command} needs the project's checkout: the EHR sandbox (launch/) is not part "
            f"of the app's wheel. Clone the repository and run `pip install -e . && {command}` "
            "there."
        )
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
