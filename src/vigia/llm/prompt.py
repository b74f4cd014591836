"""Builds chat messages for generative models from a ``ModelRequest``."""

from __future__ import annotations

from typing import Any

from vigia.llm.protocol import ChatMessage, ModelRequest, openai_tool_calls

CITE_RULES = {
    "es": (
        "Respondé solo con la información de las fuentes numeradas. Después de cada frase que "
        "use una fuente, poné su número entre corchetes, por ejemplo [1]. Si las fuentes no "
        "alcanzan, respondé exactamente: {no_answer}"
    ),
    "pt": (
        "Responda apenas com as informações das fontes numeradas. Depois de cada frase que use "
        "uma fonte, coloque o número entre colchetes, por exemplo [1]. Se as fontes não "
        "bastarem, responda exatamente: {no_answer}"
    ),
    "en": (
        "Answer only from the numbered sources. After each sentence that uses a source, put "
        "its number in square brackets, e.g. [1]. If the sources are not enough, answer "
        "exactly: {no_answer}"
    ),
}


def _remembered(m: ChatMessage) -> dict[str, Any] | None:
    """A message of an earlier exchange: its text only (their tool calls are not replayed)."""
    if m.role == "tool" or not m.content:
        return None
    return {
        "role": "assistant" if m.role in ("assistant", "operator") else "user",
        "content": m.content,
    }


def _in_turn(m: ChatMessage) -> dict[str, Any]:
    """A message of the current turn after the user's: tool calls and results as they are."""
    if m.role == "tool":
        return {"role": "tool", "tool_call_id": m.tool_call_id or "", "content": m.content}
    out: dict[str, Any] = {"role": "assistant", "content": m.content or None}
    if m.tool_calls:
        out["tool_calls"] = openai_tool_calls(m.tool_calls)
    return out


def chat_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """System prompt (instructions, sources, citation rules), memory, the message, then the
    turn's tool calls and results."""
    system = request.instructions.strip()
    if request.passages:
        blocks = []
        for n, p in enumerate(request.passages, start=1):
            where = " · ".join(x for x in (p.document, p.heading or "") if x)
            blocks.append(f"[{n}] ({where})\n{p.text}")
        rules = CITE_RULES.get(request.language, CITE_RULES["es"])
        system += "\n\n" + rules.format(no_answer=request.no_answer)
        system += "\n\nFuentes:\n" + "\n\n".join(blocks)
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    messages += [m for m in map(_remembered, request.history) if m is not None]
    messages.append({"role": "user", "content": request.message})
    messages += [_in_turn(m) for m in request.continuation]
    return messages
