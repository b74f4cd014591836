"""Routes of the worlds surface: chat (JSON and SSE), conversations, sharing, personal
files, and the direct lens runs (the login is ``vigia.users.endpoints``). Every route needs
the cookie, and every one refuses a request another site made (``vigia.http.fetch_site``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, File, Form, Query, Request, Response, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from sqlalchemy.orm import Session

from vigia.db.session import session_scope
from vigia.errors import Unauthorized, VigiaError
from vigia.http.deps import Db, WriteSlot
from vigia.http.fetch_site import require_same_origin
from vigia.http.sse import event_stream_response, sse_line
from vigia.kit.fields import RowId
from vigia.users import service as users
from vigia.users.models import User
from vigia.users.schemas import DoneOut
from vigia.worlds.catalog import MAX_SCOPE_PATHS
from vigia.worlds.chat import conversations, personal
from vigia.worlds.chat.turn import Prepared, lens_scope, prepare, run_lens, turn_events
from vigia.worlds.chat.turn_log import RUN_HEADER, TurnGate, TurnLog
from vigia.worlds.models import WorldConversation
from vigia.worlds.schemas import (
    MAX_MESSAGE,
    VERSION_PATTERN,
    AnswerEvent,
    ChatEnvelope,
    ChatRequest,
    ConversationDetail,
    ConversationList,
    ConversationMeta,
    ConversationSummary,
    ErrorEvent,
    LensResponse,
    MessageOut,
    OkOut,
    PersonalFileList,
    PersonalFileOut,
    PinOut,
    PinRequest,
    QARequest,
    QueryFlag,
    RenameOut,
    RenameRequest,
    ScopePath,
    ShareOut,
    ShareRequest,
    StreamEvent,
    TroubleshootRequest,
    TurnEvent,
    UploadedFileOut,
)

# Every route answers the cookie: none may be made by another site.
router = APIRouter(tags=["worlds"], dependencies=[Depends(require_same_origin)])


def current_user(request: Request) -> User:
    """The logged-in user of the ``sherpa_session`` cookie, or 401 (a short session of its
    own: the connection is free again before a chat turn's long work)."""
    with session_scope() as session:
        return users.user_for_token(session, request.cookies.get(users.COOKIE))


CurrentUser = Annotated[User, Depends(current_user)]


def turn_gate(request: Request) -> TurnGate:
    """The engine's gate for worlds turns (budget, input guardrails, the run), set by the app."""
    gate: TurnGate = request.app.state.worlds_gate
    return gate


Gate = Annotated[TurnGate, Depends(turn_gate)]


def _admitted(gate: TurnGate, prepared: Prepared, message: str) -> TurnLog:
    return gate.admit(prepared.workspace_id, prepared.world.id, message)


def _settled(gate: TurnGate, log: TurnLog, events: Iterator[TurnEvent]) -> Iterator[TurnEvent]:
    """The turn's events; its run is stored before the final answer goes out (or when the
    turn fails: then as an error)."""
    try:
        for event in events:
            if isinstance(event, AnswerEvent):
                gate.settle(log, event.conversation_id)
            yield event
    except VigiaError as exc:
        gate.settle(log, None, exc.detail)
        raise


def _drain(gate: TurnGate, user: User, body: ChatRequest, response: Response) -> ChatEnvelope:
    with session_scope() as session:
        prepared = prepare(session, user, body)
        log = _admitted(gate, prepared, body.message)
        response.headers[RUN_HEADER] = log.run_id
        turn = turn_events(session, user, body, prepared, log)
        answers = [e for e in _settled(gate, log, turn) if isinstance(e, AnswerEvent)]
    return answers[-1].message


@router.post("/chat", response_model=ChatEnvelope, response_model_exclude_none=True)
def chat(
    body: ChatRequest, slot: WriteSlot, user: CurrentUser, gate: Gate, response: Response
) -> ChatEnvelope:
    return _drain(gate, user, body, response)


@router.get(
    "/chat/stream",
    response_class=StreamingResponse,
    responses={200: event_stream_response(StreamEvent, "node, answer_delta… then answer")},
)
def chat_stream(
    slot: WriteSlot,
    user: CurrentUser,
    gate: Gate,
    message: Annotated[str, Query(min_length=1, max_length=MAX_MESSAGE)],
    version: Annotated[str, Query(pattern=VERSION_PATTERN)] = "v1",
    conversation_id: RowId | None = None,
    knowledge: QueryFlag = False,
    scope_paths: Annotated[list[ScopePath] | None, Query(max_length=MAX_SCOPE_PATHS)] = None,
    personal: QueryFlag = False,
) -> StreamingResponse:
    try:
        body = ChatRequest(
            message=message,
            version=version,
            conversation_id=conversation_id,
            knowledge=knowledge,
            scope_paths=scope_paths or [],
            personal=personal,
        )
    except ValidationError as exc:  # a blank message: a 422 like the query's other checks
        errors = exc.errors(include_url=False, include_context=False)
        raise RequestValidationError([{**e, "loc": ("query", *e["loc"])} for e in errors]) from None
    with session_scope() as session:
        prepared = prepare(session, user, body)  # 401/403/404/409/422 before the stream starts
        log = _admitted(gate, prepared, body.message)  # 422 blocked, 429 paused: before it too
    user_id = user.id

    def events() -> Iterator[str]:
        try:
            with session_scope() as own:
                owner = users.get_user(own, user_id)
                if owner is None:
                    raise Unauthorized("not logged in")
                turn = turn_events(own, owner, body, prepare(own, owner, body), log)
                for event in _settled(gate, log, turn):
                    yield sse_line(event.model_dump(mode="json", exclude_none=True))
        except VigiaError as exc:
            yield sse_line(ErrorEvent(detail=exc.detail).model_dump(mode="json"))

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", RUN_HEADER: log.run_id},
    )


