"""Text as a reader sees it, for matching personal data: invisible characters dropped, odd
spaces and dashes made plain.

``4111\u200b1111\u200b1111\u200b1111`` (zero-width spaces), a number grouped with
non-breaking spaces or a word joiner inside an e-mail read like their plain forms here.
Each position of the plain view maps back onto the original, so what is shown or redacted
is always the original text; a text with nothing to change is its own view.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Format characters that show nothing: soft hyphen, zero-width space/joiners, direction
# marks and embeddings, word joiner and invisible operators, byte-order mark, variation
# selectors, Mongolian vowel separator, combining grapheme joiner.
_INVISIBLE = (
    "\u00ad\u034f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufe00-\ufe0f\ufeff"
)
_SPACES = "\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_DASHES = "\u2010-\u2015\u2212\ufe58\ufe63\uff0d"
_ODD = re.compile(f"[{_INVISIBLE}{_SPACES}{_DASHES}]")
_INVISIBLE_ONE = re.compile(f"[{_INVISIBLE}]")
_SPACE_ONE = re.compile(f"[{_SPACES}]")


@dataclass(frozen=True)
class PlainText:
    """The plain view of a text and, per position of it, the original position."""

    text: str
    origin: tuple[int, ...] | None  # None: the view is the original itself

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the view's ``start:end``."""
        if self.origin is None:
            return start, end
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


def _plain_char(ch: str) -> str:
    if _INVISIBLE_ONE.match(ch):
        return ""
    if _SPACE_ONE.match(ch):
        return " "
    return "-"


def plain(text: str) -> PlainText:
    """``text`` without invisible characters, its Unicode spaces as `` `` and dashes as ``-``."""
    if not _ODD.search(text):
        return PlainText(text, None)
    out: list[str] = []
    origin: list[int] = []
    for index, ch in enumerate(text):
        shown = _plain_char(ch) if _ODD.match(ch) else ch
        if shown:
            out.append(shown)
            origin.append(index)
    origin.append(len(text))
    return PlainText("".join(out), tuple(origin))
