"""The exercises of the lesson "Counting in steps" (ages 9–11): counting in ones, twos, threes and fours round
the clock of the 13 cards A to K, with feedback that names the slip.

Each exercise is an :class:`~calcnb.exercises.items.ExerciseKind` (:data:`KINDS`: an identifier, its
variants, and the function that works a variant out), and :data:`ORDER` is their order in the lesson.
Every landing place comes from :func:`calcnb.game.cards.next_rank`, the rule of the game. The slips a child
makes when counting on round a clock are told apart (:func:`slips`):

- counting the start: saying the card you stand on as the first step, and landing one card short;
- stopping at 13: not going on past K, as if the clock ended there;
- forgetting to go round: a number past 13 (14, 15, …), which is no card;
- counting in ones instead of the step, one card too far, and 0 (no card of the clock).

>>> [land(12, 2), land(2, 2, 6)]
[1, 1]
"""

from __future__ import annotations

from collections.abc import Callable

from calcnb.exercises.items import ExerciseKind
from calcnb.game.cards import RANK_COUNT, next_rank, rank_name
from calcnb.game.rules import STEPS  # the steps the lesson counts in: the four foundations of the game
from calcnb.i18n import message

__all__ = ["KINDS", "MISCONCEPTIONS", "ORDER", "STEPS", "count_word", "land", "path", "slips"]


def land(start: int, step: int, times: int = 1) -> int:
    """Where counting on from ``start`` in ``step``\\ s, ``times`` times, lands (the game's :func:`next_rank`)."""
    for _ in range(times):
        start = next_rank(start, step)
    return start


def path(start: int, step: int, times: int = 1) -> list[int]:
    """Every card landed on counting on from ``start`` in ``step``\\ s, ``times`` times (``start`` first)."""
    cards = [start]
    for _ in range(times):
        cards.append(next_rank(cards[-1], step))
    return cards


def _cards(ranks: list[int], arrow: str = " → ") -> str:
    return arrow.join(rank_name(rank) for rank in ranks)


def count_word(step: int) -> str:
    """How a child says the step: "ones", "twos", "threes", "fours" (the message ``lessons.count.by.<step>``)."""
    return message(f"lessons.count.by.{step}")


def _card_count(step: int) -> str:
    """ "one card", "two cards": in words, so a digit in feedback is never read as the answer."""
    return message(f"lessons.count.cards.{step}")


def slips(start: int, step: int, times: int = 1) -> dict[int, tuple[str, str]]:
    """The wrong answers a child may give for counting on from ``start`` in ``step``\\ s ``times`` times, each with
    ``(misconception, feedback)``; the feedback names the slip and never the card landed on.

    The first slip that fits a number names it: a K that is both "stopped at 13" and "counted the start" is
    told both ways at once (:data:`lessons.count.start_or_stop`).
    """
    answer = land(start, step, times)
    total = start + step * times
    by, cards = count_word(step), _card_count(step)
    wrong: dict[int, tuple[str, str]] = {}
    short = land(start, step, times - 1) if times > 1 else next_rank(start, step - 1) if step > 1 else start
    stopped = total > RANK_COUNT and answer != RANK_COUNT
    if stopped and short == RANK_COUNT and start != RANK_COUNT:
        wrong[RANK_COUNT] = ("stops_at_king", message("lessons.count.start_or_stop", start=rank_name(start), by=by))
    if stopped:
        wrong.setdefault(RANK_COUNT, ("stops_at_king", message("lessons.count.stops")))
    if times > 1:
        said = message("lessons.count.start_many", start=rank_name(start), times=times)
    else:
        said = message("lessons.count.start", start=rank_name(start), cards=cards)
    wrong.setdefault(short, ("counting_the_start", said))
    if total > RANK_COUNT:
        wrong.setdefault(total, ("no_wraparound", message("lessons.count.no_card", value=total)))
    if step > 1 and times == 1:
        wrong.setdefault(next_rank(start, 1), ("wrong_step", message("lessons.count.ones", by=by, cards=cards)))
    wrong.setdefault(land(start, step, times + 1) if times > 1 else next_rank(start, step + 1), (
        "off_by_one", message("lessons.count.too_far")
    ))  # fmt: skip
    wrong.setdefault(0, ("zero_not_on_clock", message("lessons.count.zero")))
    wrong.pop(answer, None)
    return wrong


def _why(start: int, step: int, times: int) -> str:
    cards = path(start, step, times)
    if times == 1:  # one step, told card by card: Q, then K, A
        passed = [next_rank(start, move) for move in range(1, step + 1)]
        passed_text = _cards(passed, ", ")
        return message("lessons.count.why", start=rank_name(start), cards=_card_count(step), passed=passed_text)
    return message("lessons.count.why_many", path=_cards(cards), answer=rank_name(cards[-1]))


def _typed(wrong: dict) -> dict[int, str]:
    """How the teacher's list shows each wrong card: by its name ("K", not 13); numbers past K as numbers."""
    return {value: rank_name(value) for value in wrong if 1 <= value <= RANK_COUNT}


def _after_item(variant: int, start: int, step: int) -> dict:
    total = start + step
    wrong = slips(start, step)
    return dict(
        question=message("lessons.count.after", by=count_word(step), start=rank_name(start)),
        kind="card",
        accepted=frozenset({land(start, step)}),
        solution=rank_name(land(start, step)),
        why=_why(start, step, 1),
        wrong=wrong,
        typed=_typed(wrong),
        other=message("lessons.count.other", start=rank_name(start), cards=_card_count(step)),
        too_big=(RANK_COUNT, "no_wraparound", lambda value: message("lessons.count.no_card", value=value)),
        wraps=total > RANK_COUNT,
    )


def _on_item(variant: int, start: int, step: int, times: int) -> dict:
    answer = land(start, step, times)
    wrong = slips(start, step, times)
    return dict(
        question=message("lessons.count.on", start=rank_name(start), by=count_word(step), times=times),
        kind="card",
        accepted=frozenset({answer}),
        solution=rank_name(answer),
        why=_why(start, step, times),
        wrong=wrong,
        typed=_typed(wrong),
        other=message("lessons.count.other_many", start=rank_name(start), by=count_word(step), times=times),
        too_big=(RANK_COUNT, "no_wraparound", lambda value: message("lessons.count.no_card", value=value)),
        wraps=start + step * times > RANK_COUNT,
    )


def _thirteenth_item(variant: int, step: int) -> dict:
    cards = path(step, step, RANK_COUNT - 1)  # the 13 cards said, counting from the step itself
    answer = cards[-1]
    first = ", ".join(rank_name(rank) for rank in cards[:3])
    wrong: dict[int, tuple[str, str]] = {
        cards[-2]: ("off_by_one", message("lessons.count.twelfth")),
        step * RANK_COUNT: ("no_wraparound", message("lessons.count.no_card", value=step * RANK_COUNT)),
        0: ("zero_not_on_clock", message("lessons.count.zero")),
    }
    if step > 1:  # the 14th card: the count began again
        wrong.setdefault(step, ("counting_the_start", message("lessons.count.fourteenth", start=rank_name(step))))
    wrong.pop(answer, None)
    return dict(
        question=message("lessons.count.thirteenth", by=count_word(step), first=first, start=rank_name(step)),
        kind="card",
        accepted=frozenset({answer}),
        solution=rank_name(answer),
        why=message("lessons.count.why_thirteenth", path=_cards(cards, ", "), answer=rank_name(answer)),
        wrong=wrong,
        typed=_typed(wrong),
        other=message("lessons.count.other_thirteenth", by=count_word(step), start=rank_name(step)),
        too_big=(RANK_COUNT, "no_wraparound", lambda value: message("lessons.count.no_card", value=value)),
        wraps=step > 1,
    )


def steps_to_king(start: int, step: int) -> int:
    """How many steps of ``step`` from ``start`` (not K) until the count lands on K."""
    count, card = 0, start
    while True:
        card, count = next_rank(card, step), count + 1
        if card == RANK_COUNT:
            return count


def _to_king_item(variant: int, start: int, step: int) -> dict:
    answer = steps_to_king(start, step)
    cards = path(start, step, answer)
    wrong: dict[int, tuple[str, str]] = {
        answer + 1: ("counting_the_start", message("lessons.count.counted_start", start=rank_name(start))),
        answer - 1: ("off_by_one", message("lessons.count.one_short")),
    }
    first_lap = (RANK_COUNT - start) // step  # the steps before the count would pass K the first time
    if first_lap != answer:
        wrong.setdefault(first_lap, ("stops_at_king", message("lessons.count.stops_lap")))
    if step > 1:
        wrong.setdefault(RANK_COUNT - start, ("wrong_step", message("lessons.count.ones_steps", by=count_word(step))))
    wrong.pop(answer, None)
    wrong.pop(0, None)
    return dict(
        question=message("lessons.count.to_king", by=count_word(step), start=rank_name(start)),
        kind="count",
        accepted=frozenset({answer}),
        solution=str(answer),
        why=message("lessons.count.why_to_king", path=_cards(cards), count=answer),
        wrong=wrong,
        other=message("lessons.count.other_to_king", start=rank_name(start), by=count_word(step)),
        too_big=(RANK_COUNT, None, lambda _value: message("lessons.count.at_most")),
        wraps=start + step * answer > RANK_COUNT,
    )


# Each exercise: identifier, variants (the arguments of its function after the variant number), function.
# "After Q in twos" is the lesson's own question, asked of everyone; the other "after" exercises leave it out.
_EXERCISES: tuple[tuple[str, tuple[tuple, ...], Callable[..., dict]], ...] = (
    ("count-ones", tuple((start, 1) for start in range(8, RANK_COUNT + 1)), _after_item),
    ("count-twos-queen", ((12, 2),), _after_item),
    ("count-twos", tuple((start, 2) for start in (9, 10, 11, 13)), _after_item),
    ("count-threes", tuple((start, 3) for start in range(9, RANK_COUNT + 1)), _after_item),
    ("count-fours", tuple((start, 4) for start in range(9, RANK_COUNT + 1)), _after_item),
    # count on several times, once round past K: the start is never K, the landing no further than one lap
    (
        "count-on",
        tuple(
            (start, step, times)
            for step in (2, 3, 4)
            for start in range(5, RANK_COUNT)
            for times in (3, 4)
            if RANK_COUNT < start + step * times < 2 * RANK_COUNT
        ),
        _on_item,
    ),
    ("count-thirteenth", tuple((step,) for step in STEPS), _thirteenth_item),
    (
        "count-to-king",
        tuple(
            (start, step)
            for step in (2, 3, 4)
            for start in range(1, RANK_COUNT)
            if 2 <= steps_to_king(start, step) <= 6
        ),
        _to_king_item,
    ),
)

#: The exercises of "Counting in steps", in the order the lesson asks them (its screens, worksheet and key).
KINDS: tuple[ExerciseKind, ...] = tuple(ExerciseKind(*exercise) for exercise in _EXERCISES)
ORDER: tuple[str, ...] = tuple(kind.exercise_id for kind in KINDS)

#: The wrong ideas this lesson's feedback names (their names are the messages "lessons.mis.<id>").
MISCONCEPTIONS = (
    "counting_the_start",
    "stops_at_king",
    "no_wraparound",
    "off_by_one",
    "wrong_step",
    "zero_not_on_clock",
)
