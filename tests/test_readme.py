"""The README's API tour runs as written, and its two set-up commands are the ones CI uses."""

import doctest
import re
from pathlib import Path

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
        f"{venv}pip install -e . && python -m calcnb lab",
        f'{venv}pip install -e ".[test]" && python -m pytest',
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "grep -m1 '^python3 -m venv .* pip install -e \"\\.\\[test\\]\"' README.md" in ci


def test_conda_environment_installs_what_pyproject_asks_for():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    environment = (ROOT / "environment.yml").read_text(encoding="utf-8")
    required = re.findall(r'^\s+"([a-zA-Z][\w-]*)(?:\[[\w,]+\])?[<>=]', pyproject, flags=re.MULTILINE)
    assert "jupyterlab" in required and "nbval" in required
    # playwright and its axe-core binding come through pip (the environment installs calcnb[test] with pip).
    through_pip = {"playwright", "axe-playwright-python"}
    missing = [name for name in required if name not in through_pip and f"- {name}" not in environment]
    assert missing == []
    assert "conda-forge" in environment
    assert "- -e .[test]" in environment
