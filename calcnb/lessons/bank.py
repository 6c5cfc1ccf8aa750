"""The exercise bank and its judge: questions, answers with their reasoning, and the misconceptions.

The exercises are data: each :class:`Item` holds its question, its answer and the reasoning
(computed by calcnb), the forms of answer accepted, and the feedback for each common wrong
answer, named by a misconception identifier (:data:`MISCONCEPTIONS`). One function,
:func:`judge`, reads any text a student types and never raises. :data:`BANK` holds the exercises
by stable identifier; each has variants, and :func:`variant_for` gives each student (by the name
they type, or by a seed drawn per visit) their own. :class:`Attempt` is the record of one check,
handed to every answer listener (:func:`calcnb.ui.lesson.add_answer_listener`).

>>> item = BANK["next-wrap"].item(0)
>>> judge(item, item.solution).correct, judge(item, "²").correct, judge(item, "--5").correct
(True, None, None)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from calcnb.game.cards import (
    RANK_COUNT,
    Card,
    foundation_order,
    modular_inverse,
    next_rank,
    position_in_order,
    rank_name,
)
from calcnb.game.engine import STOCK_TO_FOUNDATION, Move, State
from calcnb.game.game import Game
from calcnb.game.rules import MoveKind
from calcnb.i18n import answer_words, message
from calcnb.lessons import counting, evidence
from calcnb.exercises.answers import DONT_KNOW, READERS, echo, read_answer
from calcnb.exercises.keys import student_number
from calcnb.exercises.tables import lesson_game


class Feedback(NamedTuple):
    """What a check says: ``correct`` is True, False, or None when the answer could not be read.

    ``misconception`` names the wrong idea a wrong answer shows (one of :data:`MISCONCEPTIONS`), or is None.
    """

    correct: bool | None
    text: str
    misconception: str | None = None


#: What one check of an exercise came to: judged right, judged wrong, not readable, or the answer shown.
OUTCOMES = ("right", "wrong", "unreadable", "revealed")


@dataclass(frozen=True)
class Attempt:
    """One check of an exercise, or one press of Show answer: which exercise and variant, what was typed, the outcome.

    ``outcome`` is one of :data:`OUTCOMES`: ``"unreadable"`` for an answer that could not be read (never
    counted as wrong), ``"revealed"`` for Show answer (``answer`` is then ""); ``misconception`` names the
    wrong idea of a wrong answer, or is None. ``language`` is the language the student saw; ``timestamp`` is
    seconds since the epoch (:func:`time.time`).
    """

    exercise_id: str
    variant: int | str
    answer: str
    outcome: str
    misconception: str | None
    language: str
    timestamp: float

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(message("lessons.bad_outcome", outcome=repr(self.outcome), outcomes=", ".join(OUTCOMES)))

    @property
    def correct(self) -> bool:
        """Was the answer judged right?"""
        return self.outcome == "right"


# The wrong ideas the exercises recognise, by stable identifier (their names are messages "lessons.mis.<id>").
MISCONCEPTIONS = (
    "off_by_one",
    "no_wraparound",
    "counting_the_start",
    "zero_for_king",
    "zero_not_on_clock",
    "multiple_for_king",
    "counted_laps",
    "buried_card",
    "past_complete",
    "wrong_step",
    "every_number_reached",
    "reciprocal",
    "multiplied_not_divided",
    "rank_as_place",
    "added_thirteen",
    "multiple_below",
    "stops_at_king",
    # the lesson "Is the 80% true?" (calcnb.lessons.evidence)
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
    "unreadable",
)


# ---------------------------------------------------------------- the exercise bank


@dataclass(frozen=True)
class Item:
    """One exercise, fully worked out: the data :func:`judge` needs and nothing else.

    ``kind`` says how an answer is read (a rank, a number, foundations, yes or no);
    ``accepted`` holds the readings counted right; ``wrong`` maps the readings of common wrong
    answers to ``(misconception, reason)``; ``too_big`` (when set) is ``(limit, misconception,
    reason)`` for any number above ``limit``, ``reason(number)`` saying why; ``other`` is the reason given
    for any other answer
    (``reason_for``, when set, computes it from the reading, or ``(misconception, reason)``); ``accepts``, when
    set, also counts a reading right (a rate or an interval within a tolerance). ``solution`` and ``why`` are the
    answer as shown and its reasoning, computed by calcnb; ``wraps`` says whether the answer needs
    the wraparound past K; ``typed`` gives an example of how a reading may be typed (for a teacher's list);
    ``unclear`` maps readings that are no answer to this question, though readable (``0`` for "which rank
    goes on a complete foundation"), to what to write instead: neither right nor wrong.
    """

    exercise_id: str
    variant: int
    question: str
    kind: str
    accepted: frozenset
    solution: str
    why: str
    wrong: Mapping[object, tuple[str | None, str]] = field(default_factory=dict)
    other: str = ""
    too_big: tuple[int, str | None, Callable[[int], str]] | None = None
    reason_for: Callable[[object], str | tuple[str | None, str] | None] | None = None
    accepts: Callable[[object], bool] | None = None
    wraps: bool = False
    typed: Mapping[object, str] = field(default_factory=dict)
    unclear: Mapping[object, str] = field(default_factory=dict)


def judge(item: Item, text: str) -> Feedback:
    """Judge one typed answer to ``item``: always a :class:`Feedback`, never an exception, whatever the text.

    ``correct`` is None for text that is not an answer, for a mark meaning "I don't know" (``-``, ``?``,
    "não sei": never right) and for a reading the item calls unclear; a wrong answer's feedback never
    contains the item's answer (:func:`gives_away`).
    """
    reading = read_answer(item.kind, text)
    expected = message(READERS[item.kind][1])
    if reading is None:
        return Feedback(None, message("lessons.unread", reason=expected))
    if reading == DONT_KNOW:
        return Feedback(None, message("lessons.dont_know", hint=item.other or expected))
    if reading in item.unclear:
        return Feedback(None, message("lessons.unread", reason=item.unclear[reading]))
    if reading in item.accepted or (item.accepts is not None and item.accepts(reading)):
        return Feedback(True, message("lessons.right", why=item.why))
    misconception, reason = item.wrong.get(reading, (None, ""))
    if not reason and item.too_big is not None and isinstance(reading, int) and reading > item.too_big[0]:
        _limit, misconception, explain = item.too_big
        reason = explain(reading)
    if not reason and item.reason_for is not None:
        found = item.reason_for(reading) or ""
        misconception, reason = found if isinstance(found, tuple) else (misconception, found)
    if not reason or gives_away(item, reason):
        reason = item.other  # a reason that happens to name the answer would hand it over
    return Feedback(False, message("lessons.wrong", answer=echo(text), reason=reason), misconception)


def _standalone(token: str) -> re.Pattern[str]:
    """``token`` on its own: not part of a longer word or number, a foundation's name ("+3") or an inverse ("3⁻¹")."""
    return re.compile(rf"(?<![\w+\-−]){re.escape(token)}(?![\w⁻])")


def answer_tokens(item: Item) -> list[re.Pattern[str]]:
    """The ways ``item``'s answer could be read off a sentence: the answer as shown, the right rank's name,
    the right number (unless the question itself writes it, as in "1 to 13" or "foundation +3"), the
    foundation that takes the card, and the words for "none" or "waste"."""
    if item.kind == "yes_no":
        return []  # a wrong yes is always answered by no: there is nothing to hide
    patterns = [] if item.solution.isdecimal() else [_standalone(item.solution)]  # a number: as the readings
    for reading in item.accepted:
        if isinstance(reading, int):
            if item.solution != str(reading):  # the answer is a rank shown by its name: "K (13)"
                patterns.append(_standalone(rank_name(reading)))
            # a number the question itself writes ("1 to 13", the 3 of "foundation +3") gives nothing away
            if not re.search(rf"(?<!\d){reading}(?!\d)", item.question):
                patterns.append(_standalone(str(reading)))
        elif isinstance(reading, frozenset) and len(reading) == 1:
            (number,) = reading
            words = "|".join(map(re.escape, sorted(answer_words("foundation") - {"f", "b"})))
            patterns.append(re.compile(rf"(?i)\b(?:{words})\s+\+?{number}(?!\w)"))
        elif reading in ("none", "waste"):
            said = answer_words(reading) | {message(f"lessons.{reading}_word")}
            patterns.extend(re.compile(rf"(?i){_standalone(word).pattern}") for word in said if len(word) > 1)
    return patterns


def gives_away(item: Item, text: str) -> bool:
    """Whether ``text`` names ``item``'s answer (:func:`answer_tokens`): feedback on a wrong answer never does."""
    return any(pattern.search(text) for pattern in answer_tokens(item))


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
        kind="rank_or_none",
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


# ---- exercises on a position (the worked example's kind): one variant each, judged by the engine


def _fits_item(variant: int, position: Callable[[], Game]) -> dict:
    state = position().state
    card = state.pending
    fitting = [move.foundation for move in STOCK_TO_FOUNDATION if state.is_legal(move)]
    if not fitting:
        needs = ", ".join(rank_name(need) for need in state.needs() if need is not None)
        why = message("lessons.fits.why_none", rank=rank_name(card.rank), needs=needs)
        accepted = frozenset({"waste"})
        solution = message("lessons.waste_word")
    else:
        explanation = state.explain(STOCK_TO_FOUNDATION[fitting[0] - 1])
        if len(fitting) == 1:
            why = message("lessons.fits.why_one", explanation=explanation)
        else:
            why = message("lessons.fits.why_many", explanation=explanation, others=", ".join(map(str, fitting[1:])))
        # any one of the fitting foundations is right, and so is naming several of them
        accepted = frozenset(
            frozenset(number for bit, number in enumerate(fitting) if mask >> bit & 1)
            for mask in range(1, 2 ** len(fitting))
        )
        if len(fitting) > 1:
            accepted |= {"both"}  # "both", "ambas": every foundation that takes it
        solution = " / ".join(map(str, fitting))
    wrong: dict = {"both": (None, message("lessons.fits.not_both", card=card))}
    wrapping = [number for number in fitting if state.foundations[number - 1][-1].rank + number > RANK_COUNT]
    if wrapping:  # the card fits only past K: saying "waste" is forgetting the wraparound
        wrong["waste"] = ("no_wraparound", message("lessons.fits.waste_wraps", rank=rank_name(card.rank)))
    elif fitting:
        wrong["waste"] = (None, message("lessons.fits.waste_but", rank=rank_name(card.rank)))

    def reason_for(reading: object) -> str | None:
        if not isinstance(reading, frozenset):
            return None
        refused = sorted(reading - set(fitting))
        move = STOCK_TO_FOUNDATION[refused[0] - 1]
        return message("lessons.fits.no", reason=state.why_illegal(move))

    return dict(
        question=message("lessons.fits.question", card=card),
        kind="foundation",
        accepted=accepted,
        solution=solution,
        why=why,
        wrong=wrong,
        other=message("lessons.fits.other"),
        reason_for=reason_for,
        wraps=bool(wrapping),
    )


def _buried(state: State, move: Move) -> tuple[Card, Card, int] | None:
    """For a waste-to-foundation move: a card the foundation needs lying under the waste top, if any."""
    if move.kind != MoveKind.WASTE_TO_FOUNDATION:
        return None
    pile = state.wastes[move.waste_index]
    need = state.needs()[move.foundation_index]
    for card in pile[:-1]:
        if card.rank == need:
            return card, pile[-1], move.waste
    return None


def _legal_item(variant: int, position: Callable[[], Game], move_text: str) -> dict:
    state = position().state
    move = Move.parse(move_text)
    reason = state.why_illegal(move)
    legal = reason is None
    why = message("lessons.legal.why_yes", explanation=state.explain(move)) if legal else reason
    wrong: dict = {}
    if legal:
        wrong["no"] = (None, message("lessons.legal.it_is_legal", move=move.text))
    else:
        buried = _buried(state, move)
        if buried is not None:
            card, top, waste = buried
            said = message("lessons.legal.buried", card=card, foundation=move.foundation, top=top, waste=waste)
            wrong["yes"] = ("buried_card", said)
            why = f"{reason}; {said}"
        else:
            wrong["yes"] = (None, message("lessons.legal.it_is_illegal", reason=reason))
    return dict(
        question=(
            message("lessons.legal.question_waste", waste=move.waste, foundation=move.foundation)
            if move.kind == MoveKind.WASTE_TO_FOUNDATION
            else message("lessons.legal.question", move=move.text)
        ),
        kind="yes_no",
        accepted=frozenset({"yes" if legal else "no"}),
        solution=message("lessons.yes") if legal else message("lessons.no"),
        why=why,
        wrong=wrong,
        other=message("lessons.legal.other"),
    )


@dataclass(frozen=True)
class ExerciseKind:
    """One exercise of the bank: a stable identifier, its variants (their parameters) and how each is worked out."""

    exercise_id: str
    variants: tuple[tuple, ...]
    build: Callable[..., dict]

    def item(self, variant: int) -> Item:
        """Variant number ``variant`` (taken modulo the number of variants), worked out in the current language."""
        variant %= len(self.variants)
        worked = self.build(variant, *self.variants[variant])
        worked["wrong"] = {key: said for key, said in worked.get("wrong", {}).items() if key not in worked["accepted"]}
        return Item(self.exercise_id, variant, **worked)


def _past_the_king() -> Game:
    return lesson_game((3, 4, 8, 1), wastes=("K♦", "5♣ 9♠", "", ""), pending="A♠")


def _two_choices() -> Game:
    return lesson_game((4, 6, 6, 10), wastes=("", "J♣", "", ""), pending="5♥")


def _buried_position() -> Game:
    return lesson_game((3, 4, 8, 1), wastes=("", "7♣ 4♦ K♠", "", ""), pending="9♥")


# The positions of notebook 03, by name (each a complete, legal 52-card position).
POSITIONS: dict[str, Callable[[], Game]] = {
    "past-the-king": _past_the_king,
    "two-choices": _two_choices,
    "buried": _buried_position,
}

# Worked in the lesson's prose, so kept out of the variants (no answer can be read from the page).
_SHOWN_NEXT = {(12, 2)}

_KINDS = [
    # the clock of 13: numbers beyond the table printed in the lesson (11 to 30), none a multiple of 13
    ExerciseKind("clock", tuple((total,) for total in range(31, 78) if total % RANK_COUNT), _clock_item),
    ExerciseKind("clock-king", tuple((total,) for total in (39, 52, 65, 78, 91)), _clock_item),
    # the next card: two without the wraparound, one with it, one on a complete foundation
    ExerciseKind("next-plain", tuple((top, 3) for top in range(4, RANK_COUNT - 3)), _next_item),
    ExerciseKind("next-small", tuple((top, 4) for top in range(2, RANK_COUNT - 4)), _next_item),
    ExerciseKind(
        "next-wrap",
        tuple(
            (top, step)
            for step in (2, 3, 4)
            for top in range(RANK_COUNT - step + 1, RANK_COUNT)
            if (top, step) not in _SHOWN_NEXT
        ),
        _next_item,
    ),
    ExerciseKind("next-complete", tuple((step,) for step in (2, 3, 4, 1)), _complete_item),
    # numbers that land on K, beyond the table printed in the lesson: the first multiple of 13 past a start
    ExerciseKind("next-king", tuple((start,) for start in range(31, 131) if start % RANK_COUNT), _next_king_item),
    # how far a foundation is from complete: count on from its top to the K (every top, on +3 and +4)
    ExerciseKind(
        "to-complete",
        tuple((top, step) for step in (3, 4) for top in range(1, RANK_COUNT + 1)),
        _to_complete_item,
    ),
    # the card at a place, on the foundations not printed in the lesson
    ExerciseKind("nth-card", tuple((place, step) for step in (3, 4) for place in range(4, RANK_COUNT)), _nth_item),
    ExerciseKind("last-card", tuple((RANK_COUNT, step) for step in (4, 3)), _nth_item),
    # other clocks: none of the clock sizes tabled in the lesson (12, 13, 16)
    ExerciseKind(
        "visits", ((4, 10), (6, 14), (6, 15), (4, 14), (8, 20), (6, 20), (10, 15), (4, 18), (6, 9)), _visits_item
    ),
    # the inverse (2 is the lesson's worked example)
    ExerciseKind("inverse", tuple((step,) for step in (3, 4, 5, 6, 8, 9, 10, 11)), _inverse_item),
    ExerciseKind("position", tuple((rank, step) for step in (3, 4) for rank in range(2, RANK_COUNT)), _position_item),
    # notebook 03's positions
    ExerciseKind("fits-past-the-king", ((POSITIONS["past-the-king"],),), _fits_item),
    ExerciseKind("fits-two-choices", ((POSITIONS["two-choices"],),), _fits_item),
    ExerciseKind("legal-buried", ((POSITIONS["buried"], "W2>F1"),), _legal_item),
    ExerciseKind("fits-buried", ((POSITIONS["buried"],),), _fits_item),
    # the lesson "Counting in steps" (ages 9-11): its exercises are worked out in calcnb.lessons.counting
    *(ExerciseKind(*exercise) for exercise in counting.EXERCISES),
    # the lesson "Is the 80% true?" (ages 15-18): worked out in calcnb.lessons.evidence
    *(ExerciseKind(*exercise) for exercise in evidence.EXERCISES),
]

# Every exercise by its stable identifier (the class view and the worksheets use these).
BANK: dict[str, ExerciseKind] = {kind.exercise_id: kind for kind in _KINDS}

# The exercises of the lesson on the clock of 13 (notebook 02), in the order they are asked: the order and
# numbering of the students' screens, the printed worksheet and the teacher's key. Every lesson's list of
# exercises (this one, "Counting in steps", ...) is in calcnb.lessons.catalogue.
LESSON_EXERCISES = (
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


# What a variant of an exercise asks about, as the order explorer would draw it: (step, ranks), with step None
# for every step on that clock. The explorer refuses those pictures until the exercise is answered: the
# order of +3 gives the card at any place of +3, the place of A in +k is k's inverse, and the count of
# ranks reached on a clock is the visits answer for every step with the same common factor.
_EXPLORER_VIEWS: dict[str, Callable[[tuple], tuple[int | None, int]]] = {
    "next-plain": lambda variant: (variant[1], RANK_COUNT),
    "next-small": lambda variant: (variant[1], RANK_COUNT),
    "next-wrap": lambda variant: (variant[1], RANK_COUNT),
    "to-complete": lambda variant: (variant[1], RANK_COUNT),
    "nth-card": lambda variant: (variant[1], RANK_COUNT),
    "last-card": lambda variant: (variant[1], RANK_COUNT),
    "position": lambda variant: (variant[1], RANK_COUNT),
    "inverse": lambda variant: (variant[0], RANK_COUNT),
    "visits": lambda variant: (None, variant[1]),
}


def explorer_view(item: Item) -> tuple[int | None, int] | None:
    """The explorer's picture that would show ``item``'s answer, as ``(step, ranks)`` (step None: any), or None."""
    view = _EXPLORER_VIEWS.get(item.exercise_id)
    return None if view is None else view(BANK[item.exercise_id].variants[item.variant])


def wrong_answers(item: Item) -> list[tuple[str, str, str]]:
    """The common wrong answers ``item`` recognises: ``(answer as typed, misconception name, feedback)``.

    For a teacher's list of misconceptions: one example answer per misconception the item names.
    """
    shown: list[tuple[str, str, str]] = []
    named: set[str] = set()
    for reading, (misconception, _reason) in item.wrong.items():
        if misconception is None or misconception in named:
            continue
        named.add(misconception)
        typed = item.typed.get(reading) or {"waste": message("lessons.waste_word")}.get(str(reading), str(reading))
        if isinstance(reading, frozenset):
            typed = " ".join(map(str, sorted(reading)))
        typed = {"yes": message("lessons.yes"), "no": message("lessons.no")}.get(typed, typed)
        shown.append((typed, misconception_name(misconception), judge(item, typed).text))
    return shown


def misconception_name(misconception: str | None) -> str:
    """The misconception's name in the current language ("off by one", ...), or "" for None."""
    return message(f"lessons.mis.{misconception}") if misconception else ""


def variant_for(exercise_id: str, seed: object, class_key: str | None = None) -> int:
    """The variant of ``exercise_id`` a student gets: fixed by ``seed`` (a name, or a number drawn per visit).

    The variants also depend on ``class_key`` (the class log's secret, :meth:`ClassLog.class_key`), so
    nobody can work out a student's answers from their nickname without the teacher's key. A name
    counts the same however it is capitalised or spaced ("Ana  Silva" is "ana silva").
    """
    return student_number(exercise_id, seed, len(BANK[exercise_id].variants), class_key)


def student_items(
    seed: object, exercise_ids: Iterable[str] = LESSON_EXERCISES, class_key: str | None = None
) -> list[Item]:
    """The exercises one student gets (their variants fixed by ``seed`` and ``class_key``), worked out."""
    return [BANK[exercise_id].item(variant_for(exercise_id, seed, class_key)) for exercise_id in exercise_ids]


def question_with_answer(item: Item) -> str:
    """One question and its answer on one line, for the teacher's lists."""
    return message("lessons.question_answer", question=item.question, answer=item.solution)


def answer_key(items: Iterable[Item]) -> str:
    """The teacher's answers: each question, its answer and why, numbered."""
    return "\n".join(
        message("lessons.key_line", number=number, question=item.question, answer=item.solution, why=item.why)
        for number, item in enumerate(items, start=1)
    )
