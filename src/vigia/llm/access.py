"""What a call to an upstream model may use: its key and the hosts it may reach.

Resolved per call by the workspace that owns the agent (``vigia.workspaces.upstream``) and
carried on the model settings, never stored or serialized. Keys named by environment
variable are read here only if the operator listed the variable, and never a ``VIGIA_*``
one: those are the server's own settings.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field

from vigia.errors import Invalid

SERVER_PREFIX = "VIGIA_"


@dataclass(frozen=True)
class UpstreamAccess:
    """The key (never in a repr) and the host entries the base URL must match; ``hosts`` None
    means an operator's own configuration, not checked against a workspace's list."""

    api_key: str | None = field(default=None, repr=False)
    hosts: tuple[str, ...] | None = ()
    refused: str | None = None
    """Why the call may not go out at all (a key the settings may not use)."""


def env_key_refusal(name: str, allowed: Collection[str] | None) -> str | None:
    """Why the variable ``name`` may not be read as an upstream key; None when it may.
    ``allowed`` None: any variable but the server's own."""
    if name.upper().startswith(SERVER_PREFIX):
        return f"'{name}' is one of the server's own settings and is never sent upstream"
    if allowed is not None and name not in allowed:
        return f"'{name}' is not a key variable the operator allows (VIGIA_MODEL_KEY_ENVS)"
    return None


def key_from_env(name: str, allowed: Collection[str] | None) -> str | None:
    """The value of ``name`` (None when unset); ``Invalid`` when it may not be read."""
    refusal = env_key_refusal(name, allowed)
    if refusal is not None:
        raise Invalid(refusal)
    return os.environ.get(name)
