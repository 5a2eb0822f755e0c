"""analyze_medical_image: validation, DICOM rendering, and the call to the vision model.

Model weights cannot exist here, so the model is the edge: a recording stand-in
with ``BoundModel.vision``'s signature, and once the real ``ModelClient`` over
HTTP against a local OpenAI-compatible endpoint (contract check).
"""
from __future__ import annotations

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage, generate_uid
from smart_docgemma.errors import ModelError
from smart_docgemma.tools import args
from smart_docgemma.tools.sources.imaging import TOOLS, ImageFindings, dicom_to_png, prepare

tool = TOOLS[0]
ANSWER = {"modality": "chest X-ray", "findings": ["Right lower lobe opacity", "No pneumothorax"],
          "impression": "Findings suggest right lower lobe pneumonia.", "confidence": "moderate",
          "specialist_review": False}


class RecordingModel:
    """Stands in for the agent's BoundModel: records the call, answers ``answer`` or raises."""

    def __init__(self, answer=None, error: Exception | None = None):
        self.answer, self.error, self.calls = answer or ANSWER, error, []

    def vision(self, prompt, image, mime, schema=None, system=None):
        self.calls.append({"prompt": prompt, "image": image, "mime": mime, "schema": schema})
        if self.error:
            raise self.error
        return schema(**self.answer)


def png_bytes(size=(64, 48), mode="L", fmt="PNG") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, 128).save(out, format=fmt)
    return out.getvalue()


def dicom_bytes(pixels: np.ndarray, photometric="MONOCHROME2", window=None, frames=1) -> bytes:
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID, meta.MediaStorageSOPInstanceUID = SecondaryCaptureImageStorage, generate_uid()
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = Dataset()
    ds.file_meta = meta
    ds.SOPClassUID, ds.SOPInstanceUID = meta.MediaStorageSOPClassUID, meta.MediaStorageSOPInstanceUID
    ds.PatientName, ds.PatientID = "Secret^Patient", "MRN-0042"
    ds.Modality, ds.BodyPartExamined, ds.ViewPosition = "CR", "CHEST", "PA"
    ds.Rows, ds.Columns = pixels.shape[-2:]
    ds.SamplesPerPixel, ds.PhotometricInterpretation = 1, photometric
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 16, 12, 11, 0
    ds.RescaleSlope, ds.RescaleIntercept = 1, 0
    if frames > 1:
        ds.NumberOfFrames = frames
    if window:
        ds.WindowCenter, ds.WindowWidth = window
    ds.PixelData = pixels.astype(np.uint16).tobytes()
    out = io.BytesIO()
    ds.save_as(out, enforce_file_format=True)
    return out.getvalue()


GRADIENT = np.tile(np.linspace(0, 4095, 64).astype(np.uint16), (32, 1))  # 32 rows, 0 → 4095 left to right


def gray(png: bytes) -> np.ndarray:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "L"
    return np.asarray(image)


def test_dicom_window_is_applied_and_identifiers_are_dropped():
    png, meta = dicom_to_png(dicom_bytes(GRADIENT, window=(1024, 512)))
    row = gray(png)[0]
    values = GRADIENT[0]
    assert row[values < 700].max() == 0 and row[values > 1350].min() == 255  # outside the window: clipped
    assert 0 < row[np.argmin(abs(values.astype(int) - 1024))] < 255  # centre of the window: mid-grey
    assert meta["Modality"] == "CR" and meta["BodyPartExamined"] == "CHEST" and meta["ViewPosition"] == "PA"
    assert "Secret" not in json.dumps(meta) and "MRN-0042" not in json.dumps(meta)


def test_dicom_without_window_is_min_max_scaled_and_monochrome1_is_inverted():
    plain = gray(dicom_to_png(dicom_bytes(GRADIENT))[0])[0]
    assert (plain[0], plain[-1]) == (0, 255) and np.all(np.diff(plain.astype(int)) >= 0)
    inverted = gray(dicom_to_png(dicom_bytes(GRADIENT, photometric="MONOCHROME1"))[0])[0]
    assert (inverted[0], inverted[-1]) == (255, 0)


def test_multiframe_dicom_uses_the_middle_frame():
    frames = np.stack([np.full((8, 8), v, np.uint16) for v in (0, 4095, 0)])
    frames[1, 0, 0] = 0  # the middle frame has one dark pixel; min-max makes the rest white
    png = gray(dicom_to_png(dicom_bytes(frames, frames=3))[0])
    assert png[0, 0] == 0 and png[4, 4] == 255


