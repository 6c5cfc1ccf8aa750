"""The coach on the play board: "Analyse" (each move's chance, as a chart) and "Watch" (a player plays).

:func:`coach` adds a :class:`CoachPanel` beside a :class:`~calcnb.widgets.PlayBoard`:

- **Analyse** asks :func:`calcnb.coach.analyse` about the position on the board (about a second)
  and shows each legal move's chance of winning as a bar with its interval, and in plain words:
  "put it on waste 2: wins about 64 in 100 futures".
- **Watch** lets a player from the ladder, random to determinized, play the game on the board
  move by move, at the pace set on the slider, until the game ends or "Stop" is pressed; each
  move is explained on the board's message line and under the buttons.
"""

from __future__ import annotations

import io
import random
import threading
from html import escape

import ipywidgets as widgets
from matplotlib.figure import Figure

from .blind import Determinized
from .coach import MoveChance, analyse, describe_move
from .engine import ALL_MOVES, Move
from .i18n import message, register
from .rules import MoveKind
from .strategies import FirstFit, KingsApart, MonteCarlo, Player, PlayerView, RandomPlayer, ReverseNeed, _why
from .widgets import PlayBoard

__all__ = ["CoachPanel", "chance_chart", "coach", "watch_players"]


def watch_players() -> dict[str, Player]:
    """The players the viewer may watch, weakest first."""
    ladder = [RandomPlayer(), FirstFit(), ReverseNeed(), KingsApart(), MonteCarlo(samples=128), Determinized()]
    return {player.name: player for player in ladder}


def chance_chart(chances: list[MoveChance]) -> bytes:
    """A small PNG: one bar per move, its chance of winning, the interval as a black line."""
    figure = Figure(figsize=(3.6, 0.45 * len(chances) + 0.8))
    ax = figure.subplots()
    names = [chance.move.text for chance in chances][::-1]
    rates = [100 * chance.chance for chance in chances][::-1]
    low = [100 * (chance.chance - chance.interval[0]) for chance in chances][::-1]
    high = [100 * (chance.interval[1] - chance.chance) for chance in chances][::-1]
    ax.barh(names, rates, color="#6a9fd4")
    ax.errorbar(rates, names, xerr=[low, high], fmt="none", ecolor="black", capsize=3)
    ax.set_xlim(0, 100)
    ax.set_xlabel(message("coach.widget.axis"))
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


class CoachPanel(widgets.VBox):
    """The Analyse and Watch controls for ``board``; :func:`coach` puts one beside the board.

    Attributes: ``buttons`` (``analyse``, ``watch``, ``stop``), ``player`` (the dropdown of
    :func:`watch_players`), ``pace`` (seconds per move), ``chart`` (the chances' picture),
    ``text`` (the chances or the last move's explanation, in words), ``chances`` (the last analysis).
    """

    def __init__(self, board: PlayBoard, *, seconds: float = 1.0) -> None:
        self.board = board
        self.seconds = seconds
        self.players = watch_players()
        self.chances: list[MoveChance] = []
        self.buttons = {name: widgets.Button(description=message(f"coach.widget.{name}")) for name in _BUTTONS}
        self.buttons["analyse"].on_click(lambda _: self.analyse())
        self.buttons["watch"].on_click(lambda _: self.watch())
        self.buttons["stop"].on_click(lambda _: self.stop())
        self.player = widgets.Dropdown(options=list(self.players), value="reverse need")
        self.pace = widgets.FloatSlider(value=1.0, min=0.2, max=3.0, step=0.1, readout_format=".1f")
        self.chart = widgets.Image(format="png", layout=widgets.Layout(max_width="22em"))
        self.text = widgets.HTML()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._labels = (widgets.Label(), widgets.Label())
        super().__init__(
            [
                self.buttons["analyse"],
                self.chart,
                self.text,
                widgets.HBox([self._labels[0], self.player]),
                widgets.HBox([self._labels[1], self.pace]),
                widgets.HBox([self.buttons["watch"], self.buttons["stop"]]),
            ]
        )
        self.refresh()

    def refresh(self) -> None:
        """Labels in the current language."""
        for name, button in self.buttons.items():
            button.description = message(f"coach.widget.{name}")
        self._labels[0].value = message("coach.widget.player")
        self._labels[1].value = message("coach.widget.pace")

    # ------------------------------------------------------------ Analyse

    def analyse(self) -> list[MoveChance]:
        """Analyse the board's position: the chart and the sentences; returns the chances."""
        self.chances = analyse(self.board.game.state, seconds=self.seconds)
        if not self.chances:
            self.chart.value = b""
            self.text.value = escape(message("coach.widget.over"))
            return self.chances
        self.chart.value = chance_chart(self.chances)
        self.text.value = "<br>".join(escape(str(chance)) for chance in self.chances)
        return self.chances

    # ------------------------------------------------------------ Watch

    def step(self) -> bool:
        """The chosen player makes one move on the board, explained; False when the game is over."""
        player = self.players[self.player.value]
        view = PlayerView.of(self.board.game.state)
        move, reason = _choice_and_reason(player, view)
        if move is None:
            return False
        self.board.buttons[move.text].click()
        self.text.value = escape(
            message("coach.widget.played", player=player.name, move=describe_move(move), reason=reason)
        )
        return True

    def watch(self) -> None:
        """Start playing in the background at the chosen pace until the game ends or Stop is pressed."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._watch_loop, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching after the move in hand."""
        self._stopping.set()

    def _watch_loop(self) -> None:
        while not self._stopping.is_set() and self.step():
            if self._stopping.wait(self.pace.value):
                break


