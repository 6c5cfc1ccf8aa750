"""The lesson widgets: exercises to answer in a notebook or app, the board as a picture, and the answer listeners.

The content (tables, items and their judge) lives in :mod:`calcnb.exercises`, which has no
widgets; this module shows it. A :class:`Quiz` is handed a bank of exercises and the order a lesson
asks them in (:meth:`calcnb.lessons.Lesson.quiz` makes it), and gives a student their own variant of
each exercise: drawn per visit, or fixed by the name they type (the same name gets the same
questions, so a teacher can print that student's answer sheet). Each
:class:`Exercise` has an answer box and a Check button that always replaces the feedback; "Show
answer" appears only after an answer was read and judged wrong (an empty or unreadable one does not
count), and never when the teacher turned it off (:data:`NO_REVEAL_ENV_VAR`). Every check, and every
answer shown, is told to the answer listeners (:func:`add_answer_listener`) as an
:class:`~calcnb.exercises.items.Attempt`.

>>> from calcnb.exercises.bank import Bank
>>> from calcnb.exercises.items import ExerciseKind
>>> def double(variant, number):
...     return dict(question=f"{number} + {number}?", kind="number", accepted=frozenset({2 * number}),
...                 solution=str(2 * number), why=f"{number} + {number} = {2 * number}")
>>> quiz = Quiz(Bank([ExerciseKind("double", ((2,), (3,)), double)]), ("double",), seed="Ana")
>>> group = quiz.next()
>>> group.exercises[0].check(quiz.exercises[0].item.solution).correct, quiz.remaining
(True, ())

"""

from __future__ import annotations

import html
import secrets
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import ipywidgets as widgets

from calcnb.core.settings import NO_REVEAL
from calcnb.core.visits import PerVisit
from calcnb.exercises.bank import Bank
from calcnb.exercises.items import Attempt, Feedback, Item, Outcome, answer_key, judge
from calcnb.exercises.tables import (
    attempt,
    clock_table,
    coverage_table,
    inverse_table,
    lesson_game,
    move_table,
    multiples_table,
    nearly_won_game,
    next_card_table,
    order_summary,
    order_table,
    position_table,
    position_text,
    positions_check,
    replay_lines,
    replay_script,
    script_text,
)
from calcnb.exercises.words import game_summary, played_again, same_game, save_summary, status_summary, took_back
from calcnb.game.engine import State
from calcnb.game.errors import quote
from calcnb.game.game import Game
from calcnb.i18n import get_language, message
from calcnb.ui.before_run import ShownWhenRun
from calcnb.ui.palette import BLUE, DARK_GREY, VERMILION, palette_png

__all__ = [
    "NO_REVEAL_ENV_VAR",
    "Attempt",
    "Exercise",
    "ExerciseGroup",
    "Feedback",
    "Quiz",
    "add_answer_listener",
    "add_game_listener",
    "answer_key",
    "attempt",
    "board_image",
    "board_panel",
    "clock_table",
    "coverage_table",
    "game_summary",
    "inverse_table",
    "lesson_game",
    "move_table",
    "multiples_table",
    "nearly_won_game",
    "next_card_table",
    "order_summary",
    "order_table",
    "played_again",
    "position_table",
    "position_text",
    "positions_check",
    "remove_answer_listener",
    "remove_game_listener",
    "replay_lines",
    "replay_script",
    "reveal_allowed",
    "same_game",
    "save_summary",
    "script_text",
    "status_summary",
    "tell_game_listeners",
    "took_back",
]

# Okabe-Ito colours, told apart with any colour vision; the ✓ and ✗ marks say it without colour too.
_RIGHT_COLOUR = BLUE
_WRONG_COLOUR = VERMILION
_UNREAD_COLOUR = DARK_GREY

#: The environment variable through which ``python -m calcnb app --no-reveal`` turns Show answer off in the kernels
#: (the setting :data:`calcnb.core.settings.NO_REVEAL`).
NO_REVEAL_ENV_VAR = NO_REVEAL.variable


def reveal_allowed() -> bool:
    """May a student have an exercise's answer shown? Not when the app was started with ``--no-reveal``."""
    return not NO_REVEAL.read()


# ---------------------------------------------------------------- answer listeners

EventT = TypeVar("EventT")  # what listeners are told of: an attempt, or a deal


