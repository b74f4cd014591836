"""Markdown worlds: headings outside code samples, sections titled by the headings above
them, long sections cut at blank lines, and the sentence that states the answer quoted —
a default, a status, a limit — in English, Spanish or Portuguese."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigia.db.session import session_scope
from vigia.worlds.answer.doc_quote import asks_for_value, best_sentence, states_value
from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.answer.lenses.qa import run_qa
from vigia.worlds.catalog import add_world
from vigia.worlds.ingest.chunks import passages
from vigia.worlds.ingest.indexer import IndexReport, index_world
from vigia.worlds.markdown import sections, sentences

W = "service-docs"
LIMITS = """\
# Gateway

The gateway sits in front of every service and answers for them.

## Rate limiting

Each client gets a budget of requests per minute. The budget is counted per API key,
not per address, so clients behind one proxy do not share it.

```python
# A client that waits when it is limited.
while True:
    reply = send()
```

When a client goes over its budget, the gateway answers 429 Too Many Requests with a
Retry-After header. Requests refused this way are not counted again.

### Settings

* `burst` - How many requests may arrive at once above the steady rate. Defaults to `20`.
* `window` - The length of the counting window in seconds. Defaults to `60`.
  A longer window smooths bursts.

## Uploads

Uploaded files are scanned before they are stored. Files larger than 25 MB are refused
with 413 before the scan starts. See the [release notes](https://example.com/v2.4.1)
for version 2.4.1 and issue #1234.
"""
ALERTS = """\
# Alerts

An alert fires when the error ratio of a service stays above its threshold for five
minutes. The default threshold is 2% of the requests; a service may set its own.
Alerts go to the on-call channel of the team that owns the service.
"""


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_a_comment_in_a_code_sample_is_no_heading_and_sections_carry_their_trail() -> None:
    found = sections(LIMITS.splitlines())
    titles = [s.title for s in found]
    assert titles == [
        "Gateway",
        "Gateway › Rate limiting",
        "Gateway › Rate limiting › Settings",
        "Gateway › Uploads",
    ]
    rate = found[1]
    assert rate.start == _line(LIMITS, "## Rate limiting")
    assert rate.end == _line(LIMITS, "### Settings") - 1  # the `# A client…` line is code


def test_documentation_passages_are_titled_by_their_headings_and_cut_at_blank_lines() -> None:
    long = "# Guide\n\n" + "\n\n".join(f"Step {n} does one thing well." for n in range(1, 40))
    found = passages("docs/guide.md", "markdown", long, [], False)
    assert len(found) > 1
    assert all(p.title == "guide.md Guide" and p.kind == "doc" for p in found)
    lines = long.splitlines()
    for piece in found[:-1]:
        assert not lines[piece.line_end].strip()  # each piece ends before a blank line
    gateway = passages("docs/limits.md", "markdown", LIMITS, [], False)
    settings = next(p for p in gateway if p.title.endswith("Settings"))
    assert settings.title == "limits.md Gateway › Rate limiting › Settings"


def test_sentences_leave_code_out_and_keep_a_list_item_whole() -> None:
    said = [text for _line_no, text in sentences(LIMITS, 1)]
    assert not any("while True" in s or "A client that waits" in s for s in said)
    window = next(s for s in said if "`window`" in s)
    assert window.endswith("A longer window smooths bursts.")  # the item's next line too
    start = next(n for n, s in sentences(LIMITS, 1) if s.startswith("When a client goes"))
    assert start == _line(LIMITS, "When a client goes over")


@pytest.mark.parametrize(
    "question",
    [
        "What status does the gateway answer when a client goes over its budget?",
        "How long is the counting window by default?",
        "¿Cuál es el tamaño máximo de un archivo subido?",
        "Quantos pedidos podem chegar de uma vez por padrão?",
    ],
)
def test_questions_that_want_a_value_back_are_told_apart(question: str) -> None:
    assert asks_for_value(question)


def test_a_question_about_what_something_is_wants_no_value() -> None:
    assert not asks_for_value("Who owns the alerts of a service?")


def test_a_stated_value_is_a_number_or_a_default_not_a_link_issue_or_version() -> None:
    assert states_value("Defaults to `20`.")
    assert states_value("the gateway answers 429 Too Many Requests")
    assert states_value("Requests are refused by default.")
    assert not states_value("See the [release notes](https://example.com/v2.4.1).")
    assert not states_value("Fixed in version 2.4.1, issue #1234.")


def test_the_sentence_stating_the_value_wins_over_one_sharing_more_words() -> None:
    section = sections(LIMITS.splitlines())[1]
    text = "\n".join(LIMITS.splitlines()[section.start - 1 : section.end])
    # shares 6 terms with "Each client gets a budget of requests per minute.", 3 with it
    question = (
        "Which status code does each client get per minute once its budget of requests is spent?"
    )
    line, quote = best_sentence(text, section.start, question, question=question)
    assert line == _line(LIMITS, "When a client goes over")
    assert "429" in quote


@pytest.fixture
def service_docs(team: str, tmp_path: Path) -> IndexReport:
    """World ``service-docs``: two Markdown documents of a service platform."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "limits.md").write_text(LIMITS, encoding="utf-8")
    (tmp_path / "docs" / "alerts.md").write_text(ALERTS, encoding="utf-8")
    with session_scope() as session:
        return index_world(session, add_world(session, W, tmp_path, team))


@pytest.mark.parametrize(
    ("question", "path", "needle", "value"),
    [
        ("What is the default alert threshold?", "docs/alerts.md", "default threshold", "2%"),
        (
            "¿Qué código devuelve el gateway a un cliente que supera su presupuesto?",
            "docs/limits.md",
            "When a client goes over",
            "429",
        ),
        (
            "Qual é o tamanho máximo de um arquivo enviado?",
            "docs/limits.md",
            "larger than 25 MB",
            "25 MB",
        ),
    ],
)
def test_qa_quotes_the_sentence_that_states_the_answer(
    service_docs: IndexReport, question: str, path: str, needle: str, value: str
) -> None:
    with session_scope() as session:
        answer = run_qa(LensInput(session, W, question, []))
    text = ALERTS if path.endswith("alerts.md") else LIMITS
    assert value in answer.headline.split("”")[0]  # the first quote states it
    assert (path, _line(text, needle)) in answer.sources
