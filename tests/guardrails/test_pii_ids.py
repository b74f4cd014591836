"""Personal data written to slip past a filter: Spanish DNI/NIE with their check letter,
Brazilian CPF/CNPJ, cards split by invisible characters or any separators, e-mails cut
after the at-sign, Spanish phones; each fires on a valid value and stays quiet on
look-alikes, and a stream holds back a piece that a later one can still complete."""

from __future__ import annotations

import pytest

from vigia.engine.stages.sentences import MAX_PENDING_CHARS, SentenceBuffer
from vigia.guardrails.pii import find_personal_data, redact
from vigia.guardrails.pii_ids import cnpj_ok, dni_letter_ok, nie_ok
from vigia.guardrails.pii_spelled import open_tail
from vigia.guardrails.pii_text import plain

ZWSP, WJ, NBSP = "\u200b", "\u2060", "\u00a0"


def kinds(text: str) -> list[str]:
    return [f.kind for f in find_personal_data(text)]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("DNI 12345678Z.", "dni"),
        ("Su documento es 12.345.678-Z, según la póliza.", "dni"),
        ("El 12345678 Z figura en la póliza.", "dni"),
        ("El NIE X1234567L figura en la póliza.", "nie"),
        ("NIE: Y-1234567-X", "nie"),
        ("O CNPJ da empresa é 11.222.333/0001-81.", "cnpj"),
        ("cnpj 11222333000181", "cnpj"),
        ("O CPF 529.982.247-25 está ativo.", "cpf"),
        ("cpf 52998224725", "cpf"),
        (f"La tarjeta 4111{ZWSP}1111{ZWSP}1111{ZWSP}1111 quedó registrada.", "card"),
        (f"La tarjeta 4111{WJ}1111\ufeff1111\u200c1111 quedó registrada.", "card"),
        (f"La tarjeta 4111{NBSP}1111{NBSP}1111{NBSP}1111 quedó registrada.", "card"),
        ("La tarjeta 4111 - 1111 - 1111 - 1111 quedó registrada.", "card"),
        ("La tarjeta 4111.1111.1111.1111 quedó registrada.", "card"),
        ("La tarjeta 4111_1111_1111_1111 quedó registrada.", "card"),
        ("La tarjeta 4111\u20131111\u20131111\u20131111 quedó registrada.", "card"),
        ("Escribile a juan.perez@. example.com cuando quieras.", "email"),
        ("Escribile a juan.perez@. Example.com cuando quieras.", "email"),
        ("Escribile a juan.perez@example. com cuando quieras.", "email"),
        (f"Escribile a juan{ZWSP}.perez@{ZWSP}example.com cuando quieras.", "email"),
        ("Llamá al 612 345 678 cuando quieras.", "phone"),
        ("Llamá al 612 34 56 78 cuando quieras.", "phone"),
        ("Llamá al 612. 345 678 cuando quieras.", "phone"),
    ],
)
def test_each_pattern_fires_on_a_valid_value(text: str, kind: str) -> None:
    assert kinds(text) == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "Su pedido 12345678A ya salió.",  # wrong DNI letter
        "El NIE X1234567A no existe.",  # wrong NIE letter
        "El 12345678 y el 87654321 son pedidos.",  # a number and a word, not a letter
        "Tenemos 12345678 unidades.",
        "Orden 11.222.333/0001-82",  # CNPJ with a wrong check digit
        "CNPJ 11.111.111/1111-11",  # all the same digit
        "El número 4111 1111 1111 1112 no es una tarjeta válida.",  # fails Luhn
        f"El número 4111{ZWSP}1111{ZWSP}1111{ZWSP}1112 no es válido.",
        "Versión 1.2.3 y 4.5.6 del sistema.",
        "Versión 2.10.12345678 publicada.",
        "La póliza vence el 17/05/2024 a las 10:30.",
        "Cuesta 1.234,56 € con IVA.",
        "Son € 12.345.678 T de facturación.",
        "Son 700.000.000 de personas.",
        "Total 612 345 678 pesos.",
        "Seguinos en @tienda.oficial para novedades.",
        "Referencia ABC-12345678-Z2 del envío.",
    ],
)
def test_look_alikes_do_not_fire(text: str) -> None:
    assert kinds(text) == []


def test_check_characters_accept_known_good_values() -> None:
    assert dni_letter_ok("12345678", "Z") and not dni_letter_ok("12345678", "A")
    assert nie_ok("X", "1234567", "L") and not nie_ok("X", "1234567", "A")
    assert nie_ok("Y", "1234567", "X") and not nie_ok("Q", "1234567", "L")
    assert cnpj_ok("11222333000181") and not cnpj_ok("11222333000182")


def test_invisible_characters_are_redacted_in_place_and_shown_unchanged_otherwise() -> None:
    text = f"Tarjeta 4111{ZWSP}1111{ZWSP}1111{ZWSP}1111, gracias{ZWSP}."
    assert redact(text, find_personal_data(text)) == f"Tarjeta [card], gracias{ZWSP}."
    clean = f"Hola{ZWSP} mundo{NBSP}querido."
    assert find_personal_data(clean) == [] and plain(clean).text == "Hola mundo querido."


@pytest.mark.parametrize(
    ("text", "open"),
    [
        ("El número es 12345678.", True),
        ("Mi NIE es X.", True),
        ("Escribile a juan.perez@.", True),
        (f"La tarjeta es 4111{ZWSP}1111{ZWSP}.", True),
        ("Atendemos de lunes a viernes.", False),
    ],
)
def test_open_tail_holds_what_a_later_sentence_can_complete(text: str, open: bool) -> None:
    assert open_tail(text) is open


def test_a_run_with_no_sentence_end_is_never_cut_inside_a_number() -> None:
    filler = "palabra " * (MAX_PENDING_CHARS // 8 - 2)
    text = filler + "la tarjeta 4111 1111 1111 1111 y el resto sin punto " * 3
    buffer = SentenceBuffer(hold=open_tail)
    pieces = [p for i in range(0, len(text), 7) for p in buffer.feed(text[i : i + 7])]
    pieces += list(buffer.flush())
    assert "".join(pieces) == text and len(pieces) > 1
    assert all(kinds(piece).count("card") == piece.count("4111") for piece in pieces)
