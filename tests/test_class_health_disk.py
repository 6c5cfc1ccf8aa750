"""The teacher's class view says a full disk at its next reading, in plain words (what is wrong, what to do), and
stops saying it at the reading after there is room again.

A write taken back never reaches the disk (SQLite keeps it in memory until a commit), so on a full disk it goes
through while every student's commit fails: the view commits a write of its own at each reading, and looks at
the free space on a SQLite log's disk. The disks here are full for real: a small file system of the test's own
(a tmpfs, where mounting one is permitted), or a limit on the size of any file a process may write
(``RLIMIT_FSIZE``, anywhere with POSIX resource limits); on PostgreSQL, the server's "disk full" error raised
at every commit.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from class_log_support import VIEWED, a_class, an_attempt, fill, small_disk_at

from calcnb.classlog import health
from calcnb.classlog.location import database_url
from calcnb.classlog.schema import WRITERS
from calcnb.classlog.store import open_class_log
from calcnb.classroom.view import ClassView
from calcnb.i18n import set_language

pytest_plugins = ["class_log_fixtures"]

TESTS = Path(__file__).resolve().parent


def a_students_answer(log, sequence: int) -> None:
    """A student's page sends an answer, as its recorder does (raises what stops it)."""
    log.record_keyed("a" * 32, sequence, "ana", an_attempt(timestamp=time.time() + sequence))


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a file system of its own of 8 MB (a tmpfs); skipped where mounting one is not permitted."""
    with small_disk_at(tmp_path / "disk") as folder:
        yield folder


def a_students_kernel(location: str) -> sqlite3.Connection:
    """A student's kernel with the log open, as a class keeps it (its write-ahead file stays, so reading goes on)."""
    kernel = sqlite3.connect(location)
    kernel.execute("SELECT count(*) FROM calcnb_students").fetchall()
    return kernel


def test_a_full_disk_is_said_at_the_next_reading_and_no_more_once_there_is_room(small_disk, monkeypatch):
    # The free space is not looked at here: the view's own committed write alone must tell.
    monkeypatch.setattr(health, "FULL_BELOW", 0)
    monkeypatch.setattr(health, "LOW_SPACE", 0)
    location = str(small_disk / "lesson.db")
    log = open_class_log(location)
    a_class(log)
    kernel = a_students_kernel(location)
    view = ClassView(log, **VIEWED)
    assert view.refresh() and view.alarms == []
    filler = fill(small_disk)
    with pytest.raises(sa.exc.OperationalError, match="database or disk is full"):
        a_students_answer(log, 1)  # the disk is full for real: a student's answer cannot be saved
    assert view.refresh()  # the log is still read: the figures stay up to date
    (alarm,) = view.alarms
    assert alarm.startswith("The disk holding the class log is full: no student's answer can be saved.")
    assert f"in the folder {small_disk}" in alarm and "Free some space on it now" in alarm
    assert 'role="alert"' in view.banner.value
    filler.unlink()
    a_students_answer(log, 1)  # room again: saved
    assert view.refresh() and view.alarms == []
    kernel.close()
    log.close()


def test_a_disk_filling_up_is_said_before_it_is_full_and_a_full_one_even_when_the_log_cannot_be_read(
    small_disk, monkeypatch
):
    monkeypatch.setattr(health, "LOW_SPACE", 4_000_000)  # on a disk of 8 MB
    location = str(small_disk / "lesson.db")
    log = open_class_log(location)
    a_class(log)
    view = ClassView(log, **VIEWED)
    assert view.refresh() and view.alarms == []
    filler = fill(small_disk, leave=2_200_000)
    assert view.refresh()
    (alarm,) = view.alarms
    assert alarm.startswith("The disk holding the class log has only 2 MB free: answers will soon stop being saved.")
    assert f"in the folder {small_disk}" in alarm
    fill(small_disk)
    # No student's kernel holds the log open: reading it needs a file the full disk has no room for.
    assert not view.refresh()
    full, unreadable = view.alarms
    assert full.startswith("The disk holding the class log is full: no student's answer can be saved.")
    assert unreadable.startswith("The class log cannot be read right now (")
    set_language("pt")
    view.refresh()
    assert view.alarms[0].startswith("O disco onde está o registo da turma está cheio: nenhuma resposta dos alunos")
    assert "Liberte já espaço nesse disco" in view.alarms[0]
    set_language("en")
    filler.unlink()
    assert view.refresh() and view.alarms == []
    log.close()


