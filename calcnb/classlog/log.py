"""What is written into the class log: joining, each check of an exercise once, the pages' health, the games played.

A teacher who starts the lesson app with ``--class-log lesson.db`` gets every check of an exercise
recorded: the nickname the student chose (no other personal data), the exercise and its variant,
the answer as typed (cut to :data:`~calcnb.classlog.schema.ANSWER_MAX` characters), the outcome (right,
wrong, unreadable, or the answer revealed by Show answer), the misconception the judge named, the
language and the time. For "Is the 80% true?" it also keeps each deal a student's player played
(:meth:`LogWrites.record_game`), which the class view pools.

:class:`LogWrites` is the writing half of :class:`calcnb.classlog.store.ClassLog`: each check written once
(:meth:`LogWrites.record_keyed`), in the order of commits, and within :data:`RATE_LIMITS`, so holding Enter
down cannot fill the log. Every statement is built by SQLAlchemy Core with bound parameters: no student's
text ever becomes SQL. The class view (:mod:`calcnb.classroom.view`) reads it back. More: ``docs/design.md``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from calcnb.classlog.schema import (
    ANSWER_MAX,
    ATTEMPTS,
    CLASS_KEY,
    FAILURE_MAX,
    GAMES,
    NAME_MAX,
    STUDENTS,
    WRITERS,
    WRITES,
    ClassLogError,
    NicknameTaken,
    clean_nickname,
    clean_text,
    student_key,
)
from calcnb.exercises.items import Attempt, Outcome
from calcnb.game.errors import quote
from calcnb.i18n import message

__all__ = [
    "ALREADY_WRITTEN",
    "RATE_LIMITS",
    "REFUSED",
    "WRITTEN",
    "LogWrites",
    "within_rate",
]

#: The most answers one student may have in the log within any window of so many seconds: (seconds, answers).
#: A few a second, a small burst, and a steady pace far above anyone's reading and typing: holding Enter
#: down (sixty checks a second) keeps 20 in ten seconds, and a student at a normal pace is never refused.
RATE_LIMITS = ((1.0, 5), (10.0, 20))
#: What :meth:`LogWrites.record_keyed` did with a check: written now, found already written, or refused
#: (its student over :data:`RATE_LIMITS`: not stored).
WRITTEN, ALREADY_WRITTEN, REFUSED = "written", "already written", "refused"
# Any number: the PostgreSQL advisory lock that makes answers take their ids in the order they commit.
_ORDER_LOCK = 0x6361_6C63


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


class LogWrites:
    """The writes of a class log; mixed into :class:`~calcnb.classlog.store.ClassLog`, which gives the ``engine``,
    the ``url`` and ``timeout``, and checks the file before and after each write (``check_file``) and the
    class key inside a transaction (``_check_key``)."""

    engine: Engine
    url: sa.URL
    timeout: float
    _key: str | None

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
