"""The play widgets: :class:`PlayBoard` to play a game, :class:`Stepper` to walk through a lesson.

Both are ipywidgets ``VBox`` subclasses that show the board as a PNG image drawn
by one reused :class:`~calcnb.board.BoardRenderer`, so a click only updates the
board's artists and re-encodes the picture.

The widgets hold no game logic. A :class:`PlayBoard` asks its
:class:`~calcnb.session.Game` which moves are legal (``why_illegal``), what a
move does (``explain``, asked before playing it), and plays, undoes and redoes
through it. Every button is made once and then only its ``disabled``,
``tooltip`` and ``description`` change, so a click never rebuilds the view.

``board.buttons`` maps move notation (``T``, ``S>F1`` .. ``S>W4``, ``W1>F1`` ..
``W4>F4``) and ``undo``, ``redo``, ``hint``, ``new`` to the Button a person
clicks; tests and notebooks click the same ones (``board.buttons["S>F2"].click()``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

import ipywidgets as widgets

from .board import BoardRenderer
from .deals import Seed
from .engine import ALL_MOVES, STOCK_TO_FOUNDATION, STOCK_TO_WASTE, TURN, WASTE_TO_FOUNDATION, Move, State
from .examples import Step
from .i18n import message, register
from .session import Game

__all__ = ["PlayBoard", "Stepper", "css_class", "end_of_game", "parse_seed"]

register(
    {
        "en": {
            "widget.turn": "Turn",
            "widget.turn_tip": "Turn the next card of the stock ({count} left)",
            "widget.stock_row": "Stock, {count} left:",
            "widget.pending_row": "Turned card {card} to:",
            "widget.no_pending_row": "Turned card (none) to:",
            "widget.waste_row": "Top of W{waste}, {card}, to:",
            "widget.empty_waste_row": "W{waste} (empty) to:",
            "widget.to_foundation": "F{foundation} (+{foundation})",
            "widget.to_waste": "W{waste}",
            "widget.undo": "Undo",
            "widget.redo": "Redo",
            "widget.hint": "Hint",
            "widget.new": "New deal",
            "widget.seed": "Seed",
            "widget.seed_placeholder": "seed or deal code; empty = random",
            "widget.dealt_code": "Dealt from the deal code. Click Turn to begin.",
            "widget.bad_deal": "That deal code cannot be dealt: {error}",
            "widget.loaded": "Game loaded: {moves} moves played, score {score}/52.",
            "widget.undo_tip": "Take back {move}",
            "widget.nothing_to_undo": "Nothing to undo: no move has been played",
            "widget.redo_tip": "Play {move} again",
            "widget.nothing_to_redo": "Nothing to redo: no move has been taken back",
            "widget.hint_tip": "Suggest a move, judged only from what you can see",
            "widget.new_tip": "Deal a new game from the seed or deal code in the field (random when empty)",
            "widget.game_over": "The game is over",
            "widget.ready": "Seed {seed}. Click Turn to turn the first card; a greyed-out button says why in its tooltip.",  # noqa: E501
            "widget.ready_position": "Your move: a greyed-out button says why in its tooltip.",
            "widget.undone": "Took back {move}: {card} is back where it was.",
            "widget.undone_turn": "Took back the turn: {card} is face down on the stock again.",
            "widget.redone": "Played {move} again. {explanation}",
            "widget.hint_says": "Hint: {move}. {why}",
            "widget.new_deal": "New deal, seed {seed} (type it in the seed field to deal this game again). Click Turn to begin.",  # noqa: E501
            "widget.not_now": "{move} cannot be played now: {reason}.",
            "widget.won": "Won! All 52 cards are on the foundations.",
            "widget.lost": "Lost: no move is left. Score {score}/52.",
            "widget.prev": "◀ Previous",
            "widget.next": "Next ▶",
            "widget.reset": "Back to the start",
            "widget.step_of": "Step {number} of {count}",
            "widget.game_and_seed": "give a game or a seed, not both: the seed would be ignored",
            "widget.no_steps": "a stepper needs at least one step",
            "widget.bad_start": "start must be a step number from 0 to {last}; got {start!r}",
        },
        "pt": {
            "widget.turn": "Virar",
            "widget.turn_tip": "Virar a carta seguinte do monte (restam {count})",
            "widget.stock_row": "Monte, restam {count}:",
            "widget.pending_row": "Carta virada {card} para:",
            "widget.no_pending_row": "Carta virada (nenhuma) para:",
            "widget.waste_row": "Topo do D{waste}, {card}, para:",
            "widget.empty_waste_row": "D{waste} (vazio) para:",
            "widget.to_foundation": "B{foundation} (+{foundation})",
            "widget.to_waste": "D{waste}",
            "widget.undo": "Desfazer",
            "widget.redo": "Refazer",
            "widget.hint": "Dica",
            "widget.new": "Nova distribuição",
            "widget.seed": "Semente",
            "widget.seed_placeholder": "semente ou código; vazio = ao acaso",
            "widget.dealt_code": "Distribuído a partir do código. Clique em Virar para começar.",
            "widget.bad_deal": "Esse código de distribuição não serve: {error}",
            "widget.loaded": "Jogo carregado: {moves} jogadas feitas, pontos {score}/52.",
            "widget.undo_tip": "Desfazer {move}",
            "widget.nothing_to_undo": "Nada a desfazer: ainda não se jogou nada",
            "widget.redo_tip": "Jogar {move} outra vez",
            "widget.nothing_to_redo": "Nada a refazer: nenhuma jogada foi desfeita",
            "widget.hint_tip": "Sugerir uma jogada, julgada só pelo que se vê",
            "widget.new_tip": "Distribuir um jogo novo da semente ou do código no campo (ao acaso se vazio)",
            "widget.game_over": "O jogo terminou",
            "widget.ready": "Semente {seed}. Clique em Virar para virar a primeira carta; um botão desativado diz porquê na sua dica.",  # noqa: E501
            "widget.ready_position": "É a sua vez: um botão desativado diz porquê na sua dica.",
            "widget.undone": "Desfez {move}: {card} voltou para onde estava.",
            "widget.undone_turn": "Desfez a viragem: {card} voltou, tapada, para o monte.",
            "widget.redone": "Jogou {move} outra vez. {explanation}",
            "widget.hint_says": "Dica: {move}. {why}",
            "widget.new_deal": "Nova distribuição, semente {seed} (escreva-a no campo da semente para voltar a este jogo). Clique em Virar para começar.",  # noqa: E501
            "widget.not_now": "{move} não pode ser jogada agora: {reason}.",
            "widget.won": "Ganhou! As 52 cartas estão nas bases.",
            "widget.lost": "Perdeu: não há mais jogadas. Pontos {score}/52.",
            "widget.prev": "◀ Anterior",
            "widget.next": "Seguinte ▶",
            "widget.reset": "Voltar ao início",
            "widget.step_of": "Passo {number} de {count}",
            "widget.game_and_seed": "indique um jogo ou uma semente, não os dois: a semente seria ignorada",
            "widget.no_steps": "um guia de passos precisa de pelo menos um passo",
            "widget.bad_start": "o início tem de ser um número de passo de 0 a {last}; recebi {start!r}",
        },
    }
)

# Sizes chosen for a classroom projector: the board is 960 px wide, buttons big enough to hit.
_BOARD_LAYOUT = {"width": "100%", "max_width": "960px"}
_ROW_LABEL_WIDTH = "15em"
_MOVE_BUTTON_WIDTH = "7.5em"
_CONTROL_WIDTH = "10em"


def parse_seed(text: str) -> Seed | None:
    """The seed typed in a seed field: None when empty (a random deal), an int when whole, else the text."""
    cleaned = text.strip()
    if not cleaned:
        return None
    try:
        return int(cleaned)
    except ValueError:
        return cleaned


def css_class(name: str) -> str:
    """The CSS class a page (or a browser test) finds a button by: ``S>F1`` -> ``calcnb-btn-S-F1``."""
    return "calcnb-btn-" + name.replace(">", "-")


def _html_line(text: str) -> str:
    return f"<div style='font-size:1.1em;min-height:1.5em'>{escape(text)}</div>"


def _row(label: widgets.Label, buttons: Sequence[widgets.Button]) -> widgets.HBox:
    return widgets.HBox([label, *buttons])


def _row_label() -> widgets.Label:
    return widgets.Label(layout=widgets.Layout(width=_ROW_LABEL_WIDTH))


def _set(widget: widgets.Widget, **values: object) -> None:
    # Assign only what changed: each real change is a message to the browser.
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)


def end_of_game(state: State) -> str | None:
    """The game's end said plainly (won, or lost with the score), or None while it goes on."""
    status = state.status
    if status == "won":
        return message("widget.won")
    if status == "lost":
        return message("widget.lost", score=state.score)
    return None


