"""Settings read from the environment (prefix ``VIGIA_``), one object for server and CLI."""

from __future__ import annotations

import os
import secrets
from functools import cached_property, lru_cache
from pathlib import Path

from pydantic import BaseModel, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from vigia.private_files import private_dir, write_private


class Price(BaseModel):
    """USD per million tokens for one model."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


DEFAULT_PRICES: dict[str, Price] = {
    "embedded": Price(input=0.0, output=0.0),
    "gpt-4o-mini": Price(input=0.15, output=0.60),
    "gpt-4o": Price(input=2.50, output=10.00),
    "gpt-4.1-mini": Price(input=0.40, output=1.60),
}


def default_write_concurrency() -> int:
    """Two write requests per CPU, 4 to 32: their work is mostly CPU (embedded models)."""
    return min(32, max(4, 2 * (os.cpu_count() or 2)))


class Settings(BaseSettings):
    """Every knob of a Vigia process. Secrets are ``SecretStr`` and never printed."""

    model_config = SettingsConfigDict(env_prefix="VIGIA_", env_nested_delimiter="__")

    data_dir: Path = Path(".vigia")
    database_url: str | None = None
    redis_url: str | None = None
    admin_token: SecretStr | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    public_base_url: str | None = None
    prices: dict[str, Price] = Field(default_factory=lambda: dict(DEFAULT_PRICES))
    workspace_key_rpm: int = Field(default=60, ge=1, le=10_000)
    channel_key_rpm: int = Field(default=600, ge=1, le=10_000)
    upstream_timeout_s: float = Field(default=60.0, gt=0)
    key_cache_ttl_s: float = Field(default=2.0, ge=0, le=60)
    embedding_threads: int = Field(default=1, ge=1, le=16)
    # Write admission (docs/foundation.md "Writes under load"): write requests running at
    # once (each uses at most one of anyio's 40 worker threads at a time), how many may
    # wait for a slot, and for how long, before a 503 with Retry-After.
    write_concurrency: int = Field(default_factory=default_write_concurrency, ge=1, le=32)
    write_queue: int = Field(default=1000, ge=0, le=100_000)
    write_wait_s: float = Field(default=30.0, gt=0, le=600)
    session_ttl_hours: int = Field(default=12, ge=1)
    session_idle_minutes: int = Field(default=120, ge=1)
    cookie_secure: bool = False
    metrics_public: bool = False
    """``GET /metrics`` without the admin token (for a scraper on a private network)."""
    retention_days: int | None = Field(default=None, ge=31, le=36_500)
    """Conversations, runs and reviews idle longer than this are purged (budgets need 31)."""
    shutdown_grace_s: int = Field(default=30, ge=1, le=3600)
    """How long a stopping server lets requests and streams in flight finish."""

    @model_validator(mode="after")
    def _refuse_weak_admin_token(self) -> Settings:
        token = self.admin_token.get_secret_value() if self.admin_token else None
        if token is not None and len(token) < 24:
            raise ValueError("VIGIA_ADMIN_TOKEN must be at least 24 characters")
        return self

    @cached_property
    def sqlalchemy_url(self) -> str:
        """The database URL, defaulting to a SQLite file in the data directory."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'vigia.db').resolve()}"

    @property
    def root_url(self) -> str:
        """Where clients reach this server (``VIGIA_PUBLIC_BASE_URL`` or host and port)."""
        return (self.public_base_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def base_url(self) -> str:
        """Where clients reach the OpenAI-compatible surface."""
        return self.root_url + "/v1"

    def resolved_admin_token(self) -> str:
        """The admin token: from the environment, else one generated once into the data dir."""
        if self.admin_token is not None:
            return self.admin_token.get_secret_value()
        path = self.data_dir / "admin_token"
        if path.exists():
            return path.read_text().strip()
        private_dir(self.data_dir)
        token = "adm-" + secrets.token_urlsafe(32)
        write_private(path, token.encode())
        return token


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (tests clear the cache to change them)."""
    return Settings()
