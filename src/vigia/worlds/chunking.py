"""Splits a file into passages for full-text search, at paragraph or heading boundaries."""

from __future__ import annotations

MAX_CHUNK_LINES = 30


def chunk_lines(text: str, kind: str, starts: set[int]) -> list[tuple[int, int, str]]:
    """``(line_start, line_end, text)`` passages; a new one begins at each line of ``starts``,
    at Markdown headings, or after ``MAX_CHUNK_LINES`` lines."""
    lines = text.splitlines()
    chunks: list[tuple[int, int, str]] = []
    begin = 0
    for index, line in enumerate(lines):
        number = index + 1
        boundary = number in starts or (kind == "markdown" and line.startswith("#"))
        if index > begin and (boundary or index - begin >= MAX_CHUNK_LINES):
            body = "\n".join(lines[begin:index])
            if body.strip():
                chunks.append((begin + 1, index, body))
            begin = index
    body = "\n".join(lines[begin:])
    if body.strip():
        chunks.append((begin + 1, len(lines), body))
    return chunks
