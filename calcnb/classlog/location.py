"""Where a class log lives and how it is reached: its location read as a URL, printed without a password, and an
engine whose every wait for a lock ends within a timeout.

A class log is a SQLite file or any database URL SQLAlchemy speaks (PostgreSQL for a JupyterHub).
:func:`database_url` reads the location the teacher typed; :func:`hidden_password` is how any message
prints it; :func:`make_engine` never hangs a kernel on a lock and never makes an empty SQLite file where a
deleted log was. :class:`calcnb.classlog.store.ClassLog` opens a log with them.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

from calcnb.classlog.schema import ClassLogError
from calcnb.game.errors import quote
from calcnb.i18n import message

__all__ = ["database_url", "hidden_password", "make_engine", "reason"]


def database_url(location: str | os.PathLike, *, base: str | os.PathLike | None = None) -> sa.URL:
    """The SQLAlchemy URL of a class log given as a file path (SQLite) or a database URL.

    A relative SQLite path, bare or in a ``sqlite:///`` URL, is resolved against ``base`` (default: the
    current directory, where the teacher ran the command), so ``rel.db`` and ``sqlite:///rel.db`` are
    one file. ``postgresql://`` URLs use the psycopg driver. Raises :class:`ClassLogError` for an
    empty location, one SQLAlchemy cannot read, or a log in memory (nothing would be kept).
    """
    text = os.fspath(location).strip() if location is not None else ""
    if not text:
        raise ClassLogError(message("classlog.bad_location", location=quote(location)))
    if "://" not in text:
        if text == ":memory:":
            raise ClassLogError(message("classlog.in_memory", location=quote(text)))
        path = Path(text).expanduser()
        return sa.URL.create("sqlite", database=str((Path(base or Path.cwd()) / path).resolve()))
    try:
        url = make_url(text)
    except Exception as error:
        raise ClassLogError(message("classlog.bad_location", location=quote(hidden_password(text)))) from error
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        in_memory = (
            database in ("", ":memory:") or url.query.get("mode") == "memory" or database.startswith("file::memory:")
        )
        if in_memory:
            raise ClassLogError(message("classlog.in_memory", location=quote(hidden_password(text))))
        if not database.startswith("file:") and not Path(database).is_absolute():
            url = url.set(database=str((Path(base or Path.cwd()) / Path(database).expanduser()).resolve()))
    return url


def hidden_password(location: str | os.PathLike | sa.URL) -> str:
    """A class log's location as it may be printed: a URL's password hidden (``***``), a path as given.

    >>> hidden_password("postgresql://teacher:secret@db.school/lesson")
    'postgresql://teacher:***@db.school/lesson'
    >>> hidden_password("lesson.db")
    'lesson.db'
    """
    if isinstance(location, sa.URL):
        return location.render_as_string(hide_password=True)
    text = os.fspath(location)
    if "://" not in text:
        return text
    try:
        return make_url(text).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: hide whatever stands where a password would
        return re.sub(r"(://[^/:@]*:)[^@/]*@", r"\1***@", text)


def _sqlite_engine(url: sa.URL, timeout: float, may_create: Callable[[], bool]) -> Engine:
    database = url.database or ""
    if database and not database.startswith("file:"):

        def _connect() -> sqlite3.Connection:
            mode = "rwc" if may_create() else "rw"
            address = f"{Path(database).as_uri()}?mode={mode}"
            return sqlite3.connect(address, uri=True, timeout=timeout, check_same_thread=False)

        # A connection per transaction: each write opens the file the path names now, never a deleted one.
        engine = sa.create_engine("sqlite://", creator=_connect, poolclass=sa.pool.NullPool)
    else:
        engine = sa.create_engine(url, connect_args={"timeout": timeout}, poolclass=sa.pool.NullPool)

    @sa.event.listens_for(engine, "connect")
    def _sqlite_settings(connection, _record) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        cursor.execute("PRAGMA journal_mode = WAL")  # readers never block writers; many writers queue
        cursor.execute("PRAGMA synchronous = NORMAL")  # safe in WAL mode, no fsync on every commit
        cursor.close()

    return engine


def make_engine(url: sa.URL, timeout: float, may_create: Callable[[], bool] = lambda: True) -> Engine:
    """An engine that waits at most ``timeout`` seconds for a lock, then fails (never hangs a kernel).

    A SQLite file is made only while ``may_create()`` says so: a write never makes an empty log
    where a deleted one was (it would hold none of the class's answers).
    """
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, timeout, may_create)
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql":
        milliseconds = int(timeout * 1000)
        connect_args = {
            "connect_timeout": max(1, round(timeout)),
            # A lock waited for too long fails first; a statement stuck for any other reason fails soon after.
            "options": f"-c lock_timeout={milliseconds} -c statement_timeout={2 * milliseconds}",
        }
    return sa.create_engine(url, connect_args=connect_args, pool_pre_ping=True)


def reason(error: Exception) -> str:
    """A database error's first line, as a message says why a log cannot be opened or written."""
    return str(getattr(error, "orig", None) or error).splitlines()[0]
