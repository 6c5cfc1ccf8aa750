"""The errors calcnb refuses input with, how they quote it, and how much input it reads.

Every refusal is a :class:`CalcnbError` (a ``ValueError``, defined in :mod:`calcnb.core.errors`),
worded from the message catalogue in the current language, and changes nothing. A message quotes at
most :data:`QUOTE_LIMIT` characters of what it refuses (:func:`quote`), so a 10 MB paste gives a
one-line message, and texts longer than any real one (:data:`MAX_DEAL_CHARS`, :data:`MAX_SAVE_CHARS`,
:data:`MAX_SEED_CHARS`) are refused before they are read (:func:`check_length`).

"Case-insensitive" means ASCII letters only: ``s`` reads as ``S``, but no other code
point is folded (``ſ``, U+017F, upper-cases to ``S`` in Python and is refused here).
:func:`ascii_upper` is that rule; :data:`ASCII_SPACE` is the whitespace every reader skips.
"""

from __future__ import annotations

from calcnb.core.errors import CalcnbError
from calcnb.i18n import Words, message

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
        raise error(Words("input.too_long", what=Words(what), length=len(text), limit=limit))
