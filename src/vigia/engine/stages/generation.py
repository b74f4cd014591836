"""The generation stage: the model answers, and each sentence passes the output guardrails.

Sentences are released one by one as they are complete and checked (a sentence ending in
what could start personal data waits for the next one); citation markers are renumbered in
order of use, and the cited passages' snippets are redacted like the reply. When a sentence
is blocked the reply stops there and the agent's safe-output text follows what was already
sent.

A structured reply (``response_format`` JSON) is held until the model is done and checked
whole: it is released as it came, or not at all, and then the safe-output text is the
turn's refusal (``TextDelta.refusal``), never prose in place of the JSON.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from typing import Any

from vigia.db.base import utcnow
from vigia.engine.citations import CitationMap
from vigia.engine.events import TextDelta
from vigia.engine.stages.input_guardrails import verdict_detail
from vigia.engine.stages.output_guardrails import OutputChecker
from vigia.engine.stages.sentences import SentenceBuffer
from vigia.engine.stages.tool_setup import offered_tools
from vigia.engine.stages.tools import ToolLoop
from vigia.engine.trace import StageRecord
from vigia.engine.turn import Turn
from vigia.guardrails.pii_spelled import open_tail
from vigia.http import client_gone
from vigia.kit.turn_status import TurnStatus
from vigia.llm.protocol import Model, ModelRequest
from vigia.llm.registry import model_for


def model_request(turn: Turn) -> ModelRequest:
    """What the model gets for the turn."""
    config = turn.config
    return ModelRequest(
        instructions=config.instructions,
        message=turn.message,
        history=turn.history,
        passages=turn.passages,
        no_answer=config.replies.no_answer,
        greeting=config.replies.greeting,
        settings=config.model,
        language=config.language,
        incremental=turn.request.streamed,
        continuation=turn.continuation,
        tools=offered_tools(turn),
        tool_choice=turn.request.tool_choice,
        parallel_tool_calls=turn.request.parallel_tool_calls,
        response_format=turn.request.response_format,
    )


class Generation:
    """One turn's generation; iterate ``stream()``, then read status, content and usage."""

    def __init__(self, turn: Turn, model: Model | None = None) -> None:
        self.turn = turn
        self.model = model or model_for(turn.config.model)
        self.checker = OutputChecker(turn)
        self.loop = ToolLoop(
            turn, self.model, lambda: model_request(turn), self.checker.add_sources
        )
        self.citations = CitationMap(
            turn.passages,
            enabled=not turn.request.structured,
            redact=self.checker.redact_snippet,
            attribute=not getattr(self.model, "writes_markers", False),
        )
        self.status: TurnStatus = "ok"
        self.content = ""
        self.record = StageRecord("generation", utcnow(), detail={"model": self.model.name})
        self.checks = StageRecord("output_guardrails", utcnow())
        self._fired: list[dict[str, Any]] = []

    def _release(self, sentence: str) -> str | None:
        """The sentence as sent (markers renumbered), or None when a check blocks it."""
        t0 = time.perf_counter()
        structured = self.turn.request.structured
        fired = self.checker.check_whole(sentence) if structured else self.checker.check(sentence)
        self.checks.duration_ms += (time.perf_counter() - t0) * 1000
        self.turn.note_fired([v.name for v in fired])
        self._fired += verdict_detail(fired)
        if any(v.blocking for v in fired):
            self.status = "blocked"
            self.checks.outcome = "blocked"
            return None
        return sentence if structured else self.citations.rewrite(sentence)

    def _whole(self) -> Generator[str]:
        """A structured reply: the model's whole text, once it is done (none past the
        tools limit)."""
        said = []
        for chunk in self.loop.stream():
            client_gone.check()
            said.append(chunk.text)
        text = "".join(said).strip()
        if text and not self.loop.limit_reached:
            yield text

    def _sentences(self) -> Generator[str]:
        buffer = SentenceBuffer(hold=open_tail if self.checker.reads_personal_data else None)
        for chunk in self.loop.stream():
            client_gone.check()
            yield from buffer.feed(chunk.text)
        yield from buffer.flush()

    def stream(self) -> Iterator[TextDelta]:
        """Checked text; the records' durations split model time from check time."""
        started = time.perf_counter()
        sentences = self._whole() if self.turn.request.structured else self._sentences()
        try:
            for sentence in sentences:
                text = self._release(sentence)
                if text is None:
                    break
                self.content += text
                yield TextDelta(text)
        except Exception as error:
            self.record.outcome = "error"
            self.record.detail["error"] = getattr(error, "code", type(error).__name__)
            raise
        finally:
            sentences.close()
            total = (time.perf_counter() - started) * 1000
            self.record.duration_ms = total - self.checks.duration_ms - self.loop.tool_ms
            self.record.detail.update(self.loop.detail())
            self.checks.detail = {"fired": self._fired}
        if self.status == "ok" and self.loop.limit_reached:
            self.status = "tool_limit"
        replies = self.turn.config.replies
        safe = {"blocked": replies.safe_output, "tool_limit": replies.no_answer}.get(self.status)
        if safe is not None:
            separator = " " if self.content and not self.content.endswith((" ", "\n")) else ""
            self.content += separator + safe
            yield TextDelta(separator + safe, refusal=self.turn.request.structured)
