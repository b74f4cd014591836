"""Declarative base shared by every domain's tables, and column helpers."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, MetaData, String, Table
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """Timezone-aware now, the only clock the storage uses."""
    return datetime.now(UTC)


def new_id() -> str:
    """A random UUID as text: ids are opaque strings on every backend."""
    return str(uuid.uuid4())


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: DateTime(timezone=True),
        dict[str, Any]: JSON,
        list[str]: JSON,
    }


def id_column() -> Mapped[str]:
    return mapped_column(String(36), primary_key=True, default=new_id)


def created_column() -> Mapped[datetime]:
    return mapped_column(default=utcnow)


def table_of(model: type[Base]) -> Table:
    """The Core table of a mapped class (for Core inserts on hot paths)."""
    table = model.__table__
    assert isinstance(table, Table)
    return table
