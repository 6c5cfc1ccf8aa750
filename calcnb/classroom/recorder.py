"""The students' side of a class log: a plain notice, a nickname, and every check of an exercise recorded.

When the teacher starts the lesson app with ``--class-log`` (see :mod:`calcnb.serve.cli`), the
kernels find the log in the setting :data:`calcnb.core.settings.CLASS_LOG` (``CALCNB_CLASS_LOG``), and
:func:`join_class` shows, at the top of the lesson, what is collected and a box for a
nickname. From the moment a student joins, every check of an exercise and every press of Show
answer (see :func:`calcnb.ui.lesson.add_answer_listener`) is kept in the kernel and written to the log, in
order and once each, by the page's outbox (:class:`calcnb.classlog.outbox.Outbox`), whose thread tries again
until the log takes it. A log that cannot be written never stops the exercises, and the page says whether the
answers are saved (``docs/design.md``). This module is the page: the notice, the nickname and its rejoin code,
the save line. It also follows the class's pacing, set by the teacher's class view in the log
(:meth:`ClassLog.pacing <calcnb.classlog.store.ClassLog.pacing>`): read when the page opens and every few seconds
on a thread of the recorder's own, it holds the exercises past the last one open, and dims the whole page while
the teacher has paused the class ("Eyes on the board"); what is typed stays. The page has no control over it.
"""

from __future__ import annotations

import contextlib
import functools
import html
import sys
import threading
import warnings
from typing import Any, Protocol

import ipywidgets as widgets

from calcnb.classlog.names import codes_match, rejoin_code
from calcnb.classlog.outbox import HomeLoop, Outbox, PlayedDeal
from calcnb.classlog.schema import ClassLogError, ClassLogMoved, NicknameTaken
from calcnb.classlog.store import DEFAULT_TIMEOUT, ClassLog, Pacing, open_class_log
from calcnb.core.settings import CLASS_LOG
from calcnb.core.visits import PerVisit
from calcnb.exercises.items import Attempt
from calcnb.i18n import get_language, message
from calcnb.ui.lesson import add_answer_listener, add_game_listener, remove_answer_listener, remove_game_listener
from calcnb.ui.palette import ERROR_TEXT

__all__ = ["ClassRecorder", "class_log_location", "join_class"]

MAX_WRONG_CODES = 5  # wrong rejoin codes a page may type before it can only join under a free nickname
#: Seconds between two readings of the class's pacing by a page.
PACING_SECONDS = 2.0
#: A page's first readings send what they hold again: Voila's front end fetches every widget's state once as it
#: connects and drops a change sent while it does, so a page opened just as it was held could show it open.
READINGS_SENT_AGAIN = 10


class NamedQuiz(Protocol):
    """A lesson's quiz whose variants follow a name (:class:`calcnb.ui.lesson.Quiz`)."""

    exercises: list  # the exercises shown so far, numbered as in the lesson (calcnb.ui.lesson.Exercise)

    def use_name(self, name: str, *, class_key: str | None = None) -> None: ...


def class_log_location() -> str | None:
    """The class log the teacher started the app with (:data:`calcnb.core.settings.CLASS_LOG`), or None: record
    nothing."""
    return CLASS_LOG.read()


