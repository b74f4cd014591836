"""Online backups of a Vigia installation, and restores into an empty data directory.

A backup is a folder: ``manifest.json``, ``vigia.db`` (SQLite, copied with SQLite's online
backup API while the server runs) and ``files/`` (everything else in the data directory:
the generated admin token, personal files…). The manifest lists the registered worlds:
their folders live outside the data directory and must exist (or be re-registered) where
the backup is restored. On PostgreSQL the database is not copied: the manifest and the
command's output give the ``pg_dump`` / ``pg_restore`` commands to run beside it.

Everything a backup or restore writes is private: folders 0700, files 0600 (a backup holds
every conversation and the admin token).

The database is copied first, the files second: a file written in between is kept without a
row pointing at it, which is harmless; the opposite order could restore rows without files.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from vigia import __version__
from vigia.config import Settings, get_settings
from vigia.db.base import utcnow
from vigia.db.session import session_scope
from vigia.errors import Conflict, Invalid, NotFound
from vigia.kit.private_files import DIR_MODE, private_dir, private_file, write_private
from vigia.worlds.catalog import list_worlds

MANIFEST = "manifest.json"
DATABASE = "vigia.db"
FILES = "files"
FORMAT = 1


def _sqlite_path(settings: Settings) -> Path | None:
    """The SQLite database file, or None on another backend."""
    url = make_url(settings.sqlalchemy_url)
    if url.get_backend_name() != "sqlite":
        return None
    if not url.database or url.database == ":memory:":
        raise Invalid("an in-memory SQLite database cannot be backed up")
    return Path(url.database).resolve()


def _skipped(database: Path | None) -> set[Path]:
    """The database file and its WAL companions: never copied as plain files."""
    if database is None:
        return set()
    return {database, *(Path(f"{database}{suffix}") for suffix in ("-wal", "-shm", "-journal"))}


def _copy_tree(source: Path, target: Path, skip: set[Path]) -> list[str]:
    """Copies every regular file under ``source`` as a 0600 file; returns their relative paths."""
    copied: list[str] = []
    if not source.is_dir():
        return copied
    for folder, dirs, names in os.walk(source):
        dirs.sort()
        for name in sorted(names):
            path = Path(folder) / name
            if path.resolve() in skip or path.is_symlink() or not path.is_file():
                continue
            rel = path.relative_to(source)
            private_dir((target / rel).parent)
            shutil.copyfile(path, private_file(target / rel))
            times = path.stat()
            os.utime(target / rel, ns=(times.st_atime_ns, times.st_mtime_ns))
            copied.append(rel.as_posix())
    return copied


def _sqlite_copy(source: Path, target: Path) -> str:
    """A consistent copy through SQLite's online backup API; returns its quick check.

    One step (the whole database under one read transaction): a snapshot even while the
    server writes, since WAL readers do not block writers. The copy is a single file.
    """
    private_file(target)  # SQLite keeps the mode of the file it opens (and its journals')
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        check = dst.execute("PRAGMA quick_check").fetchone()[0]
        dst.execute("PRAGMA journal_mode=DELETE")
    return str(check)


def _postgres_route(settings: Settings, folder: Path) -> dict[str, str]:
    url = make_url(settings.sqlalchemy_url).set(drivername="postgresql")
    safe = url.render_as_string(hide_password=True)
    dump = folder / "vigia.pgdump"
    return {
        "backend": "postgresql",
        "pg_dump": f"pg_dump --format=custom --no-owner --file={dump} '{safe}'",
        "pg_restore": f"pg_restore --no-owner --clean --if-exists --dbname='{safe}' {dump}",
        "note": "run pg_dump now (the password comes from PGPASSWORD or ~/.pgpass)",
    }


def _empty(folder: Path) -> bool:
    return not folder.exists() or (folder.is_dir() and not any(folder.iterdir()))


def _worlds() -> list[dict[str, str]]:
    with session_scope() as session:
        return [{"id": w.id, "path": w.path} for w in list_worlds(session)]


def backup(destination: Path) -> dict[str, Any]:
    """Backs the configured installation up into ``destination`` (a new or empty folder)."""
    settings = get_settings()
    destination = destination.resolve()
    if not _empty(destination):
        raise Conflict(f"backup folder {destination} is not empty")
    database_file = _sqlite_path(settings)
    if database_file is not None and not database_file.exists():
        raise NotFound(f"no database at {database_file}: nothing to back up")
    worlds = _worlds()
    private_dir(destination).chmod(DIR_MODE)  # an empty folder given may have been 0755
    if database_file is not None:
        check = _sqlite_copy(database_file, destination / DATABASE)
        database: dict[str, str] = {"backend": "sqlite", "file": DATABASE, "quick_check": check}
    else:
        database = _postgres_route(settings, destination)
    (destination / FILES).mkdir(mode=DIR_MODE)
    files = _copy_tree(settings.data_dir, destination / FILES, _skipped(database_file))
    manifest = {
        "format": FORMAT,
        "vigia_version": __version__,
        "created_at": utcnow().isoformat(),
        "database": database,
        "files": files,
        "worlds": worlds,
    }
    write_private(
        destination / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False).encode()
    )
    return {"path": str(destination), "database": database, "files": len(files), "worlds": worlds}


def _manifest(source: Path) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((source / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        raise Invalid(f"{source} is not a Vigia backup (no readable {MANIFEST})") from error
    if manifest.get("format") != FORMAT:
        raise Invalid(f"unknown backup format {manifest.get('format')!r}")
    return manifest


def restore(source: Path) -> dict[str, Any]:
    """Restores the backup at ``source`` into the configured, empty, data directory."""
    settings = get_settings()
    source = source.resolve()
    manifest = _manifest(source)
    data_dir = settings.data_dir.resolve()
    if not _empty(data_dir):
        raise Conflict(f"data directory {data_dir} is not empty: restore needs an empty one")
    database_file = _sqlite_path(settings)
    backend = manifest["database"]["backend"]
    if (backend == "sqlite") != (database_file is not None):
        configured = "SQLite" if database_file is not None else "PostgreSQL"
        raise Conflict(f"the backup holds a {backend} database but {configured} is configured")
    if database_file is not None and database_file.exists():
        raise Conflict(f"a database already exists at {database_file}")
    private_dir(data_dir)
    if database_file is not None:
        private_dir(database_file.parent)
        check = _sqlite_copy(source / DATABASE, database_file)
        database: dict[str, str] = {
            "backend": "sqlite",
            "file": str(database_file),
            "quick_check": check,
        }
    else:
        database = {**manifest["database"], "note": "run pg_restore now to restore the database"}
    files = _copy_tree(source / FILES, data_dir, set())
    return {
        "path": str(data_dir),
        "source": str(source),
        "database": database,
        "files": len(files),
        "worlds": manifest.get("worlds", []),
    }
