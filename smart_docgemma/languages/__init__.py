"""The clinician's language at run time, on the base floor so every floor may use it: the
language a turn answers in (a context variable: the agent sets it for a turn, the web for a page),
the templated answers written per language (``agent/answers/<lang>.yaml``), sentences kept
language-neutral until shown (``message``, ``say``: the gettext catalogs) and the common lab
names (``translations/labs.yaml``). How orders write a frequency, in every language, is
``languages/frequency.py``; understanding the clinician's words is ``agent/languages.py``.
"""
from __future__ import annotations

import contextvars
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..datafiles import safe_yaml

PACKAGE = Path(__file__).resolve().parent.parent
RULES = PACKAGE / "agent" / "rules"
ANSWERS = PACKAGE / "agent" / "answers"
CATALOGS = PACKAGE / "translations"
LABS = CATALOGS / "labs.yaml"
UNDERSTOOD = ("fr", "pt", "es")  # languages with rule files; English is agent/data/rules.yaml
ANSWERED = ("en", "fr", "pt", "es")  # languages the templated answers are written in
_ELISION = re.compile(r"\b(l|d|j|qu|n|s|c|m|t)['\u2019](?=[a-z])", re.I)
_answer_language = contextvars.ContextVar("answer_language", default="en")


def fold(text: str) -> str:
    """Accents dropped and French elisions split ("l'ibuprofène" → "l ibuprofene"), case kept."""
    plain = (
        text
        if text.isascii()
        else "".join(  # most text (the chart's) needs no decomposing
            c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
        ).replace("\u2019", "'")
    )
    return _ELISION.sub(r"\1 ", plain) if "'" in plain else plain


@cache
def answers(lang: str) -> dict[str, Any]:
    """``answers/<lang>.yaml``: the templated answers written in ``lang`` (as written, accents
    kept)."""
    path = ANSWERS / f"{lang}.yaml"
    table: dict[str, Any] = (
        (safe_yaml(path.read_text(encoding="utf-8")) or {}) if path.exists() else {}
    )
    return table


def answer_text(section: str, key: str) -> str | None:
    """This turn's language's text for ``section``/``key``; None in English or where not written."""
    lang = answer_language()
    said = None if lang == "en" else (answers(lang).get(section) or {}).get(key)
    return str(said) if said is not None else None


def instruction() -> str | None:
    """What the synthesis prompt adds so the model answers in this turn's language."""
    lang = answer_language()
    said = None if lang == "en" else answers(lang).get("instruction")
    return str(said) if said else None

def N_(text: str) -> str:
    """A sentence marked for ``pybabel extract``: translated where it is shown (the view)."""
    return text


def message(msgid: str, **args: Any) -> dict[str, Any]:
    """A sentence kept language-neutral until it is shown: a catalog msgid (English, marked with
    ``N_``) and its arguments; an argument that is itself a ``message`` is translated too. The
    page renders it in its language (``web/language.py`` ``say``); callers keep the English
    ``msgid % args`` for CDS, the model and logs."""
    return {"id": msgid, "args": args}


def lab(name: str, code: str | None = None) -> dict[str, Any] | str:
    """A lab or vital sign's name as a message argument: shown in the clinician's language when
    ``translations/labs.yaml`` knows the test (by LOINC code or English name), else as written."""
    key = _lab_key(name, code)
    return {"lab": key, "text": name} if key else name


def lab_name(name: str, lang: str, code: str | None = None) -> str:
    """``name`` in ``lang`` when the labs table knows the test; the LOINC display otherwise."""
    key = _lab_key(name, code)
    return str(_labs()[key].get(lang) or name) if key and lang != "en" else name


@lru_cache(maxsize=1)
def _labs() -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = safe_yaml(LABS.read_text(encoding="utf-8"))
    return table


@lru_cache(maxsize=1)
def _lab_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for key, row in _labs().items():
        index |= {c: key for c in row["loinc"]}
        index |= {key: key, fold(str(row["en"])).lower(): key}
    return index


def _lab_key(name: str, code: str | None) -> str | None:
    index = _lab_index()
    return index.get(code or "") or index.get(fold(name or "").strip().lower())


def day(iso: str | None) -> dict[str, Any] | str:
    """A date as a message argument: ISO in English (what CDS, the model's prompts and logs
    read), the locale's long form on other languages ("10 novembre 2026")."""
    return {"day": iso} if iso else ""


