"""The class log: schema, recording, concurrent writers, databases that cannot be written, hostile text.

Every test runs twice: on SQLite (a file, the default) and on a real PostgreSQL server that
this module starts on 127.0.0.1 and stops at the end (skipped when no server is installed,
unless ``CALCNB_REQUIRE_POSTGRES=1``, as in CI, makes that a failure).
"""

from __future__ import annotations

import contextlib
import html
import os
import subprocess
import sys
import textwrap
import threading
import time
import typing
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from pg_server import server_binaries, stopped, throwaway_server

from calcnb.classroom import log as classlog
from calcnb.classroom.log import (
    ANSWER_MAX,
    NICKNAME_MAX,
    SCHEMA_VERSION,
    ClassLogError,
    class_status,
    csv_text,
    exercise_stats,
    open_class_log,
)
from calcnb.classroom.names import visible_nickname
from calcnb.lessons.bank import Attempt

REPO = Path(__file__).resolve().parent.parent


_ATTEMPT = Attempt(
    exercise_id="next_card",
    variant=3,
    answer="5",
    outcome="right",
    misconception=None,
    language="en",
    timestamp=1_800_000_000.0,
)


def an_attempt(*values: object, **changes: object) -> Attempt:
    """An attempt as the lesson's exercises hand it to their listeners (the lesson's own :class:`Attempt`):
    ``values`` replace its first fields in order, ``changes`` others by name."""
    return replace(_ATTEMPT, **dict(zip((field.name for field in fields(Attempt)), values)), **changes)


def test_the_log_records_the_lessons_own_attempt():
    """One home for what an attempt holds: the log reads :class:`calcnb.lessons.bank.Attempt` and keeps
    no class of its own that repeats the attempt's fields."""
    assert typing.get_type_hints(classlog.ClassLog.record)["attempt"] is Attempt
    assert typing.get_type_hints(classlog.ClassLog.record_many)["attempts"] == Iterable[Attempt]
    attempt_fields = {field.name for field in fields(Attempt)}
    copies = [
        name
        for name, value in vars(classlog).items()
        if isinstance(value, type) and value.__module__ == classlog.__name__
        if attempt_fields <= set(vars(value).get("__annotations__", {}))
    ]
    assert not copies


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server for the whole run, or a skip when none is installed (a failure in CI)."""
    if server_binaries() is None:
        if os.environ.get("CALCNB_REQUIRE_POSTGRES"):
            pytest.fail("CALCNB_REQUIRE_POSTGRES is set but no PostgreSQL server is installed")
        pytest.skip("no PostgreSQL server installed (apt-get install postgresql)")
    with throwaway_server() as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def location(request, tmp_path):
    """Where a fresh class log lives: a SQLite file, or an empty PostgreSQL database (tables dropped after)."""
    if request.param == "sqlite":
        yield str(tmp_path / "lesson.db")
        return
    url = request.getfixturevalue("postgres_url")
    yield url
    engine = sa.create_engine(classlog.database_url(url))
    with engine.begin() as connection:
        tables = ", ".join(table.name for table in classlog.METADATA.sorted_tables)  # every table a log has
        connection.execute(sa.text(f"DROP TABLE IF EXISTS {tables} CASCADE"))
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
    first.record("ana", an_attempt())
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
    log.record("ana", an_attempt("last_card", "2-7", "52", "wrong", "fifty_two_for_k", "pt", 1_800_000_001.5))
    (row,) = log.attempts()
    assert row == {
        "recorded_at": 1_800_000_001.5,
        "nickname": "ana",
        "exercise_id": "last_card",
        "variant": "2-7",
        "answer": "52",
        "correct": False,
        "outcome": "wrong",
        "misconception": "fifty_two_for_k",
        "language": "pt",
    }
    assert log.students() == ["ana"]


def test_long_answers_and_nicknames_are_cut(log):
    log.record("n" * 500, an_attempt(answer="7" * 10_000))
    (row,) = log.attempts()
    assert row["answer"] == "7" * ANSWER_MAX
    assert row["nickname"] == "n" * NICKNAME_MAX


@pytest.mark.parametrize("nickname", ["", "   ", "\x00\x01\x1b", "\t\n"])
def test_an_empty_nickname_is_refused_and_nothing_is_written(log, nickname):
    with pytest.raises(ClassLogError, match="nickname"):
        log.join(nickname)
    with pytest.raises(ClassLogError):
        log.record(nickname, an_attempt())
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
    log.record(text, an_attempt(answer=text, misconception=text))
    (row,) = log.attempts()
    # a nickname is kept as it is seen: control and format characters go, spaces are made single
    expected = visible_nickname(text)[:NICKNAME_MAX]
    assert row["nickname"] == expected
    assert row["answer"] == text
    assert row["misconception"] == text
    assert log.students() == [expected]
    assert sa.inspect(log.engine).has_table("calcnb_attempts")


def test_nul_and_lone_surrogates_are_replaced_not_refused(log):
    log.record("a\x00b", an_attempt(answer="1\x00\ud8002"))
    (row,) = log.attempts()
    assert row["nickname"] == "ab"  # a NUL is a control character: no part of a nickname anyone sees
    assert row["answer"] == "1\ufffd?2"


# ---------------------------------------------------------------- thirty writers at once

WRITER = textwrap.dedent(
    """
    import random, sys, time
    from calcnb.classroom.log import open_class_log
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
        else:  # disk full: the file is filled to a page limit, so no row fits any more (SQLITE_FULL)
            _fill_to_the_brim(location)
            full = classlog.ClassLog(location, timeout=0.2)

            @sa.event.listens_for(full.engine, "connect")
            def _no_room(connection, _record):
                connection.execute("PRAGMA max_page_count = 1")  # clamped to the file's size: it may not grow

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
            log.record_many("ana", [an_attempt(answer="x" * ANSWER_MAX)] * 50)
        log.close()
    expected = {"read_only": ("readonly", "permission denied"), "locked": ("locked", "lock timeout"),
                "disk_full": ("full", "no space left")}[kind]  # fmt: skip
    assert any(word in str(raised.value).lower() for word in expected), str(raised.value)
    check = open_class_log(location)
    assert not [row for row in check.attempts() if row["nickname"] == "ana"]
    check.close()


# ---------------------------------------------------------------- what the class view computes


def _class(log):
    for name in ("ana", "bia", "caio", "duda"):
        log.join(name)
    checks = [
        ("ana", "next_card", "5", "right", None),
        ("bia", "next_card", "A", "wrong", "forgot_wraparound"),
        ("bia", "next_card", "0", "wrong", "zero_for_k"),
        ("bia", "last_card", "52", "wrong", "fifty_two_for_k"),
        ("caio", "next_card", "A", "wrong", "forgot_wraparound"),
        ("caio", "next_card", "5", "right", None),
        ("ana", "last_card", "x2", "wrong", None),
    ]
    for second, (name, exercise, answer, outcome, wrong_idea) in enumerate(checks):
        log.record(name, an_attempt(exercise, 1, answer, outcome, wrong_idea, "en", 1_800_000_000.0 + second))


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
    log.record("=cmd|' /C calc'!A0", an_attempt(answer="-5", timestamp=1_800_000_100.0))
    log.record("x", an_attempt(answer="=1+1", timestamp=1_800_000_101.0))
    lines = csv_text(log.attempts()).splitlines()
    assert lines[0] == ",".join(classlog.ATTEMPT_COLUMNS)
    assert len(lines) == 1 + 9
    assert lines[1].startswith("2027-01-15T08:00:00+00:00,ana,next_card,1,5,1,right,,en")
    assert lines[-2].startswith("2027-01-15T08:01:40+00:00,'=cmd|' /C calc'!A0,next_card,3,-5,1")
    assert lines[-1].split(",")[4] == "'=1+1"


