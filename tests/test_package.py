"""calcnb as a package: its shipped files found with importlib.resources from a checkout and from a wheel's
layout, the build's list of them, the ``calcnb`` command, the distribution check, and which calcnb runs.

Building and installing the real wheel is the smoke test's job (``scripts/smoke_installed.py``, run by
``.ci/run``); these tests check the parts it is made of, in a second.
"""

from __future__ import annotations

import importlib.util
import re
import zipfile
from pathlib import Path

import pytest

from calcnb.core import resources
from calcnb.serve.cli.about import shadow_note, version_lines
from calcnb.serve.cli.main import program_name

ROOT = Path(__file__).resolve().parent.parent


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_checkout_reads_the_notebooks_and_the_data_where_the_repository_keeps_them():
    assert resources.from_checkout()
    assert resources.notebooks_root() == ROOT / "notebooks"
    assert resources.data_file("player_study.csv") == ROOT / "data" / "player_study.csv"
    assert (resources.share_dir() / "voila" / "templates" / "calcnb" / "conf.json").is_file()
    from calcnb.studies import folklore, winnability

    assert folklore.STUDY.is_file() and winnability.TABLE.is_file()


def test_an_installed_package_reads_its_own_packaged_copy(tmp_path, monkeypatch):
    """The layout a wheel installs: calcnb/_resources/notebooks and calcnb/_resources/data inside the package."""
    package = tmp_path / "site-packages" / "calcnb"
    for name in ("notebooks/02_wraparound.ipynb", "data/player_study.csv"):
        (package / resources.PACKAGED / name).parent.mkdir(parents=True, exist_ok=True)
        (package / resources.PACKAGED / name).write_text("shipped", encoding="utf-8")
    monkeypatch.setattr(resources, "files", lambda _name: package)
    assert not resources.from_checkout()
    assert resources.notebooks_root() == package / "_resources" / "notebooks"
    assert resources.data_file("player_study.csv").read_text(encoding="utf-8") == "shipped"
    assert resources.share_dir() == package / "share"


def test_the_build_ships_every_notebook_and_data_file_and_no_working_file(tmp_path):
    setup = _load(ROOT / "setup.py", "calcnb_setup")
    shipped = {path.as_posix() for path in setup.shipped_files(ROOT)}
    notebooks = {path.relative_to(ROOT).as_posix() for path in (ROOT / "notebooks").rglob("*.ipynb")}
    assert {name for name in notebooks if ".ipynb_checkpoints" not in name} <= shipped
    assert {"data/winnability.csv.gz", "data/player_study.csv", "notebooks/pt/teacher/02_wraparound_teacher.ipynb"} <= (
        shipped
    )
    assert tuple(setup.SHIPPED_FOLDERS) == resources.SHIPPED_FOLDERS
    # A study's working files never go into a wheel.
    fake = tmp_path / "repo"
    (fake / "data").mkdir(parents=True)
    (fake / "notebooks" / ".ipynb_checkpoints").mkdir(parents=True)
    for name in ("data/winnability.csv", "data/run.log", "data/live_1.csv", "data/kept.csv", "notebooks/a.ipynb"):
        (fake / name).write_text("x", encoding="utf-8")
    (fake / "notebooks" / ".ipynb_checkpoints" / "a-checkpoint.ipynb").write_text("x", encoding="utf-8")
    assert [path.as_posix() for path in setup.shipped_files(fake)] == ["notebooks/a.ipynb", "data/kept.csv"]


def test_the_sdist_is_told_to_hold_the_pxd_the_notebooks_the_data_and_the_tests():
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    for line in ("recursive-include calcnb *.pxd", "graft notebooks", "graft data", "graft tests", "include .ci/run"):
        assert line in manifest
    assert "exclude calcnb/solver/*.c" in manifest  # Cython writes the C again: the sdist ships the source


def test_calcnb_is_a_console_script_with_the_same_commands():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    entry_point = r'^\[project\.scripts\]\n(#.*\n)?calcnb = "calcnb\.serve\.cli\.main:main"'
    assert re.search(entry_point, pyproject, re.MULTILINE)
    assert program_name() in ("calcnb", "python -m calcnb")


def test_the_distribution_check_names_what_a_wheel_lacks(tmp_path, capsys):
    check = _load(ROOT / "scripts" / "check_dist.py", "check_dist")
    wheel = tmp_path / "calcnb-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("calcnb/__init__.py", "")
        archive.writestr(f"{check.PACKAGED}/notebooks/02_wraparound.ipynb", "{}")
        archive.writestr("calcnb-0.1.0.dist-info/entry_points.txt", f"[console_scripts]\n{check.ENTRY_POINT}\n")
    missing = check.check_wheel(wheel, compiled=True)
    assert f"{check.PACKAGED}/data/player_study.csv" in missing
    assert f"{check.PACKAGED}/notebooks/teacher/02_wraparound_teacher.ipynb" in missing
    assert any("the compiled search" in name for name in missing)
    assert f"{check.PACKAGED}/notebooks/02_wraparound.ipynb" not in missing
    assert not any("console script" in name for name in missing)


def test_version_names_the_version_the_solver_s_form_and_the_notebooks():
    import calcnb.solver

    lines = version_lines()
    assert lines[0].startswith(f"calcnb {resources.installed_version()}: the solver runs ")
    assert ("compiled" in lines[0]) == calcnb.solver.COMPILED
    assert str(resources.notebooks_root()) in lines[2]


def test_a_clone_that_hides_the_installed_calcnb_is_said(tmp_path, monkeypatch):
    """``pip install .`` then ``python -m calcnb`` in the clone: the clone's folder runs, and a line says so."""
    installed = tmp_path / "site-packages" / "calcnb"
    installed.mkdir(parents=True)
    (installed / "__init__.py").write_text("", encoding="utf-8")

    class Installed:
        def read_text(self, name: str) -> str | None:
            return {"INSTALLER": "pip\n", "direct_url.json": None}.get(name)

        def locate_file(self, name: str) -> Path:
            return installed.parent / name

    class Editable(Installed):
        def read_text(self, name: str) -> str | None:
            return {"INSTALLER": "pip\n", "direct_url.json": '{"dir_info": {"editable": true}}'}.get(name)

    monkeypatch.setattr(resources, "distributions", lambda name: [Installed()])
    assert resources.shadowed_install() == installed
    note = shadow_note()
    assert note is not None and str(installed) in note and "pip install -e ." in note
    monkeypatch.setattr(resources, "distributions", lambda name: [Editable()])
    assert resources.shadowed_install() is None and shadow_note() is None


SOME_NOTEBOOKS = ["02_wraparound.ipynb", "teacher/class_view.ipynb", "pt/teacher/counting_teacher.ipynb"]


@pytest.mark.parametrize("name", SOME_NOTEBOOKS)
def test_the_commands_find_the_notebooks_through_the_resources(name):
    from calcnb.serve.shared.notebooks import notebooks_dir

    assert notebooks_dir() == resources.notebooks_root() and (notebooks_dir() / name).is_file()
