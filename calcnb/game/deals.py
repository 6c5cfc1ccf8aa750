"""Deals: seeded shuffles that are the same everywhere, and one-line deal codes.

A seed (any int or str) is turned into a deal by a Fisher-Yates shuffle whose
random numbers come from SHA-256 of ``"calcnb:<seed>:<counter>"``, read as
big-endian 64-bit integers and drawn without bias by rejection. SHA-256 and
this recipe are fixed, so the same seed gives the same deal on every Python
version, operating system and machine (Python's own ``random.shuffle`` makes
no such promise across versions).

A deal code names the 4 starters, a ``|``, then the 48 stock cards in turning
order: ``A♣ 2♦ 3♥ 4♠ | 7♠ K♦ ...``. ASCII (``AC 2D 3H 4S | 7S KD ...``) is
read too.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence

from calcnb.game.cards import DECK, SUITS, Card, check_each_card_once, parse_cards, rank_name
from calcnb.game.errors import MAX_DEAL_CHARS, MAX_SEED_CHARS, InvalidDeal, InvalidSeed, check_length, quote
from calcnb.game.rules import STARTER_RANKS, STOCK_SIZE
from calcnb.i18n import Words, message

Seed = int | str


class SeededRandom:
    """Platform-independent random integers from a seed, by SHA-256 in counter mode."""

    def __init__(self, seed: Seed) -> None:
        self._prefix = f"calcnb:{check_seed(seed)}:".encode()
        self._counter = 0
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in range(24, -1, -8)]
        return self._words.pop()

    def below(self, bound: int) -> int:
        """A uniform integer in ``range(bound)`` (rejection sampling: no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            word = self._next_word()
            if word < limit:
                return word % bound

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, last position first)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def check_seed(seed: object) -> Seed:
    """``seed`` unchanged, or :class:`InvalidSeed` unless it is a whole number or a text that
    fits in :data:`~calcnb.game.errors.MAX_SEED_CHARS` characters (checked before it is read) and
    can be written as UTF-8 (no lone surrogate)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidSeed(Words("seed.bad", value=quote(seed)))
    if isinstance(seed, int):
        if seed.bit_length() > MAX_SEED_CHARS * 3.3:  # 3.32 bits a digit: too many digits to print
            digits = int(seed.bit_length() * 0.30103) + 1
            too_long = message("input.too_long", what=message("input.seed"), length=digits, limit=MAX_SEED_CHARS)
            raise InvalidSeed(too_long)
        check_length(str(seed), MAX_SEED_CHARS, "input.seed", InvalidSeed)
        return seed
    check_length(seed, MAX_SEED_CHARS, "input.seed", InvalidSeed)
    try:
        seed.encode()
    except UnicodeEncodeError:
        raise InvalidSeed(Words("seed.unwritable", value=quote(seed))) from None
    return seed


def new_seed() -> int:
    """A fresh random seed, recorded so the deal can be dealt again."""
    return secrets.randbelow(10**9)


def deal(seed: Seed, starters: Sequence[Card | str] | str | None = None) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The starters (A, 2, 3, 4) and the 48-card stock for ``seed``.

    ``starters`` names the suits of the A, 2, 3 and 4 (``"A♣ 2♦ 3♥ 4♠"``);
    when omitted, the seed chooses them.
    """
    rng = SeededRandom(seed)
    if starters is None:
        chosen = tuple(Card(rank, SUITS[rng.below(4)]) for rank in STARTER_RANKS)
    else:
        chosen = check_starters(parse_cards(starters))
    stock = [card for card in DECK if card not in chosen]
    rng.shuffle(stock)
    return chosen, tuple(stock)


def check_starters(starters: Sequence[Card]) -> tuple[Card, ...]:
    """The starters unchanged, or ValueError unless they are an A, 2, 3 and 4 in that order."""
    if len(starters) != len(STARTER_RANKS):
        raise InvalidDeal(Words("deal.starter_count", count=len(starters)))
    for index, (card, rank) in enumerate(zip(starters, STARTER_RANKS), start=1):
        if card.rank != rank:
            raise InvalidDeal(Words("deal.starter_rank", index=index, need=rank_name(rank), card=card))
    return tuple(starters)


def format_deal(starters: Sequence[Card], stock: Sequence[Card], *, ascii: bool = False) -> str:
    """The one-line deal code: ``A♣ 2♦ 3♥ 4♠ | 7♠ K♦ ...``."""
    name = (lambda card: card.ascii) if ascii else str
    return " ".join(map(name, starters)) + " | " + " ".join(map(name, stock))


def parse_deal(code: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Starters and stock from a deal code; :class:`InvalidDeal` naming the fault when it is not a deal.

    A code longer than :data:`~calcnb.game.errors.MAX_DEAL_CHARS` is refused before it is read.
    """
    check_length(code, MAX_DEAL_CHARS, "input.deal_code", InvalidDeal)
    if not isinstance(code, str) or "|" not in code:
        raise InvalidDeal(Words("deal.no_bar", text=quote(code)))
    starter_text, _, stock_text = code.partition("|")
    starters = check_starters(parse_cards(starter_text))
    stock = parse_cards(stock_text.replace("|", " "))
    cards = list(starters) + list(stock)
    if len(set(cards)) == len(cards) and len(stock) != STOCK_SIZE:
        # No card twice, so the count is the fault: say so, and name the cards left out.
        missing = " ".join(str(card) for card in DECK if card not in cards)
        raise InvalidDeal(Words("deal.stock_count", count=len(stock)) + "; " + Words("deal.missing", cards=missing))
    check_each_card_once(cards, InvalidDeal)
    return starters, stock


def seeds(count: int, start: int = 0) -> Iterator[int]:
    """The seeds ``start, start+1, ...``: the standard way a study names its deals."""
    return iter(range(start, start + count))
