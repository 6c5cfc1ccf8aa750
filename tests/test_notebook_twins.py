"""The Portuguese notebooks are twins of the English ones: the same code, the same exercises, Portuguese prose.

A Portuguese notebook (``notebooks/pt/NAME.ipynb``, ``notebooks/pt/teacher/NAME.ipynb``) has exactly the code
cells of ``notebooks/NAME.ipynb`` (``notebooks/teacher/NAME.ipynb``),
after one first cell that switches calcnb to Portuguese; so the two languages cannot drift apart.
"""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LANGUAGE_CELL = 'from calcnb import set_language\n\nset_language("pt")'
TWINS = sorted(str(path.relative_to(NOTEBOOKS / "pt")) for path in (NOTEBOOKS / "pt").rglob("*.ipynb"))
EXERCISE_CALL = re.compile(r"quiz\.show\(([^)]*)\)")


def _cells(path: Path, kind: str) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == kind]


def _exercise_ids(code: list[str]) -> list[str]:
    return [name for cell in code for call in EXERCISE_CALL.findall(cell) for name in re.findall(r'"([^"]+)"', call)]


def test_the_lesson_notebooks_have_portuguese_twins():
    lessons = {"01_rules.ipynb", "02_wraparound.ipynb", "03_worked_example.ipynb", "04_play.ipynb"}
    assert lessons | {"teacher/02_wraparound_teacher.ipynb"} <= set(TWINS)


@pytest.mark.parametrize("name", TWINS)
def test_a_portuguese_twin_has_the_same_code_and_exercises(name):
    english = _cells(NOTEBOOKS / name, "code")
    portuguese = _cells(NOTEBOOKS / "pt" / name, "code")
    assert portuguese[0] == LANGUAGE_CELL
    assert portuguese[1:] == english
    assert _exercise_ids(portuguese) == _exercise_ids(english)


@pytest.mark.parametrize("name", TWINS)
def test_a_portuguese_twin_speaks_portuguese(name):
    english = _cells(NOTEBOOKS / name, "markdown")
    portuguese = _cells(NOTEBOOKS / "pt" / name, "markdown")
    assert len(portuguese) == len(english)
    words = " ".join(portuguese).lower().split()
    assert {"de", "a", "o", "que"} <= set(words)
    assert not {"the", "and", "which"} & set(words)
