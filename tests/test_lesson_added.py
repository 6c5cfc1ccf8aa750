"""Adding a lesson is adding its folder (and its notebooks): nothing else of calcnb changes, in either language.

The test copies calcnb and its notebooks into a temporary folder, writes one small lesson there,
``calcnb/lessons/halves/`` (its ``__init__.py`` and its words in ``lang/en.py`` and ``lang/pt.py``) and its
notebook, and runs the copy in fresh interpreters: the lesson is found and listed, its words are there in
English and Portuguese, the translator's listing misses none of them, and every file outside the lesson's
folder and notebook is byte for byte as it was. The same folder, unchanged, published by another installed
package, is found the same way (``tests/test_lesson_plugin.py`` tests a plugin that brings ``messages``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from halves_lesson import LESSON_SOURCE, WORDS

pytestmark = pytest.mark.slow  # a copy of calcnb and fresh interpreters importing it

ROOT = Path(__file__).resolve().parent.parent

NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": ["from calcnb.lessons import lesson\n", 'quiz = lesson("halves").quiz()\n', "quiz.next()"],
        }
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}

# What the fresh interpreter reports: the lessons found, the lesson's words in each language, the keys a
# language lacks once every package's words are in, and who gives the lesson's title.
REPORT = """
import json
from calcnb.i18n import catalogue, missing_keys, owner_of, set_language
from calcnb.i18n.__main__ import import_owners
from calcnb.lessons import LESSONS, lesson, lesson_index

import_owners()
found = lesson("halves")
said = {}
for language in ("en", "pt"):
    set_language(language)
    said[language] = {key: catalogue(language).get(key) for key in %(keys)r}
    said[language]["title"] = found.title
    said[language]["index"] = lesson_index()
print(json.dumps({
    "lessons": [known.key for known in LESSONS],
    "said": said,
    "missing": missing_keys("pt"),
    "owner": owner_of("catalogue.halves.title"),
}))
"""


def _write_lesson(folder: Path) -> None:
    """The lesson's folder: its ``__init__.py`` and its words, one module per language."""
    (folder / "lang").mkdir(parents=True)
    (folder / "__init__.py").write_text(LESSON_SOURCE, encoding="utf-8")
    (folder / "lang" / "__init__.py").write_text('"""The words of the lesson Halves."""\n', encoding="utf-8")
    for language, words in WORDS.items():
        (folder / "lang" / f"{language}.py").write_text(f"MESSAGES = {words!r}\n", encoding="utf-8")


def _fingerprints(root: Path) -> dict[str, str]:
    """Every file under ``root`` (compiled caches aside) by its path, with the SHA-256 of its bytes."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _run(root: Path, *arguments: str, path: Path | None = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=str(path or root), CALCNB_LANG="en")
    return subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, env=environment, cwd=root, timeout=300
    )


def _check_report(shown: subprocess.CompletedProcess) -> dict:
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout.splitlines()[-1])
    for language, words in WORDS.items():
        said = report["said"][language]
        assert {key: said[key] for key in words} == words
        assert said["title"] == words["catalogue.halves.title"]
        assert words["catalogue.halves.title"] in said["index"]
    assert report["missing"] == []
    return report


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """calcnb and its notebooks, copied (compiled caches and C sources aside)."""
    root = tmp_path_factory.mktemp("checkout")
    ignore = shutil.ignore_patterns("__pycache__", "*.c")
    shutil.copytree(ROOT / "calcnb", root / "calcnb", ignore=ignore)
    shutil.copytree(ROOT / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


def test_a_lesson_inside_calcnb_is_its_folder_and_its_notebook(copy):
    before = _fingerprints(copy)
    folder = copy / "calcnb" / "lessons" / "halves"
    _write_lesson(folder)
    notebook = copy / "notebooks" / "halves.ipynb"
    notebook.write_text(json.dumps(NOTEBOOK, indent=1), encoding="utf-8")

    report = _check_report(_run(copy, "-c", REPORT % {"keys": sorted(WORDS["en"])}))
    assert report["lessons"][0] == "halves" and report["owner"] == "calcnb.lessons.halves"
    listing = _run(copy, "-m", "calcnb.i18n", "pt", "--missing")
    assert listing.returncode == 0 and listing.stdout == "", listing.stdout + listing.stderr
    listed = _run(copy, "-m", "calcnb.i18n", "pt")
    assert "catalogue.halves.title\tcalcnb.lessons.halves\tMetades" in listed.stdout.splitlines()

    after = _fingerprints(copy)
    added = {str(path.relative_to(copy)) for path in [notebook, *folder.rglob("*")] if path.is_file()}
    assert set(after) - set(before) == added - {name for name in added if "__pycache__" in name}
    assert {name: digest for name, digest in after.items() if name in before} == before


def test_the_same_folder_published_by_another_package_is_found_the_same_way(tmp_path):
    site = tmp_path / "site"
    _write_lesson(site / "calcnb_halves_words")
    info = site / "calcnb_halves_words-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: calcnb-halves-words\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[calcnb.lessons]\nhalves = calcnb_halves_words:LESSON\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    environment_path = os.pathsep.join([str(site), str(ROOT)])
    report = _check_report(_run(tmp_path, "-c", REPORT % {"keys": sorted(WORDS["en"])}, path=Path(environment_path)))
    assert "halves" in report["lessons"] and report["owner"] == "calcnb_halves_words"
