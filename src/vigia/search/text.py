"""What the lexical index stores and matches: folded, stemmed content words (es/pt/en).

Words are folded (case and accents: ``Cláusula`` → ``clausula``), stopwords dropped, and
reduced by a light stemmer for Spanish and Portuguese: plural endings, then an infinitive
ending or a final gender vowel, then cut to ``STEM_CHARS`` characters. "coberturas",
"cobertura", "denunciar", "denuncia" and "denuncie" thus meet on the same term.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from vigia.language import STOPWORDS

MAX_QUERY_TERMS = 32
STEM_CHARS = 7
_VOWELS = frozenset("aeiou")
_MARKS = re.compile(r"[\u0300-\u036f]")
_WORD = re.compile(r"[^\W_]+")


def folded_words(text: str) -> list[str]:
    """Lower-cased words without accents (``Cláusula`` → ``clausula``), fast on long texts."""
    return _WORD.findall(_MARKS.sub("", unicodedata.normalize("NFKD", text.casefold())))


@lru_cache(maxsize=131072)
def light_stem(word: str) -> str:
    """The stem the index keeps for one folded word."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ces") and len(word) > 5:
        word = word[:-3] + "z"
    elif word.endswith("es") and len(word) > 5 and word[-3] not in _VOWELS:
        word = word[:-2]
    elif word.endswith("s") and len(word) > 4:
        word = word[:-1]
    if word.endswith(("ar", "er", "ir")) and len(word) >= 6:
        word = word[:-2]
    elif word[-1] in "aoe" and len(word) > 4:
        word = word[:-1]
    return word[:STEM_CHARS]


def terms(text: str) -> list[str]:
    """The stemmed content words of ``text``, in order."""
    return [light_stem(w) for w in folded_words(text) if w not in STOPWORDS and len(w) > 1]


def index_terms(text: str) -> str:
    """The text as the lexical index stores it."""
    return " ".join(terms(text))


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order, at most ``MAX_QUERY_TERMS``."""
    return list(dict.fromkeys(terms(text)))[:MAX_QUERY_TERMS]
