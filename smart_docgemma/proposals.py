"""Blueprint for the proposals surface (being built: see the issues)."""
from flask import Blueprint

bp = Blueprint("proposals", __name__)
