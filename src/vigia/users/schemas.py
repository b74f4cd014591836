"""Wire models of the JSON login (``/auth/login``, ``/auth/logout``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class LoginRequest(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class LoginOut(BaseModel):
    """The logged-in user (the session travels in the ``sherpa_session`` cookie)."""

    id: str
    name: str


class DoneOut(BaseModel):
    """An action without anything else to report (logout, file deletion)."""

    ok: bool = True
