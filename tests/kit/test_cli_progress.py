"""Progress of long CLI work: plain lines when stderr is not a terminal."""

from __future__ import annotations

import io

from rich.console import Console

from vigia.kit.cli_progress import progress


def test_plain_lines_at_most_one_per_tenth_when_not_a_terminal() -> None:
    out = io.StringIO()
    with progress(console=Console(file=out, force_terminal=False, width=80)) as steps:
        report = steps.step("manual.pdf")
        for done in range(0, 101):
            report(done, 100)
    lines = out.getvalue().splitlines()
    assert lines[0] == "manual.pdf: 0/100" and lines[-1] == "manual.pdf: 100/100"
    assert len(lines) == 11


def test_a_bar_on_a_terminal() -> None:
    out = io.StringIO()
    with progress(console=Console(file=out, force_terminal=True, width=80)) as steps:
        steps.step("manual.pdf")(5, 10)
    assert "manual.pdf" in out.getvalue() and "5/10" in out.getvalue()
