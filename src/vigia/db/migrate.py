"""Runs Alembic migrations programmatically (server start, CLI, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from vigia.config import get_settings
from vigia.kit.private_files import private_dir

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations and ``url``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url or get_settings().sqlalchemy_url)
    return config


def upgrade(url: str | None = None) -> None:
    """Bring the database at ``url`` (default: the configured one) to the one head."""
    settings = get_settings()
    if url is None and settings.sqlalchemy_url.startswith("sqlite"):
        private_dir(settings.data_dir)
    command.upgrade(alembic_config(url), "head")
