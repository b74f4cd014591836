"""Builds chat messages for generative models from a ``ModelRequest``."""

from __future__ import annotations

from vigia.llm.protocol import ModelRequest

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


def chat_messages(request: ModelRequest) -> list[dict[str, str]]:
    """System prompt (instructions, sources, citation rules), memory, then the message."""
    system = request.instructions.strip()
    if request.passages:
        blocks = []
        for n, p in enumerate(request.passages, start=1):
            where = " · ".join(x for x in (p.document, p.heading or "") if x)
            blocks.append(f"[{n}] ({where})\n{p.text}")
        rules = CITE_RULES.get(request.language, CITE_RULES["es"])
        system += "\n\n" + rules.format(no_answer=request.no_answer)
        system += "\n\nFuentes:\n" + "\n\n".join(blocks)
    messages = [{"role": "system", "content": system}] if system else []
    for m in request.history:
        role = "assistant" if m.role in ("assistant", "operator") else "user"
        messages.append({"role": role, "content": m.content})
    messages.append({"role": "user", "content": request.message})
    return messages
