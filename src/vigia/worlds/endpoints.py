"""Routes of the worlds surface: login, chat (JSON and SSE), conversations, sharing,
personal files, and the direct lens runs. Every route but login/logout needs the cookie."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Query, Request, Response, UploadFile
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.db.session import get_db, session_scope
from vigia.errors import RateLimited, Unauthorized, VigiaError
from vigia.fields import RowId
from vigia.workspaces.ratelimit import get_rate_limiter, retry_after_header
from vigia.worlds import conversations, personal, users
from vigia.worlds.chat import prepare, run_lens, turn_events
from vigia.worlds.models import WorldConversation, WorldUser
from vigia.worlds.schemas import (
    MAX_MESSAGE,
    MAX_SCOPE_PATHS,
    VERSION_PATTERN,
    ChatEnvelope,
    ChatRequest,
    ConversationDetail,
    ConversationList,
    LensResponse,
    LoginRequest,
    OkOut,
    PersonalFileList,
    PinOut,
    PinRequest,
    QARequest,
    RenameOut,
    RenameRequest,
    ScopePath,
    ShareOut,
    ShareRequest,
    TroubleshootRequest,
)

router = APIRouter(tags=["worlds"])
DB = Annotated[Session, Depends(get_db)]


def current_user(request: Request, session: DB) -> WorldUser:
    """The logged-in user of the ``sherpa_session`` cookie, or 401."""
    return users.user_for_token(session, request.cookies.get(users.COOKIE))


CurrentUser = Annotated[WorldUser, Depends(current_user)]


LOGIN_ATTEMPTS_PER_MINUTE = 10


@router.post("/auth/login")
def login(body: LoginRequest, response: Response, session: DB) -> dict[str, str]:
    """Password login; at most 10 attempts a minute per user name (429 beyond)."""
    wait = get_rate_limiter().acquire(
        f"login:{body.username.casefold()}", LOGIN_ATTEMPTS_PER_MINUTE
    )
    if wait is not None:
        raise RateLimited(
            "too many login attempts; try again later",
            headers={"Retry-After": retry_after_header(wait)},
        )
    user, token = users.login(session, body.username, body.password)
    settings = get_settings()
    response.set_cookie(
        users.COOKIE,
        token,
        max_age=settings.session_ttl_hours * 3600,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
        path="/",
    )
    return {"id": user.id, "name": user.name}


@router.post("/auth/logout")
def logout(request: Request, response: Response, session: DB) -> dict[str, bool]:
    users.logout(session, request.cookies.get(users.COOKIE))
    response.delete_cookie(users.COOKIE, path="/", httponly=True, samesite="lax")
    return {"ok": True}


def _drain(session: Session, user: WorldUser, body: ChatRequest) -> dict[str, object]:
    prepared = prepare(session, user, body)
    final: dict[str, object] = {}
    for event in turn_events(session, user, body, prepared):
        if event["type"] == "answer":
            final = event["message"]
    return final


@router.post("/chat", response_model=ChatEnvelope, response_model_exclude_none=True)
def chat(body: ChatRequest, user: CurrentUser, session: DB) -> dict[str, object]:
    return _drain(session, user, body)


@router.get("/chat/stream")
def chat_stream(
    user: CurrentUser,
    session: DB,
    message: Annotated[str, Query(min_length=1, max_length=MAX_MESSAGE)],
    version: Annotated[str, Query(pattern=VERSION_PATTERN)] = "v1",
    conversation_id: RowId | None = None,
    knowledge: bool = False,
    scope_paths: Annotated[list[ScopePath] | None, Query(max_length=MAX_SCOPE_PATHS)] = None,
    personal: bool = False,
) -> StreamingResponse:
    body = ChatRequest(
        message=message,
        version=version,
        conversation_id=conversation_id,
        knowledge=knowledge,
        scope_paths=scope_paths or [],
        personal=personal,
    )
    prepare(session, user, body)  # 401/403/404/409/422 before the stream starts
    user_id = user.id

    def events() -> Iterator[str]:
        try:
            with session_scope() as own:
                owner = own.get(WorldUser, user_id)
                if owner is None:
                    raise Unauthorized("not logged in")
                for event in turn_events(own, owner, body, prepare(own, owner, body)):
                    yield f"data: {json.dumps(event, ensure_ascii=False)}\n\n"
        except VigiaError as exc:
            yield f"data: {json.dumps({'type': 'error', 'detail': exc.detail})}\n\n"

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _summary(session: Session, conversation: WorldConversation) -> dict[str, object]:
    original = conversations.source_of(session, conversation)
    return {
        "id": conversation.id,
        "title": original.title,
        "created_at": conversation.created_at,
        "updated_at": original.updated_at,
        "pinned": conversation.pinned,
        "origin": conversation.origin,
        "version": conversation.world_id,
        "shared_by": conversations.sharer(session, conversation),
    }


@router.get("/conversations", response_model=ConversationList, response_model_exclude_none=True)
def list_conversations(user: CurrentUser, session: DB) -> dict[str, object]:
    return {"conversations": [_summary(session, c) for c in conversations.list_for(session, user)]}


@router.get(
    "/conversations/{cid}", response_model=ConversationDetail, response_model_exclude_none=True
)
def get_conversation(cid: RowId, user: CurrentUser, session: DB) -> dict[str, object]:
    conversation = conversations.visible(session, user, cid)
    summary = _summary(session, conversation)
    summary.pop("updated_at")
    return {
        "conversation": summary,
        "messages": [
            {"role": m.role, "content": m.content, "created_at": m.created_at, "answer": m.envelope}
            for m in conversations.messages(session, conversation)
        ],
    }


@router.patch("/conversations/{cid}", response_model=RenameOut)
def rename_conversation(
    cid: RowId, body: RenameRequest, user: CurrentUser, session: DB
) -> dict[str, object]:
    conversation = conversations.rename(session, user, cid, body.title)
    return {"ok": True, "id": conversation.id, "title": conversation.title}


@router.post("/conversations/{cid}/pin", response_model=PinOut)
def pin_conversation(
    cid: RowId, user: CurrentUser, session: DB, body: PinRequest | None = None
) -> dict[str, object]:
    conversation = conversations.pin(session, user, cid, (body or PinRequest()).pinned)
    return {"ok": True, "id": conversation.id, "pinned": conversation.pinned}


@router.delete("/conversations/{cid}", response_model=OkOut)
def delete_conversation(cid: RowId, user: CurrentUser, session: DB) -> dict[str, object]:
    return {"ok": True, "id": conversations.delete(session, user, cid)}


@router.post("/conversations/{cid}/share", response_model=ShareOut)
def share_conversation(
    cid: RowId, body: ShareRequest, user: CurrentUser, session: DB
) -> dict[str, object]:
    wrapper = conversations.share(session, user, cid, body.username)
    return {"ok": True, "id": cid, "shared_with": body.username, "share_id": wrapper.id}


@router.delete("/conversations/{cid}/share/{username}", response_model=OkOut)
def unshare_conversation(
    cid: RowId, username: str, user: CurrentUser, session: DB
) -> dict[str, object]:
    conversations.unshare(session, user, cid, username)
    return {"ok": True, "id": cid}


@router.post("/qa/run", response_model=LensResponse)
def qa_run(body: QARequest, user: CurrentUser, session: DB) -> dict[str, object]:
    return run_lens(session, "qa", body.question, body.version, body.scope_paths)


@router.post("/troubleshoot/run", response_model=LensResponse)
def troubleshoot_run(
    body: TroubleshootRequest, user: CurrentUser, session: DB
) -> dict[str, object]:
    return run_lens(session, "troubleshoot", body.symptom, body.version, body.scope_paths)


@router.post("/personal/files", status_code=201)
def upload_personal_file(
    user: CurrentUser,
    session: DB,
    file: Annotated[UploadFile, File()],
    path: Annotated[str | None, Form(max_length=255)] = None,
) -> dict[str, object]:
    data = file.file.read(personal.MAX_FILE_BYTES + 1)
    record = personal.upload(session, user, path or file.filename or "", data)
    return {"rel_path": record.rel_path, "size": record.size}


@router.get("/personal/files", response_model=PersonalFileList)
def list_personal_files(user: CurrentUser, session: DB) -> dict[str, object]:
    return {
        "files": [
            {"rel_path": f.rel_path, "size": f.size, "created_at": f.created_at}
            for f in personal.list_files(session, user)
        ]
    }


@router.delete("/personal/files/{rel_path:path}")
def delete_personal_file(rel_path: str, user: CurrentUser, session: DB) -> dict[str, bool]:
    personal.remove(session, user, rel_path)
    return {"ok": True}
