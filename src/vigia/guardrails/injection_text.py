"""What the injection detector reads of a message: the texts it embeds and its pattern signs.

A message is embedded twice over: as a whole (its first and last 1,000 characters, where a
direct attack sits) and in segments of a few sentences (≤ 250 characters), so that an
instruction hidden in the middle of a pasted document (an indirect injection) is read on its
own instead of being averaged away by the text around it (250 read such instructions better
than 500 or 150 in cross-validation, docs/benchmarks.md).
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import NDArray

from vigia.guardrails.patterns import FAMILIES, families
from vigia.language import break_point, line_sentences

CLIP_CHARS = 1000
SEGMENT_CHARS = 250
MAX_SEGMENTS = 24
PATTERN_NAMES = (*FAMILIES, "encoded", "obfuscated", "any")
# A letter, or a unit of two or three letters, repeated four times or more in a row.
LETTER_RUN = re.compile(r"([^\W\d_]{1,3}?)\1{3,}")


def squeezed(text: str) -> str:
    """``text`` with every run of a repeated letter or 2–3-letter unit cut to three repeats.

    Chat laughter and emphasis ("kkkkkkkkkkkk", "jajajajajaja", "nooooooo") otherwise reads
    like the gibberish of adversarial suffixes: a Brazilian customer's 20 k's scored 0.61 and
    was blocked at medium. Cutting them changes no public or team prompt the detector was
    measured on (none holds such a run) and 7 of 5,560 training prompts, so the detector
    reads the squeezed message at run time while its fit (``bench/fit_injection.py``) reads
    the raw prompts. An attack keeps its words: "Ignoreeeeee" reads as "Ignoreee".
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


def pattern_features(text: str) -> NDArray[np.float32]:
    """One indicator per attack family, for encoded and spaced-letter payloads, and for any.

    "any" carries what the attack families share, so a family that the training data never
    matched (the patterns are narrow and multilingual; the data mostly English) still counts.
    """
    found = families(text)
    row = [1.0 if name in found else 0.0 for name in FAMILIES]
    row.append(1.0 if any(f.startswith("encoded_") for f in found) else 0.0)
    row.append(1.0 if "obfuscated" in found else 0.0)
    row.append(1.0 if found else 0.0)
    return np.asarray(row, dtype=np.float32)
