"""The page in the clinician's language (Flask-Babel): every template string is in the fr, pt
and es catalogs (compiled as shipped), the language comes from the clinician's choice kept per
practitioner, else Accept-Language, else DOCGEMMA_LANGUAGE; real HAPI behind the page."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tests.support.chat_session import open_session

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "smart_docgemma" / "translations"


def _template_msgids() -> set[str]:
    """Every string marked in the templates and in the package's Python (card words, app.js's)."""
    found = list(extract_from_dir(ROOT / "smart_docgemma" / "templates", method_map=[("**.html", "jinja2")]))
    found += extract_from_dir(ROOT / "smart_docgemma", method_map=[("**.py", "python")])
    return {m[2] if isinstance(m[2], str) else m[2][0] for m in found}


# words a template may show as they are, in every language
AS_IS = {"DocGemma", "HTTP", "ms"}


def test_no_template_shows_text_that_is_not_marked_for_translation():
    """Text outside ``{{ _(…) }}`` would stay English on a French page: none is left."""
    for path in sorted((ROOT / "smart_docgemma" / "templates").rglob("*.html")):
        src = path.read_text(encoding="utf-8")
        for jinja in (r"\{#.*?#\}", r"\{%.*?%\}", r"\{\{.*?\}\}"):
            src = re.sub(jinja, " ", src, flags=re.S)
        shown = re.sub(r"<[^>]*>", " ", src) + " ".join(
            re.findall(r'\b(?:aria-label|placeholder|title|alt)="([^"]*)"', src))
        words = set(re.findall(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’\-]+", shown)) - AS_IS
        assert words == set(), f"{path.name}: {sorted(words)}"


@pytest.mark.parametrize("lang", ["fr", "pt", "es", "sw"])
def test_every_template_string_is_translated_and_compiled(lang):
    ids = _template_msgids()
    assert len(ids) > 160
    po = read_po((CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb"))
    mo = read_mo((CATALOGS / lang / "LC_MESSAGES" / "messages.mo").open("rb"))
    for catalog in (po, mo):  # the .mo shipped is the .po compiled (no stale build)
        translated = {_one(m.id) for m in catalog if m.id and all(_many(m.string))}
        assert ids - translated == set(), f"{lang}: untranslated {sorted(ids - translated)[:5]}"
    assert {_one(m.id): _many(m.string) for m in po if m.id} == \
        {_one(m.id): _many(m.string) for m in mo if m.id}


def _one(msgid) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def _many(msgstr) -> tuple:
    return (msgstr,) if isinstance(msgstr, str) else tuple(msgstr)


@pytest.fixture
def page(app, fhir_base):
    client = app.test_client()
    client.csrf = open_session(app, client, fhir_base, "pt-ckd-elder")
    return client


def test_the_page_follows_the_browsers_language(page):
    html = page.get("/app", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="fr">' in html
    for text in ("Le dossier en un coup d'œil", "Question sur Margaret Thompson", "Demander",
                 "Biologie", "en hausse", "Changer de langue"):
        assert text in html, text
    assert "Chart at a glance" not in html and "Ask about this patient" not in html
    assert '"working": "En cours\\u2026"' in html  # the words app.js writes
    english = page.get("/app", headers={"Accept-Language": "en-US"}).get_data(as_text=True)
    assert '<html lang="en">' in english and "Chart at a glance" in english


def test_numbers_and_dates_are_in_the_locales_format(page):
    html = page.get("/app", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "<strong>5,6</strong> mmol/L" in html  # the latest potassium, French decimal comma
    assert "Né(e) le 12 mai 1943" in html  # the banner's date of birth
    spanish = page.get("/app", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "12 may 1943" in spanish
    english = page.get("/app", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "DOB 1943-05-12" in english


def test_the_clinicians_choice_is_kept_for_that_practitioner(app, page, fhir_base):
    res = page.post("/app/language", data={"language": "pt", "csrf_token": page.csrf})
    assert res.status_code == 303
    html = page.get("/app", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="pt">' in html and "Prontuário em resumo" in html
    again = app.test_client()  # a new session of the same practitioner
    open_session(app, again, fhir_base, "pt-warfarin")
    assert '<html lang="pt">' in again.get("/app").get_data(as_text=True)
    other = app.test_client()  # another practitioner: not their choice
    open_session(app, other, fhir_base, "pt-warfarin", user="Practitioner/dr-otieno")
    assert '<html lang="es">' in other.get("/app", headers={"Accept-Language": "es"}).get_data(as_text=True)


def test_an_unknown_language_is_refused_and_nothing_is_kept(page):
    res = page.post("/app/language", data={"language": "xx", "csrf_token": page.csrf})
    assert res.status_code == 400
    assert '<html lang="en">' in page.get("/app").get_data(as_text=True)
    assert page.post("/app/language", data={"language": "fr"}).status_code == 403  # no CSRF token
    assert "<html lang=\"en\">" in page.get("/app").get_data(as_text=True)


def test_the_deployment_default_when_neither_says(app_config, fhir_base):
    from smart_docgemma import create_app

    app = create_app({**app_config, "LANGUAGE": "es"})
    client = app.test_client()
    open_session(app, client, fhir_base, "pt-ckd-elder")
    html = client.get("/app").get_data(as_text=True)
    assert '<html lang="es">' in html and "Historia de un vistazo" in html


def test_the_answer_is_in_the_pages_language(page):
    res = page.post("/api/chat", data={"message": "dossier de Samuel Okoro"},
                    headers={"X-CSRF-Token": page.csrf, "Accept-Language": "fr"},
                    content_type="multipart/form-data")
    body = res.get_data(as_text=True)
    assert "Je travaille dans ce dossier uniquement (Margaret Thompson)" in body


def test_swahili_is_the_interface_only_and_the_answers_stay_english(page):
    html = page.get("/app", headers={"Accept-Language": "sw-KE,sw;q=0.9"}).get_data(as_text=True)
    assert '<html lang="sw">' in html and "Muhtasari wa faili" in html and ">Uliza<" in html
    res = page.post("/api/chat", data={"message": "Review the chart of James Wilson"},
                    headers={"X-CSRF-Token": page.csrf, "Accept-Language": "sw"},
                    content_type="multipart/form-data")
    assert "I work in this chart only (Margaret Thompson)" in res.get_data(as_text=True)


def test_error_pages_are_titled_in_the_language(app):
    client = app.test_client()  # no session: the relaunch page
    html = client.get("/app", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "<h1>Votre session est terminée</h1>" in html
    assert "Fermez cette fenêtre et rouvrez l'assistant depuis le dossier du patient." in html
    assert "<h1>Your session has ended</h1>" in client.get("/app").get_data(as_text=True)