def day_text(iso: str, lang: str) -> str:
    """An ISO day (or a FHIR dateTime, cut to its day) as ``lang`` writes it; ISO in English
    and for a value that is not a date (a partial "2026-11", as read)."""
    if lang == "en":
        return iso
    try:
        when = date.fromisoformat(iso[:10])
    except ValueError:
        return iso
    from babel.dates import format_date

    return str(format_date(when, "long", locale=lang))


@lru_cache(maxsize=1)
def local_months() -> dict[str, int]:
    """French, Portuguese and Spanish month names, wide and abbreviated, lower case and without
    a final dot (Babel's locale data: the forms ``day_text`` and the page write dates in)."""
    from babel.dates import get_month_names

    names: dict[str, int] = {}
    for lang in UNDERSTOOD:
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for n, name in get_month_names(width, context, lang).items():
                    names[name.lower().rstrip(".")] = n
    return names


@lru_cache(maxsize=1)
def local_date_pattern() -> re.Pattern:
    """A date as French, Portuguese or Spanish write it: "10 novembre 2026", "1er mars 2026",
    "10 de novembro de 2026", "10 nov. 2026" (groups: day, month name, year)."""
    months = "|".join(re.escape(m) for m in sorted(local_months(), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w-])(\d{{1,2}})(?:er|º|°)? (?:de )?({months})\.?,? (?:de )?(\d{{4}})\b", re.I
    )


def iso_days(text: str) -> str:
    """``text`` with its French, Portuguese and Spanish dates written back as ISO days: what the
    model reads (its prompts keep ISO dates in every language)."""
    def iso(m: re.Match) -> str:
        try:
            return date(int(m[3]), local_months()[m[2].lower()], int(m[1])).isoformat()
        except ValueError:
            return m[0]

    return local_date_pattern().sub(iso, text)


def english(said: dict[str, Any]) -> str:
    """A ``message`` in English (its msgid filled)."""
    return say(said, "en")


def say(said: dict[str, Any], lang: str) -> str:
    """A ``message`` in ``lang`` from the compiled catalogs (``translations/``); a sentence or
    argument the catalog lacks stays English. Works outside a request (the agent's turns)."""
    if "lab" in said:
        return lab_name(said["text"], lang)
    if "day" in said:
        return day_text(said["day"], lang)
    args = {k: say(v, lang) if isinstance(v, dict) else v for k, v in said["args"].items()}
    msgid = said["id"]
    text = catalog(lang).gettext(msgid) if lang != "en" else msgid
    return text % args if args else text


def clinical_clause(said: dict[str, Any], text: str) -> str:
    """What ``text`` (a finding's full English sentence) says beyond ``said`` (its short,
    translatable form): the risk or management clause from the finding's source (an FDA label,
    KDIGO, the Beers list), which has no reviewed translation. A page in another language shows
    it in English rather than drop it."""
    short = english(said).rstrip(" .")
    if not text.startswith(short):
        return ""
    return text[len(short):].strip(" :;,.—–-")


def clinical_text(text: str, lang: str) -> str:
    """An interaction table's English clinical text (summary, mechanism, management; a row's
    level) in ``lang`` (``translations/interactions.yaml``); the English where none is written."""
    table = _clinical()
    said = (table["texts"].get(text) or table["levels"].get(text) or {}).get(lang)
    return str(said) if said else text


@lru_cache(maxsize=1)
def _clinical() -> dict[str, Any]:
    found: dict[str, Any] = safe_yaml(
        (CATALOGS / "interactions.yaml").read_text(encoding="utf-8")
    )
    return found


@cache
def catalog(lang: str) -> Any:
    """The compiled gettext catalog of ``lang`` (``translations/<lang>/LC_MESSAGES``)."""
    from babel.support import Translations

    return Translations.load(str(CATALOGS), [lang])


def answer_language() -> str:
    """The language of this turn's templated answers ("en" unless a turn set another)."""
    return _answer_language.get()


@contextmanager
def answering(lang: str | None) -> Iterator[None]:
    """Templated answers in ``lang`` for the turn run inside (English if not one of ANSWERED)."""
    token = _answer_language.set(lang if lang in ANSWERED else "en")
    try:
        yield
    finally:
        _answer_language.reset(token)
