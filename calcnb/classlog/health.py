"""Are the students' answers reaching the class log? Each student's pages, as their health rows say.

Every page that records writes a health row into the log (:meth:`ClassLog.report
<calcnb.classlog.store.ClassLog.report>`): answers waiting on the page, answers written, its last write and
failure, and a heartbeat. :func:`student_health` sums a student's pages and says whose answers are not
arriving, so the class view can say it loudly (:func:`calcnb.classroom.view.health_html` draws the table).
Kept apart from the drawing: it is the one rule for "not reaching the log", tested without widgets.

Whether the log can take any answer at all is tried by the view itself at each reading. A write taken back
(:meth:`ClassLog.probe <calcnb.classlog.store.ClassLog.probe>`) never reaches the disk: SQLite keeps it in
memory until a commit, so on a full disk it goes through while every student's commit fails, and the students'
own health rows cannot say so either (they are written into the same full log). So the view also commits a
health row of its own (:func:`write_heartbeat`, left out of :func:`student_health`), and :func:`disk_room` says
whether there is no room (that write failed for lack of it, or a SQLite log's disk has less than
:data:`FULL_BELOW` bytes free) or little (less than :data:`LOW_SPACE`).

>>> now = 1000.0
>>> row = dict(writer="p", nickname="ana", waiting=2, written=1, last_write=900.0, last_failure=None, failure=None)
>>> [item.stuck for item in student_health([dict(row, heartbeat=990.0)], now)]
[False]
>>> [item.stuck for item in student_health([dict(row, heartbeat=900.0)], now)]  # quiet for 100 s, answers waiting
[True]
"""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from calcnb.classlog.schema import WRITERS

if TYPE_CHECKING:
    from calcnb.classlog.store import ClassLog

__all__ = [
    "FULL",
    "FULL_BELOW",
    "LOW",
    "LOW_SPACE",
    "QUIET_AFTER",
    "VIEW_WRITER",
    "StudentHealth",
    "disk_room",
    "free_space",
    "in_class_order",
    "out_of_room",
    "student_health",
    "write_heartbeat",
]

#: Seconds without a word from a page that has answers waiting before the view says they are not arriving
#: (a page reports at least every :data:`calcnb.classlog.outbox.HEARTBEAT` seconds while it can).
QUIET_AFTER = 45.0

#: The writer key of the class view's own health row (:func:`write_heartbeat`): a page's key is hex digits, never
#: this one, and :func:`student_health` leaves the row out.
VIEW_WRITER = "calcnb-class-view"
_VIEW_NICKNAME = "calcnb class view"  # what the row is, for whoever opens the log's tables

#: Bytes free on the disk holding a SQLite log below which there is no room: an answer may still squeeze into the
#: write-ahead file, but the log can no longer grow (that file is folded into it a few MB at a time).
FULL_BELOW = 1_000_000
#: Bytes free below which the disk is filling up: room for a lesson's answers many times over, and time for the
#: teacher to free some before any answer waits.
LOW_SPACE = 50_000_000
#: What :func:`disk_room` says: no room for the students' answers, or little.
FULL, LOW = "full", "low"


@dataclass(frozen=True)
class StudentHealth:
    """One student's pages, as their health rows in the log say: answers waiting, the last write and failure."""

    nickname: str
    waiting: int
    written: int
    last_write: float | None
    last_failure: float | None
    failure: str | None
    heard: float  # the last word from any of the student's pages (seconds since the epoch)
    stuck: bool  # answers wait and are not arriving: a failure since the last write, or the page fell quiet


