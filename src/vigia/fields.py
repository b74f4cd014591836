"""Field types shared by the request models of every surface.

- ``RowId``: a positive id that fits a SQL BIGINT, in a path or a query string. Larger ids
  cannot even be looked up (the database driver overflows), so they are refused as input like
  any other bad value. ``JsonRowId`` is the same in a JSON body, where it must be a number.
- ``Number`` and ``Integer``: JSON numbers only. Pydantic's lax mode reads ``false`` as 0 and
  ``"5"`` as 5, which silently stored ``{"budget_usd": false}`` as a zero budget; these
  strict types answer 422 instead. Bodies only (a query string is text by nature).
"""

from __future__ import annotations

from typing import Annotated

from annotated_types import Ge, Le
from pydantic import Strict

ROW_ID_MAX = 2**63 - 1

Number = Annotated[float, Strict()]
Integer = Annotated[int, Strict()]
RowId = Annotated[int, Ge(1), Le(ROW_ID_MAX)]
JsonRowId = Annotated[Integer, Ge(1), Le(ROW_ID_MAX)]
