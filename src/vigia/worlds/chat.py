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
from vigia.errors import Conflict, NotFound
from vigia.users.models import User
from vigia.worlds import conversations, personal
from vigia.worlds.catalog import resolve_scope
from vigia.worlds.followup import context_names
from vigia.worlds.lenses.common import Answer, LensInput, resolve
from vigia.worlds.lenses.impact import run_impact
from vigia.worlds.lenses.qa import run_qa
from vigia.worlds.lenses.router import Route, choose_lens
from vigia.worlds.lenses.troubleshoot import run_troubleshoot
from vigia.worlds.models import World, WorldConversation
from vigia.worlds.names import query_terms
from vigia.worlds.prose import rewrite
from vigia.worlds.retrieval import in_scope
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

    world: World | None
    scope_paths: list[str]
    conversation: WorldConversation | None


def knowledge_world(session: Session, version: str) -> World:
    """A world that can answer with retrieval: registered (404) and indexed (409)."""
    world = session.get(World, version)
    if world is None:
        raise NotFound(f"world {version!r} not found")
    if world.indexed_at is None:
        raise Conflict(f"world {version!r} is not indexed yet: run `vigia world index {version}`")
    return world


def prepare(session: Session, user: User, request: ChatRequest) -> Prepared:
    """Validates world, scope and conversation (404, 409, 422, 403) before the turn runs."""
    world = (
        knowledge_world(session, request.version)
        if request.knowledge
        else session.get(World, request.version)
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
    """Answers from the conversation only (no retrieval), saying so."""
    answer = Answer(route.lens, steps=["session context"])
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
                answer.say("From earlier in this conversation: " + " ".join(sentences[:3]))
                break
    answer.say(
        f"Knowledge is off for this message, so world {version!r} was not searched; "
        "send knowledge: true for an answer grounded in its files."
    )
    return answer


def _deltas(text: str) -> Iterator[str]:
    yield from re.findall(r"\S+\s*", text)


def turn_events(
    session: Session, user: User, request: ChatRequest, prepared: Prepared
) -> Iterator[TurnEvent]:
    """Runs one turn, yielding ``node``, ``answer_delta`` and a final ``answer`` event.

    ``session`` serves the reads; the conversation and its two messages are written at the
    end in one write transaction of their own.
    """
    lens_input: LensInput | None = None
    named: list[str] | None = None
    if request.knowledge and prepared.world is not None:
        context = context_names(session, request.version, prepared.conversation, request.message)
        lens_input = LensInput(
            session, request.version, request.message, prepared.scope_paths, context
        )
        named = [*resolve(lens_input).names, *context, *lens_input.named_files]
    route = choose_lens(request.message, named)
    yield node("route", "think", "Choose a lens", route.reason, "active")
    yield node("route", "think", "Choose a lens", f"lens: {route.lens} ({route.kind})", "done")

    if lens_input is not None:
        where = ", ".join(prepared.scope_paths) or "the whole world"
        label = f"{route.lens} lens over {request.version}"
        about = f"; about {', '.join(lens_input.context)}" if lens_input.context else ""
        yield node("lens", "tool", label, f"graph and hybrid search in {where}{about}", "active")
        answer = LENSES[route.lens](lens_input)
        yield node("lens", "tool", label, f"{len(answer.sources)} sources cited", "done")
    else:
        answer = _without_knowledge(
            session, route, prepared.conversation, request.message, request.version
        )

    personal_hits: list[PersonalHit] = []
    if request.personal:
        yield node("personal", "tool", "Search my files", "grep of your personal files", "active")
        personal_hits = personal.grep(session, user, query_terms(request.message))
        yield node(
            "personal", "tool", "Search my files", f"{len(personal_hits)} matching lines", "done"
        )

    yield node("compose", "think", "Write the answer", "facts with file:line citations", "active")
    headline = rewrite(request.message, answer) or answer.headline
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


def run_lens(
    session: Session, lens: str, text: str, version: str, scope_paths: list[str]
) -> LensResponse:
    """``/qa/run`` and ``/troubleshoot/run``: one lens, no conversation."""
    world = knowledge_world(session, version)
    scope = resolve_scope(session, world, scope_paths)
    answer = LENSES[lens](LensInput(session, version, text, scope))
    route = Route(lens, f"{lens}: requested directly through /{lens}/run", lens)
    return LensResponse(
        headline=rewrite(text, answer) or answer.headline,
        lens=lens,
        route=route_out(route, answer),
        scope=scope_out(version, scope),
        sources=sources_out(answer, scope),
        details=answer.details,
    )
