"""How a turn ends: the one vocabulary of run statuses.

The engine sets them; evaluation cases expect them, the console labels them and the
message catalogue has a text for each. It sits here, below every layer, so each may read it.
"""

from __future__ import annotations

from typing import Literal, get_args

TurnStatus = Literal["ok", "blocked", "handoff", "budget_exceeded", "tool_limit", "error"]
"""``ok`` answered; ``blocked`` by a guardrail; ``handoff`` to a person; ``budget_exceeded``
paused by the workspace's budget; ``tool_limit`` out of tool steps (the no-answer reply);
``error`` the turn failed."""

TURN_STATUSES: tuple[TurnStatus, ...] = get_args(TurnStatus)