# ---------------------------------------------------------------- the students' page: consent, nickname, recording


@dataclass
class Lesson:
    """A real exercise of the lesson's bank, with a right answer and a wrong one as a student types them."""

    exercise: object
    right: str
    wrong: str
    misconception: str


def _exercise() -> Lesson:
    from calcnb.lessons.bank import BANK
    from calcnb.ui.lesson import Exercise

    item = BANK["next-wrap"].item(0)
    reading, (misconception, _reason) = next((key, value) for key, value in item.wrong.items() if value[0])
    return Lesson(Exercise(item), str(min(item.accepted)), str(reading), misconception)


@pytest.fixture
def recorder(log):
    from calcnb.classroom.recorder import ClassRecorder

    made = ClassRecorder(log)
    yield made
    made.close()


def test_without_a_class_log_nothing_is_shown_or_recorded(monkeypatch):
    from calcnb.classroom.recorder import join_class
    from calcnb.ui import lesson as lessons

    monkeypatch.delenv(classlog.ENV_VAR, raising=False)
    before = list(lessons._listeners)
    assert join_class() is None
    assert lessons._listeners == before


def test_the_page_says_what_is_collected_and_records_only_after_joining(recorder, log):
    lesson = _exercise()
    assert "collecting the answers" in recorder.notice.value and "nickname" in recorder.notice.value
    lesson.exercise.check(lesson.wrong)
    recorder.flush()
    assert log.count() == 0  # not joined yet: nothing recorded
    assert recorder.join("  ana  ")
    lesson.exercise.check(lesson.wrong)
    lesson.exercise.check(lesson.right)
    assert recorder.flush() is True  # written by the recorder's own thread
    assert "Saved: your 2 answers are in the class log" in recorder.save_status.value
    variant = str(lesson.exercise.item.variant)
    assert [(row["nickname"], row["exercise_id"], row["answer"], row["correct"], row["misconception"], row["variant"])
            for row in log.attempts()] == [("ana", "next-wrap", lesson.wrong, False, lesson.misconception, variant),
                                           ("ana", "next-wrap", lesson.right, True, None, variant)]  # fmt: skip
    assert log.students() == ["ana"]
    assert "ana" in recorder.status.value and recorder.nickname_box.disabled


def test_the_nickname_picks_the_quiz_variants(log):
    from calcnb.classroom.recorder import ClassRecorder

    class Quiz:
        def __init__(self):
            self.names = []

        def use_name(self, name, *, class_key=None):
            self.names.append((name, class_key))

    quiz = Quiz()
    recorder = ClassRecorder(log, quiz=quiz)
    recorder.nickname_box.value = "bia"  # typing and pressing Enter joins
    recorder.close()
    assert quiz.names == [("bia", log.class_key())] and log.students() == ["bia"]


def test_the_class_key_is_made_once_and_kept_in_the_log(log, location):
    key = log.class_key()
    assert len(key) == 32 and key == log.class_key()
    again = open_class_log(location)
    try:
        assert again.class_key() == key  # another kernel (or the teacher's notebook) reads the same key
    finally:
        again.close()


def test_the_class_key_changes_the_variants_and_the_recorder_passes_it_on(log):
    from calcnb.classroom.recorder import ClassRecorder
    from calcnb.lessons.bank import LESSON_EXERCISES, student_items
    from calcnb.ui.lesson import Quiz

    quiz = Quiz()
    quiz.show(*LESSON_EXERCISES)
    recorder = ClassRecorder(log, quiz=quiz)
    recorder.join("bia")
    recorder.close()
    shown = [(exercise.item.exercise_id, exercise.item.variant) for exercise in quiz.exercises]
    keyed = [(item.exercise_id, item.variant) for item in student_items("bia", LESSON_EXERCISES, log.class_key())]
    assert shown == keyed
    # without the class's key the nickname alone gives other questions
    assert shown != [(item.exercise_id, item.variant) for item in student_items("bia", LESSON_EXERCISES)]


def test_a_nickname_already_joined_needs_its_rejoin_code(recorder, log):
    from calcnb.classroom.names import rejoin_code
    from calcnb.classroom.recorder import MAX_WRONG_CODES, ClassRecorder

    assert recorder.join("ana")
    code = rejoin_code(log.class_key(), "ana")
    assert f"Your rejoin code is {code}" in recorder.status.value  # shown to the student who joined
    namesake = ClassRecorder(log)
    asked = namesake.same_student
    assert asked.layout.display == "none"
    namesake.nickname_box.value = " ana "  # typing and pressing Enter: asked, not joined
    assert namesake.nickname is None and not namesake.nickname_box.disabled
    assert "already joined as ana" in namesake.status.value and asked.layout.display is None
    assert namesake.same_student_button.description == "That was me: go on as ana"
    assert log.students() == ["ana"] and len(_joins(log)) == 1
    assert not namesake.join()  # pressing Join again asks again
    namesake.same_student_button.click()  # "that was me" without the code: refused
    assert namesake.nickname is None and "not the rejoin code of ana" in namesake.status.value
    namesake.nickname_box.value = "ana b"  # another nickname joins at once, and the question goes
    assert namesake.nickname == "ana b" and asked.layout.display == "none"
    assert log.students() == ["ana", "ana b"]
    namesake.close()
    reloaded = ClassRecorder(log)
    assert not reloaded.join("ana")
    reloaded.code_box.value = f" {code.lower()} "  # typed as the student remembers it
    reloaded.same_student_button.click()  # a reloaded page: the student goes on under the nickname
    assert (
        reloaded.nickname == "ana" and reloaded.nickname_box.disabled and reloaded.same_student.layout.display == "none"
    )
    assert "Going on as ana" in reloaded.status.value and len(_joins(log)) == 3
    reloaded.close()
    # guessing: after a few wrong codes the page can only join under a free nickname
    guesser = ClassRecorder(log)
    guesser.join("ana")
    for attempt in range(MAX_WRONG_CODES):
        assert not guesser.join("ana", code=f"X{attempt}")
    assert not guesser.join("ana", code=code) and guesser.nickname is None
    assert "Too many wrong codes" in guesser.status.value
    guesser.close()


LOOK_ALIKES = {
    "capitals": "Ana",
    "Cyrillic а": "\u0430na",
    "zero-width joiner": "a\u200dna",
    "zero-width space": "an\u200ba",
    "right-to-left isolate": "\u2067ana\u2069",
    "full-width": "\uff41\uff4e\uff41",
    "right-to-left override": "\u202eana",
}


@pytest.mark.parametrize("kind", LOOK_ALIKES)
def test_a_look_alike_of_a_taken_nickname_is_that_nickname(recorder, log, kind):
    from calcnb.classroom.recorder import ClassRecorder

    assert recorder.join("ana")
    look_alike = ClassRecorder(log)
    assert not look_alike.join(LOOK_ALIKES[kind])  # asked for ana's code, not joined as a new student
    assert "already joined as ana" in look_alike.status.value
    assert log.students() == ["ana"]
    look_alike.close()


def test_nicknames_are_kept_without_the_characters_that_hide_or_mirror_text(log):
    assert log.join("\u202emallory") == "mallory"  # a right-to-left override cannot mirror the class view
    assert log.join("b\u200bo\u200db") == "bob"
    assert log.join("\uff43\uff41\uff52\uff4c") == "carl"
    assert log.students() == ["mallory", "bob", "carl"]


def _joins(log) -> list[str]:
    with log.engine.connect() as connection:
        return list(connection.execute(sa.select(classlog.STUDENTS.c.nickname)).scalars())


