"""Searches knowledge bases and turns hits into citable passages with a 0–1 score.

``search_knowledge`` ranks as the search index does (hybrid: reciprocal-rank fusion of BM25
and cosine). What an agent reads (``read_passages``) is the lexical top ``READ_LEXICAL``
and the dense top ``READ_DENSE`` ordered by each passage's best sentence for the query
(``vigia.llm.reading``, the scores the embedded answerer picks sentences by): the passage
that holds the answering sentence comes first even when the whole chunk matched less well.
The ``score`` shown on citations is a relevance the user can read: the mean of the cosine
similarity (clipped to 0–1) and the share of the query's terms the passage contains (when
the query is in another language than the passage, ``vigia.llm.crossing``, that share is
at least half the cosine: few words can be shared).
``at`` says whose knowledge is searched: a published version's moment, or the draft's
(None; ``vigia.knowledge.versions``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.knowledge.embedding import embedder_for
from vigia.knowledge.models import KnowledgeBase, KnowledgeChunk, KnowledgeDocument
from vigia.knowledge.versions import collections_at
from vigia.llm.crossing import crosses
from vigia.llm.protocol import Passage
from vigia.llm.reading import by_best_sentence
from vigia.search import Hit, index_for
from vigia.search.protocol import Mode
from vigia.search.text import query_terms, terms

MAX_QUERY_CHARS = 4000
# What an agent reads is drawn from the lexical top READ_LEXICAL and the dense top
# READ_DENSE (14–20 passages): on SQuAD-es dev such a pool holds the answer for ~0.97 of the
# questions, the hybrid top 10 for 0.92; 12 + 8 read recall@5 0.943 (8 + 5: 0.938) and
# FaQuAD 0.968 (0.937), warm ~3 ms more per question (docs/knowledge.md "What an agent reads").
READ_LEXICAL = 12
READ_DENSE = 8
# Across languages the term share counts at least this share of the cosine. Portuguese FaQuAD
# questions asked of the Spanish SQuAD-es base (they should be refused) were refused 0.651
# before, 0.619 at 0.5, 0.476 at 1; the demo's English and Portuguese questions are answered
# as well at 0.5 as at 1, at 0.25 English loses the budget question (docs/knowledge.md
# "Questions in another language").
CROSSED_SHARE = 0.5


def relevance(query: str, passage_text: str, similarity: float) -> float:
    """The 0–1 score of a passage for a query. A query in another language than the
    passage shares few words with it by nature: there the share of its terms counts at
    least ``CROSSED_SHARE`` of the cosine (shared names and commands still count, missing
    words no longer halve the score)."""
    dense = min(max(similarity, 0.0), 1.0)
    wanted = set(query_terms(query))
    coverage = len(wanted & set(terms(passage_text))) / len(wanted) if wanted else 0.0
    if crosses(query, passage_text):
        coverage = max(coverage, CROSSED_SHARE * dense)
    return round(0.5 * dense + 0.5 * coverage, 4)


def _hits(
    session: Session,
    kbs: Sequence[KnowledgeBase],
    query: str,
    wanted: Sequence[tuple[Mode, int]],
    embed: bool,
    at: datetime | None,
) -> list[Hit]:
    """For each ``(mode, limit)`` in turn, the best ``limit`` hits of ``kbs`` as read at
    ``at``; each entry once (where first found). The query is embedded once per embedder,
    if ``embed``."""
    by_embedder: dict[str, list[str]] = defaultdict(list)
    live = collections_at(session, kbs, at)
    for kb in kbs:
        if live.get(kb.id):
            by_embedder[kb.embedder] += live[kb.id]
    index = index_for(session)
    vectors = {
        name: embedder_for(name).queries([query])[0] if embed else None for name in by_embedder
    }
    found: dict[str, Hit] = {}
    for mode, limit in wanted:
        hits: list[Hit] = []
        for name, collections in sorted(by_embedder.items()):
            hits += index.search(session, collections, query, vectors[name], limit, mode)
        hits.sort(key=lambda h: (-h.score, -h.similarity, h.key))
        for hit in hits[:limit]:
            found.setdefault(hit.key, hit)
    return list(found.values())


def _passages(session: Session, query: str, hits: list[Hit]) -> list[Passage]:
    """The chunks of ``hits`` as passages, in the order of ``hits``."""
    if not hits:
        return []
    rows = session.execute(
        select(KnowledgeChunk, KnowledgeDocument)
        .join(KnowledgeDocument, KnowledgeDocument.id == KnowledgeChunk.document_id)
        .where(KnowledgeChunk.id.in_([h.key for h in hits]))
    ).all()
    found = {chunk.id: (chunk, doc) for chunk, doc in rows}
    passages = []
    for hit in hits:
        if hit.key not in found:
            continue
        chunk, doc = found[hit.key]
        indexed = f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text
        passages.append(
            Passage(
                text=chunk.text,
                document_id=doc.id,
                document=doc.name,
                score=relevance(query, indexed, hit.similarity),
                url=doc.url,
                page=chunk.page,
                heading=chunk.heading,
                chunk_id=chunk.id,
            )
        )
    return passages


def search_knowledge(
    session: Session,
    kbs: Sequence[KnowledgeBase],
    query: str,
    limit: int = 5,
    mode: Mode = "hybrid",
    at: datetime | None = None,
) -> list[Passage]:
    """The best ``limit`` passages of ``kbs`` for ``query``, best first."""
    query = query[:MAX_QUERY_CHARS]
    if not kbs or not query.strip():
        return []
    hits = _hits(session, kbs, query, [(mode, limit)], embed=mode != "lexical", at=at)
    return _passages(session, query, hits)


def reading_pool(
    session: Session,
    kbs: Sequence[KnowledgeBase],
    query: str,
    lexical: int = READ_LEXICAL,
    dense: int = READ_DENSE,
    at: datetime | None = None,
) -> list[Passage]:
    """The passages an agent's reading is drawn from: the lexical top ``lexical``, then the
    dense top ``dense`` not among them, each in its index's order."""
    query = query[:MAX_QUERY_CHARS]
    if not kbs or not query.strip():
        return []
    wanted: list[tuple[Mode, int]] = [("lexical", lexical), ("dense", dense)]
    return _passages(session, query, _hits(session, kbs, query, wanted, embed=True, at=at))


def read_passages(
    session: Session,
    kbs: Sequence[KnowledgeBase],
    query: str,
    limit: int = 5,
    at: datetime | None = None,
) -> list[Passage]:
    """The ``limit`` passages an agent reads: the reading pool (at least ``limit`` from each
    side) ordered by their best sentence for ``query``."""
    lexical, dense = max(limit, READ_LEXICAL), max(limit, READ_DENSE)
    pool = reading_pool(session, kbs, query, lexical, dense, at)
    return by_best_sentence(query[:MAX_QUERY_CHARS], pool)[:limit]


def search_workspace(
    session: Session,
    workspace_id: str,
    kb_ids: Sequence[str],
    query: str,
    limit: int = 5,
    at: datetime | None = None,
) -> list[Passage]:
    """``read_passages`` of the listed knowledge bases that belong to ``workspace_id``, as
    read at ``at`` (a published version's moment; None: the draft)."""
    ids = list(dict.fromkeys(kb_ids))
    kbs = list(
        session.scalars(
            select(KnowledgeBase)
            .where(KnowledgeBase.id.in_(ids), KnowledgeBase.workspace_id == workspace_id)
            .order_by(KnowledgeBase.id)
        )
    )
    return read_passages(session, kbs, query, limit, at)
