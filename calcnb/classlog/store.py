"""The class log, opened: where it lives, its engine, its tables made or brought up to date, and :class:`ClassLog`.

A class log is a SQLite file or any database URL SQLAlchemy speaks (PostgreSQL for a JupyterHub).
:func:`database_url` reads the location the teacher typed; :func:`hidden_password` is how any message
prints it. :func:`open_class_log` gives a :class:`ClassLog`, whose connection side is here: the engine
(whose every wait for a lock ends within a timeout, so it never hangs a kernel), the tables of a new log,
an older log brought up to date (version 1 to 2, 2 to 3), and the identity of a SQLite file, so nothing is
written into a file deleted or replaced since. What it writes (:class:`calcnb.classlog.log.LogWrites`) and reads
(:class:`calcnb.classlog.queries.LogQueries`) each have a module of their own; the tables are in
:mod:`calcnb.classlog.schema`. More: ``docs/design.md``.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

from calcnb.classlog.log import LogWrites
from calcnb.classlog.queries import LogQueries
from calcnb.classlog.schema import (
    ATTEMPTS,
    CLASS_KEY,
    METADATA,
    OUTCOME_MAX,
    SCHEMA_TABLE,
    SCHEMA_VERSION,
    STUDENTS,
    ClassLogError,
    ClassLogMoved,
    student_key,
)
from calcnb.exercises.items import Outcome
from calcnb.game.errors import quote
from calcnb.i18n import message

__all__ = ["DEFAULT_TIMEOUT", "ClassLog", "database_url", "hidden_password", "open_class_log", "read_class_key"]

#: Seconds a write waits for a lock before recording gives up (busy timeout, lock timeout).
DEFAULT_TIMEOUT = 5.0


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


def _reason(error: sa.exc.SQLAlchemyError) -> str:
    """A database error's first line, as a message says why a log cannot be opened."""
    return str(getattr(error, "orig", None) or error).splitlines()[0]


