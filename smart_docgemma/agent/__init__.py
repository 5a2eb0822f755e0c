"""The DocGemma agent: a hand-rolled nine-node state machine (docs/agent-design.md) over an
OpenAI-compatible MedGemma server, with deterministic routing and a degraded
mode when no model answers. Callers import from the modules (``graph``, ``model``, ``planning``):
this package's ``__init__`` imports nothing, so a module of it can be imported alone.

    from smart_docgemma.agent.graph import Agent
    from smart_docgemma.agent.model import model_from_config
    agent = Agent(model_from_config(app.config), tools_for(scopes), ctx)
    turn = agent.run("Check interactions between warfarin and aspirin", emit=print)
    turn.answer, turn.sources, turn.model_calls, turn.proposals
"""
