"""Input guardrails on every message of a request, not only the last one.

OpenAI-style clients resend the whole conversation with each request, including a message
that was blocked before; each of those messages is checked. A message's verdicts depend on
its text and the agent's guardrail settings only, so they are cached by a hash of both:
resent history costs one lookup per message, and a message blocked once is blocked again
whenever it is resent (under the same settings).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace

from vigia.cache import LRUCache
from vigia.guardrails.checks import check_message
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.verdict import Verdict
from vigia.observability import report

CACHE_MESSAGES = 20_000
_VERDICTS: LRUCache[tuple[bytes, str], tuple[Verdict, ...]] = LRUCache(CACHE_MESSAGES)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def verdicts_for(
    message: str, config: GuardrailsConfig, settings: str | None = None
) -> list[Verdict]:
    """``check_message`` of one message, from the cache when it was checked before.

    ``settings`` is ``config`` serialised (pass it when checking many messages).
    """
    key = (_digest(message), settings or config.model_dump_json())
    found = _VERDICTS.get(key)
    if found is None:
        found = tuple(check_message(message, config))
        _VERDICTS.put(key, found)
    else:  # counted as if the checks had run again
        for v in found:
            if not v.passed:
                report.guardrail_fired(v.name, "block" if v.blocking else "log")
    return list(found)


def check_messages(
    messages: Sequence[str], config: GuardrailsConfig, lengths_only: Sequence[str] = ()
) -> list[Verdict]:
    """The input guardrails over a request: every check on each of ``messages`` (the
    contact's, the new one last), the length check alone on ``lengths_only`` (the other
    messages the client sent, such as earlier replies).

    One verdict per check, as ``check_message`` names them: it fails when it fails on any
    message, and then carries the first failing message's detail plus ``message`` (that
    message's position in ``messages``, or ``"other"``) and ``messages_failed``.
    """
    settings = config.model_dump_json()
    per_message: list[tuple[int | str, list[Verdict]]] = [
        (i, verdicts_for(m, config, settings)) for i, m in enumerate(messages)
    ]
    if lengths_only and config.length != "off":
        length_config = config.model_copy(update={"injection": "off", "topics": "off"})
        length_settings = length_config.model_dump_json()
        per_message += [
            ("other", verdicts_for(m, length_config, length_settings)) for m in lengths_only
        ]
    merged: dict[str, Verdict] = {}
    failed: dict[str, int] = {}
    for position, verdicts in per_message:
        for v in verdicts:
            if v.passed:
                merged.setdefault(v.name, v)
                continue
            failed[v.name] = failed.get(v.name, 0) + 1
            if v.name not in merged or merged[v.name].passed:
                merged[v.name] = replace(v, detail={**v.detail, "message": position})
    return [
        replace(v, detail={**v.detail, "messages_failed": failed[name]}) if not v.passed else v
        for name, v in merged.items()
    ]
