"""The ``python -m calcnb`` argument parser: its commands, their options, and the checks on what is typed.

Every help text is a message of the catalogue (``app.help.*``), so the language must be known before
the parser is built: :func:`requested_language` finds ``--lang`` in the command line before parsing,
and :func:`calcnb.serve.cli.main.main` sets it first, so ``python -m calcnb lessons --lang pt --help``
answers in Portuguese. Each option is defined once (:func:`add_language_option`,
:func:`add_server_options`, :func:`add_cap_options`); which runner a command runs is the CLI's affair.
"""

from __future__ import annotations

import argparse
import socket
from collections.abc import Sequence
from pathlib import Path

from calcnb import i18n
from calcnb.core.settings import LANGUAGE
from calcnb.exercises.worksheet import PAPERS
from calcnb.game.errors import quote as quote_input
from calcnb.i18n import message
from calcnb.serve.cli.workspace import default_workspace
from calcnb.serve.shared.caps import (
    DEFAULT_PAGES_PER_DEVICE,
    KERNEL_MEGABYTES,
    MAX_CODE_LENGTH,
    MIN_CODE_LENGTH,
    code_problem,
    default_max_kernels,
)
from calcnb.serve.shared.settings import (
    APP_SERVERS,
    DEFAULT_APP_NOTEBOOK,
    DEFAULT_APP_PORT,
    DEFAULT_CLASS_VIEW_PORT,
    DEFAULT_LAB_PORT,
    DEFAULT_LESSON_PORT,
    DEFAULT_PROJECTOR_PORT,
    LOCALHOST,
    MAX_PAGES,
    MAX_PREHEAT,
    PORT_RANGE,
)

__all__ = [
    "MAX_STUDENTS",
    "VersionAction",
    "add_cap_options",
    "add_language_option",
    "add_server_options",
    "build_parser",
    "class_code_text",
    "host_address",
    "kernel_count",
    "language_code",
    "page_count",
    "paper_size",
    "port_number",
    "requested_language",
    "student_names",
]

LANGUAGE_OPTION = "--lang"
PROG = "python -m calcnb"
#: The most students one ``worksheets --students N`` makes sheets for.
MAX_STUDENTS = 500


# ------------------------------------------------------------ what may be typed


def port_number(text: str) -> int:
    """An argparse type: a port, 1 to 65535, or 0 for any free one (a clear message otherwise)."""
    try:
        port = int(text.strip())
    except ValueError:
        port = -1
    if not PORT_RANGE[0] <= port <= PORT_RANGE[1]:
        raise argparse.ArgumentTypeError(message("app.bad_port", text=quote_input(text)))
    return port


def kernel_count(text: str) -> int:
    """An argparse type: how many kernels to keep ready, 0 to :data:`MAX_PREHEAT` (a clear message otherwise)."""
    try:
        count = int(text.strip())
    except ValueError:
        count = -1
    if not 0 <= count <= MAX_PREHEAT:
        raise argparse.ArgumentTypeError(message("app.bad_preheat", text=quote_input(text), most=MAX_PREHEAT))
    return count


def page_count(text: str) -> int:
    """An argparse type: a cap on pages (``--max-kernels``, ``--max-pages-per-device``), 1 to :data:`MAX_PAGES`."""
    try:
        count = int(text.strip())
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_PAGES:
        raise argparse.ArgumentTypeError(message("app.bad_cap", text=quote_input(text), most=MAX_PAGES))
    return count


def class_code_text(text: str) -> str:
    """An argparse type: a class code, 4 to 32 letters or digits (spaces and hyphens ignored)."""
    problem = code_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def host_address(text: str) -> str:
    """An argparse type: an address to listen on, which must resolve (a clear message otherwise)."""
    host = text.strip()
    if not host:
        raise argparse.ArgumentTypeError(message("app.empty_host"))
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise argparse.ArgumentTypeError(message("app.unknown_host", text=quote_input(host), reason=reason)) from None
    return host


def student_names(text: str) -> list[str]:
    """An argparse type: the students of ``worksheets --students``, as names or as a count.

    Names are separated by commas (``"Ana,Bruno"``); a whole number N gives the numbers 1 to N, each the
    nickname of one student (the sheets of a class that types its numbers).

    >>> student_names(" Ana, Bruno ,"), student_names("3")
    (['Ana', 'Bruno'], ['1', '2', '3'])
    """
    words = [word.strip() for word in text.split(",") if word.strip()]
    if len(words) == 1 and words[0].isdigit():
        count = int(words[0])
        if not 1 <= count <= MAX_STUDENTS:
            raise argparse.ArgumentTypeError(message("app.bad_students", text=quote_input(text), most=MAX_STUDENTS))
        return [str(number) for number in range(1, count + 1)]
    if not words:
        raise argparse.ArgumentTypeError(message("app.bad_students", text=quote_input(text), most=MAX_STUDENTS))
    return words