_LIMITED = """
import json, os, resource, signal, sys, time
sys.path.insert(0, {tests!r})
from class_log_support import VIEWED, a_class
from test_class_health_disk import a_students_answer, a_students_kernel
from calcnb.classlog.store import open_class_log
from calcnb.classroom.view import ClassView

location = {location!r}
log = open_class_log(location)
a_class(log)
kernel = a_students_kernel(location)
view = ClassView(log, **VIEWED)
seen = {{"before": [view.refresh(), view.alarms]}}
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of ending the process
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
# No file may grow past the write-ahead file's size: every commit appends to it, so none has room.
resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(location + "-wal"), hard))
try:
    a_students_answer(log, 1)
    seen["student"] = "saved"
except Exception as error:
    seen["student"] = str(getattr(error, "orig", error))
seen["full"] = [view.refresh(), view.alarms]
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
a_students_answer(log, 1)
seen["room"] = [view.refresh(), view.alarms]
print(json.dumps(seen))
"""


def test_a_log_that_cannot_grow_is_said_at_the_next_reading_and_no_more_once_it_can(tmp_path):
    """Anywhere (no mounting): the process's files may not grow, as on a full disk; its reads go on."""
    pytest.importorskip("resource")  # POSIX
    location = str(tmp_path / "lesson.db")
    script = _LIMITED.format(tests=str(TESTS), location=location)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["before"] == [True, []]
    assert seen["student"] == "disk I/O error"  # a student's answer cannot be saved
    refreshed, alarms = seen["full"]
    assert refreshed and len(alarms) == 1, alarms
    assert alarms[0].startswith("The class log cannot be written right now (disk I/O error)")
    assert seen["room"] == [True, []]


@pytest.mark.postgres
@pytest.mark.parametrize("location", ["postgresql"], indirect=True)
def test_a_database_server_out_of_disk_is_said_at_the_next_reading_and_no_more_once_it_has_room(location):
    """PostgreSQL's "disk full" (SQLSTATE 53100) raised at every commit, as a server whose disk is full fails a
    commit: a write taken back never meets it."""
    log = open_class_log(location)
    a_class(log)
    view = ClassView(log, **VIEWED)
    assert view.refresh() and view.alarms == []
    tables = ("calcnb_attempts", "calcnb_writes", "calcnb_writers")
    admin = sa.create_engine(database_url(location))
    with admin.begin() as connection:
        connection.execute(
            sa.text(
                "CREATE FUNCTION calcnb_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION"
                " 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$"
            )
        )
        for table in tables:
            connection.execute(
                sa.text(
                    f"CREATE CONSTRAINT TRIGGER calcnb_disk_full AFTER INSERT OR UPDATE ON {table}"
                    " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION calcnb_disk_full()"
                )
            )
    try:
        with pytest.raises(sa.exc.OperationalError, match="No space left on device"):
            a_students_answer(log, 1)
        assert view.refresh()
        (alarm,) = view.alarms
        assert alarm.startswith(f"The database server holding the class log {log.location} has run out of disk space")
        assert "Ask whoever looks after that server" in alarm
    finally:
        with admin.begin() as connection:
            for table in tables:
                connection.execute(sa.text(f"DROP TRIGGER calcnb_disk_full ON {table}"))
            connection.execute(sa.text("DROP FUNCTION calcnb_disk_full"))
        admin.dispose()
    a_students_answer(log, 1)
    assert view.refresh() and view.alarms == []
    log.close()


def test_the_views_own_write_is_committed_at_each_reading_and_never_shown_as_a_students_page(log):
    a_class(log)
    log.report("page-a", "ana", waiting=0, written=2, last_write=time.time(), last_failure=None, failure=None)
    view = ClassView(log, **VIEWED)
    beats = []
    for _ in range(2):
        assert view.refresh() and view.alarms == []
        with log.engine.connect() as connection:
            row = connection.execute(sa.select(WRITERS).where(WRITERS.c.writer == health.VIEW_WRITER)).one()
        beats.append(row.heartbeat)
        assert row.waiting == 0
    assert beats[0] < beats[1]  # written afresh, and kept, at each reading
    assert view.health.value.count('class="calcnb-health"') == 1 and 'data-nickname="ana"' in view.health.value
    view.close()


def test_a_database_out_of_room_is_told_from_its_error():
    full = sqlite3.connect(":memory:")
    full.execute("CREATE TABLE t (x)")
    full.execute("PRAGMA max_page_count = 2")
    with pytest.raises(sqlite3.OperationalError) as raised:
        full.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 100)
    assert health.out_of_room(raised.value)
    assert health.out_of_room(sa.exc.OperationalError("INSERT", {}, raised.value))
    assert not health.out_of_room(sqlite3.OperationalError("database is locked"))
    assert not health.out_of_room(ValueError("no room for doubt"))
