"""The coach: each move's chance of winning, and a review of a finished game.

:func:`analyse` answers "what are my chances after each move?" for a position, seeing only
what a person sees. It imagines orders of the face-down cards (*futures*), the same futures
for every legal move, and asks the solver whether the game can still be won after the move in
each future (:func:`calcnb.players.blind.evaluate`). A move's chance is the share of futures won (an
undecided future counts one half), with a Wilson 95% interval that holds both readings of the
undecided ones. It is the chance that a way to win *exists* after the move: a player who then
played on blind could do no better, so read it as "how much this move leaves open".

:func:`review` goes through a finished game and marks the decisions where the move played left
the most winning chance behind the best move, with that better move.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass

from calcnb.game.engine import ALL_MOVES, Move, State
from calcnb.game.game import Game
from calcnb.game.rules import MoveKind
from calcnb.i18n import message
from calcnb.players.blind import Evaluation, _after, candidates, evaluate, hidden_orders
from calcnb.players.ladder import FirstFit, ReverseNeed
from calcnb.players.table import PlayerView, Table
from calcnb.solver import COMPILED
from calcnb.stats import wilson_interval

__all__ = [
    "ANSWER_FUTURES",
    "ANSWER_SECONDS",
    "Mistake",
    "MoveChance",
    "Review",
    "analyse",
    "describe_move",
    "example_game",
    "game_to_review",
    "review",
]

ANSWER_SECONDS = 0.25 if COMPILED else 1.0
"""The most time :func:`analyse` takes by default: a quarter of a second where the solver runs compiled, so
that a class's clicks do not queue; a second where it runs interpreted (about eight times slower)."""
ANSWER_FUTURES = 28 if COMPILED else 64
"""The most futures :func:`analyse` tries by default. Compiled, 28 in under a tenth of a second at the median:
more than the interpreted path reaches in its second (27 at the median over the positions of
``benchmarks/bench_strategies.py``), so the intervals are no wider; interpreted, the second usually runs
out first."""

MINIMUM = 2
"""Futures every analysis tries, however long they take (with cards face down): on a slow machine or
in a hard position the answer comes in about the time asked for, with the wide interval two futures
give, rather than late."""


