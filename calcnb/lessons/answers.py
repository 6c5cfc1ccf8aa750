"""Reading what a student types: a rank, foundations, yes or no, in any language calcnb speaks.

Each reader takes any text and never raises: it gives the value read, a word for a kind of
answer (``"none"``, ``"waste"``, ``"fraction"``), or None for text that is not an answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from calcnb.game.rules import STEPS
from calcnb.i18n import answer_words, message

# ---------------------------------------------------------------- reading answers

# Answers longer than this are not read (a paragraph is no answer); numbers have at most 6 digits.
_LONGEST = 40
_NUMBER = re.compile(r"[+\-−]?\d{1,6}")  # \d: a decimal digit of any script; "²" is not one
_FRACTION = re.compile(r"\d{1,6}\s*/\s*\d{1,6}|\d{0,6}[.,]\d{1,6}")
_WITH_VALUE = re.compile(r"(\w+) ?\((\d{1,2})\)")
_RANK_KINDS = {"ace": 1, "ten": 10, "jack": 11, "queen": 12, "king": 13}
_SYMBOLS_FOR_NONE = frozenset({"-", "—"})  # a dash for "no card", in any language


def _rank_words() -> dict[str, int]:
    """Every rank name a student may type, in every language (the catalogues' answer words), with its value."""
    return {word: value for kind, value in _RANK_KINDS.items() for word in answer_words(kind)}


def _foundation_split() -> re.Pattern[str]:
    """What separates the foundations of one answer: punctuation, a space, or "and"/"or" in any language."""
    joining = sorted(answer_words("and") | answer_words("or"))
    words = "".join(rf"|\b{re.escape(word)}\b" for word in joining)
    return re.compile(rf"\s*(?:,|;|&|\+|/{words}|\s)\s*")


def _clean(text: object) -> str | None:
    """The text as typed, lower-cased with spaces tidied, or None when it is too long to be an answer."""
    cleaned = " ".join(unicodedata.normalize("NFC", str(text)).split()).casefold()
    return cleaned if len(cleaned) <= _LONGEST else None


def read_rank(text: str) -> int | str | None:
    """A number (any whole number, so 0, 14 and 52 can be told apart), a rank name, 'none', 'fraction' or None."""
    cleaned = _clean(text)
    if cleaned is None:
        return None
    if _NUMBER.fullmatch(cleaned):
        return int(cleaned.replace("−", "-"))
    shown = _WITH_VALUE.fullmatch(cleaned)  # the answer as the lesson shows it: "K (13)"
    if shown and _rank_words().get(shown[1]) == int(shown[2]):
        return int(shown[2])
    rank = _rank_words().get(cleaned)
    if rank is not None:
        return rank
    if cleaned in answer_words("none") | _SYMBOLS_FOR_NONE or cleaned == message("lessons.none_word"):
        return "none"
    if _FRACTION.fullmatch(cleaned):
        return "fraction"
    return None


def read_foundations(text: str) -> frozenset[int] | str | None:
    """One or more foundation numbers (``"1"``, ``"F4"``, ``"1 and 4"``) as a set, 'waste', or None."""
    cleaned = _clean(text)
    if cleaned is None or not cleaned:
        return None
    if cleaned in answer_words("waste") or cleaned == message("lessons.waste_word"):
        return "waste"
    numbers = set()
    for token in filter(None, _foundation_split().split(cleaned)):
        token = token.removeprefix("f")
        if not (len(token) == 1 and token.isdecimal() and 1 <= int(token) <= len(STEPS)):
            return None
        numbers.add(int(token))
    return frozenset(numbers) or None


def read_yes_no(text: str) -> str | None:
    cleaned = _clean(text)
    if cleaned in answer_words("yes") or cleaned == message("lessons.yes"):
        return "yes"
    if cleaned in answer_words("no") or cleaned == message("lessons.no"):
        return "no"
    return None


# kind of answer -> (reader, the message saying what to write)
# Each kind of answer an exercise asks for: how its text is read, and the message saying what was expected.
READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "rank": (read_rank, "lessons.read_rank"),
    "rank_or_none": (read_rank, "lessons.read_rank_or_none"),
    "number": (read_rank, "lessons.read_number"),
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
