"""The embedded default model: a grounded extractive answerer with no generative weights.

It answers with the sentences of its sources (retrieved passages, else the agent's
instructions) that best match the message, in their own words, each passage sentence
followed by its ``[n]``. With nothing relevant it gives the agent's no-answer reply.
Deterministic: the same request always gives the same answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from vigia.language import content_terms, sentences, words
from vigia.llm.protocol import ModelEvent, ModelRequest, TextChunk, Usage
from vigia.llm.tokens import count_tokens

GREETINGS = frozenset({"hola", "buenas", "buen", "hello", "hi", "hey", "ola", "oi", "bom"})
MAX_SENTENCES = 3
MIN_OVERLAP = 0.34


@dataclass(frozen=True)
class _Candidate:
    text: str
    cite: int | None
    score: float
    order: int


def prompt_tokens(request: ModelRequest) -> int:
    """Tokens the request would take as a chat prompt (instructions, memory, passages)."""
    parts = [request.instructions, request.message]
    parts += [m.content for m in request.history]
    parts += [p.text for p in request.passages]
    return sum(count_tokens(p) for p in parts) + 4 * (len(request.history) + 2)


def _score(query: set[str], sentence: str) -> float:
    terms = set(content_terms(sentence))
    if not terms or not query:
        return 0.0
    return len(query & terms) / len(query)


def _candidates(request: ModelRequest, query: set[str]) -> list[_Candidate]:
    found: list[_Candidate] = []
    order = 0
    sources: list[tuple[str, int | None, float]] = [
        (p.text, n, p.score) for n, p in enumerate(request.passages, start=1)
    ]
    if not sources:
        sources = [(request.instructions, None, 1.0)]
    for text, cite, weight in sources:
        for sentence in sentences(text):
            score = _score(query, sentence)
            if score >= MIN_OVERLAP:
                # A small bonus for the retriever's own ranking breaks lexical ties.
                found.append(_Candidate(sentence, cite, score + 0.05 * weight, order))
            order += 1
    return found


def compose(request: ModelRequest) -> str:
    """The answer text for ``request``."""
    folded = words(request.message)
    if request.replies.greeting and folded and folded[0] in GREETINGS and len(folded) <= 4:
        return request.replies.greeting
    query = set(content_terms(request.message))
    best = sorted(_candidates(request, query), key=lambda c: (-c.score, c.order))
    chosen: list[_Candidate] = []
    seen: set[str] = set()
    for candidate in best:
        key = candidate.text.casefold()
        if key in seen:
            continue
        seen.add(key)
        chosen.append(candidate)
        if len(chosen) == MAX_SENTENCES:
            break
    if not chosen:
        return request.replies.no_answer
    chosen.sort(key=lambda c: c.order)
    rendered = []
    for c in chosen:
        text = c.text if c.text[-1:] in ".!?…" else c.text + "."
        rendered.append(f"{text} [{c.cite}]" if c.cite is not None else text)
    return " ".join(rendered)


class EmbeddedModel:
    """The offline default provider; the answer arrives sentence by sentence."""

    name = "embedded"

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        answer = compose(request)
        parts = sentences(answer) or [answer]
        for i, part in enumerate(parts):
            yield TextChunk(part if i == len(parts) - 1 else part + " ")
        yield Usage(prompt_tokens=prompt_tokens(request), completion_tokens=count_tokens(answer))
