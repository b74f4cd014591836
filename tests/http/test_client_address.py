"""The client address behind trusted proxies: the right-most untrusted hop, and forwarded
headers only from a listed peer."""

from __future__ import annotations

from ipaddress import ip_network

from vigia.http.forwarded import client_address, forwarded_scheme, is_trusted

NGINX = [ip_network("127.0.0.1/32"), ip_network("10.0.0.0/8")]


def test_without_listed_proxies_the_peer_is_the_client() -> None:
    assert client_address("127.0.0.1", "203.0.113.9", []) == "127.0.0.1"
    assert client_address("198.51.100.7", "203.0.113.9", NGINX) == "198.51.100.7"


def test_a_listed_peer_gives_the_right_most_untrusted_hop() -> None:
    assert client_address("127.0.0.1", "203.0.113.9", NGINX) == "203.0.113.9"
    # A client's own claim (left) is ignored; hops appended by listed proxies are skipped.
    chain = "1.1.1.1, 203.0.113.9, 10.0.0.5"
    assert client_address("127.0.0.1", chain, NGINX) == "203.0.113.9"


def test_a_chain_of_listed_proxies_only_gives_its_left_most() -> None:
    assert client_address("127.0.0.1", "10.0.0.7, 10.0.0.5", NGINX) == "10.0.0.7"


def test_an_empty_or_odd_header_never_escapes_the_peer() -> None:
    assert client_address("127.0.0.1", None, NGINX) == "127.0.0.1"
    assert client_address("127.0.0.1", "", NGINX) == "127.0.0.1"
    assert client_address("127.0.0.1", "unknown", NGINX) == "unknown"
    assert client_address("127.0.0.1", "203.0.113.9:4711", NGINX) == "203.0.113.9"
    assert client_address("127.0.0.1", "[2001:db8::1]:4711", NGINX) == "2001:db8::1"


def test_ipv6_and_non_addresses_against_the_list() -> None:
    proxies = [ip_network("::1/128"), *NGINX]
    assert is_trusted("::1", proxies) and is_trusted("10.2.3.4", proxies)
    assert not is_trusted("::2", proxies) and not is_trusted("testclient", proxies)
    assert not is_trusted(None, proxies)


def test_the_scheme_comes_from_a_listed_proxy_only() -> None:
    assert forwarded_scheme("127.0.0.1", "https", "http", NGINX) == "https"
    assert forwarded_scheme("198.51.100.7", "https", "http", NGINX) == "http"
    assert forwarded_scheme("127.0.0.1", "gopher", "http", NGINX) == "http"
    assert forwarded_scheme("127.0.0.1", None, "https", NGINX) == "https"
