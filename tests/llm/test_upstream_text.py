"""An upstream's lone surrogates and NUL are mended to U+FFFD; everything else is kept."""

from __future__ import annotations

import pytest

from vigia.llm.upstream_text import loads, mended


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"content": "hola \\ud800 mundo"}', {"content": "hola \ufffd mundo"}),
        ('{"content": "\\udfff\\u0000"}', {"content": "\ufffd\ufffd"}),
        ('{"\\ud800": ["a\\u0000b", 1, null]}', {"\ufffd": ["a\ufffdb", 1, None]}),
        ('{"content": "\\ud83d\\ude00"}', {"content": "\U0001f600"}),  # a pair: one character
        ('{"content": "\\\\ud800 as text"}', {"content": "\\ud800 as text"}),
        ('{"content": "hola"}', {"content": "hola"}),
    ],
)
def test_loads_mends_lone_surrogates_and_nul(text: str, expected: object) -> None:
    assert loads(text) == expected


def test_mended_walks_a_decoded_answer() -> None:
    answer = {"choices": [{"message": {"content": "a\ud800", "tool_calls": None}}], "n": 2}
    assert mended(answer) == {
        "choices": [{"message": {"content": "a\ufffd", "tool_calls": None}}],
        "n": 2,
    }
