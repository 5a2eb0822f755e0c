"""Names typed in lower case: a surname after a lower-case title ("what's ms macdonald-ross
on?", "mr o'brien inr") and a name joined by a surname's particle ("hba1c de mohammed bin
salman"). Apart from ``people`` because both ask the four languages' word lists
(``unknown_words``), which themselves read the people vocabulary."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from ..knowledge.mentions import normalise
from ..tools.words import when
from .people import fold_accents, not_name_words, ordered_for, people_data
from .unknown_words import (
    abbreviations,
    frequency,
    is_word,
    near_vocabulary,
    own_words,
)
from .word_names import word_names

# words and the punctuation that ends a clause, as ``people`` tokenises a message
_TOKEN = re.compile(r"[\w'\u2019-]+(?:&[\w'\u2019-]+)*|[?.!;:,]")  # "u&e" one word
_NAME_ONLY_PARTICLES = frozenset({"van", "von", "der", "den", "bin", "ibn", "bint", "abu", "ter",
                                  "ten"})


# a short title typed in lower case before a surname no list holds ("what's ms macdonald-ross
# on?", "mr o'brien inr"): "ms" and "mr" are also abbreviations (multiple sclerosis, mitral
# regurgitation), so only before a word that is no word of the four languages or vocabulary
_LOWER_TITLED = re.compile(r"(?<![\w'\u2019])(?:mr|mrs|ms|miss|mx)\.?\s+"
                           r"([a-z][a-z'\u2019\-]{2,})(?![\w])")


def lower_titled_people(text: str,
                        drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The surnames after a lower-case title: joined by a hyphen or an apostrophe, or no word
    of the four languages; never a clinical word, its typo or a drug."""
    drugs = {normalise(w) for w in drug_words}
    out = []
    for m in _LOWER_TITLED.finditer(text or ""):
        name = re.sub(r"['\u2019]s$", "", m.group(1))
        parts = [p for p in re.split(r"[-'\u2019]", name) if len(p) > 2]
        if not parts or any(near_vocabulary(p) and not is_word(p) or normalise(p) in drugs
                            or normalise(p) in not_name_words() for p in parts):
            continue  # a clinical word or its typo, a drug
        # joined ("macdonald-ross", "o'brien"), or no word of the four languages ("mensah")
        if len(parts) > 1 or name != parts[0] or not is_word(name):
            out.append(name)
    return out


# a name typed in lower case with a surname's particle between its words ("hba1c de mohammed bin
# salman", "jan van der berg inr"): only the particles that join names alone ("bin", "van"), the
# words beside them no vocabulary word or drug, one at most in a word list; "de", "do" join
# words as often ("ambulatorio de anticoagulacao", "dor de cabeca")
_PARTICLED = re.compile(r"(?<![\w'\u2019-])([a-z][a-z'\-]{2,})((?:\s+(?:van|von|der|den|bin|ibn|"
                        r"bint|abu|dos|das|del|della|de|da|do|du|la|le|al|el|ter|ten)){1,2})"
                        r"\s+([a-z][a-z'\-]{2,})(?![\w])")


def particled_lower_people(text: str,
                           drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A lower-case name joined by a surname's particle, its outer words in no list."""
    drugs = {normalise(w) for w in drug_words}

    def clinical(word: str) -> bool:
        return (near_vocabulary(word) and not is_word(word)) or normalise(word) in drugs or (
            normalise(word) in not_name_words())

    out = []
    for m in _PARTICLED.finditer(fold_accents(text or "")):
        outer = (m.group(1), m.group(3))
        if any(clinical(w) for w in outer):
            continue
        # "bin", "van der" join names only (one word beside them may be in a list: "mohammed")
        strong = set(m.group(2).split()) & _NAME_ONLY_PARTICLES
        words = sum(is_word(w) for w in outer)
        if strong and words < 2:  # "de", "do" alone join words as often as names
            out.append(" ".join(m.group(0).split()))
    return out


@lru_cache(maxsize=1)
def short_given_names() -> frozenset[str]:
    """Given names and their short forms (``people.yaml`` ``short_names``: "samuel", "sam"),
    three letters or more."""
    names = people_data()["short_names"]
    return frozenset(fold_accents(str(w)).lower() for k, forms in names.items()
                     for w in (k, *forms) if len(str(w)) > 2)


@lru_cache(maxsize=1)
def _affixes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    said = people_data()
    return (tuple(str(w) for w in said["clinical_prefixes"]),
            tuple(str(w) for w in said["clinical_suffixes"]))


def clinical_word(word: str) -> bool:
    """A word built of a clinical prefix or suffix ("preop", "arthroplasty")."""
    prefixes, suffixes = _affixes()
    return word.startswith(prefixes) or word.endswith(suffixes)


def lower_ordered_for(text: str,
                      drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A name typed in small letters ending a chart question, a ward order or a drug's order
    after the word of whom it is for ("check k for samuel", "fbc tmrw for okafor pls"): a given
    name (``short_names``) or a word of five letters or more that no list holds; never a word
    of the four languages ("for review", "for theatre", "for grace period"), a unit's initials
    ("for icu", "for hdu") or a drug."""
    drugs = {normalise(w) for w in drug_words}
    tokens = _TOKEN.findall(text or "")
    out = []
    for n, word in enumerate(tokens[1:], 1):
        if not re.fullmatch(r"[a-z][a-z'\-]{2,}", word):
            continue
        key = fold_accents(word).lower()
        named = key in short_given_names() or (len(key) >= 5 and not is_word(key)
                                           and not near_vocabulary(key) and not clinical_word(key))
        if not named or normalise(key) in drugs or normalise(key) in not_name_words():
            continue
        # ... its order's time after it ("hba1c for emeka tomorrow", "fbc for okafor at 6am")
        rest = " ".join(tokens[n + 1:])
        timed = bool(rest) and len(tokens) - n - 1 <= 4 and when.starts(rest) == 0
        if ordered_for(tokens[:n + 1] if timed else tokens, n, drug_words):
            out.append(word)
    return out


_LOWER_WORD = re.compile(r"[a-z][a-z'\u2019\-]{2,}")


def ordered_for_lower(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A word in lower case an order or a chart question is for, closing it ("check inr for grace
    tomorrow", "paracetamol 1g for kwame pls", "potasio para samuel por favor"): a person when it
    is a given name that is also a word (``data/word_names.yaml``) or no vocabulary, drug,
    abbreviation or time knows it and no language uses it often. The patient's own first name
    is hers (matched later); a name misread asks who is meant, never answers another chart."""
    drugs = {normalise(w) for w in drug_words}
    tokens = _TOKEN.findall(text or "")
    said = {normalise(str(w)) for w in people_data()["ordered_for"]}
    out = []
    for n, word in enumerate(tokens[1:], 1):
        low = fold_accents(word)
        if (normalise(tokens[n - 1]) in said and _LOWER_WORD.fullmatch(word)
                and _lower_name(low, drugs) and ordered_for(tokens, n, drug_words)):
            out.append(low)
    return out


def _lower_name(word: str, drugs: set[str]) -> bool:
    """``word`` (lower case, unaccented) reads as a given name where an order's person stands:
    a given name of the lists (``data/word_names.yaml``, the census names of the ``names``
    package) no clinical word, or no word of the four languages at all ("kwame", "fatou")."""
    reasons = {str(w) for w in people_data()["order_reasons"]}
    if (normalise(word) in not_name_words() or normalise(word) in drugs or word in reasons
            or word in abbreviations() or when.starts(word) == 0 or clinical_word(word)):
        return False  # "for af", "for tomorrow", "morphine for comfort"
    if word in word_names():
        return True
    if word in given_names():  # "mark", "will": words first; "ward", "max": the ward's words
        return word not in ward_name_words() and frequency(word) < NAME_AS_WORD
    return len(word) >= 4 and not (is_word(word) or word in own_words()
                                   or near_vocabulary(word))


@lru_cache(maxsize=1)
def ward_name_words() -> frozenset[str]:
    """Census given names the ward uses as words ("ward", "bay", "max"): the places and the
    words of doses and follow-ups, never a name where a patient stands."""
    said = people_data()
    return frozenset(fold_accents(str(w)).lower() for key in ("beds", "given_names_as_words")
                     for w in said[key])


# a census given name the lists use this often is a word first ("will", "mark", "may")
NAME_AS_WORD = 50_000


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """The given names of the US census lists shipped with the ``names`` package (5,494), lower
    case: names the word lists also hold ("samuel" 736, "robert" 1,305 in the English counts)."""
    root = resources.files("names")
    return frozenset(line.split()[0].lower() for part in ("dist.female.first", "dist.male.first")
                     for line in (root / part).read_text(encoding="utf-8").splitlines()
                     if line.strip())


# the one an order is given to, as its verb's object ("refer samuel to diabetes clinic", "start
# Samuel on metformin 500 bd", "give kwame paracetamol 1g", "encaminha o José para a cardio"):
# the word right after the verb, before what links it to the order
_ORDER_OBJECT = re.compile(
    r"(?<![\w'\u2019])(?:(?P<verb>refer|send|start|put|book|admit|transfer|discharge|commence|"
    r"take|wean|"
    r"begin|switch|move|get|chart|weigh|bleed|swab|cannulate|catheterise|catheterize|adresser|"
    r"adresse|adressez|referer|encaminha|encaminhar|encaminhe|manda|mandar|mande|deriva|derivar|"
    r"derive|inicia|iniciar|inicie|comeca|comecar|comece|empieza|empezar|pon|poner)|"
    # a drug given to someone, then the drug ("give kwame paracetamol 1g", "donne à Awa …")
    r"(?P<gives>give|prescribe|donne|donner|dar|da|de|dale|dele))"
    r"\s+(?:(?:o|a|al|le|la|el|seu|dona|don|dr|mr|mrs|ms|miss)\.?\s+)?"
    r"(?P<name>[A-Za-z][a-z'\u2019\-]{2,})\s+"
    r"(?P<next>to|on|off|for|back|with|up|into|onto|some|an?|the|para|pra|pro|au|aux|al|em|en|no|na|"
    r"sur|sous|com|con|\d|[a-z]{3,})(?![a-z])")


_LINKS = frozenset({"to", "on", "off", "for", "back", "with", "up", "into", "onto", "some", "a",
                    "an", "the", "para", "pra", "pro", "au", "aux", "al", "em", "en", "no", "na",
                    "sur", "sous", "com", "con"})


def order_object_people(text: str,
                        drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The one an order is given to, named as its verb's object in any case ("refer samuel to
    diabetes clinic", "start Samuel on metformin"): a given name or a word no list or vocabulary
    holds (never "start metformin on", "send bloods to", "refer him to", "give paracetamol for");
    hers is hers (matched later), anyone else is refused before anything is drafted."""
    drugs = {normalise(w) for w in drug_words}
    out = []
    for m in _ORDER_OBJECT.finditer(fold_accents(text or "")):
        word, after = m.group("name"), m.group("next").lower()
        # after a verb of ordering, only a word linking it to the order ("to", "on", "for");
        # after "give", the drug given too ("give kwame paracetamol")
        # ("can we give Zentrolax to him", "give Feverall for the temp": the thing given)
        linked = (normalise(after) in drugs if m.group("gives") is not None
                  else after in _LINKS or after[0].isdigit())
        if linked and _lower_name(word.lower(), drugs):
            out.append(word)
    return out


# a given name where a patient stands in ward English, in either case: opening the message before
# a verb, a colon or a dash ("tom needs his inr checked", "grace needs amoxicillin 500 tds", "tom:
# fbc, u&e tmrw", "re: tom - fbc"), after the verb that opens a question ("can tom have
# ibuprofen", "does tom have any allergies", "is mary on warfarin"), or as an owner ("is tom's
# inr in range?", "tom's bp is 180/100")
_NAME = r"(?P<name>[A-Za-z][a-z]{1,})"
_PLACED = (
    re.compile(rf"^\W*(?:re\s*:\s*)?{_NAME}(?:\s*[:\-\u2013]\s|\s+(?:needs?|is|has|was|had|takes?|"
               r"wants?|got|gets?|should|will|can|could|did|does|came|went|needed|requires?)\b)"),
    re.compile(rf"^\W*(?:does|can|could|should|did|is|has|was|may)\s+{_NAME}\s+(?:have|take|get|"
               r"be|need|use|go|start|had|got|on|taking|allergic|still)\b"),
    re.compile(rf"(?<![\w'\u2019]){_NAME}['\u2019]s\s+(?=[a-z0-9])"),
    # ... in French, Portuguese and Spanish ("maria precisa de um INR", "o joão tem alergia?",
    # "juan necesita amoxicilina", "pierre a besoin d'une NFS", "¿ana puede tomar …?",
    # "est-ce que marie peut prendre …", "ana: hemograma mañana")
    re.compile(rf"^\W*(?:(?:o|a|le|la|el|dona|don|seu|sr|sra|mme|m)\.?\s+)?{_NAME}\s+(?:precisa|"
               r"necessita|necesita|a besoin|tem|tiene|esta|est|toma|tomou|prend|pode|puede|peut|"
               r"vai|va|deve|debe|doit|usa|fait|faz|hace|ha|teve|tuvo)\b"),
    re.compile(rf"^\W*(?:est-ce que|est ce que)\s+{_NAME}\s+(?:peut|a|est|prend|doit|fait)\b"),
)
# the owner of a result asked last ("le INR de paul ?", "o INR do zé?", "el INR de pepe"), only
# after a result of the chart ("dolor de muñeca" names a wrist)
_OWNER_LAST = re.compile(rf"(?<![\w'])(?:de|do|da|del|du)\s+(?:(?:o|a|la|le|el)\s+)?{_NAME}"
                         r"\s*[?.!]*\s*$")


def placed_people(text: str, drug_words: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """A given name (either case) where a patient stands: a person when it is a given name of
    the lists or no word of them ("tom", "mary", "grace"; never "today's", "patient's", "will",
    "mark", "june"); hers is hers (matched later), anyone else refused before anything is read
    or drafted."""
    from ..tools.chart.answers import focus_of  # the chart's questions stand above this reader

    drugs = {normalise(w) for w in drug_words}
    out = []
    folded = fold_accents(text or "")
    owner = _OWNER_LAST.search(folded)
    owned = [owner] if owner and focus_of(folded[:owner.start()]) else []
    for pattern in _PLACED:
        for m in [*pattern.finditer(folded), *(owned if pattern is _PLACED[0] else [])]:
            word = m.group("name")
            if word.lower() in not_placed() or _SAINT.search(folded[:m.start("name")]):
                continue  # "St John's wort": a drug named after a saint
            # "ana: hemograma mañana": a given name typed small is the name, though a test's
            # letters in capitals spell it too (ANA)
            typed_small = word.islower() and word in given_names() and (
                word not in ward_name_words() and frequency(word) < NAME_AS_WORD)
            if typed_small or _lower_name(word.lower(), drugs):
                out.append(word)
    return list(dict.fromkeys(out))


_SAINT = re.compile(r"(?i)(?<![\w])(?:st|saint|san|sao|santa|santo|ste|sainte)\.?\s+$")
# the words that open a message where a name would, and are none ("this is", "she needs")
_NOT_PLACED = frozenset({"this", "that", "she", "her", "his", "him", "they", "the", "what",
                         "who", "how", "pts", "patient", "pt", "baby", "mum", "dad", "dona",
                         "don", "seu", "kota", "miudo", "miuda", "puto", "chavalo", "chaval",
                         "gamin", "gosse", "petit", "petite"})


@lru_cache(maxsize=1)
def not_placed() -> frozenset[str]:
    """No name where a patient stands: the words above, and the people's words ("el nene tiene
    fiebre", "o miúdo tem febre", "la abuelita puede tomar …", "la doña está preñada")."""
    said = people_data()
    words = {fold_accents(str(w)).lower() for key in ("children", "relatives", "named_persons",
                                                      "bed_persons", "staff_patients")
             for w in said[key]}
    return frozenset(_NOT_PLACED | words)
