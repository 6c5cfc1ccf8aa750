"""Scripted lessons: positions with captions, for :class:`calcnb.Stepper` and for notebooks.

A script is a list of :class:`Step` (a position, a caption, and optionally the
moves to highlight and the move just played). :func:`worked_example` is the
seed rules' worked example as such a script. Its position is a complete,
consistent 52-card position built with :meth:`Game.from_position`, and every
number in its captions is computed by the engine (``explain``, ``why_illegal``,
``needs``), never typed in, so the captions cannot drift from the rules.

>>> steps = worked_example()
>>> steps[0].state.pending
Card.parse('A♠')
>>> steps[3].state.foundations[1][-1]
Card.parse('A♠')
"""

from __future__ import annotations

from dataclasses import dataclass

from calcnb.game.cards import DECK, Card, parse_cards, rank_name
from calcnb.game.deals import SeededRandom
from calcnb.game.engine import STOCK_TO_FOUNDATION, TURN, WASTE_TO_FOUNDATION, Move, State
from calcnb.game.game import Game
from calcnb.i18n import message

__all__ = ["Step", "worked_example", "worked_example_game"]


@dataclass(frozen=True)
class Step:
    """One step of a script: a position and what to say about it.

    ``highlight``: moves the board should point at (say, the move being discussed);
    ``last_move``: the move that led to this position, marked on the board.
    """

    state: State
    caption: str
    highlight: tuple[Move, ...] = ()
    last_move: Move | None = None
    title: str = ""

    def __str__(self) -> str:
        heading = f"{self.title}\n" if self.title else ""
        return heading + self.caption


# The seed's position. Foundation 2 reached Q♦ via 2-4-6-8-10-Q (mixed suits: suits never matter);
# foundation 1 stands at Q; A♠ has just been turned. The K that foundation 1 needs is buried in
# waste 1 under 5♥. No waste top fits any foundation, so the lesson's moves are the only ones in play.
_FOUNDATIONS = ("A♥ 2♠ 3♣ 4♦ 5♠ 6♥ 7♣ 8♥ 9♠ 10♣ J♦ Q♥", "2♣ 4♥ 6♦ 8♠ 10♦ Q♦", "3♥", "4♠")
_WASTES = ("K♣ 5♥", "7♠ J♣", "9♦", "")
_PENDING = "A♠"


def worked_example_game() -> Game:
    """The worked example's position as a :class:`Game` (A♠ just turned; the rest of the pack in the stock).

    The stock holds the cards the position does not show, in a fixed shuffled
    order, so the game can be played on from here.
    """
    shown = {card for pile in (*_FOUNDATIONS, *_WASTES) for card in parse_cards(pile)} | {Card.parse(_PENDING)}
    stock = [card for card in DECK if card not in shown]
    SeededRandom("worked example").shuffle(stock)
    return Game.from_position(foundations=_FOUNDATIONS, wastes=_WASTES, stock=stock, pending=_PENDING)


def _path(pile: tuple[Card, ...]) -> str:
    return "-".join(rank_name(card.rank) for card in pile)


def _buried_fit(state: State) -> tuple[Card, int, int, Card]:
    """A card below a waste top that some foundation needs: (card, waste, foundation, top), 1-based."""
    needs = state.needs()
    for waste, pile in enumerate(state.wastes, start=1):
        for card in pile[:-1]:
            for foundation, need in enumerate(needs, start=1):
                if need == card.rank:
                    return card, waste, foundation, pile[-1]
    raise ValueError("no card buried under a waste top fits a foundation in this position")


def worked_example() -> list[Step]:
    """The seed's worked example as a script of :class:`Step`, captions in the current language.

    Steps: the position; why A♠ fits foundation 2 (12 + 2 = 14 wraps past K to A);
    why it does not fit foundation 1 (it needs K after Q); A♠ played onto Q♦
    regardless of suit; foundation 2 now awaits a 3 of any suit; a fitting card
    buried under a waste top may not be taken.
    """
    game = worked_example_game()
    start = game.state
    fits, misses = STOCK_TO_FOUNDATION[1], STOCK_TO_FOUNDATION[0]
    game.play(fits)
    after = game.state
    return [*_before_the_move(start, fits, misses), *_after_the_move(start, after, fits), _buried_step(after)]


def _before_the_move(start: State, fits: Move, misses: Move) -> list[Step]:
    """The first three steps, on the start position: the position, why the card fits, why it does not fit."""
    card = start.pending
    step2, step1 = fits.foundation, misses.foundation
    top2, top1 = start.foundations[fits.foundation_index][-1], start.foundations[misses.foundation_index][-1]
    need1 = start.needs()[misses.foundation_index]
    need2 = start.needs()[fits.foundation_index]
    return [
        Step(
            start,
            message(
                "example.position",
                step=step2,
                top=top2,
                path=_path(start.foundations[fits.foundation_index]),
                other=step1,
                other_top=top1,
                card=card,
            ),
            last_move=TURN,
            title=message("example.title.position"),
        ),
        Step(
            start,
            message(
                "example.fits",
                explanation=start.explain(fits),
                foundation=step2,
                need=rank_name(need2),
                top=top2,
                card=card,
            ),
            highlight=(fits,),
            title=message("example.title.fits", card=card, foundation=step2),
        ),
        Step(
            start,
            message(
                "example.not_fits",
                foundation=step1,
                top_value=top1.rank,
                step=step1,
                need_value=need1,
                need=rank_name(need1),
                reason=start.why_illegal(misses),
                card=card,
            ),
            highlight=(misses,),
            title=message("example.title.not_fits", card=card, foundation=step1),
        ),
    ]


def _after_the_move(start: State, after: State, fits: Move) -> list[Step]:
    """The two steps once the card is played (``start`` to ``after``): the move, and what its foundation awaits."""
    card = start.pending
    step2 = fits.foundation
    top2 = start.foundations[fits.foundation_index][-1]
    awaited = after.needs()[fits.foundation_index]
    return [
        Step(
            after,
            message("example.played", explanation=start.explain(fits), card=card, top=top2),
            last_move=fits,
            title=message("example.title.played", card=card, top=top2),
        ),
        Step(
            after,
            message(
                "example.awaits",
                foundation=step2,
                top_value=card.rank,
                step=step2,
                need_value=awaited,
                need=rank_name(awaited),
                path=_path(after.foundations[fits.foundation_index]),
            ),
            last_move=fits,
            title=message("example.title.awaits", foundation=step2, need=rank_name(awaited)),
        ),
    ]


def _buried_step(after: State) -> Step:
    """The last step: a card some foundation needs, buried under a waste top, may not be taken."""
    buried, waste, foundation, waste_top = _buried_fit(after)
    blocked = WASTE_TO_FOUNDATION[waste - 1][foundation - 1]
    return Step(
        after,
        message(
            "example.buried",
            buried=buried,
            waste=waste,
            need=rank_name(buried.rank),
            foundation=foundation,
            top=waste_top,
            reason=after.why_illegal(blocked),
        ),
        highlight=(blocked,),
        title=message("example.title.buried"),
    )
