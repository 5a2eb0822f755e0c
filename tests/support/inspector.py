"""The MCP Inspector's CLI (npm ``@modelcontextprotocol/inspector``) as a real MCP client in tests.

Inspector 2.x needs Node >= 22.19. Both are installed once with npm into a cache folder
(``DOCGEMMA_NPM_CACHE``, default ``~/.cache/smart_docgemma/mcp-inspector``): the Inspector at a
pinned version and, where the machine's Node is older, Node itself from npm's per-platform
``node-<os>-<arch>`` package. ``command()`` returns None only when there is no npm (no Node).

The Inspector does the OAuth flow itself (discovery, dynamic registration, PKCE, resource
indicator) and "opens a browser" for the user's approval through ``$BROWSER``; ``browser_script``
writes a stand-in that approves on the sandbox's picker page and follows the redirect to the
Inspector's loopback callback listener, as a user's browser would.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
NODE_MAJOR = 22
CACHE = Path(
    os.environ.get(
        "DOCGEMMA_NPM_CACHE", Path.home() / ".cache" / "smart_docgemma" / "mcp-inspector"
    )
)
ENTRY = CACHE / "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"


def _node_package() -> str:
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}[
        platform.machine().lower()
    ]
    return f"node-{sys.platform}-{arch}"


def _system_node_ok() -> bool:
    node = shutil.which("node")
    if not node:
        return False
    version = (
        subprocess.run([node, "--version"], check=False, capture_output=True, text=True)
        .stdout.strip()
        .lstrip("v")
    )
    major, minor = (int(x) for x in version.split(".")[:2])
    return (major, minor) >= (22, 19)


def command() -> list[str] | None:
    """``[node, inspector-entry]``, installing into the cache on first use; None without npm."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    node = (
        shutil.which("node")
        if _system_node_ok()
        else str(CACHE / "node_modules" / _node_package() / "bin/node")
    )
    if not ENTRY.exists() or not Path(node).exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        packages = [INSPECTOR] + ([] if _system_node_ok() else [f"{_node_package()}@{NODE_MAJOR}"])
        subprocess.run(
            [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", *packages],
            check=True,
            capture_output=True,
            timeout=600,
        )
    return [node, str(ENTRY)]


def browser_script(folder: Path, patient: str) -> Path:
    """An executable stand-in for the user's browser (see module docstring)."""
    script = folder / "browser.py"
    script.write_text(f"""#!{sys.executable}
import re, sys
from urllib.parse import urlsplit
import requests
url = sys.argv[-1]
http = requests.Session()
page = http.get(url, allow_redirects=False, timeout=30)
base = "{{0.scheme}}://{{0.netloc}}".format(urlsplit(url))
txn = re.search(r'name="txn" value="([^"]+)"', page.text).group(1)
done = http.post(base + "/auth/decide", allow_redirects=False, timeout=30,
                 data={{"txn": txn, "decision": "approve", "patient": {patient!r}}})
http.get(done.headers["Location"], timeout=30)
""")
    script.chmod(0o755)
    return script
