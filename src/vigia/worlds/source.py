"""Source lines as people read them: fixed-format COBOL areas respected, quotes never cut
a word.

Fixed format: columns 1–6 are the sequence area, column 7 the indicator (``*`` or ``/``
comment, ``-`` continuation, ``D`` debugging line), columns 8–72 the code, 73–80 the
identification area. A quote shows columns 8–72 only (a comment keeps its text, without
the ``*``); free-format files and every other kind of file are quoted as written. A quote
longer than the limit ends at the last whole word, followed by ``…``.
"""

from __future__ import annotations

import re

QUOTE_CHARS = 160
_COMMENT_MARKS = re.compile(r"^[*/=\-\s]+|[*/=\-\s]+$")


def code_area(raw: str, fixed: bool) -> tuple[str, str]:
    """``(indicator, code)`` of one raw line: columns 7 and 8–72 in fixed format."""
    line = raw.expandtabs(8).rstrip("\r\n")
    if not fixed:
        return "", line
    return line[6:7], line[7:72]


def is_comment(raw: str, fixed: bool) -> bool:
    """A fixed-format comment (``*``, ``/``) or a floating ``*>`` comment line."""
    indicator, code = code_area(raw, fixed)
    return indicator in ("*", "/") or code.lstrip().startswith("*>")


def readable(raw: str, fixed: bool) -> str:
    """The line's text without sequence, indicator and identification areas, blanks folded;
    a comment loses its ``*`` and decoration."""
    _indicator, code = code_area(raw, fixed)
    text = " ".join(code.split())
    if is_comment(raw, fixed):
        text = _COMMENT_MARKS.sub("", text.removeprefix("*>")).strip()
    return text


def shorten(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut at the last whole word within ``limit`` characters (``…`` added)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit + 1)  # a word may end right at the limit
    return (text[:cut] if cut > 0 else text[:limit]).rstrip(" ,;:") + " …"


def quote(raw: str, fixed: bool, limit: int = QUOTE_CHARS) -> str:
    """What an answer quotes of one source line."""
    return shorten(readable(raw, fixed), limit)
