"""The public knowledge sources, served locally from recorded real responses.

Every request under a source's prefix gets one recorded body of that source
(``tests/tools/recorded/``, provenance in its SOURCES.md): the tools parse real
API output over real HTTP, and no benchmark or CI run touches the internet.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

from pytest_httpserver import HTTPServer

RECORDED = Path(__file__).resolve().parent.parent / "tools" / "recorded"
BODIES = {"openfda": "openfda/label_vyvanse_boxed_warning_2015.json",
          "eutils": "ncbi/esearch_pubmed_pten_small.json",
          "europepmc": "europepmc/search_lite_mlh1.json",
          "ctgov": "clinicaltrials/studies_page_melanoma_recruiting.json",
          "rxnav": "rxnorm/approximateTerm_metformin.json"}
URL_KEYS = {"openfda": "OPENFDA_URL", "eutils": "EUTILS_URL", "europepmc": "EUROPEPMC_URL",
            "ctgov": "CTGOV_URL", "rxnav": "RXNAV_URL"}


@contextmanager
def recorded_sources():
    """Yields app config pointing every knowledge source at the local server."""
    server = HTTPServer(threaded=True)
    server.start()
    try:
        for prefix, body in BODIES.items():
            server.expect_request(re.compile(f"^/{prefix}/.*")).respond_with_data(
                (RECORDED / body).read_bytes(), content_type="application/json")
        yield {key: server.url_for(f"/{prefix}") for prefix, key in URL_KEYS.items()}
    finally:
        server.clear()
        server.stop()
