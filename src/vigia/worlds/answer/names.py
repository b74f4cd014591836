"""The names a question uses: candidate identifiers for the code graph, and which of them
are written the way code names are (``LGAPOL01``, ``WS-TAX-RATE``, ``CUSTOMER_SECURE``,
``MOTOR``, ``db2bind.jcl``) rather than as ordinary words."""

from __future__ import annotations

import re

from vigia.language import STOPWORDS, fold, word_set

# Words of a question about code that name no symbol (en/es/pt).
QUESTION_WORDS = word_set(
    """
    explain tell show find list give yes via wrong value values returns return returned change
    changes changed happen happens happened issue problem error bug program programs paragraph
    paragraphs file files field fields table tables job step code copybook which where
    programa programas fichero archivo arquivo campo tabla tabela paso codigo cual cuales
    donde onde qual quais que quem
    """
)
# Words naming the kinds of things code has: in a question they ask for one ("which
# program…"), they do not describe it, and as search words they match every paragraph.
KIND_WORDS = word_set(
    """
    program programs programa programas paragraph paragraphs parrafo parrafos paragrafo
    paragrafos routine routines rutina rutinas rotina rotinas section seccion secao module
    modulo code codigo job jobs step steps paso passo
    """
)
_WORD = re.compile(r"\w+")
_TERM = re.compile(r"[^\W_#@$][\w#@$.-]*[^\W_.-]|[^\W_]")
_FILE_NAME = re.compile(r"^[A-Za-z0-9_#@$-]+\.[A-Za-z][A-Za-z0-9]{0,7}$")


def query_terms(text: str, limit: int = 24) -> list[str]:
    """Distinct candidate names of a question, upper-cased, stopwords dropped, names whole
    (``db2bind.jcl`` also gives ``DB2BIND``)."""
    out: list[str] = []
    for match in _TERM.finditer(text):
        raw = match.group(0).strip(".-_")
        term = raw.upper()
        if len(term) < 2 or fold(raw) in STOPWORDS or fold(raw) in QUESTION_WORDS:
            continue
        for candidate in (term, term.split(".", 1)[0] if "." in term else ""):
            if candidate and candidate not in out:
                out.append(candidate)
    return out[:limit]


def code_like(text: str) -> set[str]:
    """The upper-cased terms of ``text`` written like code names: letters with a digit or
    ``_``, a file extension, or all in capitals (two letters or more, ``-`` allowed)."""
    found: set[str] = set()
    for match in _TERM.finditer(text):
        raw = match.group(0).strip(".-_")
        if len(raw) < 2 or fold(raw) in STOPWORDS:
            continue
        marked = any(c.isdigit() or c in "_#@$" for c in raw) and any(c.isalpha() for c in raw)
        if marked or (raw.isupper() and sum(c.isalpha() for c in raw) >= 2):
            found.add(raw.upper())
        if _FILE_NAME.match(raw):
            found.update({raw.upper(), raw.split(".", 1)[0].upper()})
    return found


def term_weight(term: str) -> int:
    """A hyphenated name (``WS-TAX-RATE``) says more than a plain word."""
    return 2 if "-" in term else 1


def line_score(line: str, terms: list[str]) -> int:
    """How much of the (upper-case) query ``terms`` one line holds."""
    upper = line.upper()
    return sum(term_weight(term) for term in terms if term in upper)


def lexical_query(text: str) -> str:
    """``text`` without the words naming kinds of code (``program``, ``párrafo``…)."""
    return _WORD.sub(lambda m: " " if fold(m.group(0)) in KIND_WORDS else m.group(0), text)
