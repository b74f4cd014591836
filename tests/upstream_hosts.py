"""Lists an upstream's host in a workspace's hosts, as the operator does before an agent may
call it (``PUT /admin/workspaces/{w}/tool-hosts``); a loopback mock is listed by address."""

from __future__ import annotations

import httpx

from vigia.db.session import session_scope
from vigia.workspaces.models import Workspace
from vigia.workspaces.service import set_tool_hosts


def allow_upstream(workspace_id: str, url: str) -> None:
    """Adds the host of ``url`` to the workspace's hosts (kept: the entries already there)."""
    host = httpx.URL(url).host
    with session_scope() as session:
        workspace = session.get(Workspace, workspace_id)
        assert workspace is not None
        set_tool_hosts(session, workspace, [*workspace.tool_hosts, host])
