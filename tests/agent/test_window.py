"""A request longer than the model's context is cut to fit, in the documented order, and the cut
is said: oldest turns first, then the sections least related to the question; never the
question, the allergies or what could not be done. Tokens are counted here as UTF-8 bytes (the
counter's own over-estimate for a server without a tokenizer endpoint); tests/realmodel counts
them with the real server."""
from __future__ import annotations

from smart_docgemma.agent import prompts
from smart_docgemma.agent.window import context_size, fit

CHART = "\n".join([
    "Patient: Ana Silva (female, born 1950-03-02, 76 y; id p1)",
    "Allergies:", "- penicillin (hives)",
    "Active problems (3):", "- chronic kidney disease stage 3", "- atrial fibrillation", "- hypertension",
    "Active medications (2):", "- warfarin 5 mg daily", "- lisinopril 10 mg daily",
    "Labs (oldest → newest):", *[f"- Potassium (mmol/L): 5.{i} (2026-0{1 + i % 9}-1{i})" for i in range(8)],
    "Vitals (oldest → newest):", *[f"- Blood pressure: 13{i}/8{i} mmHg (2026-0{1 + i % 9}-0{i})" for i in range(6)],
    "Immunisations (latest dose of each):", *[f"- Influenza vaccine dose {i} (2025-10-0{i})" for i in range(6)],
])
BYTES = lambda text: len(text.encode())  # noqa: E731  (a token is at least a byte)


def _request(history_turns: int) -> list[dict]:
    history = []
    for i in range(history_turns):
        history += [{"role": "user", "content": f"Earlier question {i}: " + "about her anticoagulation " * 8},
                    {"role": "assistant", "content": f"Earlier answer {i}: " + "INR was in range " * 12}]
    user = "\n\n".join(["Clinician's question: what is her latest potassium?", f"[Patient chart]\n{CHART}",
                        "Unavailable information:\n- The drug label service could not be reached."])
    return prompts.request("synthesize", user, fixed=("Patient in context: Ana Silva, 76 y",), history=history)


def test_a_request_that_fits_is_sent_unchanged():
    messages = _request(1)
    assert fit(messages, 256, 100_000, BYTES) == (messages, [])


def test_the_oldest_turns_go_first_then_unrelated_sections_and_the_cut_is_said():
    messages = _request(6)
    whole = sum(BYTES(m["content"]) for m in messages)
    fitted, cuts = fit(messages, 256, whole, BYTES)  # the answer's 256 tokens do not fit
    assert [c.part for c in cuts] == ["history"]
    kept = fitted[1:-1]
    assert 0 < len(kept) < 12 and kept == messages[-1 - len(kept):-1]  # the newest turns, in order
    assert kept[0]["role"] == "user" and cuts[0].left_out == (f"{12 - len(kept)} earliest messages "
                                                              "of the conversation",)
    assert fitted[-1] == messages[-1] and fitted[0] == messages[0]
    fitted, cuts = fit(messages, 256, 1900, BYTES)
    parts = {c.part: c for c in cuts}
    assert len(fitted) == 2  # every earlier turn went before any section
    own = fitted[-1]["content"]
    assert "Immunisations" in parts["sections"].left_out[0] or "Immunisations" in " ".join(
        parts["sections"].left_out)
    assert "Potassium (mmol/L): 5.7" in own  # the section the question is about stays
    assert "penicillin" in own and "could not be reached" in own and "latest potassium" in own
    assert "Left out to fit the model's context: " in own and "Immunisations" in own.split("Left out")[1]
    assert sum(BYTES(m["content"]) for m in fitted) + 256 + 16 * len(fitted) <= 1900


def test_the_embedded_context_is_the_budgets_within_the_models_limit():
    assert context_size(None) == sum(prompts.load("prompts")["context"].values())
    assert context_size(2048) == 2048
