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

ROOT = Path(__file__).resolve().parents[2]
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


def test_a_choice_kept_under_a_url_is_that_practitioners_and_no_one_elses(app):
    """The choice is found by the practitioner's id at the end of a kept URL; "_" and "%" in
    an id are characters, not LIKE wildcards, and the "/" before it is required."""
    from smart_docgemma.languages import choices as language

    with app.app_context():
        language.remember("https://ehr.example/fhir/Practitioner/dr_1", "pt")
        language.remember("https://ehr.example/fhir/Practitioner/dr%2", "fr")
        assert language.remembered("Practitioner/dr_1") == "pt"
        assert language.remembered("Practitioner/dr%2") == "fr"
        assert language.remembered("Practitioner/drx1") is None  # "_" matched no other character
        assert language.remembered("Practitioner/dr") is None
        assert language.remembered("titioner/dr_1") is None  # not after a "/"


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


# ------------------------------------------------------------------ the words the code writes
def _english_phrases(lang: str) -> set[str]:
    """Every phrase of the English catalog (two words or more, between placeholders) that the
    ``lang`` catalog translates differently: seen on a ``lang`` page, it is English left over."""
    po = read_po((CATALOGS / lang / "LC_MESSAGES" / "messages.po").open("rb"))
    out = set()
    for m in po:
        if not m.id or isinstance(m.id, tuple):
            continue
        for part in re.split(r"%\(\w+\)s|%s", m.id):
            part = part.strip(" .,:;()—-–“”«»?!…\n")
            if len(part.split()) >= 2 and part not in m.string:
                out.add(part)
    return out


def _visible(html: str) -> str:
    """The text a clinician reads: no markup, scripts, attributes or the FHIR JSON (codes)."""
    import html as entities

    for hidden in (r"<script.*?</script>", r'<details class="proposal-json">.*?</details>',
                   r'<span class="flag-source-text" lang="en">.*?</span>', r"<[^>]+>"):
        html = re.sub(hidden, " ", html, flags=re.S)
    return " ".join(entities.unescape(html).split())


def _done(res) -> str:
    import json

    body = res.get_data(as_text=True)
    return json.loads(re.findall(r"^event: done\ndata: (.*)$", body, re.M)[-1])["html"]


def _clinician(app, fhir_base, lang):
    """A page in ``lang`` on a copy of the CKD scenario patient (eGFR 38, potassium 5.6)."""
    from tests.support.launch_context import clone_patient

    client = app.test_client()
    client.patient = clone_patient(fhir_base, "pt-ckd-elder")
    client.csrf = open_session(app, client, fhir_base, client.patient)
    client.lang = lang
    client.ask = lambda message: _done(client.post(
        "/api/chat", data={"message": message}, content_type="multipart/form-data",
        headers={"X-CSRF-Token": client.csrf, "Accept-Language": lang}))
    return client


@pytest.fixture
def french(app, fhir_base):
    return _clinician(app, fhir_base, "fr")