def student_health(writers: Sequence[dict[str, Any]], now: float | None = None) -> list[StudentHealth]:
    """Each student's pages (:meth:`ClassLog.writers <calcnb.classlog.store.ClassLog.writers>`) summed up.

    A page's answers are not arriving when some wait and its last failure is newer than its last write,
    or when it has not been heard from for :data:`QUIET_AFTER` seconds.
    """
    now = time.time() if now is None else now
    pages: dict[str, list[dict[str, Any]]] = {}
    for row in writers:
        if row.get("writer") == VIEW_WRITER:  # the class view's own row (write_heartbeat): no student's page
            continue
        pages.setdefault(row["nickname"], []).append(row)
    found = []
    for name, rows in pages.items():
        stuck = any(
            row["waiting"]
            and (
                (row["last_failure"] is not None and row["last_failure"] >= (row["last_write"] or 0))
                or now - row["heartbeat"] > QUIET_AFTER
            )
            for row in rows
        )
        failed = max(rows, key=lambda row: row["last_failure"] or 0)
        found.append(
            StudentHealth(
                name,
                waiting=sum(row["waiting"] for row in rows),
                written=sum(row["written"] for row in rows),
                last_write=max((row["last_write"] for row in rows if row["last_write"]), default=None),
                last_failure=failed["last_failure"],
                failure=failed["failure"] if failed["last_failure"] else None,
                heard=max(row["heartbeat"] for row in rows),
                stuck=stuck,
            )
        )
    return found


def in_class_order(health: Sequence[StudentHealth], students: Sequence[str]) -> list[StudentHealth]:
    """In the order the students joined (pages of nicknames that never joined last)."""
    rank = {name: number for number, name in enumerate(dict.fromkeys(students))}
    return sorted(health, key=lambda item: rank.get(item.nickname, len(rank)))


# ---------------------------------------------------------------- is there room for the answers?


def write_heartbeat(log: ClassLog, timeout: float) -> None:
    """Write the class view's own health row, and commit it: raises what stops the students' answers at their
    commit (a full disk first of all) as well as before it (a lock, a read-only database).

    ``timeout``: seconds to wait for a lock. The row's heartbeat is new at each call, so the commit always has
    something to write (a write that changes nothing may write nothing); the commit is the last thing done.
    """
    log.check_file()
    wait = int(1000 * timeout)
    values = {
        "nickname": _VIEW_NICKNAME,
        "waiting": 0,
        "written": 0,
        "last_write": None,
        "last_failure": None,
        "failure": None,
        "heartbeat": time.time(),
    }
    backend = log.url.get_backend_name()
    with log.engine.connect() as connection:
        if backend == "sqlite":
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {wait}")  # this connection's only
        elif backend == "postgresql":
            connection.exec_driver_sql(f"SET LOCAL lock_timeout = {wait}")
        changed = connection.execute(sa.update(WRITERS).where(WRITERS.c.writer == VIEW_WRITER).values(**values))
        if not changed.rowcount:
            try:
                connection.execute(sa.insert(WRITERS).values(writer=VIEW_WRITER, **values))
            except sa.exc.IntegrityError:  # another class view made the row first: the next reading updates it
                return
        connection.commit()


def out_of_room(error: BaseException) -> bool:
    """Does a database's error say it has no room left? SQLite's "database or disk is full" (``SQLITE_FULL``),
    PostgreSQL's ``disk_full`` (SQLSTATE 53100)."""
    found = getattr(error, "orig", None) or error
    if isinstance(found, sqlite3.Error):
        code = getattr(found, "sqlite_errorcode", None)  # Python 3.11 on; before, the message says it
        return code & 0xFF == sqlite3.SQLITE_FULL if code is not None else "database or disk is full" in str(found)
    return getattr(found, "sqlstate", None) == "53100"


def free_space(log: ClassLog) -> int | None:
    """Bytes free on the disk holding a SQLite log's file (and its write-ahead file, beside it); None for any other
    database (its disk is the server's), or when the folder cannot be looked at."""
    path = log.file_path()
    if path is None:
        return None
    try:
        return shutil.disk_usage(path.parent).free
    except OSError:
        return None


def disk_room(log: ClassLog, error: BaseException | None = None) -> tuple[str | None, int | None]:
    """:data:`FULL`, :data:`LOW` or None, and the bytes free on a SQLite log's disk (None: not known).

    :data:`FULL` when ``error`` (what a write or a reading of the log raised, if anything) says the database has no
    room, or the SQLite log's disk has less than :data:`FULL_BELOW` bytes free; :data:`LOW` when it has less than
    :data:`LOW_SPACE`.
    """
    free = free_space(log)
    if (error is not None and out_of_room(error)) or (free is not None and free < FULL_BELOW):
        return FULL, free
    if free is not None and free < LOW_SPACE:
        return LOW, free
    return None, free
