"""The relaxed game (the stock always at hand) against a plain exhaustive search of the same game.

The reference below is written from the definition in :mod:`calcnb.solver.relaxed` with no pruning:
any foundation takes any card it needs from a waste top or from the stock, in every order.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from calcnb import Game
from calcnb.game.engine import STOCK_TO_WASTE
from calcnb.game.rules import orders as foundation_orders
from calcnb.solver.relaxed import RelaxedGame, RelaxedOverLimit

CARD_SHIFT = 6


def stock_copies(ranks: int, foundations, piles) -> list[int]:
    """Copies of each rank still in the stock: the places left for it minus its waste copies."""
    orders = foundation_orders(ranks, len(foundations))
    places = Counter(orders[k][j] for k, count in enumerate(foundations) for j in range(count, ranks))
    waste = Counter(r for pile in piles for r in pile)
    copies = [places[r] - waste[r] for r in range(ranks + 1)]
    assert min(copies) >= 0, "more waste copies than places for them"
    return copies


def relaxed_exhaustive(ranks: int, foundations, piles) -> bool:
    """Is the relaxed game won? Every foundation move from a waste top or the stock, memoised."""
    orders = foundation_orders(ranks, len(foundations))

    @cache
    def won(counts, tops, stock):
        if all(count == ranks for count in counts):
            return True
        for k, count in enumerate(counts):
            if count == ranks:
                continue
            need = orders[k][count]
            grown = (*counts[:k], count + 1, *counts[k + 1 :])
            if stock[need] and won(grown, tops, (*stock[:need], stock[need] - 1, *stock[need + 1 :])):
                return True
            for w, height in enumerate(tops):
                if (
                    height
                    and piles[w][height - 1] == need
                    and won(grown, (*tops[:w], height - 1, *tops[w + 1 :]), stock)
                ):
                    return True
        return False

    return won(tuple(foundations), tuple(len(p) for p in piles), tuple(stock_copies(ranks, foundations, piles)))


def line_wins(ranks: int, foundations, piles, line) -> bool:
    """Does a relaxed line (card, foundation) play by the relaxed rules and leave nothing undone?"""
    orders = foundation_orders(ranks, len(foundations))
    counts = list(foundations)
    heights = [len(p) for p in piles]
    stock = stock_copies(ranks, foundations, piles)
    for card, k in line:
        w, depth = card >> CARD_SHIFT, card & ((1 << CARD_SHIFT) - 1)
        if depth != heights[w] - 1:
            return False  # not on top
        target = orders[k].index(piles[w][depth])
        if target < counts[k]:
            return False  # that foundation has passed the rank
        for place in range(counts[k], target):  # the places skipped come from the stock
            if not stock[orders[k][place]]:
                return False
            stock[orders[k][place]] -= 1
        counts[k] = target + 1
        heights[w] = depth
    if any(heights):
        return False
    still_needed = Counter(orders[k][place] for k, count in enumerate(counts) for place in range(count, ranks))
    return all(still_needed[r] <= stock[r] for r in still_needed)


def random_position(seed: int):
    """Ranks 5, 7 or 13; some cards on the foundations, a few on up to four wastes, the rest in the stock."""
    rng = random.Random(seed)
    ranks = rng.choice((5, 7, 13))
    foundation_count = {5: rng.choice((2, 3, 4)), 7: rng.choice((2, 3)), 13: 4}[ranks]
    orders = foundation_orders(ranks, foundation_count)
    counts = [rng.randint(1, ranks - 1) for _ in range(foundation_count)]
    left = [orders[k][j] for k in range(foundation_count) for j in range(counts[k], ranks)]
    rng.shuffle(left)
    piles: list[list[int]] = [[] for _ in range(rng.choice((1, 2, 3, 4)))]
    for card in left[: rng.randint(0, min(len(left), 11))]:
        rng.choice(piles).append(card)
    return ranks, counts, piles


POSITIONS = [random_position(seed) for seed in range(400)]


def test_positions_cover_both_verdicts():
    verdicts = [relaxed_exhaustive(*position) for position in POSITIONS]
    assert 40 <= sum(verdicts) <= len(verdicts) - 40


@pytest.mark.parametrize("chunk", range(4))
def test_search_agrees_with_exhaustive_search_and_its_lines_win(chunk):
    for ranks, counts, piles in POSITIONS[chunk::4]:
        game = RelaxedGame(foundation_orders(ranks, len(counts)), CARD_SHIFT)
        line = game.search(counts, piles, 10**6)
        assert (line is not None) == relaxed_exhaustive(ranks, counts, piles), (ranks, counts, piles)
        if line is not None:
            assert line_wins(ranks, counts, piles, line), (ranks, counts, piles, line)


def test_a_real_deal_after_first_fit_play():
    """Full-size positions: a deal played by first fit until a third of the stock is left."""
    checked = 0
    for seed in range(30):
        game = Game.new(seed)
        while len(game.state.stock) > 16 and game.status == "playing":
            moves = game.legal_moves()
            game.play(moves[0])
        if game.state.pending is not None:
            game.play(STOCK_TO_WASTE[seed % 4])
        state = game.state
        if state.status != "playing":
            continue
        counts = [len(f) for f in state.foundations]
        piles = [[card.rank for card in pile] for pile in state.wastes]
        line = RelaxedGame(foundation_orders(13, 4), CARD_SHIFT).search(counts, piles, 10**6)
        assert (line is not None) == relaxed_exhaustive(13, counts, piles), seed
        if line is not None:
            assert line_wins(13, counts, piles, line)
        checked += 1
    assert checked >= 10


def test_the_limit_stops_a_search_and_memory_answers_again():
    hard = None
    for ranks, counts, piles in POSITIONS:
        game = RelaxedGame(foundation_orders(ranks, len(counts)), CARD_SHIFT)
        try:
            game.search(counts, piles, 1)
        except RelaxedOverLimit:
            hard = (ranks, counts, piles)
            break
    assert hard is not None, "some position needs more than one state"
    ranks, counts, piles = hard
    game = RelaxedGame(foundation_orders(ranks, len(counts)), CARD_SHIFT)
    first = game.search(counts, piles, 10**6)
    # decided once, the same position is answered from memory without expanding a state
    assert game.search(counts, piles, 0) == first


def test_hint_keeps_the_verdict():
    """A hint only orders the moves: any hint, even a wrong one, gives the same verdict."""
    rng = random.Random(5)
    for ranks, counts, piles in POSITIONS[:120]:
        hint = {
            w << CARD_SHIFT | d: (rng.random(), rng.randrange(len(counts)), rng.choice((r, 1)))
            for w, pile in enumerate(piles)
            for d, r in enumerate(pile)
        }
        game = RelaxedGame(foundation_orders(ranks, len(counts)), CARD_SHIFT)
        line = game.search(counts, piles, 10**6, hint)
        assert (line is not None) == relaxed_exhaustive(ranks, counts, piles)
        if line is not None:
            assert line_wins(ranks, counts, piles, line)


def test_a_game_beyond_the_searchs_bounds_is_refused_with_a_reason():
    """The compiled search keeps its state in arrays of the rules' sizes: a larger game is refused, not overrun."""
    five = (*foundation_orders(13, 4), foundation_orders(13, 4)[0])
    with pytest.raises(ValueError, match="at most 4 foundations; this game has 5"):
        RelaxedGame(five, CARD_SHIFT)
    game = RelaxedGame(foundation_orders(13, 4), CARD_SHIFT)
    with pytest.raises(ValueError, match="at most 4 waste piles; this game has 5"):
        game.search([1, 2, 3, 4], [[5]] * 5, 100)
    with pytest.raises(ValueError, match="at most 52 cards on one waste pile; this game has 53"):
        game.search([1, 2, 3, 4], [[5] * 53], 100)
    assert game.search([1, 2, 3, 4], [[5], [], [], []], 100) is not None  # the bounds themselves are fine
