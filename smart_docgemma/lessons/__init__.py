"""The experience library: clinician feedback turned into reviewed examples.

A finished turn can be rated; approvals, edits and rejections of its proposals
are signals too. ``store.harvest`` turns *verified* turns (rated useful, or a
proposal approved) into *pending* lessons (question → tools and arguments);
a person approves or drops each one (``docgemma-lessons``), and only approved
lessons are ever retrieved (``retrieval.best_match``) — as the worked example
the model sees when choosing a tool, and as an extra task pattern for the code.
"""
from .retrieval import Lesson, best_match  # noqa: F401  (store.py is imported by its callers:
# it needs the app's storage, the agent needs only retrieval)
