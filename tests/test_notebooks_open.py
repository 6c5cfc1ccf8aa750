"""Every shipped notebook, as saved, opens well before it runs: no widget state, no raw repr, a run shown.

JupyterLab shows a saved notebook's outputs as stored, and a widget as its plain text until the notebook runs
(always, in a notebook not yet trusted, as a fresh copy is). The browser test in ``tests/browser/test_lab.py``
opens each one in JupyterLab; this reads the files.
"""

from __future__ import annotations

import json
import re

import pytest

from calcnb.core.resources import notebooks_root
from calcnb.i18n import message, set_language
from calcnb.serve.cli.workspace import shipped_notebooks

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# A repr: a class name and its traits ("PlayBoard(children=(", "<ClassView of ...>").
RAW_REPR = re.compile(r"^\s*(<\w+ of |[A-Z]\w*\()")


def _notebook(relative: str) -> dict:
    return json.loads((notebooks_root() / relative).read_text(encoding="utf-8"))


@pytest.mark.parametrize("relative", shipped_notebooks())
def test_a_shipped_notebook_stores_no_widget_state_and_no_raw_repr(relative):
    notebook = _notebook(relative)
    # A stored widget state names widget modules and versions (ipyevents, once) that the page may not have.
    assert "widgets" not in notebook["metadata"]
    for index, cell in enumerate(notebook["cells"]):
        assert "execution" not in cell.get("metadata", {}), f"cell {index} keeps its run times"
        for output in cell.get("outputs", []):
            # A stored view names a model that exists only while the notebook runs ("model not found", trusted).
            assert WIDGET_VIEW not in output.get("data", {}), f"cell {index} stores a widget view"
            plain = "".join(output.get("data", {}).get("text/plain", ""))
            assert not RAW_REPR.match(plain), f"cell {index} shows {plain[:60]!r} before it runs"


@pytest.mark.parametrize("relative", ["01_rules.ipynb", "pt/01_rules.ipynb", "04_play.ipynb", "pt/04_play.ipynb"])
def test_the_board_says_in_the_notebooks_language_what_appears_when_it_runs(relative):
    language = "pt" if relative.startswith("pt/") else "en"
    set_language(language)
    try:
        expected = message("before_run.say", what=message("before_run.play_board"))
    finally:
        set_language("en")
    shown = [
        "".join(output.get("data", {}).get("text/plain", ""))
        for cell in _notebook(relative)["cells"]
        for output in cell.get("outputs", [])
    ]
    assert expected in shown