def paper_size(text: str) -> str:
    """An argparse type: a paper size of the worksheets (:data:`~calcnb.exercises.worksheet.PAPERS`), in any case."""
    for paper in PAPERS:
        if text.strip().lower() == paper.lower():
            return paper
    raise argparse.ArgumentTypeError(message("app.bad_paper", text=quote_input(text), papers=", ".join(PAPERS)))


def language_code(text: str) -> str:
    """An argparse type: a language code, in any case (``--lang PT`` is ``pt``); argparse checks it is spoken."""
    return text.strip().lower()


def requested_language(argv: Sequence[str]) -> str | None:
    """The language ``--lang`` asks for in ``argv`` (the last one given), if calcnb speaks it; else None.

    Read before the parser is built, so its help is in that language. Nothing after ``--`` is an option.

    >>> requested_language(["lessons", "--lang", "PT", "--help"]), requested_language(["app", "--lang=xx"])
    ('pt', None)
    """
    found = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == LANGUAGE_OPTION and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith(f"{LANGUAGE_OPTION}="):
            found = word.partition("=")[2]
    if found is None:
        return None
    code = language_code(found)
    return code if code in i18n.LANGUAGES else None


# ------------------------------------------------------------ the options commands share


def add_language_option(command: argparse.ArgumentParser) -> None:
    """``--lang``: the language of everything the command and its server show (default: the setting, else English).

    The default said is the language the setting :data:`calcnb.core.settings.LANGUAGE` names, if calcnb speaks it.
    """
    setting = language_code(LANGUAGE.read() or "")
    command.add_argument(
        LANGUAGE_OPTION,
        type=language_code,
        choices=i18n.LANGUAGES,
        default=None,
        help=message(
            "app.help.lang",
            choices=", ".join(i18n.LANGUAGES),
            default=setting if setting in i18n.LANGUAGES else i18n.REFERENCE,
        ),
    )


def add_server_options(command: argparse.ArgumentParser, default_port: int | None) -> None:
    """The options every serving command takes: port, host, browser, language.

    ``default_port`` None: the command chooses by what it serves (``app``:
    :func:`calcnb.serve.shared.notebooks.default_app_port`).
    """
    said = message("app.help.app_port", lesson=DEFAULT_LESSON_PORT, app=DEFAULT_APP_PORT)
    command.add_argument(
        "--port",
        type=port_number,
        default=default_port,
        help=said if default_port is None else message("app.help.port", default=default_port),
    )
    command.add_argument(
        "--host", type=host_address, default=LOCALHOST, help=message("app.help.host", default=LOCALHOST)
    )
    command.add_argument("--no-browser", action="store_true", help=message("app.help.no_browser"))
    add_language_option(command)


def add_cap_options(command: argparse.ArgumentParser) -> None:
    """The options of the caps on pages with a kernel (see :func:`calcnb.serve.cli.commands.cap_options`)."""
    command.add_argument(
        "--max-kernels",
        metavar="N",
        type=page_count,
        default=None,
        help=message("app.help.max_kernels", megabytes=KERNEL_MEGABYTES, default=default_max_kernels()),
    )
    command.add_argument(
        "--max-pages-per-device",
        metavar="N",
        type=page_count,
        default=None,
        help=message("app.help.max_pages_per_device", default=DEFAULT_PAGES_PER_DEVICE),
    )


# ------------------------------------------------------------ the commands


def _add_command(
    commands: argparse._SubParsersAction, name: str, about: str, epilog: str | None = None
) -> argparse.ArgumentParser:
    """The parser of the command ``name``: its help and description the message ``about``, its epilog ``epilog``'s."""
    return commands.add_parser(
        name, help=message(about), description=message(about), epilog=message(epilog) if epilog else None
    )


