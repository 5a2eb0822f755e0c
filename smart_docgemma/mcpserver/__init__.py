"""DocGemma's clinical tools over the Model Context Protocol (docs/mcp.md).

- ``endpoint.py``: Streamable HTTP at ``{app}/mcp`` inside the Flask app (``init_app``), an
  OAuth resource server with RFC 9728 metadata pointing at the EHR's SMART authorization server;
- ``authority.py``: token verification (audience = the MCP URL) and the token exchange that
  gets the FHIR token (the client's token never reaches FHIR);
- ``tools.py``: the agent's registry tools as MCP tools (one catalogue), writes as proposals;
- ``stdio.py``: ``docgemma-mcp``, the same tools over stdio for local clients.

Named ``mcpserver`` so that it never shadows the ``mcp`` SDK it is built on.
"""

from .endpoint import init_app  # noqa: F401
