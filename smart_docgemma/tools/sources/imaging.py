"""``analyze_medical_image``: this turn's image → MedGemma vision → structured findings.

The image comes from ``ctx.image`` (bytes) — never from the model's arguments.
The format is decided by magic bytes, not by the declared MIME type: PNG
(``\\x89PNG``), JPEG (``FF D8 FF``) or DICOM (``DICM`` at offset 128, PS3.10
§7.1). DICOM is rendered to an 8-bit PNG the way a viewer would show it:
Modality LUT (rescale slope/intercept), then the VOI LUT or window
centre/width (PS3.3 C.11.2), min-max to 0-255, and MONOCHROME1 inverted so
that bone stays white. Only non-identifying DICOM attributes (modality, body
part, view…) are kept and shown to the model; patient names and ids never are.
Large images are downscaled (the model sees ~900 px anyway) before being sent
as a data URL through ``ctx.model.vision``.
"""
from __future__ import annotations

import io
from typing import Annotated, Any, Literal

import numpy as np
from PIL import Image, UnidentifiedImageError
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from ...config import setting
from ...errors import ModelError, VisionUnsupported
from .. import args as tool_args
from .. import catalog
from ..base import Tool, ToolContext, ToolResult

MAX_SIDE = 1024
DICOM_META = (
    "Modality",
    "BodyPartExamined",
    "ViewPosition",
    "StudyDescription",
    "SeriesDescription",
    "PhotometricInterpretation",
    "Rows",
    "Columns",
)
PROMPT = ("Clinician's question: {query}\n{meta}Describe only what is visible "
          "in this image that bears on the question. List concrete findings, "
          "give a one-sentence impression, rate your confidence, and set "
          "specialist_review to true if a radiologist or pathologist "
          "should review it. If the image is not a medical image or is "
          "unreadable, say so in the impression and use low confidence.")


class ImageFindings(BaseModel):
    """What the vision model must return (modality first: it frames every finding)."""

    model_config = ConfigDict(extra="forbid")
    modality: str = Field(
        max_length=40, description="e.g. chest X-ray, CT, MRI, histopathology, photo"
    )
    findings: list[Annotated[str, Field(max_length=200)]] = Field(max_length=6)
    impression: str = Field(max_length=300)
    confidence: Literal["low", "moderate", "high"]
    specialist_review: bool


class ImageRejected(ValueError):
    """The attachment cannot be analysed; the message says why, for the clinician."""


