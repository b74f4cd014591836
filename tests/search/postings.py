"""Helpers of the PostgreSQL postings tests: the postings by name, and what they should be."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import text
from sqlalchemy.orm import Session

from vigia.search.protocol import Entry
from vigia.search.text import PROSE, Analyzer

Posting = tuple[str, str, str, int, int]  # term, collection, entry key, tf, size


def postings(session: Session) -> set[Posting]:
    """Every posting, named by term, collection and entry key instead of ids."""
    rows = session.execute(
        text(
            "SELECT v.term, v.collection, e.key, p.tf, p.size FROM search_postings AS p"
            " JOIN search_vocabulary AS v ON v.id = p.term_id"
            " JOIN search_entries AS e ON e.id = p.entry_id"
        )
    )
    return {(r[0], r[1], r[2], int(r[3]), int(r[4])) for r in rows}


def expected(entries: dict[str, list[Entry]], analyzer: Analyzer = PROSE) -> set[Posting]:
    """The postings of ``entries`` (per collection), counted here from the analyzer's terms."""
    out: set[Posting] = set()
    for collection, items in entries.items():
        for entry in items:
            words = analyzer.split(entry.text)
            out |= {
                (term, collection, entry.key, tf, len(words)) for term, tf in Counter(words).items()
            }
    return out


def vocabulary(session: Session) -> dict[tuple[str, str], int]:
    rows = session.execute(text("SELECT term, collection, entries FROM search_vocabulary"))
    return {(r[0], r[1]): int(r[2]) for r in rows}


def recount(session: Session) -> dict[tuple[str, str], int]:
    """How many entries of each collection hold each term, counted from the postings."""
    return dict(Counter((term, collection) for term, collection, *_ in postings(session)))


def term_ids_match_postings(session: Session) -> bool:
    """Each entry's ``term_ids`` are exactly the term ids of its postings."""
    mismatches = session.scalar(
        text(
            "SELECT count(*) FROM search_terms AS s WHERE s.term_ids IS DISTINCT FROM"
            " (SELECT coalesce(array_agg(p.term_id ORDER BY p.term_id), '{}')"
            " FROM search_postings AS p WHERE p.entry_id = s.entry_id)"
        )
    )
    return mismatches == 0


def sizes_add_up(session: Session) -> bool:
    """Each entry's postings count its words: their ``tf`` sum to its ``size`` everywhere."""
    mismatches = session.scalar(
        text(
            "SELECT count(*) FROM search_terms AS s JOIN search_postings AS p"
            " ON p.entry_id = s.entry_id GROUP BY s.entry_id, s.size"
            " HAVING sum(p.tf) <> s.size OR min(p.size) <> s.size OR max(p.size) <> s.size"
        )
    )
    return mismatches is None
