"""``docgemma-offline-pack``: fill the knowledge cache for a formulary while the clinic is online.

    docgemma-offline-pack [--list FILE] [--only NAME ...] [--out report.json] [--quiet]

The app's configuration decides where the cache is (``DOCGEMMA_CACHE_PATH``, default the
instance folder) and which label service is asked (``DOCGEMMA_OPENFDA_URL``); the list defaults
to the WHO Model List of Essential Medicines core list (``tools/data/who_eml_core.yaml``).
Prints the coverage; exits 1 when some medicine could not be fetched (run it again later).
See ``tools/sources/offline.py`` and docs/operations-resilience.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from .. import create_app
from ..tools.sources.http import get_http
from ..tools.sources.offline import load_formulary, pack


def main(argv: list[str] | None = None, config: dict | None = None) -> int:
    p = argparse.ArgumentParser(prog="docgemma-offline-pack", description=__doc__.split("\n\n")[0])
    p.add_argument("--list", help="formulary YAML (default: WHO Model List core, bundled)")
    p.add_argument("--only", nargs="*", default=[], help="pack only these names of the list")
    p.add_argument("--out", help="write the coverage report (JSON) here")
    p.add_argument("--quiet", action="store_true", help="no line per medicine")
    args = p.parse_args(argv)
    formulary = load_formulary(args.list)
    if args.only:
        formulary.names = [n for n in formulary.names if n in {o.lower() for o in args.only}]
    http = get_http(create_app(config))
    progress = None if args.quiet else (lambda n, o: print(f"{o:<9} {n}", file=sys.stderr))
    coverage = pack(http, formulary, progress)
    print(coverage.summary())
    if args.out:
        Path(args.out).write_text(json.dumps({**asdict(coverage), "percent": coverage.percent()},
                                             indent=2))
    return 0 if not coverage.failed else 1


if __name__ == "__main__":
    sys.exit(main())
