"""Conversations (list, get, rename, pin, delete), sharing rules, personal-file isolation."""

from __future__ import annotations

from fastapi.testclient import TestClient

from vigia.config import get_settings
from vigia.worlds.indexer import IndexReport

W = "payroll-2024"


def _new(client: TestClient, message: str = "What does CALC-TAX do?") -> int:
    response = client.post("/chat", json={"message": message, "version": W, "knowledge": True})
    assert response.status_code == 200, response.text
    return int(response.json()["conversation_id"])


def test_list_get_rename_pin_delete(alice: TestClient, payroll: IndexReport) -> None:
    first, second = _new(alice), _new(alice, "What is WS-TAX-RATE?")
    listed = alice.get("/conversations").json()["conversations"]
    assert [c["id"] for c in listed] == [second, first]
    assert set(listed[0]) >= {"id", "title", "created_at", "updated_at", "pinned", "origin"}
    assert listed[0]["origin"] == "own" and listed[0]["title"] == "What is WS-TAX-RATE?"

    renamed = alice.patch(f"/conversations/{first}", json={"title": "  CALC-TAX impact  "})
    assert renamed.json() == {"ok": True, "id": first, "title": "CALC-TAX impact"}
    assert alice.patch(f"/conversations/{first}", json={"title": "x" * 121}).status_code == 422
    assert alice.patch(f"/conversations/{first}", json={"title": "   "}).status_code == 422
    assert (
        alice.patch(f"/conversations/{first}", json={"title": " " + "y" * 120 + " "}).status_code
        == 200
    )

    assert alice.post(f"/conversations/{first}/pin", json={"pinned": True}).json() == {
        "ok": True,
        "id": first,
        "pinned": True,
    }
    assert next(c["id"] for c in alice.get("/conversations").json()["conversations"]) == first
    assert (
        alice.post(f"/conversations/{first}/pin", json={"pinned": False}).json()["pinned"] is False
    )
    assert alice.post(f"/conversations/{first}/pin").json()["pinned"] is True

    detail = alice.get(f"/conversations/{second}").json()
    assert detail["conversation"]["id"] == second and detail["conversation"]["origin"] == "own"
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"]
    assert detail["messages"][1]["answer"]["sources"]

    assert alice.delete(f"/conversations/{second}").json() == {"ok": True, "id": second}
    assert alice.get(f"/conversations/{second}").status_code == 404
    assert alice.delete(f"/conversations/{second}").status_code == 404


def test_other_users_conversations_are_404(
    alice: TestClient, bob: TestClient, payroll: IndexReport
) -> None:
    cid = _new(alice)
    assert bob.get(f"/conversations/{cid}").status_code == 404
    assert bob.patch(f"/conversations/{cid}", json={"title": "x"}).status_code == 404
    assert bob.post(f"/conversations/{cid}/pin").status_code == 404
    assert bob.delete(f"/conversations/{cid}").status_code == 404
    assert bob.post("/chat", json={"message": "x", "conversation_id": cid}).status_code == 404
    assert bob.get("/conversations").json() == {"conversations": []}


def test_share_is_read_only_for_the_recipient(
    alice: TestClient, bob: TestClient, payroll: IndexReport
) -> None:
    cid = _new(alice)
    shared = alice.post(f"/conversations/{cid}/share", json={"username": "bob"})
    assert shared.status_code == 200
    wrapper = shared.json()["share_id"]
    assert (
        alice.post(f"/conversations/{cid}/share", json={"username": "bob"}).json()["share_id"]
        == wrapper
    )

    listed = bob.get("/conversations").json()["conversations"]
    assert [(c["id"], c["origin"], c["shared_by"]) for c in listed] == [
        (wrapper, "received_share", "alice")
    ]
    detail = bob.get(f"/conversations/{wrapper}").json()
    assert detail["conversation"]["origin"] == "received_share"
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"]

    assert bob.patch(f"/conversations/{wrapper}", json={"title": "mine"}).status_code == 403
    assert (
        bob.post("/chat", json={"message": "more", "conversation_id": wrapper}).status_code == 403
    )
    assert (
        bob.get("/chat/stream", params={"message": "more", "conversation_id": wrapper}).status_code
        == 403
    )
    assert (
        bob.post(f"/conversations/{wrapper}/share", json={"username": "alice"}).status_code == 403
    )
    assert bob.post(f"/conversations/{wrapper}/pin", json={"pinned": True}).json()["pinned"]
    assert alice.get("/conversations").json()["conversations"][0]["pinned"] is False

    alice.post(
        "/chat",
        json={
            "message": "What is WS-TAX-RATE?",
            "version": W,
            "knowledge": True,
            "conversation_id": cid,
        },
    )
    assert len(bob.get(f"/conversations/{wrapper}").json()["messages"]) == 4

    assert bob.delete(f"/conversations/{wrapper}").json() == {"ok": True, "id": wrapper}
    assert bob.get("/conversations").json() == {"conversations": []}
    assert alice.get(f"/conversations/{cid}").status_code == 200


