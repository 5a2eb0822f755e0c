"""A liquid's strength as the clinician writes it ("120mg/5ml", "250 mg/5 mL", "24 mg/ml",
"1 g/10 ml") and the arithmetic between a dose in mg and its volume in ml.

Nothing is assumed: no strength is ever taken from a table or a usual product; a conversion
needs the strength the clinician gave.

    s = strength_in("how much is that in ml of 120mg/5ml")   # Strength(120, 5)
    ml_for(240, s).amount, ml_for(240, s).arithmetic         # 10.0, "240 mg ÷ 24 mg/ml = 10 ml"
    mg_for(7.5, strength_in("250mg/5ml")).amount             # 375.0
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .dose import mg_per_ml

_NUMBER = r"(\d+(?:[.,]\d+)?)"
_TO_MG = {"mg": 1.0, "mcg": 0.001, "microgram": 0.001, "micrograms": 0.001, "g": 1000.0}
# "120mg/5ml", "120 mg / 5 ml", "250mg per 5ml", "24 mg/ml", "1 g/10 ml", "120 mg en 5 ml"
_STRENGTH = re.compile(
    rf"{_NUMBER}\s*(mg|mcg|micrograms?|g)\s*(?:/|per|par|por|em|en|in|dans|a cada|cada)\s*"
    rf"{_NUMBER}?\s*(?:ml|mls|milliliters?|millilitres?|mililitros?)\b",
    re.I,
)
# a volume on its own ("7.5 ml of the 250mg/5ml", "10 ml qds")
_VOLUME = re.compile(rf"(?<![\d/.,]){_NUMBER}\s*(?:ml|mls|millilitres?|milliliters?|mililitros?)\b",
                     re.I)


@dataclass(frozen=True)
class Strength:
    """So many mg in so many ml, as written."""

    mg: float
    ml: float
    written: str

    @property
    def mg_per_ml(self) -> float:
        return self.mg / self.ml


@dataclass(frozen=True)
class Conversion:
    amount: float  # ml (from mg) or mg (from ml)
    unit: str  # "ml" | "mg"
    arithmetic: str  # the sum a prescriber can check


def _num(text: str) -> float:
    return float(text.replace(",", "."))


def strength_in(text: str) -> Strength | None:
    """The first strength written in ``text``; None when it writes none."""
    m = _STRENGTH.search(text or "")
    if not m:
        return None
    mg = _num(m.group(1)) * _TO_MG[m.group(2).lower()]
    ml = _num(m.group(3)) if m.group(3) else 1.0
    return Strength(mg, ml, " ".join(m.group(0).split())) if ml > 0 else None


def of_product(product: str) -> Strength | None:
    """The strength a liquid product's name states ("acetaminophen 160 MG/5ML Oral
    Suspension"), as the card's medication carries it; None for a solid or a combination."""
    per_ml = mg_per_ml(product)
    return Strength(per_ml, 1.0, f"{per_ml:g} mg/ml ({product})") if per_ml else None


def volume_in(text: str) -> float | None:
    """A volume in ml written outside any strength ("7.5 ml of the 250mg/5ml": 7.5)."""
    bare = _STRENGTH.sub(" ", text or "")
    m = _VOLUME.search(bare)
    return _num(m.group(1)) if m else None


def _shown(value: float) -> str:
    return f"{round(value, 1):g}"


def ml_for(mg: float, strength: Strength) -> Conversion:
    """``mg`` as a volume of ``strength``, to 0.1 ml, with the sum."""
    ml = mg / strength.mg_per_ml
    return Conversion(
        round(ml, 1), "ml",
        f"{mg:g} mg ÷ {strength.written} ({strength.mg_per_ml:g} mg/ml) = {_shown(ml)} ml",
    )


def mg_for(ml: float, strength: Strength) -> Conversion:
    """``ml`` of ``strength`` in mg, with the sum."""
    mg = ml * strength.mg_per_ml
    return Conversion(
        round(mg, 1), "mg",
        f"{ml:g} ml × {strength.written} ({strength.mg_per_ml:g} mg/ml) = {_shown(mg)} mg",
    )
