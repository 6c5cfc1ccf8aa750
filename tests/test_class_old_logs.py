"""Class logs written by older calcnb open and read unchanged: schema version 1, a log before games were kept,
and a log written by the code before the class log was split into modules and outcomes became an enum.

``data/class_log_v2.db`` was written by the class log of commit ac5185f (``data/make_class_log_v2.py`` says
how); on PostgreSQL the same rows go into the tables that code made (``data/class_log_v2.postgresql.sql``).
"""

from __future__ import annotations

import shutil
import sqlite3

import pytest
import sqlalchemy as sa
from class_log_support import DATA, ORDER, an_attempt

from calcnb.classlog.export import csv_text
from calcnb.classlog.location import database_url
from calcnb.classlog.readings import class_status, exercise_outcomes, exercise_stats, student_summaries
from calcnb.classlog.schema import SCHEMA_VERSION, row_outcome, student_key
from calcnb.classlog.store import ALREADY_WRITTEN, WRITTEN, ClassLog, Pacing, open_class_log, read_class_key
from calcnb.exercises.items import Outcome

pytest_plugins = ["class_log_fixtures"]

T0 = 1_800_000_000.0
#: The class key ac5185f made for data/class_log_v2.db.
OLD_KEY = "01b6e844922feb6e30793be2f9dc0d55"
OLD_TABLES = ("calcnb_schema", "calcnb_students", "calcnb_attempts", "calcnb_class_key", "calcnb_writes",
              "calcnb_writers", "calcnb_games")  # fmt: skip
SERIAL = ("calcnb_students", "calcnb_attempts", "calcnb_games")  # the tables whose ids a sequence gives


# ---------------------------------------------------------------- schema version 1, before outcomes


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
    engine = sa.create_engine(database_url(location))
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
        log.record("bia", an_attempt(outcome=Outcome.REVEALED, answer=""))
        assert log.attempts()[-1]["outcome"] == Outcome.REVEALED
    finally:
        log.close()
    again = open_class_log(location)  # opened again: already up to date, nothing changed
    assert again.count() == 5
    again.close()


def test_rows_without_an_outcome_are_read_from_what_version_1_kept():
    assert row_outcome({"correct": True, "misconception": None}) is Outcome.RIGHT
    assert row_outcome({"correct": False, "misconception": "unreadable"}) is Outcome.UNREADABLE
    assert row_outcome({"correct": False, "misconception": "off_by_one"}) is Outcome.WRONG
    assert row_outcome({"correct": False, "outcome": "revealed"}) is Outcome.REVEALED


def test_a_log_made_before_games_were_kept_gets_their_table_when_opened(location):
    from calcnb.lessons.evidence.exercises import PLAYER_KEY

    opened = open_class_log(location)
    opened.join("Ana")
    opened.close()
    engine = sa.create_engine(database_url(location))
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE calcnb_games"))
    engine.dispose()
    again = open_class_log(location)
    assert again.students() == ["Ana"] and again.games() == []
    assert again.record_game("Ana", 10_000_000, PLAYER_KEY, False, 20) == WRITTEN
    again.close()


# ---------------------------------------------------------------- a log of ac5185f, before the split


