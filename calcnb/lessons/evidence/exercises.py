"""The lesson "Is the 80% true?" (ages 15–18): deals of a student's own, played by one of calcnb's players; the
win rate of a few deals, how far it wanders, a 95% interval, and what a sample can and cannot tell.

- :func:`seed_block`: each student's own block of :data:`BLOCK` deals, chosen by the keyed digest of their
  nickname (:func:`calcnb.exercises.keys.student_digest`, the one the exercise variants use) among
  :data:`BLOCKS` blocks that start past every deal the studies use (:data:`FIRST_LESSON_SEED`). Two students
  of a class of 30 share a block once in about 2,300 classes (:func:`collision_chance`); when they do,
  the class's pooled sample counts each deal once (:func:`pool`).
- :func:`play_deal`: the lesson's player (:func:`lesson_player`: Monte Carlo with 32 imagined orders, about
  a sixth of a CPU second a deal) plays the deal, and the game it chose is replayed move by move through the
  engine (:class:`calcnb.game.game.Game`): a win is a game the engine says is won, never a looked-up one.
- :func:`pool` and :func:`pooled_path`: the class's games as one sample, and its Wilson interval
  (:func:`calcnb.stats.wilson_interval`) after each deal, with the folklore's verdict
  (:func:`calcnb.studies.folklore.verdict`: above, below, or too few deals to tell).
- :data:`KINDS`: estimate a proportion, build an interval, the effect of four times the deals on its
  width, judge the claim from an interval, and two overlapping intervals; the wrong options name the
  misconceptions (the sample's rate read as the truth, "the interval holds 80%, so 80% is proven",
  overlapping intervals read as "the same" or as "different"). Every tolerance is in :data:`TOLERANCE`.

>>> seed_block("Ana", "key") == seed_block("  ana ", "key"), len(seed_block("Ana", "key"))
(True, 100)
>>> verdict_of(wilson_interval(7, 10)), verdict_of(wilson_interval(4, 10))
('unclear', 'below')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from calcnb.exercises.items import ExerciseKind
from calcnb.exercises.keys import student_digest
from calcnb.game.game import Game
from calcnb.game.rules import Status
from calcnb.i18n import message
from calcnb.players.ladder import MonteCarlo
from calcnb.stats import Z_95, wilson_interval
from calcnb.studies.folklore import FRESH_SET_ASIDE, SET_ASIDE, SKILLED, verdict

__all__ = [
    "BATCH",
    "BLOCK",
    "BLOCKS",
    "CLAIM",
    "FIRST_LESSON_SEED",
    "KINDS",
    "MISCONCEPTIONS",
    "ORDER",
    "OWN_EXERCISE",
    "PLAYER_KEY",
    "PLAYER_SAMPLES",
    "TOLERANCE",
    "Deal",
    "Evidence",
    "batches",
    "collision_chance",
    "decimal",
    "lesson_player",
    "own_variant",
    "percent",
    "play_deal",
    "pool",
    "pooled_path",
    "seed_block",
    "slip_examples",
    "textbook_interval",
    "verdict_of",
]

#: The claim the lesson tests: the encyclopedia's "a skilled player wins more than 80% of games".
CLAIM = SKILLED
#: Deals in a student's block: more than a lesson plays (four batches of ten).
BLOCK = 100
#: Blocks the digest chooses among: 30 students share one with chance about 1 in 2,300.
BLOCKS = 1_000_000
#: The first deal of the first block: past every deal the studies use (the winnability table's 0 to 9,999,
#: the stored study's 50,100 to 50,899, the set-aside deals of :data:`calcnb.studies.folklore.SET_ASIDE` and
#: :data:`~calcnb.studies.folklore.FRESH_SET_ASIDE`).
FIRST_LESSON_SEED = 10_000_000
#: Deals in one batch: the rate of ten deals, and how far it wanders from batch to batch.
BATCH = 10
#: The imagined orders of the stock the lesson's player weighs each choice with (the registry's default is 128).
PLAYER_SAMPLES = 32
#: The name of the lesson's player in the class log (the player and its setting).
PLAYER_KEY = f"{MonteCarlo.name} {PLAYER_SAMPLES}"
#: How far a typed answer may be from the one computed and still be right (as shares, 0.01 = one percentage
#: point): a rate to a percentage point's half (70% of 10 deals is exact; 33% or 0.33 for 1 in 3), an
#: interval's bounds to two points (either the Wilson interval calcnb draws or the textbook p ± 1.96·√(p(1−p)/n),
#: rounded), a width to two points (half the width, or the width computed at four times the deals).
TOLERANCE = {"rate": 0.005, "interval": 0.02, "width": 0.02}
#: The exercise about a student's own deals (its variant is their wins and deals; not on the printed sheets).
OWN_EXERCISE = "evidence-own"

assert max(SET_ASIDE.stop, FRESH_SET_ASIDE.stop) <= FIRST_LESSON_SEED, "the lesson's deals are not the studies'"


def seed_block(seed: object, class_key: str | None = None) -> range:
    """The deals of the student named ``seed`` in the class of ``class_key``: :data:`BLOCK` seeds in a row.

    The block is chosen among :data:`BLOCKS` by :func:`~calcnb.exercises.keys.student_digest` of the nickname
    (however capitalised or spaced), so it is the same every time, different for each student of a class in
    practice, and cannot be worked out from the nickname without the class's key.
    """
    number = int.from_bytes(student_digest("evidence-deals", seed, class_key)[:8], "big") % BLOCKS
    start = FIRST_LESSON_SEED + number * BLOCK
    return range(start, start + BLOCK)


def collision_chance(students: int, blocks: int = BLOCKS) -> float:
    """The chance that two of ``students`` get the same block (the birthday problem)."""
    apart = 1.0
    for student in range(students):
        apart *= (blocks - student) / blocks
    return 1.0 - apart


@cache
def lesson_player() -> MonteCarlo:
    """The lesson's player: :class:`~calcnb.players.ladder.MonteCarlo` of the registry, weighing each choice with
    :data:`PLAYER_SAMPLES` imagined stock orders. It sees only what a person sees, plays a deal in about a
    sixth of a CPU second (the determinized players, the strongest, take a minute and more: too slow for a
    class of 30 on two cores), and wins often enough that ten deals rarely settle anything."""
    return MonteCarlo(samples=PLAYER_SAMPLES)


@dataclass(frozen=True)
class Deal:
    """One deal played in the lesson: its seed, the player (:data:`PLAYER_KEY`), won or not, and its score."""

    seed: int
    player: str
    won: bool
    score: int


def play_deal(seed: int) -> Deal:
    """Play deal ``seed`` with :func:`lesson_player`, replaying its moves through the engine: won only if the
    engine's game is won (each move legal, 52 cards on the foundations)."""
    result = lesson_player().play(seed)
    game = Game.new(seed)
    game.play_many(result.moves)
    return Deal(seed, PLAYER_KEY, game.status == Status.WON, game.score)


