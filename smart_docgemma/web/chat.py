"""The ``chat`` blueprint: the assistant page and its streaming question endpoint.

- ``GET /app`` — the page: patient banner (when the EHR asks), degraded-mode
  label, chart at a glance (with server-drawn trend plots), the transcript
  with its approval cards, and the question form.
- ``POST /api/chat`` — one question (form or JSON ``message``; optional
  ``image`` file: PNG, JPEG or DICOM). Answers ``text/event-stream``:
  ``turn`` (its id), ``progress`` (each agent step and source, as it happens),
  ``token`` (answer text as it is written), ``done`` (the finished turn as
  server-rendered, sanitised HTML: answer, sources, clinical trace, cards).
  Refusals come before the stream, as JSON with the right status: 400 empty or
  too long, 413 image too large, 415 not an image, 409 a turn already
  running, 429 rate limit (``Retry-After``).
- ``GET /app/turns/<id>`` — one turn's HTML (a reload, or a dropped stream).
- ``GET /app/style.css`` — the EHR's ``smart_style_url`` as CSS variables.

The agent runs in a worker thread that owns the turn to its end: it stores
the result even if the browser goes away mid-stream, so nothing is lost.
The access token stays on the server; the page never sees it.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace

from fhirclient.models.patient import Patient
from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    redirect,
    render_template,
    stream_with_context,
    url_for,
)

from .. import errors, inputs
from ..agent.graph import Agent
from ..agent.state import Turn, new_turn
from ..languages import N_
from ..languages import message as language_message
from ..lessons.store import lesson_store
from ..proposals.store import proposal_store
from ..session import launches as sessions
from ..tools.chart.chart import chart_summary, read_for_turn
from ..tools.registry import tools_for
from ..tools.sources.imaging import ImageMeta, image_meta
from ..turns.store import turn_store
from ..turns.worker import TurnWorker, leases
from . import charts, styling
from .language import page_language
from .modelstatus import get_model, model_available, model_label
from .prefill import prefill_answer_prompt, prefill_next_turn
from .relay import stream
from .snapshots import ChartRead, ChartSnapshots, snapshot_store
from .streams import deadline, held, stream_slots
from .turnview import rendered, turn_view

log = logging.getLogger(__name__)
bp = Blueprint("chat", __name__)


# ------------------------------------------------------------------ the page
@bp.app_context_processor
def _answering_model() -> dict:
    """Which model answers, on the page and on every answer (``modelstatus.model_label``)."""
    return {"answering_model": model_label(current_app)}


@bp.get("/app")
def app_page():
    launch = sessions.current_launch()
    shown, unreadable = _banner(launch)
    g.docgemma_card_patient = shown
    glance, chart_error = _glance(launch) if unreadable is None else (None, unreadable)
    return render_template("chat/app.html", launch=launch, banner=shown, glance=glance,
                           chart_error=chart_error, turns=_transcript(launch.sid),
                           mcp_pending=proposal_store().from_mcp(launch.patient_id),
                           degraded=not model_available(current_app), limits=_limits())


def _banner(launch) -> tuple[dict | None, str | None]:
    """The banner, or why the FHIR server could not give it (dead, erroring, garbled, too slow):
    the page still loads and knowledge questions still work. A refusal (403) or an ended
    session (401) is not an outage and keeps its own page."""
    try:
        return banner(launch), None
    except errors.UpstreamError as exc:
        log.warning("patient banner unavailable: %s", exc.error)
        return None, (
            f"The chart is unavailable just now ({exc.description}). "
            "Questions that do not need it still work."
        )


def _transcript(sid: str) -> list[dict]:
    ratings = lesson_store().ratings(sid)
    return [turn_view(t, ratings.get(t.id)) for t in turn_store().for_session(sid)]


@bp.get("/app/turns/<turn_id>")
def turn_page(turn_id: str):
    launch = sessions.current_launch()
    stored = turn_store().get(turn_id)
    if stored.sid != launch.sid:
        raise errors.NotFound("No such turn in this session.")
    if stored.turn.answer:
        launch.audit.action("answer-shown", turn=turn_id, status=stored.status, reload="yes")
    return rendered(stored)


@bp.get("/app/style.css")
def ehr_style():
    launch = sessions.current_launch()
    css = styling.css_for(launch.smart_style_url, current_app)
    return Response(css, mimetype="text/css", headers={"Cache-Control": "private, max-age=3600"})


def banner(launch) -> dict | None:
    """Name, birth date, sex and MRN of the launch patient, read with the launch token."""
    if not launch.patient_id:
        return None
    patient = launch.fhir.read_model(Patient, launch.patient_id)
    name = patient.name[0] if patient.name else None
    text = (
        (name.text or " ".join([*(name.given or []), name.family or ""]).strip())
        if name
        else "Unnamed patient"
    )
    mrn = next((i.value for i in patient.identifier or []
                if i.type and any(c.code == "MR" for c in i.type.coding or [])), None)
    return {"name": text, "birth_date": patient.birthDate.isostring if patient.birthDate else None,
            "sex": patient.gender, "mrn": mrn, "id": launch.patient_id}


@bp.app_context_processor
def _card_patient():
    return {"card_patient": card_patient}


def card_patient(patient_id: str) -> dict:
    """Who a card is about: the session's banner (name, DOB, MRN) when ``patient_id`` is the
    launch patient, read once per request; the bare id when the chart cannot be read."""
    if "docgemma_card_patient" not in g:
        try:
            g.docgemma_card_patient = banner(sessions.current_launch())
        except errors.DocGemmaError as exc:
            log.info("card patient unavailable: %s", exc.error)
            g.docgemma_card_patient = None
    shown = g.docgemma_card_patient
    return shown if shown and shown.get("id") == patient_id else {"id": patient_id}


def _glance(launch) -> tuple[dict | None, str | None]:
    """The chart at a glance, or why it could not be read (the page still works)."""
    if not launch.patient_id:
        return None, "No patient is in context for this launch."
    try:
        chart = chart_summary(launch.fhir, launch.patient_id, scopes=launch.scopes)
    except errors.DocGemmaError as exc:
        log.info("chart at a glance unavailable: %s", exc.error)
        return None, f"The chart could not be read just now ({exc.description})."
    # the first question's
    snapshot_store().keep(launch.sid, launch.patient_id, ChartRead.of(chart))
    prefill_answer_prompt(chart.text)  # ... and its answer prompt computed while the page is read
    return charts.glance(chart.data), None


def _limits() -> dict:
    cfg = current_app.config
    return {
        "max_chars": cfg["CHAT_MAX_CHARS"],
        "image_mb": round(cfg["IMAGE_MAX_BYTES"] / 1048576, 1),
    }


# ------------------------------------------------------------------ asking
@bp.post("/api/chat")
def ask():
    launch = sessions.current_launch()
    message = _message()
    image, meta = _image(inputs.upload("image"))
    # before the turn starts: a refused stream starts nothing
    slot = stream_slots().take(launch.sid)
    try:
        worker = _started(launch, message, image, meta)
    except BaseException:
        slot.release()
        raise
    events = stream(worker.turn_id, worker.events, rendered, worker.turns, until=deadline())
    response = Response(
        stream_with_context(held(events, slot)),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(slot.release)
    return response


def _started(launch, message: str, image: bytes | None, meta: ImageMeta | None) -> TurnWorker:
    """The turn stored as running and its worker thread started. What the turn reads from the
    database is read first: a database lost after the turn's row is stored would otherwise
    leave a running turn with no worker, holding the session until its lease ran out."""
    turns = turn_store()
    history, lessons = turns.history(launch.sid), tuple(lesson_store().approved())
    turn = new_turn(message, image_meta=meta)
    turn_id = turns.start(launch.sid, turn, per_minute=current_app.config["CHAT_RATE_PER_MIN"])
    ctx = replace(launch.tool_context(), language=page_language())
    worker = TurnWorker(turn_id, turns, ctx, current_app.config["ANSWER_MAX_CHARS"],
                        leases=leases(current_app))
    agent = Agent(get_model(current_app), tools_for(launch.scopes), ctx,
                  lessons=lessons, pause_on_proposal=True)
    question = _Question(worker, agent, turn, history, image, snapshot_store())
    threading.Thread(target=question, name=f"turn-{turn_id[:8]}", daemon=True).start()
    log.info(
        "chat: turn %s started (%d chars%s)", turn_id[:8], len(message), ", image" if image else ""
    )
    return worker


@dataclass
class _Question:
    """A question in its worker thread: the chart for the model's context (the session's read
    of the last ``CHART_FRESH_S`` seconds, else read now), the turn, then the next turn's prompts
    computed while the clinician reads the answer (``web/prefill.py``)."""

    worker: TurnWorker
    agent: Agent
    turn: Turn
    history: list[dict[str, str]]
    image: bytes | None
    charts: ChartSnapshots

    def __call__(self) -> None:
        stored = self.worker.ask(self.agent, self.turn, history=self.history, image=self.image,
                                 chart=self._chart)
        if stored.status == "done":
            self._prefill_next()

    def _chart(self) -> ChartRead | None:
        ctx = self.worker.ctx
        sid, patient = ctx.sid or "", ctx.patient_id
        if not patient:
            return None
        kept = self.charts.fresh(sid, patient)
        if kept is not None:
            return kept
        try:
            chart = read_for_turn(ctx)  # kept in ``ctx.chart_read`` for this turn's drug questions
        except errors.DocGemmaError as exc:
            log.info("chat: chart prefetch failed (%s)", exc.error)
            return None
        kept = ChartRead.of(chart)
        self.charts.keep(sid, patient, kept)
        return kept

    def _prefill_next(self) -> None:
        ctx, chart, model = self.worker.ctx, self.worker.chart, self.agent.model
        if model is None or not ctx.config.get("MODEL_PREFILL_NEXT_TURN"):
            return
        try:
            requests = self.agent.next_prompts(self.worker.turns.history(ctx.sid or ""),
                                               chart_summary=chart.brief if chart else None,
                                               chart_text=chart.text if chart else None)
        except Exception:  # nothing depends on it: the next question computes its own prompt
            log.exception("chat: next turn's prompts not built")
            return
        prefill_next_turn(model, requests)


def _message() -> str:
    text = inputs.text("message").strip()
    limit = current_app.config["CHAT_MAX_CHARS"]
    if not text:
        raise errors.BadRequest("Type a question first.")
    if len(text) > limit:
        raise errors.BadRequest(
            f"The question is {len(text)} characters long; the limit is {limit}. "
            "Shorten it or split it into several questions."
        )
    return text


def _image(upload) -> tuple[bytes | None, ImageMeta | None]:
    """The attached image's bytes and meta (its kind sniffed once, here; the declared type is in
    the meta), after the size and type checks."""
    if upload is None or not upload.filename:
        return None, None
    limit = current_app.config["IMAGE_MAX_BYTES"]
    data = upload.stream.read(limit + 1)
    if len(data) > limit:
        raise errors.PayloadTooLarge(f"The image is larger than {limit / 1048576:.0f} MB. "
                                     "Attach a smaller PNG, JPEG or DICOM file.")
    if not data:
        raise errors.BadRequest("The attached file is empty.")
    meta = image_meta(data, upload.mimetype)
    if meta is None or not meta["accepted"]:
        raise errors.UnsupportedMedia("Only PNG, JPEG and DICOM images can be attached "
                                      f"({upload.filename} is not one of them).")
    return data, meta


@bp.post("/app/turns/<turn_id>/cancel")
def cancel_turn(turn_id: str):
    """Stop a running turn: its worker stops at the next step; what it proposed is withdrawn."""
    launch = sessions.current_launch()
    if not turn_store().cancel(turn_id, launch.sid):
        raise errors.Conflict(message=language_message(N_(
            "This answer has already finished; there is nothing to cancel.")))
    if _json_reply():
        return {"turn": turn_id, "status": "cancelled"}
    return redirect(url_for("chat.app_page") + f"#turn-{turn_id}", code=303)


# ------------------------------------------------------------------ rating
@bp.post("/app/turns/<turn_id>/rating")
def rate_turn(turn_id: str):
    """The clinician's verdict on a finished answer (feeds the experience library)."""
    launch = sessions.current_launch()
    sent = inputs.value("useful")
    useful = "" if sent is None else str(sent).lower()
    if useful not in ("yes", "no", "true", "false", "1", "0"):
        raise errors.BadRequest("Say whether the answer was useful (useful=yes or useful=no).")
    reason = inputs.value("reason") or ""
    if not isinstance(reason, str):
        raise errors.BadRequest("The reason must be text.")
    lesson_store().rate(turn_id, launch.sid, useful in ("yes", "true", "1"), reason)
    launch.audit.action("answer-feedback", turn=turn_id, useful=useful in ("yes", "true", "1"),
                        reason_given=bool(reason.strip()) or None)  # the reason stays on the rating
    if _json_reply():
        return {"turn": turn_id, "useful": useful in ("yes", "true", "1")}
    return redirect(url_for("chat.app_page") + f"#turn-{turn_id}", code=303)


def _json_reply() -> bool:
    """A script (JSON body, or JSON preferred) gets JSON; a form posted without one, the page."""
    return inputs.is_json() or inputs.best_accepted() == "application/json"