@dataclass(frozen=True)
class MoveChance:
    """One legal move's estimated chance of winning, over ``futures`` imagined orders of the face-down cards."""

    move: Move
    won: int
    unknown: int
    futures: int

    @property
    def chance(self) -> float:
        """The share of futures won, an undecided one counting one half."""
        return (self.won + 0.5 * self.unknown) / self.futures if self.futures else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval, from all undecided futures lost to all of them won."""
        return wilson_interval(self.won, self.futures)[0], wilson_interval(self.won + self.unknown, self.futures)[1]

    def __str__(self) -> str:
        low, high = self.interval
        return message(
            "coach.chance",
            what=describe_move(self.move),
            per100=round(100 * self.chance),
            low=round(100 * low),
            high=round(100 * high),
            futures=self.futures,
        )


def describe_move(move: Move) -> str:
    """The move in plain words for students ("put it on waste 2")."""
    if move.kind == MoveKind.TURN:
        return message("coach.move.turn")
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return message("coach.move.to_waste", waste=move.waste_index + 1)
    if move.kind == MoveKind.STOCK_TO_FOUNDATION:
        return message("coach.move.to_foundation", foundation=move.foundation_index + 1)
    return message("coach.move.waste_to_foundation", waste=move.waste_index + 1, foundation=move.foundation_index + 1)


def analyse(
    position: State | Game | PlayerView,
    *,
    seconds: float | None = None,
    futures: int | None = None,
    nodes: int = 300,
    rng: random.Random | None = None,
) -> list[MoveChance]:
    """Each legal move's chance of winning, best first (ties in the engine's order).

    Futures are added one at a time, the same for every move, until ``futures`` have been tried
    (default :data:`ANSWER_FUTURES`) or the next one would end after ``seconds`` (default
    :data:`ANSWER_SECONDS`; judged by the time the ones before took); at least :data:`MINIMUM` are always
    tried. Fewer futures show as a wider interval and a smaller count in every :class:`MoveChance`, never
    as a silently weaker estimate. ``nodes`` is the
    solver's budget for one move in one future. Without ``rng`` the futures are seeded by what is
    visible, so the same position gets the same futures. Empty when the game is over.
    """
    started = time.perf_counter()
    seconds = ANSWER_SECONDS if seconds is None else seconds
    futures = ANSWER_FUTURES if futures is None else futures
    view = PlayerView.of(position)
    table = view.table()
    legal = table.legal()
    if not legal:
        return []
    if rng is None:
        rng = random.Random(hashlib.sha256(view.fingerprint().encode()).hexdigest())
    results = _measure(table, legal, started + seconds, futures, nodes, rng)
    chances = [MoveChance(ALL_MOVES[m], r.won, r.unknown, r.futures) for m, r in results.items()]
    return sorted(chances, key=lambda c: -c.chance)


def _same_positions(table: Table, moves: list[int]) -> dict[int, list[int]]:
    """The moves grouped by the position they lead to, each group under its first move.

    Waste piles are interchangeable (a card put on either of two empty piles leads to the same
    game), so one evaluation serves the whole group and every move of it gets the same answer.
    """
    groups: dict[tuple, list[int]] = {}
    for move in moves:
        after = _after(table, move)
        key = (tuple(after.count), tuple(sorted(map(tuple, after.wastes))), after.pending)
        groups.setdefault(key, []).append(move)
    return {group[0]: group for group in groups.values()}


def _measure(table: Table, moves: list[int], deadline: float, futures: int, nodes: int, rng) -> dict[int, Evaluation]:
    started = time.perf_counter()
    groups = _same_positions(table, moves)
    total = {move: Evaluation(move) for move in moves}
    done = 0
    while done < futures:
        now = time.perf_counter()
        if done >= MINIMUM and now + (now - started) / done > deadline:
            break  # one more future would end past the deadline
        orders = hidden_orders(table, 1, rng) if table.stock_left else [[]]
        for first, result in evaluate(table, list(groups), orders, nodes).items():
            for move in groups[first]:
                kept = total[move]
                kept.won += result.won
                kept.unknown += result.unknown
                kept.lost += result.lost
        done += 1
        if not table.stock_left:
            break  # no face-down card: one future is the whole truth
    return total


@dataclass(frozen=True)
class Mistake:
    """A decision of a reviewed game: the move played and the best one, with their chances."""

    index: int
    """How many moves had been played before this decision."""
    played: MoveChance
    best: MoveChance

    @property
    def lost_chance(self) -> float:
        """How much winning chance the move played left behind the best one."""
        return max(0.0, self.best.chance - self.played.chance)

    def __str__(self) -> str:
        return message(
            "coach.mistake",
            number=self.index + 1,
            played=describe_move(self.played.move),
            played100=round(100 * self.played.chance),
            best=describe_move(self.best.move),
            best100=round(100 * self.best.chance),
            futures=self.best.futures,
        )


@dataclass(frozen=True)
class Review:
    """A reviewed game: every decision examined, and the worst ones first."""

    decisions: int
    mistakes: tuple[Mistake, ...]

    def __str__(self) -> str:
        if not self.mistakes:
            return message("coach.review.clean", decisions=self.decisions)
        lines = [message("coach.review.head", decisions=self.decisions, count=len(self.mistakes))]
        lines += [f"- {mistake}" for mistake in self.mistakes]
        return "\n".join(lines)


def review(game: Game, *, worst: int = 3, seconds: float = 0.25, futures: int = 16, nodes: int = 300) -> Review:
    """Go through ``game``'s moves and return the ``worst`` decisions that lost most winning chance.

    Only decisions with more than one sensible move are examined (see
    :func:`calcnb.players.blind.candidates`); each is analysed with ``seconds``, ``futures`` and ``nodes``
    as in :func:`analyse`. A decision is a mistake when the best move's chance is above the
    played move's; the list is ordered by the chance lost, largest first.
    """
    found: list[Mistake] = []
    examined = 0
    for index, (state, move) in enumerate(zip(game.states, game.history, strict=False)):
        table = PlayerView.of(state).table()
        if len(candidates(table)) <= 1:
            continue
        examined += 1
        chances = analyse(state, seconds=seconds, futures=futures, nodes=nodes)
        played = next(chance for chance in chances if chance.move == move)
        best = chances[0]
        if best.chance > played.chance:
            found.append(Mistake(index, played, best))
    found.sort(key=lambda mistake: (-mistake.lost_chance, mistake.index))
    return Review(examined, tuple(found[:worst]))


EXAMPLE_SEED = 6
"""The deal of :func:`example_game`."""
EXAMPLE_START = 80
"""How many of reverse need's moves on that deal come before first fit takes over."""


def example_game() -> Game:
    """A short real game to review: deal :data:`EXAMPLE_SEED` after :data:`EXAMPLE_START` moves of reverse
    need, played to its end by first fit (a new game from that position, so only first fit's moves are in it).
    """
    start = Game.new(EXAMPLE_SEED)
    start.play_many(ReverseNeed().play(EXAMPLE_SEED).moves[:EXAMPLE_START])
    game = Game.from_position(start.foundations, start.wastes, start.stock, start.pending)
    game.play_many(FirstFit().play(game).moves)
    return game


def game_to_review(game: Game) -> tuple[Game, str]:
    """The game to review and a sentence saying which it is: ``game`` when it is over, else :func:`example_game`.

    A notebook passes the game on its board, so the cell always reviews a real game: the
    reader's once it is finished, a short game of first fit until then.
    """
    if game.status != "playing" and game.history:
        return game, message(f"coach.reviewed.{game.status}", moves=len(game.history), score=game.score)
    example = example_game()
    return example, message(
        "coach.reviewed.example",
        seed=EXAMPLE_SEED,
        start=EXAMPLE_START,
        moves=len(example.history),
        status=message(f"coach.status.{example.status}"),
        score=example.score,
    )
