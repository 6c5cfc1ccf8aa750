"""The user's own copy of the notebooks (``calcnb lab``): made on the first run, and never losing an edit after.

Each test plays the shipped notebooks with a folder of its own, so an upgrade of calcnb is a change to it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calcnb.core.resources import notebooks_root
from calcnb.i18n import set_language
from calcnb.serve.cli.main import main
from calcnb.serve.cli.workspace import (
    MANIFEST,
    as_run_here,
    default_workspace,
    new_version_name,
    shipped_notebooks,
    sync_workspace,
)


def _shipped(folder: Path) -> Path:
    """A small set of shipped notebooks: two at the top, a Portuguese twin and the teacher's notes."""
    for name, text in {
        "a.ipynb": "A1",
        "b.ipynb": "B1",
        "pt/a.ipynb": "A1 pt",
        "teacher/a_teacher.ipynb": "notes 1",
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_first_run_copies_every_notebook_and_says_where_in_one_line(tmp_path):
    shipped = _shipped(tmp_path / "shipped")
    said: list[str] = []
    done = sync_workspace(tmp_path / "mine", shipped, say=said.append)
    assert sorted(done.copied) == ["a.ipynb", "b.ipynb", "pt/a.ipynb", "teacher/a_teacher.ipynb"]
    assert (tmp_path / "mine" / "teacher" / "a_teacher.ipynb").read_text(encoding="utf-8") == "notes 1"
    assert len(said) == 1 and str(tmp_path / "mine") in said[0] and "never overwrites" in said[0]
    recorded = json.loads((tmp_path / "mine" / MANIFEST).read_text(encoding="utf-8"))
    assert set(recorded["files"]) == set(done.copied)
    # Nothing changed: nothing is said, nothing is written.
    again: list[str] = []
    assert sync_workspace(tmp_path / "mine", shipped, say=again.append).lines() == [] and again == []


def test_an_edit_is_kept_and_an_upgrade_puts_its_version_beside_it(tmp_path):
    shipped, mine = _shipped(tmp_path / "shipped"), tmp_path / "mine"
    sync_workspace(mine, shipped, say=None)
    (mine / "a.ipynb").write_text("A1 with my answers", encoding="utf-8")
    # A second run, before any upgrade: the edit is kept, nothing new is written.
    assert sync_workspace(mine, shipped, say=None).lines() == []
    assert (mine / "a.ipynb").read_text(encoding="utf-8") == "A1 with my answers"

    # calcnb is upgraded: both notebooks change, and a new one comes.
    (shipped / "a.ipynb").write_text("A2", encoding="utf-8")
    (shipped / "b.ipynb").write_text("B2", encoding="utf-8")
    (shipped / "c.ipynb").write_text("C2", encoding="utf-8")
    said: list[str] = []
    done = sync_workspace(mine, shipped, say=said.append)
    assert (mine / "a.ipynb").read_text(encoding="utf-8") == "A1 with my answers"  # never overwritten
    assert (mine / "a (new).ipynb").read_text(encoding="utf-8") == "A2"  # offered beside it
    assert (mine / "b.ipynb").read_text(encoding="utf-8") == "B2"  # untouched by the user: updated
    assert (mine / "c.ipynb").read_text(encoding="utf-8") == "C2"
    assert (done.kept, done.updated, done.copied) == (["a.ipynb"], ["b.ipynb"], ["c.ipynb"])
    assert any("a (new).ipynb" in line and "yours is kept" in line for line in said), said
    # The new version is offered once: the next run says nothing.
    assert sync_workspace(mine, shipped, say=None).lines() == []


def test_a_deleted_notebook_comes_back_and_a_users_own_file_is_never_replaced(tmp_path):
    shipped, mine = _shipped(tmp_path / "shipped"), tmp_path / "mine"
    mine.mkdir()
    (mine / "b.ipynb").write_text("my own b", encoding="utf-8")  # there before calcnb's first run
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    done = sync_workspace(mine, shipped, say=None)
    assert (mine / "b.ipynb").read_text(encoding="utf-8") == "my own b" and done.kept == ["b.ipynb"]
    assert (mine / new_version_name("b.ipynb")).read_text(encoding="utf-8") == "B1"
    (mine / "a.ipynb").unlink()  # a teacher wanting the shipped notebook back deletes theirs
    assert sync_workspace(mine, shipped, say=None).copied == ["a.ipynb"]
    assert (mine / "a.ipynb").read_text(encoding="utf-8") == "A1" and (mine / "notes.txt").exists()


def test_the_workspace_holds_every_shipped_notebook_the_teachers_and_the_portuguese():
    shipped = shipped_notebooks()
    assert {"02_wraparound.ipynb", "pt/02_wraparound.ipynb", "teacher/02_wraparound_teacher.ipynb"} <= set(shipped)
    assert "pt/teacher/02_wraparound_teacher.ipynb" in shipped and "teacher/class_view.ipynb" in shipped
    assert len(shipped) == len(list(notebooks_root().rglob("*.ipynb")))
    assert default_workspace().name == "calcnb" and default_workspace().is_absolute()


def test_lab_refuses_a_workspace_it_cannot_write_before_starting_anything(tmp_path, capsys):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    set_language("en")
    assert main(["lab", "--workspace", str(blocked / "calcnb"), "--no-browser", "--port", "0"]) == 2
    error = capsys.readouterr().err
    assert "your notebooks cannot be copied into" in error and "--workspace" in error


def test_new_version_names_keep_the_folder_and_the_suffix():
    assert new_version_name("pt/teacher/x_teacher.ipynb") == "pt/teacher/x_teacher (new).ipynb"


@pytest.mark.server
def test_lab_opens_a_fresh_workspace_and_a_second_run_keeps_an_edit(tmp_path):
    import signal
    import subprocess
    import sys

    workspace = tmp_path / "notebooks of mine"

    def run_lab() -> str:
        cli = subprocess.Popen(
            [sys.executable, "-m", "calcnb", "lab", "--workspace", str(workspace), "--no-browser", "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            start_new_session=True,
        )
        try:
            lines = [cli.stdout.readline() for _ in range(3)]
            cli.send_signal(signal.SIGINT)
            cli.communicate(timeout=60)
        finally:
            if cli.poll() is None:
                cli.kill()
        return "".join(lines)

    first = run_lab()
    assert f"{workspace}" in first and "/lab?token=" in first, first
    notebook = workspace / "02_wraparound.ipynb"
    notebook.write_text(notebook.read_text(encoding="utf-8").replace("clock", "CLOCK"), encoding="utf-8")
    second = run_lab()
    assert "CLOCK" in notebook.read_text(encoding="utf-8") and "(new)" not in second, second


def _notebook(kernel_name: str, python_version: str) -> str:
    """A small notebook whose metadata names its kernel as another machine did."""
    metadata = {
        "kernelspec": {"display_name": kernel_name, "language": "python", "name": "python3"},
        "language_info": {"name": "python", "version": python_version},
    }
    return json.dumps({"cells": [], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def test_a_copy_names_the_kernel_as_this_machine_does_so_opening_it_changes_nothing(tmp_path):
    # JupyterLab writes the running kernel's names into a notebook it opens: a copy naming another Python
    # would show the unsaved-changes dot before the teacher touched it.
    from ipykernel.ipkernel import IPythonKernel

    shipped, mine = tmp_path / "shipped", tmp_path / "mine"
    shipped.mkdir()
    (shipped / "a.ipynb").write_text(_notebook("Python 3", "3.9.0"), encoding="utf-8")
    sync_workspace(mine, shipped, say=None)
    metadata = json.loads((mine / "a.ipynb").read_text(encoding="utf-8"))["metadata"]
    assert metadata["language_info"] == IPythonKernel.language_info
    assert metadata["kernelspec"]["name"] == "python3" and metadata["kernelspec"]["display_name"] != "Python 3"
    # Left as copied, it is the user's untouched copy: a later start neither updates nor offers it again.
    assert sync_workspace(mine, shipped, say=None).lines() == []
    # A notebook already named as here is copied byte for byte.
    once = as_run_here((notebooks_root() / "01_rules.ipynb").read_bytes())
    assert as_run_here(once) == once
    assert as_run_here(b"not a notebook") == b"not a notebook"
