"""Wire shapes of the knowledge admin API."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from vigia.kit.fields import Integer
from vigia.kit.wire_types import Timestamp
from vigia.knowledge.models import KnowledgeBase, KnowledgeDocument
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


class KnowledgeBaseOut(BaseModel):
    """A knowledge base with how many documents and chunks it holds."""

    id: str
    workspace_id: str
    name: str
    description: str
    embedder: str
    documents: int
    chunks: int
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, kb: KnowledgeBase, documents: int, chunks: int) -> KnowledgeBaseOut:
        return cls(
            id=kb.id,
            workspace_id=kb.workspace_id,
            name=kb.name,
            description=kb.description,
            embedder=kb.embedder,
            documents=documents,
            chunks=chunks,
            created_at=kb.created_at,
            updated_at=kb.updated_at,
        )


class KnowledgeBaseList(BaseModel):
    knowledge_bases: list[KnowledgeBaseOut]


class IndexingProgress(BaseModel):
    """How many of the upload's chunks the ingest worker has embedded (``total`` is 0 until
    the file is parsed)."""

    done: int
    total: int


class DocumentError(BaseModel):
    """Why the document's last background upload failed."""

    code: str
    message: str


class DocumentOut(BaseModel):
    """A document of a base; ``chunks`` counts the passages it was cut into. ``status``:
    ``ready``, ``indexing`` (a large upload in the background: ``progress``) or ``failed``
    (``error``); a document replaced in the background keeps its previous chunks meanwhile."""

    id: str
    knowledge_base_id: str
    name: str
    media_type: str
    url: str | None
    size_bytes: int
    sha256: str
    pages: int | None
    chunks: int
    status: Literal["ready", "indexing", "failed"]
    progress: IndexingProgress | None
    error: DocumentError | None
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, doc: KnowledgeDocument, **extra: Any) -> Self:
        """The document's row as shown; ``extra`` fills the fields a subclass adds."""
        return cls(
            id=doc.id,
            knowledge_base_id=doc.knowledge_base_id,
            name=doc.name,
            media_type=doc.media_type,
            url=doc.url,
            size_bytes=doc.size_bytes,
            sha256=doc.sha256,
            pages=doc.pages,
            chunks=doc.chunk_count,
            status=doc.status,
            progress=(
                IndexingProgress(done=doc.progress_done, total=doc.progress_total)
                if doc.status == "indexing"
                else None
            ),
            error=(
                DocumentError(code=doc.error_code or "failed", message=doc.error or "")
                if doc.status == "failed"
                else None
            ),
            created_at=doc.created_at,
            updated_at=doc.updated_at,
            **extra,
        )


class UploadedDocumentOut(DocumentOut):
    """An upload: ``replaced`` is true when it replaced a document of the same name."""

    replaced: bool


class DocumentList(BaseModel):
    documents: list[DocumentOut]


class ChunkOut(BaseModel):
    """A passage of a document: its text, page and heading."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    seq: int
    page: int | None
    heading: str | None
    text: str


class DocumentDetailOut(DocumentOut):
    """A document with its chunks in order."""

    chunk_list: list[ChunkOut]


class CitationOut(BaseModel):
    """A numbered source of an answer (``[n]`` in the text), as the chat surfaces show it."""

    n: int
    document_id: str
    document: str
    url: str | None
    page: int | None
    heading: str | None
    snippet: str
    score: float


class PassageOut(CitationOut):
    """A search result in the shape of the chat surface's citations, plus the chunk id."""

    chunk_id: str | None

    @classmethod
    def of(cls, n: int, passage: Passage) -> PassageOut:
        return cls(
            n=n,
            document_id=passage.document_id,
            document=passage.document,
            url=passage.url,
            page=passage.page,
            heading=passage.heading,
            snippet=passage.text,
            score=passage.score,
            chunk_id=passage.chunk_id,
        )


class PassageList(BaseModel):
    passages: list[PassageOut]


class KnowledgeChangeOut(BaseModel):
    """A document whose knowledge production does not read yet (docs/knowledge.md)."""

    model_config = ConfigDict(from_attributes=True)

    knowledge_base: str
    document: str
    change: Literal["added", "replaced", "removed"]


class KnowledgeChangeList(BaseModel):
    changes: list[KnowledgeChangeOut]
