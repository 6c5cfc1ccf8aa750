"""The README's API tour runs as written, its two set-up commands are the ones CI uses (and the teacher's guide
says the same install), and the conda environments install what pyproject.toml asks for: the users' one lean,
the developers' one with the tests."""

import doctest
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_api_tour_runs_as_written():
    tour = "\n".join(re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL))
    assert ">>>" in tour
    parser = doctest.DocTestParser()
    test = parser.get_doctest(tour, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
    assert runner.tries >= 8


def test_ci_runs_the_readme_test_command():
    commands = re.findall(r"^python3 -m venv .*$", README, flags=re.MULTILINE)
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert commands == [
        f"{venv}pip install . && calcnb lab",  # the package, then the user's own copy of the notebooks
        f'{venv}pip install -e ".[test]" && python -m pytest -n 2',
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "grep -m1 '^python3 -m venv .* pip install -e \"\\.\\[test\\]\"' README.md" in ci
    assert "scripts/smoke_installed.py" in ci  # after the test command: the installed package, from its wheel


def test_the_teachers_guide_installs_with_the_readmes_line_and_the_smoke_test_runs_its_lines():
    # The smoke test runs the README's set-up line on a fresh clone, and every calcnb line of the guide as
    # written: the guide must say the same install, and each of its lines must be one the smoke test can check.
    from scripts.smoke_installed import (
        SmokeFailure,
        guide_line_kind,
        guide_lines,
        readme_setup_line,
        readme_wheel_command,
    )

    guide = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
    assert readme_setup_line() in guide.splitlines()
    assert "git clone ADDRESS calcnb" in guide
    lines = guide_lines()
    kinds = {shlex.join(words): guide_line_kind(words) for words in lines}
    assert kinds == {
        "calcnb lab": "lab",
        "calcnb app 02_wraparound": "serve",
        "calcnb app 02_wraparound --host 0.0.0.0 --class-log lesson.db --class-code maths7": "serve",
        "calcnb class-view lesson.db --lesson 02_wraparound": "serve",
        "calcnb class-view lesson.db --lesson 02_wraparound --projector": "serve",
        "calcnb worksheets 02_wraparound --class-log lesson.db --students Ana,Bruno,Carla --paper a4": "worksheets",
        "calcnb class-view lesson.db --summary summary.pdf": "summary",
    }
    with pytest.raises(SmokeFailure, match="does not know how to check"):
        guide_line_kind(["calcnb", "something-new"])
    assert readme_wheel_command() == ["pip", "wheel", "--no-deps", ".", "-w", "dist"]


def _requirements(pyproject: str, section: str) -> list[str]:
    """The names a list of pyproject.toml requires (``dependencies = [...]``, ``test = [...]``)."""
    block = re.search(rf"^{section} = \[\n(.*?)^\]", pyproject, flags=re.MULTILINE | re.DOTALL).group(1)
    return re.findall(r'^\s+"([a-zA-Z][\w-]*)(?:\[[\w,]+\])?[<>=]', block, flags=re.MULTILINE)


def _installs(environment: str, name: str) -> bool:
    conda_names = {"build": "python-build", "isal": "python-isal"}  # conda-forge's names
    wanted = conda_names.get(name, name).lower()
    return re.search(rf"^\s+- {re.escape(wanted)}\b", environment.lower(), flags=re.MULTILINE) is not None


def test_conda_environments_install_what_pyproject_asks_for():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    users = (ROOT / "environment.yml").read_text(encoding="utf-8")
    developers = (ROOT / "environment-dev.yml").read_text(encoding="utf-8")
    running, testing = _requirements(pyproject, "dependencies"), _requirements(pyproject, "test")
    assert "jupyterlab" in running and "nbval" in testing and "build" in testing
    assert [name for name in running if not _installs(users, name)] == []
    assert [name for name in running if not _installs(developers, name)] == []
    # playwright and its axe-core binding come through pip (the environment installs calcnb[test] with pip).
    through_pip = {"playwright", "axe-playwright-python"}
    assert [name for name in testing if name not in through_pip and not _installs(developers, name)] == []
    # The users' environment is lean: calcnb and what it runs on, no test tool.
    assert [name for name in testing if name not in running and _installs(users, name)] == []
    assert "conda-forge" in users and "conda-forge" in developers
    assert re.search(r"^\s+- \.  #", users, flags=re.MULTILINE) and "- -e .[test]" in developers
    assert users.startswith("# conda env create -f environment.yml && conda activate calcnb && calcnb lab")
