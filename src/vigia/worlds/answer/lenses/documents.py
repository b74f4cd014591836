"""Documentation candidates ordered by the sentence that answers: a passage found by the
search is only as good as its best sentence for the question (words, meaning, a value
stated when one is asked for), so the documentation passages near the top of a ranking
are put in the order of their best sentences' scores weighed by the search's score (squared), each
keeping that quote."""

from __future__ import annotations

from vigia.worlds.answer.doc_quote import answer_in
from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.answer.lenses.evidence import Candidate
from vigia.worlds.answer.retrieval import ChunkHit
from vigia.worlds.graph.keys import Kind, is_kind

RERANKED = 6  # documentation passages weighed by their sentences (each costs an encoding)
# The search's score, relative to the best, weighs a sentence's score to this power: a
# passage found far down needs a much better sentence to move up.
SEARCH_WEIGHT = 2


def by_answer(lens: LensInput, candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` with the first ``RERANKED`` documentation ones reordered by their
    best sentence, in the slots they held (code candidates keep their places)."""
    slots = [
        (i, c, c.hit)
        for i, c in enumerate(candidates)
        if is_kind(c.key, Kind.DOC) and c.hit is not None
    ][:RERANKED]
    if len(slots) < 2:
        return candidates
    for _i, candidate, hit in slots:
        chunk = hit.chunk
        candidate.quote = answer_in(
            chunk.text, chunk.line_start, lens.query, lens.vector, lens.message
        )
    top = max(hit.score for _i, _c, hit in slots) or 1.0

    def weight(entry: tuple[int, Candidate, ChunkHit]) -> float:
        _i, candidate, hit = entry
        said = candidate.quote.score if candidate.quote is not None else 0.0
        return said * (hit.score / top) ** SEARCH_WEIGHT  # the search's ranking counts

    best = [c for _i, c, _h in sorted(slots, key=lambda e: -weight(e))]
    out = list(candidates)
    for (slot, _c, _h), candidate in zip(slots, best, strict=True):
        out[slot] = candidate
    return out
