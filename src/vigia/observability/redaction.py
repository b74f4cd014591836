"""Tracebacks without stored values: the lines a database error adds that quote a row.

SQLAlchemy's bound parameters are hidden at the engine (``hide_parameters``); what remains
is the driver's own message. PostgreSQL's ``DETAIL`` line quotes values (``Key (hash)=(…)
already exists``, ``Failing row contains (…)``, a whole message row), so it is replaced.
"""

from __future__ import annotations

import re
import traceback
from types import TracebackType

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]

_DETAIL = re.compile(r"^(\s*DETAIL:).*$", re.MULTILINE)
HIDDEN = r"\1  (hidden: it may quote stored values)"


def hide_stored_values(text: str) -> str:
    """``text`` with every ``DETAIL:`` line of a database error emptied."""
    return _DETAIL.sub(HIDDEN, text)


def traceback_text(exc_info: ExcInfo) -> str:
    """The formatted traceback of ``exc_info`` (as ``logging`` writes it), values hidden."""
    text = "".join(traceback.format_exception(*exc_info))
    return hide_stored_values(text.removesuffix("\n"))
