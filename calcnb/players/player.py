"""What a player is: a class that chooses each move from what a person sees, and plays whole games fast.

Subclass :class:`Player` and implement :meth:`Player.next_move`; register it in
:mod:`calcnb.players.registry` to put it on the ladder, in Watch and among calcnb's names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from calcnb.game.deals import Seed, deal
from calcnb.game.engine import ALL_MOVES, HasState, Move, State, as_state
from calcnb.game.rules import FOUNDATION_OF, FOUNDATIONS, WIN_SCORE, Status
from calcnb.i18n import message
from calcnb.players.table import TURN_ID, Evaluation, PlayerView, Table, apply_move, initial_table

__all__ = ["PlayResult", "Player", "last_progress", "start_of"]

# ---------------------------------------------------------------- players


@dataclass(frozen=True)
class PlayResult:
    """One game played by a player: its moves (they replay through Game), score and outcome."""

    moves: tuple[Move, ...]
    score: int
    last_progress: int
    """Cards turned when the last card reached a foundation: where the game stopped moving."""
    needs: tuple[int, ...]
    """The rank each foundation needed at the end (0 for a complete foundation)."""

    @property
    def outcome(self) -> Status:
        """``"won"`` or ``"lost"``."""
        return Status.WON if self.score == WIN_SCORE else Status.LOST


class Player:
    """A player: chooses each move from a :class:`PlayerView` (never from the stock order).

    Subclasses implement ``next_move(table, rng)``, returning the index of a legal move in
    ``ALL_MOVES`` or None when there is none.
    """

    name: ClassVar[str] = "player"
    parallel_from: ClassVar[int] = 4000
    """Studies with at least this many deals use a process pool by default."""
    uses_random: ClassVar[bool] = True
    """False for players whose choices never draw a random number (they need no generator)."""

    def choose(self, position: State | PlayerView | object, rng: random.Random | None = None) -> Move | None:
        """The move this player makes in ``position`` (a State, a Game or a view); None when the game is over.

        The stock is replaced by its count and its set of cards before the player looks.
        Without ``rng`` the choice is seeded from what is visible, so it is reproducible.
        """
        view = PlayerView.of(position)
        if rng is None and self.uses_random:
            rng = view.rng()
        index = self.next_move(view.table(), rng)
        return None if index is None else ALL_MOVES[index]

    def play(self, game_or_seed: object, rng: random.Random | None = None) -> PlayResult:
        """Play a whole game from a seed, a Game or a State with the fast loop; the result's moves replay.

        The random generator, when not given, is derived from the class's name and the deal's seed (or its
        code), so the same deal is always played the same way, and players of one class that differ only
        in settings imagine the same things where they face the same position.
        """
        table, stock, key = start_of(game_or_seed)
        if rng is None:
            rng = random.Random(f"{type(self).name}:{key}")
        moves = self.run(table, stock, rng)
        return PlayResult(tuple(ALL_MOVES[i] for i in moves), table.score, last_progress(moves), tuple(table.need))

    def run(self, table: Table, stock: list[int], rng: random.Random) -> list[int]:
        """The fast loop: ask the player, apply, until no move is left. Only the runner holds the stock."""
        moves: list[int] = []
        position = 0
        next_move = self.next_move
        while True:
            move = next_move(table, rng)
            if move is None:
                return moves
            position = apply_move(table, move, stock, position)
            moves.append(move)

    def next_move(self, table: Table, rng: random.Random) -> int | None:
        raise NotImplementedError

    def deliberate(self, table: Table, rng: random.Random) -> tuple[int | None, Evaluation]:
        """The move :meth:`next_move` makes and what it weighed to choose it (empty for players that weigh nothing)."""
        return self.next_move(table, rng), {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(vars(self).items()))))


def start_of(game_or_seed: Seed | State | HasState) -> tuple[Table, list[int], str]:
    """The lean table and stock ranks of a seed, Game or State, and a key naming it for seeding random choices.

    The runner keeps the stock; the table (all a player reads) holds only its count and unseen ranks.
    """
    if isinstance(game_or_seed, (int, str)) and not isinstance(game_or_seed, bool):
        # dealt directly (the same deal Game.new(seed) makes, without re-checking a deal known to be whole)
        _, stock_cards = deal(game_or_seed)
        stock = [card.rank for card in stock_cards]
        return initial_table([1] * FOUNDATIONS, stock), stock, str(game_or_seed)
    try:
        state = as_state(game_or_seed)
    except TypeError:
        raise TypeError(message("player.bad_game", kind=type(game_or_seed).__name__)) from None
    if state is game_or_seed:
        key = "|".join(" ".join(card.ascii for card in pile) for pile in (*state.foundations, *state.wastes))
        key += f"|{state.pending}|" + " ".join(card.ascii for card in state.stock)
    else:  # a game in progress: named by its seed (or deal code) and how far it has got
        seed = getattr(game_or_seed, "seed", None)
        key = str(seed if seed is not None else (getattr(game_or_seed, "deal_code", None) or ""))
        played = len(getattr(game_or_seed, "history", ()))
        key = f"{key}:{played}" if played else key
    return PlayerView.of(state).table(), [card.rank for card in state.stock], key


def last_progress(moves: list[int]) -> int:
    turned = last = 0
    for move in moves:
        if move == TURN_ID:
            turned += 1
        elif FOUNDATION_OF[move] >= 0:
            last = turned
    return last
