"""A lesson from another installed package: found by its entry point, listed, judged, printed and shown to the teacher.

The test writes a tiny package, ``calcnb_halves`` (one exercise: half of an even number), with the
``.dist-info`` an installer writes (its ``entry_points.txt`` names the lesson under ``calcnb.lessons``), in a
folder of its own, and runs calcnb in fresh interpreters that have that folder on their path: no file of
calcnb changes for it.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from halves_lesson import lesson_source

pytestmark = pytest.mark.slow  # fresh interpreters, each importing calcnb

LESSON_SOURCE = lesson_source(messages=True)  # its words in Lesson.messages, as plugins wrote them before lang/


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory) -> Path:
    """A folder holding the installed package ``calcnb_halves`` and its ``.dist-info``."""
    root = tmp_path_factory.mktemp("site")
    (root / "calcnb_halves").mkdir()
    (root / "calcnb_halves" / "__init__.py").write_text(textwrap.dedent(LESSON_SOURCE), encoding="utf-8")
    info = root / "calcnb_halves-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: calcnb-halves\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[calcnb.lessons]\nhalves = calcnb_halves:LESSON\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    return root


def _run(plugin_path: Path, *arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(plugin_path), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, env=environment, cwd=cwd, timeout=300
    )


def test_the_lesson_is_listed_in_both_languages(plugin_path):
    shown = _run(plugin_path, "-m", "calcnb", "lessons")
    assert shown.returncode == 0, shown.stderr
    assert "1. Halves (ages 7–8, about 15 minutes, 1 exercises)" in shown.stdout
    assert "python -m calcnb app halves" in shown.stdout
    assert "Counting in steps" in shown.stdout  # calcnb's own lessons are all still there
    portuguese = _run(plugin_path, "-m", "calcnb", "lessons", "--lang", "pt")
    assert "Metades" in portuguese.stdout


def test_its_exercises_are_judged_and_its_worksheet_is_made(plugin_path, tmp_path):
    code = f"""
import json
from calcnb.exercises.items import judge
from calcnb.exercises.worksheet import save_sheets
from calcnb.lessons import BANK, lesson

halves = lesson("halves")
item = halves.bank["halves-even"].item(1)
verdicts = {{text: judge(item, text) for text in ("6", "six", "12", "K", "3 4")}}
written = save_sheets(halves, {str(tmp_path)!r}, ["Ana"])
print(json.dumps({{
    "in_bank": "halves-even" in BANK,
    "verdicts": {{text: [said.correct, said.misconception, said.text] for text, said in verdicts.items()}},
    "files": [path.name for path in written],
}}))
"""
    ran = _run(plugin_path, "-c", code)
    assert ran.returncode == 0, ran.stderr
    found = json.loads(ran.stdout)
    assert found["in_bank"]
    verdicts = found["verdicts"]
    assert verdicts["6"][0] is True and verdicts["six"][0] is True
    assert verdicts["12"][:2] == [False, "doubled"] and "not half" in verdicts["12"][2]
    assert verdicts["K"][0] is None and verdicts["3 4"][0] is None  # a card for a count; two answers at once
    assert found["files"] == ["halves-worksheet-A4.pdf", "halves-answers-A4.pdf"]
    from pypdf import PdfReader

    sheet = " ".join(page.extract_text() for page in PdfReader(tmp_path / "halves-worksheet-A4.pdf").pages)
    assert "Halves — worksheet" in sheet and "What is half of" in sheet


def test_its_answers_reach_the_class_view_and_its_summary(plugin_path, tmp_path):
    log = tmp_path / "lesson.db"
    code = f"""
import time
from calcnb.classlog.store import open_class_log
from calcnb.exercises.items import Attempt, Outcome
from calcnb.lessons.class_view import LessonClassView

log = open_class_log({str(log)!r})
log.join("Ana")
log.record("Ana", Attempt("halves-even", 1, "24", Outcome.WRONG, "doubled", "en", time.time()))
log.record("Ana", Attempt("halves-even", 1, "6", Outcome.RIGHT, None, "en", time.time()))
view = LessonClassView(log)
assert view.refresh()
print(view.lesson_name)
print(view.exercises.value)
log.close()
"""
    ran = _run(plugin_path, "-c", code)
    assert ran.returncode == 0, ran.stderr
    lesson_name, table = ran.stdout.split("\n", 1)
    assert lesson_name == "halves"  # the view follows the lesson of the answers
    assert "1. What is half of an even number?" in table and "doubled instead of halved: 100% (1)" in table
    summary = tmp_path / "summary.csv"
    shown = _run(plugin_path, "-m", "calcnb", "class-view", str(log), "--summary", str(summary))
    assert shown.returncode == 0, shown.stderr
    rows = list(csv.reader(summary.read_text(encoding="utf-8-sig").splitlines()))
    assert rows[0][-1] == "1. What is half of an even number?"
    assert rows[1][0] == "Ana" and rows[1][-1] == message_right()


def message_right() -> str:
    from calcnb.i18n import message

    return message("classview.summary.right")


def test_a_broken_plugin_is_left_out_with_a_warning_and_calcnb_still_works(tmp_path):
    root = tmp_path / "site"
    (root / "broken_lesson").mkdir(parents=True)
    (root / "broken_lesson" / "__init__.py").write_text("LESSON = 42\n", encoding="utf-8")
    info = root / "broken_lesson-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-lesson\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[calcnb.lessons]\nbroken = broken_lesson:LESSON\n", encoding="utf-8")
    shown = _run(root, "-m", "calcnb", "lessons")
    assert shown.returncode == 0, shown.stderr
    assert "the lesson broken_lesson:LESSON was left out" in shown.stderr
    assert "not a int" in shown.stderr and "Counting in steps" in shown.stdout
