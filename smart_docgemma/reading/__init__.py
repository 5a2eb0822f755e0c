"""Reading a clinician's message: who it is about, in every language the assistant serves.

The floor between the agent and the tools: the agent's extraction asks it who a message names
(``people.named_people``) and who the request is about (``subject.subject_of``); its
vocabulary is data (``data/*.yaml``), one file for en/fr/pt/es.
"""
