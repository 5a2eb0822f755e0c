"""Drug identity: which ingredients an order, a Medication or a text names.

``identify`` reads, in this order, an RxNorm code the shipped table knows, the
order's text (RxNorm SCD/SBD grammar "A 875 MG / B 125 MG Oral Tablet [Brand]",
salts and esters dropped, brands, international names, one-edit misspellings),
then asks an injected ``resolver`` (RxNav) about a code nobody here knows. What
cannot be identified is an explicit ``UNIDENTIFIED`` result with its reason —
a caller can say "could not check", never "nothing found".
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import classes, vocabulary

RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm"
_STRENGTH = re.compile(
    r"(\d+(?:[.,]\d+)?)\s*(MG/ML|MG/ACTUAT|MCG/ACTUAT|MG/HR|MCG/HR|UNT/ML|MEQ/ML|MG|MCG|G|ML|UNT|"
    r"UNITS?|IU|MEQ|%|MMOL)(?![a-z])",
    re.I,
)
_FORMS = [
    "extended release oral tablet",
    "delayed release oral tablet",
    "extended release oral capsule",
    "delayed release oral capsule",
    "oral tablet",
    "oral capsule",
    "oral suspension",
    "oral solution",
    "chewable tablet",
    "disintegrating oral tablet",
    "sublingual tablet",
    "injectable solution",
    "injectable suspension",
    "injection",
    "prefilled syringe",
    "auto-injector",
    "metered dose inhaler",
    "dry powder inhaler",
    "inhalation solution",
    "inhalation powder",
    "nasal spray",
    "topical cream",
    "topical gel",
    "topical ointment",
    "transdermal system",
    "rectal suppository",
    "ophthalmic solution",
    "otic solution",
    "oral powder",
    "oral granules",
    "tablet",
    "capsule",
    "solution",
    "suspension",
    "syrup",
    "cream",
    "ointment",
    "patch",
    "inhaler",
    "suppository",
    "drops",
    "elixir",
]
_FORM_RE = re.compile(
    r"\b(?:\d+ hr |24 hr |12 hr )?(" + "|".join(re.escape(f) for f in _FORMS) + r")\b", re.I
)
_NOISE = {
    "oral",
    "tab",
    "tabs",
    "tablet",
    "tablets",
    "cap",
    "caps",
    "capsule",
    "capsules",
    "po",
    "iv",
    "im",
    "sc",
    "bid",
    "tid",
    "qid",
    "daily",
    "prn",
    "q",
    "h",
    "hr",
    "once",
    "twice",
    "x",
    "and",
    "with",
    "plus",
    "of",
    "er",
    "xr",
    "sr",
    "dr",
    "xl",
    "la",
    "cr",
    "ec",
    "ds",
    "forte",
    "mg",
    "mcg",
    "ml",
    "dose",
    "doses",
    "extended",
    "release",
    "delayed",
    "injection",
    "solution",
    "take",
    "give",
    "start",
    "order",
    "the",
    "for",
    "a",
    "an",
    "per",
    "day",
    "days",
    "week",
    "every",
    "night",
    "morning",
    "at",
    "bedtime",
    "by",
    "mouth",
    "pack",
    "inert",
    "ingredients",
    "intrauterine",
    "system",
    "{",
    "}",
}


@dataclass(frozen=True)
class Ingredient:
    name: str  # US ingredient name, lower case, salt dropped ("warfarin")
    rxcui: str | None = None


@dataclass(frozen=True)
class DrugIdentity:
    """What a drug order names. ``identified`` False means UNIDENTIFIED (``reason`` says why)."""

    label: str  # what the order said, for a clinician ("ketorolac tromethamine 10 MG Oral Tablet")
    ingredients: tuple[Ingredient, ...] = ()
    brand: str | None = None
    strength: str | None = None
    dose_form: str | None = None
    rxcui: str | None = None
    reason: str = ""  # why it is unidentified
    candidates: tuple[str, ...] = ()  # ambiguous misspelling: the names it could be
    via: str = ""  # rxnorm-table | text | rxnav

    @property
    def identified(self) -> bool:
        return bool(self.ingredients)

    @property
    def names(self) -> list[str]:
        return [i.name for i in self.ingredients]

    @property
    def name(self) -> str:
        """"amoxicillin/clavulanate"; the order's own words when unidentified."""
        return "/".join(self.names) or self.label


