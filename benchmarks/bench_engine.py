"""How fast the rules engine plays: complete random games and legal-move generations per second.

Run: ``python benchmarks/bench_engine.py [--games 400] [--runs 5]``

Every figure is the median of several runs; within a run the engine and the
baseline take turns, and each ratio is the median of the run-by-run ratios, so
noise from other work on a shared machine falls on both alike. The baseline is a plain
implementation written straight from the rules (a frozen dataclass, moves as
strings, legality checked by listing the legal moves), measured in the same
run on the same deals with the same random choices, so the ratio is fair:
both play exactly the same games (checked below).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from calcnb.game.deals import deal
from calcnb.game.engine import State

# ------------------------------------------------------------------ the plain baseline


@dataclass(frozen=True)
class PlainState:
    """The rules, written the obvious way: cards are (rank, suit) pairs, moves are strings."""

    foundations: tuple[tuple[tuple[int, str], ...], ...]
    wastes: tuple[tuple[tuple[int, str], ...], ...]
    stock: tuple[tuple[int, str], ...]
    pending: tuple[int, str] | None = None

    def wanted(self, k: int) -> int | None:
        """Rank foundation k (0-based) takes next: the top plus the step, past K back to A."""
        pile = self.foundations[k]
        if len(pile) == 13:
            return None
        return (pile[-1][0] + (k + 1) - 1) % 13 + 1

    def legal_moves(self) -> list[str]:
        moves = []
        if self.pending is None and self.stock:
            moves.append("T")
        if self.pending is not None:
            for k in range(4):
                if self.wanted(k) == self.pending[0]:
                    moves.append(f"S>F{k + 1}")
            for w in range(4):
                moves.append(f"S>W{w + 1}")
        for w in range(4):
            if self.wastes[w]:
                for k in range(4):
                    if self.wanted(k) == self.wastes[w][-1][0]:
                        moves.append(f"W{w + 1}>F{k + 1}")
        return moves

    def apply(self, move: str) -> PlainState:
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move}")
        if move == "T":
            return replace(self, stock=self.stock[1:], pending=self.stock[0])
        source, target = move.split(">")
        number = int(target[1:]) - 1
        if source == "S":
            card, state = self.pending, replace(self, pending=None)
        else:
            w = int(source[1:]) - 1
            card = self.wastes[w][-1]
            wastes = list(self.wastes)
            wastes[w] = wastes[w][:-1]
            state = replace(self, wastes=tuple(wastes))
        if target[0] == "F":
            foundations = list(state.foundations)
            foundations[number] = foundations[number] + (card,)
            return replace(state, foundations=tuple(foundations))
        wastes = list(state.wastes)
        wastes[number] = wastes[number] + (card,)
        return replace(state, wastes=tuple(wastes))

    @property
    def score(self) -> int:
        return sum(len(pile) for pile in self.foundations)


def plain_initial(starters, stock) -> PlainState:
    def pair(card):
        return (card.rank, card.suit)

    return PlainState(tuple((pair(c),) for c in starters), ((), (), (), ()), tuple(map(pair, stock)))


# ------------------------------------------------------------------ what is timed


def play_games(openings: list, choose_seed: int, hot: bool = False) -> list[int]:
    """Play one random-legal-move game from each opening; the final scores.

    ``hot`` uses the unchecked ``_apply_legal`` (what search code uses) instead of ``apply``.
    """
    choose = random.Random(choose_seed).choice
    scores = []
    for state in openings:
        if hot:
            apply_legal = type(state)._apply_legal
            while moves := state.legal_moves():
                state = apply_legal(state, choose(moves))
        else:
            while moves := state.legal_moves():
                state = state.apply(choose(moves))
        scores.append(state.score)
    return scores


def generate_all(states: list) -> None:
    for state in states:
        state.legal_moves()


def positions_along_games(openings: list, choose_seed: int) -> list:
    """Every position met while playing random games: a realistic mix for move generation."""
    choose = random.Random(choose_seed).choice
    seen = []
    for state in openings:
        seen.append(state)
        while moves := state.legal_moves():
            state = state.apply(choose(moves))
            seen.append(state)
    return seen


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def interleaved_rates(works: dict[str, Callable[[], object]], count: int, runs: int) -> dict[str, list[float]]:
    """``count`` items per second for each piece of work, ``runs`` times, taking turns within each run
    so that noise from a shared machine falls on all of them alike."""
    rates: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(runs):
        for name, work in works.items():
            rates[name].append(count / timed(work))
    return rates


def median_ratio(tops: list[float], bottoms: list[float]) -> float:
    """The median of the run-by-run ratios (each pair measured side by side)."""
    return statistics.median(top / bottom for top, bottom in zip(tops, bottoms))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per run (default 400)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is printed (default 5)")
    args = parser.parse_args()

    deals = [deal(seed) for seed in range(args.games)]
    engine_openings = [State.initial(starters, stock) for starters, stock in deals]
    plain_openings = [plain_initial(starters, stock) for starters, stock in deals]

    # Same deals, same random choices, same move order: both must play the very same games.
    engine_scores = play_games(engine_openings, 7)
    if engine_scores != play_games(plain_openings, 7) or engine_scores != play_games(engine_openings, 7, hot=True):
        raise SystemExit("the engine and the plain baseline disagree: not benchmarking")

    games = args.games
    game_rates = interleaved_rates(
        {
            "engine": lambda: play_games(engine_openings, 7),
            "hot": lambda: play_games(engine_openings, 7, hot=True),
            "plain": lambda: play_games(plain_openings, 7),
        },
        games,
        args.runs,
    )
    engine_positions = positions_along_games(engine_openings, 11)
    plain_positions = positions_along_games(plain_openings, 11)
    count = len(engine_positions)
    generation_rates = interleaved_rates(
        {"engine": lambda: generate_all(engine_positions), "plain": lambda: generate_all(plain_positions)},
        count,
        args.runs,
    )
    engine_rate, hot_rate, plain_rate = (statistics.median(game_rates[name]) for name in ("engine", "hot", "plain"))
    engine_gen, plain_gen = (statistics.median(generation_rates[name]) for name in ("engine", "plain"))

    print(f"calcnb engine benchmark: {games} deals per run, median of {args.runs} runs, one core")
    print("complete random-legal-move games per second")
    print(f"  engine, public State API (legal_moves + apply): {engine_rate:10,.0f}")
    print(f"  engine, hot path (legal_moves + _apply_legal):   {hot_rate:10,.0f}")
    print(f"  plain baseline (frozen dataclass):               {plain_rate:10,.0f}")
    public_ratio = median_ratio(game_rates["engine"], game_rates["plain"])
    hot_ratio = median_ratio(game_rates["hot"], game_rates["plain"])
    print(f"  ratio public API / baseline:                     {public_ratio:10.1f}x")
    print(f"  ratio hot path / baseline:                       {hot_ratio:10.1f}x")
    print(f"legal-move generations per second ({count:,} positions from random games)")
    print(f"  engine State.legal_moves():                      {engine_gen:10,.0f}")
    print(f"  plain baseline:                                  {plain_gen:10,.0f}")
    generation_ratio = median_ratio(generation_rates["engine"], generation_rates["plain"])
    print(f"  ratio engine / baseline:                         {generation_ratio:10.1f}x")
    print(f"target: >= 2,000 games per second through the public API: {'met' if engine_rate >= 2000 else 'NOT met'}")


if __name__ == "__main__":
    main()
