"""Blueprint for the chat surface (being built: see the issues)."""
from flask import Blueprint

bp = Blueprint("chat", __name__)
