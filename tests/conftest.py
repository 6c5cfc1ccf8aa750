"""Shared test set-up: draw off-screen, every package's words registered, the language English between tests, and
visits as a class server keeps them (``visits``)."""

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib
import pytest
import sweeps

from calcnb.core import visits as visit_scopes
from calcnb.core.visits import use_visit_scope
from calcnb.i18n.__main__ import import_owners

matplotlib.use("Agg")

# Each package registers its words when it is first imported; a test that reads a whole catalogue must see every
# word, whichever tests ran before it in its process (one worker of several, or the test alone).
import_owners()


def pytest_configure(config: pytest.Config) -> None:
    """The fast tier tries fewer examples of each property (:func:`sweeps.examples`)."""
    sweeps.use_fast_tier(config)


@pytest.fixture(autouse=True)
def _english_by_default():
    """Tests that switch language must not leak it into the next test."""
    from calcnb.i18n import set_language

    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def visits(monkeypatch):
    """Visits as a class server keeps them: the current visit's values, by thread (None outside any visit)."""
    current = threading.local()
    monkeypatch.setattr(visit_scopes, "_visit_scope", visit_scopes._visit_scope)  # restored after the test

    def scope():
        return getattr(current, "values", None)

    use_visit_scope(scope)

    @contextmanager
    def visit(values: dict) -> Iterator[dict]:
        current.values = values
        try:
            yield values
        finally:
            current.values = None

    return visit
