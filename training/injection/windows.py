"""The token window the injection classifier reads of a text (the same rule as at run time).

The text is read with e5's ``query: `` prefix, as the encoder was pretrained. A text of at
most ``MAX_LENGTH - 2`` content tokens is read whole; a longer one as its first
``HEAD`` and last ``MAX_LENGTH - 2 - HEAD`` content tokens, where a direct attack or
jailbreak template sits. ``vigia.guardrails.injection_tokens`` applies the same rule at run
time, and ``vigia.guardrails.injection`` also reads a long message's segments.
"""

from __future__ import annotations

from training.encoder.tokenizer import E5Tokenizer

PREFIX = "query: "
MAX_LENGTH = 128
HEAD = 96


def head_tail(content: list[int], max_length: int = MAX_LENGTH, head: int = HEAD) -> list[int]:
    """The content ids the model reads (without ``<s>``/``</s>``)."""
    room = max_length - 2
    if len(content) <= room:
        return content
    return content[:head] + content[len(content) - (room - head) :]


def window_ids(tokenizer: E5Tokenizer, text: str) -> list[int]:
    """``<s>`` + the head-and-tail content ids of ``PREFIX + text`` + ``</s>``."""
    return [tokenizer.bos, *head_tail(tokenizer.content_ids(PREFIX + text)), tokenizer.eos]
