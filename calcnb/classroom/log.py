"""The class log: the students' answers to the lesson's exercises, in one small database.

A teacher who starts the lesson app with ``--class-log lesson.db`` gets every check of an
exercise recorded here: the nickname the student chose (no other personal data), the exercise
and its variant, the answer as typed (cut to :data:`ANSWER_MAX` characters), the outcome (right,
wrong, unreadable, or the answer revealed by Show answer), the misconception the judge named, the
language and the time. For "Is the 80% true?" it also keeps each deal a student's player played (the
deal's seed, the player, won or not, the score: :meth:`ClassLog.record_game`), which the class view pools.
The class view
(:mod:`calcnb.classroom.view`) reads it back. The log is a SQLite file, or any database URL
SQLAlchemy speaks (PostgreSQL for a JupyterHub); the schema lives here only (:data:`METADATA`,
:data:`SCHEMA_VERSION`), and no student's text ever becomes SQL. A log of schema version 1 (before
outcomes) is brought up to date when it is opened, its outcomes read from what it kept. More:
``docs/design.md``.
"""

from __future__ import annotations

import csv
import io
import os
import re
import secrets
import sqlite3
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

from calcnb.classroom.names import nickname_key, visible_nickname
from calcnb.game.errors import quote
from calcnb.i18n import message
from calcnb.lessons.bank import Attempt

__all__ = [
    "ANSWER_MAX",
    "ENV_VAR",
    "GAME_COLUMNS",
    "NICKNAME_MAX",
    "RATE_LIMITS",
    "SCHEMA_VERSION",
    "VIEW_ENV_VAR",
    "ClassLog",
    "ClassLogError",
    "ClassLogMoved",
    "ClassStatus",
    "ExerciseStats",
    "StudentSummary",
    "class_status",
    "clean_nickname",
    "clean_text",
    "csv_text",
    "database_url",
    "exercise_outcomes",
    "exercise_stats",
    "open_class_log",
    "read_class_key",
    "row_outcome",
    "settle",
    "shown_location",
    "student_summaries",
    "within_rate",
]

#: The environment variable through which ``python -m calcnb app --class-log`` tells the kernels where to record.
ENV_VAR = "CALCNB_CLASS_LOG"
#: The environment variable through which ``python -m calcnb class-view`` tells the teacher's view its log
#: (never set for the students' kernels, so a student page can never show the class).
VIEW_ENV_VAR = "CALCNB_CLASS_VIEW"
#: Version of the schema below; a log written with a newer version is refused, never silently mixed,
#: and one of version 1 (no ``outcome`` column) is brought up to date when opened.
SCHEMA_VERSION = 2
#: Longest nickname kept, in characters.
NICKNAME_MAX = 40
#: Longest answer kept, in characters (a typed answer is a few characters; anything longer is cut).
ANSWER_MAX = 200
#: Longest exercise identifier, variant, misconception name or language code kept.
NAME_MAX = 80
#: Longest outcome (one of :data:`calcnb.lessons.bank.OUTCOMES`).
OUTCOME_MAX = 16
#: Three wrong answers in a row (unreadable ones aside) and a student counts as stuck.
STUCK_AFTER = 3
#: Seconds a write waits for a lock before recording gives up (busy timeout, lock timeout).
DEFAULT_TIMEOUT = 5.0
#: Length of a page's writer key (:meth:`ClassLog.record_keyed`).
WRITER_MAX = 32
#: Longest reason of a failed write kept in a writer's health row.
FAILURE_MAX = 200
#: The most answers one student may have in the log within any window of so many seconds: (seconds, answers).
#: A few a second, a small burst, and a steady pace far above anyone's reading and typing: holding Enter
#: down (sixty checks a second) keeps 20 in ten seconds, and a student at a normal pace is never refused.
RATE_LIMITS = ((1.0, 5), (10.0, 20))
#: What :meth:`ClassLog.record_keyed` did with a check: written now, found already written, or refused
#: (its student over :data:`RATE_LIMITS`: not stored).
WRITTEN, ALREADY_WRITTEN, REFUSED = "written", "already written", "refused"
# Any number: the PostgreSQL advisory lock that makes answers take their ids in the order they commit.
_ORDER_LOCK = 0x6361_6C63


class ClassLogError(ValueError):
    """A class log that cannot be used as asked (a bad location, another schema version, a bad nickname)."""


class ClassLogMoved(ClassLogError):
    """The SQLite file of the log was deleted or replaced since it was opened: nothing is written to it."""


# ---------------------------------------------------------------- the schema, in one place

METADATA = sa.MetaData()

