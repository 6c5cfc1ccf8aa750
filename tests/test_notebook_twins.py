"""The Portuguese notebooks are twins of the English ones: the same code, the same exercises, Portuguese prose.

A Portuguese notebook (``notebooks/pt/NAME.ipynb``, ``notebooks/pt/teacher/NAME.ipynb``) has exactly the code
cells of ``notebooks/NAME.ipynb`` (``notebooks/teacher/NAME.ipynb``), comments aside (they are in Portuguese),
after one first cell that switches calcnb to Portuguese; so the two languages cannot drift apart.
"""

import importlib
import io
import json
import pkgutil
import re
import tokenize
from pathlib import Path

import pytest

import calcnb
from calcnb.i18n import catalogue
from calcnb.lessons import ALL_LESSONS, BANK

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LANGUAGE_CELL = 'from calcnb import set_language\n\nset_language("pt")'
TWINS = sorted(str(path.relative_to(NOTEBOOKS / "pt")) for path in (NOTEBOOKS / "pt").rglob("*.ipynb"))
EXERCISE_CALL = re.compile(r"quiz\.(?:show|next)\(([^)]*)\)")
# The students' pages: the rules and play, and every lesson's notebook and teacher's notes (as the lessons name them).
LESSONS = sorted(
    {"01_rules.ipynb", "04_play.ipynb"}
    | {found.notebook for found in ALL_LESSONS if found.notebook_folder is None}
    | {found.teacher_notebook for found in ALL_LESSONS if found.notebook_folder is None and found.teacher_notebook}
)


def _cells(path: Path, kind: str) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == kind]


def _split_comments(code: str) -> tuple[str, list[str]]:
    """The code with its comments taken out (and the spaces before them), and the comments' words."""
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    comments = [token for token in tokens if token.type == tokenize.COMMENT]
    lines = code.split("\n")
    for token in reversed(comments):
        row, column = token.start
        lines[row - 1] = lines[row - 1][:column].rstrip()
    return "\n".join(lines), [token.string.lstrip("#").strip() for token in comments]


def _exercise_ids(code: list[str]) -> list[str]:
    """The arguments of every quiz call, in order: the exercises a page shows (by number or by identifier)."""
    return [call for cell in code for call in EXERCISE_CALL.findall(cell)]


def test_the_lesson_notebooks_have_portuguese_twins():
    assert "counting.ipynb" in LESSONS and "teacher/02_wraparound_teacher.ipynb" in LESSONS
    assert set(LESSONS) <= set(TWINS)


@pytest.mark.parametrize("name", TWINS)
def test_a_portuguese_twin_has_the_same_code_and_exercises(name):
    english = _cells(NOTEBOOKS / name, "code")
    portuguese = _cells(NOTEBOOKS / "pt" / name, "code")
    assert portuguese[0] == LANGUAGE_CELL
    assert [_split_comments(cell)[0] for cell in portuguese[1:]] == [_split_comments(cell)[0] for cell in english]
    assert _exercise_ids(portuguese) == _exercise_ids(english)


@pytest.mark.parametrize("name", TWINS)
def test_a_portuguese_twin_comments_its_code_in_portuguese(name):
    english = [said for cell in _cells(NOTEBOOKS / name, "code") for said in _split_comments(cell)[1]]
    portuguese = [said for cell in _cells(NOTEBOOKS / "pt" / name, "code")[1:] for said in _split_comments(cell)[1]]
    assert len(portuguese) == len(english)
    for said, original in zip(portuguese, english):
        assert said != original, f"a comment left in English: {said!r}"
        assert not _words(said) & {"the", "and", "your", "with", "once", "until", "one", "not", "box"}, said


def test_comments_are_told_apart_from_code():
    code = 'board = Board()  # a random deal\nprint("# not a comment")  # but this is\n'
    assert _split_comments(code) == ('board = Board()\nprint("# not a comment")\n', ["a random deal", "but this is"])


@pytest.mark.parametrize("name", TWINS)
def test_a_portuguese_twin_speaks_portuguese(name):
    english = _cells(NOTEBOOKS / name, "markdown")
    portuguese = _cells(NOTEBOOKS / "pt" / name, "markdown")
    assert len(portuguese) == len(english)
    words = " ".join(portuguese).lower().split()
    assert {"de", "a", "o", "que"} <= set(words)
    assert not {"the", "and", "which"} & set(words)


def _words(text: str) -> set[str]:
    """The words of three letters or more in ``text``, its quoted parts (input, keys) left out, lower-cased."""
    return {word.lower() for word in re.findall(r"[^\W\d_]{3,}", re.sub(r"'[^']*'", "", text))}


def _english_only_words() -> set[str]:
    """Words of calcnb's English messages that no Portuguese message uses: a Portuguese reader never meets them."""
    for module in pkgutil.iter_modules(calcnb.__path__):  # every module registers its messages on import
        if module.name != "__main__":
            importlib.import_module(f"calcnb.{module.name}")
    english = set().union(*map(_words, catalogue("en").values()))
    return english - set().union(*map(_words, catalogue("pt").values()))


def _shown(path: Path) -> str:
    """The stored text a notebook shows: printed output and results, less the text stand-in of a widget."""
    shown = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            shown.append("".join(output.get("text", "")))
            data = output.get("data", {})
            if "application/vnd.jupyter.widget-view+json" not in data:
                shown.append("".join(data.get("text/plain", "")))
    # an object's stand-in ("<IPython.core.display.Image object>") is Python's, in no language
    return re.sub(r"<[\w.]+ object(?: at 0x[0-9a-f]+)?>", "", "\n".join(shown))


def _without_exercise_ids(text: str) -> str:
    """The text less the exercises' identifiers (``next-complete``), which are the same in both languages."""
    for exercise_id in sorted(BANK, key=len, reverse=True):
        text = text.replace(exercise_id, "")
    return text


@pytest.mark.parametrize("name", LESSONS)
def test_a_portuguese_lesson_prints_portuguese(name):
    """What the code prints in a Portuguese notebook comes from the catalogue in Portuguese, not from English words."""
    english = _without_exercise_ids(_shown(NOTEBOOKS / name))
    portuguese = _without_exercise_ids(_shown(NOTEBOOKS / "pt" / name))
    if _words(english):  # a page that prints words (not only widgets): the check can see its English
        assert _words(english) & _english_only_words()
    assert not _words(portuguese) & _english_only_words()


@pytest.mark.parametrize("twin", TWINS)
def test_the_portuguese_notebooks_call_the_game_by_its_portuguese_name(twin):
    """The game is the Cálculo in Portuguese, as the board's title calls it; its English name is given only as such."""
    name = catalogue("pt")["board.draw.title"]
    prose = "\n".join(_cells(NOTEBOOKS / "pt" / twin, "markdown"))
    assert "Calculation" not in prose.replace("*Calculation* em inglês", "")
    if twin in ("01_rules.ipynb", "04_play.ipynb"):
        assert name in prose