_BUTTONS = ("analyse", "watch", "stop")


def _choice_and_reason(player: Player, view: PlayerView) -> tuple[Move | None, str]:
    """The player's move in ``view`` and why, in its own terms (the arithmetic for a foundation move or a turn)."""
    table = view._table()
    rng = random.Random(view._fingerprint())
    if isinstance(player, MonteCarlo):
        index, evaluation = player._advise(table.copy(), rng)
    else:
        index, evaluation = player._next(table.copy(), rng), {}
    if index is None:
        return None, ""
    move = ALL_MOVES[index]
    if isinstance(player, Determinized):
        return move, _determinized_reason(player, move)
    if move.kind == MoveKind.STOCK_TO_WASTE and not isinstance(player, ReverseNeed):
        return move, message("coach.widget.random" if isinstance(player, RandomPlayer) else "coach.widget.first_fit")
    return move, _why(view, table, move, player, evaluation)


def _determinized_reason(player: Determinized, move) -> str:
    results = player.last_results
    if not results:
        return message("coach.widget.forced")
    chosen = results[move.id]
    return message(
        "coach.widget.determinized",
        won=chosen.won,
        unknown=chosen.unknown,
        futures=chosen.futures,
        choices=len(results),
    )


def coach(board: PlayBoard) -> CoachPanel:
    """Put the coach's controls beside ``board``; returns them."""
    panel = CoachPanel(board)
    board.add_panel(panel)
    return panel


register(
    {
        "en": {
            "coach.widget.analyse": "Analyse",
            "coach.widget.watch": "Watch",
            "coach.widget.stop": "Stop",
            "coach.widget.player": "Player",
            "coach.widget.pace": "Seconds per move",
            "coach.widget.axis": "wins in 100 futures",
            "coach.widget.over": "The game is over: there is no move to analyse.",
            "coach.widget.played": "{player} chose to {move}. {reason}",
            "coach.widget.random": "A random player picks any legal move.",
            "coach.widget.first_fit": "First fit puts every card that fits no foundation on the first waste pile.",
            "coach.widget.forced": "Nothing else was worth weighing here.",
            "coach.widget.determinized": (
                "Over {futures} imagined orders of the face-down cards the solver found a win after this "
                "move in {won} (and could not tell in {unknown}): the best of {choices} choices."
            ),
        },
        "pt": {
            "coach.widget.analyse": "Analisar",
            "coach.widget.watch": "Ver jogar",
            "coach.widget.stop": "Parar",
            "coach.widget.player": "Jogador",
            "coach.widget.pace": "Segundos por jogada",
            "coach.widget.axis": "vitórias em 100 futuros",
            "coach.widget.over": "O jogo acabou: não há jogada para analisar.",
            "coach.widget.played": "{player} escolheu {move}. {reason}",
            "coach.widget.random": "Um jogador ao acaso escolhe qualquer jogada legal.",
            "coach.widget.first_fit": (
                "O primeiro encaixe põe no primeiro descarte cada carta que não serve a uma base."
            ),
            "coach.widget.forced": "Aqui não havia mais nada a ponderar.",
            "coach.widget.determinized": (
                "Em {futures} ordens imaginadas das cartas viradas para baixo, o resolvedor achou uma vitória "
                "depois desta jogada em {won} (e não soube dizer em {unknown}): a melhor de {choices} escolhas."
            ),
        },
    }
)
