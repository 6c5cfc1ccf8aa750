"""The exercises on the positions of the rules' worked example (notebook 03): which foundation takes the turned
card, and whether a move is legal, each judged by the engine itself on a complete 52-card position.

>>> from calcnb.exercises.items import judge
>>> item = KINDS[0].item(0)
>>> judge(item, item.solution).correct, judge(item, "waste").correct
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable

from calcnb.exercises.items import ExerciseKind
from calcnb.exercises.tables import lesson_game
from calcnb.game.cards import RANK_COUNT, Card, rank_name
from calcnb.game.engine import STOCK_TO_FOUNDATION, Move, State
from calcnb.game.game import Game
from calcnb.game.rules import MoveKind
from calcnb.i18n import message


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


#: The exercises, in the order notebook 03 asks them.
KINDS: tuple[ExerciseKind, ...] = (
    ExerciseKind("fits-past-the-king", ((POSITIONS["past-the-king"],),), _fits_item),
    ExerciseKind("fits-two-choices", ((POSITIONS["two-choices"],),), _fits_item),
    ExerciseKind("legal-buried", ((POSITIONS["buried"], "W2>F1"),), _legal_item),
    ExerciseKind("fits-buried", ((POSITIONS["buried"],),), _fits_item),
)

#: The wrong ideas this lesson's feedback names.
MISCONCEPTIONS = ("no_wraparound", "buried_card")