def test_a_nickname_without_readable_characters_is_refused_on_the_page(recorder, log):
    assert not recorder.join("\x1b\x07")
    assert recorder.nickname is None and "not a nickname" in recorder.status.value
    assert log.students() == []


def test_join_class_reads_the_environment_and_replaces_an_earlier_recorder(monkeypatch, location):
    from calcnb.classroom.recorder import join_class
    from calcnb.ui import lesson as lessons

    monkeypatch.setenv(classlog.ENV_VAR, location)
    first = join_class()
    second = join_class()
    assert first.record not in lessons._listeners and second.record in lessons._listeners
    second.join("caio")
    lesson = _exercise()
    lesson.exercise.check(lesson.right)
    second.close()
    assert [row["nickname"] for row in open_class_log(location).attempts()] == ["caio"]


@pytest.mark.parametrize("kind", ["read_only", "locked", "disk_full"])
def test_a_log_that_cannot_be_written_never_breaks_the_exercise_and_keeps_the_answers(location, kind):
    """The feedback goes on; the page says the answers are not reaching the log, never that they are saved,
    and keeps them, in order, trying again."""
    from calcnb.classroom.recorder import ClassRecorder

    with unwritable(kind, location) as log:
        recorder = ClassRecorder(log)
        recorder.nickname = "ana"  # joined before the log stopped being writable
        recorder._writer = threading.Thread(target=recorder._save, daemon=True)
        recorder._writer.start()
        lesson = _exercise()
        exercise = lesson.exercise
        with warnings_as_errors():
            verdict = exercise.check(lesson.right)
            assert recorder.flush() is False
        assert verdict.correct is True and verdict.text and html.escape(verdict.text) in exercise.feedback.value
        assert not recorder.stopped and recorder.waiting == 1
        assert "not reaching the class log" in recorder.save_status.value and "Saved" not in recorder.save_status.value
        with warnings_as_errors():
            second = exercise.check(lesson.wrong)
            recorder.flush()
        assert second.correct is False and html.escape(second.text) in exercise.feedback.value  # feedback goes on
        assert recorder.waiting == 2 and [check.answer for check in recorder._checks] == [lesson.right, lesson.wrong]
        assert "2 wait" in recorder.save_status.value
        assert recorder.failures >= 2  # tried again
        recorder.close()


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
    admin = sa.create_engine(classlog.database_url(location), poolclass=sa.pool.NullPool)
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
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the lessons warn when a listener raises: the recorder must not
        yield


def test_an_unreachable_log_leaves_the_lesson_working_and_says_so(tmp_path):
    from calcnb.classroom.recorder import join_class

    recorder = join_class(location=str(tmp_path / "no_such_folder" / "lesson.db"))
    assert recorder.stopped and "cannot be opened" in recorder.status.value and not recorder.save_status.value
    lesson = _exercise()
    assert lesson.exercise.check(lesson.right).correct is True
    recorder.close()


# ---------------------------------------------------------------- the class view


def test_the_class_view_shows_counts_bars_and_who_needs_help(log):
    from calcnb.classroom.view import ClassView

    _class(log)
    view = ClassView(log, order=["next_card", "last_card"])
    assert view.refresh()
    table = view.exercises.value
    assert table.index("next_card") < table.index("last_card")
    assert '<td style="padding:2px 8px">3</td><td style="padding:2px 8px">2</td>' in table
    assert "forgot_wraparound: 67% (2)" in table and "zero_for_k: 33% (1)" in table
    assert "duda" in view.students.value and "<bdi>bia</bdi>, on last_card" in view.students.value
    assert "4 joined, 3 answering, 7 answers checked" in view.status.value
    assert view.export.value == "" and view.alarms == []  # the export is made when asked, not at every reading
    view.export_button.click()
    link = view.export.value
    data = link.split("base64,")[1].split('"')[0]
    import base64

    assert base64.b64decode(data).decode("utf-8-sig") == csv_text(log.attempts())


@pytest.mark.parametrize("text", HOSTILE)
def test_the_class_view_shows_what_students_typed_escaped(log, text):
    from calcnb.classroom.view import ClassView, shown

    for number in range(3):
        log.record(text, an_attempt(exercise_id=text, outcome="wrong", misconception=text, timestamp=number))
    view = ClassView(log)
    view.refresh()
    page = view.exercises.value + view.students.value
    for dangerous in ("<script", "<img", "\x1b", "\x07", "\r"):
        assert dangerous not in page
    assert shown(text.strip()[:NICKNAME_MAX]) in view.students.value
    assert shown(text) in view.exercises.value


def test_shown_escapes_markup_and_control_characters():
    from calcnb.classroom.view import shown

    assert shown("<b>&'\"") == "&lt;b&gt;&amp;&#x27;&quot;"
    assert shown("a\x1b[0m\tb\x00") == "a\\x1b[0m\\x09b\\x00"
    assert shown("ação 🂡") == "ação 🂡"


def test_the_class_view_speaks_portuguese(log):
    from calcnb.classroom.view import ClassView
    from calcnb.i18n import set_language

    _class(log)
    set_language("pt")
    view = ClassView(log)
    view.refresh()
    assert "Tentaram" in view.exercises.value and "Bloqueados" in view.students.value
    assert "Exportar" in view.export_button.description


def test_without_a_log_the_class_view_says_how_to_name_one(monkeypatch):
    from calcnb.classroom.view import class_view

    monkeypatch.delenv(classlog.VIEW_ENV_VAR, raising=False)
    monkeypatch.setenv(classlog.ENV_VAR, "lesson.db")  # the students' variable never opens the class view
    view = class_view()
    assert not view.refresh() and "class-view lesson.db" in view.status.value
    assert view.class_log is None


def test_a_class_view_of_an_unreadable_log_says_so_and_keeps_going(log, location):
    from calcnb.classroom.view import ClassView

    _class(log)
    view = ClassView(log)
    assert view.refresh() and view.banner.value == ""
    log.attempts_after = lambda _after: (_ for _ in ()).throw(
        sa.exc.OperationalError("SELECT", {}, Exception("disk I/O error"))
    )
    assert not view.refresh() and "cannot be read right now (disk I/O error)" in view.banner.value
    assert 'role="alert"' in view.banner.value and "The figures below are as of" in view.banner.value
    assert "7 answers checked" in view.status.value  # the last figures stay on the page
    del log.attempts_after
    assert view.refresh() and view.banner.value == ""


# ---------------------------------------------------------------- the command line


def test_the_app_records_only_with_a_class_log(tmp_path, monkeypatch, capsys):
    from calcnb.serve.cli import class_log_environment

    monkeypatch.chdir(tmp_path)
    left_over = {classlog.ENV_VAR: "old.db", classlog.VIEW_ENV_VAR: "old.db", "HOME": "/home/x"}
    assert class_log_environment(left_over, None) == {"HOME": "/home/x"}  # a value left in the shell records nothing
    environment = class_log_environment(left_over, "lesson.db")
    assert environment[classlog.ENV_VAR] == f"sqlite:///{tmp_path / 'lesson.db'}"  # absolute: kernels run elsewhere
    assert classlog.VIEW_ENV_VAR not in environment  # students' kernels never learn the class view's log
    assert (tmp_path / "lesson.db").exists() and "class-view lesson.db" in capsys.readouterr().out
    url = "sqlite:///" + str(tmp_path / "b.db")
    assert class_log_environment({}, url)[classlog.ENV_VAR] == url  # a URL is passed on as given


@pytest.mark.parametrize("command", [["app", "02_wraparound", "--class-log", ""], ["class-view", ""],
                                     ["class-view", "nosuchdialect://x/y"]])  # fmt: skip
