"""The runners of the commands: what ``app``, ``lab``, ``lessons``, ``class-view`` and ``worksheets`` do once parsed.

Each runner takes the parsed command line and returns the exit code. It checks what was asked before
anything is made (the port, the lesson, the class log), builds the server's environment
(:mod:`calcnb.serve.cli.environments`) and command (:mod:`calcnb.serve.cli.commands`), and runs it in the
foreground (:func:`calcnb.serve.cli.process.serve`). The lessons are looked up here alone, in
:mod:`calcnb.lessons`, and only when a command needs them.
"""

from __future__ import annotations

import argparse
import functools
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote

from calcnb.i18n import message
from calcnb.serve.cli.commands import lab_command, server_environment, solara_command, voila_command
from calcnb.serve.cli.environments import (
    checkpoint_class_log,
    class_code_environment,
    class_log_environment,
    class_view_environment,
    open_log,
    projector_environment,
    reveal_environment,
)
from calcnb.serve.cli.process import check_can_listen, free_port, serve
from calcnb.serve.cli.workspace import default_workspace, sync_workspace
from calcnb.serve.shared.caps import DEFAULT_PAGES_PER_DEVICE, default_max_kernels
from calcnb.serve.shared.errors import AppError
from calcnb.serve.shared.notebooks import default_app_port, existing_path, is_lesson, notebooks_dir, resolve_target
from calcnb.serve.shared.settings import (
    ALL_INTERFACES,
    CLASS_VIEW_NOTEBOOK,
    DEFAULT_APP_NOTEBOOK,
    DEFAULT_CLASS_VIEW_PORT,
    DEFAULT_PROJECTOR_PORT,
    LOCALHOST,
    PROJECTOR_NOTEBOOK,
)

__all__ = [
    "caps_note",
    "chosen_port",
    "lesson_name",
    "run_app",
    "run_class_view",
    "run_lab",
    "run_lessons",
    "run_worksheets",
    "write_summary",
]

SUMMARY_SUFFIXES = (".pdf", ".csv")


def chosen_port(arguments: argparse.Namespace, default: int | None = None) -> int:
    """The port to use: the one asked for (``default`` when none was), or, for ``--port 0``, a free one (said aloud).

    AppError when the port is busy or the host is not this machine's: asked before anything is
    made (a class log, a server), so a refused command leaves nothing behind.
    """
    port = default if arguments.port is None else arguments.port
    host = LOCALHOST if arguments.host == ALL_INTERFACES else arguments.host
    check_can_listen(host, port or 0)
    if port:
        return port
    port = free_port(host)
    print(message("app.port_chosen", port=port), flush=True)
    return port


def lesson_name(target: Path) -> str | None:
    """The name of the lesson ``target`` serves (a notebook of the lesson index), or None."""
    from calcnb.lessons import LESSONS

    return next((known.name for known in LESSONS if target.name == known.notebook and is_lesson(target)), None)


def caps_note(max_kernels: int | None, pages_per_device: int | None) -> str:
    """The caps on pages, said in the teacher's terminal (the defaults where none was given)."""
    most = max_kernels or default_max_kernels()
    return message("app.caps", most=most, per_device=pages_per_device or DEFAULT_PAGES_PER_DEVICE)


# ------------------------------------------------------------ app, lab, lessons


def run_app(arguments: argparse.Namespace) -> int:
    """``python -m calcnb app``: serve a notebook (or a folder), code hidden, with the class server (or Voila).

    With ``--lang pt`` the Portuguese twin (``notebooks/pt/NAME``) is served when
    there is one, and the kernels run in Portuguese either way.
    """
    target = resolve_target(arguments.path, DEFAULT_APP_NOTEBOOK, language=arguments.lang)
    port = chosen_port(arguments, default_app_port(target))
    environment = class_log_environment(
        server_environment(language=arguments.lang), arguments.class_log, lesson=lesson_name(target)
    )
    environment = reveal_environment(environment, reveal=not arguments.no_reveal)
    environment = class_code_environment(environment, arguments.class_code)
    if getattr(arguments, "server", "voila") == "solara":
        if arguments.preheat:  # the class server starts no process per pupil: there is nothing to keep warm
            raise AppError(message("app.preheat_voila_only"))
        server_command = solara_command
    else:
        server_command = functools.partial(voila_command, preheat=arguments.preheat)
    command = server_command(
        target,
        host=arguments.host,
        port=port,
        max_kernels=arguments.max_kernels,
        pages_per_device=arguments.max_pages_per_device,
    )
    try:
        return serve(
            command,
            host=arguments.host,
            port=port,
            path="/",
            what=message("app.what_app", name=target.name),
            open_browser=not arguments.no_browser,
            env=environment,
            class_code=arguments.class_code,
            notes=[caps_note(arguments.max_kernels, arguments.max_pages_per_device)],
        )
    finally:
        checkpoint_class_log(arguments.class_log)


