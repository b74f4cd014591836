"""Personal files: uploaded by one user, stored under the data dir, never indexed in the
shared knowledge base, only ever grepped for their owner."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.errors import Conflict, Invalid, NotFound, TooLarge, UnsupportedMedia
from vigia.kit.fields import has_control_characters
from vigia.kit.private_files import private_dir
from vigia.users.models import User
from vigia.worlds.answer.names import line_score
from vigia.worlds.catalog import normalise_scope_path
from vigia.worlds.models import PersonalFile
from vigia.worlds.schemas import PersonalHit

MAX_FILE_BYTES = 1024 * 1024
MAX_FILES = 200
MAX_HITS = 8
MAX_PATH_CHARS = 255
FILE_NAME = {"what": "file name", "within": "your personal folder"}


def user_root(user: User) -> Path:
    """The user's own folder (named by id, never by anything from a request)."""
    return get_settings().data_dir / "worlds" / "personal" / user.id


def _target(user: User, rel_path: str) -> Path:
    root = user_root(user).resolve()
    target = (root / rel_path).resolve()
    if root not in target.parents:
        raise Invalid("file name must stay inside your personal folder")
    return target


def upload(session: Session, user: User, name: str, data: bytes) -> PersonalFile:
    """Stores a UTF-8 text file for ``user`` (replacing one of the same name)."""
    rel_path = _checked_name(name)
    if len(data) > MAX_FILE_BYTES:
        raise TooLarge(f"personal files are limited to {MAX_FILE_BYTES} bytes")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsupportedMedia("personal files must be UTF-8 text") from exc
    if b"\x00" in data:
        raise UnsupportedMedia("personal files must be text: this file holds NUL bytes")
    record = session.scalar(
        select(PersonalFile).where(
            PersonalFile.user_id == user.id, PersonalFile.rel_path == rel_path
        )
    )
    if record is None:
        count = len(
            list(session.scalars(select(PersonalFile.id).where(PersonalFile.user_id == user.id)))
        )
        if count >= MAX_FILES:
            raise Invalid(f"at most {MAX_FILES} personal files")
        record = PersonalFile(user_id=user.id, rel_path=rel_path, size=0, sha256="")
        session.add(record)
    _write(user, rel_path, data)
    record.size, record.sha256 = len(data), hashlib.sha256(data).hexdigest()
    session.flush()
    return record


def _checked_name(name: str) -> str:
    """The normalised relative path of an upload, or 422 for a name no folder can hold."""
    if has_control_characters(name):
        raise Invalid("file name must not contain control characters (newline, tab…)")
    rel_path = normalise_scope_path(name, **FILE_NAME)
    if len(rel_path) > MAX_PATH_CHARS:
        raise Invalid(f"file name longer than {MAX_PATH_CHARS} characters")
    return rel_path


def _write(user: User, rel_path: str, data: bytes) -> None:
    """Writes the file atomically (a temporary file beside it, then a rename); 409 when the
    name is taken by a folder, or a folder on its way is a file. Leaves nothing behind."""
    root = user_root(user).resolve()
    target = _target(user, rel_path)
    if target.is_dir():
        raise Conflict(f"{rel_path!r} is a folder of your personal files")
    for parent in target.parents:
        if parent == root:
            break
        if parent.exists() and not parent.is_dir():
            raise Conflict(f"{parent.relative_to(root).as_posix()!r} is a file, not a folder")
    private_dir(target.parent)
    handle, temporary = tempfile.mkstemp(  # created 0600
        dir=target.parent, prefix=".", suffix=".uploading"
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except (IsADirectoryError, NotADirectoryError, FileExistsError) as error:
        raise Conflict(f"{rel_path!r} clashes with a folder of your personal files") from error
    finally:
        Path(temporary).unlink(missing_ok=True)


def list_files(session: Session, user: User) -> list[PersonalFile]:
    return list(
        session.scalars(
            select(PersonalFile)
            .where(PersonalFile.user_id == user.id)
            .order_by(PersonalFile.rel_path)
        )
    )


def remove(session: Session, user: User, name: str) -> None:
    rel_path = normalise_scope_path(name, **FILE_NAME)
    record = session.scalar(
        select(PersonalFile).where(
            PersonalFile.user_id == user.id, PersonalFile.rel_path == rel_path
        )
    )
    if record is None:
        raise NotFound(f"personal file {rel_path!r} not found")
    session.delete(record)
    session.flush()
    target = _target(user, rel_path)
    target.unlink(missing_ok=True)
    _prune_empty_folders(user, target)


def _prune_empty_folders(user: User, target: Path) -> None:
    """Removes the folders a deleted file leaves empty, so a file may take their name."""
    root = user_root(user).resolve()
    for parent in target.parents:
        if parent == root:
            return
        try:
            parent.rmdir()
        except OSError:
            return


def grep(session: Session, user: User, terms: list[str]) -> list[PersonalHit]:
    """Lines of the user's own files holding the most query terms, best first."""
    if not terms:
        return []
    hits: list[tuple[int, str, int, str]] = []
    for record in list_files(session, user):
        target = _target(user, record.rel_path)
        if not target.exists():
            continue
        text = target.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            score = line_score(line, terms)
            if score:
                hits.append((score, record.rel_path, number, line.strip()[:300]))
    hits.sort(key=lambda h: (-h[0], h[1], h[2]))
    return [PersonalHit(rel_path=p, line=n, text=t) for _s, p, n, t in hits[:MAX_HITS]]
