"""Personal data in text: e-mails, phone numbers, payment cards and Spanish, Portuguese and
Latin-American national ids.

Every number-shaped span is classified as a whole, so a card number is never also read as a
phone number. Ids with a check digit (card by Luhn, CUIT/CUIL, CPF, CNPJ, RUT, the Spanish
DNI/NIE letter) fire only when the check is right; look-alikes (a 16-digit number failing
Luhn, a date, an amount of money) do not fire. The Argentine DNI has no check digit: it
fires in its dotted form (``12.345.678``) or next to a word such as "DNI" or "documento",
never after a currency sign. Text is matched as a reader sees it (``pii_text.py``): a card
split by zero-width spaces or grouped by any spaces, dots or dashes is still a card, and an
e-mail cut after its at-sign (``juan.perez@. example.com``) is still an e-mail.
Obfuscated e-mails (``juan [at] mail [dot] com``) and numbers spelled in words
(``cuatro uno uno uno …``) are read as what they stand for (``pii_spelled.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vigia.guardrails.pii_ids import cnpj_ok, spanish_ids
from vigia.guardrails.pii_spelled import obfuscated_emails, spelled_numbers
from vigia.guardrails.pii_text import plain
from vigia.language import fold

EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b")
# An address cut by punctuation or a sentence end after the at-sign or a dot of its domain.
SPLIT_EMAIL = re.compile(
    r"(?<![\w.+-])[\w.+-]*\w@[\s.!?…,;:]{0,4}[A-Za-z0-9-]+(?:\.[ \t]?[A-Za-z0-9-]+)*"
    r"\.[ \t]?[A-Za-z]{2,24}\b"
)
# Digits grouped by any short run of spaces, dots, dashes and the like: a card candidate.
CARD_RUN = re.compile(r"(?<![\w.,/+-])\d(?:[ \t.\-_*·•|]{0,3}\d){12,18}(?!\w)")
RUT = re.compile(r"(?<![\w.-])(\d{1,2}\.?\d{3}\.?\d{3})-([\dkK])(?![\w])")
# A run of digits joined by single separators; a leading "+" or "(" belongs to it.
NUMERIC_RUN = re.compile(r"(?<![\w.,/-])(?:\+\s?)?\(?\d(?:[ .\-/()]{0,2}\d)*\)?(?![\w])")
DATE = re.compile(
    r"^(?:\d{1,2}[/.\-]\d{1,2}[/.\-](?:\d{2}|\d{4})|\d{4}[/.\-]\d{1,2}[/.\-]\d{1,2})$"
)
CPF_FORMAT = re.compile(r"^\d{3}\.\d{3}\.\d{3}-\d{2}$")
CNPJ_FORMAT = re.compile(r"^\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}$")
SPANISH_PHONE = re.compile(r"^[6789]\d{2}(?:[ -]\d{3}){2}$|^[6789]\d{2}(?:[ -]\d{2}){3}$")
CUIT_FORMAT = re.compile(r"^\d{2}-\d{8}-\d$")
DNI_FORMAT = re.compile(r"^\d{1,2}\.\d{3}\.\d{3}$")
CURRENCY_BEFORE = re.compile(r"(?:[$€£]|r\$|us\$|usd|ars|brl|clp|eur)\s*$")
CURRENCY_AFTER = re.compile(r"^\s*(?:pesos|reais|reales|dolares|dollars|usd|ars|brl|clp|euros)\b")
DNI_WORDS = re.compile(r"(?:\bdni|d\.n\.i|documento|\bdoc\.?)\W{0,3}(?:n\W{0,2}|nro\W{0,2})?$")
PHONE_WORDS = re.compile(
    r"(?:\btel|telefono|telefone|\bcel\b|celular|movil|whatsapp|\bwpp|\bfono|phone|\bcall"
    r"|llam\w*|ligue|ligar|contacto|contato)\W{0,12}(?:\w+\W{1,3}){0,2}$"
)
CUIT_PREFIXES = frozenset({"20", "23", "24", "25", "26", "27", "30", "33", "34"})


@dataclass(frozen=True)
class Finding:
    """One piece of personal data: its kind and where it is in the text."""

    kind: str
    value: str
    start: int
    end: int


def luhn_ok(digits: str) -> bool:
    """The Luhn check used by payment cards."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def cuit_ok(digits: str) -> bool:
    """Argentine CUIT/CUIL: 11 digits, known prefix, modulo-11 check digit."""
    if len(digits) != 11 or digits[:2] not in CUIT_PREFIXES:
        return False
    weights = (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
    rest = 11 - sum(int(d) * w for d, w in zip(digits[:10], weights, strict=True)) % 11
    check = 0 if rest == 11 else rest
    return check != 10 and check == int(digits[10])


def cpf_ok(digits: str) -> bool:
    """Brazilian CPF: 11 digits, two modulo-11 check digits, not all the same digit."""
    if len(digits) != 11 or len(set(digits)) == 1:
        return False
    for size in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:size], range(size + 1, 1, -1), strict=True))
        check = (total * 10) % 11 % 10
        if check != int(digits[size]):
            return False
    return True


