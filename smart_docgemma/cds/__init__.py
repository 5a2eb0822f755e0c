"""CDS Hooks 2.0 service (being built: see the issues)."""
from flask import Blueprint

bp = Blueprint("cds", __name__)
