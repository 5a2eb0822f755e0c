"""A kind of drug asked of her list: "is he on a statin?", "is she on insulin?", "her insulin?",
"on any blood thinners?", "est-elle sous statine ?", "ela toma anticoagulante?", "¿toma
insulina?".

Such a question asks her list, not a drug to check: it is answered by the medication list (which
carries its review) and a line that says which of her drugs are of that kind, or that none is —
never a check of the class as if it were to be started. The kind is a class of the knowledge
core (its label, or an everyday name in ``data/kinds.yaml``) or a drug's name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..datafiles import safe_yaml
from ..knowledge import classes
from ..knowledge.mentions import find_drugs
from .people import fold_accents

_DATA = Path(__file__).with_name("data") / "kinds.yaml"

_WHO = (r"(?:he|she|they|the patient|the pt|pt|il|elle|ele|ela|el|ella|o paciente|a paciente|"
        r"el paciente|la paciente)")
_KIND = r"(?P<kind>[a-z][a-z0-9\- ]{1,32}?)"
_END = r"\s*[?.!]*\s*$"
# the whole message asks it: "is he on a statin?", "is she taking insulin", "her insulin?", "on
# any blood thinners?", "est-elle sous statine ?", "il prend une statine ?", "ela toma estatina?"
_ASKED = (
    re.compile(rf"^\W*(?:(?:is|are) )?{_WHO} (?:currently |still |already |even )?"
               rf"(?:on|taking|using) (?:a |an |any |some )?{_KIND}{_END}"),
    re.compile(rf"^\W*(?:currently |still |already )?on any {_KIND}{_END}"),
    re.compile(rf"^\W*(?:est-(?:il|elle) |(?:il|elle) est )sous (?:une? |des |de la |du )?{_KIND}"
               rf"{_END}"),
    re.compile(rf"^\W*(?:{_WHO} )?(?:prend|toma|usa|recebe|recibe)(?:-(?:il|elle))? "
               rf"(?:une? |des |de la |du |algum |alguma |algun |alguna |um |uma |un |una )?"
               rf"{_KIND}{_END}"),
    re.compile(rf"^\W*(?:(?:ele|ela|el|ella) )?(?:esta|ta) (?:com|con|em uso de|en) {_KIND}{_END}"),
)
# a class alone after "any" or her possessive ("any blood thinners?", "any statins on board?",
# "her insulin?"): her list asked; a drug there is not ("any aspirin?" may ask whether there is
# some, "her potassium?", "her ferritin?" ask a result)
_CLASS_ONLY = (
    re.compile(rf"^\W*any {_KIND}(?: on board| on (?:her|his|the) (?:list|chart|meds))?{_END}"),
    re.compile(rf"^\W*(?:his|her|their|pt'?s|the patient'?s) {_KIND}{_END}"),
)


@dataclass(frozen=True)
class Kind:
    """The kind asked: class keys of the knowledge core (one, or several for an everyday name:
    "blood thinner"), or a drug's generic name."""

    said: str  # as written ("blood thinners")
    cls: str | None = None  # "anticoagulant": the first class
    drug: str | None = None  # "warfarin"
    also: tuple[str, ...] = ()  # the other classes the name covers ("antiplatelet")

    def label(self) -> str:
        if not self.cls:
            return str(self.drug)
        return " or ".join(classes.label(c) for c in (self.cls, *self.also))

    def of(self, generic: str) -> bool:
        """``generic`` (a drug of her list) is of this kind."""
        if self.drug:
            return generic == self.drug
        return bool({c for c in (self.cls, *self.also) if c} & classes.of(generic))


@lru_cache(maxsize=1)
def _kinds() -> dict[str, tuple[str, ...]]:
    said = safe_yaml(_DATA.read_text(encoding="utf-8"))["kinds"]
    return {str(k): tuple(map(str, v)) if isinstance(v, list) else (str(v),)
            for k, v in said.items()}


def kind_asked(text: str) -> Kind | None:
    """The kind of drug the whole message asks of her list, or None."""
    low = " ".join(fold_accents(text or "").lower().split())
    for pattern in _ASKED:
        m = pattern.match(low)
        if m and (kind := _resolved(m.group("kind").strip())):
            return kind
    for pattern in _CLASS_ONLY:
        m = pattern.match(low)
        kind = _resolved(m.group("kind").strip()) if m else None
        if kind is not None and kind.cls:
            return kind
    return None


def _resolved(said: str) -> Kind | None:
    for form in dict.fromkeys((said, said.removesuffix("s"), said.removesuffix("es"))):
        keys = _kinds().get(form) or ((named,) if (named := classes.named(form)) else ())
        if keys:
            return Kind(said, cls=keys[0], also=keys[1:])
    drugs = [d for d in find_drugs(said) if d.name and d.surface == said]
    return Kind(said, drug=str(drugs[0].name)) if drugs else None
