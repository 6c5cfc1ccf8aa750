"""A lesson is one folder: its notebooks ask its exercises in its order, and nothing outside the folder names it.

The lessons are found the way languages are (the folders of ``calcnb/lessons/``), and a lesson of another
installed package by its entry point (``tests/test_lesson_plugin.py``).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from calcnb.exercises.bank import Bank
from calcnb.exercises.items import ExerciseKind
from calcnb.lessons import ALL_LESSONS, BANK, LESSONS, Lesson, discover, lesson

PACKAGE = Path(__file__).resolve().parent.parent / "calcnb"
NOTEBOOKS = PACKAGE.parent / "notebooks"
OWN = [found for found in ALL_LESSONS if found.notebook_folder is None]


def _code(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code")


@pytest.mark.parametrize("found", OWN, ids=[found.key for found in OWN])
@pytest.mark.parametrize("folder", ["", "pt/"])
def test_a_lessons_notebook_asks_its_exercises_in_the_lessons_order_written_once(found, folder):
    code = _code(NOTEBOOKS / f"{folder}{found.notebook}")
    assert f'quiz = lesson("{found.key}").quiz()' in code
    assert "quiz.show(" not in code  # the order is the lesson's, never written again
    counts = [int(count or 1) for count in re.findall(r"quiz\.next\((\d*)", code)]
    assert sum(counts) == len(found.exercises)


def test_the_lessons_are_found_youngest_first_with_one_key_style():
    assert [found.key for found in LESSONS] == ["counting", "wraparound", "evidence"]
    assert [found.key for found in discover()] == [found.key for found in ALL_LESSONS]
    for found in ALL_LESSONS:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", found.key)
        assert set(found.bank) <= set(BANK) and set(found.misconceptions) <= set(BANK.misconceptions)
    assert {found.key for found in ALL_LESSONS} - {found.key for found in LESSONS} == {"rules_example"}


def test_a_lesson_refuses_exercises_it_does_not_have_and_a_bad_key():
    kind = ExerciseKind("one", ((1,),), lambda variant, n: {})
    with pytest.raises(ValueError, match="asks exercises it does not have: two"):
        Lesson("mine", (9, 10), 10, (kind,), ("one", "two"))
    with pytest.raises(ValueError, match="not 'Mine!'"):
        Lesson("Mine!", (9, 10), 10, (kind,), ("one",))
    with pytest.raises(ValueError, match="two exercises have the identifier one"):
        Bank([kind, ExerciseKind("one", ((2,),), lambda variant, n: {})])


def _lesson_words() -> dict[str, set[str]]:
    """Each lesson folder and the words that name its lesson: its key, its notebook's name, its exercises.

    An exercise's identifier of one plain word ("clock", "position") is also a word of the game, so only the
    identifiers of two words or more ("next-wrap", "count-on") are looked for.
    """
    return {found.key: {found.key, found.name, *(name for name in found.bank if "-" in name)} for found in OWN}


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes (prose, where "clock" or "position" are plain words) and of the names in
    ``__all__`` (the module's own functions: ``clock`` may be one)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(target, "id", "") == "__all__" for target in node.targets):
            found.update(id(element) for element in ast.walk(node.value))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings_and_modules(path: Path) -> set[str]:
    """What the module names: each text it holds (a key, an exercise's identifier) and each module it imports,
    with the lesson folders its docstrings point to (``calcnb.lessons.<key>``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in prose:
                found.update(re.findall(r"lessons\.(\w+)", node.value))
            else:
                found.update({node.value.strip(), *re.findall(r"([\w-]+)\.ipynb", node.value)})
                found.update(re.findall(r"lessons\.(\w+)", node.value))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("calcnb.lessons"):
            found.update(node.module.split(".")[2:3])
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[2] for alias in node.names if alias.name.startswith("calcnb.lessons."))
    return found


@pytest.mark.parametrize(
    "path",
    sorted(PACKAGE.rglob("*.py")),  # a lesson's words too are in its own folder (lang/): no catalogue names it
    ids=lambda path: str(path.relative_to(PACKAGE.parent)),
)
def test_no_module_outside_a_lessons_folder_names_that_lesson(path):
    folder = path.relative_to(PACKAGE).parts
    named = _strings_and_modules(path)
    for key, words in _lesson_words().items():
        if folder[:2] == ("lessons", key):
            continue
        assert not named & words, f"{path.relative_to(PACKAGE.parent)} names the lesson {key}: {sorted(named & words)}"


def test_the_check_sees_a_lessons_name_in_a_string_and_an_import(tmp_path):
    module = tmp_path / "example.py"
    module.write_text(
        '"""Prose: the clock, see calcnb.lessons.evidence."""\nfrom calcnb.lessons.counting import widgets\n'
        'ASKED = ["next-wrap"]\nPAGE = "02_wraparound.ipynb"\n',
        encoding="utf-8",
    )
    named = _strings_and_modules(module)
    assert {"counting", "next-wrap", "evidence", "02_wraparound"} <= named and "clock" not in named
    assert lesson("counting").key in _lesson_words()["counting"]


@pytest.mark.parametrize("language", ["en", "pt"])
def test_every_exercise_has_a_class_view_title_in_one_style(language):
    """The class view names each exercise by a short question of its own, never by its full question."""
    from calcnb.i18n import catalogue

    said = catalogue(language)
    for found in OWN:
        for exercise_id in found.bank:
            title = said.get(f"classview.ex.{exercise_id}")
            assert title, f"{language}: no classview.ex.{exercise_id}"
            assert title.endswith("?") and "\n" not in title and len(title) <= 110, title
            assert not title[0].isdigit(), title  # the number is the order's, added by the view
