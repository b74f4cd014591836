"""Follow-up questions: "And what calls it?", "y qué lo llama", "e esse programa?" refer
to what earlier turns were about.

A message refers back when it has a pronoun or a demonstrative ("it", "that program", "lo",
"ese programa", "ele", "esse") or is a short question opening with "and"/"y"/"e" — and
names nothing of the code itself. The names it refers to are those of the latest user
message that named something the world knows; failing that, the first program or
paragraph the latest answer named ("that paragraph" prefers a paragraph, "that program" a
program).
"""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from vigia.language import fold
from vigia.worlds.answer.names import code_like
from vigia.worlds.chat import conversations
from vigia.worlds.graph.queries import entities_named
from vigia.worlds.models import WorldConversation

_REFERS = re.compile(
    r"\b(?:it|its|that|this|those|these|them|there|the same|lo|la|le|los|las|ese|esa|eso|"
    r"este|esta|esto|dicho|dicha|ahi|alli|ele|ela|eles|isso|esse|essa|isto|dele|dela|nele|"
    r"nela|o mesmo|el mismo)\b"
)
_OPENS = re.compile(r"^\s*(?:and|also|what about|how about|y|e|tambien|tambem|y que|e que)\b")
_PARAGRAPH = re.compile(r"\b(?:paragraph|section|parrafo|seccion|paragrafo|secao|rutina|routine)\b")
_PROGRAM = re.compile(r"\b(?:program|programa|module|modulo)\b")
MAX_SHORT_WORDS = 8
LOOK_BACK = 6


def refers_back(message: str) -> bool:
    text = fold(message)
    short = len(text.split()) <= MAX_SHORT_WORDS
    return bool(_REFERS.search(text)) or (short and bool(_OPENS.search(text)))


def _known(session: Session, world_id: str, names: list[str]) -> list[str]:
    """Those of ``names`` that name an entity of the world, as entity names, in order."""
    wanted: list[str] = []
    for name in names:
        wanted += [name, *name.split(".")[::-1]] if "." in name else [name]
    found = {e.name: e.kind for e in entities_named(session, world_id, wanted)}
    return [n for n in dict.fromkeys(wanted) if n in found]


def _in_order(text: str) -> list[str]:
    names = code_like(text)
    return sorted(names, key=lambda n: (text.upper().find(n), n))


def context_names(
    session: Session, world_id: str, conversation: WorldConversation | None, message: str
) -> list[str]:
    """The names ``message`` refers back to, or none when it stands on its own."""
    if conversation is None or not refers_back(message):
        return []
    if _known(session, world_id, _in_order(message)):
        return []
    earlier = conversations.messages(session, conversation)[-2 * LOOK_BACK :]
    for index in range(len(earlier) - 1, -1, -1):
        turn = earlier[index]
        if turn.role != "user":
            continue
        found = _known(session, world_id, _in_order(turn.content))
        if found:
            return found[:2]
        if refers_back(turn.content):
            continue  # a follow-up itself: what it referred to is further back
        answer = next((t for t in earlier[index + 1 :] if t.role == "assistant"), None)
        return _first_in_answer(session, world_id, answer.content, message) if answer else []
    return []


def _first_in_answer(session: Session, world_id: str, answer: str, message: str) -> list[str]:
    """The first program or paragraph an answer names (the kind the message asks for)."""
    found = _known(session, world_id, _in_order(answer))
    kinds = {e.name: e.kind for e in entities_named(session, world_id, found)}
    found = [n for n in found if kinds.get(n) in ("program", "paragraph", "section")] or found
    folded = fold(message)
    if _PARAGRAPH.search(folded):
        found = [n for n in found if kinds.get(n) in ("paragraph", "section")] or found
    elif _PROGRAM.search(folded):
        found = [n for n in found if kinds.get(n) == "program"] or found
    return found[:1]