def test_a_bad_class_log_stops_the_command_with_a_clear_message(command, capsys):
    from calcnb.serve.cli import main

    assert main([*command, "--no-browser", "--port", "0"]) == 2
    error = capsys.readouterr().err
    assert "is not a class log" in error or "cannot be opened" in error
    assert "Traceback" not in error


def test_the_class_view_command_serves_only_the_teacher_notebook():
    from calcnb.serve.cli import CLASS_VIEW_NOTEBOOK, build_parser, notebooks_dir

    assert (notebooks_dir() / CLASS_VIEW_NOTEBOOK).is_file()
    arguments = build_parser().parse_args(["class-view", "lesson.db"])
    assert arguments.host == "127.0.0.1" and arguments.port == 8867 and arguments.log == "lesson.db"


def test_the_students_page_speaks_portuguese(log):
    from calcnb.classroom.recorder import ClassRecorder
    from calcnb.i18n import set_language

    set_language("pt")
    recorder = ClassRecorder(log)
    recorder.join("ana")
    assert "alcunha" in recorder.notice.value and "Entrou como ana" in recorder.status.value
    assert recorder.join_button.description == "Entrar na turma"
    assert log.students() == ["ana"]
    recorder.close()
    namesake = ClassRecorder(log)
    assert not namesake.join("ana")
    assert "já entrou como ana" in namesake.status.value
    assert namesake.same_student_button.description == "Fui eu: continuar como ana"
    assert namesake.code_box.description == "Código para voltar:"
    namesake.close()


def test_reading_the_class_key_never_makes_a_log(tmp_path, log, location):
    from calcnb.classroom.log import read_class_key

    missing = tmp_path / "not yet.db"
    assert read_class_key(missing) is None and not missing.exists()
    assert read_class_key(location) == log.class_key()


# ---------------------------------------------------------------- outcomes: unreadable and revealed, each its own


def _record(log, checks):
    """Record ``(nickname, exercise, answer, outcome, misconception)`` checks, one second apart."""
    for second, (name, exercise, answer, outcome, wrong_idea) in enumerate(checks):
        log.record(name, an_attempt(exercise, 0, answer, outcome, wrong_idea, "en", 1_800_000_000.0 + second))


def test_an_unreadable_answer_is_logged_as_unreadable_never_wrong_and_never_makes_a_student_stuck(log):
    log.join("ana")
    _record(log, [("ana", "clock", text, "unreadable", None) for text in ("?", "zzz", "", "no idea")])
    (row, *_) = log.attempts()
    assert (row["outcome"], row["correct"], row["misconception"]) == ("unreadable", False, None)
    (stats,) = exercise_stats(log.attempts())
    assert (stats.tried, stats.right, stats.attempts, stats.unreadable, stats.misconceptions) == (1, 0, 4, 4, {})
    assert class_status(log.students(), log.attempts()).stuck == {}
    # Unreadable answers between wrong ones neither count nor break the run: three judged wrong is stuck.
    _record(log, [("ana", "clock", "0", "wrong", "zero_for_king"), ("ana", "clock", "?", "unreadable", None)] * 3)
    assert class_status(log.students(), log.attempts()).stuck == {"ana": "clock"}
    assert classlog.exercise_outcomes(log.attempts()) == {"ana": {"clock": "wrong"}}


def test_a_revealed_exercise_is_never_counted_right_even_when_answered_right_afterwards(log):
    _record(
        log,
        [
            ("ana", "clock", "0", "wrong", "zero_for_king"),
            ("ana", "clock", "", "revealed", None),
            ("ana", "clock", "5", "right", None),  # typed after the answer was shown
            ("bia", "clock", "0", "wrong", "zero_for_king"),
            ("bia", "clock", "5", "right", None),
            ("caio", "clock", "0", "wrong", "zero_for_king"),
            ("caio", "clock", "", "revealed", None),
        ],
    )
    (stats,) = exercise_stats(log.attempts())
    assert (stats.tried, stats.right, stats.revealed, stats.attempts) == (3, 1, 2, 5)  # a reveal is not a check
    assert classlog.exercise_outcomes(log.attempts()) == {
        "ana": {"clock": "revealed"},
        "bia": {"clock": "right"},
        "caio": {"clock": "revealed"},
    }
    summaries = {summary.nickname: summary for summary in classlog.student_summaries([], log.attempts())}
    assert summaries["ana"].count("revealed") == 1 and summaries["ana"].count("right") == 0
    assert class_status([], log.attempts()).stuck == {}  # two wrong answers each, a reveal is no answer


def _version_1_log(location: str) -> None:
    """A class log as calcnb wrote it before outcomes: schema version 1, no outcome column."""
    metadata = sa.MetaData()
    schema = sa.Table("calcnb_schema", metadata, sa.Column("id", sa.Integer, primary_key=True),
                      sa.Column("version", sa.Integer, nullable=False))  # fmt: skip
    sa.Table("calcnb_students", metadata, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
             sa.Column("nickname", sa.String(40), nullable=False), sa.Column("joined_at", sa.Float, nullable=False),
             sa.Column("language", sa.String(80), nullable=False))  # fmt: skip
    attempts = sa.Table(
        "calcnb_attempts", metadata, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        *(sa.Column(name, sa.String(200), nullable=False) for name in ("nickname", "exercise_id", "variant", "answer")),
        sa.Column("recorded_at", sa.Float, nullable=False), sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("misconception", sa.String(80)), sa.Column("language", sa.String(80), nullable=False),
    )  # fmt: skip
    engine = sa.create_engine(classlog.database_url(location))
    metadata.create_all(engine)
    old = [("5", True, None), ("0", False, "zero_for_king"), ("?", False, "unreadable"), ("7", False, None)]
    with engine.begin() as connection:
        connection.execute(sa.insert(schema).values(id=1, version=1))
        connection.execute(
            sa.insert(attempts),
            [dict(nickname="ana", exercise_id="clock", variant="0", answer=answer, recorded_at=float(second),
                  correct=correct, misconception=wrong_idea, language="en")
             for second, (answer, correct, wrong_idea) in enumerate(old)],
        )  # fmt: skip
    engine.dispose()


def test_a_log_of_schema_version_1_is_read_and_brought_up_to_date(location):
    _version_1_log(location)
    log = open_class_log(location)
    try:
        assert [(row["answer"], row["outcome"]) for row in log.attempts()] == [
            ("5", "right"), ("0", "wrong"), ("?", "unreadable"), ("7", "wrong")
        ]  # fmt: skip
        with log.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT version FROM calcnb_schema")).scalar() == SCHEMA_VERSION
        log.record("bia", an_attempt(outcome="revealed", answer=""))
        assert log.attempts()[-1]["outcome"] == "revealed"
    finally:
        log.close()
    again = open_class_log(location)  # opened again: already up to date, nothing changed
    assert again.count() == 5
    again.close()


def test_rows_without_an_outcome_are_read_from_what_version_1_kept():
    assert classlog.row_outcome({"correct": True, "misconception": None}) == "right"
    assert classlog.row_outcome({"correct": False, "misconception": "unreadable"}) == "unreadable"
    assert classlog.row_outcome({"correct": False, "misconception": "off_by_one"}) == "wrong"
    assert classlog.row_outcome({"correct": False, "outcome": "revealed"}) == "revealed"


