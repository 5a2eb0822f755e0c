"""The package's data files, parsed: one YAML reader for every table the code ships.

Every vocabulary, rule table and evaluation set is YAML read at first use; parsing them with
PyYAML's pure-Python loader took most of a process's start (17 s for the 151 files on the
project's 2-core machine, 1.6 s with libyaml). ``safe_yaml`` uses libyaml's safe loader when
PyYAML was built with it, and the pure-Python safe loader otherwise: the same documents, the
same values, never arbitrary objects.
"""
from __future__ import annotations

from typing import IO, Any

import yaml

_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_yaml(stream: str | bytes | IO[str] | IO[bytes]) -> Any:
    """``yaml.safe_load`` of ``stream``, with libyaml where it is available."""
    return yaml.load(stream, Loader=_LOADER)  # noqa: S506 - a safe loader, C or Python
