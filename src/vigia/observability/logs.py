"""Structured logs: JSON lines when stderr is not a terminal, readable lines when it is.

Every record carries the request's context (``request_id``, ``workspace``, ``agent``,
``run_id``) and, while tracing, ``trace_id``; a log-record factory adds them, so every
handler (tests' ``caplog`` included) sees them. Info-level lines never carry message
contents or secrets: requests log their route template, never the raw path or headers.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

from vigia.observability import context, tracing
from vigia.observability.redaction import traceback_text

CONTEXT_FIELDS = ("request_id", "workspace", "agent", "run_id", "trace_id")
_base_factory = logging.getLogRecordFactory()
_installed: dict[str, bool] = {"factory": False}


def _with_context(*args: Any, **kwargs: Any) -> logging.LogRecord:
    record = _base_factory(*args, **kwargs)
    request = context.current()
    fields = request.fields() if request is not None else {}
    trace_id = tracing.current_trace_id()
    if trace_id:
        fields["trace_id"] = trace_id
    for name, value in fields.items():
        if not hasattr(record, name):
            setattr(record, name, value)
    if isinstance(record.exc_info, tuple) and record.exc_info[1] is not None:
        # every handler (caplog too) reuses this text: no row a database error quotes
        record.exc_text = traceback_text(record.exc_info)
    return record


def install_context() -> None:
    """Makes every log record carry the request context (idempotent)."""
    if not _installed["factory"]:
        logging.setLogRecordFactory(_with_context)
        _installed["factory"] = True


class _JsonLines(JsonFormatter):
    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            datefmt="%Y-%m-%dT%H:%M:%S%z",
            reserved_attrs=[*RESERVED_ATTRS, "color_message"],
        )

    def formatException(self, ei: Any) -> str:
        return traceback_text(ei) if isinstance(ei, tuple) and ei[1] is not None else ""


class _Readable(logging.Formatter):
    def formatException(self, ei: Any) -> str:
        return traceback_text(ei) if isinstance(ei, tuple) and ei[1] is not None else ""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = " ".join(
            f"{name}={getattr(record, name)}" for name in CONTEXT_FIELDS if hasattr(record, name)
        )
        return f"{line} [{extra}]" if extra else line


def json_lines_wanted(stream: Any = None) -> bool:
    """``VIGIA_LOG_FORMAT`` (json/text), else JSON when ``stream`` is not a terminal."""
    chosen = os.environ.get("VIGIA_LOG_FORMAT", "auto").lower()
    if chosen in ("json", "text"):
        return chosen == "json"
    stream = stream or sys.stderr
    return not (hasattr(stream, "isatty") and stream.isatty())


def configure(level: str = "info") -> None:
    """One stderr handler on the root logger; uvicorn's loggers go through it too."""
    install_context()
    handler = logging.StreamHandler(sys.stderr)
    if json_lines_wanted(sys.stderr):
        handler.setFormatter(_JsonLines())
    else:
        handler.setFormatter(_Readable("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        named = logging.getLogger(name)
        named.handlers = []
        named.propagate = True
