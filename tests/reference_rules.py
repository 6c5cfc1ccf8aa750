"""An independent reference implementation of Calculation, written from the seed rules alone.

It shares no code with :mod:`calcnb.game.engine` (nor with :mod:`calcnb.game.cards`): cards are
plain ints, piles are plain lists, and the four foundation orders are typed in from
the seed's table rather than computed. The cross-check in ``tests/test_engine.py``
plays the same moves through both and compares every step, so a bug would have
to be made twice, in two different ways, to go unnoticed.

The seed rules, restated:

- 52 cards, suits never matter. A=1, J=11, Q=12, K=13.
- Foundations 1..4 start with an A, 2, 3, 4 and build in steps of 1, 2, 3, 4,
  continuing from 1 after 13, in exactly the orders of the seed's table. A
  foundation holding its 13 cards (ending in K) is complete.
- The other 48 cards are a stock, turned one at a time, once. A turned card must
  be placed, on a foundation that takes it next or on any of 4 wastes (no
  restriction), before another card is turned.
- A waste top may go to a fitting foundation at any time; never waste to waste.
- Won: all 52 on foundations. Lost: stock spent, nothing turned, no waste top fits.
- Score: cards on foundations, the starters included.

Move names follow the project's notation (``T``, ``S>F2``, ``S>W3``, ``W3>F2``) and
the documented order: T; S>F1..S>F4; S>W1..S>W4; W1>F1, W1>F2, .., W4>F4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# The seed's table, typed in ("Complete foundation orders"), ranks as numbers.
SEED_ORDERS: dict[int, tuple[int, ...]] = {
    1: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),  # A 2 3 4 5 6 7 8 9 10 J Q K
    2: (2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13),  # 2 4 6 8 10 Q A 3 5 7 9 J K
    3: (3, 6, 9, 12, 2, 5, 8, 11, 1, 4, 7, 10, 13),  # 3 6 9 Q 2 5 8 J A 4 7 10 K
    4: (4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9, 13),  # 4 8 Q 3 7 J 2 6 10 A 5 9 K
}
# The same table as the seed prints it, for tests that compare text.
SEED_ORDER_TEXT: dict[int, str] = {
    1: "A 2 3 4 5 6 7 8 9 10 J Q K",
    2: "2 4 6 8 10 Q A 3 5 7 9 J K",
    3: "3 6 9 Q 2 5 8 J A 4 7 10 K",
    4: "4 8 Q 3 7 J 2 6 10 A 5 9 K",
}

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}
SUIT_LETTERS = "CDHS"
UNICODE_SUITS = "♣♦♥♠"

# Every move name in the documented order.
MOVE_NAMES: tuple[str, ...] = (
    "T",
    *(f"S>F{k}" for k in range(1, 5)),
    *(f"S>W{w}" for w in range(1, 5)),
    *(f"W{w}>F{k}" for w in range(1, 5) for k in range(1, 5)),
)


# ------------------------------------------------------------------ cards as ints


def make_card(rank: int, suit: int) -> int:
    """A card as one int: ``rank * 4 + suit`` (rank 1..13, suit 0..3 for C D H S)."""
    return rank * 4 + suit


def rank_of(card: int) -> int:
    return card // 4


def card_text(card: int) -> str:
    """ASCII text of a card: ``AS``, ``10D``."""
    return RANK_TEXT[card // 4] + SUIT_LETTERS[card % 4]


def parse_card(text: str) -> int:
    """Read ``AS``, ``A♠``, ``10D``, ``TD`` (any case) into an int card."""
    text = text.strip().upper()
    rank_part, suit_part = text[:-1], text[-1:]
    if suit_part in UNICODE_SUITS:
        suit = UNICODE_SUITS.index(suit_part)
    elif suit_part and suit_part in SUIT_LETTERS:
        suit = SUIT_LETTERS.index(suit_part)
    else:
        raise ValueError(f"bad card {text!r}")
    ranks = {name: rank for rank, name in RANK_TEXT.items()} | {"T": 10}
    if rank_part not in ranks:
        raise ValueError(f"bad card {text!r}")
    return make_card(ranks[rank_part], suit)


ALL_CARDS: tuple[int, ...] = tuple(make_card(rank, suit) for rank in range(1, 14) for suit in range(4))


def parse_deal_code(code: str) -> tuple[list[int], list[int]]:
    """Starters and stock from a deal code ``AC 2D 3H 4S | ...`` (Unicode or ASCII)."""
    left, right = code.split("|")
    return [parse_card(t) for t in left.split()], [parse_card(t) for t in right.split()]


# ------------------------------------------------------------------ the rules


@dataclass
class Position:
    """A position with plain lists; ``play`` changes it in place."""

    foundations: list[list[int]]
    wastes: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    stock: list[int] = field(default_factory=list)  # next card to turn first
    pending: int | None = None

    @classmethod
    def opening(cls, starters: list[int], stock: list[int]) -> Position:
        return cls([[c] for c in starters], [[], [], [], []], list(stock), None)

    def copy(self) -> Position:
        return Position(
            [list(p) for p in self.foundations], [list(p) for p in self.wastes], list(self.stock), self.pending
        )

    def wanted(self, foundation: int) -> int | None:
        """The rank foundation 1..4 takes next (from the seed table), or None when complete."""
        held = len(self.foundations[foundation - 1])
        order = SEED_ORDERS[foundation]
        return order[held] if held < 13 else None

    def fits(self, card: int, foundation: int) -> bool:
        return self.wanted(foundation) == rank_of(card)

    def is_legal(self, move: str) -> bool:
        """Decide one move from its name alone (not by listing the legal moves)."""
        if move == "T":
            return self.pending is None and len(self.stock) > 0
        source, target = move.split(">")
        number = int(target[1:])
        if source == "S":
            if self.pending is None:
                return False
            return True if target[0] == "W" else self.fits(self.pending, number)
        pile = self.wastes[int(source[1:]) - 1]
        return bool(pile) and self.fits(pile[-1], number)

    def legal(self) -> list[str]:
        """Every legal move, in the documented order, built rule by rule."""
        moves = []
        if self.pending is None and self.stock:
            moves.append("T")
        if self.pending is not None:
            moves += [f"S>F{k}" for k in (1, 2, 3, 4) if self.fits(self.pending, k)]
            moves += ["S>W1", "S>W2", "S>W3", "S>W4"]
        for w in (1, 2, 3, 4):
            if self.wastes[w - 1]:
                top = self.wastes[w - 1][-1]
                moves += [f"W{w}>F{k}" for k in (1, 2, 3, 4) if self.fits(top, k)]
        return moves

    def play(self, move: str) -> None:
        if not self.is_legal(move):
            raise ValueError(f"illegal {move}")
        if move == "T":
            self.pending = self.stock.pop(0)
            return
        source, target = move.split(">")
        if source == "S":
            card, self.pending = self.pending, None
        else:
            card = self.wastes[int(source[1:]) - 1].pop()
        pile = self.foundations if target[0] == "F" else self.wastes
        pile[int(target[1:]) - 1].append(card)

    @property
    def score(self) -> int:
        return sum(len(p) for p in self.foundations)

    @property
    def status(self) -> str:
        if self.score == 52:
            return "won"
        stock_spent = not self.stock and self.pending is None
        waste_fits = any(self.is_legal(f"W{w}>F{k}") for w in (1, 2, 3, 4) for k in (1, 2, 3, 4))
        return "lost" if stock_spent and not waste_fits else "playing"

    def snapshot(self) -> tuple:
        """The position as ASCII card texts, for comparing with another implementation."""
        return (
            tuple(tuple(map(card_text, p)) for p in self.foundations),
            tuple(tuple(map(card_text, p)) for p in self.wastes),
            tuple(map(card_text, self.stock)),
            None if self.pending is None else card_text(self.pending),
        )

    def as_text_piles(self) -> dict:
        """Keyword arguments (card texts) for a ``from_position`` style constructor."""
        foundations, wastes, stock, pending = self.snapshot()
        return {
            "foundations": [" ".join(p) for p in foundations],
            "wastes": [" ".join(p) for p in wastes],
            "stock": " ".join(stock),
            "pending": pending,
        }


def random_position(rng: random.Random, *, tie: bool = False, complete: bool = False) -> Position:
    """A random consistent position; ``tie`` makes two foundations want the same rank,
    ``complete`` fills at least one foundation to its K."""
    while True:
        lengths = [rng.randint(1, 13) for _ in range(4)]
        if complete:
            lengths[rng.randrange(4)] = 13
        if tie:
            a, b = rng.sample(range(4), 2)
            if lengths[a] == 13:
                continue
            # give foundation b the length at which it wants what foundation a wants
            lengths[b] = SEED_ORDERS[b + 1].index(SEED_ORDERS[a + 1][lengths[a]])
        if all(n >= 1 for n in lengths):
            break
    free = set(ALL_CARDS)
    foundations = []
    for k, n in enumerate(lengths, start=1):
        pile = []
        for rank in SEED_ORDERS[k][:n]:
            choices = sorted(c for c in free if rank_of(c) == rank)
            card = rng.choice(choices)
            free.discard(card)
            pile.append(card)
        foundations.append(pile)
    rest = sorted(free)
    rng.shuffle(rest)
    pending = rest.pop() if rest and rng.random() < 0.5 else None
    wastes: list[list[int]] = [[], [], [], []]
    stock_size = rng.choice([0, 0, rng.randint(0, len(rest))])  # often no stock: the endgame
    stock = rest[:stock_size]
    for card in rest[stock_size:]:
        wastes[rng.randrange(4)].append(card)
    return Position(foundations, wastes, stock, pending)
