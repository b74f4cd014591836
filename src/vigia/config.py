"""Settings read from the environment (prefix ``VIGIA_``), one object for server and CLI."""

from __future__ import annotations

import base64
import ipaddress
import json
import os
import secrets
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from vigia.kit.private_files import private_dir, write_private


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


IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


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
    secret_key: SecretStr | None = None
    """Key (base64, 32 bytes) that encrypts workspace secrets; else one generated once into
    the data dir (replicas must share it)."""
    model_key_envs: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """Environment variables an agent's ``api_key_env`` may name (``VIGIA_*`` never)."""
    host: str = "127.0.0.1"
    port: int = 8000
    public_base_url: str | None = None
    prices: dict[str, Price] = Field(default_factory=lambda: dict(DEFAULT_PRICES))
    workspace_key_rpm: int = Field(default=60, ge=1, le=10_000)
    channel_key_rpm: int = Field(default=600, ge=1, le=10_000)
    upstream_timeout_s: float = Field(default=60.0, gt=0)
    # Local GGUF models (docs/local-models.md): llama.cpp threads (unset: 1 on two cores or
    # fewer, half the cores above), requests generating at once per model file, how many
    # more may wait before a 503 with Retry-After, and the context window in tokens.
    local_threads: int | None = Field(default=None, ge=1, le=256)
    local_parallel: int = Field(default=1, ge=1, le=16)
    local_queue: int = Field(default=4, ge=0, le=1000)
    local_context: int = Field(default=4096, ge=512, le=131_072)
    key_cache_ttl_s: float = Field(default=2.0, ge=0, le=60)
    settings_cache_ttl_s: float = Field(default=2.0, ge=0, le=60)  # workspaces.settings_cache
    embedding_threads: int = Field(default=1, ge=1, le=16)
    # Write admission (docs/foundation.md "Writes under load"): write requests running at
    # once (each uses at most one of anyio's 40 worker threads at a time), how many may
    # wait for a slot, and for how long, before a 503 with Retry-After.
    write_concurrency: int = Field(default_factory=default_write_concurrency, ge=1, le=32)
    write_queue: int = Field(default=1000, ge=0, le=100_000)
    write_wait_s: float = Field(default=30.0, gt=0, le=600)
    # Model work (vigia.kit.model_work): threads that run embeddings, the injection detector
    # and decisions for the requests (one per core by default), and their nice value.
    model_workers: int = Field(default_factory=lambda: os.cpu_count() or 2, ge=1, le=64)
    model_workers_nice: int = Field(default=10, ge=0, le=19)
    # Background knowledge indexing (docs/knowledge.md): uploads queued for the one ingest
    # worker before a 503 with Retry-After, and after how long a worker that stopped
    # reporting progress (a server that died) has its upload taken over.
    knowledge_ingest_queue: int = Field(default=8, ge=1, le=1000)
    knowledge_ingest_stale_s: float = Field(default=120.0, gt=0, le=86_400)
    session_ttl_hours: int = Field(default=12, ge=1)
    session_idle_minutes: int = Field(default=120, ge=1)
    cookie_secure: bool = False
    """``Secure`` on every cookie; without it, on those of requests that came over HTTPS."""
    trusted_proxies: Annotated[list[IpNetwork], NoDecode] = Field(default_factory=list)
    """Proxies whose ``X-Forwarded-For``/``-Proto`` count (comma-separated addresses or
    networks; docs/deploy.md). Empty: the socket peer is the client."""
    api_docs: bool = False
    """Serves ``/docs`` and ``/redoc`` (their pages load Swagger UI and ReDoc from a CDN)."""
    metrics_public: bool = False
    """``GET /metrics`` without the admin token (for a scraper on a private network)."""
    retention_days: int | None = Field(default=None, ge=31, le=36_500)
    """Conversations, runs and reviews idle longer than this are purged (budgets need 31)."""
    shutdown_grace_s: int = Field(default=30, ge=1, le=3600)
    """How long a stopping server lets requests and streams in flight finish."""

    @field_validator("model_key_envs", mode="before")
    @classmethod
    def _split_key_envs(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            return (
                json.loads(text)
                if text.startswith("[")
                else [name.strip() for name in text.split(",") if name.strip()]
            )
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

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

    def resolved_secret_key(self) -> bytes:
        """The 32-byte key of workspace secrets: ``VIGIA_SECRET_KEY``, else one generated once
        into the data dir (0600)."""
        if self.secret_key is not None:
            key = base64.b64decode(self.secret_key.get_secret_value(), validate=True)
            if len(key) != 32:
                raise ValueError("VIGIA_SECRET_KEY must be 32 bytes in base64")
            return key
        path = self.data_dir / "secret_key"
        if not path.exists():
            private_dir(self.data_dir)
            try:  # created exclusively: replicas sharing the folder agree on one key
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                pass
            else:
                with os.fdopen(descriptor, "wb") as handle:
                    handle.write(base64.b64encode(secrets.token_bytes(32)))
        return base64.b64decode(path.read_text().strip())


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (tests clear the cache to change them)."""
    return Settings()
