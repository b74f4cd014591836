"""The qa lens: what the graph knows about the named entities, plus the best passages."""

from __future__ import annotations

from vigia.worlds.lenses.common import (
    Answer,
    LensInput,
    clean_line,
    resolve_entities,
    search_passages,
)
from vigia.worlds.lenses.describe import describe

DOC_KINDS = (".md", ".markdown", ".rst", ".txt")


def add_passages(lens: LensInput, answer: Answer, with_code: bool, limit: int = 3) -> None:
    """Quotes the best documentation lines (and code lines when ``with_code``), cited."""
    quoted = 0
    for hit, line, text in search_passages(lens, limit=8):
        is_doc = hit.path.lower().endswith(DOC_KINDS)
        if not (is_doc or with_code) or not text:
            continue
        cite = answer.cite(hit.path, line)
        source = "The documentation says" if is_doc else "The code has"
        answer.say(f"{source}: “{clean_line(text, hit.path)}” ({cite}).")
        answer.details.setdefault("passages", []).append(
            {"doc_id": hit.path, "line": line, "text": clean_line(text, hit.path)}
        )
        quoted += 1
        if quoted >= limit:
            break


def run_qa(lens: LensInput) -> Answer:
    """Answers a question with facts from the graph and the text, every one cited."""
    answer = Answer("qa", steps=["resolve entities"])
    groups = resolve_entities(lens)
    if groups:
        answer.steps.append("graph: definitions and uses")
    for group in groups[:3]:
        describe(lens, group, answer)
    answer.steps.append("full-text search")
    add_passages(lens, answer, with_code=not groups)
    if not answer.sentences:
        answer.say(
            f"I found nothing about this in world {lens.world_id!r}"
            + (f" under {', '.join(lens.scope_paths)}." if lens.scope_paths else ".")
        )
    return answer
