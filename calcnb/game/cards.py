"""Cards, their text forms, and the modular arithmetic of the foundation orders.

Standard library only. The game's fixed facts (the number of ranks, each
foundation's order, where each rank sits) live in :mod:`calcnb.game.rules`; the
functions here check their arguments and read them from there. The 52 cards
are interned: ``Card(1, "♠") is Card.parse("AS")``, so cards compare and hash
by identity, which keeps the engine fast.

Foundation ``k`` (k = 1..4) builds in steps of ``k`` with wraparound past K:
after top ``t`` comes ``(t + k - 1) % 13 + 1``. Because 13 is prime, the order
``k, 2k, ..., 13k`` (mod 13, 0 read as K) visits every rank once and ends in K,
and rank ``r`` sits at position ``r * k⁻¹ (mod 13)`` of that order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import ClassVar

from calcnb.game.errors import (
    ASCII_SPACE,
    MAX_DEAL_CHARS,
    CalcnbError,
    InvalidCard,
    InvalidPosition,
    ascii_upper,
    check_length,
    quote,
)
from calcnb.game.rules import RANK_COUNT, order_of, step_after
from calcnb.i18n import Words, message

SUITS = ("♣", "♦", "♥", "♠")
SUIT_LETTERS = ("C", "D", "H", "S")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_SUIT_ALIASES = {
    **{symbol: symbol for symbol in SUITS},
    **{letter: symbol for letter, symbol in zip(SUIT_LETTERS, SUITS)},
    "♧": "♣",  # the white (outline) suit symbols some keyboards produce
    "♢": "♦",
    "♡": "♥",
    "♤": "♠",
}
_RANK_ALIASES = {name: rank for rank, name in enumerate(RANK_NAMES, start=1)} | {"T": 10}
_LONGEST_CARD_TEXT = 64  # "10♦" and some spaces; longer text is refused before it is read


def rank_name(rank: int) -> str:
    """The short name of a rank: 1 -> ``A``, 10 -> ``10``, 13 -> ``K``."""
    return RANK_NAMES[rank - 1]


class Card:
    """A playing card: ``rank`` 1..13 (A=1, J=11, Q=12, K=13) and ``suit`` (♣ ♦ ♥ ♠).

    Suits never matter to the rules; they are kept so a deal is a real pack.
    ``str(card)`` is ``A♠``; ``card.ascii`` is ``AS``; ``repr`` round-trips.
    """

    __slots__ = ("_ascii", "_text", "index", "rank", "suit")
    _interned: ClassVar[dict[tuple[int, str], Card]] = {}

    rank: int
    suit: str
    index: int  # 0..51, rank-major: a dense id for tables and sets

    def __new__(cls, rank: int, suit: str) -> Card:
        # The fast path only for a plain int: True and 1.0 hash like 1 but are not ranks.
        if rank.__class__ is int:
            try:
                return cls._interned[rank, suit]
            except (KeyError, TypeError):
                pass
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= RANK_COUNT:
            raise InvalidCard(Words("card.bad_rank", rank=quote(rank)))
        rank = int(rank)
        symbol = _SUIT_ALIASES.get(ascii_upper(suit)) if isinstance(suit, str) else None
        if symbol is None:
            raise InvalidCard(Words("card.bad_suit", suit=quote(suit)))
        if (rank, symbol) in cls._interned:
            return cls._interned[rank, symbol]
        card = object.__new__(cls)
        card.rank = rank
        card.suit = symbol
        card.index = (rank - 1) * 4 + SUITS.index(symbol)
        card._text = rank_name(rank) + symbol
        card._ascii = rank_name(rank) + SUIT_LETTERS[SUITS.index(symbol)]
        cls._interned[rank, symbol] = card
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``A♠``, ``AS``, ``10♦``, ``10D``, ``TD`` or ``q♦``; :class:`InvalidCard` says why not.

        Letters are read in either case, ASCII letters only (``as`` is A♠, ``Aſ`` is no card);
        ASCII whitespace around the card is skipped.
        """
        if isinstance(text, Card):
            return text
        known = _BY_TEXT.get(text) if text.__class__ is str else None  # the printed forms, at once
        if known is not None:
            return known
        if not isinstance(text, str) or len(text) > _LONGEST_CARD_TEXT:
            raise InvalidCard(Words("card.bad", text=quote(text)))
        cleaned = ascii_upper(text.strip(ASCII_SPACE))
        rank = _RANK_ALIASES.get(cleaned[:-1])
        suit = _SUIT_ALIASES.get(cleaned[-1:]) if cleaned else None
        if rank is None or suit is None:
            raise InvalidCard(Words("card.bad", text=quote(text)))
        return cls(rank, suit)

    @property
    def ascii(self) -> str:
        """The card in plain ASCII: ``AS``, ``10D``."""
        return self._ascii

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red (colour never matters to the rules)."""
        return self.suit in ("♦", "♥")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_ascii"):
            raise AttributeError(message("card.immutable"))
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(message("card.immutable"))


def full_deck() -> tuple[Card, ...]:
    """All 52 cards, ordered by rank then suit (♣ ♦ ♥ ♠)."""
    return DECK


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, RANK_COUNT + 1) for suit in SUITS)
_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK} | {card.ascii: card for card in DECK}


_SEPARATORS = str.maketrans(dict.fromkeys(ASCII_SPACE + ",", " "))
_PACK_SIZE = 4 * RANK_COUNT  # no list of cards is longer than the pack


def parse_cards(text_or_cards: str | object) -> tuple[Card, ...]:
    """Cards from text separated by ASCII spaces or commas (``"A♠ 10D"``), or from an iterable of cards or texts."""
    if text_or_cards is None:
        return ()
    if isinstance(text_or_cards, Card):
        return (text_or_cards,)
    if isinstance(text_or_cards, str):
        check_length(text_or_cards, MAX_DEAL_CHARS, "input.cards", InvalidCard)
        return tuple(Card.parse(token) for token in text_or_cards.translate(_SEPARATORS).split(" ") if token)
    if text_or_cards.__class__ in (tuple, list):
        items = text_or_cards
    elif isinstance(text_or_cards, Iterable):
        items = list(itertools.islice(text_or_cards, _PACK_SIZE + 1))  # a pack's worth, and one to tell
    else:
        raise InvalidCard(Words("card.bad", text=quote(text_or_cards)))
    if len(items) > _PACK_SIZE:
        raise InvalidCard(Words("input.too_many_cards", limit=_PACK_SIZE))
    return tuple(Card.parse(item) for item in items)


# ---------------------------------------------------------------- arithmetic


def _check_step(step: int, modulus: int) -> None:
    if not isinstance(step, int) or isinstance(step, bool) or step < 1:
        raise CalcnbError(Words("arithmetic.bad_step", step=quote(step)))
    if not isinstance(modulus, int) or isinstance(modulus, bool) or modulus < 2:
        raise CalcnbError(Words("arithmetic.bad_modulus", modulus=quote(modulus)))


def next_rank(top: int, step: int, modulus: int = RANK_COUNT) -> int:
    """The rank after ``top`` on the foundation of ``step``: ``(top + step - 1) % 13 + 1``.

    >>> next_rank(12, 2)  # Q then A: 12 + 2 = 14 wraps past K to 1
    1
    """
    _check_step(step, modulus)
    return step_after(top, step, modulus)


def foundation_order(step: int, modulus: int = RANK_COUNT) -> tuple[int, ...]:
    """The ranks of foundation ``step`` bottom to top: ``step, 2*step, ...`` (mod 13, 0 read as K).

    With 13 ranks every step 1..12 gives all 13 ranks ending in K. With another
    ``modulus`` (12 or 16 ranks) the sequence stops where it first returns to
    its start, which for a step sharing a factor with the modulus is before
    every rank has been visited.
    """
    _check_step(step, modulus)
    return order_of(step, modulus)


def modular_inverse(value: int, modulus: int = RANK_COUNT) -> int:
    """The ``x`` in 1..modulus-1 with ``value * x ≡ 1 (mod modulus)``; ValueError if none exists."""
    try:
        return pow(value, -1, modulus)
    except ValueError:
        raise CalcnbError(Words("arithmetic.no_inverse", value=quote(value), modulus=quote(modulus))) from None


def position_in_order(rank: int, step: int) -> int:
    """Where ``rank`` sits on foundation ``step``, 1..13: ``rank * step⁻¹ (mod 13)``, 0 read as 13.

    >>> position_in_order(1, 2)  # the ace is the 7th card of foundation 2 (2*7 = 14 = 1 mod 13)
    7
    """
    if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= RANK_COUNT:
        raise InvalidCard(Words("card.bad_rank", rank=quote(rank)))
    _check_step(step, RANK_COUNT)
    # The arithmetic, not the rules core's POSITION table: lessons check one against the other.
    return (rank * modular_inverse(step)) % RANK_COUNT or RANK_COUNT


def check_each_card_once(cards: Iterable[Card], error: type[InvalidPosition] = InvalidPosition) -> None:
    """``error`` naming the first duplicate or the missing cards unless ``cards`` is the whole pack once."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise error(Words("deal.duplicate", card=card))
        seen.add(card)
    missing = [card for card in DECK if card not in seen]
    if missing:
        raise error(Words("deal.missing", cards=" ".join(map(str, missing))))
