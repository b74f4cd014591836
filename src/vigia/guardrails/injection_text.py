"""What the injection detector reads of a long message: its clipped whole and its segments.

A long message is read twice over: as a whole (its first and last 1,000 characters, where a
direct attack sits) and in segments of a few sentences (≤ 250 characters), so that an
instruction hidden in the middle of a pasted document (an indirect injection) is read on its
own instead of being diluted by the text around it.
"""

from __future__ import annotations

import re

import numpy as np

from vigia.language import break_point, line_sentences

CLIP_CHARS = 1000
SEGMENT_CHARS = 250
MAX_SEGMENTS = 24
# A letter, or a unit of two or three letters, repeated four times or more in a row.
LETTER_RUN = re.compile(r"([^\W\d_]{1,3}?)\1{3,}")


def squeezed(text: str) -> str:
    """``text`` with every run of a repeated letter or 2–3-letter unit cut to three repeats.

    Chat laughter and emphasis ("kkkkkkkkkkkk", "jajajajajaja", "nooooooo") otherwise reads
    like the gibberish of adversarial suffixes: a Brazilian customer's 20 k's scored 0.61 and
    was blocked at medium (with 1.2.0). Run time only: the classifier is trained on the raw
    prompts (7 of the 5,560 shared training prompts hold such a run). An attack keeps its
    words: "Ignoreeeeee" reads as "Ignoreee".
    """
    return LETTER_RUN.sub(lambda run: run.group(1) * 3, text)


def clipped(text: str, chars: int = CLIP_CHARS) -> str:
    """The first and last ``chars`` characters of ``text`` (all of a shorter one)."""
    if len(text) <= 2 * chars:
        return text
    return text[:chars] + " … " + text[-chars:]


def segments(text: str, size: int = SEGMENT_CHARS) -> list[str]:
    """Consecutive runs of whole sentences of at most ``size`` characters.

    A text that short is its own single segment. Past ``MAX_SEGMENTS``, segments are taken
    evenly from the start to the end (a 100,000-character message costs 24 embeddings
    besides its whole).
    """
    text = text.strip()
    if len(text) <= size:
        return [text] if text else []
    out: list[str] = []
    current = ""
    for sentence in line_sentences(text):
        while len(sentence) > size:
            cut = break_point(sentence, size)
            head, sentence = sentence[:cut], sentence[cut:]
            if current:
                out.append(current)
                current = ""
            out.append(head.strip())
        if current and len(current) + 1 + len(sentence) > size:
            out.append(current)
            current = ""
        current = f"{current} {sentence}" if current else sentence
    if current:
        out.append(current)
    if len(out) > MAX_SEGMENTS:
        picks = np.linspace(0, len(out) - 1, MAX_SEGMENTS).round().astype(int)
        out = [out[i] for i in dict.fromkeys(picks.tolist())]
    return out