class _Listeners(Generic[EventT]):
    """Callbacks told of each event, each added once: one list per visitor on the class server
    (:mod:`calcnb.core.visits`), the kernel's elsewhere. A callback that raises is ignored with a warning."""

    def __init__(self, key: str) -> None:
        self._lists: PerVisit[list[Callable[[EventT], object]]] = PerVisit(key, list)

    def get(self) -> list[Callable[[EventT], object]]:
        """The current visitor's callbacks, in the order added."""
        return self._lists.get()

    def add(self, callback: Callable[[EventT], object]) -> None:
        listeners = self._lists.get()
        if callback not in listeners:
            listeners.append(callback)

    def remove(self, callback: Callable[[EventT], object]) -> None:
        listeners = self._lists.get()
        if callback in listeners:
            listeners.remove(callback)

    def tell(self, event: EventT) -> list[object]:
        """Call every callback with ``event``; what each returned (one that raised is warned of and left out)."""
        answers = []
        for callback in list(self._lists.get()):
            try:
                answers.append(callback(event))
            except Exception as error:  # a broken recorder must never break a student's exercise or games
                name = getattr(callback, "__qualname__", type(callback).__qualname__)  # a function, or an object
                said = message("lessons.listener_failed", listener=name, error=quote(error))
                warnings.warn(said, RuntimeWarning, stacklevel=3)  # where the lesson told them
        return answers


#: The answer listeners, told of every check and every answer shown.
_listeners: _Listeners[Attempt] = _Listeners("calcnb.answer_listeners")


def add_answer_listener(callback: Callable[[Attempt], object]) -> None:
    """Call ``callback(attempt)`` with an :class:`~calcnb.exercises.items.Attempt` after every check of an exercise.

    A listener that raises is ignored (with a warning): the student's feedback is shown first and never breaks.
    A listener that returns a sentence (a str) has it shown under the feedback (a recorder saying the answer
    was not saved).
    """
    _listeners.add(callback)


def remove_answer_listener(callback: Callable[[Attempt], object]) -> None:
    """Stop calling ``callback``; a callback that was never added is ignored."""
    _listeners.remove(callback)


#: The game listeners, told of every deal a lesson's player plays.
_game_listeners: _Listeners[object] = _Listeners("calcnb.game_listeners")


def add_game_listener(callback: Callable[[object], object]) -> None:
    """Call ``callback(deal)`` after every deal a lesson's player plays for the student: the class recorder keeps
    each in the class log."""
    _game_listeners.add(callback)


def remove_game_listener(callback: Callable[[object], object]) -> None:
    """Stop calling ``callback`` with deals; a callback that was never added is ignored."""
    _game_listeners.remove(callback)


def tell_game_listeners(deal: object) -> None:
    """Tell every game listener of ``deal``; a listener that raises is ignored (with a warning)."""
    _game_listeners.tell(deal)


def _tell_listeners(attempt: Attempt) -> list[str]:
    """Tell every listener of ``attempt``; returns the sentences they asked to show under the feedback."""
    return [said for said in _listeners.tell(attempt) if isinstance(said, str) and said]


# ---------------------------------------------------------------- the exercise widget


