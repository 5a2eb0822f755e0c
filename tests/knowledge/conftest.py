"""The knowledge-source fixtures (local HTTP server, app-like config) of the tools tests."""
from tests.tools.conftest import knowledge_config, make_httpserver  # noqa: F401  (pytest fixtures)
