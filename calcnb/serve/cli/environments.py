"""What a server's kernels are told through their environment: the class log, Show answer, the class code.

The command line tells the kernels it starts through the settings of :mod:`calcnb.core.settings`,
written into the server's environment. Each builder here writes its setting, or removes it, so a
value left in the teacher's shell never turns recording, the class view or the class code on by
itself. The class log is opened here first (SQLAlchemy loads only then), so a bad location is refused
before any student arrives; :func:`checkpoint_class_log` leaves it as one file when the server stops.
"""

from __future__ import annotations

import contextlib
from typing import Any

from calcnb.core.settings import (
    CLASS_CODE,
    CLASS_LOG,
    CLASS_PROJECTOR,
    CLASS_VIEW,
    CLASS_VIEW_LESSON,
    NO_REVEAL,
    Setting,
)
from calcnb.i18n import message
from calcnb.serve.shared.caps import normal_code
from calcnb.serve.shared.errors import AppError

__all__ = [
    "checkpoint_class_log",
    "class_code_environment",
    "class_log_environment",
    "class_view_environment",
    "log_argument",
    "open_log",
    "projector_environment",
    "reveal_environment",
]


# ------------------------------------------------------------ the class log


def open_log(location: str) -> Any:
    """Open (creating if new) the class log at ``location``, or AppError saying why it cannot be used."""
    from calcnb.classlog.schema import ClassLogError
    from calcnb.classlog.store import open_class_log  # SQLAlchemy loads only when a log is asked for

    try:
        return open_class_log(location)
    except ClassLogError as error:
        raise AppError(str(error)) from None


def log_argument(location: str) -> str:
    """The class log as the kernels must read it: a URL with any relative file made absolute (kernels run in
    the notebooks' folder, not where the teacher typed the command)."""
    from calcnb.classlog.location import database_url

    return database_url(location).render_as_string(hide_password=False)


def checkpoint_class_log(location: str | None) -> None:
    """When a server stops: fold a SQLite log's write-ahead file into the one ``.db`` file a teacher copies."""
    if location is None:
        return
    from calcnb.classlog.schema import ClassLogError
    from calcnb.classlog.store import open_class_log

    with contextlib.suppress(ClassLogError):
        log = open_class_log(location)
        try:
            log.checkpoint()
        finally:
            log.close()


def class_log_environment(
    environment: dict[str, str], location: str | None, *, lesson: str | None = None
) -> dict[str, str]:
    """``environment`` for the students' kernels: recording into ``location``, or, for None, recording nothing.

    The line printed for the teacher gives the class view's command, with ``--lesson`` when ``lesson`` (the
    lesson served, a name of the lesson index) is given, so the view shows it before the first answer.

    The log is opened (and created if new) here, so a bad location stops the command with a
    clear message before any student arrives. Without a location the setting is removed, so
    a value left in the teacher's shell never turns recording on.
    """
    from calcnb.classlog.location import hidden_password

    environment = dict(environment)
    CLASS_VIEW.write(environment, None)  # the students' kernels never read the class view's log
    CLASS_PROJECTOR.write(environment, None)
    if location is None:
        CLASS_LOG.write(environment, None)
        return environment
    log = open_log(location)
    argument = hidden_password(location) + (f" --lesson {lesson}" if lesson else "")
    print(message("app.recording", location=log.location, argument=argument), flush=True)
    log.class_key()  # made now, so the teacher's notebook and worksheets can read it before anyone joins
    log.close()
    CLASS_LOG.write(environment, log_argument(location))
    return environment


def class_view_environment(environment: dict[str, str], location: str, *, lesson: str | None = None) -> dict[str, str]:
    """``environment`` for the class view's kernels: reading the log at ``location``, recording nothing.

    ``lesson`` (a name of the lesson index) is the lesson the view shows before anyone has answered; without
    it the setting is removed, and the view follows the lesson the answers belong to.
    """
    return _viewer_environment(environment, location, lesson, reads=CLASS_VIEW, removed=CLASS_PROJECTOR)


def projector_environment(environment: dict[str, str], location: str, *, lesson: str | None = None) -> dict[str, str]:
    """``environment`` for the projector view's kernels: reading the log at ``location`` as counts, recording nothing.

    The class view's setting is removed, so the class view's notebook finds no log on the projector's server and
    a projected screen cannot show a nickname; ``lesson`` as :func:`class_view_environment` takes it.
    """
    return _viewer_environment(environment, location, lesson, reads=CLASS_PROJECTOR, removed=CLASS_VIEW)


def _viewer_environment(
    environment: dict[str, str], location: str, lesson: str | None, *, reads: Setting, removed: Setting
) -> dict[str, str]:
    """``environment`` for a view's kernels: ``reads`` names the log at ``location``, the other view's setting
    (``removed``) and recording are removed, and the lesson shown first is ``lesson``."""
    environment = dict(environment)
    CLASS_LOG.write(environment, None)
    removed.write(environment, None)
    reads.write(environment, log_argument(location))
    CLASS_VIEW_LESSON.write(environment, lesson)
    return environment


# ------------------------------------------------------------ Show answer and the class code


def reveal_environment(environment: dict[str, str], *, reveal: bool) -> dict[str, str]:
    """``environment`` for the students' kernels, with Show answer on (``reveal``) or off (``--no-reveal``).

    Without ``--no-reveal`` the setting is removed, so a value left in the teacher's shell never turns it off.
    """
    environment = dict(environment)
    NO_REVEAL.write(environment, not reveal)
    if not reveal:
        print(message("app.no_reveal"), flush=True)
    return environment


def class_code_environment(environment: dict[str, str], code: str | None) -> dict[str, str]:
    """``environment`` for the app's server: asking visitors for ``code``, or, for None, for nothing.

    The code travels in the environment, never on a command line (which any local user can read);
    the server removes it from its own before any kernel starts. Without a code the setting is
    removed, so a value left in the teacher's shell never turns the code on.
    """
    environment = dict(environment)
    CLASS_CODE.write(environment, None if code is None else normal_code(code))
    return environment
