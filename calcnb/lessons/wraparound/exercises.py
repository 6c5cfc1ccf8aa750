"""The exercises of the lesson "The clock of 13" (ages 12–15, notebook 02): the wraparound past K as
arithmetic modulo 13, the four foundation orders, other clocks and the modular inverse.

Each exercise is an :class:`~calcnb.exercises.items.ExerciseKind`: an identifier, its variants, and
the function that works a variant out, with its answer, its reasoning and the feedback for each
common wrong answer, all computed from the rules core (:mod:`calcnb.game.cards`).

>>> from calcnb.exercises.items import judge
>>> item = KINDS[4].item(0)
>>> item.exercise_id, judge(item, item.solution).correct, judge(item, "²").correct
('next-wrap', True, None)
"""

from __future__ import annotations

import math

from calcnb.exercises.items import ExerciseKind
from calcnb.game.cards import (
    RANK_COUNT,
    foundation_order,
    modular_inverse,
    next_rank,
    position_in_order,
    rank_name,
)
from calcnb.i18n import message


def _rank_with_value(rank: int) -> str:
    name = rank_name(rank)
    return name if name == str(rank) else f"{name} ({rank})"


def _clock(total: int) -> int:
    """Where ``total`` lands on the clock of 13 (remainder 0 read as 13, the K)."""
    return total % RANK_COUNT or RANK_COUNT


def _off_by_one(answer: int, reason: str, low: int = 1, high: int = RANK_COUNT) -> dict:
    return {value: ("off_by_one", reason) for value in (answer - 1, answer + 1) if low <= value <= high}


def _times(count: int) -> str:
    """How many times, in words ("once", "twice", "three times"): a digit here could be read as the answer."""
    return message(f"lessons.times.{count}") if 1 <= count <= 6 else message("lessons.times.many", count=count)


def _reductions(value: int, answer: int) -> int | None:
    """How many times 13 must still be taken from ``value`` to reach ``answer``, or None if it never does."""
    laps, left = divmod(value - answer, RANK_COUNT)
    return laps if value > RANK_COUNT and laps > 0 and not left else None


def _still_past(value: int, answer: int, start: int, misconception: str, first: str, **values: object) -> tuple:
    """A number past 13 on the way from ``start`` to ``answer``: how many more times to take 13 away.

    ``first`` is the message for ``start`` itself (nothing taken away yet), filled with ``values``.
    """
    times = _times(_reductions(value, answer) or 0)
    if value == start:
        return misconception, message(first, value=value, times=times, **values)
    return misconception, message("lessons.clock.still_past", value=value, times=times)


