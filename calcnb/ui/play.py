"""The play widgets: :class:`PlayBoard` to play a game, :class:`Stepper` to walk through a lesson.

Both show the board as a picture drawn by one reused :class:`~calcnb.ui.board.BoardRenderer`, with
the text board (``print(game)``) as the picture's alternative text, so a screen reader reads the same
position a sighted player sees. The widgets hold no game logic: a :class:`PlayBoard` asks its
:class:`~calcnb.game.game.Game` what is legal and what a move does, and plays, undoes and redoes
through it. A person plays with the mouse on the cards or with the buttons beside the board, which
the keyboard and screen readers reach; :meth:`PlayBoard.press`, :meth:`PlayBoard.click_place` and
:meth:`PlayBoard.double_click_place` do the same from code. A :class:`PlayBoard` is one widget drawn
by a Vue template (:mod:`calcnb.ui.view`), however many buttons it shows. How a click is handled:
``docs/design.md``.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Sequence
from html import escape

import ipywidgets as widgets

from calcnb.exercises.examples import Step
from calcnb.game.cards import rank_name
from calcnb.game.deals import Seed
from calcnb.game.engine import ALL_MOVES, STOCK_TO_FOUNDATION, STOCK_TO_WASTE, TURN, WASTE_TO_FOUNDATION, Move, State
from calcnb.game.errors import CalcnbError, quote
from calcnb.game.game import Game
from calcnb.game.rules import MoveKind
from calcnb.i18n import Words, message
from calcnb.ui.before_run import ShownWhenRun
from calcnb.ui.board import HEIGHT, WIDTH, BoardRenderer, place_at
from calcnb.ui.view import PlayView, control, css_class, png_size

__all__ = ["Picture", "PlayBoard", "SeedField", "Stepper", "css_class", "end_of_game", "parse_seed", "png_size"]


# The stepper's board column grows to fill the width beside its buttons, but never so tall that the page must
# scroll at 768 px high (the picture is 3:2); below 768 px wide the column wraps under the board. The play
# board's own layout is in its template (calcnb.ui.view.PLAY_TEMPLATE).
_BOARD_COLUMN = {
    "flex": "1 1 520px",
    "min_width": "300px",
    "max_width": "min(960px, calc((100vh - 56px) * 1.5))",
    "overflow": "visible",  # never a scrolling box of its own
}
_SIDE_PANEL = {"flex": "0 0 390px", "max_width": "100%", "margin": "0 0 0 12px"}
_HINT_TRIES = 3  # positions a Hint thinks about before giving up on a game that keeps moving under it
# The move buttons, one row per card that can move, as a person reads the table: the stock, the turned card
# to a foundation, the turned card to a waste pile, then each waste pile's top to a foundation.
_MOVE_ROWS: tuple[tuple[Move, ...], ...] = (
    (TURN,),
    tuple(STOCK_TO_FOUNDATION),
    tuple(STOCK_TO_WASTE),
    *(tuple(moves) for moves in WASTE_TO_FOUNDATION),
)


_WHOLE_NUMBER = re.compile(r"[-+]?[0-9]+")


def parse_seed(text: str) -> Seed | None:
    """The seed typed in a seed field: None when empty (a random deal), an int when whole, else the text."""
    cleaned = text.strip()
    if not cleaned:
        return None
    # Only ASCII digits make a number: int() would also read "٣" or "1_000", which are texts (other deals).
    if _WHOLE_NUMBER.fullmatch(cleaned):
        try:
            return int(cleaned)
        except ValueError:  # more digits than Python reads; the seed check refuses it by its length
            return cleaned
    return cleaned


def _set(widget: widgets.Widget, **values: object) -> None:
    # Assign only what changed, in one message to the browser however many traits changed (each message
    # costs the kernel and the server a relay, times every student of a class).
    changed = {name: value for name, value in values.items() if getattr(widget, name) != value}
    with widget.hold_sync():
        for name, value in changed.items():
            setattr(widget, name, value)


def end_of_game(state: State) -> str | None:
    """The game's end said plainly (won, or lost with the score), or None while it goes on."""
    status = state.status
    if status == "won":
        return message("widget.won")
    if status == "lost":
        return message("widget.lost", score=state.score)
    return None


