"""The outbound guard: which hosts and addresses a workspace's tools may reach, and the
connection pinned to the address that was checked (no DNS rebinding)."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.conftest import serve_in_thread
from vigia.egress import EgressRefused, HostPolicy, fetch, normalize_entry


def ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(text)


def test_entries_are_normalized_and_bad_ones_refused() -> None:
    assert normalize_entry(" API.Example.com. ") == "api.example.com"
    assert normalize_entry("10.1.2.3/8") == "10.0.0.0/8"
    assert normalize_entry("[::1]") == "::1"
    assert normalize_entry("*.example.com") == "*.example.com"
    for bad in ("", "http://x.com", "exa mple.com", "x.com/path", "-x.com", "*.*.com"):
        with pytest.raises(ValueError, match="invalid host entry"):
            normalize_entry(bad)


def test_hosts_match_by_name_suffix_or_address() -> None:
    policy = HostPolicy(["api.example.com", "*.tools.example", "10.0.0.0/8"])
    assert policy.allows_host("API.example.com")
    assert policy.allows_host("a.b.tools.example")
    assert not policy.allows_host("tools.example"), "a suffix entry needs a subdomain"
    assert not policy.allows_host("evil-api.example.com")
    assert policy.allows_host("10.2.3.4")
    assert not policy.allows_host("127.0.0.1")


def test_private_addresses_need_an_explicit_entry() -> None:
    policy = HostPolicy(["127.0.0.1", "fd00::/8"])
    assert policy.allows_address(ip("93.184.216.34"))
    assert policy.allows_address(ip("127.0.0.1"))
    assert policy.allows_address(ip("fd00::1"))
    for private in (
        "127.0.0.2",
        "10.0.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fe80::1",
        "::ffff:10.0.0.1",
    ):
        assert not policy.allows_address(ip(private)), private
    assert HostPolicy(["127.0.0.1"]).allows_address(ip("::ffff:127.0.0.1"))


@pytest.fixture
def server() -> Iterator[str]:
    async def echo(request: Request) -> Response:
        return PlainTextResponse(request.headers["host"])

    async def moved(request: Request) -> Response:
        return RedirectResponse("http://169.254.169.254/latest/meta-data")

    app = Starlette(routes=[Route("/echo", echo), Route("/moved", moved)])
    with serve_in_thread(app) as url:
        yield url


def test_a_name_connects_to_the_address_checked_once(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = int(server.rsplit(":", 1)[1])
    real = socket.getaddrinfo
    lookups: list[str] = []

    def rebinding(host: str, *args: Any, **kwargs: Any) -> Any:
        if host == "tools.example":
            lookups.append(host)
            # First answer loopback (allowed below); any later answer would be elsewhere.
            address = "127.0.0.1" if len(lookups) == 1 else "10.9.9.9"
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    policy = HostPolicy(["tools.example", "127.0.0.1"])
    fetched = fetch("GET", f"http://tools.example:{port}/echo", policy)
    assert fetched.status == 200 and fetched.body == f"tools.example:{port}".encode()
    assert lookups == ["tools.example"], "resolved once: the connection used that answer"
    with pytest.raises(EgressRefused, match=r"10\.9\.9\.9, a private address"):
        fetch("GET", f"http://tools.example:{port}/echo", policy)


def test_redirects_are_not_followed(server: str) -> None:
    fetched = fetch("GET", server + "/moved", HostPolicy(["127.0.0.1"]))
    assert fetched.status == 307 and fetched.body == b""


def test_only_http_urls_with_a_listed_host_go_out() -> None:
    policy = HostPolicy(["127.0.0.1"])
    with pytest.raises(EgressRefused, match="only http"):
        fetch("GET", "file:///etc/passwd", policy)
    with pytest.raises(EgressRefused, match="not in the workspace's tool hosts"):
        fetch("GET", "http://127.0.0.2/", policy)
