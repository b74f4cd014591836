"""API key material: generation, hashing and the display prefix."""

from __future__ import annotations

import hashlib
import secrets

KEY_PREFIX = "sk-vigia-"


def generate_key() -> str:
    """A new secret key, shown to its owner once."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """SHA-256 of the key: keys carry 256 random bits, so a fast hash is safe to store."""
    return hashlib.sha256(key.encode()).hexdigest()


def display_prefix(key: str) -> str:
    return key[: len(KEY_PREFIX) + 6]
