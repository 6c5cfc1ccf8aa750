"""The stored study of the players: each plays the same seeded deals; one row per game, appended as it ends.

Run::

    python scripts/player_study.py --seeds 50100 50200 --players determinized "plain determinized" "monte carlo"

Writes ``data/player_study.csv`` (``player,seed,outcome,score,decisions,choices,think_median,
think_p95,think_seconds``): ``decisions`` is every move the player chose, ``choices`` those with
more than one sensible move, ``think_*`` the seconds spent on those choices (median, 95th
percentile, total), in CPU seconds of this process (``time.process_time``), because on a shared
machine the wall clock also counts other people's work. Seeds run in order and every player
plays a seed before the next seed, so a stopped run leaves paired results; a rerun skips the
games already in the file.

Thinking alone. The study runs two of these scripts at once, one per core, and a choice takes more
CPU time when the other core is busy too. ``--alone N`` measures what one person playing one game
waits: it plays again ``N`` of each player's set-aside games (:data:`~calcnb.studies.folklore.SET_ASIDE`),
drawn at random with a fixed seed, one game at a time, and stops if a game does not make the same
moves as the stored one. Run it on a machine doing nothing else; its rows go to
``data/player_alone.csv``::

    python scripts/player_study.py --alone 40 --players "determinized with 32 orders"

``--fresh`` plays the fresh set-aside deals (:data:`~calcnb.studies.folklore.FRESH_SET_ASIDE`) into
``data/fresh_study.csv``, and with ``--alone`` plays some of those again into ``data/fresh_alone.csv``::

    python scripts/player_study.py --fresh --players "determinized with 64 orders" "next card"
    python scripts/player_study.py --fresh --alone 20 --players "determinized with 64 orders"

``determinized`` is :class:`~calcnb.players.blind.Determinized` as it plays by default; ``plain
determinized`` is the same without its blind tie-break (``rollouts=0``), the player the study measured
first; ``determinized + second look`` settles ties first by solving undecided orders again
(``escalate=SECOND_LOOK_NODES``); ``determinized with 32 orders`` imagines twice as many orders of the
face-down cards at each choice (``samples=MORE_ORDERS``), and ``determinized with 64 orders`` twice as many
again (``samples=MOST_ORDERS``), the fresh deals' player. ``next card`` is the ceiling experiment,
*not* a blind player: the plain player's determinization, told the next card of the stock (only
that one) before each decision. Nobody who does not know the next card can do better than a player
who does, with the same search; so its win rate is an upper bound for that kind of blind play.
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
from pathlib import Path

from calcnb.game.rules import RANK_COUNT
from calcnb.players.blind import (
    MORE_ORDERS,
    MOST_ORDERS,
    PLAIN_NAME,
    SECOND_LOOK_NAME,
    SECOND_LOOK_NODES,
    Determinized,
    candidates,
    evaluate,
)
from calcnb.players.ladder import MonteCarlo
from calcnb.players.player import Player
from calcnb.players.table import Table, apply_move
from calcnb.stats import percentile
from calcnb.studies.folklore import (
    ALONE,
    ALONE_SAMPLE_SEED,
    FRESH,
    FRESH_ALONE,
    FRESH_SET_ASIDE,
    SAME_GAME,
    SET_ASIDE,
    STUDY,
    TimedGame,
    same_game,
    study_rows,
    timed_play,
)

COLUMNS = ("player", "seed", "outcome", "score", "decisions", "choices", "think_median", "think_p95", "think_seconds")


class NextCard(Determinized):
    """Determinization told the next card of the stock (not blind: the ceiling experiment).

    Its search is the plain player's: no blind tie-break (``rollouts`` is not used).
    """

    name = "next card"

    def run(self, table: Table, stock: list[int], rng: random.Random) -> list[int]:
        moves: list[int] = []
        position = 0
        while True:
            self._coming = stock[position] if position < len(stock) else 0
            move = self.next_move(table, rng)
            if move is None:
                return moves
            position = apply_move(table, move, stock, position)
            moves.append(move)

    def next_move(self, table: Table, rng: random.Random) -> int | None:
        moves = candidates(table)
        if len(moves) <= 1:
            return moves[0] if moves else None
        hidden = [rank for rank in range(1, RANK_COUNT + 1) for _ in range(table.unseen[rank])]
        coming = getattr(self, "_coming", 0)
        if coming:
            hidden.remove(coming)
        orders = []
        for _ in range(self.samples):
            rng.shuffle(hidden)
            orders.append(([coming] if coming else []) + hidden)
        results = evaluate(table, moves, orders, self.nodes, race=True, total_nodes=self.total_nodes)
        return max(moves, key=lambda move: (results[move].points, -move))


def make(name: str) -> Player:
    return {
        "determinized": Determinized,
        PLAIN_NAME: lambda: Determinized(rollouts=0),
        SECOND_LOOK_NAME: lambda: Determinized(escalate=SECOND_LOOK_NODES),
        Determinized(samples=MORE_ORDERS).name: lambda: Determinized(samples=MORE_ORDERS),
        Determinized(samples=MOST_ORDERS).name: lambda: Determinized(samples=MOST_ORDERS),
        "monte carlo": lambda: MonteCarlo(samples=128),
        "next card": NextCard,
    }[name]()


def _row(name: str, seed: int, game: TimedGame) -> list[object]:
    """One game as a row of the study: its result and the median, 95th percentile and sum of its thinking."""
    ordered = sorted(game.thinking)
    median = statistics.median(ordered) if ordered else 0.0
    p95 = percentile(ordered, 0.95) if ordered else 0.0
    row = [name, seed, game.outcome, game.score, game.decisions, game.choices, f"{median:.3f}"]
    return [*row, f"{p95:.3f}", f"{sum(ordered):.1f}"]


def _stored(path: Path) -> dict[tuple[str, int], dict[str, str]]:
    """The games already in a study file, by (player, seed)."""
    return {(row["player"], int(row["seed"])): row for row in study_rows(path)}


def _play(jobs: list[tuple[str, int]], out: Path, check: dict[tuple[str, int], dict[str, str]] | None = None) -> None:
    """Play each (player, seed) not yet in ``out`` and append its row as it ends.

    ``check``: the stored study; each game must then make the same moves as the stored one (same
    outcome, score, decisions and choices), or the run stops before writing it.
    """
    done = _stored(out)
    fresh = not out.exists()
    with out.open("a", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        if fresh:
            writer.writerow(COLUMNS)
        for name, seed in jobs:
            if (name, seed) in done:
                continue
            game = timed_play(make(name), seed)
            row = _row(name, seed, game)
            if check is not None and not same_game(dict(zip(COLUMNS, row)), check[name, seed]):
                stored = [check[name, seed][column] for column in SAME_GAME]
                sys.exit(f"{name}, seed {seed}: played {row[2:6]}, but the study stored {stored}")
            writer.writerow(row)
            handle.flush()
            print(*row, sep=",")
            sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds",
        type=int,
        nargs=2,
        metavar=("START", "STOP"),
        help="default 50100 50200 (with --fresh, the fresh deals)",
    )
    parser.add_argument("--players", nargs="+", default=["determinized", "monte carlo"])
    parser.add_argument("--out", type=Path, default=None, help=f"default {STUDY.name}, or {ALONE.name} with --alone")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help=f"the fresh set-aside deals: seeds {FRESH_SET_ASIDE.start}..{FRESH_SET_ASIDE.stop - 1} by default, "
        f"rows to {FRESH.name} ({FRESH_ALONE.name} with --alone), games played again drawn from them",
    )
    parser.add_argument(
        "--alone",
        type=int,
        metavar="N",
        help="play again N of each player's set-aside games, drawn at random, one game at a time",
    )
    args = parser.parse_args()
    study, alone, set_aside = (FRESH, FRESH_ALONE, FRESH_SET_ASIDE) if args.fresh else (STUDY, ALONE, SET_ASIDE)
    if args.alone is None:
        seeds = range(*args.seeds) if args.seeds else set_aside if args.fresh else range(50100, 50200)
        jobs = [(name, seed) for seed in seeds for name in args.players]
        _play(jobs, args.out or study)
        return
    stored = _stored(study)
    sample = random.Random(ALONE_SAMPLE_SEED).sample(set_aside, args.alone)
    for name in args.players:
        missing = [seed for seed in sample if (name, seed) not in stored]
        if missing:
            sys.exit(f"{name} has not played set-aside seeds {missing[:5]} in {study.name}: nothing to play again")
    _play([(name, seed) for name in args.players for seed in sample], args.out or alone, check=stored)


if __name__ == "__main__":
    main()