def lab_target(arguments: argparse.Namespace) -> Path:
    """What ``lab`` opens: the folder or notebook named, if it exists as typed; else the user's workspace
    (:mod:`calcnb.serve.cli.workspace`, brought up to date first), or a notebook of it named by its name."""
    typed = existing_path(arguments.path) if arguments.path is not None else None
    if typed is not None:
        return resolve_target(typed)
    workspace = (arguments.workspace or default_workspace()).expanduser()
    try:
        workspace = sync_workspace(workspace).folder
    except OSError as error:
        raise AppError(message("app.workspace_unwritable", folder=workspace, reason=error.strerror or error)) from None
    return resolve_target(arguments.path, language=arguments.lang, root=workspace)


def run_lab(arguments: argparse.Namespace) -> int:
    """``calcnb lab``: JupyterLab on the user's own copy of the notebooks (or the folder or notebook named).

    The port is checked before the workspace is made or brought up to date. The token goes to the server
    in its environment, never on its command line.
    """
    if arguments.path is not None:
        existing_path(arguments.path)  # a name the system cannot look up is refused before anything is made
    port = chosen_port(arguments)
    target = lab_target(arguments)
    root, page = (target.parent, f"/lab/tree/{quote(target.name)}") if target.is_file() else (target, "/lab")
    token = secrets.token_hex(16)
    return serve(
        lab_command(root, host=arguments.host, port=port),
        host=arguments.host,
        port=port,
        path=page,
        what=message("app.what_lab", name=target.name),
        open_browser=not arguments.no_browser,
        token=token,
        env=server_environment(language=arguments.lang, token=token),
    )


def run_lessons(arguments: argparse.Namespace) -> int:
    """``calcnb lessons``: the lessons of :mod:`calcnb.lessons`, with ages, lengths and commands; then which
    calcnb runs and where the notebooks are (:func:`calcnb.serve.cli.about.version_lines`)."""
    from calcnb.lessons import lesson_index
    from calcnb.serve.cli.about import version_lines
    from calcnb.serve.cli.workspace import default_workspace

    print(lesson_index(notebooks=default_workspace().as_posix()))  # where ``calcnb lab`` puts the teacher's copy
    print("\n" + "\n".join(version_lines(note=False)))
    return 0


# ------------------------------------------------------------ worksheets


def _class_key(location: str | None) -> str | None:
    """The class key of the log ``--class-log`` names (None without one); AppError saying why it cannot be read."""
    if location is None:
        return None
    from calcnb.classlog.schema import ClassLogError
    from calcnb.classlog.store import read_class_key

    try:
        return read_class_key(location, required=True)
    except ClassLogError as error:
        raise AppError(str(error)) from None


def run_worksheets(arguments: argparse.Namespace) -> int:
    """``calcnb worksheets LESSON [--class-log LOG] [--students NAMES|N] [--paper A4] [--folder DIR]``.

    The lesson's worksheet and answer sheet (:func:`calcnb.exercises.worksheet.save_sheets`), each student's
    questions as on their screen: the class key is read from the class log the teacher names, wherever it is,
    and a log that is not there is refused with the path looked for (never sheets silently without the key).
    """
    from calcnb.classlog.location import hidden_password
    from calcnb.exercises.worksheet import save_sheets
    from calcnb.lessons import lesson as find_lesson

    try:
        found = find_lesson(arguments.lesson)
    except KeyError as error:
        raise AppError(error.args[0]) from None
    class_key = _class_key(arguments.class_log)
    folder = arguments.folder.expanduser()
    try:
        written = save_sheets(found, folder, arguments.students, class_key=class_key, paper=arguments.paper)
    except OSError as error:
        raise AppError(message("app.cannot_write_sheets", folder=folder, reason=error.strerror or error)) from None
    for path in written:
        print(message("app.sheet_written", path=path.resolve()))
    if class_key is None:
        print(message("app.sheets_no_key"))
    else:
        print(message("app.sheets_key", location=hidden_password(arguments.class_log)))
    return 0


# ------------------------------------------------------------ the class view and its summary


