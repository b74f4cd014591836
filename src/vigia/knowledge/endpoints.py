"""Admin routes: knowledge bases of a workspace, their documents, and a search to try them.

``{workspace}`` is the workspace's id or name. Every route needs the admin token. An upload
too costly for one request is indexed in the background (202, ``vigia.knowledge.ingest``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Request, Response, UploadFile
from sqlalchemy.orm import Session

from vigia.errors import TooLarge
from vigia.http.deps import Admin, Db
from vigia.knowledge import schemas, service
from vigia.knowledge.ingest_worker import IngestWorker
from vigia.knowledge.models import KnowledgeBase
from vigia.knowledge.retrieval import search_knowledge
from vigia.knowledge.uploads import add_upload
from vigia.workspaces.service import find_workspace

router = APIRouter(prefix="/admin/workspaces/{workspace}/knowledge-bases", tags=["knowledge"])
MULTIPART_OVERHEAD = 64 * 1024


def ingest_worker(request: Request) -> IngestWorker:
    """The app's ingest worker (``app.state.knowledge_ingest``)."""
    worker: IngestWorker = request.app.state.knowledge_ingest
    return worker


Ingest = Annotated[IngestWorker, Depends(ingest_worker)]


def _kb(db: Session, workspace: str, kb_id: str) -> KnowledgeBase:
    return service.get_knowledge_base(db, find_workspace(db, workspace), kb_id)


def _kb_out(db: Session, kb: KnowledgeBase) -> schemas.KnowledgeBaseOut:
    return schemas.KnowledgeBaseOut.of(kb, *service.sizes(db, kb))


def _refuse_oversized(request: Request) -> None:
    """413 before reading the body when the declared size is already too large."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > service.MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD:
        raise TooLarge(
            f"documents may be at most {service.MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB"
        )


@router.post("", status_code=201)
def create_knowledge_base(
    workspace: str, body: schemas.KnowledgeBaseCreate, _: Admin, db: Db
) -> schemas.KnowledgeBaseOut:
    kb = service.create_knowledge_base(
        db, find_workspace(db, workspace), body.name, body.description, body.embedder
    )
    return _kb_out(db, kb)


@router.get("")
def list_knowledge_bases(workspace: str, _: Admin, db: Db) -> schemas.KnowledgeBaseList:
    kbs = service.list_knowledge_bases(db, find_workspace(db, workspace))
    return schemas.KnowledgeBaseList(knowledge_bases=[_kb_out(db, kb) for kb in kbs])


@router.get("/{kb_id}")
def get_knowledge_base(workspace: str, kb_id: str, _: Admin, db: Db) -> schemas.KnowledgeBaseOut:
    return _kb_out(db, _kb(db, workspace, kb_id))


@router.delete("/{kb_id}", status_code=204)
def delete_knowledge_base(workspace: str, kb_id: str, _: Admin, db: Db) -> Response:
    service.delete_knowledge_base(db, _kb(db, workspace, kb_id))
    return Response(status_code=204)


@router.post(
    "/{kb_id}/documents",
    status_code=201,
    dependencies=[Depends(_refuse_oversized)],
    responses={
        200: {"model": schemas.UploadedDocumentOut, "description": "Replaced"},
        202: {
            "model": schemas.UploadedDocumentOut,
            "description": "Too costly for one request: indexing in the background "
            "(poll the document at Location)",
            "headers": {"Location": {"schema": {"type": "string"}}},
        },
    },
)
def upload_document(
    workspace: str,
    kb_id: str,
    _: Admin,
    db: Db,
    request: Request,
    response: Response,
    worker: Ingest,
    file: Annotated[UploadFile, File(description="PDF, DOCX, HTML, Markdown or text")],
    url: Annotated[str | None, Form(max_length=service.MAX_URL_CHARS)] = None,
) -> schemas.UploadedDocumentOut:
    """Adds a document (201), or replaces the one with the same file name (200); one over
    the cost budget is queued and indexed in the background (202, status ``indexing``)."""
    kb = _kb(db, workspace, kb_id)
    data = file.file.read(service.MAX_DOCUMENT_BYTES + 1)
    added = add_upload(db, kb, worker, file.filename or "", data, file.content_type, url)
    if added.queued:
        response.status_code = 202
        response.headers["Location"] = f"{request.url.path}/{added.document.id}"
    elif added.replaced:
        response.status_code = 200
    return schemas.UploadedDocumentOut.of(added.document, replaced=added.replaced)


@router.get("/{kb_id}/documents")
def list_documents(workspace: str, kb_id: str, _: Admin, db: Db) -> schemas.DocumentList:
    kb = _kb(db, workspace, kb_id)
    documents = [schemas.DocumentOut.of(d) for d in service.list_documents(db, kb)]
    return schemas.DocumentList(documents=documents)


@router.get("/{kb_id}/documents/{document_id}")
def get_document(
    workspace: str, kb_id: str, document_id: str, _: Admin, db: Db
) -> schemas.DocumentDetailOut:
    """The document with its chunks (text, page and heading of each), its status and, while
    it is indexing, its progress."""
    doc = service.get_document(db, _kb(db, workspace, kb_id), document_id)
    chunks = [schemas.ChunkOut.model_validate(c) for c in service.document_chunks(db, doc)]
    return schemas.DocumentDetailOut.of(doc, chunk_list=chunks)


@router.delete("/{kb_id}/documents/{document_id}", status_code=204)
def delete_document(workspace: str, kb_id: str, document_id: str, _: Admin, db: Db) -> Response:
    kb = _kb(db, workspace, kb_id)
    service.delete_document(db, kb, service.get_document(db, kb, document_id))
    return Response(status_code=204)


@router.post("/{kb_id}/search")
def search(
    workspace: str, kb_id: str, body: schemas.SearchRequest, _: Admin, db: Db
) -> schemas.PassageList:
    """What the retrieval stage would pass to the model for ``query``, best first."""
    kb = _kb(db, workspace, kb_id)
    passages = search_knowledge(db, [kb], body.query, body.top_k, body.mode)
    return schemas.PassageList(
        passages=[schemas.PassageOut.of(n, p) for n, p in enumerate(passages, 1)]
    )
