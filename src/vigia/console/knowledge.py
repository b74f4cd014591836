"""Conocimiento: knowledge bases, their documents (upload with progress, delete) and a
search tester that shows the passages retrieval would give the model, with their scores."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Request, UploadFile
from fastapi import Form as Field
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.console.access import Access, Configurer, Reader
from vigia.console.rendering import is_htmx, page
from vigia.console.responses import Checked, see_other
from vigia.errors import VigiaError
from vigia.http.deps import Db
from vigia.knowledge import service
from vigia.knowledge.models import KnowledgeBase
from vigia.knowledge.retrieval import search_knowledge

router = APIRouter(prefix="/console/w/{ws}/knowledge", include_in_schema=False)


def _list_page(
    request: Request, access: Access, db: Session, *, status: int = 200, error: str | None = None
) -> Response:
    """The workspace's knowledge bases with their sizes, and ``error`` when a creation failed."""
    bases = [
        (kb, *service.sizes(db, kb)) for kb in service.list_knowledge_bases(db, access.workspace)
    ]
    return page(
        request,
        "knowledge.html",
        status=status,
        access=access,
        section="knowledge",
        bases=bases,
        error=error,
    )


@router.get("")
def knowledge_list(request: Request, access: Reader, db: Db) -> Response:
    return _list_page(request, access, db)


@router.post("", dependencies=Checked)
def create_base(
    request: Request,
    access: Configurer,
    db: Db,
    name: Annotated[str, Field(max_length=120)],
    description: Annotated[str, Field(max_length=2000)] = "",
) -> Response:
    try:
        kb = service.create_knowledge_base(db, access.workspace, name, description)
    except VigiaError as error:
        return _list_page(request, access, db, status=error.status, error=error.detail)
    return see_other(f"{access.base}/knowledge/{kb.id}")


def _base_page(
    request: Request,
    access: Access,
    db: Session,
    kb: KnowledgeBase,
    *,
    status: int = 200,
    error: str | None = None,
    template: str = "knowledge_base.html",
) -> Response:
    return page(
        request,
        template,
        status=status,
        access=access,
        section="knowledge",
        kb=kb,
        documents=service.list_documents(db, kb),
        error=error,
    )


@router.get("/{kb_id}")
def base_page(request: Request, kb_id: str, access: Reader, db: Db) -> Response:
    kb = service.get_knowledge_base(db, access.workspace, kb_id)
    return _base_page(request, access, db, kb)


@router.post("/{kb_id}/documents", dependencies=Checked)
def upload(
    request: Request,
    kb_id: str,
    access: Configurer,
    db: Db,
    file: Annotated[UploadFile, File()],
) -> Response:
    """Adds (or replaces) a document; htmx gets the refreshed document list."""
    kb = service.get_knowledge_base(db, access.workspace, kb_id)
    data = file.file.read(service.MAX_DOCUMENT_BYTES + 1)
    template = "documents_fragment.html" if is_htmx(request) else "knowledge_base.html"
    try:
        service.add_document(db, kb, file.filename or "", data, media_type=file.content_type)
    except VigiaError as error:
        db.rollback()
        return _base_page(
            request, access, db, kb, status=error.status, error=error.detail, template=template
        )
    if is_htmx(request):
        return _base_page(request, access, db, kb, template=template)
    return see_other(f"{access.base}/knowledge/{kb.id}")


@router.post("/{kb_id}/documents/{document_id}/delete", dependencies=Checked)
def delete_document(kb_id: str, document_id: str, access: Configurer, db: Db) -> Response:
    kb = service.get_knowledge_base(db, access.workspace, kb_id)
    service.delete_document(db, kb, service.get_document(db, kb, document_id))
    return see_other(f"{access.base}/knowledge/{kb.id}")


@router.post("/{kb_id}/delete", dependencies=Checked)
def delete_base(kb_id: str, access: Configurer, db: Db) -> Response:
    service.delete_knowledge_base(db, service.get_knowledge_base(db, access.workspace, kb_id))
    return see_other(f"{access.base}/knowledge")


@router.post("/{kb_id}/search", dependencies=Checked)
def search(
    request: Request,
    kb_id: str,
    access: Reader,
    db: Db,
    query: Annotated[str, Field(min_length=1, max_length=4000)],
) -> Response:
    """The passages a turn would retrieve for ``query``, best first, with their scores.
    Reading only: viewers may try it too."""
    kb = service.get_knowledge_base(db, access.workspace, kb_id)
    passages = search_knowledge(db, [kb], query, 5)
    template = "passages_fragment.html" if is_htmx(request) else "knowledge_base.html"
    return page(
        request,
        template,
        access=access,
        section="knowledge",
        kb=kb,
        documents=service.list_documents(db, kb),
        error=None,
        passages=passages,
        query=query,
    )
