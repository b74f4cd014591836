"""Cookie routes of worlds refuse requests another site made a browser send (CSRF): a
cross-site link to ``GET /chat/stream`` writes no turn, a cross-site form posts no personal
file. Requests without browser headers (curl, scripts) and from the server's own pages pass."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.errors import Response, assert_error
from tests.worlds.conftest import PASSWORD
from vigia.worlds.ingest.indexer import IndexReport

FOREIGN = [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}]
OWN = [{}, {"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin"}]


def _refused(response: Response) -> None:
    assert_error(response, 403, "cross-site request refused")


@pytest.mark.parametrize("headers", FOREIGN)
def test_a_cross_site_upload_is_refused_and_stores_nothing(
    alice: TestClient, headers: dict[str, str]
) -> None:
    sent = alice.post(
        "/personal/files", files={"file": ("notas.txt", b"PAYCALC\n")}, headers=headers
    )
    _refused(sent)
    assert alice.get("/personal/files").json()["files"] == []


@pytest.mark.parametrize("headers", OWN)
def test_uploads_from_scripts_and_own_pages_pass(
    alice: TestClient, headers: dict[str, str]
) -> None:
    sent = alice.post(
        "/personal/files", files={"file": ("notas.txt", b"PAYCALC\n")}, headers=headers
    )
    assert sent.status_code == 201, sent.text


def test_a_cross_site_link_to_the_stream_writes_no_turn(
    alice: TestClient, payroll: IndexReport
) -> None:
    params = {"message": "What calls CALC-TAX", "version": "payroll-2024", "knowledge": "true"}
    for headers in FOREIGN:
        _refused(alice.get("/chat/stream", params=params, headers=headers))
    assert alice.get("/conversations").json()["conversations"] == []
    with alice.stream("GET", "/chat/stream", params=params) as response:  # curl-like
        assert response.status_code == 200
        "".join(response.iter_text())
    assert len(alice.get("/conversations").json()["conversations"]) == 1


def test_a_cross_site_login_or_delete_is_refused(alice: TestClient) -> None:
    body = {"username": "alice", "password": PASSWORD}
    _refused(alice.post("/auth/login", json=body, headers=FOREIGN[0]))
    _refused(alice.delete("/conversations/1", headers=FOREIGN[1]))
    _refused(alice.post("/auth/logout", headers=FOREIGN[0]))
    assert alice.get("/personal/files").status_code == 200, "still logged in"
