"""What a file says about itself: the purpose text of a header comment block (COBOL programs
and copybooks, JCL jobs), without the box drawing, copyright and licence lines around it."""

from __future__ import annotations

import re

MAX_PURPOSE = 600
_BOILERPLATE = re.compile(
    r"copyright|\(c\)|all rights reserved|licen[cs]ed materials|property of|"
    r"restricted (rights|materials)|gsa adp|use, duplication|disclosure restricted|"
    r"contract with|government users|"
    r"^(program|module|member|author|written by)\s*(name|id)?\s*[:=]|"
    r"^date[- ](written|compiled)|^version\b",
    re.I,
)
MAX_SENTENCES = 3
# A comment line that lays out a record or a table (rulers, column headings) says no purpose.
_LAYOUT = re.compile(r"-{3,}|\.{4,}|_{3,}|\s{6,}\S|<==|==>")
_DECORATION = "*-=_#/+| "


def comment_text(text: str) -> str:
    """A comment line's words, without the box drawing on either side."""
    return text.strip(_DECORATION).strip()


def purpose(comments: list[str]) -> str | None:
    """The purpose text of a comment block (its lines, decoration included), or None.

    Copyright, licence and author lines are dropped, and so are lines that lay out a record
    (rulers, column headings); a blank comment line ends a sentence, so a title line and
    the paragraph under it do not run together. At most three sentences are kept, and none
    after a short heading that ends with a colon ("Linkage:"), which introduces a listing."""
    sentences: list[str] = []
    current: list[str] = []
    for raw in [*comments, ""]:
        text = comment_text(raw)
        if text and (_BOILERPLATE.search(text) or _LAYOUT.search(text)):
            text = ""
        heading = text.endswith(":") and len(text.split()) <= 4 and bool(sentences or current)
        if text and any(ch.isalpha() for ch in text) and not heading:
            current.append(text)
            continue
        if current:
            sentences.append(" ".join(current))
            current = []
        if heading or len(sentences) == MAX_SENTENCES:
            break  # what follows a heading such as "Linkage:" is a listing, not a purpose
    ended = [s if s[-1] in ".:;!?" else s + "." for s in sentences[:-1]]
    return " ".join([*ended, *sentences[-1:]])[:MAX_PURPOSE] or None
