"""What the lexical index stores and matches: analyzers that turn text into terms.

``PROSE`` (the default, es/pt/en): words are folded (case and accents: ``Cláusula`` →
``clausula``), stopwords dropped, and reduced by the light stemmer of ``vigia.language``
(plural endings, then an infinitive ending or a final gender vowel), then cut to
``STEM_CHARS`` characters. "coberturas", "cobertura", "denunciar", "denuncia" and "denuncie"
thus meet on the same term.

``CODE`` (source code, e.g. COBOL): a compound identifier joined by ``-`` or ``_`` stays
whole as one term (``1300-COMPUTE-INTEREST`` → ``1300computeinterest``, plus
``computeinterest`` without its leading number) and also gives its parts as prose terms
(``comput``, ``interest``), so the exact name ranks first and its words still match. Words
holding a digit (``LGAPDB01``, ``DB2``) are never stemmed or cut: ``LGAPDB01`` and
``LGAPDB02`` stay apart. Terms are plain lower-case letters and digits on both sides, so
SQLite's FTS5 ``unicode61`` and PostgreSQL's ``simple`` configuration keep them as they are.

An analyzer is chosen by the caller per collection, at writing and at searching alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from vigia.language import STOPWORDS, content_terms, fold, stem

MAX_QUERY_TERMS = 32
STEM_CHARS = 7
_CODE_WORD = re.compile(r"[^\W_]+(?:[-_][^\W_]+)*")
_JOINERS = re.compile(r"[-_]+")


def terms(text: str) -> list[str]:
    """The stemmed content words of ``text``, in order, each cut to ``STEM_CHARS``."""
    return [t[:STEM_CHARS] for t in content_terms(text)]


@lru_cache(maxsize=131072)
def _part(word: str) -> str | None:
    if len(word) < 2 or word in STOPWORDS:
        return None
    if any(ch.isdigit() for ch in word):
        return word
    if word.endswith("ies") and len(word) > 4:  # English plurals: policies → policy
        word = word[:-3] + "y"
    return stem(word)[:STEM_CHARS]


def code_terms(text: str) -> list[str]:
    """Terms of source code: whole compound identifiers, then their parts, in order."""
    out: list[str] = []
    for match in _CODE_WORD.finditer(fold(text)):
        parts = [p for p in _JOINERS.split(match.group(0)) if p]
        if len(parts) > 1:
            out.append("".join(parts))
            if parts[0].isdigit() and len(parts) > 2:
                out.append("".join(parts[1:]))
        out.extend(term for term in map(_part, parts) if term)
    return out


@dataclass(frozen=True)
class Analyzer:
    """How a collection's texts and queries become terms."""

    name: str
    split: Callable[[str], list[str]]

    def index_terms(self, text: str) -> str:
        """The text as the lexical index stores it."""
        return " ".join(self.split(text))

    def query_terms(self, text: str) -> list[str]:
        """The distinct terms of a query, in order, at most ``MAX_QUERY_TERMS``."""
        return list(dict.fromkeys(self.split(text)))[:MAX_QUERY_TERMS]


PROSE = Analyzer("prose", terms)
CODE = Analyzer("code", code_terms)


def index_terms(text: str) -> str:
    """The text as the lexical index stores it (prose)."""
    return PROSE.index_terms(text)


def query_terms(text: str) -> list[str]:
    """The distinct prose terms of a query, in order, at most ``MAX_QUERY_TERMS``."""
    return PROSE.query_terms(text)
