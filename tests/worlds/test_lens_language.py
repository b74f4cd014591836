"""Answers in the question's language (Spanish, Portuguese, English) for every lens, with
names, citations and quoted code or comments left as they are written."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from vigia.db.session import session_scope
from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.answer.lenses.impact import run_impact
from vigia.worlds.answer.lenses.qa import run_qa
from vigia.worlds.answer.lenses.troubleshoot import run_troubleshoot
from vigia.worlds.answer.lenses.wording import PHRASES, WORDS, question_language
from vigia.worlds.ingest.indexer import IndexReport

W = "loans"
WORLDS = Path(__file__).parents[2] / "src" / "vigia" / "worlds"
LENS_SOURCES = WORLDS / "answer" / "lenses"
ENGLISH = re.compile(r"\b(?:is a|It is|is called by|Look first at|affects|Changing)\b")


def _ask(run: object, question: str) -> tuple[str, set[str]]:
    with session_scope() as session:
        answer = run(LensInput(session, W, question, []))  # type: ignore[operator]
        return answer.headline, {path for path, _line in answer.sources}


@pytest.mark.parametrize(
    ("question", "lang", "says"),
    [
        ("What does program CRDCHK do?", "en", "CRDCHK is a COBOL program"),
        ("¿Qué hace el programa CRDCHK?", "es", "CRDCHK es un programa COBOL"),
        ("O que faz o programa CRDCHK?", "pt", "CRDCHK é um programa COBOL"),
    ],
)
def test_qa_answers_in_the_question_language(
    loans: IndexReport, question: str, lang: str, says: str
) -> None:
    headline, sources = _ask(run_qa, question)
    assert question_language(question) == lang
    assert says in headline
    # The program's own comment is quoted as written, in English, whatever the question's.
    assert "Decides loan applications" in headline and "src/CRDCHK.cbl" in sources
    if lang != "en":
        assert not ENGLISH.search(headline), headline


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("¿Qué se ve afectado si cambiamos WS-TERM-COUNT?", "Cambiar WS-TERM-COUNT"),
        ("O que é afetado se WS-TERM-COUNT mudar?", "Mudar WS-TERM-COUNT"),
    ],
)
def test_impact_answers_in_the_question_language(
    loans: IndexReport, question: str, says: str
) -> None:
    headline, sources = _ask(run_impact, question)
    assert says in headline and "OCCURS DEPENDING ON" in headline
    assert "CRDCHK.WS-INSTALMENT" in headline and "src/CRDCHK.cbl" in sources
    assert not ENGLISH.search(headline), headline


@pytest.mark.parametrize(
    ("question", "says"),
    [
        ("¿Por qué la solicitud devuelve el código 40?", "Mira primero"),
        ("Por que a solicitação responde com o código 40?", "Olhe primeiro"),
    ],
)
def test_troubleshoot_answers_in_the_question_language(
    loans: IndexReport, question: str, says: str
) -> None:
    headline, sources = _ask(run_troubleshoot, question)
    assert says in headline and "2000-CHECK-CREDIT-SCORE" in headline
    assert "src/CRDCHK.cbl" in sources
    assert not ENGLISH.search(headline), headline


def test_a_bare_name_is_answered_in_english() -> None:
    assert question_language("LGSTSQ?") == "en"
    assert question_language("WS-TAX-RATE") == "en"


def _told_templates(method: str) -> set[str]:
    """Every literal template the lenses pass to ``Answer.tell`` or ``Answer.word``."""
    found: set[str] = set()
    for path in [*LENS_SOURCES.glob("*.py"), WORLDS / "chat" / "turn.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == method
                and node.args
            ):
                found.update(_strings(node.args[0]))
    return found


def _strings(node: ast.expr) -> list[str]:
    """The literal strings an argument can be (both branches of ``a if c else b``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return [*_strings(node.body), *_strings(node.orelse)]
    return []


def _slots(template: str) -> set[str]:
    return {name for _t, name, _f, _c in string.Formatter().parse(template) if name}


def test_every_sentence_a_lens_says_has_its_spanish_and_portuguese_form() -> None:
    told, words = _told_templates("tell"), _told_templates("word")
    assert len(told) > 40 and len(words) > 10
    assert sorted(told - set(PHRASES)) == [] and sorted(words - set(WORDS)) == []
    for english, translations in [*PHRASES.items(), *WORDS.items()]:
        for translated in translations:
            assert _slots(translated) == _slots(english), (english, translated)
