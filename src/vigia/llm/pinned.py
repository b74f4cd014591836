"""An httpcore network backend that connects only where a host policy allows.

Every new connection checks its host against the policy and connects to the address that
was checked (TLS still verifies the URL's name): a DNS answer that changes after the check
(rebinding) cannot send the upstream's key to a private address.
"""

from __future__ import annotations

from collections.abc import Iterable

import httpcore
from httpcore import NetworkStream, SyncBackend
from httpcore._backends.base import SOCKET_OPTION

from vigia.egress import EgressRefused, HostPolicy, checked_host


class PinnedBackend(httpcore.NetworkBackend):
    """TCP connections to policy-checked addresses; no Unix sockets."""

    def __init__(self, policy: HostPolicy) -> None:
        self.policy = policy
        self.inner = SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SOCKET_OPTION] | None = None,
    ) -> NetworkStream:
        address = checked_host(host, port, self.policy)
        return self.inner.connect_tcp(str(address), port, timeout, local_address, socket_options)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[SOCKET_OPTION] | None = None,
    ) -> NetworkStream:
        raise EgressRefused("model providers are reached over TCP only")

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)
