"""Field types shared by the wire shapes of every surface (imports nothing of Vigia)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import PlainSerializer, WithJsonSchema

Timestamp = Annotated[
    datetime,
    PlainSerializer(lambda moment: moment.isoformat(), return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
"""A moment written as ``datetime.isoformat()`` gives it (``+00:00``, not pydantic's ``Z``)."""
