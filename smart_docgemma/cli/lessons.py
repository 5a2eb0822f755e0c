"""``docgemma-lessons``: review what the assistant has learned from clinicians.

    docgemma-lessons stats                 feedback received (ratings, approvals, rejections)
    docgemma-lessons harvest               verified turns → pending lessons
    docgemma-lessons list [--status S]     pending | approved | dropped (default: all)
    docgemma-lessons approve ID [--by NAME]
    docgemma-lessons drop ID [--by NAME]

It uses the app's own configuration (``DOCGEMMA_DATABASE_URL`` or the instance
folder), so it reviews the same database the app writes.
"""
from __future__ import annotations

import argparse
import json
import sys

from .. import errors


def main(argv: list[str] | None = None, config: dict | None = None) -> int:
    args = _parser().parse_args(argv)
    from .. import create_app
    from ..lessons.store import lesson_store

    store = lesson_store(create_app(config))
    try:
        return _run(store, args)
    except errors.DocGemmaError as exc:
        print(f"error: {exc.description}", file=sys.stderr)
        return 2


def _run(store, args) -> int:
    if args.command == "stats":
        print(json.dumps(store.signals(), indent=2))
    elif args.command == "harvest":
        ids = store.harvest()
        print(f"{len(ids)} new pending lesson(s)" + "".join(f"\n  {i}" for i in ids))
    elif args.command == "list":
        for lesson in store.list(args.status):
            tools = "; ".join(
                f"{t['tool']}({json.dumps(t['args'], sort_keys=True)})" for t in lesson["tools"]
            )
            print(f"{lesson['id']}  [{lesson['status']}]  {lesson['question']!r}\n    -> {tools}\n"
                  f"    because: {lesson['outcome']}")
    else:
        store.decide(args.id, "approved" if args.command == "approve" else "dropped", args.by)
        print(f"lesson {args.id} " + ("approved" if args.command == "approve" else "dropped"))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docgemma-lessons", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("stats")
    sub.add_parser("harvest")
    listing = sub.add_parser("list")
    listing.add_argument("--status", choices=("pending", "approved", "dropped"))
    for name in ("approve", "drop"):
        cmd = sub.add_parser(name)
        cmd.add_argument("id")
        cmd.add_argument("--by", default="")
    return parser


if __name__ == "__main__":
    sys.exit(main())
