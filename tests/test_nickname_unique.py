"""The database, not a look beforehand, keeps each nickname to one student: two pages joining as one at once.

A hostile trial had two pupils join as "Zed" at the same instant: both pages looked, both found the nickname
free, both wrote, and both were told "Joined". Since schema version 3 a student's first join keeps the nickname's
key (:func:`calcnb.classlog.schema.student_key`) under a UNIQUE index, and :meth:`ClassLog.join
<calcnb.classlog.store.ClassLog.join>` relies on it: of pages racing for one nickname (or look-alikes of it),
whatever they saw before, exactly one joins and every other is asked for that student's rejoin code. A log of
version 2, which may hold such doubles already, is brought up to date when opened without failing.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``); the races
are real: pages on threads of their own, each with its own connection, let go together by a barrier.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

import pytest
import sqlalchemy as sa
from class_log_support import an_attempt, joins

from calcnb.classlog.location import database_url
from calcnb.classlog.names import visible_nickname
from calcnb.classlog.schema import (
    ATTEMPTS,
    METADATA,
    SCHEMA_TABLE,
    SCHEMA_VERSION,
    STUDENTS,
    ClassLogError,
    NicknameTaken,
    student_key,
)
from calcnb.classlog.store import open_class_log
from calcnb.classroom.recorder import ClassRecorder

pytest_plugins = ["class_log_fixtures"]

PAGES = 6  # pages racing for one nickname at once
ROUNDS = 10  # races, each for a nickname of its own


def _race(calls: list[Callable[[], object]]) -> list[object]:
    """Run each call on a thread of its own, all let go at once; what each returned, or the exception it raised."""
    barrier = threading.Barrier(len(calls), timeout=60)
    outcomes: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = calls[index]()
        except Exception as error:
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


def _spellings(name: str) -> list[str]:
    """``name`` as several pages type it: itself, and look-alikes that are the same nickname."""
    return [name, name.upper(), f"{name}\u3164", f"\u200b{name}", f"{name}\ufe0f", f"{name.lower()}\u2800"][:PAGES]


def _keyed(log) -> list[tuple[str, str]]:
    """The rows that hold a nickname key: ``(nickname, key)``, in the order of joins."""
    query = sa.select(STUDENTS.c.nickname, STUDENTS.c.nickname_key).where(STUDENTS.c.nickname_key.is_not(None))
    with log.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(query.order_by(STUDENTS.c.id))]


# ---------------------------------------------------------------- the constraint is the database's


def test_the_database_itself_refuses_a_second_row_with_a_taken_key(log):
    assert log.join("Zed", new=True) == "Zed"
    indexes = sa.inspect(log.engine).get_indexes(STUDENTS.name)
    assert [(index["column_names"], bool(index["unique"])) for index in indexes] == [(["nickname_key"], True)]
    row = {"nickname": "zed", "joined_at": 0.0, "language": "en", "nickname_key": student_key("ZED\u3164")}
    with pytest.raises(sa.exc.IntegrityError), log.engine.begin() as connection:
        connection.execute(sa.insert(STUDENTS), row)  # whatever code writes it: refused
    assert joins(log) == ["Zed"] and _keyed(log) == [("Zed", "zed")]


def test_a_rejoin_is_a_row_of_its_own_under_the_nickname_as_first_stored(log):
    assert log.join("Zed") == "Zed"
    assert log.join("ZED\u3164") == "Zed"  # a look-alike is Zed: it goes on under the nickname Zed joined as
    with pytest.raises(NicknameTaken, match="already joined as Zed") as taken:
        log.join("zed", new=True)  # a student joining for the first time: refused, naming Zed
    assert taken.value.nickname == "Zed" and isinstance(taken.value, ClassLogError)
    assert joins(log) == ["Zed", "Zed"] and log.students() == ["Zed"] and _keyed(log) == [("Zed", "zed")]


# ---------------------------------------------------------------- races


def test_two_pages_that_both_found_a_nickname_free_make_one_student(location):
    """The trial's race, every time: both pages look before either writes; one joins, the other is asked for
    the code."""
    both_looked = threading.Barrier(2, timeout=60)
    pages = []
    for _ in range(2):
        log = open_class_log(location)
        looked = log.taken_as

        def taken_as(nickname: str, looked=looked) -> str | None:
            found = looked(nickname)
            both_looked.wait()  # neither page writes before the other has looked and found the nickname free
            return found

        log.taken_as = taken_as
        pages.append(ClassRecorder(log))
    try:
        outcomes = _race([partial(page.join, "Zed") for page in pages])
        assert sorted(outcomes, key=str) == [False, True], outcomes
        joined, asked = pages if outcomes[0] else pages[::-1]
        assert joined.nickname == "Zed" and "Joined as Zed" in joined.status.value
        assert asked.nickname is None and not asked.nickname_box.disabled
        assert "already joined as Zed" in asked.status.value and asked.same_student.layout.display is None
        assert joins(joined.class_log) == ["Zed"] and joined.class_log.students() == ["Zed"]
    finally:
        for page in pages:
            page.close()


def test_pages_racing_for_a_nickname_join_it_once_and_the_others_are_asked_for_the_code(location):
    """No help to the race: pages on threads press Join together, under one nickname or look-alikes of it."""
    logs = [open_class_log(location) for _ in range(PAGES)]
    try:
        for number in range(ROUNDS // 2):
            pages = [ClassRecorder(log) for log in logs]
            outcomes = _race([partial(page.join, name) for page, name in zip(pages, _spellings(f"Zed{number}"))])
            assert outcomes.count(True) == 1 and outcomes.count(False) == PAGES - 1, outcomes
            (joined,) = [page for page in pages if page.nickname is not None]
            asked = [page for page in pages if page.nickname is None]
            assert all(f"already joined as {joined.nickname}" in page.status.value for page in asked)
            for page in pages:
                page.close()
        assert len(logs[0].students()) == len(joins(logs[0])) == ROUNDS // 2
    finally:
        for log in logs:
            log.close()


def test_many_first_joins_of_one_nickname_at_once_let_exactly_one_in(location):
    logs = [open_class_log(location) for _ in range(PAGES)]
    try:
        for number in range(ROUNDS):
            spellings = _spellings(f"Zed{number}")
            outcomes = _race([partial(log.join, name, new=True) for log, name in zip(logs, spellings)])
            joined = [outcome for outcome in outcomes if isinstance(outcome, str)]
            taken = [outcome for outcome in outcomes if isinstance(outcome, NicknameTaken)]
            assert len(joined) == 1 and len(taken) == PAGES - 1, outcomes
            assert {error.nickname for error in taken} == set(joined)
        assert len(logs[0].students()) == len(joins(logs[0])) == len(_keyed(logs[0])) == ROUNDS
    finally:
        for log in logs:
            log.close()


def test_pages_rejoining_at_once_all_go_on_as_the_one_student(location):
    logs = [open_class_log(location) for _ in range(PAGES)]
    try:
        outcomes = _race([partial(log.join, name) for log, name in zip(logs, _spellings("Zed"))])
        stored = {visible_nickname(name) for name in _spellings("Zed")}
        assert len(set(outcomes)) == 1 and outcomes[0] in stored, outcomes  # each page: the nickname first stored
        assert joins(logs[0]) == outcomes and _keyed(logs[0]) == [(outcomes[0], "zed")]
    finally:
        for log in logs:
            log.close()


# ---------------------------------------------------------------- a log of version 2


#: Joins a log of version 2 may hold (nicknames as that code stored them, in the order of joining): a rejoin as a
#: row of its own, look-alikes and nicknames that show nothing (older rules let them in), and a double from a race.
OLD_JOINS = ["Ana", "Ana\u1160", "An\u034fa", "Zed", "Zed", "\u1160", "Ana\u2800", "Ana", "\u2800\u2800", "bo"]
#: Who holds each key once the log is brought up to date: each key's first join; no key for what shows nothing.
OLD_KEYED = [("Ana", "ana"), ("Zed", "zed"), ("bo", "bo")]


def _version_2_log(location: str) -> None:
    """A class log as calcnb wrote it at schema version 2 (no nickname key), holding :data:`OLD_JOINS`, and one
    answer by each of them."""
    metadata = sa.MetaData()
    for table in METADATA.sorted_tables:
        if table is not STUDENTS:
            table.to_metadata(metadata)
    students = sa.Table(STUDENTS.name, metadata, sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                        sa.Column("nickname", sa.String(40), nullable=False),
                        sa.Column("joined_at", sa.Float, nullable=False),
                        sa.Column("language", sa.String(80), nullable=False))  # fmt: skip
    engine = sa.create_engine(database_url(location), poolclass=sa.pool.NullPool)
    metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(sa.insert(metadata.tables[SCHEMA_TABLE.name]).values(id=1, version=2))
        connection.execute(
            sa.insert(students), [{"nickname": name, "joined_at": 1e9 + second, "language": "en"}
                                  for second, name in enumerate(OLD_JOINS)]
        )  # fmt: skip
        rows = [{**_attempt_row(name), "recorded_at": 1e9 + second} for second, name in enumerate(OLD_JOINS)]
        connection.execute(sa.insert(metadata.tables[ATTEMPTS.name]), rows)
    engine.dispose()


def _attempt_row(nickname: str) -> dict[str, object]:
    attempt = an_attempt()
    return {"nickname": nickname, "exercise_id": attempt.exercise_id, "variant": str(attempt.variant),
            "answer": attempt.answer, "correct": True, "outcome": "right", "misconception": None,
            "language": "en"}  # fmt: skip


def _rows(location: str, table: str) -> list[tuple]:
    engine = sa.create_engine(database_url(location), poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        rows = [tuple(row) for row in connection.execute(sa.text(f"SELECT * FROM {table} ORDER BY id"))]
    engine.dispose()
    return rows


def test_a_log_of_version_2_holding_look_alikes_and_doubles_opens_and_reads_unchanged(location):
    _version_2_log(location)
    students, attempts = _rows(location, STUDENTS.name), _rows(location, ATTEMPTS.name)
    log = open_class_log(location)
    try:
        with log.engine.connect() as connection:
            assert connection.execute(sa.select(SCHEMA_TABLE.c.version)).scalar_one() == SCHEMA_VERSION == 5
        assert [row[:-1] for row in _rows(location, STUDENTS.name)] == students  # every join kept as it was
        assert _rows(location, ATTEMPTS.name) == attempts
        assert log.students() == list(dict.fromkeys(OLD_JOINS))
        assert [row["nickname"] for row in log.attempts()] == OLD_JOINS
        assert _keyed(log) == OLD_KEYED
        # from now on the rules of today: a look-alike is Ana, and the double Zed is one nickname
        assert log.taken_as("Ana\u3164") == "Ana" and log.taken_as("ZED") == "Zed"
        with pytest.raises(NicknameTaken, match="already joined as Ana"):
            log.join("Ana\u17b4", new=True)
        with pytest.raises(ClassLogError, match="shows nothing"):
            log.join("\u3164")
        assert log.join("Cy", new=True) == "Cy" and log.join("zed") == "Zed"
    finally:
        log.close()
    again = open_class_log(location)  # opened again: already up to date, nothing changed
    assert _keyed(again) == [*OLD_KEYED, ("Cy", "cy")] and len(joins(again)) == len(OLD_JOINS) + 2
    again.close()


def test_kernels_opening_a_log_of_version_2_at_once_bring_it_up_to_date_once(location):
    _version_2_log(location)
    outcomes = _race([partial(open_class_log, location) for _ in range(4)])
    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)], outcomes
    try:
        assert all(_keyed(log) == OLD_KEYED for log in outcomes)
        assert [row[:4] for row in _rows(location, STUDENTS.name)] == [
            (number, name, 1e9 + number - 1, "en") for number, name in enumerate(OLD_JOINS, 1)
        ]
    finally:
        for log in outcomes:
            log.close()
