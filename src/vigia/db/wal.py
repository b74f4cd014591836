"""SQLite WAL checkpoints off the request path.

SQLite copies the write-ahead log into the database file (a checkpoint, with its fsyncs)
on the commit that takes the log past ``wal_autocheckpoint`` pages, in the committing
connection. On the writer engine that connection is the process's only one: every writer
waited while a turn's commit checkpointed (10–20 ms every ~80 turns on the benchmark).
So a ``Checkpointer`` thread runs ``PRAGMA wal_checkpoint(PASSIVE)`` on a connection of its
own shortly after writes (a passive checkpoint waits for no reader or writer and blocks
none), and the engines' connections checkpoint only as a backstop, past
``AUTOCHECKPOINT_PAGES`` (~40 MB): under steady writes the log is seldom reset (SQLite
starts it over only when a write begins with every page copied), so it grows to that size
and the backstop's checkpoint, with little left to copy, starts it over. The thread starts
on a write and ends once a pause goes by with none, so an idle process (a test, a CLI
command) keeps no thread and nothing checkpoints a database nobody writes.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

logger = logging.getLogger(__name__)
INTERVAL_S = 0.5
AUTOCHECKPOINT_PAGES = 10_000  # SQLite's default is 1,000
THREAD_NAME = "vigia-wal-checkpoint"


class Checkpointer:
    """Checkpoints the WAL of the SQLite file at ``path`` ``interval_s`` after writes."""

    def __init__(self, path: Path, interval_s: float = INTERVAL_S) -> None:
        self._uri = path.resolve().as_uri() + "?mode=rw"  # never creates a database
        self._interval = interval_s
        self._lock = threading.Lock()
        self._wrote = False
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def wrote(self) -> None:
        """Notes a write transaction; starts the thread unless it runs already."""
        with self._lock:
            self._wrote = True
            if self._thread is None or not self._thread.is_alive():  # not alive after a fork
                self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
                self._thread.start()

    def stop(self) -> None:
        """Ends the thread after the checkpoint it may be running (without waiting for it:
        this runs as its engine's finalizer)."""
        self._stop.set()

    def _idle(self) -> bool:
        """True (and the thread forgotten) when nothing was written since the last look."""
        with self._lock:
            if self._wrote:
                self._wrote = False
                return False
            self._thread = None
            return True

    def _run(self) -> None:
        connection: sqlite3.Connection | None = None
        try:
            while not self._stop.wait(self._interval) and not self._idle():
                if connection is None:
                    connection = sqlite3.connect(self._uri, uri=True)
                checkpoint_once(connection)
        except sqlite3.Error as error:  # the file went away: its writers will say so
            logger.warning("wal checkpoint stopped: %s", error)
            with self._lock:
                self._thread = None
        finally:
            if connection is not None:
                connection.close()


def checkpoint_once(connection: sqlite3.Connection) -> None:
    """One passive checkpoint; skipped while another process's checkpoint runs."""
    try:
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    except sqlite3.OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise
