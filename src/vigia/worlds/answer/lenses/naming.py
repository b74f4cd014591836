"""Paragraphs named after what the question asks: ``220-PROCESS-DELETE-TRAN`` for "which
paragraph handles DELETE transactions", ``310-CALC-AVERAGE`` for "where is the average
computed". COBOL names say what a paragraph does, in words or their abbreviations
(``TRAN``, ``CUST``, ``CALC``); a candidate whose name shares such a word with the
question ranks higher, the more so the fewer paragraphs of the world use the word (every
paragraph of a transaction program has ``TRAN`` in its name, one has ``DELETE``). A
question asking which field holds something gets the data items named after its words
as candidates."""

from __future__ import annotations

import re

from sqlalchemy import select

from vigia.language import STOPWORDS, fold, stem
from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.graph.keys import is_code_block, name_of
from vigia.worlds.models import WorldEntity

NAME_MATCH = 0.01  # a word only one paragraph name has: about a third of a top vote
ABBREVIATION = 4  # a name part this long may abbreviate a word (TRAN, CUST, CALC)
_PART = re.compile(r"[a-z]+")
# Questions that look for where code is (a name says where); "what is the rate" looks for
# content, which names do not hold.
_PARAGRAPH = re.compile(
    r"\b(?:paragraph|section|routine|parrafo|seccion|rutina|paragrafo|secao|rotina)s?\b"
)
_WHERE = re.compile(r"\b(?:where|donde|onde)\b")
_FIELD = re.compile(r"\b(?:field|campo|variable|variavel|variaveis)s?\b")
FIELDS = 3


def _parts(name: str) -> set[str]:
    return {p for p in _PART.findall(name.lower()) if len(p) >= 3}


def _matches(part: str, term: str) -> bool:
    """``part`` of a name says ``term``: the same word or stem, or its abbreviation."""
    if part == term or stem(part) == stem(term):
        return True
    return len(part) >= ABBREVIATION and term.startswith(part)


def _names(lens: LensInput, kinds: list[str]) -> dict[str, list[tuple[str, str, int]]]:
    """Names of the world's entities of ``kinds`` in scope, each with its definitions
    (key, path, line)."""
    rows = lens.session.execute(
        select(WorldEntity.name, WorldEntity.key, WorldEntity.path, WorldEntity.line_start)
        .where(WorldEntity.world_id == lens.world_id, WorldEntity.kind.in_(kinds))
        .order_by(WorldEntity.path, WorldEntity.line_start)
    )
    out: dict[str, list[tuple[str, str, int]]] = {}
    for name, key, path, line in rows:
        if lens.in_scope(path):
            out.setdefault(name, []).append((key, path, line))
    return out


def _terms(lens: LensInput) -> set[str]:
    return {w for w in _PART.findall(fold(lens.words)) if w not in STOPWORDS and len(w) >= 3}


def _weights(names: list[str], terms: set[str]) -> dict[str, float]:
    """Per name, ``NAME_MATCH`` for each term it says, shared among the names saying it."""
    parts = {name: _parts(name) for name in names}
    out: dict[str, float] = {}
    for term in terms:
        saying = [n for n, found in parts.items() if any(_matches(p, term) for p in found)]
        for name in saying:
            out[name] = out.get(name, 0.0) + NAME_MATCH / len(saying)
    return out


def name_bonus(lens: LensInput, keys: list[str]) -> dict[str, float]:
    """The name-match bonus of each paragraph or section key among ``keys`` that has one,
    when the question asks where something is done: for each word of the question a name
    says, ``NAME_MATCH`` shared among the world's paragraph names that say it."""
    paragraphs = [k for k in keys if is_code_block(k)]
    terms = _terms(lens)
    asked = fold(lens.message)
    if not paragraphs or not terms or not (_WHERE.search(asked) or _PARAGRAPH.search(asked)):
        return {}
    weights = _weights(list(_names(lens, ["paragraph", "section"])), terms)
    out: dict[str, float] = {}
    for key in paragraphs:
        bonus = weights.get(name_of(key), 0.0)
        if bonus:
            out[key] = bonus
    return out


def asks_for_field(message: str) -> bool:
    """Whether the question asks which field (data item) holds something ("which
    paragraph validates the field name" asks for a paragraph)."""
    asked = fold(message)
    return bool(_FIELD.search(asked)) and not _PARAGRAPH.search(asked)


def named_fields(lens: LensInput) -> dict[str, float]:
    """When the question asks for a field: the data items whose names say most of its
    words (``ACCT-BALANCE`` for "which field holds the account balance"), at most
    ``FIELDS``, with their bonus; a field defined in a copybook that many programs copy is
    one candidate, not one per program."""
    terms = _terms(lens)
    if not terms or not asks_for_field(lens.message):
        return {}
    names = _names(lens, ["data"])
    weights = _weights(list(names), terms)
    out: dict[str, float] = {}
    places: set[tuple[str, int]] = set()
    for name in sorted(weights, key=lambda n: (-weights[n], n)):
        for key, path, line in names[name]:
            if (path, line) not in places and key not in out:  # a copybook's field, once
                places.add((path, line))
                out[key] = weights[name]
        if len(out) >= FIELDS:
            break
    return out
