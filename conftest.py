"""Test tiers: ``python -m pytest -m "not slow" -n 2`` runs the fast tier (unit, property, doctest).

The markers are registered in ``pyproject.toml``. This file sits at the top of the checkout, not in
``tests/``, so that the notebooks and the doctests of ``calcnb/`` get their markers whatever paths
pytest is given.
"""

import functools
import gc
import importlib.machinery
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

# A module of the solver's compiled core is imported from its extension module, so doctest collection
# could not import its .py under the same name. None of them holds a doctest: leave their sources out.
_SOLVER = Path(__file__).parent / "calcnb" / "solver"
collect_ignore = [
    str(source)
    for source in _SOLVER.glob("*.py")
    if any(source.with_suffix(suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
]
# The class server's page module imports Solara's server, which replaces how every widget of the process talks to
# its page (comm.create_comm): collected for doctests, it would silence the widget tests in the same worker. It
# holds no doctest; its tests run it in a process of its own (tests/test_solara_server.py).
collect_ignore.append(str(Path(__file__).parent / "calcnb" / "serve" / "class_server" / "page.py"))

# Whatever needs a browser, a server, PostgreSQL or a notebook run takes seconds: it is slow too.
SLOW_KINDS = ("browser", "server", "postgres", "notebook")
# The fixtures of tests/browser/conftest.py that start a browser or a server.
BROWSER_FIXTURES = {"browser", "page", "voila_server", "lab_server"}


# The tests' temporary folders (class logs, notebooks' copies, PostgreSQL's data) in memory where the machine offers
# it (/dev/shm, Linux): every commit to a class log waits for the disk otherwise (fsync, about 5 ms here), and
# the tests commit thousands of times. What they test is the same on any file system.
MEMORY_FOLDER = Path("/dev/shm")


def pytest_configure(config: pytest.Config) -> None:
    """Put the run's temporary folders in memory (see :data:`MEMORY_FOLDER`) unless ``--basetemp`` was given."""
    if config.option.basetemp or hasattr(config, "workerinput"):  # an xdist worker has its share of the base
        return
    if MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK):
        base = tempfile.mkdtemp(prefix="calcnb-tests-", dir=MEMORY_FOLDER)
        config.option.basetemp = base
        config.add_cleanup(lambda: shutil.rmtree(base, ignore_errors=True))


# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE): otherwise pytest rewrites the
# asserts of every test module again at each run, and every import of calcnb compiles its source again.
sys.dont_write_bytecode = False


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move everything imported and collected so far out of the garbage collector's sight (``gc.freeze``).

    Those millions of objects (calcnb, matplotlib, Solara, the test items) live to the end of the run, yet each
    full collection walked them all again: 24 of them took 8.3 s of the fast tier's 59 s. Objects the tests
    make are collected as before.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 100)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.path.suffix == ".ipynb":  # nbval's cells
            item.add_marker(pytest.mark.notebook)
        if "postgres_url" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if fixtures & BROWSER_FIXTURES and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if not item.get_closest_marker("slow") and any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker(pytest.mark.slow)


# A fixture made once per module: a server, a hub or a class of pages the module's tests share.
MODULE_FIXTURE = re.compile(r"@pytest\.fixture\([^)]*scope=\"module\"")


@functools.cache
def shares_a_module_fixture(path: Path) -> bool:
    """Whether the test module at ``path`` makes a fixture once per module (:data:`MODULE_FIXTURE`)."""
    try:
        return MODULE_FIXTURE.search(path.read_text(encoding="utf-8")) is not None
    except OSError:
        return False


class NotebookScheduling(LoadScopeScheduling):
    """xdist's work units: each notebook's cells one unit, each module with a module-scoped fixture one unit, every
    other test a unit of its own.

    nbval runs a notebook's cells in order in one kernel, so they must stay together on one worker. A module whose
    tests share a fixture made once per module (a server, a hub, a class of pages) runs on one worker, so that the
    fixture is made once, not once on each (the class faults' class of three took 21 s to set up on each worker, the
    hub 15 s). Any other test may go to whichever worker is free. (xdist's own ``loadgroup`` cannot group them with
    pytest 9.2, which builds a node's id from its path and no longer reads the suffix xdist adds.) Largest units go
    first.
    """

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.partition("::")[0]
        if path.endswith(".ipynb") or shares_a_module_fixture(Path(self.config.rootpath) / path):
            return path
        return nodeid


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> LoadScopeScheduling | None:
    """``-n 2`` (xdist's default ``--dist load``) schedules with :class:`NotebookScheduling`."""
    if config.getvalue("dist") == "load":
        return NotebookScheduling(config, log)
    return None
