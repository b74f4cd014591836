"""What an upstream model answers, made text every response and database can hold.

An upstream's JSON may spell a lone UTF-16 surrogate (``"\\ud800"``) or NUL (``"\\u0000"``);
``json.loads`` reads both. Relayed as they are, the surrogate fails the UTF-8 encoding of
the response (a 500, or a stream cut short) and NUL fails PostgreSQL's text. Requests refuse
them by name (``vigia.http.unstorable``); a model's answer is not refused but mended: each
such character becomes U+FFFD, the replacement character, as a decoder does with bytes it
cannot read.
"""

from __future__ import annotations

import json
import re
from typing import Any

REPLACEMENT = "\ufffd"
# What may decode to a surrogate or NUL in JSON text: its escape, or the raw character.
_MAYBE = re.compile(r"\\u(?:[dD][89a-fA-F]|0000)|[\x00\ud800-\udfff]")
_UNREADABLE = re.compile("[\x00\ud800-\udfff]")


def mended(value: Any) -> Any:
    """``value`` (decoded JSON) with every lone surrogate and NUL in its strings and keys
    replaced by U+FFFD; a valid surrogate pair is one character once decoded, and stays."""
    if isinstance(value, str):
        return _UNREADABLE.sub(REPLACEMENT, value)
    if isinstance(value, dict):
        return {mended(k): mended(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mended(item) for item in value]
    return value


def loads(text: str) -> Any:
    """``json.loads(text)``, mended; the common text with nothing to mend is not walked."""
    decoded = json.loads(text)
    return mended(decoded) if _MAYBE.search(text) else decoded