class Exercise(widgets.VBox):
    """One exercise of the bank: its question, an answer box, Check, and (after a wrong answer) Show answer.

    Type into ``answer_box`` and click ``check_button`` (or call :meth:`check`); the verdict
    always replaces what ``feedback`` said before. ``item`` is the worked-out
    :class:`~calcnb.exercises.items.Item`; :meth:`set_item` puts another variant in its place.
    ``show_button`` appears once an answer was read and judged wrong, and goes once one is right;
    with ``reveal`` False (default: :func:`reveal_allowed`) it never appears and ``off_note`` says
    Show answer is off instead.
    """

    def __init__(self, item: Item, number: int | None = None, *, reveal: bool | None = None) -> None:
        self.number = number  # as on the worksheet and in the teacher's key (None: unnumbered)
        self.reveal_on = reveal_allowed() if reveal is None else reveal
        self.prompt = widgets.HTML()
        # every keystroke reaches the kernel, so Enter (sent on the key press) checks what is in the box
        self.answer_box = widgets.Text(placeholder=message("lessons.placeholder"), continuous_update=True)
        self.answer_box.layout.width = "12em"
        self.check_button = widgets.Button(description=message("lessons.check"), button_style="primary")
        self.show_button = widgets.Button(description=message("lessons.show"))
        self.show_button.add_class("calcnb-show")
        self.off_note = widgets.HTML(f"<i>{html.escape(message('lessons.show_off'))}</i>")
        self.off_note.add_class("calcnb-show-off")
        self.feedback = widgets.HTML()
        self.feedback.add_class("calcnb-feedback")
        self.held_note = widgets.HTML()  # why the exercise waits, while held (see hold)
        self.held_note.add_class("calcnb-held")
        self.held_note.layout.display = "none"
        self.add_class("calcnb-exercise")
        row = widgets.HBox([self.answer_box, self.check_button, self.show_button, self.off_note])
        super().__init__([self.prompt, row, self.held_note, self.feedback])
        self._on_attempt: list[Callable[[Feedback], object]] = []
        self.check_button.on_click(lambda _button: self.check())
        with warnings.catch_warnings():  # Enter in the box checks too (ipywidgets calls on_submit deprecated)
            warnings.simplefilter("ignore", DeprecationWarning)
            self.answer_box.on_submit(lambda _box: self.check())
        self.show_button.on_click(lambda _button: self.reveal())
        self.set_item(item)

    def on_attempt(self, callback: Callable[[Feedback], object]) -> None:
        """Call ``callback(feedback)`` after each check, once the feedback is shown."""
        self._on_attempt.append(callback)

    def set_item(self, item: Item) -> None:
        """Show ``item`` instead: the box, the feedback and the attempts start afresh."""
        self.item = item
        self.last: Feedback | None = None
        self.attempts = 0
        self.judged_wrong = False  # an answer was read and judged wrong: Show answer may be pressed
        self.judged_right = False
        self.revealed = False
        numbered = (
            item.question
            if self.number is None
            else message("worksheet.numbered", number=self.number, question=item.question)
        )
        self.prompt.value = f"<b>{html.escape(numbered)}</b>"
        self.answer_box.value = ""
        self.feedback.value = ""
        self._show_buttons()

    def hold(self, note: str | None) -> None:
        """Hold the exercise: its box and buttons disabled, ``note`` said under them; None lets it go on.

        What is typed in the box stays there, held or not (the class's pacing holds exercises: a lesson's page
        whose teacher paused the class, or has not opened the exercise yet).
        """
        held = note is not None
        for control in (self.answer_box, self.check_button, self.show_button):
            control.disabled = held
        self.held_note.value = "" if note is None else f"<i>{html.escape(note)}</i>"
        self.held_note.layout.display = None if held else "none"

    def send_hold_again(self) -> None:
        """Send the page what :meth:`hold` last set, unchanged (for a front end that may have missed it)."""
        for control in (self.answer_box, self.check_button, self.show_button):
            control.send_state("disabled")
        self.held_note.send_state("value")
        self.held_note.layout.send_state("display")

    @property
    def held(self) -> bool:
        """Is the exercise held (see :meth:`hold`)?"""
        return self.check_button.disabled

    def may_reveal(self) -> bool:
        """Would Show answer show the answer now? Only after a wrong answer, before a right one, if it is on."""
        return self.reveal_on and self.judged_wrong and not self.judged_right

    def _show_buttons(self) -> None:
        self.show_button.layout.display = None if self.may_reveal() else "none"
        off = not self.reveal_on and self.judged_wrong and not self.judged_right
        self.off_note.layout.display = None if off else "none"

    @property
    def exercise_id(self) -> str:
        return self.item.exercise_id

    def check(self, answer: str | None = None) -> Feedback | None:
        """Judge ``answer`` (by default what is in the answer box), show the verdict and return it; None, judging
        nothing, while the exercise is held (a page can send a click all the same)."""
        if self.held:
            return None
        if answer is None:
            answer = self.answer_box.value
        else:
            self.answer_box.value = answer
        verdict = judge(self.item, answer)
        self.attempts += 1
        self.last = verdict
        self.judged_wrong |= verdict.correct is False
        self.judged_right |= verdict.correct is True
        # The buttons first: the page then never shows a verdict beside buttons that belong to the answer before.
        self._show_buttons()
        self._show(verdict, str(self.attempts))
        for callback in self._on_attempt:
            callback(verdict)
        outcome = {True: Outcome.RIGHT, False: Outcome.WRONG, None: Outcome.UNREADABLE}[verdict.correct]
        notes = self._tell(answer, outcome, verdict.misconception if outcome is Outcome.WRONG else None)
        if notes:
            self._show(verdict, str(self.attempts), notes)
        return verdict

    def reveal(self) -> str:
        """Show the answer and its reasoning, and return that sentence; "" (and a note why) when refused.

        Refused before an answer was read and judged wrong, and when Show answer is off: the button is
        hidden then, but a page can still send its click. After a right answer it does nothing.
        """
        if self.judged_right or self.held:  # said already, or the exercise waits: nothing to show, nothing to refuse
            return ""
        if not self.may_reveal():
            key = "lessons.show_off" if not self.reveal_on else "lessons.show_refused"
            self._show(Feedback(None, message(key)), f"{self.attempts}-refused")
            return ""
        self.revealed = True
        text = message("lessons.answer_is", answer=self.item.solution, why=self.item.why)
        self._show(Feedback(None, text), f"{self.attempts}-answer")
        notes = self._tell("", Outcome.REVEALED, None)
        if notes:
            self._show(Feedback(None, text), f"{self.attempts}-answer", notes)
        return text

    def _tell(self, answer: str, outcome: Outcome, misconception: str | None) -> list[str]:
        attempt = Attempt(
            self.exercise_id, self.item.variant, answer, outcome, misconception, get_language(), time.time()
        )
        return _tell_listeners(attempt)

    def _show(self, verdict: Feedback, check: str, notes: Sequence[str] = ()) -> None:
        """Replace the feedback; ``check`` numbers it, so the same words said twice still arrive as new.
        ``notes`` (from the answer listeners) follow it, each on a line of its own."""
        colour = {True: _RIGHT_COLOUR, False: _WRONG_COLOUR}.get(verdict.correct, _UNREAD_COLOUR)
        text = html.escape(verdict.text)
        said = "".join(f"<br><i class='calcnb-note'>{html.escape(note)}</i>" for note in notes)
        self.feedback.value = f"<span data-check='{check}' style='color:{colour}'>{text}</span>{said}"

    def __repr__(self) -> str:
        return f"Exercise({self.exercise_id!r})"


