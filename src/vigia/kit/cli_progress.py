"""Progress of long CLI work on stderr: a bar on a terminal, plain lines otherwise.

Plain lines (``name: done/total``, at most one per tenth of the work) keep logs and CI
output readable; ``--json`` output on stdout is never touched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

Report = Callable[[int, int], None]


class Steps:
    """Hands out one ``report(done, total)`` callback per named step."""

    def __init__(self, console: Console, bar: Progress | None) -> None:
        self.console = console
        self.bar = bar

    def step(self, name: str) -> Report:
        if self.bar is not None:
            bar = self.bar
            task = bar.add_task(name, total=None)

            def update(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            return update
        printed = [-1]

        def line(done: int, total: int) -> None:
            tenth = (10 * done) // total if total else 10
            if tenth > printed[0]:
                printed[0] = tenth
                self.console.print(f"{name}: {done}/{total}", highlight=False)

        return line


@contextmanager
def progress(transient: bool = False, console: Console | None = None) -> Iterator[Steps]:
    """Progress on stderr; ``transient`` removes the bar when done (e.g. with ``--json``)."""
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield Steps(console, None)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=console, transient=transient) as bar:
        yield Steps(console, bar)
