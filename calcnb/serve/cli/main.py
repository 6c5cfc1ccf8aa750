"""The command line, ``calcnb`` (or ``python -m calcnb``): serve the notebooks as the classroom app (Voila) or in
JupyterLab, list the lessons, show a class log, print worksheets.

``calcnb app [NOTEBOOK]`` runs a notebook as a web app: the reader sees the prose, the board and the
buttons, never the code. ``calcnb lab [PATH]`` opens JupyterLab on the user's own copy of the notebooks
(:mod:`calcnb.serve.cli.workspace`); ``lessons`` lists the lessons; ``class-view LOG`` shows the teacher a
class log; ``worksheets LESSON`` writes a lesson's worksheets; ``--version`` says which calcnb runs.
Servers print the address to open and stop cleanly on Ctrl-C. ``--host 0.0.0.0`` is for a trusted
classroom network only (``docs/design.md``). ``calcnb`` is the console script of ``pyproject.toml``.

This module only reads the command line and hands it to a runner; the rest of the command line is
split by job: the servers' settings (:mod:`calcnb.serve.shared.settings`), the notebooks
(:mod:`calcnb.serve.shared.notebooks`), the server commands (:mod:`calcnb.serve.cli.commands`) and processes
(:mod:`calcnb.serve.cli.process`), the class's address (:mod:`calcnb.serve.cli.address`), the kernels'
environment (:mod:`calcnb.serve.cli.environments`), the parser (:mod:`calcnb.serve.cli.parser`) and the
runners (:mod:`calcnb.serve.cli.runners`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from calcnb.i18n import set_language
from calcnb.serve.cli.about import shadow_note
from calcnb.serve.cli.parser import build_parser, requested_language
from calcnb.serve.cli.runners import run_app, run_class_view, run_lab, run_lessons, run_worksheets
from calcnb.serve.shared.errors import AppError

__all__ = ["RUNNERS", "AppError", "build_parser", "main"]

#: The runner of each command: it takes the parsed command line and returns the exit code.
RUNNERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "app": run_app,
    "lab": run_lab,
    "lessons": run_lessons,
    "class-view": run_class_view,
    "worksheets": run_worksheets,
}


def program_name() -> str:
    """How this command was typed: ``calcnb`` (the console script) or ``python -m calcnb``."""
    return "calcnb" if Path(sys.argv[0]).stem.lower() == "calcnb" else "python -m calcnb"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``calcnb`` and ``python -m calcnb``; returns the exit code (2 for a bad command line).

    The language ``--lang`` asks for is set before the parser is built, so even ``--help`` speaks it.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    language = requested_language(argv)
    if language is not None:
        set_language(language)  # the parser's help, and this command's own messages
    arguments = build_parser(program_name()).parse_args(argv)
    if getattr(arguments, "lang", None):
        set_language(arguments.lang)
    note = shadow_note()
    if note is not None:  # python -m calcnb inside a clone, with calcnb installed elsewhere: say which runs
        print(note, file=sys.stderr, flush=True)
    try:
        return RUNNERS[arguments.command](arguments)
    except AppError as error:
        print(f"calcnb {arguments.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C before the server started
        return 130