class ClassLog(LogWrites, LogQueries):
    """A class log, opened: :meth:`join` and :meth:`record` write, :meth:`attempts` and :meth:`students` read.

    Open it with :func:`open_class_log`, which also creates the tables of a new log and checks the schema
    version of an existing one. ``location`` is where the log is as messages name it: a SQLite log by its
    file, any other by its URL with the password hidden.
    """

    def __init__(self, location: str | os.PathLike, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = database_url(location)
        sqlite = self.url.get_backend_name() == "sqlite"
        self.location = (self.url.database or "") if sqlite else hidden_password(self.url)
        self.timeout = timeout
        self._may_create = True  # until prepared: a new log's file is made; afterwards never again by a write
        # The class key in the file as opened (None: not made yet): a file that took a deleted one's inode
        # number has the same identity on disk, but not the same key.
        self._key: str | None = None
        try:
            self.engine = make_engine(self.url, timeout, lambda: self._may_create)
        except Exception as error:  # an unknown dialect, a missing driver
            raise ClassLogError(message("classlog.cannot_open", location=self.location, reason=error)) from error
        # The SQLite file's (st_dev, st_ino) as opened (again by prepare, which may make the file).
        self.identity: tuple[int, int] | None = self._file_identity()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.location!r})"

    def prepare(self) -> ClassLog:
        """Create the tables of a new log, or check an existing log's schema version; returns self."""
        self._may_create = self.file_path() is None or not self.file_path().exists() or self.identity is None
        try:
            self._create()
            with self.engine.connect() as connection:
                found = connection.execute(sa.select(SCHEMA_TABLE.c.version)).scalar_one_or_none()
        except sa.exc.SQLAlchemyError as error:
            raise ClassLogError(
                message("classlog.cannot_open", location=self.location, reason=_reason(error))
            ) from error
        upgrades = {1: self._upgrade_from_1, 2: self._upgrade_from_2}
        while found in upgrades:
            found = self._upgrade(found, upgrades[found])
        if found != SCHEMA_VERSION:
            raise ClassLogError(
                message("classlog.schema", location=self.location, found=found, expected=SCHEMA_VERSION)
            )
        self.identity = self._file_identity()
        with self.engine.connect() as connection:
            self._key = self._stored_key(connection)
        self._may_create = False
        return self

    def _create(self) -> None:
        # Several kernels (or the app and the class view) opening a new log at once race between
        # "is the table there?" and CREATE TABLE; the loser's CREATE fails, and on a second look
        # the tables are there.
        for attempt in range(5):
            try:
                METADATA.create_all(self.engine, checkfirst=True)
                with self.engine.begin() as connection:
                    if connection.execute(sa.select(sa.func.count()).select_from(SCHEMA_TABLE)).scalar() == 0:
                        connection.execute(sa.insert(SCHEMA_TABLE).values(id=1, version=SCHEMA_VERSION))
                return
            except sa.exc.DBAPIError:
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def _upgrade(self, version: int, upgrade: Callable[[sa.Connection], None]) -> int:
        """Bring a log of schema ``version`` to the next version with ``upgrade``; returns the version now.

        One transaction: the schema row is claimed first, so of several kernels opening the log at once one
        upgrades it and the others, once it has committed, find the next version.
        """
        try:
            with self.engine.begin() as connection:
                claimed = connection.execute(
                    sa.update(SCHEMA_TABLE).where(SCHEMA_TABLE.c.version == version).values(version=version + 1)
                ).rowcount
                if claimed:
                    upgrade(connection)
                return connection.execute(sa.select(SCHEMA_TABLE.c.version)).scalar_one()
        except sa.exc.SQLAlchemyError as error:
            raise ClassLogError(
                message("classlog.cannot_open", location=self.location, reason=_reason(error))
            ) from error

    @staticmethod
    def _upgrade_from_1(connection: sa.Connection) -> None:
        """Add the outcome column to a version-1 log, each row's outcome read as
        :func:`~calcnb.classlog.schema.row_outcome` reads it."""
        # NOT NULL needs a default for the rows already there; every row is then given its own.
        connection.execute(
            sa.text(
                f"ALTER TABLE {ATTEMPTS.name} ADD COLUMN outcome VARCHAR({OUTCOME_MAX})"
                f" NOT NULL DEFAULT '{Outcome.WRONG.value}'"
            )
        )
        connection.execute(sa.update(ATTEMPTS).where(ATTEMPTS.c.correct).values(outcome=Outcome.RIGHT.value))
        unreadable = sa.and_(~ATTEMPTS.c.correct, ATTEMPTS.c.misconception == "unreadable")
        connection.execute(sa.update(ATTEMPTS).where(unreadable).values(outcome=Outcome.UNREADABLE.value))

    @staticmethod
    def _upgrade_from_2(connection: sa.Connection) -> None:
        """Add the nickname key and its unique index to a version-2 log; no row is taken away or changed otherwise.

        Each key is given to the first join under it, as :meth:`~calcnb.classlog.queries.LogQueries.taken_as`
        read the log before: the rows after it (rejoins, which version 2 also kept as rows, and a look-alike
        that older rules let join, such as "Ana" with a Hangul filler after "Ana") keep none, like a rejoin's
        row, and are read as they were. So is a nickname that shows nothing by today's rules: nobody can join
        under it again. Nothing here can be refused by the index, however the names fold.
        """
        column = STUDENTS.c.nickname_key
        kind = column.type.compile(dialect=connection.dialect)
        connection.execute(sa.text(f"ALTER TABLE {STUDENTS.name} ADD COLUMN {column.name} {kind}"))
        rows = connection.execute(sa.select(STUDENTS.c.id, STUDENTS.c.nickname).order_by(STUDENTS.c.id)).all()
        first: dict[str, int] = {}
        for row_id, nickname in rows:
            with contextlib.suppress(ClassLogError):  # shows nothing now: no key
                first.setdefault(student_key(nickname), row_id)
        if first:
            by_id = STUDENTS.c.id == sa.bindparam("row_id")
            connection.execute(
                sa.update(STUDENTS).where(by_id).values(nickname_key=sa.bindparam("key")),
                [{"row_id": row_id, "key": key} for key, row_id in first.items()],
            )
        for index in STUDENTS.indexes:
            index.create(connection)

    # ------------------------------------------------------------ the file it is, not only its path

    def file_path(self) -> Path | None:
        """The SQLite file of the log, or None (another database, or a SQLite URI)."""
        database = self.url.database or ""
        if self.url.get_backend_name() != "sqlite" or database.startswith("file:") or not database:
            return None
        return Path(database)

    def _file_identity(self) -> tuple[int, int] | None:
        path = self.file_path()
        if path is None:
            return None
        try:
            found = path.stat()
        except FileNotFoundError:
            return None
        return (found.st_dev, found.st_ino)

    def check_file(self) -> None:
        """Raise :class:`~calcnb.classlog.schema.ClassLogMoved` if the SQLite file was deleted or replaced since
        the log was opened.

        Checked before and after each write: a write into a deleted file would be kept by nobody.
        """
        if self.file_path() is not None and self._file_identity() != self.identity:
            raise ClassLogMoved(message("classlog.moved", location=self.location))

    def _stored_key(self, connection: sa.Connection) -> str | None:
        return connection.execute(sa.select(CLASS_KEY.c.secret).where(CLASS_KEY.c.id == 1)).scalar_one_or_none()

    def _check_key(self, connection: sa.Connection) -> None:
        """Raise :class:`~calcnb.classlog.schema.ClassLogMoved` if the SQLite file holds another class key than the
        one opened (a new file can take a deleted file's inode number, and so its identity on disk)."""
        if self.file_path() is None:
            return
        found = self._stored_key(connection)
        if self._key is None:
            self._key = found  # made since the log was opened
        elif found != self._key:
            raise ClassLogMoved(message("classlog.moved", location=self.location))

    def check_log(self) -> None:
        """:meth:`check_file`, and the class key in the file the one opened: raises
        :class:`~calcnb.classlog.schema.ClassLogMoved` if not."""
        self.check_file()
        with self.engine.connect() as connection:
            self._check_key(connection)

    def reopen(self) -> bool:
        """After :class:`~calcnb.classlog.schema.ClassLogMoved`: take the file now at the path as the log; False
        if there is none yet.

        A new file's tables are made as :meth:`prepare` makes them. A deleted log is never made again
        here: the kernels wait until the teacher's app or view has a log at the path again.
        """
        path = self.file_path()
        if path is None or not path.exists():
            return False
        self.prepare()
        return True

    def checkpoint(self) -> None:
        """Move a SQLite log's write-ahead file into the ``.db`` file and empty it, so the one file is complete.

        Nothing to do for other databases. A reader holding the log open may keep the checkpoint from
        finishing; the next one then does.
        """
        if self.file_path() is None or not self.file_path().exists():
            return
        with self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Close the log's connections."""
        self.engine.dispose()