def unidentified(label: str, reason: str, candidates: tuple[str, ...] = ()) -> DrugIdentity:
    return DrugIdentity(
        label=label or "an unnamed medication", reason=reason, candidates=candidates
    )


Resolver = Callable[[str], list[tuple[str, str | None]]]


def identify(
    concept: dict[str, Any] | None = None,
    medication: dict[str, Any] | None = None,
    text: str | None = None,
    resolver: Resolver | None = None,
) -> DrugIdentity:
    """The ingredients a CodeableConcept, a Medication resource or a text names.

    ``resolver(rxcui)`` → [(ingredient name, rxcui)] is asked only about a code the
    shipped table does not know; it may raise (unreachable) → UNIDENTIFIED with the reason."""
    codes, texts = _read(concept, medication, text)
    label = next(iter(texts), None) or (f"RxNorm {codes[0]}" if codes else "")
    for code in codes:
        product = vocabulary.product(code)
        if product:
            found = parse(product)
            if found.identified:
                return _with(found, label=label, rxcui=code, via="rxnorm-table")
        ingredient = vocabulary.ingredient_of_code(code)
        if ingredient:
            return DrugIdentity(
                label=label,
                ingredients=(Ingredient(ingredient, code),),
                rxcui=code,
                via="rxnorm-table",
            )
    best = None
    for t in texts:
        found = parse(t)
        if found.identified:
            return _with(found, rxcui=codes[0] if codes else None)
        best = best or found
    if codes and resolver is not None:
        return _resolve(codes[0], label, resolver)
    if best is not None:
        return best
    why = (
        "RxNorm code not in the offline table and RxNav not consulted"
        if codes
        else "no code or name on the order"
    )
    return unidentified(label, why)


def _with(found: DrugIdentity, **changes: Any) -> DrugIdentity:
    values = {**found.__dict__, **{k: v for k, v in changes.items() if v is not None}}
    return DrugIdentity(**values)


def _resolve(code: str, label: str, resolver: Resolver) -> DrugIdentity:
    try:
        pairs = resolver(code)
    # the resolver's own errors (network, parsing): the order stays unchecked
    except Exception as exc:
        return unidentified(
            label, f"RxNav could not be reached for RxNorm {code} ({exc.__class__.__name__})"
        )
    ingredients = tuple(Ingredient(vocabulary.canonical(n) or n.lower(), c) for n, c in pairs)
    if not ingredients:
        return unidentified(label, f"RxNav lists no ingredient for RxNorm {code}")
    return DrugIdentity(label=label, ingredients=ingredients, rxcui=code, via="rxnav")


def _read(concept: dict[str, Any] | None, medication: dict[str, Any] | None,
          text: str | None) -> tuple[list[str], list[str]]:
    codes: list[str] = []
    texts: list[Any] = []  # texts and displays as written (None where absent), cleaned below
    concepts = [concept or {}]
    if medication:
        concepts.append(medication.get("code") or {})
        for part in medication.get("ingredient") or []:
            concepts.append(part.get("itemCodeableConcept") or {})
    for c in concepts:
        for coding in c.get("coding") or []:
            if coding.get("code") and "rxnorm" in (coding.get("system") or "").lower():
                codes.append(str(coding["code"]).strip())
        texts += [c.get("text")] + [coding.get("display") for coding in c.get("coding") or []]
    ingredient_texts = (
        [t for t in texts[len(concepts[0].get("coding") or []) + 1 :] if t] if medication else []
    )
    texts = [" ".join(t.split()) for t in [text, *texts] if t and t.strip()]
    if medication and len(medication.get("ingredient") or []) > 1 and ingredient_texts:
        # a contained Medication's ingredients, one by one
        texts.insert(0, " / ".join(ingredient_texts))
    return list(dict.fromkeys(codes)), list(dict.fromkeys(texts))


@lru_cache(maxsize=8192)
def parse(text: str) -> DrugIdentity:
    """Ingredients named by one order text (no codes, no network). A class named by its own
    name ("NSAID", "ACE inhibitor") stands as one ingredient of that name, whose classes are the
    class's (``classes.of``): its class rules apply, no one drug's."""
    label = " ".join((text or "").split())
    if classes.named(label):
        return DrugIdentity(label=label, ingredients=(Ingredient(label, None),), via="class")
    brand = _brand(label)
    body = re.sub(r"\[[^\]]*\]", " ", label)
    form = _FORM_RE.search(body)
    strengths = [m.group(0) for m in _STRENGTH.finditer(body)]
    found, candidates = [], []
    for part in _parts(body):
        names, maybe = _names_in(part)
        found += names
        candidates += maybe
    if not found and brand:
        found = vocabulary.lookup(brand.lower(), products=True) or []
    if not found:
        found = _whole_brand(label)
    if not found:
        reason = (
            ("ambiguous name: could be " + " or ".join(candidates))
            if candidates
            else "name not recognised"
        )
        return unidentified(label, reason, tuple(dict.fromkeys(candidates)))
    ings = tuple(dict.fromkeys(Ingredient(n, vocabulary.rxcui(n)) for n in _each_ingredient(found)))
    return DrugIdentity(
        label=label,
        ingredients=ings,
        brand=brand,
        strength=" / ".join(strengths) or None,
        dose_form=form.group(1) if form else None,
        via="text",
    )


def _each_ingredient(found: list[str]) -> list[str]:
    """A dictionary name of a combination ("ethinylestradiol/etonogestrel") as its ingredients,
    each in this core's terms; words that name a form, not a substance ("drug implants"),
    dropped."""
    out = []
    for name in found:
        for part in name.split("/") if "/" in name else [name]:
            part = part.strip()
            if part and not vocabulary.is_form_word(part):
                out.append(vocabulary.canonical(part) or part)
    return out


def _brand(label: str) -> str | None:
    m = re.search(r"\[([^\]]+)\]", label)
    return m.group(1).strip() if m else None


def _whole_brand(label: str) -> list[str]:
    m = re.search(r"\[([^\]]+)\]", label)
    return vocabulary.lookup(m.group(1).lower(), products=True) if m else []


def _parts(body: str) -> list[str]:
    """The components of a combination ("A 875 MG / B 125 MG" → ["A", "B"]) in reading order."""
    text = _FORM_RE.sub(" ", body)
    text = _STRENGTH.sub(" | ", text)
    text = re.sub(r"\s*/\s*|\s+\+\s+|,|;|\|", " | ", text)
    return [p.strip() for p in text.split("|") if p.strip()]


def _names_in(part: str) -> tuple[list[str], list[str]]:
    """Ingredient names in one component: the longest known phrase first, then misspellings."""
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9'\-./]*", part.lower()) if w not in ("/",)]
    whole = vocabulary.lookup(" ".join(words), products=True)
    if whole:
        return whole, []
    found, candidates, i = [], [], 0
    while i < len(words):
        for n in range(min(4, len(words) - i), 0, -1):
            hit = vocabulary.lookup(" ".join(words[i:i + n]), products=True)
            if hit:
                found += hit
                i += n
                break
        else:
            word = words[i]
            if word not in _NOISE and not vocabulary.is_salt(word) and not word[0].isdigit():
                close = vocabulary.near(word)
                if len(close) == 1:
                    found += vocabulary.lookup(close[0])
                else:
                    candidates += close
            i += 1
    return found, candidates
