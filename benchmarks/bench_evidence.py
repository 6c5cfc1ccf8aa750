"""The player of "Is the 80% true?" on the lesson's own deals: CPU seconds a deal and its win rate, against the
registry's default Monte Carlo (128 orders) on the same deals, in the same run.

A class of 30 each playing four batches of ten is 1,200 deals on two cores: the lesson's player must play a deal in
well under a second. Each deal is played as the lesson plays it (:func:`calcnb.lessons.evidence.play_deal`: the
player's game replayed move by move through the engine). The deals are the first ``--deals`` of the blocks of
students "student 0", "student 1", … of a class key of the run's own.

Usage: ``python benchmarks/bench_evidence.py [--students 12] [--deals 40] [--baseline 20]``. Prints the median and
the 95th percentile of the CPU seconds a deal, the win rate with its Wilson 95% interval, and the ratio of the
median to the registry's default player's on the first ``--baseline`` deals.
"""

from __future__ import annotations

import argparse
import statistics
import time

from calcnb.game.game import Game
from calcnb.lessons.evidence.exercises import PLAYER_KEY, play_deal, seed_block
from calcnb.players.ladder import MonteCarlo
from calcnb.stats import percentile, wilson_interval


def _timed(play, seed: int) -> tuple[float, bool]:
    start = time.process_time()
    won = play(seed)
    return time.process_time() - start, won


def _default_player(seed: int) -> bool:
    game = Game.new(seed)
    game.play_many(MonteCarlo().play(seed).moves)
    return game.status == "won"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=12)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--baseline", type=int, default=20)
    arguments = parser.parse_args()
    seeds = [
        seed
        for student in range(arguments.students)
        for seed in seed_block(f"student {student}", "bench")[: arguments.deals]
    ]
    lesson = [_timed(lambda seed: play_deal(seed).won, seed) for seed in seeds]
    default = [_timed(_default_player, seed) for seed in seeds[: arguments.baseline]]
    wins = sum(won for _seconds, won in lesson)
    low, high = wilson_interval(wins, len(lesson))
    median = statistics.median(seconds for seconds, _won in lesson)
    print(
        f"{PLAYER_KEY}: {len(lesson)} deals, median {median:.3f} s CPU a deal, "
        f"95th percentile {percentile([seconds for seconds, _won in lesson], 0.95):.3f} s"
    )
    print(f"  won {wins} of {len(lesson)} ({wins / len(lesson):.1%}), 95% interval {low:.1%} to {high:.1%}")
    baseline = statistics.median(seconds for seconds, _won in default)
    print(
        f"monte carlo 128 (the registry's default): median {baseline:.3f} s CPU a deal on {len(default)} of them, "
        f"won {sum(won for _seconds, won in default)}; lesson's player / default = {median / baseline:.2f}"
    )


if __name__ == "__main__":
    main()
