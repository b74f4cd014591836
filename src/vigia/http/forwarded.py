"""Who the client is behind trusted proxies (``VIGIA_TRUSTED_PROXIES``).

``X-Forwarded-For`` and ``X-Forwarded-Proto`` are anyone's to write, so they count only when
the socket peer is a listed proxy. Then the client is the right-most address of the chain
that is not itself a listed proxy: each proxy appends the address it saw, so what lies left
of the first untrusted hop is the client's own claim. With no proxies listed (the default)
the socket peer is the client and both headers are ignored.

The middleware rewrites the ASGI scope's ``client`` and ``scheme``, so every part of the app
(login throttling, ``Secure`` cookies, logs) sees the same answer. ``vigia serve`` turns
uvicorn's own proxy header handling off (``UVICORN_OPTIONS``): it trusts loopback by default.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from typing import Any

from starlette.types import Receive, Scope, Send

from vigia.config import IpNetwork, get_settings
from vigia.http.middleware import HttpMiddleware

UVICORN_OPTIONS: dict[str, Any] = {"proxy_headers": False}
"""How ``vigia serve`` runs uvicorn: this middleware, not uvicorn, reads forwarded headers."""

MAX_HOPS = 32
"""Addresses of a chain looked at, from the right; a longer chain's rest is ignored."""


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def is_trusted(address: str | None, proxies: Sequence[IpNetwork]) -> bool:
    """Whether ``address`` lies in one of the listed proxy networks."""
    ip = _address(address) if address else None
    return ip is not None and any(ip.version == net.version and ip in net for net in proxies)


def client_address(
    peer: str | None, forwarded_for: str | None, proxies: Sequence[IpNetwork]
) -> str | None:
    """The client's address: the peer, unless it is a listed proxy; then the right-most
    address of ``forwarded_for`` that is not a listed proxy (the left-most when all are).
    A hop that is not an IP address ends the walk: it is taken as the client."""
    if not is_trusted(peer, proxies) or not forwarded_for:
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",")][-MAX_HOPS:]
    client = peer
    for hop in reversed(hops):
        ip = _address(hop)
        if ip is None:
            return hop[:64] if hop else client
        client = str(ip)
        if not is_trusted(client, proxies):
            return client
    return client


def forwarded_scheme(
    peer: str | None, proto: str | None, scheme: str, proxies: Sequence[IpNetwork]
) -> str:
    """``https`` or ``http`` as a listed proxy's ``X-Forwarded-Proto`` says, else ``scheme``."""
    if proto is None or not is_trusted(peer, proxies):
        return scheme
    last = proto.split(",")[-1].strip().lower()
    return last if last in ("http", "https") else scheme


class ForwardedMiddleware(HttpMiddleware):
    """ASGI middleware: the scope's client and scheme as the trusted proxies report them."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        proxies = get_settings().trusted_proxies
        peer = scope.get("client")
        if proxies and peer:
            host = peer[0]
            client = client_address(host, _header(scope, b"x-forwarded-for"), proxies)
            proto = _header(scope, b"x-forwarded-proto")
            scheme = forwarded_scheme(host, proto, scope.get("scheme", "http"), proxies)
            scope = {**scope, "scheme": scheme}
            if client != host:
                scope["client"] = (client, 0)
        await self.app(scope, receive, send)


def _header(scope: Scope, name: bytes) -> str | None:
    """Every value of header ``name``, joined by commas (one list, as RFC 9110 reads them)."""
    values = [value.decode("latin-1") for key, value in scope.get("headers", ()) if key == name]
    return ",".join(values) if values else None
