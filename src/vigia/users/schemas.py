"""Wire models of the JSON login (``/auth/login``, ``/auth/logout``) and of the forms that
add users and set passwords."""

from __future__ import annotations

from pydantic import BaseModel, Field

from vigia.users.roles import Role
from vigia.users.service import MAX_PASSWORD, MIN_PASSWORD, USERNAME


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


class MemberCreate(BaseModel):
    """A new user of a workspace, with their role (the console's users page)."""

    name: str = Field(max_length=64, pattern=USERNAME.pattern)
    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)
    role: Role = "viewer"


class NewPassword(BaseModel):
    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)
