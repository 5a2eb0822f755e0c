"""The EHR's launcher: the page at ``/`` and the launch contract ``GET /launch``.

``GET /launch?patient=ID&practitioner=ID&launch_url=URL[&encounter=ID]
[&need_patient_banner=0|1][&consent=1][&scope=S]`` stores an opaque launch
handle binding that context (life ``LAUNCH_TTL_S``, reusable until then so an
app may retry its authorization) and redirects (302) to
``URL?iss={sandbox}/fhir&launch=HANDLE`` (an EHR launch as SMART App Launch defines it).
``need_patient_banner`` defaults to 1: no EHR chrome surrounds the app here.
``scope`` limits what the launch may grant (a narrower grant without the consent page).
``type=standalone`` sends the browser to ``URL?iss=...`` only (SMART standalone launch).
"""
from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from flask import Blueprint, redirect, render_template, request

from .authserver import LaunchContext, state

bp = Blueprint("sandbox_launcher", __name__)
DEFAULT_SCOPES = ("launch openid fhirUser online_access patient/*.rs patient/MedicationRequest.c "
                  "patient/AllergyIntolerance.c patient/DocumentReference.c patient/Provenance.c "
                  "user/Practitioner.rs")


@bp.route("/")
def index():
    sandbox = state()
    return render_template("launcher.html", patients=sandbox.upstream.list_patients(),
                           practitioners=sandbox.upstream.list_practitioners(),
                           app_url=sandbox.config["APP_LAUNCH_URL"], fhir_base=sandbox.fhir_base,
                           default_practitioner=sandbox.config["DEFAULT_PRACTITIONER"],
                           scopes=DEFAULT_SCOPES)


@bp.route("/launch")
def launch():
    args = request.args
    launch_url = args.get("launch_url") or state().config["APP_LAUNCH_URL"]
    if urlsplit(launch_url).scheme not in ("http", "https") or not urlsplit(launch_url).netloc:
        return _error("launch_url must be an absolute http(s) URL.")
    if args.get("type") == "standalone":
        return redirect(_with_params(launch_url, {"iss": state().fhir_base}), 302)
    context, problem = _context(args)
    if problem:
        return _error(problem)
    handle = state().launches.put(context)
    return redirect(_with_params(launch_url, {"iss": state().fhir_base, "launch": handle}), 302)


def _context(args) -> tuple[LaunchContext | None, str | None]:
    directory = state().upstream
    patient = args.get("patient")
    practitioner = args.get("practitioner") or state().config["DEFAULT_PRACTITIONER"]
    encounter = args.get("encounter") or None
    if not patient or not directory.patient_exists(patient):
        return None, f"Unknown patient {patient!r}: choose one of the EHR's patients."
    if not directory.exists("Practitioner", practitioner):
        return None, f"Unknown practitioner {practitioner!r}."
    if encounter and not directory.exists("Encounter", encounter):
        return None, f"Unknown encounter {encounter!r}."
    scope = args.get("scope")
    return LaunchContext(practitioner=practitioner, patient=patient, encounter=encounter,
                         need_patient_banner=args.get("need_patient_banner", "1") != "0",
                         consent=args.get("consent") == "1",
                         approved_scopes=frozenset(scope.split()) if scope else None), None


def _with_params(url: str, params: dict) -> str:
    return f"{url}{'&' if urlsplit(url).query else '?'}{urlencode(params)}"


def _error(message: str):
    return render_template("error.html", message=message), 400
