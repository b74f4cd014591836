"""Field types shared by the request models of every surface.

- ``RowId``: a positive id that fits the SQL ``INTEGER`` of an integer primary key (32-bit
  on PostgreSQL, 64-bit on SQLite), in a path or a query string. Larger ids cannot even be
  looked up (the driver or the server overflows: a 500), so they are refused as input like any
  other bad value. ``JsonRowId`` is the same in a JSON body, where it must be a number. A
  table moved to ``BIGINT`` ids needs ``SQL_BIGINT_MAX`` here (a test watches for it).
- ``Number``, ``Integer`` and ``Flag``: JSON numbers and booleans only, as the published
  schema types them. Pydantic's lax mode reads ``false`` as 0, ``"5"`` as 5 and ``1`` or
  ``"yes"`` as true, which silently stored ``{"budget_usd": false}`` as a zero budget; these
  strict types answer 422 instead. Bodies only (a query string is text by nature). A
  ``Number`` is finite too: ``1e999`` reads as infinity, which no JSON response can carry.
- ``has_control_characters``: names and URLs (file names, links) must not carry a newline, a
  tab, NUL or a lone surrogate; a route can no longer address them, or storage fails.
- ``UtcDateTime``: a moment in a response, always written with its offset (RFC 3339, what
  OpenAPI's ``date-time`` means). SQLite hands stored moments back without one; they are UTC.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from annotated_types import Ge, Le
from pydantic import AllowInfNan, Strict

from vigia.kit.wire_types import Timestamp

SQL_INTEGER_MAX = 2**31 - 1
SQL_BIGINT_MAX = 2**63 - 1
ROW_ID_MAX = SQL_INTEGER_MAX

Number = Annotated[float, Strict(), AllowInfNan(False)]
Integer = Annotated[int, Strict()]
Flag = Annotated[bool, Strict()]
RowId = Annotated[int, Ge(1), Le(ROW_ID_MAX)]
JsonRowId = Annotated[Integer, Ge(1), Le(ROW_ID_MAX)]


UtcDateTime = Timestamp


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character (newline, tab, NUL…) or a lone surrogate."""
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in text)
