"""Outbound HTTP to hosts a policy allows: the guard against server-side request forgery.

A ``HostPolicy`` is a list of entries: host names (``api.example.com``), name suffixes
(``*.example.com``), addresses (``127.0.0.1``, ``::1``) and networks (``10.0.0.0/8``).
A request goes out only when

1. its host matches an entry (a name or suffix, or an address inside an address/network);
2. every address the host resolves to is public (``ipaddress``'s ``is_global``), or lies
   inside an address/network entry: private, loopback, link-local and reserved addresses
   must be allowed explicitly;

and it connects to the address that was checked (the URL keeps its name in ``Host`` and in
TLS SNI, so certificates are verified against the name): a DNS answer that changes between
the check and the connection (rebinding) cannot redirect it. Redirects are not followed,
proxies from the environment are not used, and the body is read up to a size limit within
a total deadline.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_NAME = re.compile(rf"^(\*\.)?{_LABEL}(\.{_LABEL})*$")
MAX_ENTRIES = 100


class EgressRefused(Exception):
    """The request may not go out (host not allowed, private address, bad URL)."""


class ResponseTooLarge(Exception):
    """The answer is longer than the caller's limit."""


def normalize_entry(entry: str) -> str:
    """The entry as stored (lowercase; networks in canonical form); ValueError if invalid."""
    value = entry.strip().lower().rstrip(".")
    if not value or len(value) > 253:
        raise ValueError(f"invalid host entry: {entry!r}")
    try:
        if "/" in value:
            return str(ipaddress.ip_network(value, strict=False))
        return str(ipaddress.ip_address(value.strip("[]")))
    except ValueError:
        pass
    if not _NAME.match(value):
        raise ValueError(f"invalid host entry: {entry!r}")
    return value


def _plain(address: IPAddress) -> IPAddress:
    """An IPv4-mapped IPv6 address as the IPv4 address it stands for."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _address(host: str) -> IPAddress | None:
    try:
        return _plain(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        return None


class HostPolicy:
    """Which hosts and addresses outbound requests may reach."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.names: set[str] = set()
        self.suffixes: list[str] = []
        self.networks: list[IPNetwork] = []
        for entry in entries:
            value = normalize_entry(entry)
            if value.startswith("*."):
                self.suffixes.append(value[1:])
            elif _address(value) is not None or "/" in value:
                self.networks.append(ipaddress.ip_network(value, strict=False))
            else:
                self.names.add(value)

    def _listed(self, address: IPAddress) -> bool:
        return any(address.version == n.version and address in n for n in self.networks)

    def allows_host(self, host: str) -> bool:
        """Whether the URL's host is listed (by name, suffix, or address)."""
        host = host.lower().rstrip(".")
        literal = _address(host)
        if literal is not None:
            return self._listed(literal)
        return host in self.names or any(host.endswith(s) for s in self.suffixes)

    def allows_address(self, address: IPAddress) -> bool:
        """Public addresses, and private ones inside an address or network entry."""
        address = _plain(address)
        return address.is_global or self._listed(address)


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (an address literal is itself)."""
    literal = _address(host)
    if literal is not None:
        return [literal]
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise EgressRefused(f"cannot resolve host '{host}'") from error
    found: list[IPAddress] = []
    for info in infos:
        address = _plain(ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]))
        if address not in found:
            found.append(address)
    if not found:
        raise EgressRefused(f"cannot resolve host '{host}'")
    return found


def checked_address(url: httpx.URL, policy: HostPolicy) -> IPAddress:
    """The address to connect to for ``url``; refuses hosts and addresses the policy does not
    allow."""
    if url.scheme not in ("http", "https") or not url.host:
        raise EgressRefused("only http(s) URLs with a host can be called")
    return checked_host(url.host, url.port or (443 if url.scheme == "https" else 80), policy)


def checked_host(host: str, port: int, policy: HostPolicy) -> IPAddress:
    """The address to connect to for ``host``; refuses hosts and addresses the policy does
    not allow."""
    if not policy.allows_host(host):
        raise EgressRefused(f"host '{host}' is not in the workspace's tool hosts")
    addresses = resolve(host, port)
    for address in addresses:
        if not policy.allows_address(address):
            raise EgressRefused(
                f"host '{host}' resolves to {address}, a private address the workspace "
                "does not allow"
            )
    return addresses[0]


@dataclass(frozen=True)
class Fetched:
    status: int
    body: bytes
    content_type: str


def fetch(
    method: str,
    url: str,
    policy: HostPolicy,
    *,
    headers: dict[str, str] | None = None,
    json_body: Any = None,
    timeout_s: float = 10.0,
    max_bytes: int = 1_000_000,
) -> Fetched:
    """One request to ``url`` through ``policy``; raises ``EgressRefused``,
    ``ResponseTooLarge`` or ``httpx.HTTPError`` (timeouts included)."""
    try:
        target = httpx.URL(url)
    except httpx.InvalidURL as error:
        raise EgressRefused(f"invalid URL: {error}") from error
    address = checked_address(target, policy)
    pinned = target.copy_with(host=str(address))
    sent = {**(headers or {}), "Host": target.netloc.decode("ascii"), "Accept-Encoding": "identity"}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    deadline = time.monotonic() + timeout_s
    with httpx.Client(trust_env=False, follow_redirects=False, timeout=timeout_s) as client:
        request = client.build_request(
            method, pinned, headers=sent, json=json_body, extensions=extensions
        )
        response = client.send(request, stream=True)
        try:
            body = bytearray()
            for piece in response.iter_bytes():
                body += piece
                if len(body) > max_bytes:
                    raise ResponseTooLarge(f"the answer is longer than {max_bytes} bytes")
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("the answer took longer than the timeout")
        finally:
            response.close()
    return Fetched(response.status_code, bytes(body), response.headers.get("content-type", ""))
