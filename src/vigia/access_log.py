"""The server's logging: uvicorn's own configuration, with query values kept out of the access log.

``GET /chat/stream?message=…`` carries a user's question in the query string, and uvicorn
logs every request line; each query value is replaced by ``REDACTED`` (names stay, so the log
still tells which options a call used).
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG

REDACTED = "***"


def redact_query(target: str) -> str:
    """``/chat/stream?message=hola&version=v1`` → ``/chat/stream?message=***&version=***``."""
    path, separator, query = target.partition("?")
    if not separator:
        return target
    names = (part.partition("=")[0] for part in query.split("&") if part)
    return f"{path}?" + "&".join(f"{name}={REDACTED}" for name in names)


class RedactQueryValues(logging.Filter):
    """A filter for ``uvicorn.access``: rewrites the request target of each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], redact_query(args[2]), args[3], args[4])
        return True


def logging_config() -> dict[str, Any]:
    """uvicorn's default logging configuration plus the access-log redaction."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_query"] = {"()": RedactQueryValues}
    config["loggers"]["uvicorn.access"]["filters"] = ["redact_query"]
    return config