def batches(deals: Iterable[Deal | bool], size: int = BATCH) -> list[tuple[int, int]]:
    """``(wins, deals)`` of each batch of ``size`` deals in order (the last may be short)."""
    wins = [deal.won if isinstance(deal, Deal) else bool(deal) for deal in deals]
    return [(sum(wins[start : start + size]), len(wins[start : start + size])) for start in range(0, len(wins), size)]


def verdict_of(interval: tuple[float, float], claimed: float = CLAIM) -> str:
    """``"above"``, ``"below"`` or ``"unclear"`` (too few deals to tell): :func:`calcnb.studies.folklore.verdict`."""
    return verdict(interval, claimed)


@dataclass(frozen=True)
class Evidence:
    """The class's games as one sample: ``wins`` of ``deals`` (each deal counted once), the Wilson interval,
    the verdict on the claim, and how many games were left out as deals already counted (a shared block)."""

    wins: int
    deals: int
    repeated: int = 0

    @property
    def rate(self) -> float:
        """Share of the deals won (0 with none)."""
        return self.wins / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.deals)

    @property
    def verdict(self) -> str:
        """What the interval says of the claim: ``"above"``, ``"below"`` or ``"unclear"``."""
        return verdict_of(self.interval)


def _distinct(games: Iterable[Mapping[str, object]], player: str) -> tuple[list[bool], int]:
    seen: set[int] = set()
    wins: list[bool] = []
    repeated = 0
    for game in games:
        if game["player"] != player:
            continue
        seed = int(game["seed"])
        if seed in seen:
            repeated += 1
            continue
        seen.add(seed)
        wins.append(bool(game["won"]))
    return wins, repeated


def pool(games: Iterable[Mapping[str, object]], player: str = PLAYER_KEY) -> Evidence:
    """The class's games of ``player`` (rows with ``seed``, ``player`` and ``won``) as one sample: a deal played
    by two students (a shared block) counts once, since the same player plays the same deal the same way."""
    wins, repeated = _distinct(games, player)
    return Evidence(sum(wins), len(wins), repeated)


def pooled_path(games: Iterable[Mapping[str, object]], player: str = PLAYER_KEY) -> list[tuple[int, float, float]]:
    """The pooled interval as the deals came in: ``(deals, low, high)`` after each deal, in the order given."""
    wins, _repeated = _distinct(games, player)
    path, won = [], 0
    for count, result in enumerate(wins, start=1):
        won += result
        path.append((count, *wilson_interval(won, count)))
    return path


def textbook_interval(wins: int, deals: int, z: float = Z_95) -> tuple[float, float]:
    """The textbook 95% interval p ± z·√(p(1−p)/n), cut to [0, 1]: what a student may compute by hand."""
    rate = wins / deals
    half = z * math.sqrt(rate * (1 - rate) / deals)
    return max(0.0, rate - half), min(1.0, rate + half)


def percent(share: float) -> str:
    """A share as a whole percentage in the current language's way ("70%")."""
    return message("evidence.percent", value=round(100 * share))


def decimal(share: float) -> str:
    """A share to two decimals at most, with the current language's decimal mark ("0.35", "0,35", "0.5")."""
    return f"{share:.2f}".rstrip("0").rstrip(".").replace(".", message("evidence.decimal_mark"))


def _interval_text(interval: tuple[float, float]) -> str:
    return message("evidence.interval", low=percent(interval[0]), high=percent(interval[1]))


# ---------------------------------------------------------------- the exercises


def _near(value: object, target: float, tolerance: float) -> bool:
    return isinstance(value, float) and abs(value - target) <= tolerance + 1e-9


def _rate_item(variant: int, wins: int, deals: int) -> dict:
    rate = wins / deals
    tolerance = TOLERANCE["rate"]

    def reason_for(reading: object) -> tuple[str | None, str] | None:
        if not isinstance(reading, float):
            return None
        if _near(reading, (deals - wins) / deals, tolerance):
            return "losses_for_wins", message("evidence.rate.losses")
        if _near(reading, wins / 100, tolerance / 100) or _near(reading, deals / 100, tolerance / 100):
            return "count_for_share", message("evidence.rate.count", deals=deals)
        if _near(reading, wins / (deals + wins), tolerance) or _near(reading, wins / (deals - wins), tolerance):
            return "wrong_whole", message("evidence.rate.whole", deals=deals)
        return None

    return dict(
        question=message("evidence.rate.question", wins=wins, deals=deals),
        kind="rate",
        accepted=frozenset(),
        accepts=lambda reading: _near(reading, rate, tolerance),
        solution=message("evidence.rate.solution", share=decimal(rate), percent=percent(rate)),
        why=message("evidence.rate.why", wins=wins, deals=deals, percent=percent(rate)),
        other=message("evidence.rate.other", deals=deals),
        reason_for=reason_for,
    )


def _interval_item(variant: int, wins: int, deals: int) -> dict:
    wilson, textbook = wilson_interval(wins, deals), textbook_interval(wins, deals)
    tolerance = TOLERANCE["interval"]
    rate = wins / deals

    def close(reading: object, interval: tuple[float, float], within: float = tolerance) -> bool:
        return (
            isinstance(reading, tuple)
            and abs(reading[0] - interval[0]) <= within + 1e-9
            and abs(reading[1] - interval[1]) <= within + 1e-9
        )

    def reason_for(reading: object) -> tuple[str | None, str] | None:
        if not isinstance(reading, tuple):
            return None
        half = math.sqrt(rate * (1 - rate) / deals)
        if close(reading, (1 - wilson[1], 1 - wilson[0])) or close(reading, (1 - textbook[1], 1 - textbook[0])):
            return "losses_for_wins", message("evidence.interval.losses")
        if close(reading, (rate - half, rate + half)):
            return "forgot_z", message("evidence.interval.no_z")
        if close(reading, (max(0.0, rate - Z_95 * math.sqrt(rate * (1 - rate))), 1.0)) or reading[1] - reading[0] > 0.9:
            return "forgot_n", message("evidence.interval.no_n", deals=deals)
        if not reading[0] <= rate <= reading[1]:
            return "rate_outside", message("evidence.interval.outside", wins=wins, deals=deals)
        return None

    return dict(
        question=message("evidence.interval.question", wins=wins, deals=deals),
        kind="interval",
        accepted=frozenset(),
        accepts=lambda reading: close(reading, wilson) or close(reading, textbook),
        solution=message("evidence.interval_short", low=percent(wilson[0]), high=percent(wilson[1])),
        why=message(
            "evidence.interval.why",
            rate=percent(rate),
            deals=deals,
            wilson=_interval_text(wilson),
            textbook=_interval_text(textbook),
        ),
        other=message("evidence.interval.other"),
        reason_for=reason_for,
    )


def _width_item(variant: int, wins: int, deals: int) -> dict:
    low, high = wilson_interval(wins, deals)
    width = high - low
    wider_low, wider_high = wilson_interval(4 * wins, 4 * deals)
    computed = wider_high - wider_low
    tolerance = TOLERANCE["width"]

    def reason_for(reading: object) -> tuple[str | None, str] | None:
        if not isinstance(reading, float):
            return None
        if _near(reading, width / 4, tolerance / 2):
            return "width_linear", message("evidence.width.quarter")
        if reading >= width - tolerance:
            return "width_not_narrower", message("evidence.width.not_narrower")
        return None

    return dict(
        question=message(
            "evidence.width.question",
            wins=wins,
            deals=deals,
            interval=_interval_text((low, high)),
            width=percent(width),
            more=4 * deals,
        ),
        kind="rate",
        accepted=frozenset(),
        accepts=lambda reading: _near(reading, width / 2, tolerance) or _near(reading, computed, tolerance),
        solution=message("evidence.width.solution", width=percent(width / 2)),
        why=message(
            "evidence.width.why",
            width=percent(width),
            half=percent(width / 2),
            more=4 * deals,
            wins=4 * wins,
            interval=_interval_text((wider_low, wider_high)),
            computed=percent(computed),
        ),
        other=message("evidence.width.other"),
        reason_for=reason_for,
    )


_CLAIM_WHY = {
    "above": "evidence.claim.why_above",
    "below": "evidence.claim.why_below",
    "unclear": "evidence.claim.why_unclear",
}


def claim_wrong(found: str, rate: float, holds_claim: bool) -> dict[str, tuple[str | None, str]]:
    """The feedback for each wrong choice on the claim, when the interval says ``found`` and the sample's rate
    is ``rate``: each names the misconception it shows, never the right choice."""
    wrong: dict[str, tuple[str | None, str]] = {}
    if found == "unclear":
        for side in ("above", "below"):  # the side the sample's rate is on is that rate read as the truth
            if (rate > CLAIM) if side == "above" else (rate < CLAIM):
                wrong[side] = ("sample_rate_as_truth", message(f"evidence.claim.rate_{side}"))
            else:
                wrong[side] = (None, message(f"evidence.claim.not_{side}"))
        wrong["proven"] = ("contains_so_proven", message("evidence.claim.proven"))
    else:
        wrong["unclear"] = ("too_few_when_enough", message(f"evidence.claim.enough_{found}"))
        other = "below" if found == "above" else "above"
        wrong[other] = (None, message(f"evidence.claim.not_{other}"))
        wrong["proven"] = (
            "contains_so_proven" if holds_claim else None,
            message("evidence.claim.proven" if holds_claim else "evidence.claim.proven_outside"),
        )
    return wrong


def _claim_item(variant: int, wins: int, deals: int) -> dict:
    interval = wilson_interval(wins, deals)
    found = verdict_of(interval)
    solution = message(f"evidence.claim.choice_{found}")
    return dict(
        question=message(
            "evidence.claim.question",
            wins=wins,
            deals=deals,
            rate=percent(wins / deals),
            interval=_interval_text(interval),
            claim=percent(CLAIM),
        ),
        kind="claim",
        accepted=frozenset({found}),
        solution=solution,
        why=message(_CLAIM_WHY[found], interval=_interval_text(interval), claim=percent(CLAIM)),
        wrong=claim_wrong(found, wins / deals, interval[0] <= CLAIM <= interval[1]),
        other=message("evidence.claim.other"),
    )


def own_variant(wins: int, deals: int) -> int:
    """The variant of :data:`OWN_EXERCISE` for a student's own ``wins`` of ``deals`` (1 to :data:`BLOCK` deals)."""
    if not 1 <= deals <= BLOCK or not 0 <= wins <= deals:
        raise ValueError(message("evidence.bad_count", wins=wins, deals=deals, most=BLOCK))
    return deals * (deals - 1) // 2 + deals - 1 + wins


def _overlap_z(first: int, second: int, deals: int) -> float:
    """The two-proportion z statistic of ``first`` and ``second`` wins, each of ``deals`` deals."""
    pooled = (first + second) / (2 * deals)
    spread = math.sqrt(pooled * (1 - pooled) * 2 / deals)
    return abs(first - second) / deals / spread if spread else 0.0