def test_the_recorder_logs_a_reveal_and_the_class_view_marks_it(recorder, log):
    from calcnb.classroom.view import ClassView

    lesson = _exercise()
    lesson.exercise.reveal_on = True
    recorder.join("ana")
    lesson.exercise.check("")
    lesson.exercise.reveal()  # refused: nothing recorded
    lesson.exercise.check(lesson.wrong)
    lesson.exercise.show_button.click()
    lesson.exercise.check(lesson.right)
    recorder.flush()
    assert [row["outcome"] for row in log.attempts()] == ["unreadable", "wrong", "revealed", "right"]
    view = ClassView(log)
    view.refresh()
    row = view.exercises.value.split('data-exercise="next-wrap"')[1].split("</tr>")[0]
    cells = [cell.split("</td>")[0] for cell in row.split('<td style="padding:2px 8px">')[1:]]
    assert cells[:5] == ["1", "0", "1", "3", "1"]  # tried, right, answer shown, answers, unreadable
    student = view.summary.value.split('data-nickname="ana"')[1].split("</tr>")[0]
    assert [cell.split("</td>")[0] for cell in student.split('<td style="padding:2px 8px">')[1:]][:4] == [
        "0", "0", "0", "1"
    ]  # fmt: skip


# ---------------------------------------------------------------- the class view in the teacher's words


def test_the_class_view_names_questions_and_misconceptions_as_the_teacher_reads_them(log):
    from calcnb.classroom.view import ClassView
    from calcnb.i18n import set_language

    _record(
        log,
        [
            ("ana", "next-wrap", "14", "wrong", "no_wraparound"),
            ("ana", "next-wrap", "3", "wrong", None),
            ("bia", "fits-buried", "1", "wrong", "buried_card"),
            ("ana", "visits", "?", "unreadable", None),
            ("bia", "next-wrap", "1", "wrong", "no_wraparound"),
            ("bia", "next-wrap", "2", "wrong", "no_wraparound"),
        ],
    )
    view = ClassView(log)
    view.refresh()
    table = view.exercises.value
    assert ">5. Which rank goes on next, past K?</th>" in table  # its number in the lesson and a short text
    assert ">8. Another clock: how many numbers does the count land on?</th>" in table
    assert "The turned card is 9♥. Which foundation takes it?" in table  # one variant: the question itself
    assert "forgets the wraparound past K: 75% (3)" in table and "other: 25% (1)" in table
    assert "no_wraparound" not in table.replace('"no_wraparound"', "")
    assert "<bdi>bia</bdi>, on 5. Which rank goes on next, past K?" in view.students.value
    set_language("pt")
    view.refresh()
    table = view.exercises.value
    assert ">5. Que valor vem a seguir, depois do K?</th>" in table and "esquece a volta" in table
    assert "outra: 25% (1)" in table and "Resposta mostrada" in table and "Ilegíveis" in table
    assert "<bdi>bia</bdi>, em 5. Que valor vem a seguir" in view.students.value
    assert "Entraram na turma: 0; a responder: 2" in view.status.value  # never "1 entraram"


def test_every_exercise_with_variants_has_a_short_text_in_both_languages():
    from calcnb.i18n import catalogue
    from calcnb.lessons.bank import BANK

    for language in ("en", "pt"):
        keys = catalogue(language)
        for exercise_id, kind in BANK.items():
            if len(kind.variants) > 1:
                assert f"classview.ex.{exercise_id}" in keys, (language, exercise_id)


def test_the_export_links_look_like_buttons(log):
    from calcnb.classroom.view import ClassView

    _class(log)
    view = ClassView(log)
    view.refresh()
    view.make_export()
    for link in (view.export.value, view.summary_csv.value):
        assert 'role="button"' in link and "background:#0072B2" in link and "color:white" in link
        assert "text-decoration:underline" in link


def _summary_class(log):
    for name in ("ana", "bia", "caio"):
        log.join(name)
    _record(
        log,
        [
            ("ana", "clock", "5", "right", None),
            ("ana", "next-wrap", "14", "wrong", "no_wraparound"),
            ("ana", "next-wrap", "", "revealed", None),
            ("ana", "next-wrap", "1", "right", None),
            ("bia", "clock", "?", "unreadable", None),
            *[("bia", "inverse", str(n), "wrong", None) for n in (2, 3, 4)],
        ],
    )


def test_the_summary_counts_how_each_exercise_ended_for_each_student(log):
    from calcnb.classroom.summary import summary_csv, summary_rows
    from calcnb.lessons.bank import LESSON_EXERCISES

    _summary_class(log)
    summaries = classlog.student_summaries(log.students(), log.attempts())
    count = len(LESSON_EXERCISES)
    assert summary_rows(summaries) == [
        ["ana", 1, 0, 0, 1, count - 2, ""],
        ["bia", 0, 1, 1, 0, count - 2, "9. Which x makes k × x ≡ 1 (mod 13)?"],
        ["caio", 0, 0, 0, 0, count, ""],
    ]
    lines = summary_csv(summaries).splitlines()
    assert lines[0].startswith("Nickname,Right,Wrong,Unreadable,Answer shown,Not tried,Stuck on,")
    assert lines[1].startswith("ana,1,0,0,1,") and ",Right,,,,Answer shown," in lines[1]
    assert len(lines) == 4


