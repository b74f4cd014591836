"""National ids checked by their check character: the Spanish DNI and NIE (check letter) and
the Brazilian CNPJ (two check digits).

- DNI: 7 or 8 digits (dots allowed, ``12.345.678``) and the letter
  ``TRWAGMYFPDXBNJZSQVHLCKE[number % 23]``: ``12345678Z``, ``12.345.678-Z``;
- NIE: ``X``, ``Y`` or ``Z`` (read as 0, 1, 2 before the digits), 7 digits and the same
  letter: ``X1234567L``, ``Y-1234567-X``;
- CNPJ: 14 digits, ``11.222.333/0001-81`` or plain, modulo-11 check digits.

A letter written apart from the number (``12345678 Z``) must be a capital, so a number
followed by a word (``12345678 y …``) is not read as an id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"
NIE_PREFIXES = {"X": "0", "Y": "1", "Z": "2"}
SPANISH_ID = re.compile(
    r"(?<![\w.,/+-])(?:([XYZxyz])[ .\-]{0,2})?(\d{1,2}\.\d{3}\.\d{3}|\d{7,8})([ .\-]{0,2})"
    r"([A-Za-z])(?!\w)"
)
_CNPJ_FIRST = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
_CNPJ_SECOND = (6, *_CNPJ_FIRST)


@dataclass(frozen=True)
class IdMatch:
    """A Spanish id found in a text: ``dni`` or ``nie``, and its span."""

    kind: str
    start: int
    end: int


def dni_letter_ok(number: str, letter: str) -> bool:
    """Whether ``letter`` is the check letter of the DNI ``number`` (digits only)."""
    return bool(number) and DNI_LETTERS[int(number) % 23] == letter.upper()


def nie_ok(prefix: str, number: str, letter: str) -> bool:
    """Whether ``prefix`` + ``number`` + ``letter`` is a valid NIE (7 digits)."""
    lead = NIE_PREFIXES.get(prefix.upper())
    return lead is not None and len(number) == 7 and dni_letter_ok(lead + number, letter)


def cnpj_ok(digits: str) -> bool:
    """Brazilian CNPJ: 14 digits, two modulo-11 check digits, not all the same digit."""
    if len(digits) != 14 or not digits.isdigit() or len(set(digits)) == 1:
        return False
    for weights in (_CNPJ_FIRST, _CNPJ_SECOND):
        size = len(weights)
        rest = sum(int(d) * w for d, w in zip(digits[:size], weights, strict=True)) % 11
        if (0 if rest < 2 else 11 - rest) != int(digits[size]):
            return False
    return True


def spanish_ids(text: str) -> list[IdMatch]:
    """Every DNI and NIE in ``text`` whose check letter is right."""
    found = []
    for match in SPANISH_ID.finditer(text):
        prefix, number, gap, letter = match.groups()
        number = number.replace(".", "")
        if gap.strip("-") and not letter.isupper():
            continue  # "12345678 y": a number and a word, not an id
        if prefix is not None:
            if nie_ok(prefix, number, letter):
                found.append(IdMatch("nie", match.start(), match.end()))
        elif dni_letter_ok(number, letter):
            found.append(IdMatch("dni", match.start(), match.end()))
    return found
