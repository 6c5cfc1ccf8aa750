"""Reading what a student types: a rank, a number, a place, foundations, yes or no, in any language calcnb speaks.

Each reader takes any text and never raises: it gives the value read, a word for a kind of
answer (``"none"``, ``"waste"``, ``"fraction"``, ``"both"``), :data:`DONT_KNOW` for a mark that
means "I don't know" (``-``, ``?``, "idk", "não sei"), or None for text that is not an answer.

A right answer is read however a student would reasonably write it: in quotes, with a full stop
or an exclamation mark after it, as ``7.0`` or ``7,0``, as ``x = 7``, as ``K``, ``king``, ``rei``,
``K (13)`` or ``13 (K)``, a place as ``12th`` or ``12.º``.

>>> [read_rank(text) for text in ("7.0", "7,0", "x = 10", "“K”", "13 (K)", "none.", "1/4", "0.25", "—", "sei lá")]
[7, 7, 10, 13, 13, 'none', 'fraction', 'fraction', 'dont_know', 'dont_know']
>>> [read_place(text) for text in ("12th", "12.º", "12ª", "twelfth", "place 12")]
[12, 12, 12, 12, 12]
>>> [read_foundations(text) for text in ("foundation 3", "base 3", "F3", "1 and 4", "ambas", "no card")]
[frozenset({3}), frozenset({3}), frozenset({3}), frozenset({1, 4}), 'both', 'waste']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from calcnb.game.cards import RANK_COUNT
from calcnb.game.rules import STEPS
from calcnb.i18n import answer_words, message

# ---------------------------------------------------------------- reading answers

# Answers longer than this are not read (a paragraph is no answer); numbers have at most 6 digits.
_LONGEST = 40
# A whole number, also written with a zero decimal part ("7.0", "7,00": a comma is the decimal mark in Portuguese).
_NUMBER = re.compile(r"([+\-−]?\d{1,6})(?:[.,]0{1,6})?")  # \d: a decimal digit of any script; "²" is not one
_FRACTION = re.compile(r"\d{1,6}\s*/\s*\d{1,6}|\d{0,6}[.,]\d{1,6}")
# Two readings of one answer, the second in brackets: "K (13)", "13 (K)".
_BRACKETED = re.compile(r"(.+?)\s*\((.+)\)")
# The unknown of a question named before its value: "x = 10", "x=10", "k⁻¹ = 10".
_UNKNOWN = re.compile(r"(?:[a-z]|[a-z\d]{1,2}(?:⁻¹|\^-1|\^\(-1\)))\s*=\s*(.+)")
# A place written as an ordinal: "12th", "3rd", "12º", "12.º", "12ª" (and "12°", the degree sign typed for it).
_ORDINAL = re.compile(r"(\d{1,2})\s*(?:st|nd|rd|th|\.?[ºª°]|o|a)")
# Marks that say "I don't know" in every language: dashes, question marks, dots, an underscore.
_MARKS = re.compile(r"[\-‐‑‒–—―−?¿._…\s]+")
# Quotes (and brackets) a student may put round an answer, each opening one with the closing ones that match it.
_QUOTES = {
    '"': '"“”',
    "'": "'‘’",
    "“": "”“",
    "”": "”",
    "„": "“”",
    "‘": "’‘",
    "’": "’",
    "‚": "‘’",
    "«": "»",
    "»": "«",
    "‹": "›",
    "(": ")",
    "[": "]",
}
# Punctuation that may end an answer without changing it ("7.", "none!", "K;", "7?": a doubt, but an answer).
_TRAILING = ".!;:,?¡¿"
_RANK_KINDS = {"ace": 1, "ten": 10, "jack": 11, "queen": 12, "king": 13}

DONT_KNOW = "dont_know"
"""The reading of a mark or words that mean "I don't know": never right, never wrong."""


def _rank_words() -> dict[str, int]:
    """Every rank name a student may type, in every language (the catalogues' answer words), with its value."""
    return {word: value for kind, value in _RANK_KINDS.items() for word in answer_words(kind)}


def _place_words() -> dict[str, int]:
    """Every ordinal word for a place ("twelfth", "décimo segundo"), in every language, with its place."""
    return {word: place for place in range(1, RANK_COUNT + 1) for word in answer_words(f"place_{place}")}


def _foundation_split() -> re.Pattern[str]:
    """What separates the foundations of one answer: punctuation, a space, or "and"/"or" in any language."""
    joining = sorted(answer_words("and") | answer_words("or"))
    words = "".join(rf"|\b{re.escape(word)}\b" for word in joining)
    return re.compile(rf"\s*(?:,|;|&|\+|/{words}|\s)\s*")


def _tidy(text: object) -> str | None:
    """The text as typed, lower-cased with spaces tidied, or None when it is too long to be an answer."""
    tidied = " ".join(unicodedata.normalize("NFC", str(text)).split()).casefold()
    return tidied if len(tidied) <= _LONGEST else None


def _unwrap(text: str) -> str:
    """``text`` without the quotes round it and the punctuation after it ("“7.”" is 7), as often as they nest."""
    while True:
        before = text
        text = text.rstrip(_TRAILING).strip()
        if len(text) >= 2 and text[-1] in _QUOTES.get(text[0], ""):
            text = text[1:-1].strip()
        if text == before:
            return text


def _clean(text: object) -> str | None:
    """The answer in ``text`` (tidied, unquoted), :data:`DONT_KNOW`, or None when there is nothing to read."""
    tidied = _tidy(text)
    if not tidied:
        return None
    if _MARKS.fullmatch(tidied.strip("".join(_QUOTES) + "".join(_QUOTES.values()))):
        return DONT_KNOW  # also in quotes: "'?'"
    cleaned = _unwrap(tidied).replace("’", "'")
    if not cleaned:
        return None
    if cleaned in answer_words("dont_know"):
        return DONT_KNOW
    return cleaned


def _none_words() -> frozenset[str]:
    return answer_words("none") | {message("lessons.none_word")}


def _read_term(cleaned: str) -> int | str | None:
    """One reading of a rank or number: a whole number, a rank name ("K", "the king", "o rei"), 'none' or 'fraction'."""
    number = _NUMBER.fullmatch(cleaned)
    if number:
        return int(number[1].replace("−", "-"))
    words = _rank_words()
    first, _space, rest = cleaned.partition(" ")
    if cleaned not in words and first in answer_words("article"):
        cleaned = rest  # "the king", "o rei", "a dama": the article changes nothing
    rank = words.get(cleaned)
    if rank is not None:
        return rank
    if cleaned in _none_words():
        return "none"
    if _FRACTION.fullmatch(cleaned) or any(_is_fraction_sign(char) for char in cleaned):
        return "fraction"
    return None


def _is_fraction_sign(char: str) -> bool:
    """A vulgar fraction typed as one sign ("¼", "½")."""
    return unicodedata.category(char) == "No" and not float(unicodedata.numeric(char, 0)).is_integer()


def _read_pair(cleaned: str, read: Callable[[str], object]) -> object:
    """``cleaned`` read by ``read``, also as "x = …" and as two agreeing readings, one in brackets ("13 (K)")."""
    unknown = _UNKNOWN.fullmatch(cleaned)
    if unknown and unknown[0].partition("=")[0].strip() not in _rank_words():
        return read(_unwrap(unknown[1]))
    shown = _BRACKETED.fullmatch(cleaned) or re.fullmatch(r"(.+?)\s*=\s*(.+)", cleaned)  # "K (13)", "K = 13"
    if shown:
        first, second = read(shown[1]), read(shown[2])
        return first if isinstance(first, int) and first == second else None
    return read(cleaned)


def read_rank(text: str) -> int | str | None:
    """A number (any whole number, so 0, 14 and 52 can be told apart), a rank name, 'none', 'fraction',
    :data:`DONT_KNOW` or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    return _read_pair(cleaned, _read_term)


def _strip_words(text: str, words: frozenset[str]) -> str:
    """``text`` without any of ``words`` (whole words or phrases) at its start or its end."""
    longest_first = sorted(words, key=len, reverse=True)
    while True:
        before = text
        for word in longest_first:
            if text.startswith(word + " "):
                text = text[len(word) + 1 :]
            elif text.endswith(" " + word):
                text = text[: -len(word) - 1]
        if text == before:
            return text


def _read_place_term(cleaned: str) -> int | str | None:
    """One reading of a place: a number, an ordinal ("12th", "12.º", "twelfth"), with or without the word "place"."""
    joined = _strip_words(cleaned, answer_words("place") | answer_words("article"))
    ordinal = _ORDINAL.fullmatch(joined)
    if ordinal:
        return int(ordinal[1])
    place = _place_words().get(joined)
    if place is not None:
        return place
    return _read_term(joined) if joined else None


def read_place(text: str) -> int | str | None:
    """A place on a foundation: as :func:`read_rank` reads it, or an ordinal ("12th", "12º", "12.º", "twelfth")."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    return _read_pair(cleaned, _read_place_term)


def read_foundations(text: str) -> frozenset[int] | str | None:
    """One or more foundation numbers (``"1"``, ``"F4"``, ``"base 3"``, ``"1 and 4"``) as a set, 'both' (every
    foundation that takes the card: "both", "ambas"), 'waste' (also "none", "no card"), :data:`DONT_KNOW` or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    if cleaned in answer_words("waste") | _none_words() or cleaned == message("lessons.waste_word"):
        return "waste"
    if cleaned in answer_words("both"):
        return "both"
    numbers = set()
    for token in filter(None, _foundation_split().split(cleaned)):
        if token in answer_words("foundation") | answer_words("article"):
            continue  # "foundation 3", "base 3", "the foundations 1 and 4"
        token = token.removeprefix("f").removeprefix("b")  # "F3", and "B3" for "base 3"
        if not (len(token) == 1 and token.isdecimal() and 1 <= int(token) <= len(STEPS)):
            return None
        numbers.add(int(token))
    return frozenset(numbers) or None


def read_yes_no(text: str) -> str | None:
    """'yes', 'no', :data:`DONT_KNOW` or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    if cleaned in answer_words("yes") or cleaned == message("lessons.yes"):
        return "yes"
    if cleaned in answer_words("no") or cleaned == message("lessons.no"):
        return "no"
    return None


# Each kind of answer an exercise asks for: how its text is read, and the message saying what was expected.
READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "rank": (read_rank, "lessons.read_rank"),
    "rank_or_none": (read_rank, "lessons.read_rank_or_none"),
    "number": (read_rank, "lessons.read_number"),
    "place": (read_place, "lessons.read_place"),
    "foundation": (read_foundations, "lessons.read_foundation"),
    "yes_no": (read_yes_no, "lessons.read_yes_no"),
}


def echo(text: str) -> str:
    """The typed answer as quoted in feedback: one line, at most 40 characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= _LONGEST else line[: _LONGEST - 1] + "…"


def read_answer(kind: str, text: object) -> object:
    """What ``text`` says as an answer of ``kind`` (a key of :data:`READERS`), or None when it is not one."""
    reader, _expected = READERS[kind]
    return reader(str(text))
