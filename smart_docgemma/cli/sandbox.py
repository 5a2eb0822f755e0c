"""``docgemma-sandbox``: the EHR sandbox from the development checkout (``checkout.require``)."""
from __future__ import annotations

from ..checkout import require


def sandbox(argv: list[str] | None = None) -> int:
    """``docgemma-sandbox``: HAPI FHIR, the scenario patients, the EHR sandbox and the app."""
    require("docgemma-sandbox")
    from launch.stack import main

    return main(argv)
