"""What the class log's tests share: attempts, a small class, real exercises, databases that cannot be written.

The fixtures (a log on SQLite and on PostgreSQL) are in ``class_log_fixtures``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import subprocess
import warnings
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TypeVar

import sqlalchemy as sa
from pg_server import stopped

from calcnb.classlog.location import database_url
from calcnb.classlog.store import ClassLog, open_class_log
from calcnb.exercises.items import Attempt, Outcome
from calcnb.lessons import BANK, lesson

T = TypeVar("T")

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

#: The lesson whose exercises the class views of these tests number (the clock of 13), and every exercise known.
WRAPAROUND = lesson("wraparound")
ORDER = WRAPAROUND.exercises
#: Keyword arguments of a class view of the wraparound lesson, every lesson's exercises named.
VIEWED = {"order": ORDER, "bank": BANK}

_ATTEMPT = Attempt(
    exercise_id="next_card",
    variant=3,
    answer="5",
    outcome=Outcome.RIGHT,
    misconception=None,
    language="en",
    timestamp=1_800_000_000.0,
)


def an_attempt(*values: object, **changes: object) -> Attempt:
    """An attempt as the lesson's exercises hand it to their listeners (the exercises' own :class:`Attempt`):
    ``values`` replace its first fields in order, ``changes`` others by name."""
    return replace(_ATTEMPT, **dict(zip((field.name for field in fields(Attempt)), values)), **changes)


def backend(location: str) -> str:
    return "postgresql" if location.startswith("postgresql") else "sqlite"


HOSTILE = [
    "Robert'); DROP TABLE calcnb_attempts;--",
    "' OR '1'='1",
    '"; DELETE FROM calcnb_students; --',
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>&amp;",
    "\x1b[31mred\x1b[0m\r\n\t\x07",
    "ação 🂡 日本 ١٢",
    "%s %(x)s {0} :name ?",
]


def a_class(log) -> None:
    """Four students join; three answer seven checks (bia ends stuck on last_card, duda never answers)."""
    for name in ("ana", "bia", "caio", "duda"):
        log.join(name)
    checks = [
        ("ana", "next_card", "5", Outcome.RIGHT, None),
        ("bia", "next_card", "A", Outcome.WRONG, "forgot_wraparound"),
        ("bia", "next_card", "0", Outcome.WRONG, "zero_for_k"),
        ("bia", "last_card", "52", Outcome.WRONG, "fifty_two_for_k"),
        ("caio", "next_card", "A", Outcome.WRONG, "forgot_wraparound"),
        ("caio", "next_card", "5", Outcome.RIGHT, None),
        ("ana", "last_card", "x2", Outcome.WRONG, None),
    ]
    for second, (name, exercise, answer, outcome, wrong_idea) in enumerate(checks):
        log.record(name, an_attempt(exercise, 1, answer, outcome, wrong_idea, "en", 1_800_000_000.0 + second))


def record_checks(log, checks) -> None:
    """Record ``(nickname, exercise, answer, outcome, misconception)`` checks, one second apart."""
    for second, (name, exercise, answer, outcome, wrong_idea) in enumerate(checks):
        log.record(name, an_attempt(exercise, 0, answer, outcome, wrong_idea, "en", 1_800_000_000.0 + second))


def a_summary_class(log) -> None:
    """Three students: ana right on one exercise and shown the answer of another, bia stuck on inverse, caio idle."""
    for name in ("ana", "bia", "caio"):
        log.join(name)
    record_checks(
        log,
        [
            ("ana", "clock", "5", Outcome.RIGHT, None),
            ("ana", "next-wrap", "14", Outcome.WRONG, "no_wraparound"),
            ("ana", "next-wrap", "", Outcome.REVEALED, None),
            ("ana", "next-wrap", "1", Outcome.RIGHT, None),
            ("bia", "clock", "?", Outcome.UNREADABLE, None),
            *[("bia", "inverse", str(n), Outcome.WRONG, None) for n in (2, 3, 4)],
        ],
    )


def joins(log) -> list[str]:
    """Every nickname joined, once per join (a rejoin is a row of its own)."""
    from calcnb.classlog.schema import STUDENTS

    with log.engine.connect() as connection:
        return list(connection.execute(sa.select(STUDENTS.c.nickname)).scalars())


@dataclass
class LessonExercise:
    """A real exercise of the lesson's bank, with a right answer and a wrong one as a student types them."""

    exercise: object
    right: str
    wrong: str
    misconception: str


