"""The coach on the play board: "Analyse" (each move's chance, as a chart) and "Watch" (a player plays).

:class:`CoachedBoard` is the board students play on (the play app and notebook 04): a
:class:`~calcnb.ui.play.PlayBoard` with a :class:`CoachPanel` beside it; :func:`coach` adds the
panel to a board made elsewhere.

- **Analyse** asks :func:`calcnb.players.coach.analyse` about the position on the board (a quarter of a
  second at most where the solver runs compiled, a second interpreted)
  and shows each legal move's chance of winning as a small chart in plain words, a row per move:
  "put it on waste 2", a bar with its interval, "about 64 in 100"; under it, how many imagined
  orders of the face-down cards (futures) each move was tried on. The chart goes away when the
  board's position changes, so it never describes another position.
- **Watch** lets a player from the ladder, random to determinized, play the game on the board
  move by move, at the pace chosen (seconds per move), until the game ends or "Stop" is pressed; each
  move is explained on the board's message line and under the buttons. It starts on the hint's player
  where that is the strongest blind one (the solver compiled), else on reverse need, as the hint's player
  is then Monte Carlo, weaker than what the study calls strongest.
"""

from __future__ import annotations

import threading
from html import escape

from traitlets import TraitError, validate

from calcnb.game.deals import Seed
from calcnb.game.game import Game
from calcnb.i18n import message
from calcnb.players.advice import advise, hint_player, hint_player_for
from calcnb.players.blind import Determinized
from calcnb.players.coach import MoveChance, analyse, describe_move
from calcnb.players.player import Player
from calcnb.players.registry import ladder
from calcnb.players.table import PlayerView
from calcnb.solver import COMPILED
from calcnb.ui.palette import BLACK, BLUE, PALE_GREY
from calcnb.ui.play import PlayBoard
from calcnb.ui.view import CoachView

__all__ = ["CoachPanel", "CoachedBoard", "chance_chart", "coach", "player_label", "watch_default", "watch_players"]


def watch_players() -> dict[str, Player]:
    """The players the viewer may watch: the registry's ladder, weakest first, by name (the same in every language).

    Where the hint's player is not one of the ladder (the strongest blind player, when the solver runs
    compiled), it comes last, as the strongest.
    """
    players = ladder()
    hinting = hint_player_for(COMPILED)  # a player of its own: Watch's thread keeps its last choice in it
    players.setdefault(hinting.name, hinting)
    return players


def watch_default() -> str:
    """The player Watch starts on: the hint's where it is the strongest blind player, else reverse need."""
    hinting = hint_player()
    return hinting.name if isinstance(hinting, Determinized) else "reverse need"


def player_label(name: str) -> str:
    """A player's name as the viewer reads it, in the current language."""
    return message(f"coach.player.{name.replace(' ', '_')}")


def chance_chart(chances: list[MoveChance]) -> str:
    """The chances as a small HTML chart: a row per move, best first, in words, with a bar and its interval.

    Each row reads "put it on waste 2 | bar | about 64 in 100"; the bar's black line is the move's
    95% interval, and the row's tooltip is the whole sentence (:class:`~calcnb.players.coach.MoveChance`).
    The bars are hidden from screen readers, which read the words and numbers of the table.
    """
    if not chances:
        return ""
    # with no card face down one future is the whole truth: no interval to draw
    exact = chances[0].futures == 1 and not any(chance.unknown for chance in chances)
    rows = []
    for chance in chances:
        low, high = (chance.chance, chance.chance) if exact else chance.interval
        per100 = round(100 * chance.chance)
        bar = (
            f"<div aria-hidden='true' style='position:relative;height:0.9em;min-width:4em;background:{PALE_GREY}'>"
            f"<div style='position:absolute;left:0;top:0;bottom:0;width:{per100}%;background:{BLUE}'></div>"
            f"<div style='position:absolute;left:{100 * low:.1f}%;width:{100 * (high - low):.1f}%;top:40%;"
            f"height:0.2em;background:{BLACK}'></div></div>"
        )
        rows.append(
            f"<tr title='{escape(str(chance), quote=True)}'>"
            f"<th scope='row' style='text-align:left;font-weight:normal;padding:0.1em 0.5em 0.1em 0'>"
            f"{escape(describe_move(chance.move))}</th>"
            f"<td style='width:25%;padding:0.1em 0'>{bar}</td>"
            f"<td style='white-space:nowrap;padding:0.1em 0 0.1em 0.5em'>"
            f"{escape(message('coach.widget.per100', per100=per100))}</td></tr>"
        )
    caption = escape(message("coach.widget.caption"))
    futures = chances[0].futures
    note = escape(message("coach.widget.note_exact" if exact else "coach.widget.note", futures=futures))
    return (
        "<table class='calcnb-chances' style='width:100%;border-collapse:collapse;line-height:1.2;font-size:0.95em'>"
        f"<caption style='text-align:left;font-weight:bold'>{caption}</caption>{''.join(rows)}</table>"
        f"<div class='calcnb-chances-note' style='font-size:0.85em;line-height:1.25'>{note}</div>"
    )


