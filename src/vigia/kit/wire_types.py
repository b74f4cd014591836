"""Field types shared by the wire shapes of every surface (imports nothing of Vigia)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator, PlainSerializer, WithJsonSchema


def as_utc(moment: datetime) -> datetime:
    """A stored moment with its offset: SQLite hands them back naive, and they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


Timestamp = Annotated[
    datetime,
    AfterValidator(as_utc),
    PlainSerializer(lambda moment: moment.isoformat(), return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
"""A moment written as ``datetime.isoformat()`` writes it, always with its offset (RFC 3339,
what OpenAPI's ``date-time`` means): ``+00:00``, not pydantic's ``Z``."""