def an_exercise() -> LessonExercise:
    from calcnb.ui.lesson import Exercise

    item = BANK["next-wrap"].item(0)
    reading, (misconception, _reason) = next((key, value) for key, value in item.wrong.items() if value[0])
    return LessonExercise(Exercise(item), str(min(item.accepted)), str(reading), misconception)


# ---------------------------------------------------------------- databases that cannot be written


def _fill_to_the_brim(location: str) -> None:
    """Fill a SQLite log up to a page limit with rows smaller than any real one, as a full disk leaves it."""
    import sqlite3

    connection = sqlite3.connect(location)
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages + 3}")
    insert = (
        "INSERT INTO calcnb_attempts (recorded_at, nickname, exercise_id, variant, answer, correct, outcome, language)"
        " VALUES (0, '', '', '', ?, 0, '', '')"
    )
    for size in (1000, 100, 10, 0):
        with contextlib.suppress(sqlite3.OperationalError):
            while True:
                connection.execute(insert, ("x" * size,))
                connection.commit()
        connection.rollback()
    connection.close()


@contextlib.contextmanager
def small_disk_at(folder: Path, megabytes: int = 8):
    """``folder`` made a file system of its own of ``megabytes`` (a tmpfs) for the block, so it can be filled for
    real; skips the test where mounting one is not permitted (not Linux, not root)."""
    import shutil
    import sys

    import pytest

    folder.mkdir(parents=True, exist_ok=True)
    if not sys.platform.startswith("linux") or shutil.which("mount") is None:
        pytest.skip("no tmpfs to mount here")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "calcnb-test", str(folder)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=True)  # a file still open: detached now, freed later


def fill(folder: Path, leave: int = 0) -> Path:
    """Fill the disk holding ``folder`` with a file until about ``leave`` bytes are free (0: until it is full)."""
    import shutil

    filler = folder / "filler"
    with open(filler, "ab", buffering=0) as out, contextlib.suppress(OSError):  # ENOSPC: the disk is full
        while (free := shutil.disk_usage(folder).free) > leave + 4096 or not leave:
            out.write(b"\0" * min(1 << 16, free - leave if leave else 1 << 16))
    return filler


# How long a write to an unwritable log waits for its lock: real, and short, since each test waits it many times.
UNWRITABLE_TIMEOUT = 0.05


@contextlib.contextmanager
def unwritable(kind: str, location: str):
    """A ClassLog on ``location`` whose writes fail the way ``kind`` says (each a real error of the database)."""
    open_class_log(location).close()
    if backend(location) == "sqlite":
        if kind == "read_only":
            yield ClassLog(f"sqlite:///file:{location}?mode=ro&uri=true", timeout=UNWRITABLE_TIMEOUT)
        elif kind == "locked":
            holder = sa.create_engine(f"sqlite:///{location}", connect_args={"isolation_level": None})
            with holder.connect() as connection:
                connection.exec_driver_sql("BEGIN EXCLUSIVE")
                yield ClassLog(location, timeout=UNWRITABLE_TIMEOUT)
                connection.exec_driver_sql("ROLLBACK")
            holder.dispose()
        else:  # disk full: the file is filled to a page limit, so no row fits any more (SQLITE_FULL)
            _fill_to_the_brim(location)
            full = ClassLog(location, timeout=UNWRITABLE_TIMEOUT)

            @sa.event.listens_for(full.engine, "connect")
            def _no_room(connection, _record):
                connection.execute("PRAGMA max_page_count = 1")  # clamped to the file's size: it may not grow

            yield full
        return
    admin = sa.create_engine(database_url(location))
    if kind == "read_only":
        with admin.begin() as connection:
            connection.execute(sa.text("CREATE ROLE calcnb_reader LOGIN"))
            connection.execute(sa.text("GRANT SELECT ON ALL TABLES IN SCHEMA public TO calcnb_reader"))
        yield ClassLog(location.replace("//calcnb@", "//calcnb_reader@"), timeout=UNWRITABLE_TIMEOUT)
    elif kind == "locked":
        with admin.connect() as connection:
            connection.execute(sa.text("LOCK TABLE calcnb_attempts IN ACCESS EXCLUSIVE MODE"))
            yield ClassLog(location, timeout=UNWRITABLE_TIMEOUT)
            connection.rollback()
    else:  # disk full, as PostgreSQL reports it (SQLSTATE 53100), raised by a trigger
        with admin.begin() as connection:
            connection.execute(
                sa.text(
                    "CREATE FUNCTION calcnb_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION"
                    " 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$"
                )
            )
            connection.execute(
                sa.text(
                    "CREATE TRIGGER calcnb_full BEFORE INSERT ON calcnb_attempts"
                    " FOR EACH ROW EXECUTE FUNCTION calcnb_full()"
                )
            )
        yield ClassLog(location, timeout=UNWRITABLE_TIMEOUT)
        with admin.begin() as connection:
            connection.execute(sa.text("DROP TABLE calcnb_attempts CASCADE"))
            connection.execute(sa.text("DROP FUNCTION calcnb_full"))
    admin.dispose()