def open_class_log(location: str | os.PathLike, *, timeout: float = DEFAULT_TIMEOUT) -> ClassLog:
    """Open (creating if new) the class log at a file path or database URL; raises
    :class:`~calcnb.classlog.schema.ClassLogError` if unusable."""
    log = ClassLog(location, timeout=timeout)
    try:
        return log.prepare()
    except BaseException:
        log.close()
        raise


def read_class_key(location: str | os.PathLike, *, required: bool = False) -> str | None:
    """The class key of the log at ``location``, for the teacher's notebook and worksheets; None if there is no log yet.

    Unlike :func:`open_class_log` this never creates a log: a SQLite file that does not exist
    means the lesson was not started with it (yet), and its students' variants use no class key.
    A relative path is read from the current folder. With ``required`` (what must match the students'
    screens, such as ``calcnb worksheets --class-log``), a missing log raises
    :class:`~calcnb.classlog.schema.ClassLogError` naming the file looked for, instead of giving None.
    """
    url = database_url(location)
    if url.get_backend_name() == "sqlite" and not (url.database and Path(url.database).exists()):
        if required:
            raise ClassLogError(message("classlog.no_log_at", location=quote(location), path=url.database))
        return None
    log = open_class_log(location)
    try:
        return log.class_key()
    finally:
        log.close()