def _old_rows(location: str) -> dict[str, list[tuple]]:
    """Every row of every table of the log at ``location``, in the order of the tables' keys, as stored."""
    engine = sa.create_engine(database_url(location), poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        rows = {table: [tuple(row) for row in connection.execute(sa.text(f"SELECT * FROM {table} ORDER BY 1, 2"))]
                for table in OLD_TABLES}  # fmt: skip
    engine.dispose()
    return rows


def _copy_to_postgresql(url: str) -> None:
    """The tables of data/class_log_v2.postgresql.sql, holding the rows of data/class_log_v2.db, ids and all."""
    engine = sa.create_engine(database_url(url), poolclass=sa.pool.NullPool)
    ddl = (DATA / "class_log_v2.postgresql.sql").read_text(encoding="utf-8")
    statements = [statement for statement in ddl.split(";") if statement.strip(" \n")]
    old = sqlite3.connect(DATA / "class_log_v2.db")
    with engine.begin() as connection:
        for statement in statements:
            lines = [line for line in statement.splitlines() if not line.startswith("--")]
            if any(line.strip() for line in lines):
                connection.exec_driver_sql("\n".join(lines))
        tables = sa.MetaData()
        tables.reflect(connection, only=list(OLD_TABLES))
        for name in OLD_TABLES:
            table = tables.tables[name]
            cursor = old.execute(f"SELECT * FROM {name}")
            columns = [column[0] for column in cursor.description]
            flags = {column.name for column in table.columns if isinstance(column.type, sa.Boolean)}
            rows = [{key: bool(value) if key in flags else value for key, value in zip(columns, row)} for row in cursor]
            connection.execute(sa.insert(table), rows)
            if name in SERIAL:  # the serial goes on after the rows, as it did
                serial = f"pg_get_serial_sequence('{name}', 'id')"
                connection.execute(sa.text(f"SELECT setval({serial}, max(id)) FROM {name}"))
    old.close()
    engine.dispose()


@pytest.fixture
def old_log(location, tmp_path):
    """Where the log ac5185f wrote is: a copy of data/class_log_v2.db, or its rows in that code's PostgreSQL tables."""
    if location.startswith("postgresql"):
        _copy_to_postgresql(location)
        return location
    copy = tmp_path / "class_log_v2.db"
    shutil.copyfile(DATA / "class_log_v2.db", copy)  # never opened where it is: SQLite would write beside it
    return str(copy)


def _reopened_as_of(log: ClassLog, location: str, version: int, missing: str) -> ClassLog:
    """``log`` turned into one of schema ``version``, as calcnb wrote it before the table ``missing``, then closed
    and opened again at ``location`` (which upgrades it)."""
    with log.engine.begin() as connection:
        connection.execute(sa.text(f"DROP TABLE {missing}"))
        connection.execute(sa.text(f"UPDATE calcnb_schema SET version = {version}"))
    log.close()
    return open_class_log(location)


def _schema_version(log: ClassLog) -> int:
    """The schema version the log's own table states."""
    with log.engine.connect() as connection:
        return connection.execute(sa.text("SELECT version FROM calcnb_schema")).scalar()


def test_a_log_of_schema_version_3_gets_the_table_of_the_answer_to_discuss(location):
    log = open_class_log(location)
    log.join("ana")
    log.record("ana", an_attempt(answer="14", outcome=Outcome.WRONG, misconception="off_by_one"))
    log = _reopened_as_of(log, location, 3, "calcnb_discussed")  # before answers were put up for discussion
    try:
        assert _schema_version(log) == SCHEMA_VERSION
        assert log.discussed() is None and log.count() == 1 and log.students() == ["ana"]
        assert log.discuss(1)["answer"] == "14" and log.discussed()["answer"] == "14"
    finally:
        log.close()


def test_a_log_of_schema_version_4_gets_the_table_of_the_pacing(location):
    log = open_class_log(location)
    log.join("ana")
    log = _reopened_as_of(log, location, 4, "calcnb_pacing")  # before the class was paced
    try:
        assert _schema_version(log) == SCHEMA_VERSION
        assert log.pacing() == Pacing() and log.students() == ["ana"]  # every exercise open, nothing paused
        log.set_pacing(Pacing(2, True))
        assert log.pacing() == Pacing(2, True)
    finally:
        log.close()


def test_a_log_written_before_the_split_reads_unchanged(old_log):
    before = _old_rows(old_log)
    assert before["calcnb_schema"] == [(1, 2)] and len(before["calcnb_attempts"]) == 9
    log = open_class_log(old_log)
    try:
        assert log.class_key() == OLD_KEY == read_class_key(old_log)  # the students' variants stay theirs
        assert log.students() == ["ana", "Bia", "<b>zé</b>", "duda"]
        assert log.taken_as("ANA") == "ana" and log.has_joined("bia") and not log.has_joined("eva")
        rows = log.attempts()
        assert [(row["recorded_at"] - T0, row["nickname"], row["exercise_id"], row["variant"], row["answer"],
                 row["correct"], row["outcome"], row["misconception"], row["language"]) for row in rows] == [
            (10, "ana", "next-wrap", "3", "14", False, "wrong", "no_wraparound", "en"),
            (11, "Bia", "clock", "0", "?", False, "unreadable", None, "pt"),
            (12, "<b>zé</b>", "clock", "0", "13", True, "right", None, "pt"),
            (20, "ana", "next-wrap", "3", "", False, "revealed", None, "en"),
            (21, "Bia", "clock", "0", "0", False, "wrong", "zero_for_king", "pt"),
            (30, "ana", "next-wrap", "3", "1", True, "right", None, "en"),
            (31, "Bia", "clock", "0", "=1+1", False, "wrong", None, "pt"),
            (41, "Bia", "clock", "0", "12", False, "wrong", "off_by_one", "pt"),
            (50, "<b>zé</b>", "visits", "2-7", "1; DROP TABLE x", False, "wrong", None, "pt"),
        ]  # fmt: skip
        assert [row_outcome(row) for row in rows][:4] == [Outcome.WRONG, Outcome.UNREADABLE, Outcome.RIGHT,
                                                          Outcome.REVEALED]  # fmt: skip
        assert [row["id"] for row in log.attempts_after(5)] == [6, 7, 8, 9] and log.count() == 9
        assert [row["answer"] for row in log.student_attempts("Bia", 6)] == ["?", "0", "=1+1"]
        games = [(game["nickname"], game["seed"], game["won"], game["score"], game["player"]) for game in log.games()]
        player = "Monte Carlo 32"
        assert games == [("Bia", 10_000_000, True, 52, player), ("Bia", 10_000_001, False, 31, player)]
        assert [(row["writer"], row["nickname"], row["waiting"], row["written"], row["last_write"],
                 row["last_failure"], row["failure"]) for row in log.writers()] == [
            ("page-a", "ana", 0, 3, T0 + 30, None, None),
            ("page-b", "Bia", 1, 4, T0 + 41, T0 + 45, "database is locked"),
        ]  # fmt: skip
        # what the class view makes of it
        assert exercise_outcomes(rows) == {
            "ana": {"next-wrap": Outcome.REVEALED},  # shown before the right answer was typed
            "Bia": {"clock": Outcome.WRONG},
            "<b>zé</b>": {"clock": Outcome.RIGHT, "visits": Outcome.WRONG},
        }
        stats = exercise_stats(rows, ORDER)
        assert [(item.exercise_id, item.tried, item.right, item.attempts, item.revealed, item.unreadable)
                for item in stats] == [("clock", 2, 1, 5, 0, 1), ("next-wrap", 1, 0, 2, 1, 0),
                                       ("visits", 1, 0, 1, 0, 0)]  # fmt: skip
        assert stats[0].misconceptions == {"zero_for_king": 1, "other": 1, "off_by_one": 1}
        status = class_status(log.students(), rows)
        assert (status.not_started, status.stuck, status.working) == (["duda"], {"Bia": "clock"}, 3)
        summaries = {summary.nickname: summary for summary in student_summaries(log.students(), rows)}
        assert summaries["<b>zé</b>"].count(Outcome.RIGHT) == 1 and summaries["duda"].outcomes == {}
        lines = csv_text(rows).splitlines()
        assert lines[1] == "2027-01-15T08:00:10+00:00,ana,next-wrap,3,14,0,wrong,no_wraparound,en"
        assert lines[7].split(",")[4] == "'=1+1" and len(lines) == 10
        # opened and read: not a row changed, only brought to the schema of today (each first join keyed)
        after = _old_rows(old_log)
        assert after["calcnb_schema"] == [(1, SCHEMA_VERSION)] and SCHEMA_VERSION == 5
        assert log.discussed() is None  # the table of the answer up for discussion added, empty
        students = after["calcnb_students"]
        assert [row[:-1] for row in students] == before["calcnb_students"]
        assert [row[-1] for row in students] == [student_key(row[1]) for row in students]
        assert {table: after[table] for table in OLD_TABLES[2:]} == {table: before[table] for table in OLD_TABLES[2:]}
        # and written on: a retry of an old page's write writes nothing twice, new answers take the next ids
        assert log.record_keyed("page-a", 1, "ana", an_attempt(timestamp=T0 + 10)) == ALREADY_WRITTEN
        assert log.record_keyed("page-d", 1, "duda", an_attempt("clock", 0, "1", Outcome.RIGHT)) == WRITTEN
        assert log.record_game("Bia", 10_000_000, "Monte Carlo 32", True, 52) == ALREADY_WRITTEN
        (new,) = log.attempts_after(9)
        assert (new["id"], new["nickname"], new["outcome"]) == (10, "duda", "right")
    finally:
        log.close()