class ExerciseGroup(ShownWhenRun, widgets.VBox):
    """Some exercises shown together (one section's worth); ``exercises`` lists them."""

    def shown_text(self) -> str:
        """The exercises' numbers, as the page numbers them ("exercises 3 to 4")."""
        numbers = [exercise.number for exercise in self.exercises if exercise.number is not None]
        if not numbers:
            return super().shown_text()
        first, last = min(numbers), max(numbers)
        if first == last:
            return message("before_run.exercise", first=first)
        return message("before_run.exercises", first=first, last=last)

    def __init__(self, exercises: list[Exercise], after: widgets.Widget | None = None) -> None:
        self.exercises = exercises
        self.after = after
        super().__init__([*exercises, *([after] if after is not None else [])])

    def __repr__(self) -> str:
        return f"ExerciseGroup({[exercise.exercise_id for exercise in self.exercises]!r})"


class _NameBox(ShownWhenRun, widgets.VBox):
    shown_as = "before_run.name_box"

    def __repr__(self) -> str:
        return "NameBox()"


class Quiz:
    """One student's exercises: their variants fixed by a seed drawn for this visit, or by the name they type.

    ``bank`` holds the exercises and ``order`` is the order the lesson asks them in: :meth:`next` gives the
    next ones of a section, so a notebook never writes the order again; :meth:`show` gives exercises by
    identifier (a page that is no lesson). ``name_box`` is the widget asking for the name. Typing a name
    (or :meth:`use_name`) puts that name's variant in every exercise shown. The variants also follow
    ``class_key``, the class log's secret (:meth:`calcnb.exercises.items.ExerciseKind.variant_for`).
    """

    def __init__(
        self, bank: Bank, order: Sequence[str] = (), seed: object = None, *, class_key: str | None = None
    ) -> None:
        self.bank = bank
        self.order = tuple(order)
        unknown = [exercise_id for exercise_id in self.order if exercise_id not in bank]
        if unknown:
            raise KeyError(message("lessons.unknown_exercises", exercises=", ".join(unknown)))
        self.seed = secrets.token_hex(8) if seed is None else seed
        self.class_key = class_key
        self.exercises: list[Exercise] = []
        self._name_listeners: list[Callable[[object, str | None], object]] = []
        self._name = widgets.Text(placeholder=message("lessons.name_placeholder"), continuous_update=False)
        self._name.layout.width = "14em"
        button = widgets.Button(description=message("lessons.name_button"))
        self._said = widgets.HTML()
        self._name.observe(lambda change: self.use_name(change["new"]), "value")
        button.on_click(lambda _button: self.use_name(self._name.value))
        label = widgets.Label(message("lessons.name_label"))
        help_text = widgets.HTML(f"<p>{html.escape(message('lessons.name_help'))}</p>")
        self.name_box = _NameBox([help_text, widgets.HBox([label, self._name, button]), self._said])

    def use_name(self, name: str, *, class_key: str | None = None) -> None:
        """Give every exercise this name's variant (a blank name keeps the current questions).

        ``class_key``, when given, is the class's key from now on (the recorder passes the class log's).
        """
        name = " ".join(str(name).split())[:60]
        if not name or (name == self.seed and class_key in (None, self.class_key)):
            return
        self.seed = name
        if class_key is not None:
            self.class_key = class_key
        self._said.value = html.escape(message("lessons.name_done", name=name))
        for exercise in self.exercises:
            exercise.set_item(self._item(exercise.exercise_id))
        for callback in list(self._name_listeners):
            callback(self.seed, self.class_key)

    def on_name(self, callback: Callable[[object, str | None], object]) -> None:
        """Call ``callback(name, class_key)`` whenever the quiz takes a new name (a lesson's own deals follow it)."""
        self._name_listeners.append(callback)

    def _item(self, exercise_id: str) -> Item:
        return self.bank[exercise_id].item(self.bank.variant_for(exercise_id, self.seed, self.class_key))

    @property
    def remaining(self) -> tuple[str, ...]:
        """The exercises of the order not shown yet."""
        return self.order[len(self.exercises) :]

    def next(self, count: int = 1, *, board: State | Game | None = None) -> ExerciseGroup:
        """The next ``count`` exercises of the lesson's order, this student's variants (see :meth:`show`)."""
        if not 1 <= count <= len(self.remaining):
            raise ValueError(message("lessons.no_more_exercises", count=count, left=len(self.remaining)))
        return self.show(*self.remaining[:count], board=board)

    def show(self, *exercise_ids: str, board: State | Game | None = None) -> ExerciseGroup:
        """The exercises ``exercise_ids`` (keys of the bank), this student's variants.

        With ``board`` (a position), the board is drawn under them once each has been tried: it marks
        where the turned card may go, so it would give the answer away before.
        """
        # numbered in the order the page shows them: the order of the worksheet and of the teacher's key
        first = len(self.exercises) + 1
        made = [Exercise(self._item(exercise_id), first + index) for index, exercise_id in enumerate(exercise_ids)]
        self.exercises.extend(made)
        if board is None:
            return ExerciseGroup(made)
        panel = board_panel(board)
        panel.selected_index = 0
        panel.layout.display = "none"

        def reveal(_feedback: Feedback) -> None:
            if all(exercise.attempts for exercise in made):
                panel.layout.display = None

        for exercise in made:
            exercise.on_attempt(reveal)
        return ExerciseGroup(made, after=panel)


