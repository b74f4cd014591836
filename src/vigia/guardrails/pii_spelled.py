"""Personal data written to dodge a filter: obfuscated e-mails and numbers spelled in words.

- ``juan.perez [at] example [dot] com``, ``juan (arroba) mail (punto) com``,
  ``ana arroba correo punto com``: the at-sign and dots written as words in brackets (or,
  for the unambiguous Spanish/Portuguese words, bare);
- ``cuatro uno uno uno …``, ``four one one one …``: runs of digit words (es/pt/en) that
  spell 8 or more digits, read as the number they spell.

Also ``open_tail``: whether a piece of text ends in what could be the start of personal
data (digits, digit words, an address cut after its at-sign, the ``X``/``Y``/``Z`` of a
NIE), so a stream holds it back until the next sentence decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vigia.guardrails.pii_text import plain
from vigia.language import fold

_AT = r"(?:\s*@\s*|\s*[\[({<]\s*(?:at|arroba)\s*[\])}>]\s*|\s+(?:arroba)\s+)"
_DOT = r"(?:\.|\s*[\[({<]\s*(?:dot|punto|ponto)\s*[\])}>]\s*|\s+(?:punto|ponto)\s+)"
_PLAIN_AT_DOT = r"\s+at\s+(?:[a-z0-9-]+\s+dot\s+)+[a-z]{2,24}\b"
OBFUSCATED_EMAIL = re.compile(
    rf"(?<![\w.+-])[a-z0-9][\w.+-]*(?:{_AT}(?:[a-z0-9-]+{_DOT})+[a-z]{{2,24}}\b"
    rf"|{_PLAIN_AT_DOT})",
    re.IGNORECASE,
)

DIGIT_WORDS = {
    "cero": "0", "zero": "0",
    "uno": "1", "un": "1", "una": "1", "um": "1", "uma": "1", "one": "1",
    "dos": "2", "dois": "2", "duas": "2", "two": "2",
    "tres": "3", "three": "3",
    "cuatro": "4", "quatro": "4", "four": "4",
    "cinco": "5", "five": "5",
    "seis": "6", "six": "6",
    "siete": "7", "sete": "7", "seven": "7",
    "ocho": "8", "oito": "8", "eight": "8",
    "nueve": "9", "nove": "9", "nine": "9",
}  # fmt: skip
_DIGIT_WORD = "|".join(sorted(DIGIT_WORDS, key=len, reverse=True))
_TOKEN = rf"(?:{_DIGIT_WORD}|\d{{1,4}})"
SPELLED_RUN = re.compile(rf"\b{_TOKEN}(?:[\s,.\-]{{1,3}}{_TOKEN}\b){{2,}}")
MIN_SPELLED_DIGITS = 8


@dataclass(frozen=True)
class Spelled:
    """A span of ``text`` and the value it stands for (an address or a digit string)."""

    start: int
    end: int
    value: str


def obfuscated_emails(text: str) -> list[Spelled]:
    """E-mail addresses with the at-sign or dots written as words (not plain ones)."""
    out = []
    for match in OBFUSCATED_EMAIL.finditer(text):
        raw = match.group(0)
        if "@" in raw and not re.search(r"[\[({<]|\s(?:arroba|punto|ponto)\s", raw, re.I):
            continue  # a plain address: pii.EMAIL finds it
        value = re.sub(rf"{_AT}|\s+at\s+", "@", raw, flags=re.I)
        value = re.sub(rf"{_DOT}|\s+dot\s+", ".", value, flags=re.I)
        out.append(Spelled(match.start(), match.end(), value.lower()))
    return out


def spelled_numbers(text: str) -> list[Spelled]:
    """Runs of digit words (mixed with digits) spelling at least 8 digits, as digits.

    ``text`` must keep its length when folded (the caller folds per match), so spans map
    back onto the original.
    """
    folded = fold(text)
    if len(folded) != len(text):
        folded = text.lower()
    out = []
    for match in SPELLED_RUN.finditer(folded):
        tokens = re.findall(_TOKEN, match.group(0))
        if not any(t in DIGIT_WORDS for t in tokens):
            continue  # plain digits: pii.NUMERIC_RUN reads them
        digits = "".join(DIGIT_WORDS.get(t, t) for t in tokens)
        if len(digits) >= MIN_SPELLED_DIGITS:
            out.append(Spelled(match.start(), match.end(), digits))
    return out


_EMAIL_START = re.compile(
    rf"[\w.+-]+{_AT}(?:[\w-]+(?:{_DOT}[\w-]*)*)?[.!?…]?\s*$" r"|[\w.+-]+\s*[\[({<]\s*$", re.I
)
_NUMBER_END = re.compile(r"(?:[+(]\s?)?\d[\d\s.\-/()]*[.!?…:;,]?\s*$")
_WORDS_END = re.compile(rf"\b{_TOKEN}(?:[\s,.\-]{{1,3}}{_TOKEN})*[.!?…:;,]?\s*$", re.I)
_ID_START = re.compile(r"(?<!\w)[xyz][.\-]?\s*$")


def open_tail(text: str) -> bool:
    """Whether ``text`` ends in what could be the first part of personal data: digits
    (``… +54 9 11.``), digit words, an address cut after its at-sign, or the letter that
    starts a NIE (``… X.`` then ``1234567L``); invisible characters do not count."""
    tail = fold(plain(text[-120:]).text[-80:])
    return any(
        pattern.search(tail) for pattern in (_NUMBER_END, _WORDS_END, _EMAIL_START, _ID_START)
    )
