"""A JSON body as text: decoded once, in whichever encoding JSON allows, with bounded nesting.

JSON may come as UTF-8 (with or without a byte-order mark), UTF-16 or UTF-32, told apart
by its first bytes (RFC 8259 §8.1, RFC 4627 §3); Python's ``json.loads`` accepts all five,
so every route did too. ``decode`` reads them the way ``json.loads`` does (lone surrogates
pass through, to be refused by name later) and fails on bytes no encoding can read.

``depth`` counts how deep arrays and objects nest, outside strings, in linear time and
without recursion: a parser that recurses per level (``json.loads``, pydantic, our own
walkers) fails with ``RecursionError`` on a body of 100 000 ``[``.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

MAX_DEPTH = 64
"""The deepest nesting a request body may have; no request model comes near it."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class UndecodableJson(ValueError):
    """Bytes that are no text in any JSON encoding."""


def encoding_of(body: bytes) -> str:
    """The encoding of a JSON text (``utf-8``, ``utf-8-sig``, ``utf-16…``, ``utf-32…``)."""
    return json.detect_encoding(body)


def decode(body: bytes) -> str:
    """The text of a JSON body, as ``json.loads`` would read it; raises ``UndecodableJson``."""
    try:
        return body.decode(encoding_of(body), "surrogatepass")
    except UnicodeDecodeError as exc:
        raise UndecodableJson(str(exc)) from None


def depth(text: str) -> int:
    """How deep arrays and objects nest in a JSON text (brackets inside strings ignored)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))
