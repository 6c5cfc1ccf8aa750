"""The students' side of a class log: a plain notice, a nickname, and every check of an exercise recorded.

When the teacher starts the lesson app with ``--class-log`` (see :mod:`calcnb.app`), the
kernels find the log in the environment variable :data:`calcnb.classlog.ENV_VAR`, and
:func:`join_class` shows, at the top of the lesson, what is collected and a box for a
nickname. From the moment a student joins, every check of an exercise (see
:func:`calcnb.lessons.add_answer_listener`) is written to the log. Nothing is recorded
before a student joins, and nothing at all without a class log: :func:`join_class`
then shows nothing and listens to nothing.

Recording never gets in the way of the lesson: the feedback is on its way to the page before
the answer is even queued, a thread of the recorder's own writes the queue (so the database
never delays the next click), and if the log cannot be written (a read-only file, a full disk, a
lock held beyond the timeout, a server gone) the page says once that recording has
stopped, and the exercises go on working without it.
"""

from __future__ import annotations

import asyncio
import html
import os
import queue
import threading
from typing import Any, Protocol

import ipywidgets as widgets

from .classlog import DEFAULT_TIMEOUT, ENV_VAR, ClassLog, ClassLogError, clean_nickname, open_class_log
from .i18n import get_language, message, register
from .lesson_content import Attempt
from .lessons import add_answer_listener, remove_answer_listener

__all__ = ["ClassRecorder", "class_log_location", "join_class"]

register(
    {
        "en": {
            "classroom.notice": "Your teacher is collecting the answers to this lesson's exercises. For each answer you check, the class log keeps: the nickname you type below, the exercise, your answer as typed, whether it was right, and the time. Nothing else about you. Use a nickname, not your full name. Nothing is recorded until you join.",  # noqa: E501
            "classroom.nickname": "Nickname:",
            "classroom.placeholder": "a nickname",
            "classroom.join": "Join the class",
            "classroom.joined": "Joined as {nickname}: your answers are being recorded for your teacher.",
            "classroom.taken": "Someone in this class has already joined as {nickname}. If that was you, on a page you closed or reloaded, press the button below to go on as {nickname}. If not, type another nickname, so that your teacher sees two students.",  # noqa: E501
            "classroom.same_student": "That was me: go on as {nickname}",
            "classroom.stopped": "Recording has stopped: your answers are no longer collected (the class log cannot be written). The exercises still work as before.",  # noqa: E501
            "classroom.unavailable": "The class log cannot be opened, so nothing is recorded. The exercises work as usual.",  # noqa: E501
        },
        "pt": {
            "classroom.notice": "O seu professor está a recolher as respostas aos exercícios desta lição. Para cada resposta que verificar, o registo da turma guarda: a alcunha que escrever abaixo, o exercício, a sua resposta tal como a escreveu, se estava certa, e a hora. Nada mais sobre si. Use uma alcunha, não o seu nome completo. Nada é registado antes de entrar na turma.",  # noqa: E501
            "classroom.nickname": "Alcunha:",
            "classroom.placeholder": "uma alcunha",
            "classroom.join": "Entrar na turma",
            "classroom.joined": "Entrou como {nickname}: as suas respostas estão a ser registadas para o seu professor.",  # noqa: E501
            "classroom.taken": "Alguém nesta turma já entrou como {nickname}. Se foi você, numa página que fechou ou recarregou, carregue no botão abaixo para continuar como {nickname}. Se não foi, escreva outra alcunha, para que o seu professor veja dois alunos.",  # noqa: E501
            "classroom.same_student": "Fui eu: continuar como {nickname}",
            "classroom.stopped": "O registo parou: as suas respostas já não são recolhidas (o registo da turma não pode ser escrito). Os exercícios continuam a funcionar como antes.",  # noqa: E501
            "classroom.unavailable": "O registo da turma não pode ser aberto, por isso nada é registado. Os exercícios funcionam como sempre.",  # noqa: E501
        },
    }
)


class NamedQuiz(Protocol):
    """A lesson's quiz whose variants follow a name (:class:`calcnb.lessons.Quiz`)."""

    def use_name(self, name: str) -> None: ...


def class_log_location() -> str | None:
    """The class log the teacher started the app with (``CALCNB_CLASS_LOG``), or None: record nothing."""
    location = os.environ.get(ENV_VAR, "").strip()
    return location or None


class ClassRecorder(widgets.VBox):
    """The notice, the nickname box and the status line; records every check once the student joined.

    ``log`` is an open :class:`~calcnb.classlog.ClassLog` (None: the log could not be
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
        # Shown only when the nickname is taken: the student says it was them (a reloaded page) and goes on.
        self.same_student_button = widgets.Button(layout=widgets.Layout(display="none", width="max-content"))
        self._taken: str | None = None  # the taken nickname the button goes on as
        row = widgets.HBox([self.nickname_box, self.join_button])
        super().__init__([self.notice, row, self.status, self.same_student_button])
        self.add_class("calcnb-class-recorder")
        self.join_button.on_click(lambda _button: self.join())
        self.same_student_button.on_click(lambda _button: self.join(self._taken, rejoin=True))
        self.nickname_box.observe(lambda _change: self.join(), "value")
        if log is None:
            self._say("classroom.unavailable")
            self.nickname_box.disabled = self.join_button.disabled = True
        add_answer_listener(self.record)

    def join(self, nickname: str | None = None, *, rejoin: bool = False) -> bool:
        """Join the class as ``nickname`` (default: what is in the box); False if the name is not usable.

        A nickname someone has already joined under is not joined at once: the page asks whether
        that was this student (a closed or reloaded page), and its button joins with ``rejoin``.
        Otherwise two students under one nickname would show as one in the class view.
        """
        if nickname is None:
            nickname = self.nickname_box.value
        if self.stopped or self.nickname is not None or not str(nickname).strip():
            return False
        try:
            if not rejoin and self.class_log.has_joined(nickname):
                self._ask_whether_same_student(clean_nickname(nickname))
                return False
            self.nickname = self.class_log.join(nickname, get_language())
        except ClassLogError as error:  # no readable character: say why, keep the box open
            self.status.value = html.escape(str(error))
            self.same_student_button.layout.display = "none"
            return False
        except Exception as error:  # the database: recording stops, the lesson goes on
            self._stop(error)
            return False
        self.same_student_button.layout.display = "none"
        self.nickname_box.value = self.nickname
        self.nickname_box.disabled = self.join_button.disabled = True
        self.status.value = html.escape(message("classroom.joined", nickname=self.nickname))
        if self.quiz is not None:
            self.quiz.use_name(self.nickname)
        return True

    def _ask_whether_same_student(self, nickname: str) -> None:
        self._taken = nickname
        self.status.value = html.escape(message("classroom.taken", nickname=nickname))
        self.same_student_button.description = message("classroom.same_student", nickname=nickname)
        self.same_student_button.layout.display = None

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
        self.status.value = f'<p style="color:#8a1c1c"><b>{html.escape(message(key))}</b></p>'

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
