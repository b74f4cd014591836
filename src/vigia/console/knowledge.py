"""Conocimiento: knowledge bases, their documents (upload with progress, delete) and a
search tester that shows the passages retrieval would give the model, with their scores."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Request, UploadFile
from fastapi import Form as Field
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.console.access import Access, Configurer, Reader
from vigia.console.field_errors import FieldErrors, field_errors, one
from vigia.console.form_limits import bounds, choices
from vigia.console.form_values import FormValues, typed
from vigia.console.rendering import is_htmx, page
from vigia.console.responses import Form, see_other, text
from vigia.errors import Conflict, Invalid, VigiaError
from vigia.http.deps import Db
from vigia.knowledge import service
from vigia.knowledge.embedding import DEFAULT_EMBEDDER
from vigia.knowledge.models import KnowledgeBase
from vigia.knowledge.retrieval import search_knowledge
from vigia.knowledge.schemas import KnowledgeBaseCreate, SearchRequest
from vigia.knowledge.uploads import add_upload

router = APIRouter(prefix="/console/w/{ws}/knowledge", include_in_schema=False)
UPLOAD_ERRORS = (
    "unsupported_media_type",
    "unreadable_document",
    "empty_document",
    "encrypted_document",
    "too_many_pages",
    "document_too_deep",
    "document_too_large",
    "too_large",
    "invalid",
    "overloaded",
)
"""The codes of the upload refusals the page names (``upload.<code>`` in the catalogue)."""


def _list_page(
    request: Request,
    access: Access,
    db: Session,
    *,
    status: int = 200,
    errors: FieldErrors | None = None,
    values: FormValues | None = None,
) -> Response:
    """The workspace's knowledge bases with their sizes; a creation that failed shows its
    ``errors`` next to the fields, which keep the posted ``values``."""
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
        errors=errors or {},
        values=values or FormValues(),
        embedders=choices(KnowledgeBaseCreate, "embedder"),
        limits={name: bounds(KnowledgeBaseCreate, name) for name in ("name", "description")},
    )


@router.get("")
def knowledge_list(request: Request, access: Reader, db: Db) -> Response:
    return _list_page(request, access, db)


@router.post("")
def create_base(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """A new, empty knowledge base; a refusal keeps the typed name and description."""
    values = typed(form)
    try:
        spec = KnowledgeBaseCreate.model_validate(
            {
                "name": text(form, "name").strip(),
                "description": text(form, "description"),
                "embedder": text(form, "embedder") or DEFAULT_EMBEDDER,
            }
        )
    except ValidationError as error:
        return _list_page(
            request, access, db, status=422, errors=field_errors(error), values=values
        )
    try:
        kb = service.create_knowledge_base(
            db, access.workspace, spec.name, spec.description, spec.embedder
        )
    except (Conflict, Invalid) as error:
        key = "invalid.knowledge_name_taken" if isinstance(error, Conflict) else None
        errors = one("name", key or "invalid.knowledge_bases_full")
        return _list_page(request, access, db, status=error.status, errors=errors, values=values)
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
    """A base's page (or ``template``, a fragment of it); ``error``: the catalogue key of
    why an upload failed."""
    return page(
        request,
        template,
        status=status,
        access=access,
        section="knowledge",
        kb=kb,
        documents=service.list_documents(db, kb),
        error=error,
        query_limits=bounds(SearchRequest, "query"),
    )


@router.get("/{kb_id}")
def base_page(request: Request, kb_id: str, access: Reader, db: Db) -> Response:
    kb = service.get_knowledge_base(db, access.workspace, kb_id)
    return _base_page(request, access, db, kb)


@router.post("/{kb_id}/documents")
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
        worker = request.app.state.knowledge_ingest  # costly uploads index in the background
        add_upload(db, kb, worker, file.filename or "", data, media_type=file.content_type)
    except VigiaError as error:
        db.rollback()
        key = f"upload.{error.code}" if error.code in UPLOAD_ERRORS else "upload.failed"
        return _base_page(
            request, access, db, kb, status=error.status, error=key, template=template
        )
    if is_htmx(request):
        return _base_page(request, access, db, kb, template=template)
    return see_other(f"{access.base}/knowledge/{kb.id}")


@router.post("/{kb_id}/documents/{document_id}/delete")
def delete_document(kb_id: str, document_id: str, access: Configurer, db: Db) -> Response:
    kb = service.get_knowledge_base(db, access.workspace, kb_id)
    service.delete_document(db, kb, service.get_document(db, kb, document_id))
    return see_other(f"{access.base}/knowledge/{kb.id}")


@router.post("/{kb_id}/delete")
def delete_base(kb_id: str, access: Configurer, db: Db) -> Response:
    service.delete_knowledge_base(db, service.get_knowledge_base(db, access.workspace, kb_id))
    return see_other(f"{access.base}/knowledge")


@router.post("/{kb_id}/search")
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
        query_limits=bounds(SearchRequest, "query"),
        passages=passages,
        query=query,
    )
