"""The knowledge core warmed in a new process: its name tables loaded in the background, then
what the process holds for good set aside from the garbage collector.

Called by whatever starts a worker (``docgemma``'s gunicorn workers, the sandbox's app)."""
from __future__ import annotations

import gc
import threading

from .mentions import find_drugs


def warm_up() -> None:
    """Load the knowledge core's name tables in the background (~1 s), so the first questions
    of a new worker neither wait for them nor load them once per waiting thread."""
    threading.Thread(target=_warm, name="warm-up", daemon=True).start()


def _warm() -> None:
    """The tables loaded, what the worker holds for good (~220,000 objects: the app, its
    libraries, the tables) is set aside from the garbage collector: a full collection walked
    all of it, ~87 ms with the worker's lock held, and one falling inside a burst of questions
    delayed every one of them."""
    find_drugs("warfarin")
    gc.freeze()