SCHEMA_TABLE = sa.Table(
    "calcnb_schema",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # always 1: one row
    sa.Column("version", sa.Integer, nullable=False),
)

STUDENTS = sa.Table(
    "calcnb_students",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
    sa.Column("language", sa.String(NAME_MAX), nullable=False),
)

ATTEMPTS = sa.Table(
    "calcnb_attempts",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("recorded_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("exercise_id", sa.String(NAME_MAX), nullable=False),
    sa.Column("variant", sa.String(NAME_MAX), nullable=False),
    sa.Column("answer", sa.String(ANSWER_MAX), nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),  # outcome == "right", kept for readers of version 1
    sa.Column("outcome", sa.String(OUTCOME_MAX), nullable=False),
    sa.Column("misconception", sa.String(NAME_MAX), nullable=True),
    sa.Column("language", sa.String(NAME_MAX), nullable=False),
    sa.Index("calcnb_attempts_by_student", "nickname", "recorded_at"),
)

# The class's secret (one row): the exercises' variants follow it and the nickname, so nobody can
# work out a student's answers from the nickname alone (calcnb.lessons.bank.variant_for).
CLASS_KEY = sa.Table(
    "calcnb_class_key",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # always 1: one row
    sa.Column("secret", sa.String(64), nullable=False),
)

# Every answer a page sends carries the page's writer key and its number, written in the answer's own
# transaction: a retry after a write whose outcome was unknown finds the key taken and writes nothing twice.
WRITES = sa.Table(
    "calcnb_writes",
    METADATA,
    sa.Column("writer", sa.String(WRITER_MAX), primary_key=True),
    sa.Column("sequence", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("attempt_id", sa.Integer, nullable=False),
)

# One row per page that records (a writer): its health, for the class view. Written when the log can be
# written; a row whose heartbeat stops, or that says answers are waiting, is a page whose answers do not arrive.
WRITERS = sa.Table(
    "calcnb_writers",
    METADATA,
    sa.Column("writer", sa.String(WRITER_MAX), primary_key=True),
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("waiting", sa.Integer, nullable=False),  # answers checked and not yet in the log
    sa.Column("written", sa.Integer, nullable=False),
    sa.Column("last_write", sa.Float, nullable=True),  # seconds since the epoch, UTC
    sa.Column("last_failure", sa.Float, nullable=True),
    sa.Column("failure", sa.String(FAILURE_MAX), nullable=True),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

# The deals a lesson's player played for a student ("Is the 80% true?"): each deal's seed, the player (its
# name and setting), whether the engine's replay of its game was won, and its score. One row per student,
# deal and player (a retry writes nothing twice); the class view pools them (calcnb.lessons.evidence.pool).
GAMES = sa.Table(
    "calcnb_games",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("recorded_at", sa.Float, nullable=False),  # seconds since the epoch, UTC
    sa.Column("nickname", sa.String(NICKNAME_MAX), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("player", sa.String(NAME_MAX), nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.UniqueConstraint("nickname", "seed", "player", name="calcnb_games_once"),
)

#: The columns of a game, in the order :meth:`ClassLog.games` gives them.
GAME_COLUMNS = ("recorded_at", "nickname", "seed", "player", "won", "score")

#: The columns of an attempt, in the order of the CSV export.
ATTEMPT_COLUMNS = (
    "recorded_at",
    "nickname",
    "exercise_id",
    "variant",
    "answer",
    "correct",
    "outcome",
    "misconception",
    "language",
)


def row_outcome(row: dict[str, Any]) -> str:
    """The outcome of a row of :meth:`ClassLog.attempts`; a row without one (version 1) is read from what it kept.

    Version 1 logged an unreadable answer as wrong, with the misconception ``"unreadable"``, and never a reveal.
    """
    outcome = row.get("outcome")
    if outcome:
        return outcome
    if row["correct"]:
        return "right"
    return "unreadable" if row.get("misconception") == "unreadable" else "wrong"


# ---------------------------------------------------------------- text kept as text


def clean_text(text: object, limit: int) -> str:
    """``text`` as a string any database stores: cut to ``limit`` characters, NUL and lone surrogates replaced.

    Everything else (quotes, semicolons, markup, other control characters) is kept exactly:
    it is data, bound as a parameter, and escaped wherever it is shown.
    """
    value = str(text)[:limit]
    # PostgreSQL text cannot hold NUL; UTF-8 cannot hold a lone surrogate (a browser can send one).
    return value.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")


def clean_nickname(nickname: object) -> str:
    """A nickname as stored: surrounding spaces removed, cut to :data:`NICKNAME_MAX` characters.

    Raises :class:`ClassLogError` when nothing readable is left (empty, spaces or control characters only).
    """
    # kept as it is seen: no zero-width or bidirectional characters to hide in, full-width letters made plain
    value = clean_text(visible_nickname(nickname), NICKNAME_MAX).strip()
    if not any(unicodedata.category(char)[0] in "LNPS" and char != "\ufffd" for char in value):
        raise ClassLogError(message("classlog.bad_nickname", nickname=quote(nickname), limit=NICKNAME_MAX))
    return value


# ---------------------------------------------------------------- where the log lives


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
        raise ClassLogError(message("classlog.bad_location", location=quote(shown_location(text)))) from error
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.get_backend_name() == "sqlite":
        database = url.database or ""
        in_memory = (
            database in ("", ":memory:") or url.query.get("mode") == "memory" or database.startswith("file::memory:")
        )
        if in_memory:
            raise ClassLogError(message("classlog.in_memory", location=quote(shown_location(text))))
        if not database.startswith("file:") and not Path(database).is_absolute():
            url = url.set(database=str((Path(base or Path.cwd()) / Path(database).expanduser()).resolve()))
    return url


def shown_location(location: str | os.PathLike) -> str:
    """A class log's location as it may be printed: a URL's password hidden (``***``), a path as given."""
    text = os.fspath(location)
    if "://" not in text:
        return text
    try:
        return make_url(text).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: hide whatever stands where a password would
        return re.sub(r"(://[^/:@]*:)[^@/]*@", r"\1***@", text)


def _engine(url: sa.URL, timeout: float, may_create: Callable[[], bool] = lambda: True) -> Engine:
    """An engine that waits at most ``timeout`` seconds for a lock, then fails (never hangs a kernel).

    A SQLite file is made only while ``may_create()`` says so: a write never makes an empty log
    where a deleted one was (it would hold none of the class's answers).
    """
    if url.get_backend_name() == "sqlite":
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
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql":
        milliseconds = int(timeout * 1000)
        connect_args = {
            "connect_timeout": max(1, round(timeout)),
            # A lock waited for too long fails first; a statement stuck for any other reason fails soon after.
            "options": f"-c lock_timeout={milliseconds} -c statement_timeout={2 * milliseconds}",
        }
    return sa.create_engine(url, connect_args=connect_args, pool_pre_ping=True)


def _shown(url: sa.URL) -> str:
    """The URL as printed in messages: the password hidden."""
    if url.get_backend_name() == "sqlite":
        return url.database or ""
    return url.render_as_string(hide_password=True)


# ---------------------------------------------------------------- the log


class ClassLog:
    """A class log, opened: :meth:`join` and :meth:`record` write, :meth:`attempts` and :meth:`students` read.

    Open it with :func:`open_class_log`, which also creates the tables of a new log and
    checks the schema version of an existing one.
    """

    def __init__(self, location: str | os.PathLike, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = database_url(location)
        self.location = _shown(self.url)
        self.timeout = timeout
        self._may_create = True  # until prepared: a new log's file is made; afterwards never again by a write
        # The class key in the file as opened (None: not made yet): a file that took a deleted one's inode
        # number has the same identity on disk, but not the same key.
        self._key: str | None = None
        try:
            self.engine = _engine(self.url, timeout, lambda: self._may_create)
        except Exception as error:  # an unknown dialect, a missing driver
            raise ClassLogError(message("classlog.cannot_open", location=self.location, reason=error)) from error
        # The SQLite file's (st_dev, st_ino) as opened (again by prepare, which may make the file).
        self.identity: tuple[int, int] | None = self._file_identity()

    def __repr__(self) -> str:
        return f"ClassLog({self.location!r})"

    def prepare(self) -> ClassLog:
        """Create the tables of a new log, or check an existing log's schema version; returns self."""
        self._may_create = self.file_path() is None or not self.file_path().exists() or self.identity is None
        try:
            self._create()
            with self.engine.connect() as connection:
                found = connection.execute(sa.select(SCHEMA_TABLE.c.version)).scalar_one_or_none()
        except sa.exc.SQLAlchemyError as error:
            reason = str(getattr(error, "orig", None) or error).splitlines()[0]
            raise ClassLogError(message("classlog.cannot_open", location=self.location, reason=reason)) from error
        if found == 1:
            found = self._upgrade_from_1()
        if found != SCHEMA_VERSION:
            raise ClassLogError(
                message("classlog.schema", location=self.location, found=found, expected=SCHEMA_VERSION)
            )
        self.identity = self._file_identity()
        with self.engine.connect() as connection:
            self._key = self._stored_key(connection)
        self._may_create = False
        return self

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
        """Raise :class:`ClassLogMoved` if the SQLite file was deleted or replaced since the log was opened.

        Checked before and after each write: a write into a deleted file would be kept by nobody.
        """
        if self.file_path() is not None and self._file_identity() != self.identity:
            raise ClassLogMoved(message("classlog.moved", location=self.location))

    def _stored_key(self, connection: sa.Connection) -> str | None:
        return connection.execute(sa.select(CLASS_KEY.c.secret).where(CLASS_KEY.c.id == 1)).scalar_one_or_none()

    def _check_key(self, connection: sa.Connection) -> None:
        """Raise :class:`ClassLogMoved` if the SQLite file holds another class key than the one opened
        (a new file can take a deleted file's inode number, and so its identity on disk)."""
        if self.file_path() is None:
            return
        found = self._stored_key(connection)
        if self._key is None:
            self._key = found  # made since the log was opened
        elif found != self._key:
            raise ClassLogMoved(message("classlog.moved", location=self.location))

    def check_log(self) -> None:
        """:meth:`check_file`, and the class key in the file the one opened: raises :class:`ClassLogMoved` if not."""
        self.check_file()
        with self.engine.connect() as connection:
            self._check_key(connection)

    def reopen(self) -> bool:
        """After :class:`ClassLogMoved`: take the file now at the path as the log; False if there is none yet.

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

    def _upgrade_from_1(self) -> int:
        """Add the outcome column to a version-1 log, each row's outcome read as :func:`row_outcome` reads it.

        One transaction: the schema row is claimed first, so of several kernels opening the log at once
        one upgrades it and the others, once it has committed, find version 2. Returns the version now.
        """
        try:
            with self.engine.begin() as connection:
                claimed = connection.execute(
                    sa.update(SCHEMA_TABLE).where(SCHEMA_TABLE.c.version == 1).values(version=SCHEMA_VERSION)
                ).rowcount
                if claimed:
                    # NOT NULL needs a default for the rows already there; every row is then given its own.
                    connection.execute(
                        sa.text(
                            f"ALTER TABLE {ATTEMPTS.name} ADD COLUMN outcome VARCHAR({OUTCOME_MAX})"
                            " NOT NULL DEFAULT 'wrong'"
                        )
                    )
                    connection.execute(sa.update(ATTEMPTS).where(ATTEMPTS.c.correct).values(outcome="right"))
                    unreadable = sa.and_(~ATTEMPTS.c.correct, ATTEMPTS.c.misconception == "unreadable")
                    connection.execute(sa.update(ATTEMPTS).where(unreadable).values(outcome="unreadable"))
                return connection.execute(sa.select(SCHEMA_TABLE.c.version)).scalar_one()
        except sa.exc.SQLAlchemyError as error:
            reason = str(getattr(error, "orig", None) or error).splitlines()[0]
            raise ClassLogError(message("classlog.cannot_open", location=self.location, reason=reason)) from error

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

    def join(self, nickname: str, language: str = "en", *, when: float | None = None) -> str:
        """Note that a student joined the class under ``nickname``; returns the nickname as stored."""
        name = clean_nickname(nickname)
        row = {
            "nickname": name,
            "joined_at": time.time() if when is None else float(when),
            "language": clean_text(language, NAME_MAX),
        }
        self.check_file()
        with self.engine.begin() as connection:
            connection.execute(sa.insert(STUDENTS), row)
        self.check_file()
        return name

    def class_key(self) -> str:
        """The class's secret key, made the first time it is asked for and kept in the log.

        The lesson's variants follow it (:func:`calcnb.lessons.bank.variant_for`): the students' kernels and
        the teacher's notebook and worksheets read the same key, so their questions agree.
        """
        query = sa.select(CLASS_KEY.c.secret).where(CLASS_KEY.c.id == 1)
        with self.engine.connect() as connection:
            found = connection.execute(query).scalar_one_or_none()
        if found is None:
            try:
                with self.engine.begin() as connection:
                    connection.execute(sa.insert(CLASS_KEY).values(id=1, secret=secrets.token_hex(16)))
            except sa.exc.IntegrityError:  # another kernel made it first: theirs is the key
                pass
            with self.engine.connect() as connection:
                found = connection.execute(query).scalar_one()
        if self._key is None:
            self._key = found
        return found

    def taken_as(self, nickname: str) -> str | None:
        """The nickname someone already joined under that ``nickname`` is, or looks like; None if it is free.

        Nicknames are compared by :func:`~calcnb.classroom.names.nickname_key`: "Ana", "ana" and a
        Cyrillic "аna" are one nickname, so nobody can pass for another student with a look-alike.
        """
        key = nickname_key(clean_nickname(nickname))
        with self.engine.connect() as connection:
            joined = connection.execute(sa.select(STUDENTS.c.nickname).order_by(STUDENTS.c.id)).scalars()
            return next((name for name in joined if nickname_key(name) == key), None)

    def has_joined(self, nickname: str) -> bool:
        """Has someone already joined the class under ``nickname``, or under a nickname that looks the same?"""
        return self.taken_as(nickname) is not None

    def record(self, nickname: str, attempt: Attempt) -> None:
        """Write one check of an exercise by ``nickname``; raises the database's error if it cannot be written."""
        self.record_many(nickname, [attempt])

    def record_many(self, nickname: str, attempts: Iterable[Attempt]) -> None:
        """Write several checks by one student in one transaction."""
        rows = self._rows(nickname, attempts)
        if rows:
            self.check_file()
            with self.engine.begin() as connection:
                self._in_order(connection)
                connection.execute(sa.insert(ATTEMPTS), rows)

    @staticmethod
    def _rows(nickname: str, attempts: Iterable[Attempt]) -> list[dict[str, Any]]:
        name = clean_nickname(nickname)
        return [
            {
                "recorded_at": float(attempt.timestamp),
                "nickname": name,
                "exercise_id": clean_text(attempt.exercise_id, NAME_MAX),
                "variant": clean_text(attempt.variant, NAME_MAX),
                "answer": clean_text(attempt.answer, ANSWER_MAX),
                "correct": attempt.outcome == "right",
                "outcome": clean_text(attempt.outcome, OUTCOME_MAX),
                "misconception": None if attempt.misconception is None else clean_text(attempt.misconception, NAME_MAX),
                "language": clean_text(attempt.language, NAME_MAX),
            }
            for attempt in attempts
        ]

    def record_keyed(self, writer: str, sequence: int, nickname: str, attempt: Attempt) -> str:
        """Write one check, once: ``writer`` (a page's key) and ``sequence`` (its number) name it.

        The attempt and its key go in one transaction, and the key is unique: a retry of a write whose
        outcome was not known (the connection dropped at commit) writes nothing twice. A check that would
        put its student over :data:`RATE_LIMITS` (counted in the log, so every page of the student counts,
        by the times the answers were checked) is not stored. Returns :data:`WRITTEN`,
        :data:`ALREADY_WRITTEN` or :data:`REFUSED`; raises the database's error, or :class:`ClassLogMoved`.
        """
        self.check_file()
        row = self._rows(nickname, [attempt])[0]
        try:
            with self.engine.begin() as connection:
                self._in_order(connection)
                self._check_key(connection)
                done = connection.execute(
                    sa.select(WRITES.c.attempt_id).where(WRITES.c.writer == writer, WRITES.c.sequence == sequence)
                ).first()
                if done is not None:
                    return ALREADY_WRITTEN
                if not self._within_rate(connection, row["nickname"], row["recorded_at"]):
                    return REFUSED
                inserted = connection.execute(sa.insert(ATTEMPTS), [row])
                attempt_id = inserted.inserted_primary_key[0]
                connection.execute(sa.insert(WRITES).values(writer=writer, sequence=sequence, attempt_id=attempt_id))
        except sa.exc.IntegrityError:  # another try of the same write committed in the meantime
            return ALREADY_WRITTEN
        finally:
            self.check_file()  # written into a file that has just gone: the caller sends it again
        return WRITTEN

    def _in_order(self, connection: sa.Connection) -> None:
        """Make this transaction's new answers take ids in the order of commits, so a reader that has seen an
        id has seen every smaller one (:meth:`attempts_after`): SQLite writes one transaction at a time
        (taken now, so what is read next stays true until the commit); PostgreSQL is asked for a lock."""
        if self.url.get_backend_name() == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif self.url.get_backend_name() == "postgresql":
            connection.execute(sa.select(sa.func.pg_advisory_xact_lock(_ORDER_LOCK)))

    @staticmethod
    def _within_rate(connection: sa.Connection, nickname: str, when: float) -> bool:
        """Would one more answer at ``when`` keep ``nickname`` within :data:`RATE_LIMITS`?

        Answers on both sides of ``when`` count (a page's answers may arrive after later ones of another
        page): for answers arriving in order that is the window ending at ``when``, otherwise a little stricter.
        """
        widest = max(seconds for seconds, _ in RATE_LIMITS)
        near = sa.select(ATTEMPTS.c.recorded_at).where(
            ATTEMPTS.c.nickname == nickname,
            ATTEMPTS.c.recorded_at > when - widest,
            ATTEMPTS.c.recorded_at < when + widest,
        )
        times = list(connection.execute(near.limit(max(count for _, count in RATE_LIMITS) * 4)).scalars())
        return within_rate(times, when)

    def report(
        self,
        writer: str,
        nickname: str,
        *,
        waiting: int,
        written: int,
        last_write: float | None,
        last_failure: float | None,
        failure: str | None,
    ) -> None:
        """Write the health row of one writer (a page): answers waiting and written, the last write and failure."""
        self.check_file()
        values = {
            "nickname": clean_nickname(nickname),
            "waiting": int(waiting),
            "written": int(written),
            "last_write": last_write,
            "last_failure": last_failure,
            "failure": None if failure is None else clean_text(failure, FAILURE_MAX),
            "heartbeat": time.time(),
        }
        with self.engine.begin() as connection:
            changed = connection.execute(sa.update(WRITERS).where(WRITERS.c.writer == writer).values(**values))
            if not changed.rowcount:
                connection.execute(sa.insert(WRITERS).values(writer=writer, **values))

    def writers(self) -> list[dict[str, Any]]:
        """The health row of every page that recorded, oldest heartbeat first (see :meth:`report`)."""
        query = sa.select(WRITERS).order_by(WRITERS.c.heartbeat, WRITERS.c.writer)
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def attempts_after(self, after: int = 0) -> list[dict[str, Any]]:
        """The checks recorded since the one numbered ``after`` (0: all), in the order they were written,
        each with its ``id`` besides :data:`ATTEMPT_COLUMNS`: what a reader that saw up to ``after`` has not seen.

        Answers are numbered in the order their transactions commit (see :meth:`record_keyed`), so no
        answer can turn up later with a smaller number.
        """
        columns = [ATTEMPTS.c.id, *(ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS)]
        query = sa.select(*columns).where(ATTEMPTS.c.id > after).order_by(ATTEMPTS.c.id)
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def student_attempts(self, nickname: str, up_to: int) -> list[dict[str, Any]]:
        """One student's checks numbered up to ``up_to``, oldest first (as :meth:`attempts` orders them), with ids."""
        columns = [ATTEMPTS.c.id, *(ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS)]
        query = (
            sa.select(*columns)
            .where(ATTEMPTS.c.nickname == nickname, ATTEMPTS.c.id <= up_to)
            .order_by(ATTEMPTS.c.recorded_at, ATTEMPTS.c.id)
        )
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def probe(self, timeout: float | None = None) -> None:
        """Try to write an answer and take it back: raises whatever would stop the students' answers
        (a lock held too long, a read-only or full database, a deleted file); writes nothing.

        ``timeout``: seconds to wait for a lock this once (default: the log's own).
        """
        self.check_file()
        wait = int(1000 * (self.timeout if timeout is None else timeout))
        with self.engine.connect() as connection:
            try:
                if self.url.get_backend_name() == "sqlite":
                    connection.exec_driver_sql(f"PRAGMA busy_timeout = {wait}")  # this connection's only
                elif self.url.get_backend_name() == "postgresql":
                    connection.exec_driver_sql(f"SET LOCAL lock_timeout = {wait}")
                connection.execute(sa.insert(ATTEMPTS), self._rows("calcnb", [_PROBE]))
            finally:
                connection.rollback()

    def record_game(
        self, nickname: str, seed: int, player: str, won: bool, score: int, *, when: float | None = None
    ) -> str:
        """Write one deal played for ``nickname`` (its ``seed``, the ``player``'s name, ``won``, ``score``), once:
        returns :data:`WRITTEN`, or :data:`ALREADY_WRITTEN` when that student's deal by that player is in the log
        (a retry). Raises the database's error, or :class:`ClassLogMoved`."""
        if isinstance(seed, bool) or not isinstance(seed, int) or isinstance(score, bool) or not isinstance(score, int):
            raise ClassLogError(message("classlog.bad_game", seed=quote(seed), score=quote(score)))
        row = {
            "recorded_at": time.time() if when is None else float(when),
            "nickname": clean_nickname(nickname),
            "seed": seed,
            "player": clean_text(player, NAME_MAX),
            "won": bool(won),
            "score": score,
        }
        self.check_file()
        try:
            with self.engine.begin() as connection:
                self._check_key(connection)
                connection.execute(sa.insert(GAMES), [row])
        except sa.exc.IntegrityError:  # this student's deal is in already: a retry of a write that went through
            return ALREADY_WRITTEN
        finally:
            self.check_file()
        return WRITTEN

    def games(self, nickname: str | None = None) -> list[dict[str, Any]]:
        """Every recorded game (only ``nickname``'s, when given), in the order written, as dicts keyed by
        :data:`GAME_COLUMNS`."""
        columns = [GAMES.c[name] for name in GAME_COLUMNS]
        query = sa.select(*columns).order_by(GAMES.c.id)
        if nickname is not None:
            query = query.where(GAMES.c.nickname == clean_nickname(nickname))
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def attempts(self) -> list[dict[str, Any]]:
        """Every recorded check, oldest first, as dicts keyed by :data:`ATTEMPT_COLUMNS`."""
        columns = [ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS]
        query = sa.select(*columns).order_by(ATTEMPTS.c.recorded_at, ATTEMPTS.c.id)
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def students(self) -> list[str]:
        """The nicknames of everyone who joined, in the order they joined (each once)."""
        query = sa.select(STUDENTS.c.nickname).order_by(STUDENTS.c.joined_at, STUDENTS.c.id)
        with self.engine.connect() as connection:
            return list(dict.fromkeys(connection.execute(query).scalars()))

    def count(self) -> int:
        """How many checks are recorded."""
        with self.engine.connect() as connection:
            return connection.execute(sa.select(sa.func.count()).select_from(ATTEMPTS)).scalar_one()

    def close(self) -> None:
        """Close the log's connections."""
        self.engine.dispose()


def within_rate(times: Iterable[float], when: float) -> bool:
    """Would one more answer at ``when`` keep a student who answered at ``times`` within :data:`RATE_LIMITS`?

    Every answer less than a window's width from ``when``, before or after, counts in that window.
    """
    times = list(times)
    return all(sum(1 for time_ in times if abs(time_ - when) < seconds) < count for seconds, count in RATE_LIMITS)


# What ClassLog.probe tries to write (and takes back): an answer as any page sends it.
_PROBE = Attempt("probe", 0, "", "unreadable", None, "en", 0.0)


def open_class_log(location: str | os.PathLike, *, timeout: float = DEFAULT_TIMEOUT) -> ClassLog:
    """Open (creating if new) the class log at a file path or database URL; :class:`ClassLogError` if unusable."""
    log = ClassLog(location, timeout=timeout)
    try:
        return log.prepare()
    except BaseException:
        log.close()
        raise


def read_class_key(location: str | os.PathLike) -> str | None:
    """The class key of the log at ``location``, for the teacher's notebook and worksheets; None if there is no log yet.

    Unlike :func:`open_class_log` this never creates a log: a SQLite file that does not exist
    means the lesson was not started with it (yet), and its students' variants use no class key.
    """
    url = database_url(location)
    if url.get_backend_name() == "sqlite" and not (url.database and Path(url.database).exists()):
        return None
    log = open_class_log(location)
    try:
        return log.class_key()
    finally:
        log.close()


# ---------------------------------------------------------------- what the class view shows


#: The outcomes that are answers judged right or wrong: the only ones "stuck" counts.
JUDGED = ("right", "wrong")


def exercise_outcomes(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """Where each student ended on each exercise they tried: nickname -> exercise -> outcome.

    From the rows of :meth:`ClassLog.attempts` (oldest first). Whichever came first of a right answer
    and Show answer decides: an exercise whose answer was shown is ``"revealed"``, even if the right
    answer was typed afterwards. Otherwise ``"wrong"`` if any answer was judged wrong, else
    ``"unreadable"``.
    """
    seen: dict[str, dict[str, str]] = defaultdict(dict)
    for row in rows:
        settle(seen[row["nickname"]], row["exercise_id"], row_outcome(row))
    return dict(seen)


def settle(mine: dict[str, str], exercise: str, outcome: str) -> None:
    """One student's next check of ``exercise`` folded into ``mine`` (exercise -> outcome), as
    :func:`exercise_outcomes` reads them: a right answer or Show answer settles it; unreadable never undoes wrong."""
    before = mine.get(exercise)
    if before in ("right", "revealed"):
        return  # settled
    if before == "wrong" and outcome == "unreadable":
        return
    mine[exercise] = outcome


@dataclass(frozen=True)
class ExerciseStats:
    """One exercise across the class: who tried it, who got it right, whose answer was shown, the wrong ideas seen."""

    exercise_id: str
    tried: int  # students who checked at least one answer
    right: int  # students with a right answer before any Show answer
    attempts: int  # checks (right, wrong and unreadable; Show answer is not a check)
    revealed: int = 0  # students who pressed Show answer before any right answer
    unreadable: int = 0  # checks whose answer could not be read (never counted as wrong)
    misconceptions: dict[str, int] = field(default_factory=dict)  # wrong checks by misconception name

    def shares(self) -> dict[str, float]:
        """Each misconception's share of the wrong checks (0..1), largest first."""
        total = sum(self.misconceptions.values())
        ranked = sorted(self.misconceptions.items(), key=lambda item: (-item[1], item[0]))
        return {name: count / total for name, count in ranked} if total else {}


#: The name a wrong check without a named misconception is counted under.
OTHER = "other"


def exercise_stats(rows: Iterable[dict[str, Any]], order: Sequence[str] = ()) -> list[ExerciseStats]:
    """Per exercise, from the rows of :meth:`ClassLog.attempts`: in ``order`` first, then as first seen."""
    rows = list(rows)
    tried: dict[str, set[str]] = defaultdict(set)
    checks: Counter[str] = Counter()
    unreadable: Counter[str] = Counter()
    wrong: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        exercise, outcome = row["exercise_id"], row_outcome(row)
        tried[exercise].add(row["nickname"])
        if outcome == "revealed":
            continue
        checks[exercise] += 1
        if outcome == "unreadable":
            unreadable[exercise] += 1
        elif outcome == "wrong":
            wrong[exercise][row["misconception"] or OTHER] += 1
    ended = Counter(
        (exercise, outcome) for mine in exercise_outcomes(rows).values() for exercise, outcome in mine.items()
    )
    ids = [name for name in order if name in tried] + [name for name in tried if name not in order]
    return [
        ExerciseStats(
            name,
            tried=len(tried[name]),
            right=ended[name, "right"],
            attempts=checks[name],
            revealed=ended[name, "revealed"],
            unreadable=unreadable[name],
            misconceptions=dict(wrong[name]),
        )
        for name in ids
    ]


@dataclass(frozen=True)
class ClassStatus:
    """Who needs the teacher: students who joined but checked nothing, and students stuck on an exercise."""

    not_started: list[str]
    stuck: dict[str, str]  # nickname -> the exercise of their last wrong answer
    working: int  # students with at least one check


def class_status(
    students: Iterable[str], rows: Iterable[dict[str, Any]], stuck_after: int = STUCK_AFTER
) -> ClassStatus:
    """Who has not started and who is stuck, from the log's rows.

    Stuck: the last ``stuck_after`` answers judged (right or wrong) all wrong. An unreadable answer is
    not judged, and Show answer is not an answer: neither counts, either way.
    """
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:  # oldest first
        history[row["nickname"]].append(row)
    stuck = {}
    for name, checks in history.items():
        judged = [check for check in checks if row_outcome(check) in JUDGED]
        last = judged[-stuck_after:]
        if len(last) == stuck_after and all(row_outcome(check) == "wrong" for check in last):
            stuck[name] = last[-1]["exercise_id"]
    not_started = [name for name in dict.fromkeys(students) if name not in history]
    return ClassStatus(not_started, stuck, len(history))


@dataclass(frozen=True)
class StudentSummary:
    """One student at the end of the lesson: how many exercises ended each way, and where they are stuck."""

    nickname: str
    outcomes: dict[str, str]  # exercise -> outcome (see exercise_outcomes); exercises not tried are absent
    stuck_on: str | None  # the exercise of the last wrong answer, when stuck (see class_status)

    def count(self, outcome: str) -> int:
        """How many exercises ended with ``outcome`` (one of :data:`calcnb.lessons.bank.OUTCOMES`)."""
        return sum(1 for ended in self.outcomes.values() if ended == outcome)


def student_summaries(
    students: Iterable[str], rows: Iterable[dict[str, Any]], stuck_after: int = STUCK_AFTER
) -> list[StudentSummary]:
    """The end-of-lesson summary: every student who joined or answered, in the order they joined."""
    rows = list(rows)
    ended = exercise_outcomes(rows)
    status = class_status(students, rows, stuck_after)
    names = list(dict.fromkeys([*students, *(row["nickname"] for row in rows)]))
    return [StudentSummary(name, ended.get(name, {}), status.stuck.get(name)) for name in names]


_FORMULA_START = ("=", "+", "@", "\t", "\r", "-")


def _csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: a leading =, +, -, @ (not a number) is prefixed with ' (no formula)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


def csv_text(rows: Iterable[dict[str, Any]]) -> str:
    """The recorded checks as CSV (a header, then one line per check; times in UTC, ISO 8601)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(ATTEMPT_COLUMNS)
    for row in rows:
        cells = dict(
            row, recorded_at=_iso(row["recorded_at"]), correct=int(bool(row["correct"])), outcome=row_outcome(row)
        )
        writer.writerow([_csv_cell(cells[name] if cells[name] is not None else "") for name in ATTEMPT_COLUMNS])
    return buffer.getvalue()
