"""The class log: schema, recording, concurrent writers, databases that cannot be written, hostile text.

Every test runs twice: on SQLite (a file, the default) and on a real PostgreSQL server that
this module starts on 127.0.0.1 and stops at the end (skipped when no server is installed,
unless ``CALCNB_REQUIRE_POSTGRES=1``, as in CI, makes that a failure).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa
from pg_server import server_binaries, throwaway_server

from calcnb import classlog
from calcnb.classlog import (
    ANSWER_MAX,
    NICKNAME_MAX,
    SCHEMA_VERSION,
    ClassLogError,
    class_status,
    csv_text,
    exercise_stats,
    open_class_log,
)

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class FakeAttempt:
    """An attempt as the lesson's exercises hand it to their listeners."""

    exercise_id: str = "next_card"
    variant: int | str = 3
    answer: str = "5"
    correct: bool = True
    misconception: str | None = None
    language: str = "en"
    timestamp: float = 1_800_000_000.0


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server for the whole run, or a skip when none is installed (a failure in CI)."""
    if server_binaries() is None:
        if os.environ.get("CALCNB_REQUIRE_POSTGRES"):
            pytest.fail("CALCNB_REQUIRE_POSTGRES is set but no PostgreSQL server is installed")
        pytest.skip("no PostgreSQL server installed (apt-get install postgresql)")
    with throwaway_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request, tmp_path):
    """Where a fresh class log lives: a SQLite file, or an empty PostgreSQL database (tables dropped after)."""
    if request.param == "sqlite":
        yield str(tmp_path / "lesson.db")
        return
    url = request.getfixturevalue("postgres_url")
    yield url
    engine = sa.create_engine(classlog.database_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS calcnb_attempts, calcnb_students, calcnb_schema CASCADE"))
        connection.execute(sa.text("DROP ROLE IF EXISTS calcnb_reader"))
    engine.dispose()


@pytest.fixture
def log(location):
    opened = open_class_log(location)
    yield opened
    opened.close()


def backend(location: str) -> str:
    return "postgresql" if location.startswith("postgresql") else "sqlite"


# ---------------------------------------------------------------- schema


def test_a_new_log_has_the_tables_and_the_schema_version(log):
    inspector = sa.inspect(log.engine)
    assert {"calcnb_schema", "calcnb_students", "calcnb_attempts"} <= set(inspector.get_table_names())
    columns = {column["name"] for column in inspector.get_columns("calcnb_attempts")}
    assert set(classlog.ATTEMPT_COLUMNS) <= columns
    with log.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version FROM calcnb_schema")).scalars().all() == [SCHEMA_VERSION]


def test_reopening_a_log_keeps_its_records(location):
    first = open_class_log(location)
    first.record("ana", FakeAttempt())
    first.close()
    again = open_class_log(location)
    assert again.count() == 1
    with again.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM calcnb_schema")).scalar() == 1
    again.close()


def test_a_log_of_another_schema_version_is_refused(log, location):
    with log.engine.begin() as connection:
        connection.execute(sa.text("UPDATE calcnb_schema SET version = :v"), {"v": SCHEMA_VERSION + 1})
    with pytest.raises(ClassLogError, match=f"schema version {SCHEMA_VERSION + 1}"):
        open_class_log(location)


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
    assert classlog.database_url(tmp_path / "a.db").get_backend_name() == "sqlite"
    assert classlog.database_url(tmp_path / "a.db").database == str(tmp_path / "a.db")
    url = classlog.database_url("postgresql://teacher:secret@db.school/lesson")
    assert url.drivername == "postgresql+psycopg"
    log = classlog.ClassLog("postgresql://teacher:secret@db.school/lesson")
    assert "secret" not in log.location and "secret" not in repr(log)


# ---------------------------------------------------------------- recording


def test_a_check_is_recorded_with_every_field(log):
    log.join("ana", "pt", when=1_800_000_000.0)
    log.record("ana", FakeAttempt("last_card", "2-7", "52", False, "fifty_two_for_k", "pt", 1_800_000_001.5))
    (row,) = log.attempts()
    assert row == {
        "recorded_at": 1_800_000_001.5,
        "nickname": "ana",
        "exercise_id": "last_card",
        "variant": "2-7",
        "answer": "52",
        "correct": False,
        "misconception": "fifty_two_for_k",
        "language": "pt",
    }
    assert log.students() == ["ana"]


def test_long_answers_and_nicknames_are_cut(log):
    log.record("n" * 500, FakeAttempt(answer="7" * 10_000))
    (row,) = log.attempts()
    assert row["answer"] == "7" * ANSWER_MAX
    assert row["nickname"] == "n" * NICKNAME_MAX


@pytest.mark.parametrize("nickname", ["", "   ", "\x00\x01\x1b", "\t\n"])
def test_an_empty_nickname_is_refused_and_nothing_is_written(log, nickname):
    with pytest.raises(ClassLogError, match="nickname"):
        log.join(nickname)
    with pytest.raises(ClassLogError):
        log.record(nickname, FakeAttempt())
    assert log.count() == 0 and log.students() == []


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


@pytest.mark.parametrize("text", HOSTILE)
def test_sql_html_and_control_characters_are_stored_as_text(log, text):
    log.join(text)
    log.record(text, FakeAttempt(answer=text, misconception=text))
    (row,) = log.attempts()
    expected = text.strip()[:NICKNAME_MAX]
    assert row["nickname"] == expected
    assert row["answer"] == text
    assert row["misconception"] == text
    assert log.students() == [expected]
    assert sa.inspect(log.engine).has_table("calcnb_attempts")


def test_nul_and_lone_surrogates_are_replaced_not_refused(log):
    log.record("a\x00b", FakeAttempt(answer="1\x00\ud8002"))
    (row,) = log.attempts()
    assert row["nickname"] == "a\ufffdb"
    assert row["answer"] == "1\ufffd?2"


# ---------------------------------------------------------------- thirty writers at once

WRITER = textwrap.dedent(
    """
    import random, sys, time
    from calcnb.classlog import open_class_log
    from pathlib import Path
    location, writer, count, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])

    class Attempt:
        def __init__(self, number):
            self.exercise_id, self.variant, self.answer = f"ex{number % 5}", writer, f"{writer}:{number}"
            self.correct, self.misconception, self.language = number % 3 == 0, None, "en"
            self.timestamp = time.time()

    log = open_class_log(location, timeout=30)
    log.join(f"student{writer}")
    (folder / f"ready{writer}").touch()
    while not (folder / "go").exists():  # every writer starts writing at the same moment
        time.sleep(0.01)
    for number in range(count):
        log.record(f"student{writer}", Attempt(number))
        time.sleep(random.random() * 0.02)
    log.close()
    """
)


def test_thirty_writers_at_once_lose_no_record(log, location, tmp_path):
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
    rows = log.attempts()
    assert len(rows) == writers * each == log.count()
    assert {row["answer"] for row in rows} == {f"{w}:{n}" for w in range(writers) for n in range(each)}
    assert len(log.students()) == writers


# ---------------------------------------------------------------- databases that cannot be written


@contextlib.contextmanager
def unwritable(kind: str, location: str):
    """A ClassLog on ``location`` whose writes fail the way ``kind`` says (each a real error of the database)."""
    open_class_log(location).close()
    if backend(location) == "sqlite":
        if kind == "read_only":
            yield classlog.ClassLog(f"sqlite:///file:{location}?mode=ro&uri=true", timeout=0.2)
        elif kind == "locked":
            holder = sa.create_engine(f"sqlite:///{location}", connect_args={"isolation_level": None})
            with holder.connect() as connection:
                connection.exec_driver_sql("BEGIN EXCLUSIVE")
                yield classlog.ClassLog(location, timeout=0.2)
                connection.exec_driver_sql("ROLLBACK")
            holder.dispose()
        else:  # disk full: the file may not grow by a single page
            full = classlog.ClassLog(location, timeout=0.2)

            @sa.event.listens_for(full.engine, "connect")
            def _no_room(connection, _record):
                connection.execute("PRAGMA max_page_count = 1")  # smaller than the file: no page can be added

            yield full
        return
    admin = sa.create_engine(classlog.database_url(location))
    if kind == "read_only":
        with admin.begin() as connection:
            connection.execute(sa.text("CREATE ROLE calcnb_reader LOGIN"))
            connection.execute(sa.text("GRANT SELECT ON ALL TABLES IN SCHEMA public TO calcnb_reader"))
        yield classlog.ClassLog(location.replace("//calcnb@", "//calcnb_reader@"), timeout=0.2)
    elif kind == "locked":
        with admin.connect() as connection:
            connection.execute(sa.text("LOCK TABLE calcnb_attempts IN ACCESS EXCLUSIVE MODE"))
            yield classlog.ClassLog(location, timeout=0.2)
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
        yield classlog.ClassLog(location, timeout=0.2)
        with admin.begin() as connection:
            connection.execute(sa.text("DROP TABLE calcnb_attempts CASCADE"))
            connection.execute(sa.text("DROP FUNCTION calcnb_full"))
    admin.dispose()


@pytest.mark.parametrize("kind", ["read_only", "locked", "disk_full"])
def test_a_log_that_cannot_be_written_raises_within_its_timeout(location, kind):
    with unwritable(kind, location) as log:
        with pytest.raises(sa.exc.SQLAlchemyError) as raised:
            log.record_many("ana", [FakeAttempt(answer="x" * ANSWER_MAX)] * 50)
        log.close()
    expected = {"read_only": ("readonly", "permission denied"), "locked": ("locked", "lock timeout"),
                "disk_full": ("full", "no space left")}[kind]  # fmt: skip
    assert any(word in str(raised.value).lower() for word in expected), str(raised.value)
    check = open_class_log(location)
    if kind != "disk_full" or backend(location) == "sqlite":
        assert check.count() == 0
    check.close()


# ---------------------------------------------------------------- what the class view computes


def _class(log):
    for name in ("ana", "bia", "caio", "duda"):
        log.join(name)
    checks = [
        ("ana", "next_card", "5", True, None),
        ("bia", "next_card", "A", False, "forgot_wraparound"),
        ("bia", "next_card", "0", False, "zero_for_k"),
        ("bia", "last_card", "52", False, "fifty_two_for_k"),
        ("caio", "next_card", "A", False, "forgot_wraparound"),
        ("caio", "next_card", "5", True, None),
        ("ana", "last_card", "?", False, None),
    ]
    for second, (name, exercise, answer, correct, wrong_idea) in enumerate(checks):
        log.record(name, FakeAttempt(exercise, 1, answer, correct, wrong_idea, "en", 1_800_000_000.0 + second))


def test_exercise_stats_count_students_and_misconceptions(log):
    _class(log)
    stats = {item.exercise_id: item for item in exercise_stats(log.attempts(), order=["last_card", "next_card"])}
    assert list(stats) == ["last_card", "next_card"]
    assert (stats["next_card"].tried, stats["next_card"].right, stats["next_card"].attempts) == (3, 2, 5)
    assert stats["next_card"].shares() == pytest.approx({"forgot_wraparound": 2 / 3, "zero_for_k": 1 / 3})
    assert (stats["last_card"].tried, stats["last_card"].right) == (2, 0)
    assert stats["last_card"].misconceptions == {"fifty_two_for_k": 1, classlog.OTHER: 1}


def test_class_status_finds_students_not_started_and_stuck(log):
    _class(log)
    status = class_status(log.students(), log.attempts())
    assert status.not_started == ["duda"]
    assert status.stuck == {"bia": "last_card"}  # three wrong in a row
    assert status.working == 3


def test_csv_export_has_every_check_and_defuses_formulas(log):
    _class(log)
    log.record("=cmd|' /C calc'!A0", FakeAttempt(answer="-5", timestamp=1_800_000_100.0))
    log.record("x", FakeAttempt(answer="=1+1", timestamp=1_800_000_101.0))
    lines = csv_text(log.attempts()).splitlines()
    assert lines[0] == ",".join(classlog.ATTEMPT_COLUMNS)
    assert len(lines) == 1 + 9
    assert lines[1].startswith("2027-01-15T08:00:00+00:00,ana,next_card,1,5,1,,en")
    assert lines[-2].startswith("2027-01-15T08:01:40+00:00,'=cmd|' /C calc'!A0,next_card,3,-5,1")
    assert lines[-1].split(",")[4] == "'=1+1"
