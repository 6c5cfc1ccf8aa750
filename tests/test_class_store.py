"""Opening a class log: where it lives, its engine, its key, thirty writers at once, databases that cannot be written.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest
import sqlalchemy as sa
from class_log_support import REPO, an_attempt, unwritable

from calcnb.classlog.location import database_url, hidden_password
from calcnb.classlog.schema import ANSWER_MAX, ClassLogError
from calcnb.classlog.store import ClassLog, open_class_log, read_class_key

pytest_plugins = ["class_log_fixtures"]


def test_reopening_a_log_keeps_its_records(location):
    first = open_class_log(location)
    first.record("ana", an_attempt())
    first.close()
    again = open_class_log(location)
    assert again.count() == 1
    with again.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM calcnb_schema")).scalar() == 1
    again.close()


def test_sqlite_logs_are_in_wal_mode(tmp_path):
    log = open_class_log(tmp_path / "wal.db")
    with log.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    log.close()


@pytest.mark.parametrize("bad", ["", "   ", "nosuchdialect://x/y"])
def test_a_bad_location_is_a_clear_error(bad):
    with pytest.raises(ClassLogError):
        open_class_log(bad)


def test_a_path_and_a_postgresql_url_pick_their_drivers(tmp_path):
    assert database_url(tmp_path / "a.db").get_backend_name() == "sqlite"
    assert database_url(tmp_path / "a.db").database == str(tmp_path / "a.db")
    url = database_url("postgresql://teacher:secret@db.school/lesson")
    assert url.drivername == "postgresql+psycopg"
    log = ClassLog("postgresql://teacher:secret@db.school/lesson")
    assert "secret" not in log.location and "secret" not in repr(log)


def test_one_function_hides_a_password_wherever_a_location_is_printed(tmp_path):
    """The log's own name in messages and the location the teacher typed, printed back, hide it the same way."""
    typed = "postgresql://teacher:secret@db.school/lesson"
    assert hidden_password(typed) == "postgresql://teacher:***@db.school/lesson"
    assert ClassLog(typed).location == "postgresql+psycopg://teacher:***@db.school/lesson"
    assert hidden_password(database_url(typed)) == ClassLog(typed).location
    assert hidden_password("postgresql://teacher:secret@db:x/y") == "postgresql://teacher:***@db:x/y"  # unread
    assert hidden_password(tmp_path / "lesson.db") == str(tmp_path / "lesson.db")  # a path: as given
    assert ClassLog(tmp_path / "lesson.db").location == str(tmp_path / "lesson.db")
    for refused in ("sqlite://teacher:secret@/:memory:", "post gres://teacher:secret@db/lesson"):
        with pytest.raises(ClassLogError, match=r"teacher:\*\*\*@") as error:  # in memory; not a URL
            database_url(refused)
        assert "secret" not in str(error.value)


def test_the_class_key_is_made_once_and_kept_in_the_log(log, location):
    key = log.class_key()
    assert len(key) == 32 and key == log.class_key()
    again = open_class_log(location)
    try:
        assert again.class_key() == key  # another kernel (or the teacher's notebook) reads the same key
    finally:
        again.close()


def test_reading_the_class_key_never_makes_a_log(tmp_path, log, location):
    missing = tmp_path / "not yet.db"
    assert read_class_key(missing) is None and not missing.exists()
    assert read_class_key(location) == log.class_key()


# ---------------------------------------------------------------- thirty writers at once

WRITER = textwrap.dedent(
    """
    import random, sys, time
    from calcnb.classlog.store import open_class_log
    from pathlib import Path
    location, writer, count, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])

    class Attempt:
        def __init__(self, number):
            self.exercise_id, self.variant, self.answer = f"ex{number % 5}", writer, f"{writer}:{number}"
            self.outcome, self.misconception, self.language = "right" if number % 3 == 0 else "wrong", None, "en"
            self.timestamp = time.time()

    (folder / f"ready{writer}").touch()
    while not (folder / "go").exists():  # every writer opens the new log and writes at the same moment
        time.sleep(0.01)
    log = open_class_log(location, timeout=30)
    log.join(f"student{writer}")
    for number in range(count):
        log.record(f"student{writer}", Attempt(number))
        time.sleep(random.random() * 0.02)
    log.close()
    """
)


@pytest.mark.slow
def test_thirty_writers_at_once_lose_no_record(location, tmp_path):
    """Thirty processes open a new log at the same time (racing to create it), then all write at once."""
    writers, each = 30, 30
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, location, str(writer), str(each), str(tmp_path)],
            env=environment,
            stderr=subprocess.PIPE,
        )
        for writer in range(writers)
    ]
    deadline = time.monotonic() + 240
    while len(list(tmp_path.glob("ready*"))) < writers and time.monotonic() < deadline:
        if any(process.poll() for process in processes):
            break
        time.sleep(0.05)
    (tmp_path / "go").touch()
    failures = []
    for process in processes:
        _, errors = process.communicate(timeout=300)
        if process.returncode:
            failures.append(errors.decode(errors="replace")[-500:])
    assert failures == []
    log = open_class_log(location)
    rows = log.attempts()
    assert len(rows) == writers * each == log.count()
    assert {row["answer"] for row in rows} == {f"{w}:{n}" for w in range(writers) for n in range(each)}
    assert len(log.students()) == writers
    log.close()


# ---------------------------------------------------------------- databases that cannot be written


@pytest.mark.parametrize("kind", ["read_only", "locked", "disk_full"])
def test_a_log_that_cannot_be_written_raises_within_its_timeout(location, kind):
    with unwritable(kind, location) as log:
        with pytest.raises(sa.exc.SQLAlchemyError) as raised:
            log.record_many("ana", [an_attempt(answer="x" * ANSWER_MAX)] * 50)
        log.close()
    expected = {"read_only": ("readonly", "permission denied"), "locked": ("locked", "lock timeout"),
                "disk_full": ("full", "no space left")}[kind]  # fmt: skip
    assert any(word in str(raised.value).lower() for word in expected), str(raised.value)
    check = open_class_log(location)
    assert not [row for row in check.attempts() if row["nickname"] == "ana"]
    check.close()
