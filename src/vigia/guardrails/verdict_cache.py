"""Input guardrails on every message of a request, not only the last one.

OpenAI-style clients resend the whole conversation with each request, including a message
that was blocked before; each of those messages is checked. A message's verdicts depend on
its text and the agent's guardrail settings only, so they are cached by a hash of both:
resent history costs one lookup per message, and a message blocked once is blocked again
whenever it is resent (under the same settings).

The checks a request needs are bounded before any of them runs: the messages not checked
before (cache misses) may total ``MAX_UNCHECKED_CHARS``, each counted as at least
``MESSAGE_FLOOR_CHARS`` (a check has a cost of its own whatever the length) and at most
``MESSAGE_CEILING_CHARS`` (what the injection check reads of a longer one, so the longest
message allowed fits); past that the request is refused (413) with nothing checked.
Between messages the check stops when the client has gone (``vigia.http.client_gone``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace

from vigia.errors import TooLarge
from vigia.guardrails.checks import check_message
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.injection_text import MAX_SEGMENTS, SEGMENT_CHARS
from vigia.guardrails.verdict import Verdict, placed
from vigia.http import client_gone
from vigia.kit.cache import LRUCache
from vigia.observability import report

CACHE_MESSAGES = 20_000
MAX_UNCHECKED_CHARS = 16_000
MESSAGE_FLOOR_CHARS = 250
MESSAGE_CEILING_CHARS = MAX_SEGMENTS * SEGMENT_CHARS  # the injection check reads no more
_VERDICTS: LRUCache[tuple[bytes, str], tuple[Verdict, ...]] = LRUCache(CACHE_MESSAGES)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def check_cost(message: str, config: GuardrailsConfig) -> int:
    """What checking ``message`` costs, in characters: nothing when only the length is
    checked, the floor when the length check blocks it (nothing else reads it)."""
    if config.injection == "off" and (config.topics == "off" or not config.blocked_topics):
        return 0
    chars = min(len(message), MESSAGE_CEILING_CHARS)
    if config.length == "block" and len(message) > config.max_message_chars:
        chars = 0
    return max(MESSAGE_FLOOR_CHARS, chars)


def _within_budget(messages: Sequence[str], config: GuardrailsConfig, settings: str) -> None:
    """Refuses (413) a request whose unchecked messages exceed ``MAX_UNCHECKED_CHARS``
    (a message repeated in the request counts once: it is checked once)."""
    total, seen = 0, set()
    for message in messages:
        digest = _digest(message)
        if digest not in seen and _VERDICTS.get((digest, settings)) is None:
            total += check_cost(message, config)
        seen.add(digest)
    if total > MAX_UNCHECKED_CHARS:
        raise TooLarge(
            f"the messages to check total {total} characters (each message counts at least "
            f"{MESSAGE_FLOOR_CHARS}); at most {MAX_UNCHECKED_CHARS} not checked before are "
            "checked per request: send fewer or shorter messages, or continue the "
            "conversation by its id"
        )


def verdicts_for(
    message: str, config: GuardrailsConfig, settings: str | None = None
) -> list[Verdict]:
    """``check_message`` of one message, from the cache when it was checked before.

    ``settings`` is ``config`` serialised (pass it when checking many messages).
    """
    key = (_digest(message), settings or config.model_dump_json())
    found = _VERDICTS.get(key)
    if found is None:
        client_gone.check()
        found = tuple(check_message(message, config))
        _VERDICTS.put(key, found)
    else:  # counted as if the checks had run again
        for v in found:
            if not v.passed:
                report.guardrail_fired(v.name, "block" if v.blocking else "log")
    return list(found)


def check_messages(messages: Sequence[str], config: GuardrailsConfig) -> list[Verdict]:
    """The input guardrails over a request: every check on each of ``messages`` (every
    message the client sent, whatever its role).

    One verdict per check, as ``check_message`` names them: it fails when it fails on any
    message, and then carries the first failing message's detail plus ``message`` (that
    message's position in ``messages``) and ``messages_failed``.
    """
    settings = config.model_dump_json()
    _within_budget(messages, config, settings)
    per_message = [(i, verdicts_for(m, config, settings)) for i, m in enumerate(messages)]
    merged: dict[str, Verdict] = {}
    failed: dict[str, int] = {}
    for position, verdicts in per_message:
        for v in verdicts:
            if v.passed:
                merged.setdefault(v.name, v)
                continue
            failed[v.name] = failed.get(v.name, 0) + 1
            if v.name not in merged or merged[v.name].passed:
                merged[v.name] = replace(v, detail=placed(v.detail, {"message": position}))
    return [
        replace(v, detail=placed(v.detail, {"messages_failed": failed[name]}))
        if not v.passed
        else v
        for name, v in merged.items()
    ]