def move_sentence(state: State, move: Move) -> str:
    """What playing ``move`` from ``state`` does, as a short sentence: ``Put 9♣ on foundation 3.``"""
    card = state.card_moved_by(move)
    if move.kind == MoveKind.TURN:
        return message("widget.say.turn", card=card)
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return message("widget.say.to_waste", card=card, waste=move.waste)
    return message("widget.say.to_foundation", card=card, foundation=move.foundation)


def refusal_reason(state: State, move: Move) -> str | None:
    """Why ``move`` cannot be played from ``state``, in the app's words (no notation); None when it can."""
    refusal = state.refusal(move)
    if refusal is None:
        return None
    return message("widget.why." + refusal.code, **refusal.values)


def hint_sentence(state: State, move: Move | None) -> str:
    """A hint as one short sentence: ``Hint: put 9♣ on foundation 3.``"""
    if move is None:
        return message("widget.hint.none")
    card = state.card_moved_by(move)
    if move.kind == MoveKind.TURN:
        return message("widget.hint.turn")
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return message("widget.hint.to_waste", card=card, waste=move.waste)
    return message("widget.hint.to_foundation", card=card, foundation=move.foundation)


class Picture(widgets.HTML):
    """A PNG ``<img>`` with its alternative text, both replaced together: the board with the text board."""

    def __init__(self, **layout: str) -> None:
        super().__init__(layout=widgets.Layout(**layout))
        self.add_class("calcnb-board")
        self.png = b""
        self.alt = ""

    def show(self, png: bytes, alt: str) -> None:
        """Show the picture ``png`` described by ``alt``.

        Each new value replaces the ``<img>`` element, so the picture is made safe to replace under
        the pointer: its pixel size is written in the tag, which keeps its box the same size while the
        browser decodes the new picture (without it the box is 0 px high for that moment, and a click
        lands below the board), and it takes no pointer events, so a click pressed on one picture and
        released on the next is one click on the box around them, which stays.
        """
        self.png, self.alt = png, alt
        data = base64.b64encode(png).decode("ascii")
        width, height = png_size(png)
        self.value = (
            f'<img class="calcnb-board-image" src="data:image/png;base64,{data}" alt="{escape(alt)}" '
            f'width="{width}" height="{height}" '
            f'style="display:block;width:100%;height:auto;pointer-events:none" draggable="false">'
        )


class SeedField:
    """The seed field as code sees it: ``value`` is what is typed there (set it to type), as on the page."""

    def __init__(self, board: PlayBoard) -> None:
        self.board = board

    @property
    def value(self) -> str:
        return self.board.seed

    @value.setter
    def value(self, text: str) -> None:
        self.board.seed = text

    @property
    def description(self) -> str:
        return self.board.seed_label

    @property
    def placeholder(self) -> str:
        return self.board.seed_placeholder


