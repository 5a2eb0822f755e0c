"""``docgemma-audit``: who accessed a patient's data, and what the assistant did, over a period.

    docgemma-audit PATIENT_ID [--since 2026-11-01] [--until 2026-11-30] [--kind read ...] [--json]

One line per record: when (UTC), what (read, search-type, create, answer-shown,
proposal-approved, cds-hook …), outcome, who (the practitioner), through which client, and
the resources named. ``--json`` prints the stored FHIR AuditEvents (a JSON array). Dates are
days (UTC, ``--until`` inclusive) or ISO instants. It uses the app's own configuration
(``DOCGEMMA_DATABASE_URL`` or the instance folder), so it reads the database the app writes.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from ..audit.store import OUTCOMES, instant


def main(argv: list[str] | None = None, config: dict | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        since, until = instant(args.since), instant(args.until, end=True)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from .. import create_app
    from ..audit import audit_store

    rows = audit_store(create_app(config)).accesses(
        args.patient, since, until, tuple(args.kind or ())
    )
    if args.json:
        print(json.dumps([r.event for r in rows], indent=2))
    else:
        for row in rows:
            print(_line(row))
        print(f"{len(rows)} record(s) for patient {args.patient}", file=sys.stderr)
    return 0


def _line(row) -> str:
    when = datetime.fromtimestamp(row.recorded, UTC).strftime("%Y-%m-%d %H:%M:%S")
    detail = row.detail()
    extra = " ".join(
        f"{k}={v}" for k, v in detail.items() if k in ("turn", "proposal", "service", "cards")
    )
    refs = ", ".join(row.resources[:6]) + (" …" if len(row.resources) > 6 else "")
    return (
        f"{when}Z  {row.kind:<22} {OUTCOMES.get(row.outcome, row.outcome):<8} "
        f"{row.who or '-'}  via {row.client or '-'}  {refs}  {extra}".rstrip()
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docgemma-audit", description=__doc__.split("\n")[0])
    parser.add_argument("patient", help="the patient's FHIR id (as in Patient/ID)")
    parser.add_argument("--since", help="from this day or instant (UTC)")
    parser.add_argument("--until", help="to this day (inclusive) or instant (UTC)")
    parser.add_argument("--kind", action="append", help="only these kinds (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the AuditEvents as JSON")
    return parser


if __name__ == "__main__":
    sys.exit(main())
