"""Compares a secret a client sent with the expected one in constant time, whatever it holds.

``hmac.compare_digest`` raises ``TypeError`` on a ``str`` with a non-ASCII character (a 500
before any credential check); headers reach us as Latin-1 text, so any client can send one.
Both sides are compared as UTF-8 bytes instead: a non-ASCII token is simply a wrong one.
"""

from __future__ import annotations

import hmac


def same_secret(sent: str, expected: str) -> bool:
    """Whether ``sent`` equals ``expected``, in time independent of where they differ."""
    return hmac.compare_digest(
        sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )
