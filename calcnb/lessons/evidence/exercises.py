"""The lesson "Is the 80% true?" (ages 15–18): deals of a student's own, played by calcnb's quick player, and the
exercises on the win rate, its 95% interval and what a sample can and cannot tell.

Each student plays a block of deals chosen by the keyed digest of their nickname (:func:`seed_block`), past
every deal the studies use; every game is replayed through the engine, so a win is one the rules say is won
(:func:`play_deal`). The class's games pool into one sample (:func:`pool`), each deal counted once. The
percentages the sentences show carry the fewest decimals that keep each sentence true (:func:`shown_percents`),
and widths are worked out from the bounds as shown. How rare a shared block is: ``docs/design.md``.

>>> seed_block("Ana", "key") == seed_block("  ana ", "key"), len(seed_block("Ana", "key"))
(True, 100)
>>> verdict_of(wilson_interval(7, 10)), verdict_of(wilson_interval(4, 10))
('unclear', 'below')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache

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
    "bounds_text",
    "collision_chance",
    "decimal",
    "lesson_player",
    "own_variant",
    "percent",
    "percent_text",
    "play_deal",
    "pool",
    "pooled_path",
    "rate_text",
    "seed_block",
    "shown_interval",
    "shown_overlap",
    "shown_percents",
    "shown_rate",
    "shown_width",
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


# ---------------------------------------------------------------- the percentages the sentences show

Share = float | Fraction
"""A share: a float (an interval's bound) or an exact fraction (a rate, wins of deals)."""


def _tie(value: Fraction, places: int) -> bool:
    """Is ``value`` exactly half-way between two numbers of ``places`` decimals (32.5 to none)?"""
    doubled = value * 10**places * 2
    return doubled.denominator == 1 and doubled.numerator % 2 == 1


def _untied(value: Fraction, places: int = 0) -> int:
    """The fewest decimal places from ``places`` on at which ``value`` is no tie: a tie is shown exactly."""
    while _tie(value, places):
        places += 1
    return places


def _rounded(value: Fraction, places: int) -> Decimal:
    """``value`` rounded half up to ``places`` decimals (a tie never reaches here: see :func:`_untied`)."""
    return Decimal(math.floor(value * 10**places + Fraction(1, 2))).scaleb(-places)


@lru_cache(maxsize=4096)  # a float's shortest decimal is costly to find, and the same shares come back
def _exact(share: Share) -> Fraction:
    """A share as an exact percentage: a fraction as itself, a float as the shortest decimal that is that float
    (``13 / 40`` is 0.325, exactly half-way at 32.5%, as 13 of 40 is; a bound's 17 digits are as good as exact)."""
    return (Fraction(repr(float(share))) if isinstance(share, float) else Fraction(share)) * 100


def percent_text(shown: Decimal) -> str:
    """A percentage already rounded (:func:`shown_percents`) in the current language's way ("32.5%", "32,5%")."""
    return message("evidence.percent", value=format(shown, "f").replace(".", message("evidence.decimal_mark")))


def percent(share: Share) -> str:
    """A share as a percentage in the current language's way: whole ("70%", "33%" for 1 in 3) unless it lies
    exactly half-way, which is shown exactly ("32.5%" for 13 of 40, never a rounding either way)."""
    value = _exact(share)
    return percent_text(_rounded(value, _untied(value)))


@cache
def _claim_shown(claim: float = CLAIM) -> Fraction:
    """The claim as its sentences show it (80%), as an exact percentage."""
    value = _exact(claim)
    return Fraction(_rounded(value, _untied(value)))


def shown_percents(
    values: Mapping[str, Share], less: Iterable[tuple[str | float, str | float]] = ()
) -> dict[str, Decimal]:
    """Each share of ``values`` as the percentage a sentence shows: rounded half up to the fewest decimal places
    (none when it can) that keep it off a tie and keep each relation of ``less`` true of the shown percentages.

    ``(a, b)`` in ``less`` says a is below b: each is a key of ``values`` or a share shown as :func:`percent`
    shows it (the claim's 80%). Each relation must be true of the shares themselves; a value is shown with one
    more decimal, then another, until every relation holds as shown.

    >>> shown_percents({"high": 0.804, "low": 0.686}, [(0.8, "high"), ("low", 0.8)])
    {'high': Decimal('80.4'), 'low': Decimal('69')}
    """
    exact = {key: _exact(share) for key, share in values.items()}
    relations = list(less)

    def side(shown: Mapping[str, Fraction | Decimal], which: str | float) -> Fraction | Decimal:
        return shown[which] if isinstance(which, str) else _claim_shown(which)

    assert all(side(exact, a) < side(exact, b) for a, b in relations), "a relation untrue of the shares themselves"
    places = {key: _untied(value) for key, value in exact.items()}
    for _round in range(16):
        shown = {key: _rounded(value, places[key]) for key, value in exact.items()}
        failing = {which for a, b in relations if not side(shown, a) < side(shown, b) for which in (a, b)}
        if not failing:
            return shown
        for key in failing & exact.keys():
            places[key] = _untied(exact[key], places[key] + 1)
    raise ValueError(f"no precision keeps {relations} true of {values}")


def _claim_sides(values: Mapping[str, Share], claim: float = CLAIM) -> list[tuple[str | float, str | float]]:
    """Each value on the side of the claim it truly is: below it, or above it (one equal to it is shown as it is)."""
    sides: list[tuple[str | float, str | float]] = []
    for key, share in values.items():
        value = _exact(share)
        if value < _claim_shown(claim):
            sides.append((key, claim))
        elif value > _claim_shown(claim):
            sides.append((claim, key))
    return sides


@lru_cache(maxsize=4096)  # pure, and asked for again by each sentence that shows the same interval
def shown_interval(interval: tuple[float, float], claim: float | None = CLAIM) -> tuple[Decimal, Decimal]:
    """An interval's bounds as its sentences show them: whole percentages, unless a bound would then sit on the
    other side of the claim's 80% (or on it) from where it is, then with the decimals that keep it there
    (80.5%, never 80%, for a bound just above 80%): what the sentences say of the bounds and the claim, and
    the verdict, are true of the bounds shown. With ``claim`` None (no sentence sets it against a claim), whole
    percentages."""
    values = {"low": interval[0], "high": interval[1]}
    sides = _claim_sides(values, claim) if claim is not None else []
    shown = shown_percents(values, [("low", "high"), *sides])
    return shown["low"], shown["high"]


@lru_cache(maxsize=4096)  # pure, and asked for again by each sentence that shows the same rate
def shown_rate(wins: int, deals: int, claim: float = CLAIM) -> Decimal:
    """``wins`` of ``deals`` as the percentage shown: exact when half-way (13 of 40 is 32.5%), and on the side of
    the claim it truly is (321 of 400 is 80.25%, above 80%)."""
    values = {"rate": Fraction(wins, deals)}
    return shown_percents(values, _claim_sides(values, claim))["rate"]


def decimal(share: Share) -> str:
    """A share to two decimals at most, with the current language's decimal mark ("0.35", "0,35", "0.5")."""
    return f"{float(share):.2f}".rstrip("0").rstrip(".").replace(".", message("evidence.decimal_mark"))


def bounds_text(interval: tuple[float, float], claim: float | None = CLAIM) -> dict[str, str]:
    """An interval's bounds as shown (:func:`shown_interval`), as ``low`` and ``high`` for a message: set against
    the claim's 80% by default, as the lab, the class view and the pictures' words show them (so they agree)."""
    low, high = shown_interval(interval, claim)
    return {"low": percent_text(low), "high": percent_text(high)}


def rate_text(wins: int, deals: int) -> str:
    """``wins`` of ``deals`` as a percentage, as shown (:func:`shown_rate`): "70%", "32.5%", "80.25%"."""
    return percent_text(shown_rate(wins, deals))


def _interval_text(interval: tuple[float, float], claim: float | None = None) -> str:
    """An interval as its sentences show it (:func:`shown_interval`): "from 55% to 82%", or, set against the
    claim, "from 69% to 80.5%" (150 of 200)."""
    return message("evidence.interval", **bounds_text(interval, claim))


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

    shown = percent(Fraction(wins, deals))
    return dict(
        question=message("evidence.rate.question", wins=wins, deals=deals),
        kind="rate",
        accepted=frozenset(),
        accepts=lambda reading: _near(reading, rate, tolerance),
        solution=message("evidence.rate.solution", share=decimal(rate), percent=shown),
        why=message("evidence.rate.why", wins=wins, deals=deals, percent=shown),
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
        solution=message("evidence.interval_short", **bounds_text(wilson, None)),
        why=message(
            "evidence.interval.why",
            rate=percent(Fraction(wins, deals)),
            deals=deals,
            wilson=_interval_text(wilson),
            textbook=_interval_text(textbook),
        ),
        other=message("evidence.interval.other"),
        reason_for=reason_for,
    )


def shown_width(interval: tuple[float, float]) -> Decimal:
    """The width of an interval as its sentences say it: the shown high bound less the shown low one."""
    low, high = shown_interval(interval, None)
    return high - low


def _width_item(variant: int, wins: int, deals: int) -> dict:
    low, high = wilson_interval(wins, deals)
    width = high - low
    wider_low, wider_high = wilson_interval(4 * wins, 4 * deals)
    computed = wider_high - wider_low
    tolerance = TOLERANCE["width"]
    said_width = shown_width((low, high))  # the sentences' width, from the bounds they show
    said_half = said_width / 2

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
            width=percent_text(said_width),
            more=4 * deals,
        ),
        kind="rate",
        accepted=frozenset(),
        accepts=lambda reading: any(
            _near(reading, target, tolerance) for target in (width / 2, float(said_half) / 100, computed)
        ),
        solution=message("evidence.width.solution", width=percent_text(said_half)),
        why=message(
            "evidence.width.why",
            width=percent_text(said_width),
            half=percent_text(said_half),
            more=4 * deals,
            wins=4 * wins,
            interval=_interval_text((wider_low, wider_high)),
            computed=percent_text(shown_width((wider_low, wider_high))),
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
            rate=rate_text(wins, deals),
            interval=_interval_text(interval, CLAIM),
            claim=percent(CLAIM),
        ),
        kind="claim",
        accepted=frozenset({found}),
        solution=solution,
        why=message(_CLAIM_WHY[found], interval=_interval_text(interval, CLAIM), claim=percent(CLAIM)),
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


