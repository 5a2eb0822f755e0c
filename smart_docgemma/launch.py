"""Blueprint for the launch surface (being built: see the issues)."""
from flask import Blueprint

bp = Blueprint("launch", __name__)
