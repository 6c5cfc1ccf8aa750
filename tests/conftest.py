"""Shared test set-up: draw off-screen and keep the language English between tests."""

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _english_by_default():
    """Tests that switch language must not leak it into the next test."""
    from calcnb.i18n import set_language

    set_language("en")
    yield
    set_language("en")
