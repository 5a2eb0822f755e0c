// DocGemma assistant page: stream a question's progress and answer, decide approval cards.
// No framework and no inline script (CSP script-src 'self'). Text from the model is only
// ever inserted as textContent; the finished turn is HTML rendered and sanitised by the server.
"use strict";

(function () {
  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  // The page's words for the text this script writes (the server renders them translated
  // into the #ask form's data-strings; English when absent).
  const askForm = document.getElementById("ask");
  const STRINGS = askForm && askForm.dataset.strings ? JSON.parse(askForm.dataset.strings) : {};
  const t = (key, english) => STRINGS[key] || english;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fromHtml(html) {
    const tpl = document.createElement("template");
    tpl.innerHTML = html.trim();
    return tpl.content.firstElementChild;
  }

  async function errorText(res) {
    const type = res.headers.get("Content-Type") || "";
    try {
      if (type.includes("json")) {
        const body = await res.json();
        return body.error_description || body.error || res.statusText;
      }
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const p = doc.querySelector(".error-page p");
      return p ? p.textContent : res.statusText;
    } catch (e) {
      return t("failed", "The request failed (HTTP %s).").replace("%s", res.status);
    }
  }

  // ---------------------------------------------------------------- a pending turn
  function pendingTurn(question) {
    const li = el("li", "turn turn-running");
    li.setAttribute("aria-busy", "true");
    li.appendChild(el("div", "question", question));
    const progress = el("ol", "progress");
    progress.setAttribute("aria-label", t("progress", "Progress"));
    li.appendChild(progress);
    const stream = el("div", "answer answer-stream");
    li.appendChild(stream);
    document.getElementById("transcript").appendChild(li);
    const hint = document.getElementById("empty-hint");
    if (hint) hint.remove();
    li.scrollIntoView({ block: "nearest" });
    return { li, progress, stream, steps: {}, id: null };
  }

  function onProgress(turn, p) {
    if (p.kind === "step" && p.phase === "start") {
      const item = el("li", "step running", p.label + "…");
      turn.progress.appendChild(item);
      turn.steps[p.node] = item;
    } else if (p.kind === "step" && p.phase === "end") {
      const item = turn.steps[p.node];
      if (item) {
        item.className = "step done";
        item.textContent = item.textContent.replace(/…$/, "") + " · " + Math.round(p.duration_ms || 0) + " ms";
      }
    } else if (p.kind === "tool" && p.phase === "call") {
      const item = turn.steps.TOOL_EXECUTE;
      if (item) item.textContent = t("consulting", "Consulting: ") + p.label + (p.args ? " (" + p.args + ")" : "") + "…";
    } else if (p.kind === "tool" && p.phase === "result") {
      turn.progress.appendChild(el("li", "step tool-result", p.label + ": " + p.status + (p.summary ? " — " + p.summary : "")));
    } else if (p.kind === "notice") {
      turn.progress.appendChild(el("li", "step notice", p.label));
    }
  }

  function finish(turn, html) {
    const done = fromHtml(html);
    turn.li.replaceWith(done);
    done.scrollIntoView({ block: "nearest" });
  }

  // The page's "Model unavailable" banner follows the latest answer: shown when a configured
  // model failed (or its circuit was open) for it, removed when the model answered again.
  // Without a configured model answers are never "degraded" and make no model call: no change.
  function modelBanner(done) {
    const banner = document.querySelector("p.degraded[role=status]");
    if (done.degraded && !banner) {
      const p = el("p", "degraded", " — answers summarise what the sources returned, with no AI interpretation.");
      p.setAttribute("role", "status");
      p.prepend(el("strong", null, "Model unavailable"));
      document.querySelector(".layout").before(p);
    } else if (!done.degraded && done.model_calls > 0 && banner) {
      banner.remove();
    }
  }

  // An interrupted answer offers to ask the same question again.
  document.addEventListener("click", (ev) => {
    const again = ev.target.closest && ev.target.closest("button.ask-again");
    const box = document.querySelector("#message");
    const send = document.querySelector("#send");
    if (!again || !box || !send) return;
    box.value = again.dataset.question || "";
    send.click();
  });

  async function recover(turn) {
    // The stream dropped (network, proxy): the server finishes the turn anyway.
    for (let i = 0; i < 120 && turn.id; i++) {
      const res = await fetch("/app/turns/" + turn.id, { headers: { Accept: "text/html" } });
      if (res.ok) {
        const html = await res.text();
        if (!/data-status="(running|resuming)"/.test(html)) return finish(turn, html);
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
    turn.stream.textContent = t("lost", "The connection was lost. Reload the page to see the answer.");
  }

  function handle(turn, event, data) {
    if (event === "turn") turn.id = data.id;
    else if (event === "progress") onProgress(turn, data);
    else if (event === "token") turn.stream.textContent += data.text;
    else if (event === "done") { finish(turn, data.html); modelBanner(data); return true; }
    return false;
  }

  async function readStream(res, turn) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) event = line.slice(7);
          else if (line.startsWith("data: ")) data += line.slice(6);
        }
        if (data && handle(turn, event, JSON.parse(data))) return true;
      }
    }
  }

  // ---------------------------------------------------------------- asking
  function setupAsk(form) {
    const box = form.querySelector("#message");
    const send = form.querySelector("#send");
    const file = form.querySelector("#image");
    const error = form.querySelector("#ask-error");
    const count = document.getElementById("char-count");
    const maxChars = Number(form.dataset.maxChars);
    const maxBytes = Number(form.dataset.maxBytes);

    const showError = (text) => { error.textContent = text; error.hidden = !text; };
    box.addEventListener("input", () => {
      count.textContent = box.value.length > maxChars * 0.8 ? box.value.length + " / " + maxChars + " " + t("characters", "characters") : "";
    });
    box.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); form.requestSubmit(); }
    });
    file.addEventListener("change", () => {
      const f = file.files[0];
      showError(f && f.size > maxBytes ? t("too_large", "This image is too large (limit %s MB).").replace("%s", Math.round(maxBytes / 1048576)) : "");
    });

    // Cancel the running turn (button or Escape): the server stops it at its next step.
    const cancel = el("button", "cancel", t("cancel", "Cancel"));
    cancel.type = "button";
    cancel.id = "cancel";
    cancel.hidden = true;
    cancel.title = t("stop", "Stop this answer (Escape)");
    send.after(cancel);
    let running = null;
    async function stop() {
      if (!running || !running.id || cancel.disabled) return;
      cancel.disabled = true;
      cancel.textContent = t("cancelling", "Cancelling…");
      const res = await fetch("/app/turns/" + running.id + "/cancel", {
        method: "POST", headers: { "X-CSRF-Token": csrf(), "X-Requested-With": "fetch", Accept: "application/json" },
      });
      if (!res.ok && res.status !== 409) showError(await errorText(res));
    }
    cancel.addEventListener("click", stop);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && running) stop(); });

    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const question = box.value.trim();
      if (!question || send.disabled) return;
      showError("");
      send.disabled = true;
      send.textContent = t("working", "Working…");
      const body = new FormData(form);
      let turn = null;
      try {
        const res = await fetch(form.action, { method: "POST", body, headers: { "X-CSRF-Token": csrf() } });
        if (!res.ok) { showError(await errorText(res)); return; }
        box.value = "";
        file.value = "";
        turn = pendingTurn(question);
        running = turn;
        cancel.hidden = false;
        cancel.disabled = false;
        cancel.textContent = t("cancel", "Cancel");
        if (!(await readStream(res, turn))) await recover(turn);
      } catch (err) {
        if (turn) await recover(turn);
        else showError(t("unreachable", "The assistant could not be reached. Check the connection and try again."));
      } finally {
        running = null;
        cancel.hidden = true;
        send.disabled = false;
        send.textContent = t("ask", "Ask");
        box.focus();
      }
    });
  }

  // ---------------------------------------------------------------- approval cards
  async function decide(form) {
    const card = form.closest(".proposal");
    const buttons = card.querySelectorAll("button");
    buttons.forEach((b) => { b.disabled = true; });  // a card never executes twice
    const res = await fetch(form.action, {
      method: "POST", body: new FormData(form),
      headers: { "X-CSRF-Token": csrf(), "X-Requested-With": "fetch", Accept: "text/html" },
    });
    const html = res.ok || res.status === 502 || res.status === 503 ? await res.text() : null;
    if (html && html.trim().startsWith("<article")) {
      const updated = fromHtml(html);
      card.replaceWith(updated);
      updated.querySelector(".proposal-status").focus({ preventScroll: true });
      if (!updated.classList.contains("proposal-pending")) await followUp(updated);
      return;
    }
    const message = await errorText(res);
    const fresh = await fetch(card.id.replace("proposal-", "/proposals/"),
      { headers: { Accept: "text/html", "X-Requested-With": "fetch" } });  // the card, not its page
    const updated = fresh.ok ? fromHtml(await fresh.text()) : card;
    const alert = el("p", "proposal-error", message);
    alert.setAttribute("role", "alert");
    updated.insertBefore(alert, updated.querySelector("details"));
    if (updated !== card) card.replaceWith(updated);
    buttons.forEach((b) => { b.disabled = false; });
  }

  async function followUp(card) {
    // The decision resumed the turn: stream its follow-up under the card, then show the stored turn.
    const li = card.closest(".turn");
    if (!li || !li.dataset.turn) return;
    const stream = el("div", "answer follow-up answer-stream");
    stream.setAttribute("role", "status");
    card.after(stream);
    const turn = { li, stream, progress: el("ol"), steps: {}, id: li.dataset.turn };
    try {
      const res = await fetch("/app/turns/" + turn.id + "/follow-up", { headers: { Accept: "text/event-stream" } });
      if (res.ok && (await readStream(res, turn))) {
        const status = document.querySelector("#" + card.id + " .proposal-status");
        if (status) status.focus({ preventScroll: true });
        return;
      }
    } catch (e) { /* fall back to the stored turn */ }
    await recover(turn);
  }

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (form.closest && form.closest(".proposal")) {
      e.preventDefault();
      decide(form).catch(() => { form.querySelectorAll("button").forEach((b) => { b.disabled = false; }); });
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("ask");
    if (form) setupAsk(form);
    // A reload during a turn: keep checking until the server has finished it.
    document.querySelectorAll('.turn[data-status="running"]').forEach((li) => {
      recover({ li, id: li.dataset.turn, stream: li.querySelector(".answer") });
    });
  });
})();