def test_png_and_jpeg_pass_through_and_large_ones_are_downscaled():
    small = png_bytes()
    assert prepare(small, 10_000_000)[:2] == (small, "image/png")
    jpeg = png_bytes(mode="RGB", fmt="JPEG")
    assert prepare(jpeg, 10_000_000)[1] == "image/jpeg"
    big, mime, meta = prepare(png_bytes(size=(3000, 1500)), 10_000_000)
    assert mime == "image/png" and Image.open(io.BytesIO(big)).size == (1024, 512)
    assert (meta["Columns"], meta["Rows"]) == ("3000", "1500")


def run(ctx, data: bytes | None, model=None, query="Is there consolidation?", mime="image/png"):
    ctx.image, ctx.image_mime, ctx.model = data, mime, model
    ctx.config["IMAGE_MAX_BYTES"] = 50_000  # 0.05 MB
    return tool.run(args.ImageAnalysisArgs(query=query), ctx)


def test_dicom_goes_to_the_model_as_png_with_safe_hints_and_structured_findings(ctx):
    model = RecordingModel()
    result = run(ctx, dicom_bytes(GRADIENT, window=(1024, 512)), model, mime="application/dicom")
    (call,) = model.calls
    assert call["mime"] == "image/png" and call["image"].startswith(b"\x89PNG") and call["schema"] is ImageFindings
    assert "Is there consolidation?" in call["prompt"] and "DICOM Modality: CR" in call["prompt"]
    assert "Secret" not in call["prompt"] and "MRN" not in call["prompt"]
    assert result.status == "ok" and result.count == 2
    assert "- Right lower lobe opacity" in result.text and "Confidence: moderate" in result.text
    assert "not a radiology or pathology report" in result.text
    assert result.data["image"]["format"] == "DICOM" and result.data["specialist_review"] is False


def test_low_confidence_always_flags_specialist_review(ctx):
    result = run(ctx, png_bytes(), RecordingModel({**ANSWER, "confidence": "low"}))
    assert result.data["specialist_review"] is True and "Specialist review: recommended" in result.text


@pytest.mark.parametrize("data,expected", [
    (b"%PDF-1.7 not an image" * 3, "not a PNG, JPEG or DICOM image"),
    (png_bytes()[:60], "PNG image is damaged or incomplete"),
    (b"\x00" * 128 + b"DICM" + b"\x00" * 64, "DICOM file could not be read"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 60_000, "The image is 0.1 MB; the limit is 0.1 MB"),
])
def test_bad_attachments_get_a_clear_message_and_no_model_call(ctx, data, expected):
    model = RecordingModel()
    result = run(ctx, data, model)
    assert result.status == "error" and result.error_kind == "invalid" and expected in result.text
    assert model.calls == []


def test_no_image_and_no_model_are_explained(ctx):
    assert "No image is attached" in run(ctx, None, RecordingModel()).text
    result = run(ctx, png_bytes(), None)
    assert result.error_kind == "unreachable"
    assert result.text.startswith("Image analysis needs the vision model, which is not configured")


def test_model_failure_is_preformatted(ctx):
    error = ModelError("connection refused at http://10.0.0.1")
    result = run(ctx, png_bytes(), RecordingModel(error=error))
    assert result.error_kind == "unreachable" and "Do not describe the image from assumptions" in result.text
    assert "10.0.0.1" not in result.text


def test_real_model_client_sends_a_data_url_and_the_findings_schema(httpserver, ctx):
    from smart_docgemma.agent.model import CallStats, ModelClient

    completion = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                  "choices": [{"index": 0, "finish_reason": "stop",
                               "message": {"role": "assistant", "content": json.dumps(ANSWER)}}]}
    httpserver.expect_request("/v1/chat/completions", method="POST").respond_with_json(completion)
    client = ModelClient(httpserver.url_for("/v1"), model="google/medgemma-1.5-4b-it", dialect="json_schema", retries=0)
    image = png_bytes()
    result = run(ctx, image, client.bound(CallStats()))
    body = json.loads(httpserver.log[-1][0].data)
    parts = body["messages"][-1]["content"]
    url = next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")
    assert url == "data:image/png;base64," + base64.b64encode(image).decode()
    assert body["response_format"]["json_schema"]["name"] == "ImageFindings"
    assert result.status == "ok" and result.data["impression"] == ANSWER["impression"]