class ClassRecorder(widgets.VBox):
    """The notice, the nickname box and the status lines; saves every check once the student joined.

    ``log`` is an open :class:`~calcnb.classlog.store.ClassLog` (None: the log could not be
    opened, and the recorder only says so). ``quiz``, when given, takes the nickname
    as the name that picks this student's variants, so one name does both.
    The recorder listens to every exercise of the kernel until :meth:`close`.

    Checks are kept in the kernel, in order, by the recorder's :attr:`outbox`
    (:class:`~calcnb.classlog.outbox.Outbox`, None without a log), whose saver thread writes them once
    each and tries again until the log takes them. The save line under the nickname says "Saving…" while
    checks wait and "Saved" once they are all in, and says plainly when they are not reaching the log;
    the outbox tells the recorder when to redraw it.
    """

    def __init__(self, log: ClassLog | None, *, quiz: NamedQuiz | None = None) -> None:
        self.class_log = log
        self.quiz = quiz
        self.nickname: str | None = None
        self.stopped = log is None  # no log to record into: nothing is ever saved
        self.outbox = None if log is None else Outbox(log, on_change=self._show)
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
        self.save_status = widgets.HTML()  # Saving… / Saved / not reaching the log
        self.save_status.add_class("calcnb-save-status")
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
        # The class's pacing, as last read: "Eyes on the board" covers the page while paused.
        self.pacing = Pacing()
        self._held: dict[Any, str | None] = {}  # each exercise's note as last held (None: let go)
        self.eyes = widgets.HTML()
        self.eyes.add_class("calcnb-eyes")
        super().__init__([self.notice, row, self.status, self.save_status, self.same_student, self.eyes])
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
        add_game_listener(self.record_game)
        self._stop_pacing = threading.Event()
        self._pacer: threading.Thread | None = None
        self._home = HomeLoop()  # where the pacing thread applies what it reads
        if log is not None:
            with contextlib.suppress(Exception):  # the database, just now: the next reading follows
                self.pace(log.pacing())  # a page opened late starts with the class's pacing
            self._pacer = threading.Thread(target=self._follow_pacing, name="calcnb-pacing", daemon=True)
            self._pacer.start()

    # ------------------------------------------------------------ the class's pacing

    def pace(self, pacing: Pacing, *, send_again: bool = False) -> None:
        """Hold the exercises ``pacing`` does not open (see :meth:`calcnb.ui.lesson.Exercise.hold`), and cover the
        page while it is paused; what is typed stays. On the kernel's thread (or its loop).

        Only what changed goes to the page, unless ``send_again``: then what is held (and the cover) is sent again.
        """
        self.pacing = pacing
        cover = eyes_on_the_board() if pacing.paused else ""
        if send_again and cover and self.eyes.value == cover:
            self.eyes.send_state("value")
        self.eyes.value = cover
        for exercise in getattr(self.quiz, "exercises", ()):
            if pacing.open(exercise.number):
                note = None
            else:
                note = message("classroom.eyes_more" if pacing.paused else "classroom.not_open")
            if note != self._held.get(exercise):
                exercise.hold(note)
                self._held[exercise] = note
            elif send_again and note is not None:
                exercise.send_hold_again()

    def _follow_pacing(self) -> None:
        """The pacing thread: read the class's pacing every :data:`PACING_SECONDS`, and apply it on the kernel's
        loop when it turns one (exercises shown since the last reading are held too); it ends with :meth:`close`,
        or once the page's widgets are closed."""
        readings = 0
        while not self._stop_pacing.wait(PACING_SECONDS):
            if self.comm is None:  # the page is gone (the class server closes a page's widgets with its kernel)
                return
            try:
                pacing = self.class_log.pacing()
            except Exception:  # the database, just now: the page stays as it is until the next reading
                continue
            readings += 1
            self._home.call(functools.partial(self.pace, pacing, send_again=readings <= READINGS_SENT_AGAIN))

    # ------------------------------------------------------------ joining

    def join(self, nickname: str | None = None, *, code: str | None = None) -> bool:
        """Join the class as ``nickname`` (default: what is in the box); False if the name is not usable.

        A nickname someone has already joined under, or one that looks the same ("Ana" for "ana", a
        Cyrillic "а"), is not joined at once: the page asks for that nickname's rejoin code, which
        the student's first page showed, and ``code`` goes on as that student when it is right.
        Otherwise two students under one nickname would show as one in the class view, and anyone
        could answer as anyone. A log that cannot be reached just now leaves the box open, and says
        so: the student joins a moment later.
        """
        if nickname is None:
            nickname = self.nickname_box.value
        if self.stopped or self.nickname is not None or not str(nickname).strip():
            return False
        try:
            try:
                self.class_log.check_file()
            except ClassLogMoved:  # the file was replaced before this student joined: join the new one
                self.class_log.reopen()
            taken = self.class_log.taken_as(nickname)
            if taken is not None and code is None:
                self._ask_for_the_code(taken)
                return False
            if taken is not None and not self._code_is_right(taken, code):
                return False
            try:
                self.nickname = self.class_log.join(taken or nickname, get_language(), new=taken is None)
            except NicknameTaken as error:  # another page joined under it since the look above: theirs
                self._ask_for_the_code(error.nickname)
                return False
            class_key = self.class_log.class_key()
        except ClassLogMoved:
            self.nickname = None
            self._say("classroom.join_failed")
            return False
        except ClassLogError as error:  # no readable character: say why, keep the box open
            self.status.value = html.escape(str(error))
            self.same_student.layout.display = "none"
            return False
        except Exception:  # the database, just now: the box stays open, the lesson goes on
            self.nickname = None
            self._say("classroom.join_failed")
            return False
        self.same_student.layout.display = "none"
        self.nickname_box.value = self.nickname
        self.nickname_box.disabled = self.join_button.disabled = True
        key = "classroom.rejoined" if taken is not None else "classroom.joined"
        said = message(key, nickname=self.nickname, code=rejoin_code(class_key, self.nickname))
        tell_the_teacher(
            "classroom.terminal_rejoined" if taken is not None else "classroom.terminal_joined", self.nickname
        )
        self.status.value = html.escape(said)
        if self.quiz is not None:  # the class's own key: the variants cannot be worked out from the name alone
            self.quiz.use_name(self.nickname, class_key=class_key)
        self.outbox.start(self.nickname)
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

    # ------------------------------------------------------------ the save line

    def record(self, attempt: Attempt) -> str | None:
        """The answer listener: keep one check for the log once joined; returns at once, never raises.

        The outbox writes it; until it is in, the page says "Saving…". A check that comes too fast after this
        page's others is not kept, and the sentence returned says so under the exercise's feedback.
        """
        if self.outbox is None or self.nickname is None:
            return None
        return None if self.outbox.record(attempt) else message("classroom.too_fast")

    def record_game(self, deal: PlayedDeal) -> None:
        """The game listener: keep one deal the lesson's player played, once joined (their deals follow their
        nickname); returns at once, never raises."""
        if self.outbox is not None and self.nickname is not None:
            self.outbox.record_game(deal)

    def games_played(self) -> list[dict[str, Any]]:
        """This student's games already in the log (as :meth:`ClassLog.games` gives them), for a page that joins
        again after a reload; empty before joining. Raises the database's error."""
        if self.class_log is None or self.nickname is None:
            return []
        return self.class_log.games(self.nickname)

    def _show(self) -> None:
        """Bring the save line up to date from the outbox's figures; on the kernel's thread."""
        outbox = self.outbox
        if outbox is None:
            return
        waiting = outbox.waiting
        line = ""
        if waiting and outbox.error is not None:
            text = message("classroom.not_reaching", count=waiting)
            line = f'<p style="color:{ERROR_TEXT}"><b>{html.escape(text)}</b></p>'
        elif waiting:
            line = f"<p>{html.escape(message('classroom.saving', count=waiting))}</p>"
        elif outbox.checks:
            line = f"<p>{html.escape(message('classroom.saved', count=outbox.recorded))}</p>"
        if outbox.refused:
            line += f"<p><i>{html.escape(message('classroom.refused', count=outbox.refused))}</i></p>"
        if line:
            self.save_status.value = line

    def _say(self, key: str) -> None:
        self.status.value = f'<p style="color:{ERROR_TEXT}"><b>{html.escape(message(key))}</b></p>'

    def close(self) -> None:
        """Stop listening, make one last try at what waits, close the log's connections (and the widgets)."""
        remove_answer_listener(self.record)
        remove_game_listener(self.record_game)
        self._stop_pacing.set()
        if self._pacer is not None:
            self._pacer.join(timeout=10)
        if self.outbox is not None:
            self.outbox.stop()
        if self.class_log is not None:
            self.class_log.close()
        super().close()

    def __repr__(self) -> str:
        state = "stopped" if self.stopped else f"joined as {self.nickname!r}" if self.nickname else "not joined"
        recorded, waiting = (self.outbox.recorded, self.outbox.waiting) if self.outbox is not None else (0, 0)
        return f"<ClassRecorder {state}, {recorded} recorded, {waiting} waiting>"