def test_share_errors_and_unshare(alice: TestClient, bob: TestClient, payroll: IndexReport) -> None:
    cid = _new(alice)
    assert alice.post(f"/conversations/{cid}/share", json={"username": "carol"}).status_code == 404
    assert alice.post(f"/conversations/{cid}/share", json={"username": "alice"}).status_code == 422
    assert bob.post(f"/conversations/{cid}/share", json={"username": "bob"}).status_code == 404
    wrapper = alice.post(f"/conversations/{cid}/share", json={"username": "bob"}).json()["share_id"]
    assert alice.delete(f"/conversations/{cid}/share/bob").json() == {"ok": True, "id": cid}
    assert bob.get(f"/conversations/{wrapper}").status_code == 404
    assert alice.delete(f"/conversations/{cid}/share/bob").status_code == 404
    again = alice.post(f"/conversations/{cid}/share", json={"username": "bob"}).json()["share_id"]
    alice.delete(f"/conversations/{cid}")
    assert bob.get(f"/conversations/{again}").status_code == 404


def test_personal_files_are_private_and_never_indexed(
    alice: TestClient, bob: TestClient, payroll: IndexReport
) -> None:
    note = b"My notes: WS-TAX-RATE was 0.125 before the 2023 change.\nunrelated line\n"
    up = alice.post("/personal/files", files={"file": ("notes/tax.txt", note)})
    assert up.status_code == 201 and up.json() == {"rel_path": "notes/tax.txt", "size": len(note)}
    assert [f["rel_path"] for f in alice.get("/personal/files").json()["files"]] == [
        "notes/tax.txt"
    ]
    assert bob.get("/personal/files").json() == {"files": []}

    body = alice.post(
        "/chat",
        json={"message": "WS-TAX-RATE history", "version": W, "knowledge": True, "personal": True},
    ).json()
    assert body["personal_sources"] == [
        {"rel_path": "notes/tax.txt", "line": 1, "text": note.decode().splitlines()[0]}
    ]
    assert all(s["doc_id"] != "notes/tax.txt" for s in body["sources"])
    other = bob.post(
        "/chat",
        json={"message": "WS-TAX-RATE history", "version": W, "knowledge": True, "personal": True},
    ).json()
    assert "personal_sources" not in other
    assert "2023 change" not in other["headline"]
    without = alice.post(
        "/chat", json={"message": "WS-TAX-RATE history", "version": W, "knowledge": True}
    ).json()
    assert "personal_sources" not in without

    events = alice.get("/chat/stream", params={"message": "WS-TAX-RATE", "personal": "true"})
    assert '"personal_sources"' in events.text and '"id": "personal"' in events.text

    stored = list((get_settings().data_dir / "worlds" / "personal").rglob("tax.txt"))
    assert len(stored) == 1
    assert alice.delete("/personal/files/notes/tax.txt").json() == {"ok": True}
    assert alice.delete("/personal/files/notes/tax.txt").status_code == 404
    assert not stored[0].exists()


def test_personal_upload_limits(alice: TestClient) -> None:
    assert alice.post("/personal/files", files={"file": ("../x.txt", b"a")}).status_code == 422
    assert alice.post("/personal/files", files={"file": ("/abs.txt", b"a")}).status_code == 422
    assert (
        alice.post("/personal/files", files={"file": ("b.bin", b"\xff\xfe\x00")}).status_code == 415
    )
    big = b"a" * (1024 * 1024 + 1)
    assert alice.post("/personal/files", files={"file": ("big.txt", big)}).status_code == 413
    assert alice.get("/personal/files").json() == {"files": []}