def _clock_item(variant: int, total: int) -> dict:
    laps, left = divmod(total, RANK_COUNT)
    answer = _clock(total)
    if left:
        why = message("lessons.clock.why", total=total, laps=laps, left=left, answer=_rank_with_value(answer))
    else:
        why = message("lessons.clock.why_zero", total=total, laps=laps)
    wrong = _off_by_one(answer, message("lessons.clock.near", total=total)) if left else {}
    if left:  # 0 is no number of the clock; here it is not even what is left over
        wrong[0] = ("zero_not_on_clock", message("lessons.clock.zero_left", total=total))
    else:
        wrong[0] = ("zero_for_king", message("lessons.clock.zero"))
    if laps and laps != answer:
        wrong[laps] = ("counted_laps", message("lessons.clock.laps", value=laps, total=total))
    misconception = "multiple_for_king" if not left else "no_wraparound"
    for value in range(total, RANK_COUNT, -RANK_COUNT):
        wrong[value] = _still_past(value, answer, total, misconception, "lessons.clock.unreduced")
    return dict(
        question=message("lessons.clock.question", total=total),
        kind="number",
        accepted=frozenset({answer}),
        solution=_rank_with_value(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.clock.other"),
        too_big=(RANK_COUNT, "no_wraparound", lambda value: message("lessons.clock.past", value=value, total=total)),
        wraps=True,
    )


def _next_item(variant: int, top: int, step: int) -> dict:
    answer = next_rank(top, step)
    total = top + step
    values = dict(top_value=top, step=step, total=total, answer=rank_name(answer), answer_value=answer)
    wraps = total > RANK_COUNT
    near = message("lessons.next.near", top_value=top, step=step, top=rank_name(top))
    wrong = _off_by_one(answer, near)
    if step != 1:
        wrong[next_rank(top, 1)] = ("wrong_step", message("lessons.next.wrong_step", step=step))
    if wraps:
        wrong[total] = ("no_wraparound", message("lessons.next.no_such_rank", total=total))
    return dict(
        question=message("lessons.next.question", step=step, top=rank_name(top)),
        kind="rank",
        accepted=frozenset({answer}),
        solution=_rank_with_value(answer),
        why=message("lessons.next.why_wrap" if wraps else "lessons.next.why", **values),
        wrong=wrong,
        other=message("lessons.next.other", step=step, top=_rank_with_value(top)),
        too_big=(RANK_COUNT, "no_wraparound", lambda value: message("lessons.next.no_such_rank", total=value)),
        wraps=wraps,
    )


def _complete_item(variant: int, step: int) -> dict:
    after = next_rank(RANK_COUNT, step)
    past = ("past_complete", message("lessons.complete.past", step=step, rank=rank_name(after)))
    # "A after K" (the clock's order) is the same wrong idea on every foundation, not only on +1
    ace = ("past_complete", message("lessons.complete.ace"))
    return dict(
        question=message("lessons.complete.question", step=step),
        kind="rank_or_none",
        accepted=frozenset({"none"}),
        solution=message("lessons.none_word"),
        why=message("lessons.complete.why", step=step),
        wrong={1: ace, after: past, RANK_COUNT + step: past},
        other=message("lessons.complete.other"),
        # 0 here means "no card" more often than "0 for K": ask for a rank or 'none' rather than call it wrong
        unclear={0: message("lessons.not_a_rank", value=0, expected=message("lessons.read_rank_or_none"))},
    )


def _next_king_item(variant: int, start: int) -> dict:
    answer = (start // RANK_COUNT + 1) * RANK_COUNT
    not_king = message("lessons.king.not_king")
    wrong: dict = {value: ("off_by_one", not_king) for value in (answer - 1, answer + 1)}
    wrong[RANK_COUNT] = (None, message("lessons.king.thirteen", start=start))
    wrong[start + RANK_COUNT] = ("added_thirteen", message("lessons.king.added", value=start + RANK_COUNT, start=start))
    for below in range(RANK_COUNT, start, RANK_COUNT):  # the multiples of 13 up to the start: on K, not past it
        wrong.setdefault(below, ("multiple_below", message("lessons.king.below", value=below, start=start)))
    return dict(
        question=message("lessons.king.question", start=start),
        kind="number",
        accepted=frozenset({answer}),
        solution=str(answer),
        why=message("lessons.king.why", answer=answer, laps=answer // RANK_COUNT, start=start),
        wrong=wrong,
        other=message("lessons.king.other", start=start),
        wraps=True,
    )


def _to_complete_item(variant: int, top: int, step: int) -> dict:
    place = position_in_order(top, step)
    answer = RANK_COUNT - place
    order = foundation_order(step)
    wrong: dict = {}
    if answer:
        count_on = message("lessons.to_complete.count", top=rank_name(top), step=step)
        wrong[answer + 1] = ("counting_the_start", message("lessons.to_complete.start", top=rank_name(top)))
        wrong[answer - 1] = ("off_by_one", count_on)
        if RANK_COUNT - top not in (answer, answer + 1, answer - 1):
            wrong[RANK_COUNT - top] = (
                "rank_as_place",
                message("lessons.to_complete.rank", top=rank_name(top), top_value=top, step=step),
            )
        too_many = (RANK_COUNT - 1, "past_complete", lambda _value: message("lessons.to_complete.too_many"))
    else:  # K on top: complete, so any card at all is one too many
        past = ("past_complete", message("lessons.to_complete.past_king", step=step))
        wrong.update({value: past for value in range(1, RANK_COUNT + 1)})
        too_many = (RANK_COUNT, "past_complete", lambda _value: past[1])
    shown = " → ".join(rank_name(rank) for rank in order[place - 1 :])
    key = "lessons.to_complete.why" if answer else "lessons.to_complete.why_king"
    return dict(
        question=message("lessons.to_complete.question", step=step, top=rank_name(top)),
        kind="count_or_none",
        # "none" (no card) says 0 in words: right exactly when the foundation is complete
        accepted=frozenset({answer, "none"} if not answer else {answer}),
        solution=str(answer),
        why=message(key, step=step, top=rank_name(top), place=place, answer=answer, order=shown),
        wrong=wrong,
        other=message("lessons.to_complete.other", step=step, top=rank_name(top)),
        too_big=too_many,
        wraps=True,
    )


def _nth_item(variant: int, place: int, step: int) -> dict:
    order = foundation_order(step)
    answer = order[place - 1]
    product = place * step
    laps, left = divmod(product, RANK_COUNT)
    key = "lessons.nth.why" if left else "lessons.nth.why_zero"
    why = message(key, place=place, step=step, product=product, laps=laps, left=left, answer=_rank_with_value(answer))
    wrong: dict = {}
    if place > 1:
        wrong[order[place - 2]] = ("off_by_one", message("lessons.nth.before"))
    if place < RANK_COUNT:
        start = message("lessons.nth.start", step=step, place=place)
        wrong[order[place]] = ("counting_the_start", start)
    misconception = "multiple_for_king" if not left else "no_wraparound"
    for value in range(product, RANK_COUNT, -RANK_COUNT):
        wrong[value] = _still_past(
            value, answer, product, misconception, "lessons.nth.unreduced", place=place, step=step
        )
    if not left:
        wrong[0] = ("zero_for_king", message("lessons.clock.zero"))
    else:
        wrong[0] = ("zero_not_on_clock", message("lessons.nth.zero_left", place=place, step=step))
    return dict(
        question=message("lessons.nth.question", step=step, place=place),
        kind="rank",
        accepted=frozenset({answer}),
        solution=_rank_with_value(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.nth.other", place=place, step=step),
        too_big=(
            RANK_COUNT,
            "no_wraparound",
            lambda value: message("lessons.nth.past", value=value, place=place, step=step),
        ),
        wraps=product > RANK_COUNT,
    )


def _visits_item(variant: int, step: int, ranks: int) -> dict:
    from calcnb.exercises.orders import walk

    order = walk(step, ranks)
    count = order.closes_after
    factor = math.gcd(step, ranks)
    why = message(
        "lessons.visits.why",
        visited=" → ".join(map(str, order.visited)),
        count=count,
        step=step,
        ranks=ranks,
        factor=factor,
    )
    wrong = {
        count + 1: ("counting_the_start", message("lessons.visits.twice", step=step)),
        count - 1: ("counting_the_start", message("lessons.visits.left_out", step=step)),
    }
    wrong[ranks] = ("every_number_reached", message("lessons.visits.every", step=step, ranks=ranks))
    return dict(
        question=message("lessons.visits.question", step=step, ranks=ranks),
        kind="number",
        accepted=frozenset({count}),
        solution=str(count),
        why=why,
        wrong=wrong,
        other=message("lessons.visits.other", step=step),
        too_big=(ranks, None, lambda _value: message("lessons.visits.too_many", ranks=ranks)),
        wraps=True,
    )


def _inverse_item(variant: int, step: int) -> dict:
    answer = modular_inverse(step)
    product = step * answer
    why = message("lessons.inverse.why", step=step, answer=answer, product=product, laps=product // RANK_COUNT)
    wrong: dict = {"fraction": ("reciprocal", message("lessons.inverse.reciprocal", step=step))}
    for value in range(1, RANK_COUNT):
        laps, left = divmod(step * value, RANK_COUNT)
        values = dict(step=step, value=value, product=step * value, laps=laps, left=left)
        reason = message("lessons.inverse.wrong", **values)
        if answer in (left, laps, step * value):  # the arithmetic would name the answer: say only that it is not 1
            reason = message("lessons.inverse.not_one", **values)
        wrong.setdefault(value, (None, reason))
    return dict(
        question=message("lessons.inverse.question", step=step),
        kind="number",
        accepted=frozenset({answer}),
        solution=str(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.inverse.off"),
        wraps=True,
        typed={"fraction": f"1/{step}"},
    )


def _position_item(variant: int, rank: int, step: int) -> dict:
    order = foundation_order(step)
    inverse = modular_inverse(step)
    product = rank * inverse
    laps, left = divmod(product, RANK_COUNT)
    answer = position_in_order(rank, step)
    shown = " ".join(f"[{rank_name(r)}]" if place == answer else rank_name(r) for place, r in enumerate(order, 1))
    why = message(
        "lessons.position.why",
        step=step,
        inverse=inverse,
        rank_value=rank,
        product=product,
        laps=laps,
        left=left,
        answer=answer,
        order=shown,
    )
    wrong: dict = {}
    for value in range(1, RANK_COUNT + 1):
        holds = rank_name(order[value - 1])
        key = "lessons.position.wrong" if holds != str(answer) else "lessons.position.not_there"
        wrong[value] = (None, message(key, value=value, step=step, holds=holds, rank=rank_name(rank)))
    for value in (answer - 1, answer + 1):
        if 1 <= value <= RANK_COUNT:
            wrong[value] = ("off_by_one", wrong[value][1])
    multiplied = _clock(rank * step)
    wrong[multiplied] = ("multiplied_not_divided", message("lessons.position.multiplied", rank_value=rank, step=step))
    wrong[rank] = ("rank_as_place", message("lessons.position.rank", rank=rank_name(rank), rank_value=rank, step=step))
    wrong.pop(answer, None)
    return dict(
        question=message("lessons.position.question", rank=rank_name(rank), step=step),
        kind="place",
        accepted=frozenset({answer}),
        solution=str(answer),
        why=why,
        wrong=wrong,
        other=message("lessons.position.off"),
        wraps=True,
    )


# Worked in the lesson's prose, so kept out of the variants (no answer can be read from the page).
_SHOWN_NEXT = {(12, 2)}


# What a variant asks about, as the order explorer would draw it (ExerciseKind.shows): the order of +3 gives
# the card at any place of +3, the place of A in +k is k's inverse, and the count of ranks reached on a clock
# is the visits answer for every step with the same common factor.
def _on_its_step(variant: tuple) -> tuple[int | None, int]:
    return variant[1], RANK_COUNT


def _on_the_step_asked(variant: tuple) -> tuple[int | None, int]:
    return variant[0], RANK_COUNT


def _on_the_clock_asked(variant: tuple) -> tuple[int | None, int]:
    return None, variant[1]


#: Every exercise of the lesson, including those kept for the teacher's lists (clock-king, next-complete,
#: last-card), by the order of the lesson's sections.
KINDS: tuple[ExerciseKind, ...] = (
    # the clock of 13: numbers beyond the table printed in the lesson (11 to 30), none a multiple of 13
    ExerciseKind("clock", tuple((total,) for total in range(31, 78) if total % RANK_COUNT), _clock_item),
    ExerciseKind("clock-king", tuple((total,) for total in (39, 52, 65, 78, 91)), _clock_item),
    # the next card: two without the wraparound, one with it, one on a complete foundation
    ExerciseKind("next-plain", tuple((top, 3) for top in range(4, RANK_COUNT - 3)), _next_item, _on_its_step),
    ExerciseKind("next-small", tuple((top, 4) for top in range(2, RANK_COUNT - 4)), _next_item, _on_its_step),
    ExerciseKind(
        "next-wrap",
        tuple(
            (top, step)
            for step in (2, 3, 4)
            for top in range(RANK_COUNT - step + 1, RANK_COUNT)
            if (top, step) not in _SHOWN_NEXT
        ),
        _next_item,
        _on_its_step,
    ),
    ExerciseKind("next-complete", tuple((step,) for step in (2, 3, 4, 1)), _complete_item),
    # numbers that land on K, beyond the table printed in the lesson: the first multiple of 13 past a start
    ExerciseKind("next-king", tuple((start,) for start in range(31, 131) if start % RANK_COUNT), _next_king_item),
    # how far a foundation is from complete: count on from its top to the K (every top, on +3 and +4)
    ExerciseKind(
        "to-complete",
        tuple((top, step) for step in (3, 4) for top in range(1, RANK_COUNT + 1)),
        _to_complete_item,
        _on_its_step,
    ),
    # the card at a place, on the foundations not printed in the lesson
    ExerciseKind(
        "nth-card", tuple((place, step) for step in (3, 4) for place in range(4, RANK_COUNT)), _nth_item, _on_its_step
    ),
    ExerciseKind("last-card", tuple((RANK_COUNT, step) for step in (4, 3)), _nth_item, _on_its_step),
    # other clocks: none of the clock sizes tabled in the lesson (12, 13, 16)
    ExerciseKind(
        "visits",
        ((4, 10), (6, 14), (6, 15), (4, 14), (8, 20), (6, 20), (10, 15), (4, 18), (6, 9)),
        _visits_item,
        _on_the_clock_asked,
    ),
    # the inverse (2 is the lesson's worked example)
    ExerciseKind("inverse", tuple((step,) for step in (3, 4, 5, 6, 8, 9, 10, 11)), _inverse_item, _on_the_step_asked),
    ExerciseKind(
        "position",
        tuple((rank, step) for step in (3, 4) for rank in range(2, RANK_COUNT)),
        _position_item,
        _on_its_step,
    ),
)

#: The exercises in the order the lesson asks them: the numbering of the students' screens, the printed
#: worksheet and the teacher's key.
ORDER = (
    "clock",
    "next-king",
    "next-plain",
    "next-small",
    "next-wrap",
    "to-complete",
    "nth-card",
    "visits",
    "inverse",
    "position",
)

#: The wrong ideas this lesson's feedback names (their names are the messages "lessons.mis.<id>").
MISCONCEPTIONS = (
    "off_by_one",
    "no_wraparound",
    "counting_the_start",
    "zero_for_king",
    "zero_not_on_clock",
    "multiple_for_king",
    "counted_laps",
    "past_complete",
    "wrong_step",
    "every_number_reached",
    "reciprocal",
    "multiplied_not_divided",
    "rank_as_place",
    "added_thirteen",
    "multiple_below",
    "stops_at_king",
)
