"""Conversations (list, get, rename, pin, delete), sharing rules, personal-file isolation."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.errors import Response, assert_error
from vigia.config import get_settings
from vigia.worlds.ingest.indexer import IndexReport

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
    assert_error(
        alice.patch(f"/conversations/{first}", json={"title": "x" * 121}),
        422,
        "title must have at most 120 characters after trimming",
    )
    blank = alice.patch(f"/conversations/{first}", json={"title": "   "})
    assert_error(blank, 422, "title must not be blank")
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
    assert_error(alice.get(f"/conversations/{second}"), 404, f"conversation {second} not found")
    assert_error(alice.delete(f"/conversations/{second}"), 404, f"conversation {second} not found")


def test_other_users_conversations_are_404(
    alice: TestClient, bob: TestClient, payroll: IndexReport
) -> None:
    cid = _new(alice)
    missing = f"conversation {cid} not found"
    assert_error(bob.get(f"/conversations/{cid}"), 404, missing)
    assert_error(bob.patch(f"/conversations/{cid}", json={"title": "x"}), 404, missing)
    assert_error(bob.post(f"/conversations/{cid}/pin"), 404, missing)
    assert_error(bob.delete(f"/conversations/{cid}"), 404, missing)
    assert_error(bob.post("/chat", json={"message": "x", "conversation_id": cid}), 404, missing)
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

    read_only = "a received share is read-only"
    assert_error(
        bob.patch(f"/conversations/{wrapper}", json={"title": "mine"}),
        403,
        f"{read_only}: only its owner can rename it",
    )
    append = f"{read_only}: you cannot append to it"
    assert_error(
        bob.post("/chat", json={"message": "more", "conversation_id": wrapper}), 403, append
    )
    assert_error(
        bob.get("/chat/stream", params={"message": "more", "conversation_id": wrapper}),
        403,
        append,
    )
    assert_error(
        bob.post(f"/conversations/{wrapper}/share", json={"username": "alice"}),
        403,
        f"{read_only}: it cannot be shared again",
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
    share = f"/conversations/{cid}/share"
    assert_error(alice.post(share, json={"username": "carol"}), 404, "user 'carol' not found")
    assert_error(
        alice.post(share, json={"username": "alice"}),
        422,
        "you cannot share a conversation with yourself",
    )
    assert_error(bob.post(share, json={"username": "bob"}), 404, f"conversation {cid} not found")
    wrapper = alice.post(share, json={"username": "bob"}).json()["share_id"]
    assert alice.delete(f"{share}/bob").json() == {"ok": True, "id": cid}
    assert_error(bob.get(f"/conversations/{wrapper}"), 404, f"conversation {wrapper} not found")
    assert_error(alice.delete(f"{share}/bob"), 404, f"conversation {cid} is not shared with 'bob'")
    again = alice.post(share, json={"username": "bob"}).json()["share_id"]
    alice.delete(f"/conversations/{cid}")
    assert_error(bob.get(f"/conversations/{again}"), 404, f"conversation {again} not found")


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
    assert_error(
        alice.delete("/personal/files/notes/tax.txt"),
        404,
        "personal file 'notes/tax.txt' not found",
    )
    assert not stored[0].exists()


def test_personal_upload_limits(alice: TestClient) -> None:
    def upload(name: str, data: bytes) -> Response:
        return alice.post("/personal/files", files={"file": (name, data)})

    assert_error(upload("../x.txt", b"a"), 422, "file name '../x.txt' must not contain '..'")
    absolute = upload("/abs.txt", b"a")
    assert_error(absolute, 422, "file name '/abs.txt' must be relative to your personal folder")
    assert_error(upload("b.bin", b"\xff\xfe\x00"), 415, "personal files must be UTF-8 text")
    big = b"a" * (1024 * 1024 + 1)
    assert_error(upload("big.txt", big), 413, "personal files are limited to 1048576 bytes")
    assert alice.get("/personal/files").json() == {"files": []}
