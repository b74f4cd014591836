"""What the lexical index stores and matches: folded, stemmed content words (es/pt/en).

Words are folded (case and accents: ``Cláusula`` → ``clausula``), stopwords dropped, and
reduced by the light stemmer of ``vigia.language`` (plural endings, then an infinitive
ending or a final gender vowel), then cut to ``STEM_CHARS`` characters. "coberturas",
"cobertura", "denunciar", "denuncia" and "denuncie" thus meet on the same term.
"""

from __future__ import annotations

from vigia.language import content_terms

MAX_QUERY_TERMS = 32
STEM_CHARS = 7


def terms(text: str) -> list[str]:
    """The stemmed content words of ``text``, in order, each cut to ``STEM_CHARS``."""
    return [t[:STEM_CHARS] for t in content_terms(text)]


def index_terms(text: str) -> str:
    """The text as the lexical index stores it."""
    return " ".join(terms(text))


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order, at most ``MAX_QUERY_TERMS``."""
    return list(dict.fromkeys(terms(text)))[:MAX_QUERY_TERMS]
