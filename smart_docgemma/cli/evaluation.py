"""``docgemma-eval``: the labelled cases run and scored (``evaluation/command.py``)."""
from __future__ import annotations

import sys

from ..evaluation.command import main as main

if __name__ == "__main__":
    sys.exit(main())
