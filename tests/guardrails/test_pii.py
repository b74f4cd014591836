"""Personal-data detection: each kind fires on a valid value and stays quiet on look-alikes."""

from __future__ import annotations

import pytest

from vigia.guardrails.pii import cpf_ok, cuit_ok, find_personal_data, luhn_ok, redact, rut_ok
from vigia.guardrails.pii_spelled import open_tail


def kinds(text: str) -> list[str]:
    return [f.kind for f in find_personal_data(text)]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Escribile a juan.perez@gmail.com para coordinar.", "email"),
        ("Mi celular es +54 9 11 4567-8901.", "phone"),
        ("Llamá al 011 4567-8901 de 9 a 18.", "phone"),
        ("Telefone: (11) 91234-5678", "phone"),
        ("Call us at +1 415 555 0100.", "phone"),
        ("La tarjeta 4111 1111 1111 1111 quedó registrada.", "card"),
        ("Card 5500-0000-0000-0004 on file.", "card"),
        ("Su DNI es 30.123.456.", "dni"),
        ("DNI 30123456", "dni"),
        ("El CUIT de la empresa es 20-12345678-6.", "cuit"),
        ("CUIL 27333333339", "cuit"),
        ("O CPF do titular é 529.982.247-25.", "cpf"),
        ("cpf 52998224725", "cpf"),
        ("El RUT 12.345.678-5 figura en la póliza.", "rut"),
    ],
)
def test_each_kind_of_personal_data_is_found(text: str, kind: str) -> None:
    assert kinds(text) == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "El número 4111 1111 1111 1112 no es una tarjeta válida.",  # 16 digits failing Luhn
        "La póliza vence el 17/05/2024.",  # a date
        "Vence el 2024-05-17 a las 10:30.",  # an ISO date and a time
        "El total es $ 12.345.678.",  # an amount shaped like a DNI
        "Son 1.234.567 pesos.",  # an amount followed by its currency
        "Su pedido 123456789 ya salió.",  # an order number
        "Atendemos de 9 a 18 horas.",
        "CUIT 20-12345678-5",  # wrong check digit
        "CPF 529.982.247-24",  # wrong check digit
        "RUT 12.345.678-4",  # wrong check digit
        "CPF 111.111.111-11",  # all the same digit
    ],
)
def test_look_alikes_do_not_fire(text: str) -> None:
    assert kinds(text) == []


def test_check_digit_algorithms_accept_known_good_values() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert cuit_ok("20123456786") and not cuit_ok("20123456785")
    assert cpf_ok("52998224725") and not cpf_ok("52998224724")
    assert rut_ok("12345678", "5") and rut_ok("16148139", "K") is rut_ok("16148139", "k")


def test_redact_replaces_each_finding_with_its_kind() -> None:
    text = "Mail juan@x.com, tarjeta 4111 1111 1111 1111."
    assert redact(text, find_personal_data(text)) == "Mail [email], tarjeta [card]."


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Escribile a juan.perez [at] example [dot] com.", "email", "juan.perez@example.com"),
        ("Mail: juan.perez (arroba) example (punto) com", "email", "juan.perez@example.com"),
        ("ana arroba correo punto com", "email", "ana@correo.com"),
        ("write to juan at example dot com", "email", "juan@example.com"),
        (
            "La tarjeta: cuatro uno uno uno, uno uno uno uno, uno uno uno uno, uno uno uno uno.",
            "card",
            "4111111111111111",
        ),
        ("card five five zero zero 0000 0000 0004", "card", "5500000000000004"),
        ("Llamá al cuatro cinco seis siete ocho nueve cero uno.", "phone", "45678901"),
    ],
)
def test_obfuscated_and_spelled_out_values_are_read_as_what_they_stand_for(
    text: str, kind: str, value: str
) -> None:
    [finding] = find_personal_data(text)
    assert (finding.kind, finding.value) == (kind, value)
    assert f"[{kind}]" in redact(text, [finding])


@pytest.mark.parametrize(
    "text",
    [
        "Take a look at example.com for the details.",
        "Tenemos dos planes y tres coberturas desde 5.000 pesos.",
        "Uno, dos, tres: así de fácil.",
    ],
)
def test_words_that_only_look_like_obfuscated_data_do_not_fire(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(
    ("text", "open"),
    [
        ("El celular es +54 9 11.", True),
        ("Abrimos a las 9.", True),
        ("Escribí a juan.perez [at]", True),
        ("La tarjeta es cuatro uno uno uno.", True),
        ("Atendemos de lunes a viernes.", False),
        ("Gracias por escribirnos.", False),
    ],
)
def test_open_tail_says_when_a_sentence_could_end_in_the_start_of_personal_data(
    text: str, open: bool
) -> None:
    assert open_tail(text) is open