def shown_overlap(one: tuple[float, float], two: tuple[float, float]) -> dict[str, Decimal]:
    """Two overlapping intervals' bounds as shown (``one_low``, ``one_high``, ``two_low``, ``two_high``): whole
    percentages unless rounding would make them stop overlapping, or meet, as shown."""
    values = {"one_low": one[0], "one_high": one[1], "two_low": two[0], "two_high": two[1]}
    relations = [("one_low", "one_high"), ("two_low", "two_high"), ("one_low", "two_high"), ("two_low", "one_high")]
    return shown_percents(values, relations)


def _overlap_item(variant: int, first: int, second: int, deals: int) -> dict:
    one, two = wilson_interval(first, deals), wilson_interval(second, deals)
    shown = shown_overlap(one, two)
    text = {key: percent_text(value) for key, value in shown.items()}
    return dict(
        question=message(
            "evidence.overlap.question",
            deals=deals,
            first=first,
            second=second,
            one=message("evidence.interval", low=text["one_low"], high=text["one_high"]),
            two=message("evidence.interval", low=text["two_low"], high=text["two_high"]),
        ),
        kind="comparison",
        accepted=frozenset({"unclear"}),
        solution=message("evidence.overlap.choice_unclear"),
        why=message(  # the rates both shown intervals hold: from the higher shown low to the lower shown high
            "evidence.overlap.why",
            low=percent_text(max(shown["one_low"], shown["two_low"])),
            high=percent_text(min(shown["one_high"], shown["two_high"])),
        ),
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
        width = shown_width(wilson_interval(wins, deals))  # the width the question shows
        return [percent(Fraction(width) / 400), percent_text(width)]
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