class PlayBoard(widgets.VBox):
    """Play a game of Calculation with buttons; the board redraws after every click.

    ``PlayBoard()`` deals a random game, ``PlayBoard(seed=7)`` deal 7, ``PlayBoard(game)`` drives a
    given :class:`~calcnb.session.Game`. Attributes: ``game`` (the Game being played), ``buttons``
    (move notation and ``undo``, ``redo``, ``hint``, ``new`` to their Button), ``image`` (the board
    picture), ``message`` (the text of the message line), ``seed_input`` (the seed field).
    After :func:`calcnb.set_language`, :meth:`refresh` shows the board in the new language.
    """

    def __init__(self, game: Game | None = None, *, seed: Seed | None = None) -> None:
        if game is not None and seed is not None:
            raise ValueError(message("widget.game_and_seed"))
        self.game: Game = game if game is not None else Game.new(seed)
        self.renderer = BoardRenderer()
        self.image = widgets.Image(format="png", layout=widgets.Layout(**_BOARD_LAYOUT))
        self.hinted: Move | None = None
        self.displayed_state: State | None = None
        """The state the image shows (it is redrawn from ``game.state`` after every click)."""
        self._message = ""
        self._message_line = widgets.HTML()
        self._message_line.add_class("calcnb-message")
        self.image.add_class("calcnb-board-image")

        self.buttons: dict[str, widgets.Button] = {}
        for move in ALL_MOVES:
            button = widgets.Button(layout=widgets.Layout(width=_MOVE_BUTTON_WIDTH))
            button.add_class(css_class(move.text))
            button.on_click(self._move_handler(move))
            self.buttons[move.text] = button
        controls: dict[str, Callable[[], None]] = {
            "undo": self._undo,
            "redo": self._redo,
            "hint": self._hint,
            "new": self._new_deal,
        }
        for name, action in controls.items():
            button = widgets.Button(layout=widgets.Layout(width=_CONTROL_WIDTH))
            button.add_class(css_class(name))
            button.on_click(lambda _button, action=action: action())
            self.buttons[name] = button
        self.buttons["new"].button_style = "primary"
        self.seed_input = widgets.Text(layout=widgets.Layout(width="16em"))

        # One row per source of a card, as a person reads the table: the stock, the turned card, each waste top.
        self._stock_label = _row_label()
        self._pending_label = _row_label()
        self._waste_labels = [_row_label() for _ in range(4)]
        b = self.buttons
        rows = [
            _row(self._stock_label, [b[TURN.text]]),
            _row(
                self._pending_label,
                [b[m.text] for m in STOCK_TO_FOUNDATION] + [widgets.Label(" ")] + [b[m.text] for m in STOCK_TO_WASTE],
            ),
            *(_row(label, [b[m.text] for m in WASTE_TO_FOUNDATION[w]]) for w, label in enumerate(self._waste_labels)),
        ]
        control_row = widgets.HBox([b["undo"], b["redo"], b["hint"], widgets.Label("  "), b["new"], self.seed_input])
        super().__init__([self.image, self._message_line, *rows, control_row])
        if game is None:
            self._say(message("widget.ready", seed=self.game.seed))
        else:
            self._say(message("widget.ready_position"))
        self.refresh()

    # ------------------------------------------------------------ what is shown

    @property
    def message(self) -> str:
        """The text of the message line: what the last click did, and the end of the game when it came."""
        return self._message

    def _say(self, text: str) -> None:
        end = end_of_game(self.game.state)
        if end is not None and end not in text:
            text = f"{text} {end}"
        self._message = text
        self._message_line.value = _html_line(text)

    def refresh(self) -> None:
        """Bring every button, label and the board image up to date with the game (and the language)."""
        game = self.game
        state = game.state
        for move in ALL_MOVES:
            reason = state.why_illegal(move)
            button = self.buttons[move.text]
            if reason is None:
                # The turn's tooltip must not name the card: the stock is face down.
                tip = message("widget.turn_tip", count=len(state.stock)) if move is TURN else state.explain(move)
            else:
                tip = reason
            _set(
                button,
                description=self._move_label(move),
                disabled=reason is not None,
                tooltip=tip,
                # Legal moves stand out (blue, like the board's legal marks); the hinted one is orange.
                button_style="warning" if move is self.hinted else "info" if reason is None else "",
            )
        self._refresh_controls()
        self._refresh_row_labels(state)
        self.image.value = self.renderer.render_png(game, highlight=self.hinted)
        self.displayed_state = state

    @staticmethod
    def _move_label(move: Move) -> str:
        if move is TURN:
            return message("widget.turn")
        if move.kind == Move.STOCK_TO_WASTE:
            return message("widget.to_waste", waste=move.waste)
        return message("widget.to_foundation", foundation=move.foundation)

    def _refresh_controls(self) -> None:
        game = self.game
        b = self.buttons
        history, redo = game.history, game.redo_moves
        _set(
            b["undo"],
            description=message("widget.undo"),
            disabled=not history,
            tooltip=message("widget.undo_tip", move=history[-1]) if history else message("widget.nothing_to_undo"),
        )
        _set(
            b["redo"],
            description=message("widget.redo"),
            disabled=not redo,
            tooltip=message("widget.redo_tip", move=redo[0]) if redo else message("widget.nothing_to_redo"),
        )
        over = game.state.is_terminal()
        _set(
            b["hint"],
            description=message("widget.hint"),
            disabled=over,
            tooltip=message("widget.game_over") if over else message("widget.hint_tip"),
        )
        _set(b["new"], description=message("widget.new"), tooltip=message("widget.new_tip"))
        _set(self.seed_input, description=message("widget.seed"), placeholder=message("widget.seed_placeholder"))

    def _refresh_row_labels(self, state: State) -> None:
        _set(self._stock_label, value=message("widget.stock_row", count=len(state.stock)))
        if state.pending is None:
            _set(self._pending_label, value=message("widget.no_pending_row"))
        else:
            _set(self._pending_label, value=message("widget.pending_row", card=state.pending))
        for number, (label, pile) in enumerate(zip(self._waste_labels, state.wastes), start=1):
            if pile:
                _set(label, value=message("widget.waste_row", waste=number, card=pile[-1]))
            else:
                _set(label, value=message("widget.empty_waste_row", waste=number))

    # ------------------------------------------------------------ what a click does

    def _move_handler(self, move: Move) -> Callable[[widgets.Button], None]:
        def on_click(_button: widgets.Button) -> None:
            self._play(move)

        return on_click

    def _play(self, move: Move) -> None:
        state = self.game.state
        reason = state.why_illegal(move)
        if reason is not None:
            # Only a stale view (or code clicking a disabled button) gets here: say why, change nothing.
            self._say(message("widget.not_now", move=move, reason=reason))
            self.refresh()
            return
        explanation = state.explain(move)  # asked before playing: it describes the move from here
        self.game.play(move)
        self.hinted = None
        self._say(explanation)
        self.refresh()

    def _undo(self) -> None:
        move = self.game.undo()
        if move is None:
            self._say(message("widget.nothing_to_undo"))
        else:
            card = self.game.state.card_moved_by(move)
            key = "widget.undone_turn" if move is TURN else "widget.undone"
            self._say(message(key, move=move, card=card))
        self.hinted = None
        self.refresh()

    def _redo(self) -> None:
        upcoming = self.game.redo_moves
        if not upcoming:
            self._say(message("widget.nothing_to_redo"))
        else:
            explanation = self.game.explain(upcoming[0])
            move = self.game.redo()
            self._say(message("widget.redone", move=move, explanation=explanation))
        self.hinted = None
        self.refresh()

    def _hint(self) -> None:
        from .strategies import hint  # the strategies load only when a hint is first asked for

        move, why = hint(self.game.state)
        self.hinted = move
        if move is None:
            self._say(why)  # the strategy says why there is no move (the game is over)
        else:
            self._say(message("widget.hint_says", move=move, why=why))
        self.refresh()

    def load(self, game: Game) -> None:
        """Drive ``game`` from now on: a loaded save, a deal code's game, a lesson position."""
        self.game = game
        self.hinted = None
        self._say(message("widget.loaded", moves=len(game.history), score=game.score))
        self.refresh()

    def _new_deal(self) -> None:
        text = self.seed_input.value
        if "|" in text:  # a deal code rather than a seed
            try:
                game = Game.from_deal(text)
            except ValueError as error:
                self._say(message("widget.bad_deal", error=error))
                return
            self.load(game)
            self._say(message("widget.dealt_code"))
            return
        self.game = Game.new(parse_seed(text))
        self.hinted = None
        self._say(message("widget.new_deal", seed=self.game.seed))
        self.refresh()


