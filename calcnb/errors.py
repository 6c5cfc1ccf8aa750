"""The errors calcnb refuses input with, how they quote it, and how much input it reads.

Every refusal is a :class:`CalcnbError` (a ``ValueError``, defined in :mod:`calcnb.i18n`
beside the catalogue), worded from the message catalogue in the current language, and
changes nothing. A message quotes at most :data:`QUOTE_LIMIT` characters of what it
refuses (:func:`quote`), so a 10 MB paste gives a one-line message, and texts longer
than any real one (:data:`MAX_DEAL_CHARS`, :data:`MAX_SAVE_CHARS`, :data:`MAX_SEED_CHARS`)
are refused before they are read (:func:`check_length`).

"Case-insensitive" means ASCII letters only: ``s`` reads as ``S``, but no other code
point is folded (``ſ``, U+017F, upper-cases to ``S`` in Python and is refused here).
:func:`ascii_upper` is that rule; :data:`ASCII_SPACE` is the whitespace every reader skips.
"""

from __future__ import annotations

from .i18n import CalcnbError, message, register

QUOTE_LIMIT = 80
"""The most characters of refused input a message repeats."""
MAX_DEAL_CHARS = 4_096
"""A deal code is about 160 characters (52 cards and a bar); anything over 4 KB is refused unread."""
MAX_SAVE_CHARS = 1_000_000
"""A save is a few kilobytes (a game has at most 144 moves); anything over 1 MB is refused unread."""
MAX_SEED_CHARS = 256
"""A seed is a number or a short text; one over 256 characters (or digits) is refused unread."""

ASCII_SPACE = " \t\n\r\f\v"
"""The whitespace the readers skip: ASCII only, like the letters they fold."""
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")

register(
    {
        "en": {
            "input.too_long": "{what} of {length:,} characters is longer than any real one (at most {limit:,}); it was not read",
            "input.cut": "{start}… ({length:,} characters)",
            "input.unprintable": "<{kind}>",
            "input.big_number": "<a whole number of about {digits:,} digits>",
            "input.deal_code": "a deal code",
            "input.save": "a save",
            "input.seed": "a seed",
            "input.cards": "a list of cards",
            "input.too_many_cards": "more than {limit} cards: a pack has {limit}",
            "seed.bad": "a seed is a whole number or a string; got {value}",
            "seed.unwritable": "a seed must be text that can be written down (no lone surrogate code point); got {value}",
            "save.bad_deal": "the save's deal cannot be dealt: {reason}",
            "save.bad_position": "the save's position cannot be set out: {reason}",
            "save.bad_seed": "the save's seed cannot be read: {reason}",
            "save.seed_mismatch": "the save's seed {seed} does not deal its deal: card {index} of the stock is {saved} in the save but {dealt} from the seed",
            "position.not_pile": "{pile} must be cards (text like 'A♠ 10D' or a list of cards); found {value}",
            "position.pile_foundation": "foundation {number}",
            "position.pile_waste": "waste {number}",
            "position.pile_stock": "the stock",
            "position.pile_foundations": "the foundations (4 piles)",
            "position.pile_wastes": "the wastes (4 piles)",
        },
        "pt": {
            "input.too_long": "{what} com {length} caracteres é maior do que qualquer um verdadeiro (no máximo {limit}); não foi lido",
            "input.cut": "{start}… ({length} caracteres)",
            "input.unprintable": "<{kind}>",
            "input.big_number": "<um número inteiro de cerca de {digits} algarismos>",
            "input.deal_code": "um código de distribuição",
            "input.save": "um jogo guardado",
            "input.seed": "uma semente",
            "input.cards": "uma lista de cartas",
            "input.too_many_cards": "mais de {limit} cartas: um baralho tem {limit}",
            "seed.bad": "uma semente é um número inteiro ou um texto; recebi {value}",
            "seed.unwritable": "uma semente tem de ser um texto que se possa escrever (sem código substituto isolado); recebi {value}",
            "save.bad_deal": "a distribuição do jogo guardado não pode ser feita: {reason}",
            "save.bad_position": "a posição do jogo guardado não pode ser montada: {reason}",
            "save.bad_seed": "a semente do jogo guardado não pode ser lida: {reason}",
            "save.seed_mismatch": "a semente {seed} do jogo guardado não dá a sua distribuição: a carta {index} do monte é {saved} no jogo guardado mas {dealt} pela semente",
            "position.not_pile": "{pile} tem de ser cartas (texto como 'A♠ 10D' ou uma lista de cartas), não {value}",
            "position.pile_foundation": "a base {number}",
            "position.pile_waste": "o descarte {number}",
            "position.pile_stock": "o monte",
            "position.pile_foundations": "as bases (4 pilhas)",
            "position.pile_wastes": "os descartes (4 pilhas)",
        },
    }
)


class InvalidCard(CalcnbError):
    """Text or values that are not one of the 52 cards (``AX``, ``Aſ``, rank 14)."""


class InvalidPosition(CalcnbError):
    """Piles that are not a position of the game: a card twice or missing, a foundation out of order."""


class InvalidDeal(InvalidPosition):
    """A deal code or starters that do not deal a game (a deal is an opening position)."""


class InvalidSeed(CalcnbError):
    """A seed that is neither a whole number nor a text of at most :data:`MAX_SEED_CHARS` characters."""


class InvalidSave(CalcnbError):
    """Save text that is not a calcnb save, or whose moves or seed do not fit its deal."""


def ascii_upper(text: str) -> str:
    """``text`` with ASCII letters upper-cased and every other code point left as it is."""
    return text.translate(_ASCII_UPPER)


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """The ``repr`` of refused input, cut to about ``limit`` characters; never raises.

    Text longer than ``limit`` keeps its first ``limit`` characters and says how long it
    was. Whole numbers too long to print, and objects whose ``repr`` fails, are named by type.
    """
    if isinstance(value, str):
        start = _printable_start(value, limit)
        if len(start) == len(value):
            return repr(value)
        return message("input.cut", start=repr(start), length=len(value))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return message("input.big_number", digits=int(value.bit_length() * 0.30103) + 1)
    try:
        text = repr(value)
    except Exception:  # a hostile or broken __repr__: name the type instead
        return message("input.unprintable", kind=type(value).__name__)
    if not isinstance(text, str):
        return message("input.unprintable", kind=type(value).__name__)
    return text if len(text) <= limit else message("input.cut", start=text[:limit], length=len(text))


def _printable_start(text: str, limit: int) -> str:
    """The longest start of ``text`` whose ``repr`` takes at most ``limit`` characters between its
    quotes: a control character or unprintable code point counts as its escape (``\\x00``,
    ``\\U0001f0a1``), so 80 of them cannot make an 800-character message."""
    width = 0
    for index, char in enumerate(text[:limit]):
        width += 1 if char.isprintable() and char not in "\\'\"" else len(repr(char)) - 2
        if width > limit:
            return text[:index]
    return text[:limit]


def check_length(text: object, limit: int, what: str, error: type[CalcnbError]) -> None:
    """Refuse ``text`` with ``error`` at once, unread, when it is a string longer than ``limit``.

    ``what`` is the catalogue key naming the input (``"input.deal_code"``).
    """
    if isinstance(text, (str, bytes, bytearray)) and len(text) > limit:
        raise error(message("input.too_long", what=message(what), length=len(text), limit=limit))
