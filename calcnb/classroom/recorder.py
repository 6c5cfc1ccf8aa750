"""The students' side of a class log: a plain notice, a nickname, and every check of an exercise recorded.

When the teacher starts the lesson app with ``--class-log`` (see :mod:`calcnb.serve.cli`), the
kernels find the log in the environment variable :data:`calcnb.classroom.log.ENV_VAR`, and
:func:`join_class` shows, at the top of the lesson, what is collected and a box for a
nickname. From the moment a student joins, every check of an exercise and every press of Show
answer (see :func:`calcnb.ui.lesson.add_answer_listener`) is written to the log, by a thread of its own, and
a log that cannot be written never stops the exercises (``docs/design.md`` says how).
"""

from __future__ import annotations

import asyncio
import html
import os
import queue
import threading
import warnings
from typing import Any, Protocol

import ipywidgets as widgets

from calcnb.classroom.log import DEFAULT_TIMEOUT, ENV_VAR, ClassLog, ClassLogError, open_class_log
from calcnb.classroom.names import codes_match, rejoin_code
from calcnb.i18n import get_language, message
from calcnb.lessons.bank import Attempt
from calcnb.ui.lesson import add_answer_listener, remove_answer_listener
from calcnb.ui.palette import ERROR_TEXT

__all__ = ["ClassRecorder", "class_log_location", "join_class"]

MAX_WRONG_CODES = 5  # wrong rejoin codes a page may type before it can only join under a free nickname


class NamedQuiz(Protocol):
    """A lesson's quiz whose variants follow a name (:class:`calcnb.ui.lesson.Quiz`)."""

    def use_name(self, name: str, *, class_key: str | None = None) -> None: ...


def class_log_location() -> str | None:
    """The class log the teacher started the app with (``CALCNB_CLASS_LOG``), or None: record nothing."""
    location = os.environ.get(ENV_VAR, "").strip()
    return location or None


