"""Assertions on a reply (what `vigia eval run` checks) and the validation of cases."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from vigia.eval_cases.checks import CitedDocument, Observed, failures
from vigia.eval_cases.schemas import CaseAssertions, EvalCaseIn
from vigia.kit.turn_status import TurnStatus

REPLY = "La póliza de hogar cubre incendio y robo [1]."
CITED = [CitedDocument("doc-1", "Póliza hogar.pdf")]


def check(reply: str = REPLY, turn_status: TurnStatus = "ok", **assertions: object) -> list[str]:
    observed = Observed(reply, turn_status, CITED)
    return failures(CaseAssertions.model_validate(assertions), observed)


def test_contains_and_not_contains_ignore_case() -> None:
    assert check(contains=["CUBRE INCENDIO"], not_contains=["granizo"]) == []
    assert check(contains=["granizo"], not_contains=["ROBO"]) == [
        "reply does not contain 'granizo'",
        "reply contains 'ROBO'",
    ]


def test_regex_searches_with_javascript_word_classes() -> None:
    assert check(regex=r"incendio y \w+") == []
    # \w is ASCII-only, as in JavaScript's RegExp without the u flag: "ó" is no word char.
    assert check(regex=r"p\w+liza") == [r"reply does not match /p\w+liza/"]


def test_status_must_equal_the_turns_status() -> None:
    assert check(turn_status="blocked", status="blocked") == []
    assert check(turn_status="ok", status="blocked") == ["status is 'ok', expected 'blocked'"]


def test_cites_any_document_or_a_named_one_by_name_or_id() -> None:
    assert check(cites=True, cites_document="póliza HOGAR.pdf") == []
    assert check(cites_document="doc-1") == []
    assert check(cites_document="auto.pdf") == ["reply does not cite 'auto.pdf'"]
    bare = failures(
        CaseAssertions(cites=True, cites_document="x"), Observed("Sin fuentes.", "ok", [])
    )
    assert bare == ["reply cites no document", "reply does not cite 'x'"]


def test_max_chars_counts_characters() -> None:
    assert check(reply="¿Sí? 🙂", max_chars=6) == []
    assert check(reply="¿Sí? 🙂!", max_chars=6) == ["reply has 7 characters, more than 6"]


@pytest.mark.parametrize(
    ("assertions", "message"),
    [
        ({}, "a case needs at least one assertion"),
        ({"cites": False}, "a case needs at least one assertion"),
        ({"regex": "(?P<n>x)"}, "use syntax common to Python and JavaScript"),
        ({"regex": "(?i)hola"}, "use syntax common to Python and JavaScript"),
        ({"regex": "hola\\Z"}, "use syntax common to Python and JavaScript"),
        ({"regex": "(hola"}, "invalid regular expression"),
        ({"contains": ["  "]}, "cannot be blank"),
        ({"contains": ["x" * 501]}, "at most 500 characters"),
        (
            {"status": "paused"},
            "Input should be 'ok', 'blocked', 'handoff', 'budget_exceeded', 'tool_limit' or "
            "'error'",
        ),
        ({"max_chars": 0}, "greater than or equal to 1"),
        ({"contain": ["typo"]}, "Extra inputs are not permitted"),
    ],
)
def test_invalid_assertions_are_refused_with_the_reason(
    assertions: dict[str, object], message: str
) -> None:
    with pytest.raises(ValidationError) as raised:
        EvalCaseIn.model_validate({"input": "hola", "assertions": assertions})
    assert message in str(raised.value)


def test_inputs_and_history_have_size_limits() -> None:
    ok = {"contains": ["x"]}
    with pytest.raises(ValidationError, match="at most 20000 characters"):
        EvalCaseIn.model_validate({"input": "x" * 20_001, "assertions": ok})
    history = [{"role": "user", "content": "hola"}] * 21
    with pytest.raises(ValidationError, match="at most 20 items"):
        EvalCaseIn.model_validate({"input": "x", "history": history, "assertions": ok})
    with pytest.raises(ValidationError, match="Input should be 'user' or 'assistant'"):
        EvalCaseIn.model_validate(
            {"input": "x", "history": [{"role": "system", "content": "y"}], "assertions": ok}
        )