class PlayBoard(PlayView):
    """Play a game of Calculation by clicking the cards or the buttons; the board redraws after every click.

    ``PlayBoard()`` deals a random game, ``PlayBoard(seed=7)`` deal 7, ``PlayBoard(game)`` drives a
    given :class:`~calcnb.game.game.Game`. It is one widget (:class:`~calcnb.ui.view.PlayView`, drawn by a
    Vue template): the picture, and beside it real buttons, one row per card that can move, the message
    line and the seed field.

    Attributes: ``game`` (the Game being played), ``buttons`` (move notation and ``undo``, ``redo``,
    ``hint``, ``new`` to a :class:`~calcnb.ui.view.Control`: what the button shows, and ``click()``),
    ``png`` and ``alt`` (the picture shown and its alternative text, the text board), ``message``
    (the message line's sentence), ``detail`` (what "Why?" opens), ``ending`` (the end of the game, on
    its own line), ``seed_input`` (the seed field: its ``value``), ``selected`` (the place whose card
    was picked by a click: ``pending`` or ``W1``..``W4``). :meth:`press` clicks a button by its name,
    :meth:`click_place` and :meth:`double_click_place` click the picture. :meth:`add_panel` puts more
    widgets beside the board or under it, and :meth:`on_refresh` tells them when the board has changed
    (a move, a new deal, a new language). After :func:`calcnb.set_language`, :meth:`refresh` shows the
    board in the new language.
    """

    shown_as = "before_run.play_board"

    def __init__(self, game: Game | None = None, *, seed: Seed | None = None) -> None:
        if game is not None and seed is not None:
            raise ValueError(message("widget.game_and_seed"))
        actions: dict[str, Callable[[], None]] = {move.text: self._move_action(move) for move in ALL_MOVES}
        actions.update(undo=self._undo, redo=self._redo, hint=self._hint, new=self._new_deal)
        super().__init__(actions)
        self.game: Game = game if game is not None else Game.new(seed)
        self._on_refresh: list[Callable[[], None]] = []
        self.renderer = BoardRenderer()
        self.hinted: Move | None = None
        self.selected: str | None = None
        self.displayed_state: State | None = None
        """The state the board shows; a click on a board showing another state plays nothing."""
        self._message, self._detail = "", ""
        self.seed_input = SeedField(self)
        with self.hold_sync():  # the first board reaches the page in one message, not one for each part
            self.rows = [{"label": "", "names": [m.text for m in moves]} for moves in _MOVE_ROWS]
            self._say(message("widget.ready") if game is None else message("widget.ready_position"))
            self.refresh()

    def __repr__(self) -> str:
        # A widget's repr lists its synced traits: here the picture's PNG and every button. Say what is played
        # instead, as the page shows it (never the deal code: it would name the cards still face down).
        game = self.game
        where = f"seed={game.seed!r}" if game.seed is not None else "a given deal"
        return f"{type(self).__name__}({where}, moves={len(game.history)}, score={game.score}, {game.status})"

    def add_panel(self, widget: widgets.Widget, *, beside: bool = True) -> None:
        """Add ``widget`` under the controls beside the board (``beside``), or under the board and controls."""
        if beside:
            self.beside = [*self.beside, widget]
        else:
            self.below = [*self.below, widget]

    def on_refresh(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every redraw of the board (a move, undo, a new deal, :meth:`refresh`)."""
        self._on_refresh.append(callback)

    # ------------------------------------------------------------ what is shown

    @property
    def message(self) -> str:
        """The message line: what the last click did, or why it did nothing."""
        return self._message

    @property
    def detail(self) -> str:
        """The detail one click away ("Why?") under the message line: the arithmetic, a hint's reasons."""
        return self._detail

    @property
    def ending(self) -> str:
        """The end of the game (won, or lost with the score), on its own line; empty while it goes on."""
        return end_of_game(self.game.state) or ""

    def _say(self, text: str, detail: str = "") -> None:
        self._message, self._detail = text, detail
        self.said_key += 1  # a new "Why?" opens closed, whatever the last one was
        self._show_message()

    def _show_message(self) -> None:
        with self.hold_sync():
            self.said, self.said_detail, self.said_more = self._message, self._detail, message("widget.more")
            self.ending_line = self.ending

    def refresh(self) -> None:
        """Bring every button, label and the board picture up to date with the game (and the language)."""
        with self.hold_sync():  # the whole board reaches the page in one message
            self._refresh()
        for callback in self._on_refresh:
            callback()

    def _refresh(self) -> None:
        game = self.game
        state = game.state
        if self.selected is not None and not self._source_moves(state, self.selected):
            self.selected = None
        states: dict[str, dict[str, object]] = {}
        for move in ALL_MOVES:
            reason = refusal_reason(state, move)
            if reason is None:
                # The turn's tooltip must not name the card: the stock is face down.
                tip = message("widget.turn_tip", count=len(state.stock)) if move is TURN else move_sentence(state, move)
            else:
                tip = reason
            # Legal moves stand out (blue, like the board's legal marks); the hinted one is orange.
            tone = "hint" if move is self.hinted else "legal" if reason is None else ""
            width = "calcnb-wide" if move is TURN else "calcnb-move"  # a word, not a pile's name
            states[move.text] = control(
                self._move_label(move),
                tip,
                disabled=reason is not None,
                tone=tone,
                cls=f"{css_class(move.text)} {width}",
            )
        states.update(self._control_states())
        self.show_controls(states)
        self._show_row_labels(state)
        self.seed_label, self.seed_placeholder = message("widget.seed"), message("widget.seed_placeholder")
        self._show_message()
        self.show_picture(self.renderer.render_png(game, highlight=self._highlight(state)), str(state))
        self.displayed_state = state

    def _highlight(self, state: State) -> tuple[Move, ...]:
        if self.hinted is not None:
            return (self.hinted,)
        if self.selected is not None:
            return tuple(self._source_moves(state, self.selected))
        return ()

    @staticmethod
    def _move_label(move: Move) -> str:
        if move is TURN:
            return message("widget.turn")
        if move.kind == MoveKind.STOCK_TO_WASTE:
            return message("widget.to_waste", waste=move.waste)
        return message("widget.to_foundation", foundation=move.foundation)

    def _control_states(self) -> dict[str, dict[str, object]]:
        game = self.game
        history, redo = game.history, game.redo_moves
        over = game.state.is_terminal()
        return {
            "undo": control(
                message("widget.undo"),
                message("widget.undo_tip") if history else message("widget.nothing_to_undo"),
                disabled=not history,
                cls=f"{css_class('undo')} calcnb-control",
            ),
            "redo": control(
                message("widget.redo"),
                message("widget.redo_tip") if redo else message("widget.nothing_to_redo"),
                disabled=not redo,
                cls=f"{css_class('redo')} calcnb-control",
            ),
            "hint": control(
                message("widget.hint"),
                message("widget.game_over") if over else message("widget.hint_tip"),
                disabled=over,
                cls=f"{css_class('hint')} calcnb-control",
            ),
            "new": control(message("widget.new"), message("widget.new_tip"), cls=f"{css_class('new')} calcnb-wide"),
        }

    def _show_row_labels(self, state: State) -> None:
        """The rows' labels: the card each row's buttons move, as a person reads the table."""
        if state.stock:
            labels = [message("widget.stock_row", count=len(state.stock))]
        else:
            labels = [message("widget.stock_row_empty")]
        if state.pending is None:
            labels.append(message("widget.no_pending_row"))
        else:
            labels.append(message("widget.pending_row", card=state.pending))
        labels.append(message("widget.pending_waste_row"))
        for number, pile in enumerate(state.wastes, start=1):
            if pile:
                labels.append(message("widget.waste_row", waste=number, card=pile[-1]))
            else:
                labels.append(message("widget.empty_waste_row", waste=number))
        rows = [dict(row, label=label) for row, label in zip(self.rows, labels, strict=True)]
        if rows != self.rows:
            self.rows = rows

    # ------------------------------------------------------------ what a click does

    def _current(self) -> bool:
        """True when the board shows the game's position; else bring it up to date, say so, and return False."""
        if self.game.state is self.displayed_state:
            return True
        self.hinted, self.selected = None, None
        self._say(message("widget.stale"))
        self.refresh()
        return False

    def _move_action(self, move: Move) -> Callable[[], None]:
        def play() -> None:
            if self._current():
                self._play(move)

        return play

    def _play(self, move: Move) -> None:
        state = self.game.state
        reason = refusal_reason(state, move)
        if reason is not None:
            # A disabled button clicked from code, or a card dropped where it does not fit: say why, change nothing.
            self.selected = None
            self._say(message("widget.refused", reason=reason))
            self.refresh()
            return
        sentence = move_sentence(state, move)  # asked before playing: it describes the move from here
        detail = "" if move is TURN else state.explain(move)
        self.game.play(move)
        self.hinted, self.selected = None, None
        self._say(sentence, detail)
        self.refresh()

    def _undo(self) -> None:
        if not self._current():
            return
        move = self.game.undo()
        if move is None:
            self._say(message("widget.nothing_to_undo"))
        else:
            card = self.game.state.card_moved_by(move)
            self._say(message("widget.undone_turn" if move is TURN else "widget.undone", card=card))
        self.hinted, self.selected = None, None
        self.refresh()

    def _redo(self) -> None:
        if not self._current():
            return
        upcoming = self.game.redo_moves
        if not upcoming:
            self._say(message("widget.nothing_to_redo"))
        else:
            state = self.game.state
            sentence = move_sentence(state, upcoming[0])
            detail = "" if upcoming[0] is TURN else state.explain(upcoming[0])
            self.game.redo()
            self._say(message("widget.redone", sentence=sentence), detail)
        self.hinted, self.selected = None, None
        self.refresh()

    def _hint(self) -> None:
        if not self._current():
            return
        # the strategies load only when a hint is first asked for
        from calcnb.players.advice import hint, hint_player_sentence

        # The hint thinks within its budget (calcnb.players.advice.HINT_NODES, HINT_SECONDS), so a click queued
        # behind it waits well under a second. What is shown is about the position on the board: should the game
        # move while it thinks (Watch plays from its own thread), it thinks again on the new position.
        for _ in range(_HINT_TRIES):
            state = self.game.state
            move, why = hint(state)
            if self.game.state is state:
                break
        else:
            self.hinted, self.selected = None, None
            self._say(message("widget.hint.moving"))
            self.refresh()
            return
        self.hinted, self.selected = move, None
        self._say(hint_sentence(state, move), f"{why} {hint_player_sentence()}" if move is not None else "")
        self.refresh()

    def load(self, game: Game) -> None:
        """Drive ``game`` from now on: a loaded save, a deal code's game, a lesson position."""
        with self.hold_sync():
            self.game = game
            self.hinted, self.selected = None, None
            self._say(message("widget.loaded", moves=len(game.history), score=game.score))
            self.refresh()

    def _new_deal(self) -> None:
        text = self.seed_input.value
        try:
            if "|" in text:  # a deal code rather than a seed
                game, said = Game.from_deal(text), message("widget.dealt_code")
            else:
                game = Game.new(parse_seed(text))
                said = message("widget.new_deal", seed=game.seed)
        except ValueError as error:
            # Nothing is dealt: the game on the board goes on, and the board shows it as it is.
            key = "widget.bad_deal" if "|" in text else "widget.bad_seed"
            self._say(message(key, error=error))
            self.refresh()
            return
        self.game = game
        self.hinted, self.selected = None, None
        self._say(said)
        self.refresh()

    # ------------------------------------------------------------ clicks on the cards

    @staticmethod
    def _source_moves(state: State, place: str) -> list[Move]:
        """The legal moves of the card at ``place`` (``pending`` or ``W1``..``W4``)."""
        moves = state.legal_moves()
        if place == "pending":
            return [m for m in moves if m.kind in (MoveKind.STOCK_TO_FOUNDATION, MoveKind.STOCK_TO_WASTE)]
        return [m for m in moves if m.kind == MoveKind.WASTE_TO_FOUNDATION and f"W{m.waste}" == place]

    @staticmethod
    def _card_at(state: State, place: str | None):
        if place == "pending":
            return state.pending
        if place is not None and place.startswith("W"):
            pile = state.wastes[int(place[1]) - 1]
            return pile[-1] if pile else None
        return None

    def board_event(self, kind: str, x: float, y: float, width: float) -> None:
        """A click (``kind``: ``click`` or ``dblclick``) at ``x``, ``y`` CSS pixels on the picture, ``width`` wide.

        The page measures a click against the picture's box, which the picture fills (3:2, as drawn).
        """
        if not width > 0:
            return
        scale = WIDTH / width  # inches per pixel on screen
        place = place_at(x * scale, HEIGHT - y * scale)
        if kind == "dblclick":
            self.double_click_place(place)
        else:
            self.click_place(place)

    def click_place(self, place: str | None) -> None:
        """What a click on the board at ``place`` does (a name of :func:`calcnb.ui.board.place_regions`, or None).

        The stock turns a card. The turned card or a waste top is picked up (framed on the board with
        where it may go); the next click on a pile puts it there, or says why it cannot go. A click
        beside every pile puts a picked card back.
        """
        with self.hold_sync():  # whatever the click changes reaches the page in one message
            self._click_place(place)

    def _click_place(self, place: str | None) -> None:
        if not self._current():
            return
        state = self.game.state
        if place == "stock":
            self.selected = None
            self._play(TURN)
            return
        if self.selected is not None and place is not None and place != self.selected:
            if place.startswith("F") or self.selected == "pending":
                prefix = "S" if self.selected == "pending" else self.selected
                self._play(Move.parse(f"{prefix}>{place}"))  # played, or refused with the reason
            else:  # from one waste pile to another
                self.selected = None
                self._say(message("widget.refused", reason=message("widget.why.waste_to_waste")))
                self.refresh()
            return
        if place == self.selected and place is not None:
            return  # the second click of a double-click: the card stays picked up
        card = self._card_at(state, place)
        if place is None or (card is None and place.startswith("F")):
            said = message("widget.put_back", card=self._card_at(state, self.selected)) if self.selected else None
            self.selected = None
            self._say(said or message("widget.pick_first"))
        elif card is None:
            self.selected = None
            self._say(message("widget.no_card_there"))
        else:
            self.selected, self.hinted = place, None
            self._say(message("widget.pick", card=card))
        self.refresh()

    def double_click_place(self, place: str | None) -> None:
        """What a double-click at ``place`` does: a card that fits exactly one foundation goes there."""
        with self.hold_sync():
            self._double_click_place(place)

    def _double_click_place(self, place: str | None) -> None:
        if not self._current():
            return
        state = self.game.state
        card = self._card_at(state, place)
        if card is None:
            return  # the two clicks already said what there is
        fits = [m for m in self._source_moves(state, place) if m.kind != MoveKind.STOCK_TO_WASTE]
        if len(fits) == 1:
            self._play(fits[0])
            return
        if fits:
            numbers = [m.foundation for m in fits]
            said = message("widget.fits_many", card=card, first=", ".join(map(str, numbers[:-1])), second=numbers[-1])
            self._say(said)
        else:
            needs = [
                message("widget.complete", foundation=k) if need is None else message("widget.needs", foundation=k,
                                                                                       need=rank_name(need))
                for k, need in enumerate(state.needs(), start=1)
            ]  # fmt: skip
            self._say(message("widget.fits_none", card=card), " ".join(needs))
        self.refresh()


class Stepper(ShownWhenRun, widgets.HBox):
    """Walk through a script of :class:`~calcnb.exercises.examples.Step`: the board and a caption at each step.

    ``script`` is a list of steps, or a function returning one (such as
    :func:`calcnb.exercises.examples.worked_example`); a function is called again by
    :meth:`refresh`, so the captions follow :func:`calcnb.set_language`.
    ``stepper.buttons`` holds ``prev``, ``next`` and ``reset``; ``stepper.index``
    is the step shown (0-based), ``stepper.step`` that Step, ``stepper.caption`` its caption.

    The board sits on the left and the buttons at the top of the column beside it, above the caption,
    so a caption of any length never moves them; in a narrow window the column wraps under the board.
    """

    shown_as = "before_run.stepper"

    def __init__(self, script: Sequence[Step] | Callable[[], Sequence[Step]], *, start: int = 0) -> None:
        self._make_script = script if callable(script) else None
        self.script: list[Step] = list(script() if callable(script) else script)
        if not self.script:
            raise ValueError(message("widget.no_steps"))
        if not 0 <= start < len(self.script):
            raise CalcnbError(Words("widget.bad_start", last=len(self.script) - 1, start=quote(start)))
        self.renderer = BoardRenderer()
        self.image = Picture(**_BOARD_COLUMN)
        self._counter = widgets.Label()
        self._title = widgets.HTML()
        self._caption = widgets.HTML()
        self.buttons: dict[str, widgets.Button] = {
            name: widgets.Button(layout=widgets.Layout(width="auto")) for name in ("prev", "next", "reset")
        }
        for name, button in self.buttons.items():
            button.add_class(css_class(name))
        self._counter.add_class("calcnb-counter")
        self._caption.add_class("calcnb-caption")
        self.buttons["prev"].on_click(lambda _button: self.go(self.index - 1))
        self.buttons["next"].on_click(lambda _button: self.go(self.index + 1))
        self.buttons["reset"].on_click(lambda _button: self.go(0))
        self.buttons["next"].button_style = "primary"
        self.index = start
        controls = widgets.HBox([self.buttons["prev"], self.buttons["next"], self.buttons["reset"]])
        column = widgets.VBox(
            [controls, self._counter, self._title, self._caption], layout=widgets.Layout(**_SIDE_PANEL)
        )
        super().__init__([self.image, column], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))
        self.add_class("calcnb-stepper")
        self.go(start)

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.script[self.index]

    @property
    def caption(self) -> str:
        """The caption of the step shown."""
        return self.step.caption

    def go(self, index: int) -> None:
        """Show step ``index`` (0-based; clamped to the script, so Next at the end stays there)."""
        self.index = max(0, min(index, len(self.script) - 1))
        step = self.step
        last = len(self.script) - 1
        b = self.buttons
        _set(b["prev"], description=message("widget.prev"), disabled=self.index == 0)
        _set(b["next"], description=message("widget.next"), disabled=self.index == last)
        _set(b["reset"], description=message("widget.reset"), disabled=self.index == 0)
        _set(self._counter, value=message("widget.step_of", number=self.index + 1, count=len(self.script)))
        self._title.value = f"<h3 style='margin:0.3em 0'>{escape(step.title)}</h3>" if step.title else ""
        self._caption.value = f"<p style='font-size:1.15em'>{escape(step.caption)}</p>"
        png = self.renderer.render_png(step.state, highlight=step.highlight, last_move=step.last_move)
        self.image.show(png, str(step.state))

    def refresh(self) -> None:
        """Redraw in the current language (a script made by a function is made again)."""
        if self._make_script is not None:
            self.script = list(self._make_script())
        self.go(self.index)
