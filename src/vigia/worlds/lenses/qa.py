"""The qa lens: what the graph knows about the names in the question, then the code (or
documentation) that answers it best — the way to answer business questions, which name
no program or field."""

from __future__ import annotations

from vigia.worlds.lenses.common import Answer, LensInput, resolve
from vigia.worlds.lenses.describe import describe
from vigia.worlds.lenses.evidence import rank, state
from vigia.worlds.retrieval import best_line

FACT_CANDIDATES = 2
BUSINESS_CANDIDATES = 3


def _named_files(lens: LensInput, answer: Answer) -> None:
    """The lines of files the question names (``db2bind.jcl``) that match it best."""
    for path in lens.named_files[:2]:
        for hit in lens.search(lens.query, [path], limit=2):
            line, text = best_line(hit.chunk, lens.query)
            if text:
                answer.say(f"In {path}: “{text}” ({answer.cite(path, line)}).")


def run_qa(lens: LensInput) -> Answer:
    """Answers a question with facts from the graph and the code, every one cited."""
    answer = Answer("qa", steps=["resolve entities"])
    resolved = resolve(lens)
    described = set()
    if resolved.strong:
        answer.steps.append("graph: definitions and uses")
    for group in resolved.strong[:3]:
        describe(lens, group, answer)
        described.update(e.key for e in group)
    _named_files(lens, answer)
    answer.steps.append("hybrid search: words and meaning")
    wanted = FACT_CANDIDATES if resolved.strong else BUSINESS_CANDIDATES
    shown = 0
    for candidate in rank(lens, resolved):
        if shown >= wanted:
            break
        if candidate.key in described:
            continue
        lead = "The closest code is " if shown == 0 else "Also relevant: "
        if candidate.key.startswith("DOC:"):
            lead = "The documentation says: " if shown == 0 else "Also documented: "
        before = len(answer.sentences)
        state(lens, answer, candidate, lead, callers=shown == 0 or not resolved.strong)
        shown += len(answer.sentences) > before
    if not answer.sentences:
        answer.say(
            f"I found nothing about this in world {lens.world_id!r}"
            + (f" under {', '.join(lens.scope_paths)}." if lens.scope_paths else ".")
        )
    return answer