class Stepper(widgets.VBox):
    """Walk through a script of :class:`~calcnb.examples.Step`: the board and a caption at each step.

    ``script`` is a list of steps, or a function returning one (such as
    :func:`calcnb.examples.worked_example`); a function is called again by
    :meth:`refresh`, so the captions follow :func:`calcnb.set_language`.
    ``stepper.buttons`` holds ``prev``, ``next`` and ``reset``; ``stepper.index``
    is the step shown (0-based), ``stepper.step`` that Step, ``stepper.caption`` its caption.
    """

    def __init__(self, script: Sequence[Step] | Callable[[], Sequence[Step]], *, start: int = 0) -> None:
        self._make_script = script if callable(script) else None
        self.script: list[Step] = list(script() if callable(script) else script)
        if not self.script:
            raise ValueError(message("widget.no_steps"))
        if not 0 <= start < len(self.script):
            raise ValueError(message("widget.bad_start", last=len(self.script) - 1, start=start))
        self.renderer = BoardRenderer()
        self.image = widgets.Image(format="png", layout=widgets.Layout(**_BOARD_LAYOUT))
        self._counter = widgets.Label()
        self._title = widgets.HTML()
        self._caption = widgets.HTML()
        self.buttons: dict[str, widgets.Button] = {
            name: widgets.Button(layout=widgets.Layout(width=_CONTROL_WIDTH)) for name in ("prev", "next", "reset")
        }
        for name, button in self.buttons.items():
            button.add_class(css_class(name))
        self.image.add_class("calcnb-board-image")
        self._counter.add_class("calcnb-counter")
        self._caption.add_class("calcnb-caption")
        self.buttons["prev"].on_click(lambda _button: self.go(self.index - 1))
        self.buttons["next"].on_click(lambda _button: self.go(self.index + 1))
        self.buttons["reset"].on_click(lambda _button: self.go(0))
        self.buttons["next"].button_style = "primary"
        self.index = start
        controls = widgets.HBox([self.buttons["prev"], self.buttons["next"], self.buttons["reset"], self._counter])
        super().__init__([self._title, self._caption, controls, self.image])
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
        self._caption.value = f"<p style='font-size:1.15em;max-width:48em'>{escape(step.caption)}</p>"
        self.image.value = self.renderer.render_png(step.state, highlight=step.highlight, last_move=step.last_move)

    def refresh(self) -> None:
        """Redraw in the current language (a script made by a function is made again)."""
        if self._make_script is not None:
            self.script = list(self._make_script())
        self.go(self.index)