def _summary(session: Session, conversation: WorldConversation) -> ConversationSummary:
    original = conversations.source_of(session, conversation)
    return ConversationSummary(
        id=conversation.id,
        title=original.title,
        created_at=conversation.created_at,
        updated_at=original.updated_at,
        pinned=conversation.pinned,
        origin=conversation.origin,
        version=conversation.world_id,
        shared_by=conversations.sharer(session, conversation),
    )


@router.get("/conversations", response_model=ConversationList, response_model_exclude_none=True)
def list_conversations(user: CurrentUser, session: Db) -> ConversationList:
    rows = conversations.list_for(session, user)
    return ConversationList(conversations=[_summary(session, c) for c in rows])


@router.get(
    "/conversations/{cid}", response_model=ConversationDetail, response_model_exclude_none=True
)
def get_conversation(cid: RowId, user: CurrentUser, session: Db) -> ConversationDetail:
    conversation = conversations.visible(session, user, cid)
    meta = ConversationMeta.model_validate(_summary(session, conversation), from_attributes=True)
    messages = [
        MessageOut(role=m.role, content=m.content, created_at=m.created_at, answer=m.envelope)
        for m in conversations.messages(session, conversation)
    ]
    return ConversationDetail(conversation=meta, messages=messages)


@router.patch("/conversations/{cid}", response_model=RenameOut)
def rename_conversation(
    cid: RowId, body: RenameRequest, user: CurrentUser, session: Db
) -> RenameOut:
    conversation = conversations.rename(session, user, cid, body.title)
    return RenameOut(id=conversation.id, title=conversation.title)


@router.post("/conversations/{cid}/pin", response_model=PinOut)
def pin_conversation(
    cid: RowId, user: CurrentUser, session: Db, body: PinRequest | None = None
) -> PinOut:
    conversation = conversations.pin(session, user, cid, (body or PinRequest()).pinned)
    return PinOut(id=conversation.id, pinned=conversation.pinned)


@router.delete("/conversations/{cid}", response_model=OkOut)
def delete_conversation(cid: RowId, user: CurrentUser, session: Db) -> OkOut:
    return OkOut(id=conversations.delete(session, user, cid))


@router.post("/conversations/{cid}/share", response_model=ShareOut)
def share_conversation(cid: RowId, body: ShareRequest, user: CurrentUser, session: Db) -> ShareOut:
    wrapper = conversations.share(session, user, cid, body.username)
    return ShareOut(id=cid, shared_with=body.username, share_id=wrapper.id)


@router.delete("/conversations/{cid}/share/{username}", response_model=OkOut)
def unshare_conversation(cid: RowId, username: str, user: CurrentUser, session: Db) -> OkOut:
    conversations.unshare(session, user, cid, username)
    return OkOut(id=cid)


def _lens_run(
    gate: TurnGate, session: Session, lens: str, text: str, prepared: Prepared, reply: Response
) -> LensResponse:
    log = _admitted(gate, prepared, text)
    reply.headers[RUN_HEADER] = log.run_id
    try:
        response = run_lens(session, lens, text, prepared, log)
    except VigiaError as exc:
        gate.settle(log, None, exc.detail)
        raise
    gate.settle(log, None)
    return response


@router.post("/qa/run", response_model=LensResponse)
def qa_run(
    body: QARequest, user: CurrentUser, session: Db, gate: Gate, reply: Response
) -> LensResponse:
    prepared = lens_scope(session, user, body.version, body.scope_paths)
    return _lens_run(gate, session, "qa", body.question, prepared, reply)


@router.post("/troubleshoot/run", response_model=LensResponse)
def troubleshoot_run(
    body: TroubleshootRequest, user: CurrentUser, session: Db, gate: Gate, reply: Response
) -> LensResponse:
    prepared = lens_scope(session, user, body.version, body.scope_paths)
    return _lens_run(gate, session, "troubleshoot", body.symptom, prepared, reply)


@router.post("/personal/files", status_code=201)
def upload_personal_file(
    user: CurrentUser,
    session: Db,
    file: Annotated[UploadFile, File()],
    path: Annotated[str | None, Form(max_length=255)] = None,
) -> UploadedFileOut:
    data = file.file.read(personal.MAX_FILE_BYTES + 1)
    record = personal.upload(session, user, path or file.filename or "", data)
    return UploadedFileOut(rel_path=record.rel_path, size=record.size)


@router.get("/personal/files", response_model=PersonalFileList)
def list_personal_files(user: CurrentUser, session: Db) -> PersonalFileList:
    files = [PersonalFileOut.model_validate(f) for f in personal.list_files(session, user)]
    return PersonalFileList(files=files)


@router.delete("/personal/files/{rel_path:path}")
def delete_personal_file(rel_path: str, user: CurrentUser, session: Db) -> DoneOut:
    personal.remove(session, user, rel_path)
    return DoneOut()