class CoachPanel(CoachView):
    """The Analyse and Watch controls for ``board``; :func:`coach` puts one beside the board.

    One widget, drawn by a Vue template (:class:`~calcnb.ui.view.CoachView`). Attributes: ``buttons``
    (``analyse``, ``watch``, ``stop``: a :class:`~calcnb.ui.view.Control` each, its ``click()`` the
    button's), ``player`` (the name of the player Watch plays, chosen among :func:`watch_players`),
    ``pace`` (seconds per move, one of :data:`PACES`), ``chart`` (the chances as a table of bars,
    :func:`chance_chart`), ``said`` (what the coach is doing, or the last watched move and why),
    ``chances`` (the last analysis, cleared when the board changes). :meth:`press` clicks a button by its name.
    """

    def __init__(self, board: PlayBoard, *, seconds: float | None = None) -> None:
        super().__init__({"analyse": self.analyse, "watch": self.watch, "stop": self.stop})
        self.board = board
        self.seconds = seconds
        self.players = watch_players()
        self.chances: list[MoveChance] = []
        self._analysed = None  # the state the chances are about
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        with self.hold_sync():  # the panel's first state reaches the page in one message
            self._watch_enabled(True)
            self.refresh()
            self.player = watch_default()
            self.pace = 1.0
        board.on_refresh(self._board_changed)

    def refresh(self) -> None:
        """Labels in the current language."""
        with self.hold_sync():
            self.show_controls(
                {
                    name: {
                        "text": message(f"coach.widget.{name}"),
                        "tip": message(f"coach.widget.{name}_tip"),
                        "cls": f"calcnb-coach-{name}",
                    }
                    for name in _BUTTONS
                }
            )
            options = [[player_label(name), name] for name in self.players]
            if self.player_options != options:
                self.player_options = options
            paces = [[_seconds(pace), pace] for pace in PACES]
            if self.pace_options != paces:
                self.pace_options = paces
            self.player_caption = message("coach.widget.player")
            self.pace_caption = message("coach.widget.pace")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(player={self.player!r}, pace={self.pace!r})"

    @validate("player")
    def _known_player(self, proposal: dict) -> str:
        if proposal["value"] not in self.players:  # a page can send anything: only the players offered are taken
            raise TraitError(f"no player {proposal['value']!r} to watch")
        return proposal["value"]

    @validate("pace")
    def _known_pace(self, proposal: dict) -> float:
        if proposal["value"] not in PACES:
            raise TraitError(f"no pace {proposal['value']!r}")
        return float(proposal["value"])

    def _watch_enabled(self, enabled: bool) -> None:
        """Watch on and Stop off (nothing to stop), or the other way round while a player plays."""
        self.show_controls({"watch": {"disabled": not enabled}, "stop": {"disabled": enabled}})

    def _board_changed(self) -> None:
        """The board was redrawn: labels in its language, and an analysis of another position is taken away."""
        self.refresh()
        if self.chances and self.board.game.state is not self._analysed:
            with self.hold_sync():
                self.chances, self._analysed = [], None
                self.chart = ""
                self._say(message("coach.widget.changed"))

    def _say(self, text: str) -> None:
        self.said = text

    # ------------------------------------------------------------ Analyse

    def analyse(self) -> list[MoveChance]:
        """Analyse the board's position: the chart of chances in words; returns the chances."""
        state = self.board.game.state
        with self.hold_sync():  # the page hears "thinking" before the coach thinks
            self.chart = ""
            self._say(message("coach.widget.thinking"))
        chances = analyse(state, seconds=self.seconds)
        self.chances, self._analysed = chances, state
        with self.hold_sync():
            self.chart = chance_chart(chances)
            self._say("" if chances else message("coach.widget.over"))
        return chances

    # ------------------------------------------------------------ Watch

    def step(self) -> bool:
        """The chosen player makes one move on the board, explained; False when the game is over."""
        name = self.player
        view = PlayerView.of(self.board.game.state)
        move, reason = advise(view, self.players[name])
        if move is None:
            self._say(message("coach.widget.over_watch"))
            return False
        self.board.press(move.text)
        self._say(message("coach.widget.played", player=player_label(name), move=describe_move(move), reason=reason))
        return True

    @property
    def watching(self) -> bool:
        """Is a player playing on the board now?"""
        return self._thread is not None and self._thread.is_alive()

    def watch(self) -> None:
        """Start playing in the background at the chosen pace until the game ends or Stop is pressed."""
        if self.watching:
            return
        self._stopping.clear()
        self._watch_enabled(False)
        self._thread = threading.Thread(target=self._watch_loop, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching after the move in hand."""
        self._stopping.set()

    def _watch_loop(self) -> None:
        try:
            while not self._stopping.is_set() and self.step():
                if self._stopping.wait(self.pace):
                    break
        finally:
            self._watch_enabled(True)


_BUTTONS = ("analyse", "watch", "stop")
PACES = (0.2, 0.5, 1.0, 2.0, 3.0)
"""The seconds per move the viewer may choose for Watch."""


def _seconds(seconds: float) -> str:
    """A number of seconds as the viewer writes it: ``0.5`` in English, ``0,5`` in Portuguese."""
    return message("coach.widget.seconds", seconds=f"{seconds:g}".replace(".", message("coach.widget.decimal")))


def coach(board: PlayBoard) -> CoachPanel:
    """Put the coach's controls beside ``board``; returns them."""
    panel = CoachPanel(board)
    board.add_panel(panel)
    return panel


class CoachedBoard(PlayBoard):
    """A :class:`~calcnb.ui.play.PlayBoard` with the coach beside it: the board students play on.

    Takes what ``PlayBoard`` takes (``CoachedBoard()``, ``CoachedBoard(seed=7)``,
    ``CoachedBoard(game)``); ``board.coach`` is its :class:`CoachPanel`.
    """

    shown_as = "before_run.coached_board"

    def __init__(self, game: Game | None = None, *, seed: Seed | None = None) -> None:
        super().__init__(game, seed=seed)
        self.coach = coach(self)