@contextlib.contextmanager
def fault(kind: str, location: str):
    """The log at ``location`` made unusable for every writer the way ``kind`` says, for the block's duration.

    ``locked``: a lock held past the writers' timeout. ``read_only``: on SQLite the file made immutable
    (``chattr +i``: file permissions do not stop root, the flag does); on PostgreSQL the database set
    read-only and every session dropped, so the writers' new sessions are read-only. ``gone``: on SQLite
    the file deleted, then made again (as the teacher's app does when started again); on PostgreSQL the
    server stopped, then started.
    """
    if backend(location) == "sqlite":
        import sqlite3

        if kind == "locked":
            holder = sqlite3.connect(location, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            yield
            holder.execute("ROLLBACK")
            holder.close()
        elif kind == "read_only":
            subprocess.run(["chattr", "+i", location], check=True)
            try:
                yield
            finally:
                subprocess.run(["chattr", "-i", location], check=True)
        else:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(location + suffix)
            yield
            open_class_log(location).close()
        return
    admin = sa.create_engine(database_url(location), poolclass=sa.pool.NullPool)
    drop_sessions = sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE datname = 'postgres' AND pid <> pg_backend_pid()")  # fmt: skip
    if kind == "locked":
        with admin.connect() as connection:
            connection.execute(sa.text("LOCK TABLE calcnb_attempts IN ACCESS EXCLUSIVE MODE"))
            yield
            connection.rollback()
    elif kind == "read_only":
        with admin.begin() as connection:
            connection.execute(sa.text("ALTER DATABASE postgres SET default_transaction_read_only = on"))
            connection.execute(drop_sessions)
        try:
            yield
        finally:
            with admin.connect() as connection:  # a session opened read-only: this transaction may write
                connection.execute(sa.text("SET TRANSACTION READ WRITE"))
                connection.execute(sa.text("ALTER DATABASE postgres RESET default_transaction_read_only"))
                connection.commit()
    else:
        with stopped(location):
            yield
    admin.dispose()


@contextlib.contextmanager
def warnings_as_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the lessons warn when a listener raises: the recorder must not
        yield


def figures(view) -> tuple:
    """What a class view shows of the class (its status line without the time, its tables and the summary)."""
    return (view.status.value.split(" Updated")[0], view.exercises.value, view.students.value, view.summary.value,
            view.summary_csv.value)  # fmt: skip


def made_without_a_loop(make: Callable[[], T]) -> T:
    """``make()``'s result, made on a thread of its own where no event loop runs, as in a plain script.

    What a page's recorder or outbox makes on a thread whose asyncio loop is running (a kernel's) is handed
    back through that loop; a test worker's main thread may report a loop as running that never turns while
    the test waits, so objects whose threads must call back directly are made this way.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(make).result()