def _add_app(commands: argparse._SubParsersAction) -> None:
    """``app [NOTEBOOK]``: a notebook as a web app, with the class's options."""
    app = _add_command(commands, "app", "app.help.app", "app.epilog")
    app.add_argument(
        "path", nargs="?", metavar="NOTEBOOK", help=message("app.help.app_notebook", default=DEFAULT_APP_NOTEBOOK)
    )
    add_server_options(app, None)
    app.add_argument("--class-log", metavar="PATH_OR_URL", default=None, help=message("app.help.class_log"))
    app.add_argument("--no-reveal", action="store_true", help=message("app.help.no_reveal"))
    app.add_argument(
        "--server", choices=APP_SERVERS, default=APP_SERVERS[0], help=message("app.help.server", default=APP_SERVERS[0])
    )
    app.add_argument("--preheat", metavar="N", type=kernel_count, default=0, help=message("app.help.preheat"))
    add_cap_options(app)
    app.add_argument(
        "--class-code",
        metavar="CODE",
        type=class_code_text,
        default=None,
        help=message("app.help.class_code", shortest=MIN_CODE_LENGTH, longest=MAX_CODE_LENGTH),
    )


def _add_lab(commands: argparse._SubParsersAction) -> None:
    """``lab [PATH] [--workspace DIR]``: JupyterLab on the user's own copy of the notebooks."""
    lab = _add_command(commands, "lab", "app.help.lab", "app.epilog_lab")
    lab.add_argument("path", nargs="?", metavar="PATH", help=message("app.help.lab_path"))
    lab.add_argument(
        "--workspace",
        metavar="DIR",
        type=Path,
        default=None,
        help=message("app.help.workspace", default=default_workspace()),
    )
    add_server_options(lab, DEFAULT_LAB_PORT)


def _add_lessons(commands: argparse._SubParsersAction) -> None:
    """``lessons``: the lesson index."""
    lessons = _add_command(commands, "lessons", "app.help.lessons")
    add_language_option(lessons)


def _add_class_view(commands: argparse._SubParsersAction) -> None:
    """``class-view LOG``: the teacher's live view of a class log, or its summary."""
    view = _add_command(commands, "class-view", "app.help.class_view", "app.epilog_class_view")
    view.add_argument("log", metavar="PATH_OR_URL", help=message("app.help.class_view_log"))
    view.add_argument("--summary", metavar="FILE", default=None, help=message("app.help.summary"))
    view.add_argument("--lesson", metavar="NAME", default=None, help=message("app.help.class_view_lesson"))
    view.add_argument(
        "--projector", action="store_true", help=message("app.help.projector", port=DEFAULT_PROJECTOR_PORT)
    )
    add_server_options(view, DEFAULT_CLASS_VIEW_PORT)
    # the default port follows --projector (the class view's, or the projector's own), chosen once parsed
    view.set_defaults(port=None)
    for action in view._actions:
        if action.dest == "port":
            action.help = message(
                "app.help.class_view_port", view=DEFAULT_CLASS_VIEW_PORT, projector=DEFAULT_PROJECTOR_PORT
            )


def _add_worksheets(commands: argparse._SubParsersAction) -> None:
    """``worksheets LESSON``: a lesson's worksheets and answer sheets, as PDF files."""
    sheets = _add_command(commands, "worksheets", "app.help.worksheets", "app.epilog_worksheets")
    sheets.add_argument("lesson", metavar="LESSON", help=message("app.help.worksheets_lesson"))
    sheets.add_argument("--class-log", metavar="PATH_OR_URL", default=None, help=message("app.help.sheets_log"))
    sheets.add_argument(
        "--students",
        metavar="NAMES_OR_N",
        type=student_names,
        default=None,
        help=message("app.help.students", most=MAX_STUDENTS),
    )
    sheets.add_argument(
        "--paper", type=paper_size, default=PAPERS[0], help=message("app.help.paper", papers=", ".join(PAPERS))
    )
    sheets.add_argument("--folder", metavar="DIR", type=Path, default=Path(), help=message("app.help.sheets_folder"))
    add_language_option(sheets)


class VersionAction(argparse.Action):
    """``--version``: the version, the solver's form and where the notebooks are (worked out only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from calcnb.serve.cli.about import version_lines

        print("\n".join(version_lines()))
        parser.exit()


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The ``calcnb`` (``python -m calcnb``) argument parser, one subparser per command, in the current language."""
    parser = argparse.ArgumentParser(prog=prog, description=message("app.description"), epilog=message("app.epilog"))
    parser.add_argument("--version", action=VersionAction, help=message("app.help.version"))
    commands = parser.add_subparsers(dest="command", required=True)
    for add in (_add_app, _add_lab, _add_lessons, _add_class_view, _add_worksheets):
        add(commands)
    return parser
