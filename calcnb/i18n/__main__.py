"""Every word of one language, whoever owns it: ``python -m calcnb.i18n pt`` (``--missing``, ``--csv``).

Words sit beside their owners (each package's ``lang/`` folder, see :func:`calcnb.i18n.add_words`), so
a translator needs one place that gathers them: this imports every calcnb package with a words folder
and prints each key with the package that gives it and its text, one tab-separated line a key (a
newline or tab inside a text written ``\\n``, ``\\t``) or CSV. With ``--missing`` it lists only the
keys the language has no text for, with the English to translate.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from importlib import import_module
from pathlib import Path

import calcnb.i18n as i18n  # LANGUAGES read when asked: a draft language may have been added since import
from calcnb.i18n import REFERENCE, WORDS_FOLDER, add_words, catalogue, missing_keys, owner_of

PACKAGE = Path(__file__).resolve().parent.parent  # calcnb/, whose folders are found on disk, not imported by name


def import_owners() -> tuple[str, ...]:
    """Import and register every calcnb package with a words folder; their dotted names, sorted.

    The lessons' own folders are found by the lesson discovery too, so this also registers them once.
    """
    found = []
    for folder in sorted(PACKAGE.rglob(WORDS_FOLDER)):
        owner = folder.parent
        if folder.is_dir() and (owner / "__init__.py").is_file() and "__pycache__" not in folder.parts:
            name = ".".join(owner.relative_to(PACKAGE.parent).parts)
            import_module(name)  # its __init__ registers its words, and may need its own words to finish
            add_words(name)
            found.append(name)
    return tuple(found)


def rows(language: str, *, missing: bool = False) -> list[tuple[str, str, str, str]]:
    """Each key of ``language`` as (key, owner package, English text, the language's text), sorted by key.

    With ``missing``, only the keys the language lacks (their own text empty).
    """
    reference, said = catalogue(REFERENCE), catalogue(language)
    keys = missing_keys(language) if missing else sorted(reference)
    return [(key, owner_of(key), reference[key], said.get(key, "")) for key in keys]


def _one_line(text: str) -> str:
    """``text`` on one line: backslashes, newlines and tabs escaped, so each key keeps one line."""
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def main(argv: Sequence[str] | None = None) -> int:
    """List one language's words; returns the exit status (1 with ``--missing`` when a key lacks a text)."""
    parser = argparse.ArgumentParser(prog="python -m calcnb.i18n", description=__doc__.split("\n")[0])
    parser.add_argument("language", help=f"a language code: {', '.join(i18n.LANGUAGES)}")
    parser.add_argument("--missing", action="store_true", help="only the keys the language has no text for")
    parser.add_argument("--csv", action="store_true", help="CSV (key, owner, English, text) instead of tab-separated")
    arguments = parser.parse_args(argv)
    import_owners()
    if arguments.language not in i18n.LANGUAGES:
        parser.error(f"unknown language {arguments.language!r}; calcnb speaks {', '.join(i18n.LANGUAGES)}")
    found = rows(arguments.language, missing=arguments.missing)
    if arguments.csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(("key", "owner", REFERENCE, arguments.language))
        writer.writerows(found)
    else:
        for key, owner, english, text in found:
            sys.stdout.write(f"{key}\t{owner}\t{_one_line(english if arguments.missing else text)}\n")
    return 1 if arguments.missing and found else 0


if __name__ == "__main__":
    sys.exit(main())