def _css_string(text: str) -> str:
    """``text`` as a CSS string (quoted), safe inside a ``<style>`` element."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", "\\A ")
    return f'"{escaped}"'


def eyes_on_the_board() -> str:
    """What covers a paused page: the whole window dimmed, "Eyes on the board" and why in large type over it.

    Drawn by the page's ``body`` itself (its ``::after`` and ``::before``), so no container of the page, on either
    server, can hold it in or paint over it; the same words in an element of their own are what a screen reader
    says (``role="alert"``) and what a test reads.
    """
    title, more = message("classroom.eyes"), message("classroom.eyes_more")
    return (
        "<style>"
        'body::after{content:"";position:fixed;inset:0;background:rgba(255,255,255,0.93);z-index:2147483646}'
        f"body::before{{content:{_css_string(title + chr(10) + more)};position:fixed;inset:0;z-index:2147483647;"
        "display:flex;align-items:center;justify-content:center;text-align:center;white-space:pre-line;"
        "font-size:2.2em;font-weight:bold;line-height:1.6;padding:1em;color:#000}"
        "</style>"
        f'<div class="calcnb-eyes-cover" role="alert"><b>{html.escape(title)}</b> {html.escape(more)}</div>'
    )


#: The recorder of this kernel's page (one per visitor on the class server, calcnb.core.visits).
_active: PerVisit[list[ClassRecorder]] = PerVisit("calcnb.class_recorders", list)


def tell_the_teacher(key: str, nickname: str) -> None:
    """One line in the teacher's terminal (the kernel's own stderr, which the app's server shares), never the page's.

    The nickname has no control or format characters once the log has it (calcnb.classlog.names); anything
    unprintable left is shown as "?", so no nickname can move the cursor or colour the terminal.
    """
    printable = "".join(character if character.isprintable() else "?" for character in nickname)
    terminal = sys.__stderr__
    if terminal is None:  # a kernel started without a terminal: nothing to tell
        return
    with contextlib.suppress(OSError, ValueError):
        print(f"[calcnb] {message(key, nickname=printable)}", file=terminal, flush=True)


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
    active = _active.get()
    while active:
        active.pop().close()
    log: Any
    try:
        log = open_class_log(location, timeout=timeout)
    except Exception:  # unreachable server, bad schema: the lesson runs, unrecorded, and says so
        log = None
    recorder = ClassRecorder(log, quiz=quiz)
    active.append(recorder)
    return recorder
