"""Worlds belong to workspaces: only users with a role in a world's workspace reach it (404
for everyone else, on every worlds route), and shares stay inside the workspace."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.worlds.conftest import MakeUser, log_in
from vigia.db.session import session_scope
from vigia.users.roles import grant, revoke
from vigia.users.service import find_user
from vigia.workspaces.service import create_workspace
from vigia.worlds.endpoints import router
from vigia.worlds.ingest.indexer import IndexReport

W = "payroll-2024"
# Per user, not per world: they stay reachable to a user without any role.
PERSONAL = {
    ("POST", "/personal/files"),
    ("GET", "/personal/files"),
    ("DELETE", "/personal/files/{rel_path:path}"),
}


def _routes(cid: int) -> list[tuple[str, str, dict[str, Any]]]:
    """A request for every route that reaches a world or one of its conversations."""
    chat = {"message": "What calls CALC-TAX", "version": W, "knowledge": True}
    return [
        ("POST", "/chat", {"json": chat}),
        ("POST", "/chat", {"json": {**chat, "knowledge": False}}),
        ("GET", "/chat/stream", {"params": {"message": "What calls CALC-TAX", "version": W}}),
        ("POST", "/qa/run", {"json": {"question": "What calls CALC-TAX", "version": W}}),
        ("POST", "/troubleshoot/run", {"json": {"symptom": "CALC-TAX fails", "version": W}}),
        ("GET", "/conversations/{cid}", {}),
        ("PATCH", "/conversations/{cid}", {"json": {"title": "x"}}),
        ("POST", "/conversations/{cid}/pin", {"json": {"pinned": True}}),
        ("POST", "/conversations/{cid}/share", {"json": {"username": "alice"}}),
        ("DELETE", "/conversations/{cid}/share/{username}", {}),
        ("DELETE", "/conversations/{cid}", {}),
    ]


def _route_set() -> set[tuple[str, str]]:
    """Every (method, path) of the worlds router."""
    return {
        (method, route.path)
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
    }


def _ask(client: TestClient) -> int:
    response = client.post(
        "/chat", json={"message": "What calls CALC-TAX", "version": W, "knowledge": True}
    )
    assert response.status_code == 200, response.text
    return int(response.json()["conversation_id"])


def _set_role(name: str, workspace_id: str, role: str | None) -> None:
    with session_scope() as session:
        user = find_user(session, name)
        assert user is not None
        if role is None:
            revoke(session, user.id, workspace_id)
        else:
            grant(session, user.id, workspace_id, role)


def test_the_walk_covers_every_worlds_route() -> None:
    walked = {(method, path) for method, path, _ in _routes(1)}
    # The list answers 200 with only the reachable worlds' conversations (tested below).
    assert _route_set() - PERSONAL - {("GET", "/conversations")} == walked


@pytest.mark.parametrize("outsider", ["no role at all", "a role in another workspace"])
def test_a_user_without_a_role_in_the_worlds_workspace_gets_404_on_every_worlds_route(
    client: TestClient, payroll: IndexReport, team: str, make_user: MakeUser, outsider: str
) -> None:
    make_user("alice")
    make_user("eve")  # eve asks while she has a role, then loses it
    eve = log_in(TestClient(client.app), "eve")
    cid = _ask(eve)
    _set_role("eve", team, None)
    if outsider == "a role in another workspace":
        with session_scope() as session:
            other = create_workspace(session, "elsewhere").id
        _set_role("eve", other, "owner")
    for method, path, payload in _routes(cid):
        url = path.format(cid=cid, username="alice")
        response = eve.request(method, url, **payload)
        assert response.status_code == 404, (method, url, response.text)
        detail = response.json()["detail"]
        assert detail in (f"world {W!r} not found", f"conversation {cid} not found"), detail
    assert eve.get("/conversations").json() == {"conversations": []}
    _set_role("eve", team, "viewer")  # given back a role, the conversation is there again
    assert eve.get(f"/conversations/{cid}").status_code == 200


def test_a_received_share_is_hidden_once_the_recipient_leaves_the_workspace(
    alice: TestClient, bob: TestClient, payroll: IndexReport, team: str
) -> None:
    cid = _ask(alice)
    share = alice.post(f"/conversations/{cid}/share", json={"username": "bob"})
    assert share.status_code == 200, share.text
    wrapper = share.json()["share_id"]
    assert bob.get(f"/conversations/{wrapper}").status_code == 200
    _set_role("bob", team, None)
    assert bob.get(f"/conversations/{wrapper}").status_code == 404
    assert bob.get("/conversations").json() == {"conversations": []}


def test_a_share_to_a_user_of_another_workspace_is_refused(
    alice: TestClient, payroll: IndexReport, make_user: MakeUser
) -> None:
    cid = _ask(alice)
    make_user("carol", None)
    with session_scope() as session:
        other = create_workspace(session, "elsewhere").id
    _set_role("carol", other, "owner")
    refused = alice.post(f"/conversations/{cid}/share", json={"username": "carol"})
    assert refused.status_code == 403
    assert refused.json() == {
        "detail": "user 'carol' has no role in the workspace of world 'payroll-2024':"
        " conversations are shared only inside it"
    }
    carol = log_in(TestClient(alice.app), "carol")
    assert carol.get("/conversations").json() == {"conversations": []}
    make_user("dan", "operator")  # any role in the world's workspace will do
    assert alice.post(f"/conversations/{cid}/share", json={"username": "dan"}).status_code == 200


def test_conversations_list_only_the_worlds_the_user_reaches(
    alice: TestClient, payroll: IndexReport, team: str
) -> None:
    cid = _ask(alice)
    assert [c["id"] for c in alice.get("/conversations").json()["conversations"]] == [cid]
    _set_role("alice", team, None)
    assert alice.get("/conversations").json() == {"conversations": []}
