"""Searches knowledge bases and turns hits into citable passages with a 0–1 score.

The ranking is the search index's (hybrid: reciprocal-rank fusion of BM25 and cosine). The
``score`` shown on citations is a relevance the user can read: the mean of the cosine
similarity (clipped to 0–1) and the share of the query's terms the passage contains.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.knowledge.embedding import embedder_for
from vigia.knowledge.models import KnowledgeBase, KnowledgeChunk, KnowledgeDocument
from vigia.knowledge.service import collection_of
from vigia.llm.protocol import Passage
from vigia.search import Hit, index_for
from vigia.search.protocol import Mode
from vigia.search.text import query_terms, terms

MAX_QUERY_CHARS = 4000


def relevance(query: str, passage_text: str, similarity: float) -> float:
    """The 0–1 score of a passage for a query."""
    wanted = set(query_terms(query))
    coverage = len(wanted & set(terms(passage_text))) / len(wanted) if wanted else 0.0
    return round(0.5 * min(max(similarity, 0.0), 1.0) + 0.5 * coverage, 4)


def search_knowledge(
    session: Session,
    kbs: Sequence[KnowledgeBase],
    query: str,
    limit: int = 5,
    mode: Mode = "hybrid",
) -> list[Passage]:
    """The best ``limit`` passages of ``kbs`` for ``query``, best first."""
    query = query[:MAX_QUERY_CHARS]
    if not kbs or not query.strip():
        return []
    by_embedder: dict[str, list[str]] = defaultdict(list)
    for kb in kbs:
        by_embedder[kb.embedder].append(collection_of(kb.id))
    index = index_for(session)
    hits: list[Hit] = []
    for name, collections in sorted(by_embedder.items()):
        vector = embedder_for(name).queries([query])[0] if mode != "lexical" else None
        hits += index.search(session, collections, query, vector, limit, mode)
    hits.sort(key=lambda h: (-h.score, -h.similarity, h.key))
    hits = hits[:limit]
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


def search_workspace(
    session: Session, workspace_id: str, kb_ids: Sequence[str], query: str, limit: int = 5
) -> list[Passage]:
    """``search_knowledge`` over the listed knowledge bases that belong to ``workspace_id``."""
    ids = list(dict.fromkeys(kb_ids))
    kbs = list(
        session.scalars(
            select(KnowledgeBase)
            .where(KnowledgeBase.id.in_(ids), KnowledgeBase.workspace_id == workspace_id)
            .order_by(KnowledgeBase.id)
        )
    )
    return search_knowledge(session, kbs, query, limit)