def write_summary(log: Any, path: Path, lesson: str | None = None) -> None:
    """Write the end-of-lesson summary of the open class ``log`` to ``path``: PDF or CSV, as its suffix says.

    Its exercises are numbered and ordered as the lesson's: ``lesson`` (a name of the lesson index) when given,
    else the lesson the log's answers belong to, as the class view tells it (the default lesson if none).
    """
    from calcnb.classlog.readings import student_summaries
    from calcnb.classlog.summary import summary_csv, summary_pdf
    from calcnb.lessons import DEFAULT_LESSON, lesson_for
    from calcnb.lessons import lesson as find_lesson

    rows = log.attempts()
    found = find_lesson(lesson) if lesson else lesson_for(row["exercise_id"] for row in rows)
    found = found if found is not None else DEFAULT_LESSON
    summaries = student_summaries(log.students(), rows)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(summary_pdf(summaries, found.exercises, found.bank, location=log.location))
    else:  # a BOM, for spreadsheets
        path.write_text(summary_csv(summaries, found.exercises, found.bank), encoding="utf-8-sig", newline="")


def _known_lesson(name: str | None) -> str | None:
    """The lesson ``--lesson`` names, as the lesson index names it; AppError listing the lessons if none is."""
    if name is None:
        return None
    from calcnb.lessons import lesson as find_lesson

    try:
        return find_lesson(name).name
    except KeyError as error:
        raise AppError(error.args[0]) from None


def _summarize(location: str, summary: Path, lesson: str | None) -> int:
    """``class-view LOG --summary FILE``: write the summary of the log at ``location`` to ``summary``, serve nothing."""
    log = open_log(location)
    shown = log.location
    try:
        write_summary(log, summary, lesson)
    except OSError as error:
        raise AppError(message("app.cannot_write_summary", path=summary, reason=error.strerror or error)) from None
    finally:
        log.close()
    print(message("app.summary_written", location=shown, path=summary), flush=True)
    return 0


def run_class_view(arguments: argparse.Namespace) -> int:
    """``python -m calcnb class-view LOG [--lesson NAME]``: the teacher's live view of a class log, served with Voila.

    ``--lesson`` names the lesson whose exercises (and, for "Is the 80% true?", pooled deals) the view shows
    before anyone has answered; an unknown name is refused with the list of lessons, before anything starts.

    Only ``notebooks/teacher/class_view.ipynb`` is served, on a port of its own, and its kernels are
    the only ones told the log (the setting :data:`calcnb.core.settings.CLASS_VIEW`). With ``--summary FILE``
    the end-of-lesson summary is written to FILE (``.pdf`` or ``.csv``) instead, and nothing is served.

    With ``--projector``, ``notebooks/teacher/projector.ipynb`` is served instead, on a server and port of its own
    (:data:`~calcnb.serve.shared.settings.DEFAULT_PROJECTOR_PORT`), its kernels told the log only through
    :data:`calcnb.core.settings.CLASS_PROJECTOR`: counts for the whole class, no nickname.
    """
    lesson = _known_lesson(arguments.lesson)
    projector = getattr(arguments, "projector", False)
    target = resolve_target(str(notebooks_dir() / (PROJECTOR_NOTEBOOK if projector else CLASS_VIEW_NOTEBOOK)))
    summary = Path(arguments.summary).expanduser() if arguments.summary else None
    if summary is not None:
        if summary.suffix.lower() not in SUMMARY_SUFFIXES:
            raise AppError(message("app.bad_summary", path=summary))
        return _summarize(arguments.log, summary, lesson)
    # Served: the port is checked before the log is opened, so a busy port leaves no new log behind.
    port = chosen_port(arguments, DEFAULT_PROJECTOR_PORT if projector else DEFAULT_CLASS_VIEW_PORT)
    log = open_log(arguments.log)
    location = log.location
    log.close()
    # The lesson's exercises and figures from the start, before anyone has answered.
    environment = server_environment(language=arguments.lang)
    if projector:
        environment = projector_environment(environment, arguments.log, lesson=lesson)
    else:
        environment = class_view_environment(environment, arguments.log, lesson=lesson)
    try:
        return serve(
            voila_command(target, host=arguments.host, port=port),
            host=arguments.host,
            port=port,
            path="/",
            what=message("app.what_projector" if projector else "app.what_class_view", location=location),
            open_browser=not arguments.no_browser,
            env=environment,
        )
    finally:
        checkpoint_class_log(arguments.log)