@pytest.mark.parametrize("lang, order, said, error, chart, nkda, pair", [
    ("fr", "prescrire ibuprofène 400 mg x3/j si douleur", "si besoin, en cas de douleur",
     "La dose doit être un nombre, p. ex. 500", "quelle est la dernière kaliémie ?", "pas d'allergie connue",
     "interaction entre warfarine et ibuprofène ?"),
    ("pt", "prescrever ibuprofeno 400 mg de 8/8h se dor", "se necessário, em caso de dor",
     "A dose deve ser um número, p. ex. 500", "ultimo potassio?", "sem alergias conhecidas",
     "interação entre varfarina e ibuprofeno?"),
    ("es", "indicar ibuprofeno 400 mg c/8h si dolor", "según necesidad, en caso de dolor",
     "La dosis debe ser un número, p. ej. 500", "ultimo potasio?", "sin alergias conocidas",
     "interacción entre warfarina e ibuprofeno?"),
])
def test_a_page_with_flags_an_invalid_edit_and_a_chart_answer_has_no_english(
        app, fhir_base, lang, order, said, error, chart, nkda, pair):
    """A card carrying safety flags (kidney function, age, problem list), an invalid edit's
    error, a chart answer, a no-known-allergy card and an interaction answer with the patient's
    safety check (model off), on a French, Portuguese or Spanish page: no
    phrase of the English catalog is left (drug names, codes, values and the chart's own text stay
    as they are)."""
    client = _clinician(app, fhir_base, lang)
    english = _english_phrases(lang)
    card = client.ask(order)
    pid = re.search(r'id="proposal-([0-9a-f]+)"', card).group(1)
    assert 'class="flag flag-warning"' in card and said in _visible(card)
    # The source's clinical clause (no reviewed translation) is kept, in English and marked so.
    assert re.search(r'<span class="flag-source-text" lang="en">\(\w[^<]{10,}\)</span>', card), card
    bad = client.post(f"/proposals/{pid}/edit", data={"csrf_token": client.csrf, "version": "1", "dose": "abc"},
                      headers={"X-CSRF-Token": client.csrf, "X-Requested-With": "fetch", "Accept": "text/html",
                               "Accept-Language": lang})
    assert bad.status_code == 400 and error in _visible(bad.get_data(as_text=True))
    answer = client.ask(chart)
    potassium = {"fr": "Potassium", "pt": "Potássio", "es": "Potasio"}[lang]
    assert potassium in _visible(answer)
    # its localized dates are found in the records read: no sentence marked unsupported
    assert 'role="note"' not in answer.split('class="citations"')[-1].split("</div>")[0], answer
    # a citation's label: the test's name and its date in the language
    assert re.search(rf"Observation: {potassium} 10 (de )?nov", _visible(answer)), _visible(answer)
    recorded = client.ask(nkda)
    assert "716186003" in recorded
    checked = client.ask(pair)  # the interaction tool's text with the patient-safety check
    assert {"fr": "CRITIQUE", "pt": "CRÍTICO", "es": "CRÍTICO"}[lang] in _visible(checked)
    page = client.get("/app", headers={"Accept-Language": lang}).get_data(as_text=True)
    for shown in (card, bad.get_data(as_text=True), answer, recorded, checked, page):
        # whole words: "is a" is English, "mais antigo" (Portuguese) only holds its letters
        left = sorted(p for p in english if re.search(rf"\b{re.escape(p)}\b", _visible(shown)))
        assert left == [], f"English on a {lang} page: {left[:8]}\n{_visible(shown)[:3000]}"
        iso = re.findall(r"\b\d{4}-\d{2}-\d{2}\b", _visible(shown))  # a date in the locale's form
        assert iso == [], f"ISO dates on a {lang} page: {iso[:8]}\n{_visible(shown)[:3000]}"


def test_no_known_allergy_is_approved_on_the_card_and_the_chart_then_reads_so(french, fhir_base):
    """"pas d'allergie connue" → a card for the coded no-known-allergy record; approved, HAPI holds
    it (SNOMED CT 716186003, confirmed) and the chart reads "pas d'allergie connue", not "none"."""
    import requests

    card = french.ask("pas d'allergie connue")
    pid = re.search(r'id="proposal-([0-9a-f]+)"', card).group(1)
    done = french.post(f"/proposals/{pid}/approve", data={"csrf_token": french.csrf, "version": "1"},
                       headers={"X-CSRF-Token": french.csrf, "X-Requested-With": "fetch", "Accept": "text/html",
                                "Accept-Language": "fr"})
    assert done.status_code == 200 and "Validé" in _visible(done.get_data(as_text=True))
    found = requests.get(f"{fhir_base}/AllergyIntolerance", params={"patient": french.patient},
                         headers={"Cache-Control": "no-cache"}, timeout=30).json()["entry"][0]["resource"]
    assert found["code"]["coding"][0]["code"] == "716186003"
    assert found["verificationStatus"]["coding"][0]["code"] == "confirmed" and "reaction" not in found
    answer = _visible(french.ask("ses allergies ?"))
    assert "pas d'allergie connue" in answer.lower() and "aucune enregistrée" not in answer
    page = _visible(french.get("/app", headers={"Accept-Language": "fr"}).get_data(as_text=True))
    assert "Pas d'allergie connue (enregistré comme tel)" in page
