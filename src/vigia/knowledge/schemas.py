"""Wire shapes of the knowledge admin API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from vigia.fields import Integer
from vigia.knowledge.models import KnowledgeBase, KnowledgeChunk, KnowledgeDocument
from vigia.llm.protocol import Passage


class KnowledgeBaseCreate(BaseModel):
    name: str = Field(min_length=1, max_length=120)
    description: str = Field(default="", max_length=2000)
    embedder: Literal["use", "e5"] = Field(
        default="use",
        description="Embedding model of the base, fixed at creation: 'use' (multilingual "
        "USE v3, ~2 ms per query) or 'e5' (multilingual-e5-small, ~17 ms per query).",
    )


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=4000)
    top_k: Integer = Field(default=5, ge=1, le=50)
    mode: Literal["hybrid", "lexical", "dense"] = "hybrid"


def knowledge_base_view(kb: KnowledgeBase, documents: int, chunks: int) -> dict[str, Any]:
    return {
        "id": kb.id,
        "workspace_id": kb.workspace_id,
        "name": kb.name,
        "description": kb.description,
        "embedder": kb.embedder,
        "documents": documents,
        "chunks": chunks,
        "created_at": kb.created_at.isoformat(),
        "updated_at": kb.updated_at.isoformat(),
    }


def document_view(doc: KnowledgeDocument) -> dict[str, Any]:
    return {
        "id": doc.id,
        "knowledge_base_id": doc.knowledge_base_id,
        "name": doc.name,
        "media_type": doc.media_type,
        "url": doc.url,
        "size_bytes": doc.size_bytes,
        "sha256": doc.sha256,
        "pages": doc.pages,
        "chunks": doc.chunk_count,
        "created_at": doc.created_at.isoformat(),
        "updated_at": doc.updated_at.isoformat(),
    }


def chunk_view(chunk: KnowledgeChunk) -> dict[str, Any]:
    return {
        "id": chunk.id,
        "seq": chunk.seq,
        "page": chunk.page,
        "heading": chunk.heading,
        "text": chunk.text,
    }


def passage_view(n: int, passage: Passage) -> dict[str, Any]:
    """A search result in the shape of the chat surface's citations, plus the chunk id."""
    return {
        "n": n,
        "document_id": passage.document_id,
        "document": passage.document,
        "url": passage.url,
        "page": passage.page,
        "heading": passage.heading,
        "snippet": passage.text,
        "score": passage.score,
        "chunk_id": passage.chunk_id,
    }
