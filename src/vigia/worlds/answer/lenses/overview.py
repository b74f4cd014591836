"""What a world is and what it holds, from its catalogue (the index, no search): the answer
of a first turn with knowledge off, which searches nothing but need not say nothing."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.worlds.answer.lenses.common import Answer, listing
from vigia.worlds.answer.lenses.wording import question_language
from vigia.worlds.models import World, WorldChunk, WorldEntity, WorldFile

# File kinds (``classify``) and entity kinds, as counted nouns, in the order shown.
FILE_NOUNS = {
    "cobol": "COBOL programs",
    "copybook": "copybooks",
    "jcl": "JCL members",
    "bms": "BMS map sets",
    "markdown": "documents",
    "code": "other source files",
    "text": "text files",
}
ENTITY_NOUNS = {
    "transaction": "CICS transactions",
    "table": "DB2 tables",
    "cics_file": "CICS files",
    "queue": "queues",
    "map": "screens (maps)",
    "job": "JCL jobs",
}
SAMPLE = 6


def _file_kinds(session: Session, world_id: str) -> dict[str, int]:
    query = select(WorldFile.kind, func.count()).where(WorldFile.world_id == world_id)
    return {kind: count for kind, count in session.execute(query.group_by(WorldFile.kind))}


def _entity_kinds(session: Session, world_id: str) -> dict[str, int]:
    query = select(WorldEntity.kind, func.count(func.distinct(WorldEntity.key)))
    query = query.where(WorldEntity.world_id == world_id).group_by(WorldEntity.kind)
    return {kind: count for kind, count in session.execute(query)}


def _counted(answer: Answer, counts: dict[str, int], nouns: dict[str, str]) -> str:
    """``31 COBOL programs, 22 copybooks and 40 JCL members`` (in the answer's language)."""
    items = [f"{counts[k]} {answer.word(noun)}" for k, noun in nouns.items() if counts.get(k)]
    return listing(items, len(items), answer.lang)


def _readme(session: Session, world_id: str) -> tuple[str, str] | None:
    """The first line of prose of a README at the world's root (path, text)."""
    chunk = session.scalars(
        select(WorldChunk)
        .where(WorldChunk.world_id == world_id, func.lower(WorldChunk.path) == "readme.md")
        .order_by(WorldChunk.line_start)
    ).first()
    if chunk is None:
        return None
    for raw in chunk.text.splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", "!", "[", "<", "|", "```")):
            return chunk.path, line[:300]
    return None


def overview(session: Session, world: World, message: str, lens: str) -> Answer:
    """The world's catalogue in words, in the question's language."""
    answer = Answer(lens, lang=question_language(message), steps=["world catalogue"])
    if world.indexed_at is None:
        answer.tell(
            "World {world} is registered but not indexed yet, so nothing is known of its "
            "files: run `vigia world index {id}`.",
            world=repr(world.id),
            id=world.id,
        )
        return answer
    answer.tell(
        "World {world} holds {files} files ({lines} lines) indexed as a code base.",
        world=repr(world.id),
        files=f"{world.files:,}",
        lines=f"{world.lines:,}",
    )
    files = _counted(answer, _file_kinds(session, world.id), FILE_NOUNS)
    if files:
        answer.tell("Its files: {items}.", items=files)
    defined = _counted(answer, _entity_kinds(session, world.id), ENTITY_NOUNS)
    if defined:
        answer.tell("Its code defines {items}.", items=defined)
    programs = session.scalars(
        select(WorldEntity.name)
        .where(WorldEntity.world_id == world.id, WorldEntity.kind == "program")
        .distinct()
        .order_by(WorldEntity.name)
    ).all()
    if programs:
        shown = [*programs[:SAMPLE]]
        if len(programs) > SAMPLE:
            shown.append(f"{len(programs) - SAMPLE} {answer.word('more')}")
        answer.tell("Programs: {items}.", items=listing(shown, SAMPLE + 1, answer.lang))
    readme = _readme(session, world.id)
    if readme is not None:
        path, text = readme
        answer.tell("Its {path} begins: “{text}”.", path=path, text=text)
    return answer
