"""The qa lens: what the graph knows about the names in the question, then the code (or
documentation) that answers it best — the way to answer business questions, which name
no program or field."""

from __future__ import annotations

import re

from vigia.language import fold
from vigia.worlds.answer.lenses.common import Answer, LensInput, program_of, resolve
from vigia.worlds.answer.lenses.describe import describe
from vigia.worlds.answer.lenses.documents import by_answer
from vigia.worlds.answer.lenses.evidence import Candidate, rank, state
from vigia.worlds.answer.lenses.naming import asks_for_field
from vigia.worlds.answer.retrieval import best_line
from vigia.worlds.graph.keys import Kind, is_code_block, is_kind

FACT_CANDIDATES = 2
BUSINESS_CANDIDATES = 3
_PARAGRAPH = re.compile(
    r"\b(?:paragraph|section|routine|parrafo|seccion|rutina|paragrafo|secao|rotina)s?\b"
)


def _named_files(lens: LensInput, answer: Answer) -> None:
    """The lines of files the question names (``db2bind.jcl``) that match it best."""
    for path in lens.named_files[:2]:
        for hit in lens.search(lens.query, [path], limit=2):
            line, text = best_line(hit.chunk, lens.query, lens.vector, lens.message)
            if text:
                where = answer.cite(path, line)
                answer.tell("In {path}: “{text}” ({where}).", path=path, text=text, where=where)


def asks_for_paragraph(message: str) -> bool:
    return bool(_PARAGRAPH.search(fold(message)))


def ordered(
    candidates: list[Candidate], paragraphs_first: bool, fields_first: bool = False
) -> list[tuple[Candidate, bool]]:
    """Candidates to state in order, each with whether it completes the one before: a
    program is followed by its best paragraph among the candidates (the program says
    where, the paragraph says what); when the question asks for a paragraph, paragraphs
    come first, and for a field, data items."""
    if paragraphs_first:
        candidates = sorted(candidates, key=lambda c: not is_code_block(c.key))
    if fields_first:
        candidates = sorted(candidates, key=lambda c: not is_kind(c.key, Kind.DATA))
    out: list[tuple[Candidate, bool]] = []
    taken: set[str] = set()
    for candidate in candidates:
        if candidate.key in taken:
            continue
        out.append((candidate, False))
        taken.add(candidate.key)
        if is_kind(candidate.key, Kind.PGM):
            program = program_of(candidate.key)
            inner = next(
                (
                    c
                    for c in candidates
                    if c.key not in taken and is_code_block(c.key) and program_of(c.key) == program
                ),
                None,
            )
            if inner is not None:
                out.append((inner, True))
                taken.add(inner.key)
    return out


def run_qa(lens: LensInput) -> Answer:
    """Answers a question with facts from the graph and the code, every one cited."""
    answer = Answer("qa", lang=lens.lang, steps=["resolve entities"])
    resolved = resolve(lens)
    described: set[str] = set()
    if resolved.strong:
        answer.steps.append("graph: definitions and uses")
    for group in resolved.strong[:3]:
        describe(lens, group, answer)
        described.update(e.key for e in group)
    _named_files(lens, answer)
    answer.steps.append("hybrid search: words and meaning")
    wanted = FACT_CANDIDATES if resolved.strong else BUSINESS_CANDIDATES
    shown = 0
    ranked = by_answer(lens, rank(lens, resolved))
    fields = asks_for_field(lens.message)
    for candidate, completes in ordered(ranked, asks_for_paragraph(lens.message), fields):
        if shown >= wanted and not completes:
            break
        if candidate.key in described:
            continue
        lead = answer.word("The closest code is " if shown == 0 else "Also relevant: ")
        if completes:
            lead = answer.word(
                "In {program}, the closest paragraph is ", program=program_of(candidate.key)
            )
        if is_kind(candidate.key, Kind.DOC):
            lead = answer.word("The documentation says: " if shown == 0 else "Also documented: ")
        before = len(answer.sentences)
        callers = not completes and (shown == 0 or not resolved.strong)
        state(lens, answer, candidate, lead, callers=callers)
        shown += len(answer.sentences) > before and not completes
    if not answer.sentences:
        under = ", ".join(lens.scope_paths)
        answer.tell(
            "I found nothing about this in world {world}{under}.",
            world=repr(lens.world_id),
            under=answer.word(" under {paths}", paths=under) if under else "",
        )
    return answer