def rut_ok(body: str, check: str) -> bool:
    """Chilean RUT/RUN: modulo-11 check digit (``K`` stands for 10)."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        total += int(ch) * (2 + i % 6)
    value = 11 - total % 11
    expected = "0" if value == 11 else "K" if value == 10 else str(value)
    return expected == check.upper()


def _classify_run(text: str, start: int, end: int) -> str | None:
    raw = text[start:end].strip()
    digits = re.sub(r"\D", "", raw)
    before = fold(text[max(0, start - 30) : start])
    after = fold(text[end : end + 15])
    if DATE.match(raw):
        return None
    money = bool(CURRENCY_BEFORE.search(before) or CURRENCY_AFTER.match(after))
    if len(digits) == 14 and not raw.startswith("+"):
        if CNPJ_FORMAT.match(raw):
            return "cnpj" if cnpj_ok(digits) else None
        if cnpj_ok(digits):
            return "cnpj"
    if 13 <= len(digits) <= 19 and not raw.startswith("+"):
        return "card" if luhn_ok(digits) else None
    if len(digits) == 11 and not raw.startswith("+"):
        if CPF_FORMAT.match(raw):
            return "cpf" if cpf_ok(digits) else None
        if CUIT_FORMAT.match(raw):
            return "cuit" if cuit_ok(digits) else None
        if cuit_ok(digits):
            return "cuit"
        if cpf_ok(digits):
            return "cpf"
    if money:
        return None
    if 7 <= len(digits) <= 8 and (DNI_FORMAT.match(raw) or DNI_WORDS.search(before)):
        return "dni"
    if 8 <= len(digits) <= 15 and _phone_like(raw, before):
        return "phone"
    return None


def _phone_like(raw: str, before: str) -> bool:
    if raw.startswith(("+", "(")) or PHONE_WORDS.search(before):
        return True
    if SPANISH_PHONE.match(re.sub(r"[.!?…]\s+", " ", raw)):  # also cut by a sentence end
        return True
    # Grouped like a phone (4567-8901, 11 4567 8901), not like an id or amount with dots.
    return bool(re.search(r"\d{3,4}[ -]\d{4}$", raw)) and "." not in raw


def find_personal_data(text: str) -> list[Finding]:
    """Every piece of personal data in ``text``, in order of appearance; matched on the text
    as a reader sees it (invisible characters dropped), spans and values of the original."""
    view = plain(text)
    found = []
    for finding in _find(view.text):
        start, end = view.span(finding.start, finding.end)
        found.append(Finding(finding.kind, finding.value, start, end))
    return found


def _find(text: str) -> list[Finding]:
    found: list[Finding] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    def take(kind: str, value: str, start: int, end: int) -> None:
        found.append(Finding(kind, value, start, end))
        taken.append((start, end))

    for match in EMAIL.finditer(text):
        take("email", match.group(0), *match.span())
    for match in SPLIT_EMAIL.finditer(text):
        if free(*match.span()):
            take("email", re.sub(r"@[\s.!?…,;:]*|\s+", _joined, match.group(0)), *match.span())
    for hidden in obfuscated_emails(text):
        if free(hidden.start, hidden.end):
            take("email", hidden.value, hidden.start, hidden.end)
    for match in RUT.finditer(text):
        body = match.group(1).replace(".", "")
        if free(*match.span()) and len(body) >= 7 and rut_ok(body, match.group(2)):
            take("rut", match.group(0), *match.span())
    for spanish in spanish_ids(text):
        before = fold(text[max(0, spanish.start - 30) : spanish.start])
        if free(spanish.start, spanish.end) and not CURRENCY_BEFORE.search(before):
            take(spanish.kind, text[spanish.start : spanish.end], spanish.start, spanish.end)
    for spelled in spelled_numbers(text):
        kind = _classify_spelled(spelled.value)
        if kind and free(spelled.start, spelled.end):
            take(kind, spelled.value, spelled.start, spelled.end)
    for match in CARD_RUN.finditer(text):
        digits = re.sub(r"\D", "", match.group(0))
        if free(*match.span()) and luhn_ok(digits) and not cnpj_ok(digits):
            take("card", match.group(0), *match.span())
    for match in NUMERIC_RUN.finditer(text):
        start, end = match.span()
        raw = match.group(0)
        # A trailing ")" or separator that closes nothing is not part of the number.
        while raw and not raw[-1].isdigit() and not (raw[-1] == ")" and "(" in raw):
            raw = raw[:-1]
            end -= 1
        if not free(start, end):
            continue
        kind = _classify_run(text, start, end)
        if kind:
            take(kind, text[start:end], start, end)
    return sorted(found, key=lambda f: f.start)


def _joined(match: re.Match[str]) -> str:
    """A split address's at-sign without what follows it, or a space dropped."""
    return "@" if match.group(0).startswith("@") else ""


def _classify_spelled(digits: str) -> str | None:
    """A number spelled in words: a card (Luhn), a CUIT or CPF (check digits), else a phone
    when it has a phone's length; nobody spells out a price digit by digit."""
    if 13 <= len(digits) <= 19 and luhn_ok(digits):
        return "card"
    if cnpj_ok(digits):
        return "cnpj"
    if cuit_ok(digits):
        return "cuit"
    if cpf_ok(digits):
        return "cpf"
    return "phone" if 8 <= len(digits) <= 15 else None


def redact(text: str, findings: list[Finding]) -> str:
    """``text`` with each finding replaced by ``[kind]``."""
    out = []
    last = 0
    for f in sorted(findings, key=lambda f: f.start):
        out.append(text[last : f.start])
        out.append(f"[{f.kind}]")
        last = f.end
    out.append(text[last:])
    return "".join(out)
