"""A JSON body as text: decoded once, in whichever encoding JSON allows, with bounded nesting.

JSON may come as UTF-8 (with or without a byte-order mark), UTF-16 or UTF-32, told apart
by its first bytes (RFC 8259 §8.1, RFC 4627 §3); Python's ``json.loads`` accepts all five,
so every route did too. ``decode`` reads them the way ``json.loads`` does (lone surrogates
pass through, to be refused by name later) and fails on bytes no encoding can read.

``non_finite`` finds ``NaN``, ``Infinity`` or ``-Infinity`` used as a value: no JSON text
holds them (RFC 8259 §6), ``json.loads`` accepts them, and a route that took one stored or
computed with a number no JSON response can carry back.

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


class _NonFinite(Exception):
    """Raised by the parser at the first non-finite constant; carries its spelling."""


def _refuse(constant: str) -> float:
    raise _NonFinite(constant)


def non_finite(text: str) -> str | None:
    """The first ``NaN``, ``Infinity`` or ``-Infinity`` a JSON text holds as a value (not in
    a string), or None; None too for malformed JSON, which the route reports."""
    if "NaN" not in text and "Infinity" not in text:
        return None  # the common case: no parse
    try:
        json.loads(text, parse_constant=_refuse)
    except _NonFinite as found:
        return str(found)
    except ValueError:
        return None
    return None


def depth(text: str) -> int:
    """How deep arrays and objects nest in a JSON text (brackets inside strings ignored)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))
