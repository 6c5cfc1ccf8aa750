"""The class log's fixtures, a pytest plugin each ``tests/test_class_*.py`` and ``tests/test_recorder.py`` names in
``pytest_plugins``, so they are defined once for the whole run.

Every test that takes ``location`` or ``log`` runs twice: on SQLite (a file, the default) and on a real
PostgreSQL server started on 127.0.0.1 once for the whole run and stopped at the end (skipped when no server
is installed, unless ``CALCNB_REQUIRE_POSTGRES=1``, as in CI, makes that a failure).
"""

from __future__ import annotations

import os

import pytest
import sqlalchemy as sa
from pg_server import server_binaries, throwaway_server

from calcnb.classlog.location import database_url
from calcnb.classlog.schema import METADATA
from calcnb.classlog.store import open_class_log


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
    engine = sa.create_engine(database_url(url))
    with engine.begin() as connection:
        tables = ", ".join(table.name for table in METADATA.sorted_tables)  # every table a log has
        connection.execute(sa.text(f"DROP TABLE IF EXISTS {tables} CASCADE"))
        connection.execute(sa.text("DROP ROLE IF EXISTS calcnb_reader"))
    engine.dispose()


@pytest.fixture
def log(location):
    opened = open_class_log(location)
    yield opened
    opened.close()


@pytest.fixture
def recorder(log):
    from calcnb.classroom.recorder import ClassRecorder

    made = ClassRecorder(log)
    yield made
    made.close()
