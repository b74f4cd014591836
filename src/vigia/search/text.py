"""What the lexical index stores and matches: folded, stemmed content words (es/pt/en)."""

from __future__ import annotations

from vigia.language import content_terms

MAX_QUERY_TERMS = 32


def index_terms(text: str) -> str:
    """The text as the lexical index stores it: accents and case folded, stopwords dropped."""
    return " ".join(content_terms(text))


def query_terms(text: str) -> list[str]:
    """The distinct normalised terms of a query, in order, at most ``MAX_QUERY_TERMS``."""
    return list(dict.fromkeys(content_terms(text)))[:MAX_QUERY_TERMS]