class ClassRecorder(widgets.VBox):
    """The notice, the nickname box and the status line; records every check once the student joined.

    ``log`` is an open :class:`~calcnb.classroom.log.ClassLog` (None: the log could not be
    opened, and the recorder only says so). ``quiz``, when given, takes the nickname
    as the name that picks this student's variants, so one name does both.
    The recorder listens to every exercise of the kernel until :meth:`close`.
    """

    def __init__(self, log: ClassLog | None, *, quiz: NamedQuiz | None = None) -> None:
        self.class_log = log
        self.quiz = quiz
        self.nickname: str | None = None
        self.stopped = log is None
        self.error: BaseException | None = None
        self._failure: BaseException | None = None  # the failed write, until the page has been told
        self.recorded = 0
        self._queue: queue.Queue = queue.Queue()
        self._writer: threading.Thread | None = None
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()  # a kernel's
        except RuntimeError:
            self._loop = None
        self.notice = widgets.HTML(f"<p><b>{html.escape(message('classroom.notice'))}</b></p>")
        # The description is the box's own <label>, so a screen reader names the box.
        self.nickname_box = widgets.Text(
            description=message("classroom.nickname"),
            placeholder=message("classroom.placeholder"),
            continuous_update=False,
            style={"description_width": "initial"},
        )
        self.nickname_box.layout.width = "22em"
        self.join_button = widgets.Button(description=message("classroom.join"), button_style="info")
        self.status = widgets.HTML()
        # Shown only when the nickname is taken: the student types the rejoin code their first page showed
        # (a closed or reloaded page) and goes on; nobody else can, since the code comes from the class's key.
        self.code_box = widgets.Text(
            description=message("classroom.code_label"),
            placeholder=message("classroom.code_placeholder"),
            style={"description_width": "initial"},
            layout=widgets.Layout(width="16em"),
        )
        self.same_student_button = widgets.Button(layout=widgets.Layout(width="max-content"))
        self.same_student = widgets.HBox([self.code_box, self.same_student_button])
        self.same_student.layout.display = "none"
        self._taken: str | None = None  # the taken nickname the button goes on as
        self._wrong_codes = 0
        row = widgets.HBox([self.nickname_box, self.join_button])
        super().__init__([self.notice, row, self.status, self.same_student])
        self.add_class("calcnb-class-recorder")
        self.join_button.on_click(lambda _button: self.join())
        self.same_student_button.on_click(lambda _button: self.join(self._taken, code=self.code_box.value))
        with warnings.catch_warnings():  # Enter in the code box goes on too (ipywidgets calls on_submit deprecated)
            warnings.simplefilter("ignore", DeprecationWarning)
            self.code_box.on_submit(lambda _box: self.join(self._taken, code=self.code_box.value))
        self.nickname_box.observe(lambda _change: self.join(), "value")
        if log is None:
            self._say("classroom.unavailable")
            self.nickname_box.disabled = self.join_button.disabled = True
        add_answer_listener(self.record)

    def join(self, nickname: str | None = None, *, code: str | None = None) -> bool:
        """Join the class as ``nickname`` (default: what is in the box); False if the name is not usable.

        A nickname someone has already joined under, or one that looks the same ("Ana" for "ana", a
        Cyrillic "а"), is not joined at once: the page asks for that nickname's rejoin code, which
        the student's first page showed, and ``code`` goes on as that student when it is right.
        Otherwise two students under one nickname would show as one in the class view, and anyone
        could answer as anyone.
        """
        if nickname is None:
            nickname = self.nickname_box.value
        if self.stopped or self.nickname is not None or not str(nickname).strip():
            return False
        try:
            taken = self.class_log.taken_as(nickname)
            if taken is not None and code is None:
                self._ask_for_the_code(taken)
                return False
            if taken is not None and not self._code_is_right(taken, code):
                return False
            self.nickname = self.class_log.join(taken or nickname, get_language())
            class_key = self.class_log.class_key()
        except ClassLogError as error:  # no readable character: say why, keep the box open
            self.status.value = html.escape(str(error))
            self.same_student.layout.display = "none"
            return False
        except Exception as error:  # the database: recording stops, the lesson goes on
            self._stop(error)
            return False
        self.same_student.layout.display = "none"
        self.nickname_box.value = self.nickname
        self.nickname_box.disabled = self.join_button.disabled = True
        key = "classroom.rejoined" if taken is not None else "classroom.joined"
        said = message(key, nickname=self.nickname, code=rejoin_code(class_key, self.nickname))
        self.status.value = html.escape(said)
        if self.quiz is not None:  # the class's own key: the variants cannot be worked out from the name alone
            self.quiz.use_name(self.nickname, class_key=class_key)
        return True

    def _code_is_right(self, taken: str, code: str) -> bool:
        if self._wrong_codes >= MAX_WRONG_CODES:
            return False
        if codes_match(code, rejoin_code(self.class_log.class_key(), taken)):
            return True
        self._wrong_codes += 1
        if self._wrong_codes >= MAX_WRONG_CODES:  # no guessing: this page can only join under a free nickname now
            self.status.value = html.escape(message("classroom.code_locked", nickname=taken))
            self.same_student.layout.display = "none"
        else:
            self.status.value = html.escape(message("classroom.wrong_code", nickname=taken))
        return False

    def _ask_for_the_code(self, nickname: str) -> None:
        self._taken = nickname
        if self._wrong_codes >= MAX_WRONG_CODES:
            self.status.value = html.escape(message("classroom.code_locked", nickname=nickname))
            return
        self.status.value = html.escape(message("classroom.taken", nickname=nickname))
        self.same_student_button.description = message("classroom.same_student", nickname=nickname)
        self.code_box.value = ""
        self.same_student.layout.display = None

    def record(self, attempt: Attempt) -> None:
        """Queue one check for the log (an answer listener): returns at once, never raises.

        A writer thread of the recorder's own writes the queue to the log, so the database never
        stands between a click and the next one; the first write that fails stops recording, and
        the page says so once.
        """
        if self.stopped or self.nickname is None:
            return
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_queue, name="calcnb-class-log", daemon=True)
            self._writer.start()
        self._queue.put((self.nickname, attempt))

    def _write_queue(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                if not self.stopped:
                    self._write(*item)
            finally:
                self._queue.task_done()

    def _write(self, nickname: str, attempt: Attempt) -> None:
        try:
            self.class_log.record(nickname, attempt)
        except Exception as error:  # whatever the database says, the student's feedback is already shown
            self.stopped = True  # nothing more is written, even before the page is told
            self._failure = error
            if self._loop is not None and self._loop.is_running():
                self._loop.call_soon_threadsafe(self._stop, error)  # widgets change on the kernel's own thread
            else:
                self._stop(error)
            return
        self.recorded += 1

    def flush(self) -> None:
        """Wait until every check queued so far has been written (or recording has stopped and the page says so)."""
        self._queue.join()
        if self._failure is not None:
            # Called on the caller's thread: say it now rather than wait for a loop that may not be turning.
            self._stop(self._failure)

    def _stop(self, error: BaseException) -> None:
        if self.error is not None:
            return
        self.stopped = True
        self.error = error
        self._say("classroom.stopped")

    def _say(self, key: str) -> None:
        self.status.value = f'<p style="color:{ERROR_TEXT}"><b>{html.escape(message(key))}</b></p>'

    def close(self) -> None:
        """Stop listening, write what is queued, close the log's connections (and the widgets)."""
        remove_answer_listener(self.record)
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join(timeout=30)
            self._writer = None
        if self.class_log is not None:
            self.class_log.close()
        super().close()

    def __repr__(self) -> str:
        state = "stopped" if self.stopped else f"joined as {self.nickname!r}" if self.nickname else "not joined"
        return f"<ClassRecorder {state}, {self.recorded} recorded>"


_active: list[ClassRecorder] = []


def join_class(
    quiz: NamedQuiz | None = None, location: str | None = None, *, timeout: float = DEFAULT_TIMEOUT
) -> ClassRecorder | None:
    """The class log's notice and nickname box when the app records a class, else None (nothing recorded).

    ``location`` defaults to :func:`class_log_location`. Running the cell again replaces the
    previous recorder, so a kernel records each check once.
    """
    location = location or class_log_location()
    if location is None:
        return None
    while _active:
        _active.pop().close()
    log: Any
    try:
        log = open_class_log(location, timeout=timeout)
    except Exception:  # unreachable server, bad schema: the lesson runs, unrecorded, and says so
        log = None
    recorder = ClassRecorder(log, quiz=quiz)
    _active.append(recorder)
    return recorder
