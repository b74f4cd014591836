"""What the lexical index stores and matches: folded, stemmed content words (es/pt/en).

Words are folded (case and accents: ``Cláusula`` → ``clausula``), stopwords dropped, and
reduced by a light stemmer for Spanish and Portuguese: plural endings, then an infinitive
ending or a final gender vowel, then cut to ``STEM_CHARS`` characters. "coberturas",
"cobertura", "denunciar", "denuncia" and "denuncie" thus meet on the same term.
"""

from __future__ import annotations

import re
import unicodedata

from vigia.language import STOPWORDS, stem

MAX_QUERY_TERMS = 32
STEM_CHARS = 7
_VOWELS = frozenset("aeiou")
_MARKS = re.compile(r"[\u0300-\u036f]")
_WORD = re.compile(r"[^\W_]+")


def folded_words(text: str) -> list[str]:
    """Lower-cased words without accents (``Cláusula`` → ``clausula``), fast on long texts."""
    return _WORD.findall(_MARKS.sub("", unicodedata.normalize("NFKD", text.casefold())))


def light_stem(word: str) -> str:
    """The stem the index keeps for one folded word (the shared stem, truncated)."""
    return stem(word)[:STEM_CHARS]


def terms(text: str) -> list[str]:
    """The stemmed content words of ``text``, in order."""
    return [light_stem(w) for w in folded_words(text) if w not in STOPWORDS and len(w) > 1]


def index_terms(text: str) -> str:
    """The text as the lexical index stores it."""
    return " ".join(terms(text))


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order, at most ``MAX_QUERY_TERMS``."""
    return list(dict.fromkeys(terms(text)))[:MAX_QUERY_TERMS]