def _overlap_item(variant: int, first: int, second: int, deals: int) -> dict:
    one, two = wilson_interval(first, deals), wilson_interval(second, deals)
    return dict(
        question=message(
            "evidence.overlap.question",
            deals=deals,
            first=first,
            second=second,
            one=_interval_text(one),
            two=_interval_text(two),
        ),
        kind="comparison",
        accepted=frozenset({"unclear"}),
        solution=message("evidence.overlap.choice_unclear"),
        why=message("evidence.overlap.why", low=percent(max(one[0], two[0])), high=percent(min(one[1], two[1]))),
        wrong={
            "same": ("overlap_means_same", message("evidence.overlap.same")),
            "different": ("overlap_means_different", message("evidence.overlap.different")),
        },
        other=message("evidence.overlap.other"),
    )


def _claims() -> tuple[tuple[int, int], ...]:
    """The samples the claim exercise asks about: small ones that cannot tell (some above 80%, some below),
    small ones wholly below, and a class's worth of deals on either side."""
    small = [(wins, deals) for deals in (10, 20) for wins in range(deals // 2, deals + 1)]
    large = [(wins, deals) for deals in (200, 400) for wins in range(deals * 3 // 4, deals * 19 // 20 + 1, deals // 40)]
    return tuple(small + large)


def slip_examples(exercise_id: str, variant: int = 0) -> list[str]:
    """Typed answers to variant ``variant`` of ``exercise_id`` that show each misconception its feedback names
    (for the teacher's notes: each judged there, so the feedback shown is the page's own)."""
    variants = next(kind.variants for kind in KINDS if kind.exercise_id == exercise_id)
    arguments = variants[variant % len(variants)]
    if exercise_id == "evidence-rate":
        wins, deals = arguments
        return [decimal((deals - wins) / deals), str(wins), "a"]
    if exercise_id == "evidence-interval":
        wins, deals = arguments
        rate = wins / deals
        half = math.sqrt(rate * (1 - rate) / deals)
        low, high = wilson_interval(wins, deals)
        return [f"{decimal(1 - high)} – {decimal(1 - low)}", f"{decimal(rate - half)} – {decimal(rate + half)}", "0"]
    if exercise_id == "evidence-width":
        wins, deals = arguments
        low, high = wilson_interval(wins, deals)
        return [percent((high - low) / 4), percent(high - low)]
    return ["a", "b", "c", "d"]


# Each exercise: identifier, variants (the arguments of its function after the variant number), function.
_EXERCISES: tuple[tuple[str, tuple[tuple, ...], Callable[..., dict]], ...] = (
    (
        "evidence-rate",
        # rates that are whole percentages, so a right answer can be typed exactly
        tuple((wins, deals) for deals in (10, 20, 25, 40) for wins in range(2, deals - 1) if wins * 100 % deals == 0),
        _rate_item,
    ),
    (
        "evidence-interval",
        tuple((wins, deals) for deals in (40, 100) for wins in range(deals // 4, deals * 9 // 10 + 1)),
        _interval_item,
    ),
    (
        "evidence-width",
        tuple((wins, deals) for deals in (10, 20, 25) for wins in range(deals // 5, deals * 9 // 10 + 1)),
        _width_item,
    ),
    ("evidence-claim", _claims(), _claim_item),
    (
        "evidence-overlap",
        tuple(
            (first, second, deals)
            for deals in (10, 20)
            for first in range(deals // 2, deals)
            for second in range(deals // 4, first)
            if first - second >= deals // 10 and _overlap_z(first, second, deals) < 1.5
        ),
        _overlap_item,
    ),
    (OWN_EXERCISE, tuple((wins, deals) for deals in range(1, BLOCK + 1) for wins in range(deals + 1)), _claim_item),
)

#: The exercises of "Is the 80% true?", in the order the lesson asks them (its screens, worksheet and key).
#: The verdict on a student's own deals (:data:`OWN_EXERCISE`) is asked where they play, after their deals.
KINDS: tuple[ExerciseKind, ...] = tuple(ExerciseKind(*exercise) for exercise in _EXERCISES)
ORDER: tuple[str, ...] = tuple(kind.exercise_id for kind in KINDS if kind.exercise_id != OWN_EXERCISE)

#: The wrong ideas this lesson's feedback names (their names are the messages "lessons.mis.<id>").
MISCONCEPTIONS = (
    "losses_for_wins",
    "count_for_share",
    "wrong_whole",
    "forgot_z",
    "forgot_n",
    "rate_outside",
    "width_linear",
    "width_not_narrower",
    "sample_rate_as_truth",
    "contains_so_proven",
    "too_few_when_enough",
    "overlap_means_same",
    "overlap_means_different",
)
