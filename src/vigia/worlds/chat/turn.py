"""One chat turn as a stream of events: route (think) → lens (tool) → personal files (tool)
→ compose (think) → ``answer_delta``… → ``answer`` with the full envelope.

``POST /chat`` drains the same stream and returns the last event's envelope, so both
endpoints answer identically.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sqlalchemy.orm import Session

from vigia.db.session import write_scope
from vigia.errors import Conflict
from vigia.users.models import User
from vigia.worlds.access import member_world
from vigia.worlds.answer.lenses.common import Answer, LensInput, resolve
from vigia.worlds.answer.lenses.impact import run_impact
from vigia.worlds.answer.lenses.overview import overview
from vigia.worlds.answer.lenses.qa import run_qa
from vigia.worlds.answer.lenses.router import Route, choose_lens
from vigia.worlds.answer.lenses.troubleshoot import run_troubleshoot
from vigia.worlds.answer.lenses.wording import question_language
from vigia.worlds.answer.names import query_terms
from vigia.worlds.answer.prose import rewrite
from vigia.worlds.answer.retrieval import in_scope
from vigia.worlds.catalog import resolve_scope
from vigia.worlds.chat import conversations, personal
from vigia.worlds.chat.followup import context_names
from vigia.worlds.chat.turn_log import TurnLog
from vigia.worlds.models import World, WorldConversation
from vigia.worlds.schemas import (
    AnswerDeltaEvent,
    AnswerEvent,
    ChatEnvelope,
    ChatRequest,
    LensResponse,
    NodeEvent,
    PersonalHit,
    RouteOut,
    ScopeOut,
    SourceOut,
    TurnEvent,
)

LENSES: dict[str, Callable[[LensInput], Answer]] = {
    "qa": run_qa,
    "troubleshoot": run_troubleshoot,
    "impact": run_impact,
}


@dataclass
class Prepared:
    """What a turn may use, checked before anything is streamed."""

    world: World
    scope_paths: list[str]
    conversation: WorldConversation | None

    @property
    def workspace_id(self) -> str:
        """The workspace that owns the world (the turn's run and budget are its)."""
        assert self.world.workspace_id is not None  # member_world reached it through one
        return self.world.workspace_id


def knowledge_world(session: Session, user: User, version: str) -> World:
    """A world that can answer with retrieval: registered and ``user``'s (404), indexed (409)."""
    world = member_world(session, user, version)
    if world.indexed_at is None:
        raise Conflict(f"world {version!r} is not indexed yet: run `vigia world index {version}`")
    return world


def prepare(session: Session, user: User, request: ChatRequest) -> Prepared:
    """Validates world, scope and conversation (404, 409, 422, 403) before the turn runs: the
    world must be one of the user's workspaces', whether knowledge is on or off."""
    world = (
        knowledge_world(session, user, request.version)
        if request.knowledge
        else member_world(session, user, request.version)
    )
    scope = resolve_scope(session, world, request.scope_paths)
    conversation = None
    if request.conversation_id is not None:
        conversation = conversations.writable(session, user, request.conversation_id)
    return Prepared(world, scope, conversation)


def node(ident: str, kind: str, label: str, detail: str, status: str) -> NodeEvent:
    return NodeEvent(id=ident, kind=kind, label=label, detail=detail, status=status)


def route_out(route: Route, answer: Answer) -> RouteOut:
    """The route with the display labels of the reasoning path."""
    path = [f"router → {route.lens}", *answer.steps, "answer"]
    return RouteOut(lens=route.lens, reason=route.reason, path=path)


def scope_out(version: str, scope_paths: list[str]) -> ScopeOut:
    source = "explicit" if scope_paths else "all"
    return ScopeOut(version=version, scope_paths=scope_paths, source=source)


def sources_out(answer: Answer, scope_paths: list[str]) -> list[SourceOut]:
    """The answer's citations (only ever in scope: lenses see nothing else)."""
    return [
        SourceOut(doc_id=path, line=line)
        for path, line in answer.sources
        if in_scope(path, scope_paths)
    ]


def _without_knowledge(
    session: Session,
    route: Route,
    conversation: WorldConversation | None,
    message: str,
    version: str,
) -> Answer:
    """Answers from the conversation only (no retrieval), saying so; a first turn, from the
    world's catalogue (what it is, what it holds)."""
    world = session.get(World, version) if conversation is None else None
    if world is not None:
        answer = overview(session, world, message, route.lens)
    else:
        answer = Answer(route.lens, lang=question_language(message), steps=["session context"])
    terms = query_terms(message)
    if conversation is not None and terms:
        for earlier in reversed(conversations.messages(session, conversation)):
            if earlier.role != "assistant":
                continue
            sentences = [
                s
                for s in re.split(r"(?<=[.!?])\s+", earlier.content)
                if any(t in s.upper() for t in terms)
            ]
            if sentences:
                answer.tell(
                    "From earlier in this conversation: {text}", text=" ".join(sentences[:3])
                )
                break
    answer.tell(
        "Knowledge is off for this message, so world {world} was not searched; send knowledge: "
        "true for an answer grounded in its files.",
        world=repr(version),
    )
    return answer


def _deltas(text: str) -> Iterator[str]:
    yield from re.findall(r"\S+\s*", text)


def turn_events(
    session: Session, user: User, request: ChatRequest, prepared: Prepared, log: TurnLog
) -> Iterator[TurnEvent]:
    """Runs one turn, yielding ``node``, ``answer_delta`` and a final ``answer`` event.

    ``session`` serves the reads; the conversation and its two messages are written at the
    end in one write transaction of their own. ``log`` (from the engine's gate, which has
    admitted the turn) gets each step timed and every model call metered.
    """
    lens_input: LensInput | None = None
    named: list[str] | None = None
    with log.step("route") as step:
        if request.knowledge:
            context = context_names(
                session, request.version, prepared.conversation, request.message
            )
            lens_input = LensInput(
                session, request.version, request.message, prepared.scope_paths, context
            )
            named = [*resolve(lens_input).names, *context, *lens_input.named_files]
        route = choose_lens(request.message, named)
        log.lens = route.lens
        step.detail = {"lens": route.lens, "kind": route.kind}
    yield node("route", "think", "Choose a lens", route.reason, "active")
    yield node("route", "think", "Choose a lens", f"lens: {route.lens} ({route.kind})", "done")

    if lens_input is not None:
        where = ", ".join(prepared.scope_paths) or "the whole world"
        label = f"{route.lens} lens over {request.version}"
        about = f"; about {', '.join(lens_input.context)}" if lens_input.context else ""
        yield node("lens", "tool", label, f"graph and hybrid search in {where}{about}", "active")
        with log.step("lens") as step:
            answer = LENSES[route.lens](lens_input)
            step.detail = {"lens": route.lens, "sources": len(answer.sources)}
        yield node("lens", "tool", label, f"{len(answer.sources)} sources cited", "done")
    else:
        answer = _without_knowledge(
            session, route, prepared.conversation, request.message, request.version
        )

    personal_hits: list[PersonalHit] = []
    if request.personal:
        yield node("personal", "tool", "Search my files", "grep of your personal files", "active")
        with log.step("personal") as step:
            personal_hits = personal.grep(session, user, query_terms(request.message))
            step.detail = {"hits": len(personal_hits)}
        yield node(
            "personal", "tool", "Search my files", f"{len(personal_hits)} matching lines", "done"
        )

    yield node("compose", "think", "Write the answer", "facts with file:line citations", "active")
    with log.step("compose") as step:
        prose = rewrite(request.message, answer, log.ledger)
        headline = prose or answer.headline
        step.detail = {"prose": prose is not None, "chars": len(headline)}
    for piece in _deltas(headline):
        yield AnswerDeltaEvent(text=piece)
    yield node("compose", "think", "Write the answer", f"{len(headline)} characters", "done")

    with write_scope() as writer:  # the turn's only writes, in one short transaction
        conversation = (
            conversations.writable(writer, user, prepared.conversation.id)
            if prepared.conversation is not None
            else conversations.create(
                writer, user, request.version, conversations.title_from(request.message)
            )
        )
        envelope = ChatEnvelope(
            headline=headline,
            lens=route.lens,
            route=route_out(route, answer),
            scope=scope_out(request.version, prepared.scope_paths),
            sources=sources_out(answer, prepared.scope_paths),
            conversation_id=conversation.id,
            personal_sources=personal_hits or None,
        )
        stored = envelope.model_dump(mode="json", exclude_none=True)
        conversations.append(writer, conversation, "user", request.message)
        conversations.append(writer, conversation, "assistant", headline, stored)
    yield AnswerEvent(conversation_id=conversation.id, message=envelope)


def lens_scope(session: Session, user: User, version: str, scope_paths: list[str]) -> Prepared:
    """What ``/qa/run`` and ``/troubleshoot/run`` may use (404, 409, 422), checked first."""
    world = knowledge_world(session, user, version)
    return Prepared(world, resolve_scope(session, world, scope_paths), None)


def run_lens(
    session: Session, lens: str, text: str, prepared: Prepared, log: TurnLog
) -> LensResponse:
    """``/qa/run`` and ``/troubleshoot/run``: one lens, no conversation."""
    version, scope = prepared.world.id, prepared.scope_paths
    log.lens = lens
    with log.step("lens") as step:
        answer = LENSES[lens](LensInput(session, version, text, scope))
        step.detail = {"lens": lens, "sources": len(answer.sources)}
    route = Route(lens, f"{lens}: requested directly through /{lens}/run", lens)
    with log.step("compose") as step:
        prose = rewrite(text, answer, log.ledger)
        step.detail = {"prose": prose is not None}
    return LensResponse(
        headline=prose or answer.headline,
        lens=lens,
        route=route_out(route, answer),
        scope=scope_out(version, scope),
        sources=sources_out(answer, scope),
        details=answer.details,
    )