# ---------------------------------------------------------------- the board as a picture


def _board_png(game_or_state: State | Game, dpi: int, draw_options: dict) -> bytes:
    """The board drawn at ``dpi``, as a palette PNG: the board has few colours, so it stays small."""
    from calcnb.ui.board import draw

    return palette_png(draw(game_or_state, **draw_options), dpi)


def board_image(game_or_state: State | Game, *, dpi: int = 60, **draw_options: object) -> object:
    """The board as a modest PNG image for a notebook (``draw_options`` as for :func:`calcnb.ui.board.draw`).

    Smaller than the board's own ``_repr_png_`` (fewer pixels, 64 colours), so stored notebooks stay light.
    """
    from IPython.display import Image

    return Image(data=_board_png(game_or_state, dpi, draw_options), format="png")


def board_panel(game_or_state: State | Game, *, dpi: int = 60, **draw_options: object) -> widgets.Accordion:
    """The board in a closed panel, opened with a click: for exercises whose answer the board would show.

    The board marks where the turned card may legally go, which gives an exercise away; closed,
    it lets the reader answer first and check on the board afterwards.
    """
    image = widgets.Image(value=_board_png(game_or_state, dpi, draw_options), format="png")
    panel = widgets.Accordion(children=[image], selected_index=None)
    panel.set_title(0, message("lessons.board_panel"))
    return panel
