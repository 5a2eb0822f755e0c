"""The DocGemma agent: a hand-rolled nine-node state machine (docs/agent-design.md) over an
OpenAI-compatible MedGemma server, with deterministic routing and a degraded
mode when no model answers.

    from smart_docgemma.agent import Agent, model_from_config
    agent = Agent(model_from_config(app.config), tools_for(scopes), ctx)
    turn = agent.run("Check interactions between warfarin and aspirin", emit=print)
    turn.answer, turn.sources, turn.model_calls, turn.proposals
"""
from .graph import TRANSITIONS, Agent, TurnResult, run_turn
from .model import CallStats, InvalidModelOutput, ModelClient, ModelTimeout, ModelUnavailable, model_from_config
from .planning import seed_budget

__all__ = ["Agent", "TurnResult", "TRANSITIONS", "run_turn", "ModelClient",
           "CallStats", "ModelUnavailable", "ModelTimeout", "InvalidModelOutput",
           "model_from_config", "seed_budget"]