@pytest.mark.parametrize("language", ["en", "pt"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_summary_prints_as_a_pdf_that_reads_back(log, language, paper):
    import io

    from pypdf import PdfReader

    from calcnb.classroom.summary import summary_pdf
    from calcnb.i18n import set_language

    _summary_class(log)
    set_language(language)
    summaries = classlog.student_summaries(log.students(), log.attempts())
    reader = PdfReader(io.BytesIO(summary_pdf(summaries, location="lesson.db", paper=paper)))
    width, height = (float(value) for value in reader.pages[0].mediabox.upper_right)
    assert width > height and round(width) == {"A4": 842, "Letter": 792}[paper]  # landscape, points
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())  # a heading may wrap inside its cell
    words = {"en": ("End of the lesson", "Answer shown", "Stuck on", "9. Which x makes"),
             "pt": ("Fim da aula", "Resposta mostrada", "Bloqueado em", "9. Que x faz")}[language]  # fmt: skip
    for word in (*words, "ana", "bia", "caio", "lesson.db"):
        assert word in text, word


def test_the_class_view_makes_the_pdf_when_asked(log):
    from calcnb.classroom.view import ClassView

    _summary_class(log)
    view = ClassView(log)
    view.refresh()
    assert view.pdf_link.value == ""  # drawn only when asked: not at every reading of the log
    view.pdf_button.click()
    assert "application/pdf;base64," in view.pdf_link.value and 'download="class_summary.pdf"' in view.pdf_link.value


def test_the_class_view_command_writes_the_summary(log, location, tmp_path, capsys):
    from calcnb.serve.cli import main

    _summary_class(log)
    assert main(["class-view", location, "--summary", str(tmp_path / "end.pdf")]) == 0
    assert (tmp_path / "end.pdf").read_bytes()[:5] == b"%PDF-" and "end.pdf" in capsys.readouterr().out
    assert main(["class-view", location, "--summary", str(tmp_path / "end.csv"), "--lang", "pt"]) == 0
    assert (tmp_path / "end.csv").read_text(encoding="utf-8-sig").startswith("Alcunha,Certos,Errados,")
    assert main(["class-view", location, "--summary", str(tmp_path / "end.docx")]) == 2
    assert ".pdf" in capsys.readouterr().err


def test_the_class_view_isolates_every_students_text_so_nothing_mirrors_the_page():
    from calcnb.classroom.log import ClassStatus
    from calcnb.classroom.view import students_html

    # a nickname from an old log, or typed in right-to-left letters, with markup in it
    status = ClassStatus(not_started=["\u202egnirts", "<b>bo</b>"], stuck={"\u05d3\u05e0\u05d4": "clock"}, working=1)
    page = students_html(status)
    assert "<bdi>\u202egnirts</bdi>, <bdi>&lt;b&gt;bo&lt;/b&gt;</bdi>" in page
    assert "<bdi>\u05d3\u05e0\u05d4</bdi>" in page and "<b>bo" not in page


def test_the_kernels_read_a_relative_log_where_the_teacher_typed_it(tmp_path, monkeypatch):
    from calcnb.serve.cli import _log_argument

    monkeypatch.chdir(tmp_path)
    for typed in ("rel.db", "sqlite:///rel.db"):
        assert _log_argument(typed) == f"sqlite:///{tmp_path / 'rel.db'}"
    with pytest.raises(ClassLogError, match="memory"):
        _log_argument("sqlite://")
    assert _log_argument("postgresql://teacher:secret@db/lesson").startswith("postgresql+psycopg://teacher:secret@")


def test_no_password_is_printed_and_the_log_is_one_file_after_the_app_stops(tmp_path, capsys, monkeypatch):
    from calcnb.serve import cli

    with pytest.raises(cli.AppError) as refused:  # no server there: refused, and the password never shown
        cli.class_log_environment({}, "postgresql://teacher:secret@127.0.0.1:1/none")
    assert "secret" not in str(refused.value) and "secret" not in capsys.readouterr().out
    database = tmp_path / "lesson.db"
    log = open_class_log(database)
    log.join("ana")
    log.record("ana", an_attempt())
    cli.checkpoint_class_log(str(database))
    log.close()
    wal = tmp_path / "lesson.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # every answer is in lesson.db itself
    copy = tmp_path / "copy.db"
    copy.write_bytes(database.read_bytes())
    assert open_class_log(copy).count() == 1


# ---------------------------------------------------------------- the class view, reading only what is new


def _random_class(log, rng, rows: int, view=None) -> None:
    """``rows`` random checks into ``log`` (reveals, unreadable answers, rejoins, students who never joined,
    equal times, and pages whose answers arrive after later ones), reading ``view`` now and then."""
    import random

    assert isinstance(rng, random.Random)
    names = ["ana", "bia", "caio", "duda", "eva", "fay", "gil"]
    exercises = ["next-wrap", "clock", "inverse", "zz-unknown", "aa-unknown", "visits"]
    wrong_ideas = [None, "no_wraparound", "off_by_one", "zero_for_k"]
    clock = 1_800_000_000.0
    for _ in range(rows):
        name = rng.choice(names)
        if rng.random() < 0.05:
            log.join(rng.choice(names))  # a join, or a rejoin under a nickname already there
        clock += rng.choice([0.0, 0.0, 0.5, 1.0, 3.0])  # equal times too: the id breaks the tie
        late = rng.random() < 0.15  # a page's answer that waited: checked before answers already in the log
        when = clock - rng.choice([1.0, 4.0, 30.0]) if late else clock
        outcome = rng.choice(["right", "wrong", "wrong", "wrong", "unreadable", "revealed"])
        misconception = rng.choice(wrong_ideas) if outcome == "wrong" else None
        answer = "" if outcome == "revealed" else str(rng.randrange(15))
        log.record(name, an_attempt(rng.choice(exercises), 0, answer, outcome, misconception, "en", when))
        if view is not None and rng.random() < 0.2:
            assert view.refresh()


def _figures(view) -> tuple:
    return (view.status.value.split(" Updated")[0], view.exercises.value, view.students.value, view.summary.value,
            view.summary_csv.value)  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_the_class_view_reading_only_new_answers_says_what_a_full_reading_says(location, seed):
    """Read after every few answers, the view's figures (in the same order) are those of a view that reads
    the whole log at once, and those the full functions compute from every row."""
    import random

    from calcnb.classroom.tally import Tally
    from calcnb.classroom.view import ClassView

    rng = random.Random(seed)
    log = open_class_log(location)
    order = ["clock", "next-wrap", "visits", "last-card"]
    live = ClassView(log, order=order)
    assert live.refresh()
    _random_class(log, rng, 120 if seed < 3 else 300, view=live)
    assert live.refresh()
    fresh = ClassView(open_class_log(location), order=order)
    assert fresh.refresh()
    assert _figures(live) == _figures(fresh)
    rows, students = log.attempts(), log.students()
    tally = Tally()
    tally.add(log.attempts_after(0), log.student_attempts)
    assert live.tally.stats(order) == exercise_stats(rows, order) == tally.stats(order)
    full = class_status(students, rows)
    for status in (live.tally.status(students), tally.status(students)):
        assert status == full and list(status.stuck) == list(full.stuck)  # the same students, in the same order
    summaries = classlog.student_summaries(students, rows)
    assert live.tally.summaries(students) == summaries
    assert [list(item.outcomes) for item in live.tally.summaries(students)] == [list(s.outcomes) for s in summaries]
    assert live.tally.checks == sum(1 for row in rows if classlog.row_outcome(row) != "revealed")
    live.close()
    fresh.close()


def test_the_class_view_reads_only_the_answers_written_since_its_last_reading(log):
    from calcnb.classroom.view import ClassView

    _class(log)
    view = ClassView(log)
    asked = []
    reading = log.attempts_after
    log.attempts_after = lambda after: asked.append(after) or reading(after)
    assert view.refresh()
    log.record("ana", an_attempt("clock", 1, "5", "right", None, "en", 1_800_000_100.0))
    assert view.refresh() and view.refresh()
    ids = [row["id"] for row in reading(0)]  # numbered in the order written (PostgreSQL may skip numbers)
    assert asked == [0, ids[6], ids[7]] and view.tally.checks == 8


# ---------------------------------------------------------------- answers too fast


def _paced(recorder, times, exercise="clock"):
    """Checks by ``recorder``'s student at ``times`` (seconds), as the exercises hand them over; returns the notes."""
    return [recorder.record(an_attempt(exercise, 0, "1", "wrong", None, "en", 1_800_000_000.0 + t)) for t in times]


def test_holding_enter_down_keeps_a_few_answers_and_says_the_others_were_not_saved(recorder, log, monkeypatch):
    """Sixty checks a second for eight seconds: the log keeps what the limits allow, the exercise says of every
    other one that it was not saved, and the save line counts them."""
    from calcnb.ui import lesson as lessons

    assert recorder.join("ana")
    lesson = _exercise()
    now = [1_800_000_000.0]
    monkeypatch.setattr(lessons, "time", type("Clock", (), {"time": staticmethod(lambda: now[0])}))
    notes = []
    for _ in range(8 * 60):
        now[0] += 1 / 60
        verdict = lesson.exercise.check(lesson.wrong)
        assert verdict.correct is False and html.escape(verdict.text) in lesson.exercise.feedback.value
        notes.append("Not saved: too many answers" in lesson.exercise.feedback.value)
    assert recorder.flush(timeout=30)
    kept = [row["recorded_at"] for row in log.attempts()]
    assert len(kept) == recorder.recorded == notes.count(False) == 8 * 60 - recorder.refused
    assert 5 <= len(kept) <= 20  # five in the first second, then at most twenty in any ten seconds
    for when in kept:
        for seconds, count in classlog.RATE_LIMITS:
            assert sum(1 for other in kept if when - seconds < other <= when) <= count
    assert notes[:5] == [False] * 5 and all(notes[5:60])
    assert f"{recorder.refused} of your answers were not saved" in recorder.save_status.value


def test_a_student_at_a_normal_pace_is_never_refused(recorder, log):
    assert recorder.join("ana")
    # a quick burst of corrections, then an answer every second and a half for two minutes, then Show answer
    times = [0.0, 0.3, 0.6, 0.9, *(2 + 1.5 * n for n in range(80))]
    assert _paced(recorder, times) == [None] * len(times)
    assert recorder.flush(timeout=30) and recorder.refused == 0 and log.count() == len(times)


def test_the_limit_holds_across_the_pages_of_one_student(log):
    """Two pages of ana, each within the limits by itself, together too fast: the log refuses the excess,
    each page says how many of its answers were not saved, and the log's rows stay within the limits."""
    from calcnb.classroom.names import rejoin_code
    from calcnb.classroom.recorder import ClassRecorder

    first, second = ClassRecorder(log), ClassRecorder(log)
    assert first.join("ana")
    assert second.join("ana", code=rejoin_code(log.class_key(), "ana"))
    for step in range(30):  # each page: an answer every 0.8 s; together, five every two seconds
        _paced(first, [0.8 * step])
        _paced(second, [0.8 * step + 0.4])
        assert first.flush(timeout=30) and second.flush(timeout=30)
    kept = [row["recorded_at"] for row in log.attempts()]
    assert first.refused and second.refused and first.refused_here == second.refused_here == 0
    assert len(kept) == first.recorded + second.recorded == 60 - first.refused - second.refused
    for when in kept:
        for seconds, count in classlog.RATE_LIMITS:
            assert sum(1 for other in kept if when - seconds < other <= when) <= count
    assert "of your answers were not saved" in second.save_status.value
    first.close()
    second.close()


def test_answers_that_waited_for_the_log_are_judged_by_when_they_were_checked(log):
    """A page that could not write for a minute sends its answers all at once: checked at a normal pace,
    none is refused."""
    written = [
        log.record_keyed("page", number + 1, "ana", an_attempt(timestamp=1_800_000_000.0 + 3 * number))
        for number in range(20)
    ]
    assert written == [classlog.WRITTEN] * 20
    assert log.record_keyed("page", 5, "ana", an_attempt(timestamp=1_800_000_012.0)) == classlog.ALREADY_WRITTEN
    burst = [log.record_keyed("other", n, "ana", an_attempt(timestamp=1_800_000_100.0)) for n in range(1, 8)]
    assert burst == [classlog.WRITTEN] * 5 + [classlog.REFUSED] * 2 and log.count() == 25


# ---------------------------------------------------------------- the class view: is the log keeping the answers?


def test_the_class_view_names_the_students_whose_answers_are_not_reaching_the_log(log):
    from calcnb.classroom.view import QUIET_AFTER, ClassView

    _class(log)
    now = time.time()
    log.report("page-a", "ana", waiting=0, written=2, last_write=now - 5, last_failure=None, failure=None)
    log.report("page-b", "bia", waiting=3, written=1, last_write=now - 60, last_failure=now - 2,
               failure="database is locked <b>")  # fmt: skip
    log.report("page-c", "caio", waiting=2, written=2, last_write=now - 1, last_failure=None, failure=None)
    view = ClassView(log)
    assert view.refresh()
    assert view.alarms == ["Answers are not reaching the class log from 1 student(s), answers waiting on their "
                           "pages: bia (3)."]  # fmt: skip
    assert 'role="alert"' in view.banner.value
    table = view.health.value
    bia = table.split('data-nickname="bia"')[1].split("</tr>")[0]
    assert 'data-stuck="1"' in bia and "<td" in bia and ">3</td>" in bia and "database is locked &lt;b&gt;" in bia
    assert table.index('data-nickname="bia"') < table.index('data-nickname="ana"')  # the trouble first
    caio = table.split('data-nickname="caio"')[1].split("</tr>")[0]
    assert 'data-stuck="0"' in caio  # on their way: no failure, heard from just now
    # A page with answers waiting that has not been heard from for a while: its answers are not arriving either.
    quiet = time.time() - QUIET_AFTER - 1
    with log.engine.begin() as connection:
        connection.execute(sa.update(classlog.WRITERS).where(classlog.WRITERS.c.writer == "page-c")
                           .values(heartbeat=quiet))  # fmt: skip
    assert view.refresh() and "bia (3), caio (2)" in view.alarms[0]


def test_the_class_view_says_when_the_log_cannot_be_written(location):
    from calcnb.classroom.view import ClassView

    log = open_class_log(location)
    _class(log)
    view = ClassView(log)
    assert view.refresh() and view.alarms == []
    for kind in ("locked", "read_only"):
        with fault(kind, location):
            if kind == "locked" and location.startswith("postgresql"):
                # PostgreSQL's ACCESS EXCLUSIVE lock stops readers too: the view says it cannot read, and keeps
                # its last figures; SQLite's write lock leaves readers going, as PostgreSQL's read-only does.
                assert not view.refresh()
                (alarm,) = view.alarms
                assert alarm.startswith("The class log cannot be read right now (") and "as of" in alarm
            else:
                assert view.refresh()  # still read: the figures stay up to date
                (alarm,) = view.alarms
                assert alarm.startswith("The class log cannot be written right now (")
                assert "no student's answer" in alarm
        assert view.refresh() and view.alarms == [], kind
    view.close()


def test_the_class_view_says_when_the_log_file_is_gone_or_replaced(tmp_path):
    from calcnb.classroom.view import ClassView

    location = str(tmp_path / "lesson.db")
    log = open_class_log(location)
    log.class_key()  # made when the app starts: a new file at the path has another (even with the same inode)
    _class(log)
    view = ClassView(log)
    assert view.refresh() and "7 answers checked" in view.status.value
    with fault("gone", location):
        assert not view.refresh()
        (alarm,) = view.alarms
        assert alarm.startswith(f"The class log file {location} is gone") and 'role="alert"' in view.banner.value
        assert "7 answers checked" in view.status.value  # the last figures stay until there is a log again
    assert view.refresh()  # a new file at the path: read afresh, and said so
    (alarm,) = view.alarms
    assert alarm.startswith(f"The class log file {location} was replaced by another file at")
    assert "0 answers checked" in view.status.value and "nobody" in view.students.value
    view.close()


def test_the_class_views_banners_speak_portuguese(tmp_path):
    from calcnb.classroom.view import ClassView
    from calcnb.i18n import set_language

    location = str(tmp_path / "lesson.db")
    log = open_class_log(location)
    _class(log)
    log.report("page-b", "bia", waiting=3, written=1, last_write=None, last_failure=time.time(), failure="x")
    set_language("pt")
    view = ClassView(log)
    assert view.refresh() and "não estão a chegar ao registo da turma" in view.alarms[0]
    assert "Respostas à espera" in view.health.value
    with fault("locked", location):
        view.refresh()
        assert any(alarm.startswith("O registo da turma não pode ser escrito agora") for alarm in view.alarms)
    with fault("gone", location):
        view.refresh()
        assert view.alarms[0].startswith("O ficheiro do registo da turma") and "desapareceu" in view.alarms[0]
    view.close()


def test_exporting_checkpoints_the_log_so_its_one_file_holds_every_answer(tmp_path):
    from calcnb.classroom.view import ClassView

    database = tmp_path / "lesson.db"
    log = open_class_log(database)
    _class(log)
    view = ClassView(log)
    view.refresh()
    csv = view.make_export()
    assert csv == csv_text(log.attempts()) and "as of" in view.export.value
    wal = tmp_path / "lesson.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    copy = tmp_path / "copy.db"
    copy.write_bytes(database.read_bytes())
    assert open_class_log(copy).count() == 7
    view.close()


# ---------------------------------------------------------------- thirty pages through a bad afternoon


@pytest.mark.slow
def test_thirty_pages_lose_no_answer_through_locks_a_read_only_log_and_a_lost_database(location):
    """Thirty students' pages (recorders with their saver threads) keep answering while the log is locked,
    made read-only, and lost (SQLite: the file deleted, then made again; PostgreSQL: the server stopped and
    started again). At the end every answer that was checked is in the log exactly once, in each student's
    order, and the class view, read all along, shows the figures of a full reading."""
    from calcnb.classroom.recorder import ClassRecorder
    from calcnb.classroom.view import ClassView

    open_class_log(location).close()
    pages = [ClassRecorder(open_class_log(location, timeout=1.0)) for _ in range(30)]
    for number, page in enumerate(pages):
        assert page.join(f"student{number:02}")
    view = ClassView(open_class_log(location, timeout=1.0))
    checked: dict[str, list[str]] = {page.nickname: [] for page in pages}
    start = time.time()

    def answer_round(label: str) -> None:
        for page in pages:  # one answer each, at a student's pace (their checks two seconds apart)
            answer = f"{label}-{len(checked[page.nickname])}"
            checked[page.nickname].append(answer)
            when = start + 2.0 * len(checked[page.nickname])
            assert page.record(an_attempt("clock", 0, answer, "wrong", None, "en", when)) is None
        view.refresh()

    alarms = {}
    answer_round("before")
    for kind in ("locked", "read_only", "gone"):
        answer_round(f"{kind}-just-before")
        with fault(kind, location):
            for _ in range(3):
                answer_round(kind)
                time.sleep(1.0)  # the pages try, fail, and wait to try again
            view.refresh()
            alarms[kind] = list(view.alarms)
        answer_round(f"after-{kind}")
    deadline = time.monotonic() + 240
    while any(page.waiting for page in pages) and time.monotonic() < deadline:
        for page in pages:
            page.flush(timeout=5)
    assert [page.nickname for page in pages if page.waiting] == []
    assert all(page.refused == 0 for page in pages)
    log = open_class_log(location)
    rows = log.attempts_after(0)  # in the order written
    for nickname, answers in checked.items():
        assert [row["answer"] for row in rows if row["nickname"] == nickname] == answers, nickname
    assert len(rows) == sum(map(len, checked.values())) == 30 * 16
    assert all(alarms[kind] for kind in ("locked", "read_only")) and sum(page.failures for page in pages) >= 30
    assert alarms["gone"]  # the view said the log was gone or could not be read
    assert view.refresh()
    full = ClassView(log)
    assert full.refresh() and _figures(view) == _figures(full)
    for page in pages:
        page.close()
    view.close()
    full.close()


def test_the_teachers_terminal_is_told_who_joins_in_one_printable_line(recorder, log, monkeypatch):
    import io

    from calcnb.classroom.names import rejoin_code
    from calcnb.classroom.recorder import ClassRecorder

    terminal = io.StringIO()
    monkeypatch.setattr("sys.__stderr__", terminal)
    assert recorder.join("ana\x1b[2J\u202e")  # an escape and a bidi override: kept out of the terminal
    reloaded = ClassRecorder(log)
    assert reloaded.join(recorder.nickname, code=rejoin_code(log.class_key(), recorder.nickname))
    reloaded.close()
    lines = terminal.getvalue().splitlines()
    assert lines[0] == f"[calcnb] {recorder.nickname} joined the class." and "\x1b" not in terminal.getvalue()
    assert lines[1] == f"[calcnb] {recorder.nickname} went on with their rejoin code (a page closed or reloaded)."
    assert all(line.isprintable() for line in lines) and len(lines) == 2


# ---------------------------------------------------------------- the games of "Is the 80% true?"


def test_a_students_games_are_kept_once_each_and_read_back_in_order(log):
    from calcnb.lessons.evidence import PLAYER_KEY

    log.join("Ana")
    assert log.record_game("Ana", 10_000_000, PLAYER_KEY, True, 52, when=1.0) == classlog.WRITTEN
    assert log.record_game("Ana", 10_000_001, PLAYER_KEY, False, 31, when=2.0) == classlog.WRITTEN
    # a retry of a write that went through writes nothing twice
    assert log.record_game("Ana", 10_000_000, PLAYER_KEY, True, 52, when=3.0) == classlog.ALREADY_WRITTEN
    # another student's same deal (a shared block) is their game: kept, and pooled once by the lesson
    assert log.record_game("Bruno", 10_000_000, PLAYER_KEY, True, 52, when=4.0) == classlog.WRITTEN
    games = log.games()
    assert [(game["nickname"], game["seed"], game["won"], game["score"]) for game in games] == [
        ("Ana", 10_000_000, True, 52),
        ("Ana", 10_000_001, False, 31),
        ("Bruno", 10_000_000, True, 52),
    ]
    with pytest.raises(ClassLogError, match="seed"):
        log.record_game("Ana", "10", PLAYER_KEY, True, 52)
    assert len(log.games()) == 3


def test_a_log_made_before_games_were_kept_gets_their_table_when_opened(location):
    from calcnb.lessons.evidence import PLAYER_KEY

    opened = open_class_log(location)
    opened.join("Ana")
    opened.close()
    engine = sa.create_engine(classlog.database_url(location))
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE calcnb_games"))
    engine.dispose()
    again = open_class_log(location)
    assert again.students() == ["Ana"] and again.games() == []
    assert again.record_game("Ana", 10_000_000, PLAYER_KEY, False, 20) == classlog.WRITTEN
    again.close()


def test_the_recorder_keeps_every_deal_played_and_the_class_view_pools_them(location):
    from calcnb.classroom.lesson_view import LessonClassView
    from calcnb.classroom.recorder import ClassRecorder
    from calcnb.lessons.evidence import pool, seed_block
    from calcnb.stats import wilson_interval
    from calcnb.ui.evidence import EvidenceLab
    from calcnb.ui.lesson import Quiz

    view = LessonClassView(open_class_log(location), lesson="evidence")
    view.refresh()  # before anyone has answered: the lesson named, its exercises, an empty sample
    assert view.lesson_name == "evidence" and view.order[0] == "evidence-rate"
    assert view.evidence is not None and view.evidence.deals == 0
    labs = []
    for name in ("Ana", "Bruno"):  # one kernel each, one after the other (a kernel has one recorder)
        lab = EvidenceLab(Quiz())
        recorder = ClassRecorder(open_class_log(location), quiz=lab)
        assert recorder.join(name)
        assert lab.block == seed_block(name, recorder.class_log.class_key())
        lab.play_batch()
        assert recorder.flush(timeout=30) and recorder.games_recorded == 10
        recorder.close()
        labs.append(lab)
    view.refresh()
    wins = sum(deal.won for lab in labs for deal in lab.played)
    assert (view.evidence.wins, view.evidence.deals) == (wins, 20)
    assert view.evidence.interval == wilson_interval(wins, 20) == pool(view.class_log.games()).interval
    low, high = wilson_interval(wins, 20)
    assert f"{round(100 * low)}%" in view.evidence_text.value and f"{round(100 * high)}%" in view.evidence_text.value
    assert view.evidence_picture.png[:4] == b"\x89PNG" and "20 deals" in view.evidence_picture.alt
    view.close()


def test_a_student_who_joins_again_after_a_reload_gets_their_deals_back(log, location):
    from calcnb.classroom.names import rejoin_code
    from calcnb.classroom.recorder import ClassRecorder
    from calcnb.ui.evidence import EvidenceLab
    from calcnb.ui.lesson import Quiz

    first_quiz = Quiz()
    first = ClassRecorder(log, quiz=first_quiz)
    lab = EvidenceLab(first_quiz, need_name=True, history=first.games_played)
    assert first.join("jo") and lab.played == []  # nothing of jo's in the log yet
    played = lab.play_batch()
    first.close()  # the tab is closed: what waits is written, the connections closed
    again = open_class_log(location)
    quiz = Quiz()
    second = ClassRecorder(again, quiz=quiz)
    back = EvidenceLab(quiz, need_name=True, history=second.games_played)
    try:
        assert second.join("jo", code=rejoin_code(again.class_key(), "jo"))
        assert back.played == played and len(played) == 10
        assert not back.interval_button.disabled and "10" in back.said.value
        assert [deal.seed for deal in back.play_batch()] == list(back.block[10:20])  # on from where jo was
    finally:
        second.close()
