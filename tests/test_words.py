"""Words beside their owners: each package's ``lang/`` folder, the translator's listing, and no key lost on the way.

Every package with words keeps them in ``lang/<code>.py`` and registers them with ``add_words``; a module
that names a key must have that key's owner registered whenever it runs, or the lookup fails at run time.
The check reads every module (ast) for the keys it names literally (``message("card.bad")``,
``Words("card.bad")``) and asks whether the owner is its own package, i18n, or a package it imports.
"""

from __future__ import annotations

import ast
import csv
import io
from importlib import import_module
from pathlib import Path

import pytest

from calcnb.i18n import (
    LANGUAGES,
    REFERENCE,
    WORDS_FOLDER,
    add_language,
    catalogue,
    owner_of,
    owners,
    remove_language,
)
from calcnb.i18n.__main__ import import_owners, main

PACKAGE = Path(__file__).resolve().parent.parent / "calcnb"
OWNERS = import_owners()
FOLDERS = sorted(folder for folder in PACKAGE.rglob(WORDS_FOLDER) if (folder / f"{REFERENCE}.py").is_file())


# Folders that are units of their own inside a layer: each lesson folder, each room of serve/.
_UNIT_PARENTS = ("lessons", "serve")


def _unit(dotted: str) -> str:
    """The package a dotted module speaks for: a lesson folder or a room of serve/, else its layer, else calcnb."""
    parts = dotted.split(".")
    if len(parts) > 3 and parts[1] in _UNIT_PARENTS and (PACKAGE / parts[1] / parts[2]).is_dir():
        return ".".join(parts[:3])
    return ".".join(parts[:2]) if len(parts) > 2 else "calcnb"


def _owner_name(path: Path) -> str:
    """The package the module at ``path`` speaks for (see :func:`_unit`)."""
    return _unit(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))


def test_every_package_with_a_words_folder_is_registered_and_its_words_are_found():
    assert set(OWNERS) <= set(owners())
    assert {"calcnb.game", "calcnb.ui", "calcnb.lessons", "calcnb.lessons.counting"} <= set(OWNERS)
    for owner in OWNERS:
        words = import_module(f"{owner}.{WORDS_FOLDER}.{REFERENCE}").MESSAGES
        english = catalogue(REFERENCE)
        assert words and all(owner_of(key) == owner and english[key] == text for key, text in words.items())


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: str(folder.relative_to(PACKAGE.parent)))
@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != REFERENCE])
def test_each_folder_words_the_same_keys_in_every_language(folder, language):
    """A translation sits beside its English: a key moved or added in one file is moved or added in both."""
    module = ".".join(folder.relative_to(PACKAGE.parent).parts)
    english = import_module(f"{module}.{REFERENCE}").MESSAGES
    translated = import_module(f"{module}.{language}").MESSAGES
    assert sorted(set(english) ^ set(translated)) == []


def _package_imports() -> dict[str, set[str]]:
    """Each package and every calcnb package it imports, directly or through others (imports in functions too)."""
    direct: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        found = direct.setdefault(_owner_name(path), set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("calcnb."):
                    found.add(_unit(f"{name}.module"))  # the package of the module or package imported
    reach = {}
    for start in direct:
        seen, todo = {start}, [start]
        while todo:
            for package in direct.get(todo.pop(), ()):
                if package not in seen:
                    seen.add(package)
                    todo.append(package)
        reach[start] = seen
    return reach


def _named_keys(path: Path) -> set[str]:
    """The keys a module names literally: the first argument of message(), Words() and has_message()."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ("message", "Words", "has_message") and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


MODULES = sorted(path for path in PACKAGE.rglob("*.py") if WORDS_FOLDER not in path.relative_to(PACKAGE).parts[:-1])


def test_every_key_a_module_names_is_registered_whenever_the_module_runs():
    reach = _package_imports()
    known = catalogue(REFERENCE)
    unknown, unseen = [], []
    for path in MODULES:
        user = _owner_name(path)
        for key in sorted(_named_keys(path)):
            if key not in known:
                unknown.append(f"{path.relative_to(PACKAGE.parent)}: {key}")
                continue
            owner = owner_of(key)
            lesson_folder = owner.startswith("calcnb.lessons.")  # the discovery registers every lesson folder
            seen = owner in ("calcnb.i18n", user) or owner in reach.get(user, ())
            if not seen and not (lesson_folder and "calcnb.lessons" in reach.get(user, ())):
                unseen.append(f"{path.relative_to(PACKAGE.parent)}: {key} (owned by {owner})")
    assert unknown == [], "keys no catalogue has"
    assert unseen == [], "keys whose owner the module does not import"


def test_the_translators_listing_shows_every_key_with_its_owner(capsys):
    assert main(["pt"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(catalogue(REFERENCE))
    assert "illegal.stock_empty\tcalcnb.game\to monte está vazio; não há segunda passagem" in lines
    assert main(["pt", "--missing"]) == 0 and capsys.readouterr().out == ""
    assert main(["en", "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["key", "owner", "en", "en"] and len(rows) == len(catalogue(REFERENCE)) + 1
    assert ["language.choice", "calcnb.i18n", "{code} ({name})", "{code} ({name})"] in rows


def test_the_listing_of_missing_words_gives_the_english_to_translate(capsys):
    draft = catalogue("pt")
    del draft["illegal.stock_empty"], draft["catalogue.counting.title"]
    add_language("xx", "Draft", draft, {})
    try:
        assert main(["xx", "--missing"]) == 1
    finally:
        remove_language("xx")
    assert capsys.readouterr().out.splitlines() == [
        "catalogue.counting.title\tcalcnb.lessons.counting\tCounting in steps",
        "illegal.stock_empty\tcalcnb.game\tthe stock is empty; there is no second pass",
    ]
