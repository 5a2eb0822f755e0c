"""The experience library: clinician feedback turned into reviewed examples.

A finished turn can be rated; approvals, edits and rejections of its proposals
are signals too. ``store.harvest`` turns *verified* turns (rated useful, or a
proposal approved) into *pending* lessons (question → tools and arguments);
a person approves or drops each one (``docgemma-lessons``), and only approved
lessons are ever retrieved (``agent/lesson_search.py: best_match``) — as the worked example
the model sees when choosing a tool, and as an extra task pattern for the code.
"""
