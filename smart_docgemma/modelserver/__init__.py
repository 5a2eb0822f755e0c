"""The embedded model server, a program of its own: ``embedded.py`` starts llama-cpp-python's
server as a child process on a loopback port (``python -m smart_docgemma.modelserver`` when the
prompt cache is on: ``promptcache.py`` and its live contexts, ``livecontext.py``). The app only
reaches it over HTTP, as any OpenAI-compatible server; the console scripts and the sandbox start
it. This package's ``__init__`` imports nothing, so the child process loads no Flask app."""
