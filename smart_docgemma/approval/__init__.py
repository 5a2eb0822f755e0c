"""The shared types of a proposed write and its approval card (``types.py``)."""
