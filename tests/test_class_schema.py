"""The class log's schema and what may be stored in it: the tables, the version, text kept as text.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import importlib
import pkgutil
import typing
from collections.abc import Iterable
from dataclasses import fields

import pytest
import sqlalchemy as sa
from class_log_support import HOSTILE, an_attempt

import calcnb.classlog
import calcnb.classroom
from calcnb.classlog.names import visible_nickname
from calcnb.classlog.schema import ANSWER_MAX, ATTEMPT_COLUMNS, NICKNAME_MAX, SCHEMA_VERSION, ClassLogError
from calcnb.classlog.store import ClassLog, open_class_log
from calcnb.exercises.items import Attempt

pytest_plugins = ["class_log_fixtures"]


def test_the_log_records_the_lessons_own_attempt():
    """One home for what an attempt holds: the log reads :class:`calcnb.exercises.items.Attempt` and no module
    of the class log or its pages keeps a class of its own that repeats the attempt's fields."""
    assert typing.get_type_hints(ClassLog.record)["attempt"] is Attempt
    assert typing.get_type_hints(ClassLog.record_many)["attempts"] == Iterable[Attempt]
    attempt_fields = {field.name for field in fields(Attempt)}
    modules = [importlib.import_module(f"{package.__name__}.{found.name}")
               for package in (calcnb.classlog, calcnb.classroom)
               for found in pkgutil.iter_modules(package.__path__)]  # fmt: skip
    copies = [
        f"{module.__name__}.{name}"
        for module in modules
        for name, value in vars(module).items()
        if isinstance(value, type) and value.__module__ == module.__name__
        if attempt_fields <= set(vars(value).get("__annotations__", {}))
    ]
    assert len(modules) >= 10 and not copies


def test_a_new_log_has_the_tables_and_the_schema_version(log):
    inspector = sa.inspect(log.engine)
    assert {"calcnb_schema", "calcnb_students", "calcnb_attempts"} <= set(inspector.get_table_names())
    columns = {column["name"] for column in inspector.get_columns("calcnb_attempts")}
    assert set(ATTEMPT_COLUMNS) <= columns
    with log.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version FROM calcnb_schema")).scalars().all() == [SCHEMA_VERSION]


def test_a_log_of_another_schema_version_is_refused(log, location):
    with log.engine.begin() as connection:
        connection.execute(sa.text("UPDATE calcnb_schema SET version = :v"), {"v": SCHEMA_VERSION + 1})
    with pytest.raises(ClassLogError, match=f"schema version {SCHEMA_VERSION + 1}"):
        open_class_log(location)


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


def test_nicknames_are_kept_without_the_characters_that_hide_or_mirror_text(log):
    assert log.join("\u202emallory") == "mallory"  # a right-to-left override cannot mirror the class view
    assert log.join("b\u200bo\u200db") == "bob"
    assert log.join("\uff43\uff41\uff52\uff4c") == "carl"
    assert log.students() == ["mallory", "bob", "carl"]
