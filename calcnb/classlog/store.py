"""The class log, opened: :class:`ClassLog`, one class that opens a log, writes into it and reads it back.

One class, because opening, writing and reading share one engine, one file identity and one class key: each
write checks the SQLite file before and after, so nothing lands in a file deleted or replaced since. Each check
is written once (:meth:`ClassLog.record_keyed`), in the order of commits and within :data:`RATE_LIMITS`; every
statement has bound parameters, so no student's text becomes SQL. What is kept, and why: ``docs/design.md``.
Where a log lives is :mod:`calcnb.classlog.location`; its tables, :mod:`calcnb.classlog.schema`.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from calcnb.classlog.location import database_url, hidden_password, make_engine, reason
from calcnb.classlog.schema import (
    ANSWER_MAX,
    ATTEMPT_COLUMNS,
    ATTEMPTS,
    CLASS_KEY,
    DISCUSSED,
    DISCUSSED_COLUMNS,
    FAILURE_MAX,
    GAME_COLUMNS,
    GAMES,
    METADATA,
    NAME_MAX,
    PACING,
    SCHEMA_TABLE,
    SCHEMA_VERSION,
    STUDENTS,
    WRITERS,
    WRITES,
    ClassLogError,
    ClassLogMoved,
    NicknameTaken,
    clean_nickname,
    clean_text,
    student_key,
)
from calcnb.classlog.upgrades import UPGRADES
from calcnb.exercises.items import Attempt, Outcome
from calcnb.game.errors import quote
from calcnb.i18n import message

__all__ = [
    "ALREADY_WRITTEN",
    "DEFAULT_TIMEOUT",
    "RATE_LIMITS",
    "REFUSED",
    "WRITTEN",
    "ClassLog",
    "Pacing",
    "open_class_log",
    "read_class_key",
    "within_rate",
]

#: Seconds a write waits for a lock before recording gives up (busy timeout, lock timeout).
DEFAULT_TIMEOUT = 5.0


#: The most answers one student may have in the log within any window of so many seconds: (seconds, answers).
#: A few a second, a small burst, and a steady pace far above anyone's reading and typing: holding Enter
#: down (sixty checks a second) keeps 20 in ten seconds, and a student at a normal pace is never refused.
RATE_LIMITS = ((1.0, 5), (10.0, 20))
#: What :meth:`ClassLog.record_keyed` did with a check: written now, found already written, or refused
#: (its student over :data:`RATE_LIMITS`: not stored).
WRITTEN, ALREADY_WRITTEN, REFUSED = "written", "already written", "refused"
# Any number: the PostgreSQL advisory lock that makes answers take their ids in the order they commit.
_ORDER_LOCK = 0x6361_6C63


class Pacing(NamedTuple):
    """How far the class may go: ``up_to`` the last exercise open (its number in the lesson; None: all), and
    whether the teacher has ``paused`` every page. The default, with nothing set: all open, not paused."""

    up_to: int | None = None
    paused: bool = False

    def open(self, number: int | None) -> bool:
        """May an exercise numbered ``number`` be answered now (an unnumbered one always, unless paused)?"""
        return not self.paused and (self.up_to is None or number is None or number <= self.up_to)


def within_rate(times: Iterable[float], when: float) -> bool:
    """Would one more answer at ``when`` keep a student who answered at ``times`` within :data:`RATE_LIMITS`?

    Every answer less than a window's width from ``when``, before or after, counts in that window.

    >>> within_rate([0.0, 0.1, 0.2, 0.3], 0.4), within_rate([0.0, 0.1, 0.2, 0.3, 0.35], 0.4)
    (True, False)
    """
    times = list(times)
    return all(sum(1 for time_ in times if abs(time_ - when) < seconds) < count for seconds, count in RATE_LIMITS)


def _attempt_rows(nickname: str, attempts: Iterable[Attempt]) -> list[dict[str, Any]]:
    """The rows of ``attempts`` by ``nickname`` as :data:`~calcnb.classlog.schema.ATTEMPTS` stores them."""
    name = clean_nickname(nickname)
    rows = []
    for attempt in attempts:
        outcome = Outcome(attempt.outcome)
        rows.append(
            {
                "recorded_at": float(attempt.timestamp),
                "nickname": name,
                "exercise_id": clean_text(attempt.exercise_id, NAME_MAX),
                "variant": clean_text(attempt.variant, NAME_MAX),
                "answer": clean_text(attempt.answer, ANSWER_MAX),
                "correct": outcome is Outcome.RIGHT,
                "outcome": outcome.value,  # the text: the log stores what every version reads
                "misconception": None if attempt.misconception is None else clean_text(attempt.misconception, NAME_MAX),
                "language": clean_text(attempt.language, NAME_MAX),
            }
        )
    return rows


# What ClassLog.probe tries to write (and takes back): an answer as any page sends it.
_PROBE = Attempt("probe", 0, "", Outcome.UNREADABLE, None, "en", 0.0)


class ClassLog:
    """A class log, opened: :meth:`join` and :meth:`record` write, :meth:`attempts` and :meth:`students` read.

    Open it with :func:`open_class_log`, which also creates the tables of a new log and checks the schema
    version of an existing one. ``location`` is where the log is as messages name it: a SQLite log by its
    file, any other by its URL with the password hidden. Every write checks the SQLite file before and
    after (:meth:`check_file`), and the ones that must not land in a replaced file check the class key
    inside their transaction.
    """

    def __init__(self, location: str | os.PathLike, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url: sa.URL = database_url(location)
        sqlite = self.url.get_backend_name() == "sqlite"
        self.location = (self.url.database or "") if sqlite else hidden_password(self.url)
        self.timeout = timeout
        self._may_create = True  # until prepared: a new log's file is made; afterwards never again by a write
        # The class key in the file as opened (None: not made yet): a file that took a deleted one's inode
        # number has the same identity on disk, but not the same key.
        self._key: str | None = None
        try:
            self.engine: Engine = make_engine(self.url, timeout, lambda: self._may_create)
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
                message("classlog.cannot_open", location=self.location, reason=reason(error))
            ) from error
        while found in UPGRADES:
            found = self._upgrade(found, UPGRADES[found])
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
                message("classlog.cannot_open", location=self.location, reason=reason(error))
            ) from error

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

    # ------------------------------------------------------------ writing

    def join(self, nickname: str, language: str = "en", *, when: float | None = None, new: bool = False) -> str:
        """Note that a student joined the class under ``nickname``; returns the nickname as stored.

        The first join under a nickname keeps its key (:func:`~calcnb.classlog.schema.student_key`), which the
        log holds once: the database, not a look beforehand, decides who has it. A nickname whose key someone
        has already is theirs: a rejoin (the rejoin code checked, or a page sending its answers to a new file)
        is a row of its own under the nickname as first stored, which is returned. With ``new`` (a student
        joining for the first time) it is refused instead: :class:`~calcnb.classlog.schema.NicknameTaken`
        names the nickname as stored, so of two students joining as one nickname at once only one joins.
        """
        key = student_key(nickname)
        row = {
            "nickname": clean_nickname(nickname),
            "joined_at": time.time() if when is None else float(when),
            "language": clean_text(language, NAME_MAX),
        }
        self.check_file()
        try:
            with self.engine.begin() as connection:
                connection.execute(sa.insert(STUDENTS), {**row, "nickname_key": key})
        except sa.exc.IntegrityError as error:  # the key is taken: someone joined under it first
            with self.engine.connect() as connection:
                taken = connection.execute(
                    sa.select(STUDENTS.c.nickname).where(STUDENTS.c.nickname_key == key)
                ).scalar_one_or_none()
            if taken is None:  # refused for another reason than the key
                raise
            if new:
                raise NicknameTaken(taken) from error
            row["nickname"] = taken
            with self.engine.begin() as connection:
                connection.execute(sa.insert(STUDENTS), {**row, "nickname_key": None})
        finally:
            self.check_file()
        return row["nickname"]

    def class_key(self) -> str:
        """The class's secret key, made the first time it is asked for and kept in the log.

        The lesson's variants follow it (:meth:`calcnb.exercises.bank.Bank.variant_for`): the students' kernels
        and the teacher's notebook and worksheets read the same key, so their questions agree.
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

    def record(self, nickname: str, attempt: Attempt) -> None:
        """Write one check of an exercise by ``nickname``; raises the database's error if it cannot be written."""
        self.record_many(nickname, [attempt])

    def record_many(self, nickname: str, attempts: Iterable[Attempt]) -> None:
        """Write several checks by one student in one transaction."""
        rows = _attempt_rows(nickname, attempts)
        if rows:
            self.check_file()
            with self.engine.begin() as connection:
                self._in_order(connection)
                connection.execute(sa.insert(ATTEMPTS), rows)

    def record_keyed(self, writer: str, sequence: int, nickname: str, attempt: Attempt) -> str:
        """Write one check, once: ``writer`` (a page's key) and ``sequence`` (its number) name it.

        The attempt and its key go in one transaction, and the key is unique: a retry of a write whose
        outcome was not known (the connection dropped at commit) writes nothing twice. A check that would
        put its student over :data:`RATE_LIMITS` (counted in the log, so every page of the student counts,
        by the times the answers were checked) is not stored. Returns :data:`WRITTEN`,
        :data:`ALREADY_WRITTEN` or :data:`REFUSED`; raises the database's error, or
        :class:`~calcnb.classlog.schema.ClassLogMoved`.
        """
        self.check_file()
        (row,) = _attempt_rows(nickname, [attempt])
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
                connection.execute(sa.insert(ATTEMPTS), _attempt_rows("calcnb", [_PROBE]))
            finally:
                connection.rollback()

    def record_game(
        self, nickname: str, seed: int, player: str, won: bool, score: int, *, when: float | None = None
    ) -> str:
        """Write one deal played for ``nickname`` (its ``seed``, the ``player``'s name, ``won``, ``score``), once:
        returns :data:`WRITTEN`, or :data:`ALREADY_WRITTEN` when that student's deal by that player is in the log
        (a retry). Raises the database's error, or :class:`~calcnb.classlog.schema.ClassLogMoved`."""
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

    # ------------------------------------------------------------ the answer up for discussion

    def discuss(self, attempt_id: int, *, when: float | None = None) -> dict[str, Any]:
        """Put the recorded answer numbered ``attempt_id`` up for the class to discuss, in place of any other: its
        exercise, variant and text are copied (never its nickname), and returned as :meth:`discussed` gives them.

        Raises :class:`~calcnb.classlog.schema.ClassLogError` when the log has no such answer.
        """
        self.check_file()
        with self.engine.begin() as connection:
            found = connection.execute(
                sa.select(ATTEMPTS.c.exercise_id, ATTEMPTS.c.variant, ATTEMPTS.c.answer).where(
                    ATTEMPTS.c.id == int(attempt_id)
                )
            ).first()
            if found is None:
                raise ClassLogError(message("classlog.no_such_answer", number=attempt_id))
            row = {
                "attempt_id": int(attempt_id),
                **found._mapping,
                "shown_at": time.time() if when is None else float(when),
            }
            connection.execute(sa.delete(DISCUSSED))
            connection.execute(sa.insert(DISCUSSED).values(id=1, **row))
        return {name: row[name] for name in DISCUSSED_COLUMNS}

    def stop_discussing(self) -> None:
        """Take down the answer up for discussion, if any: the projector shows the class's figures again."""
        self.check_file()
        with self.engine.begin() as connection:
            connection.execute(sa.delete(DISCUSSED))

    def discussed(self) -> dict[str, Any] | None:
        """The answer up for discussion (keyed by :data:`~calcnb.classlog.schema.DISCUSSED_COLUMNS`), or None."""
        rows = self._read(sa.select(*(DISCUSSED.c[name] for name in DISCUSSED_COLUMNS)).where(DISCUSSED.c.id == 1))
        return rows[0] if rows else None

    # ------------------------------------------------------------ pacing

    def set_pacing(self, pacing: Pacing, *, when: float | None = None) -> None:
        """Set how far the class may go (the teacher's class view does): every page reads it within seconds."""
        up_to = pacing.up_to
        if up_to is not None and (isinstance(up_to, bool) or not isinstance(up_to, int) or up_to < 1):
            raise ClassLogError(message("classlog.bad_pacing", up_to=quote(up_to)))
        row = {"up_to": up_to, "paused": bool(pacing.paused), "changed_at": time.time() if when is None else when}
        self.check_file()
        with self.engine.begin() as connection:
            connection.execute(sa.delete(PACING))
            connection.execute(sa.insert(PACING).values(id=1, **row))

    def pacing(self) -> Pacing:
        """How far the class may go now (:class:`Pacing`; all open and not paused when the teacher set nothing)."""
        rows = self._read(sa.select(PACING.c.up_to, PACING.c.paused).where(PACING.c.id == 1))
        return Pacing(rows[0]["up_to"], bool(rows[0]["paused"])) if rows else Pacing()

    # ------------------------------------------------------------ reading

    def _read(self, query: sa.Select) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query)]

    def attempts(self) -> list[dict[str, Any]]:
        """Every recorded check, oldest first, as dicts keyed by :data:`~calcnb.classlog.schema.ATTEMPT_COLUMNS`."""
        columns = [ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS]
        return self._read(sa.select(*columns).order_by(ATTEMPTS.c.recorded_at, ATTEMPTS.c.id))

    def attempts_after(self, after: int = 0) -> list[dict[str, Any]]:
        """The checks recorded since the one numbered ``after`` (0: all), in the order they were written,
        each with its ``id`` besides :data:`~calcnb.classlog.schema.ATTEMPT_COLUMNS`: what a reader that saw up
        to ``after`` has not seen.

        Answers are numbered in the order their transactions commit (see
        :meth:`record_keyed`), so no answer can turn up
        later with a smaller number.
        """
        columns = [ATTEMPTS.c.id, *(ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS)]
        return self._read(sa.select(*columns).where(ATTEMPTS.c.id > after).order_by(ATTEMPTS.c.id))

    def student_attempts(self, nickname: str, up_to: int) -> list[dict[str, Any]]:
        """One student's checks numbered up to ``up_to``, oldest first (as :meth:`attempts` orders them), with ids."""
        columns = [ATTEMPTS.c.id, *(ATTEMPTS.c[name] for name in ATTEMPT_COLUMNS)]
        query = (
            sa.select(*columns)
            .where(ATTEMPTS.c.nickname == nickname, ATTEMPTS.c.id <= up_to)
            .order_by(ATTEMPTS.c.recorded_at, ATTEMPTS.c.id)
        )
        return self._read(query)

    def count(self) -> int:
        """How many checks are recorded."""
        with self.engine.connect() as connection:
            return connection.execute(sa.select(sa.func.count()).select_from(ATTEMPTS)).scalar_one()

    def students(self) -> list[str]:
        """The nicknames of everyone who joined, in the order they joined (each once)."""
        query = sa.select(STUDENTS.c.nickname).order_by(STUDENTS.c.joined_at, STUDENTS.c.id)
        with self.engine.connect() as connection:
            return list(dict.fromkeys(connection.execute(query).scalars()))

    def taken_as(self, nickname: str) -> str | None:
        """The nickname someone already joined under that ``nickname`` is, or looks like; None if it is free.

        Nicknames are compared by their key, kept with each student's first join
        (:func:`~calcnb.classlog.schema.student_key`): "Ana", "ana", a Cyrillic "аna" and "Ana" with an invisible
        character are one nickname, so nobody can pass for another student with a look-alike.
        """
        query = sa.select(STUDENTS.c.nickname).where(STUDENTS.c.nickname_key == student_key(nickname))
        with self.engine.connect() as connection:
            return connection.execute(query).scalar_one_or_none()

    def has_joined(self, nickname: str) -> bool:
        """Has someone already joined the class under ``nickname``, or under a nickname that looks the same?"""
        return self.taken_as(nickname) is not None

    def games(self, nickname: str | None = None) -> list[dict[str, Any]]:
        """Every recorded game (only ``nickname``'s, when given), in the order written, as dicts keyed by
        :data:`~calcnb.classlog.schema.GAME_COLUMNS`."""
        query = sa.select(*(GAMES.c[name] for name in GAME_COLUMNS)).order_by(GAMES.c.id)
        if nickname is not None:
            query = query.where(GAMES.c.nickname == clean_nickname(nickname))
        return self._read(query)

    def writers(self) -> list[dict[str, Any]]:
        """The health row of every page that recorded, oldest heartbeat first
        (see :meth:`report`)."""
        return self._read(sa.select(WRITERS).order_by(WRITERS.c.heartbeat, WRITERS.c.writer))


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