def sniff(data: bytes) -> str | None:
    """``png`` | ``jpeg`` | ``dicom`` by magic bytes, else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if len(data) >= 132 and data[128:132] == b"DICM":
        return "dicom"
    return None


class ImageMeta(TypedDict):
    """What an attachment's bytes said, read once on arrival (``image_meta``) and kept on the
    turn."""

    kind: str | None  # png | jpeg | dicom, by magic bytes; None when they are none of these
    mime: str  # the declared type (lower case)
    bytes: int
    accepted: bool  # the bytes are a supported image and agree with the declared type


def image_meta(data: bytes | None, mime: str | None) -> ImageMeta | None:
    """An upload's kind by its magic bytes (``sniff``), cross-checked with the declared MIME type:
    ``{"kind", "mime", "bytes", "accepted"}``, or None when nothing was attached."""
    if not data:
        return None
    kind = sniff(data)
    declared = (mime or "").lower()
    expected = {"png": ("image/png",), "jpeg": ("image/jpeg", "image/jpg"),
                "dicom": ("application/dicom", "application/octet-stream", "")}
    if kind is None or (declared and declared not in expected[kind]):
        return {"kind": None, "mime": declared, "bytes": len(data), "accepted": False}
    return {
        "kind": kind,
        "mime": declared or "application/dicom",
        "bytes": len(data),
        "accepted": True,
    }


def dicom_to_png(data: bytes) -> tuple[bytes, dict[str, Any]]:
    """Render a DICOM image to 8-bit PNG bytes; return them with safe metadata."""
    import pydicom
    from pydicom.pixels import apply_modality_lut, apply_voi_lut

    try:
        ds = pydicom.dcmread(io.BytesIO(data))
        pixels = ds.pixel_array
    except Exception as exc:  # pydicom raises many types for bad or unsupported files
        raise ImageRejected("The DICOM file could not be read (no pixel data, or a compression "
                            "this server cannot decode). Export it as PNG or JPEG.") from exc
    meta = {k: str(ds.get(k)) for k in DICOM_META if ds.get(k) not in (None, "")}
    if int(ds.get("NumberOfFrames") or 1) > 1:
        pixels = pixels[len(pixels) // 2]  # middle frame of a multi-frame series
    if int(ds.get("SamplesPerPixel") or 1) == 3:
        return _png(Image.fromarray(_to_uint8(pixels), "RGB")), meta
    values = apply_modality_lut(pixels, ds)
    if "VOILUTSequence" in ds or "WindowCenter" in ds:
        values = apply_voi_lut(values, ds)
    gray = _to_uint8(values)
    if ds.get("PhotometricInterpretation") == "MONOCHROME1":  # low values are white
        gray = 255 - gray
    return _png(Image.fromarray(gray, "L")), meta


def _to_uint8(values: np.ndarray) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    lo, hi = float(values.min()), float(values.max())
    if hi <= lo:
        return np.zeros(values.shape, dtype=np.uint8)
    scaled: np.ndarray = np.round((values - lo) * 255.0 / (hi - lo)).astype(np.uint8)
    return scaled


def _png(image: Image.Image) -> bytes:
    image.thumbnail((MAX_SIDE, MAX_SIDE))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def prepare(
    data: bytes, max_bytes: int, kind: str | None = None
) -> tuple[bytes, str, dict[str, Any]]:
    """Validate the attachment and return (image bytes, MIME type, metadata) for the model;
    ``kind`` is what ``image_meta`` already read from the bytes (else they are sniffed here)."""
    if len(data) > max_bytes:
        raise ImageRejected(
            f"The image is {len(data) / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.1f} MB."
        )
    kind = kind or sniff(data)
    if kind is None:
        raise ImageRejected("The attachment is not a PNG, JPEG or DICOM image.")
    if kind == "dicom":
        png, meta = dicom_to_png(data)
        return png, "image/png", {"format": "DICOM", **meta}
    try:
        image = Image.open(io.BytesIO(data))
        image.load()  # decodes fully: truncated or corrupt files fail here
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise ImageRejected(
            f"The {kind.upper()} image is damaged or incomplete and cannot be read."
        ) from exc
    meta = {"format": kind.upper(), "Columns": str(image.width), "Rows": str(image.height)}
    if max(image.size) <= MAX_SIDE:
        return data, f"image/{kind}", meta
    shown = image.convert("RGB") if image.mode not in ("L", "RGB") else image
    return _png(shown), "image/png", meta


def _text(f: ImageFindings, meta: dict[str, Any], review: bool) -> str:
    shown = ("format", "Modality", "BodyPartExamined", "ViewPosition")
    source = ", ".join(f"{k} {v}" for k, v in meta.items() if k in shown)
    lines = [f"AI image analysis (MedGemma; not a radiology or pathology report). Image: {source}.",
             f"Modality: {f.modality}", "Findings:"]
    lines += [f"- {item}" for item in f.findings] or ["- none reported"]
    lines += [
        f"Impression: {f.impression}",
        f"Confidence: {f.confidence}",
        "Specialist review: recommended"
        if review
        else "Specialist review: not flagged by the model",
    ]
    return "\n".join(lines)


def _with_meta(failed: ToolResult, meta: dict[str, Any]) -> ToolResult:
    """A failed analysis still names the metadata it read (and sent to the model): the injection
    guard reports instruction-like text in it (grounding/injection.py)."""
    failed.data = {"image": meta}
    return failed


def run_image(args: tool_args.ImageAnalysisArgs, ctx: ToolContext) -> ToolResult:
    """Findings for this turn's image, structured, with a specialist-review flag."""
    if not ctx.image:
        return ToolResult.failure(
            "invalid",
            "No image is attached to this message. Attach a PNG, JPEG or "
            "DICOM image to have it analysed.",
        )
    if ctx.model is None:
        return ToolResult.failure(
            "unreachable",
            "Image analysis needs the vision model, which is not configured, "
            "so no image findings are available. Do not describe the image from assumptions.",
        )
    try:
        image, mime, meta = prepare(
            ctx.image, int(setting(ctx.config, "IMAGE_MAX_BYTES")), ctx.image_kind
        )
    except ImageRejected as exc:
        return ToolResult.failure("invalid", str(exc))
    hints = {
        k: v
        for k, v in meta.items()
        if k in ("Modality", "BodyPartExamined", "ViewPosition", "StudyDescription")
    }
    prompt = PROMPT.format(
        query=args.query, meta="".join(f"DICOM {k}: {v}\n" for k, v in hints.items())
    )
    try:
        findings = ctx.model.vision(prompt, image, mime, ImageFindings)
    except VisionUnsupported:
        failed = ToolResult.failure(
            "unsupported",
            "The model server in use does not accept images, so no "
            "image findings are available. Do not describe the image from assumptions.",
        )
        return _with_meta(failed, meta)
    except ModelError as exc:
        failed = ToolResult.failure(
            "unreachable",
            "The image analysis model could not give an answer "
            f"({exc.title.lower()}), so no image findings are available. "
            "Do not describe the image from assumptions.",
        )
        return _with_meta(failed, meta)
    # code decides the safety flag
    review = findings.specialist_review or findings.confidence == "low"
    data = {**findings.model_dump(), "specialist_review": review, "image": meta}
    return ToolResult(
        status="ok", text=_text(findings, meta, review), data=data, count=len(findings.findings)
    )


TOOLS: list[Tool] = [
    Tool(catalog.spec("analyze_medical_image"), run_image),
]
