"""Reading what a student types: a rank, a number, a place, foundations, yes or no, in any language calcnb speaks.

Each reader takes any text and never raises: it gives the value read, a word for a kind of
answer (``"none"``, ``"waste"``, ``"fraction"``, ``"both"``), :data:`DONT_KNOW` for a mark that
means "I don't know" (``-``, ``?``, "idk", "não sei"), or None for text that is not an answer.

A right answer is read however a student would reasonably write it: in quotes, with a full stop
or an exclamation mark after it, as ``7.0`` or ``7,0``, as ``x = 7``, as ``K``, ``king``, ``rei``,
``K (13)`` or ``13 (K)``, in words ("thirteen", "treze", text2num reads them), with an article, a noun or
a unit that changes nothing ("the 7", "o 7", "card J", "4 steps"), in the lesson's own notation ("8 (mod
13)", "≡ 8", "x ≡ 8"), a place as ``12th``, ``12.º`` or "a 12.ª carta". Two answers at once ("A K", "7 or 8")
are :class:`Several`, never one of them; a card's name where a count is asked is :data:`CARD_FOR_COUNT`.

>>> [read_rank(text) for text in ("7.0", "7,0", "x = 10", "“K”", "13 (K)", "none.", "1/4", "0.25", "—", "sei lá")]
[7, 7, 10, 13, 13, 'none', 'fraction', 'fraction', 'dont_know', 'dont_know']
>>> [read_rank(text) for text in ("thirteen", "treze", "the 4", "o 7", "card J", "8 (mod 13)", "x ≡ 8", "≡ 3")]
[13, 13, 4, 7, 11, 8, 8, 3]
>>> read_rank("A K"), read_count("4 steps"), read_count("ás")
(Several(typed=('a', 'k')), 4, 'card_for_count')
>>> [read_place(text) for text in ("12th", "12.º", "12ª", "twelfth", "place 12", "a 12.ª carta")]
[12, 12, 12, 12, 12, 12]
>>> [read_foundations(text) for text in ("foundation 3", "base 3", "F3", "1 and 4", "ambas", "no card")]
[frozenset({3}), frozenset({3}), frozenset({3}), frozenset({1, 4}), 'both', 'waste']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from text_to_num import alpha2digit

from calcnb.game.cards import RANK_COUNT
from calcnb.game.rules import STEPS
from calcnb.i18n import LANGUAGES, answer_words, message

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

CARD_FOR_COUNT = "card_for_count"
"""The reading of a card's name (A, J, Q, K, "ace", "ás") where a count is asked: no count, never right."""


@dataclass(frozen=True)
class Several:
    """Two answers or more at once ("A K", "7 or 8"): a hedge, never right, whichever of them is."""

    typed: tuple[str, ...]


# The lesson's own notation after an answer: "(mod 13)", "mod 13", "(módulo 13)".
_MODULO = re.compile(r"\s*\(?\s*(?:mod|modulo|módulo)\s*\d{1,3}\s*\)?")
# What separates two answers typed at once: a space, a comma, a slash, "or"/"ou", "and"/"e".
_HEDGE_SPLIT = re.compile(r"\s*(?:,|;|/|\s)\s*")


def _in_digits(text: str) -> str:
    """``text`` with its number words as digits, in every language calcnb speaks that text2num reads
    ("thirteen" and "treze" are 13, "twelfth" is 12th, "décima segunda" is 12ª)."""
    for language in LANGUAGES:
        try:
            text = alpha2digit(text, language, threshold=0)
        except Exception:  # a language text2num does not read: its words stay words
            continue
    return text


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
    rank = words.get(cleaned)
    if rank is not None:
        return rank
    if cleaned in _none_words():
        return "none"
    if _FRACTION.fullmatch(cleaned) or any(_is_fraction_sign(char) for char in cleaned):
        return "fraction"
    return None


def _without_fillers(cleaned: str) -> str:
    """``cleaned`` without the words round an answer that change nothing: an article ("the 7", "o 7", "a dama"),
    a noun or a unit ("card J", "carta J", "4 steps", "4 passos"), and the lesson's notation ("8 (mod 13)",
    "≡ 8", "40 ≡ 1": what stands after the last ≡ is the answer)."""
    cleaned = cleaned.rpartition("≡")[2].strip() if "≡" in cleaned else cleaned
    cleaned = _MODULO.sub("", cleaned).strip()
    tokens = cleaned.split()
    # "a K" is two cards (ace or king); "a 7", "a dama", "the K" are one with its article
    ranks = _rank_words()
    two_cards = len(tokens) == 2 and tokens[0] in ranks and len(tokens[1]) == 1 and tokens[1] in ranks
    if two_cards and tokens[0] in answer_words("article"):
        return cleaned
    cleaned = _strip_words(cleaned, answer_words("filler"))  # "card J", "4 steps"
    first, _space, rest = cleaned.partition(" ")
    if rest and first in answer_words("article"):  # an article comes first: "the 7", "o 7", "the card 7"
        cleaned = _strip_words(rest, answer_words("filler"))
    return cleaned


def _several(cleaned: str, read: Callable[[str], object]) -> Several | None:
    """Two answers or more in ``cleaned`` ("a k", "7 or 8", "q/k"), each readable alone, or None."""
    if _NUMBER.fullmatch(cleaned) or _FRACTION.fullmatch(cleaned):
        return None  # "7,0" and "1/4" are one number
    ranks = _rank_words()
    first, space, rest = cleaned.partition(" ")
    # an article before one answer, a space between ("a 7", "a dama", "the K"), is no answer; "a k" is two cards
    two_cards = first in ranks and len(rest) == 1 and rest.isalpha()
    if space and first in answer_words("article") and " " not in rest and not two_cards:
        return None
    joining = answer_words("or") | answer_words("and")
    tokens = [token for token in _HEDGE_SPLIT.split(cleaned) if token and token not in joining]
    if len(tokens) < 2:
        return None
    readings = [read(token) for token in tokens]
    if all(isinstance(reading, int) or reading in ("none",) for reading in readings) and len(set(readings)) > 1:
        return Several(tuple(tokens))
    return None


def _read_one(cleaned: str, read: Callable[[str], object]) -> object:
    """``cleaned`` read by ``read`` as typed, else after its words became digits and its fillers went;
    :class:`Several` for two answers at once."""
    typed = _read_pair(cleaned, read)
    if typed is not None:
        return typed  # the catalogues' own words first: "decima primeira" without its accent
    cleaned = _in_digits(cleaned)
    several = _several(cleaned, read)
    if several is not None:
        return several
    as_typed = _read_pair(cleaned, read)  # "a (1)" is the ace: its "a" is no article
    return as_typed if as_typed is not None else _read_pair(_without_fillers(cleaned), read)


def _is_fraction_sign(char: str) -> bool:
    """A vulgar fraction typed as one sign ("¼", "½")."""
    return unicodedata.category(char) == "No" and not float(unicodedata.numeric(char, 0)).is_integer()


def _read_pair(cleaned: str, read: Callable[[str], object]) -> object:
    """``cleaned`` read by ``read``, also as "x = …" and as two agreeing readings, one in brackets ("13 (K)")."""
    unknown = _UNKNOWN.fullmatch(cleaned)
    if unknown and unknown[0].partition("=")[0].strip() not in _rank_words():
        return read(_without_fillers(_unwrap(unknown[1])))
    shown = _BRACKETED.fullmatch(cleaned) or re.fullmatch(r"(.+?)\s*=\s*(.+)", cleaned)  # "K (13)", "K = 13"
    if shown:
        first, second = read(_without_fillers(shown[1])), read(_without_fillers(shown[2]))
        return first if isinstance(first, int) and first == second else None
    return read(cleaned)


def read_rank(text: str) -> int | str | None:
    """A number (any whole number, so 0, 14 and 52 can be told apart), a rank name, 'none', 'fraction',
    :data:`DONT_KNOW` or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    return _read_one(cleaned, _read_term)


def _read_count_term(cleaned: str) -> int | str | None:
    """One reading of a count: a whole number, 'none', 'fraction', or :data:`CARD_FOR_COUNT` for a card's name."""
    if cleaned in _rank_words() and not _NUMBER.fullmatch(_in_digits(cleaned)):  # "ten" and "dez" are numbers
        return CARD_FOR_COUNT
    return _read_term(cleaned)


def read_count(text: str) -> int | str | None:
    """How many: a whole number (in digits or words), 'none', 'fraction', :data:`CARD_FOR_COUNT` for a card's
    name ("A" is a card, not the count 1), :data:`DONT_KNOW` or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    return _read_one(cleaned, _read_count_term)


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
    return _read_one(cleaned, _read_place_term)


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


# ---- shares, intervals and claims (the lesson "Is the 80% true?")

# A decimal number, with a point or a comma ("0.7", "0,7", ".7", "70"), perhaps with a percent sign after it.
_DECIMAL = re.compile(r"(\d{0,6}(?:[.,]\d{1,6})?)\s*(%?)")
_SHARE_OF = re.compile(r"(\d{1,6})\s*(?:/|÷|:|\s+(?:of|in|out of|de|em|em cada)\s+)\s*(\d{1,6})")
# What may stand between and round the two bounds of an interval: brackets, a dash, "to", "and", "a", "e"...
_INTERVAL_GLUE = re.compile(r"[\s\[\]()\-‐‑‒–—−;:,]*")
_NUMBER_IN = re.compile(r"\d{1,6}(?:[.,]\d{1,6})?|[.,]\d{1,6}")
# The textbook form of an interval, a centre and its margin: "0.7 ± 0.14", "70% +/- 14%", "70 +- 14"
# An interval written as an inequality: "0.63 < p < 0.81", "63% ≤ p ≤ 81%" (p, or x, the unknown rate).
_INEQUALITY = frozenset({"<", "≤", "<=", ">", "≥", ">=", "p", "x"})
_PLUS_MINUS = re.compile(r"(.+?)\s*(?:±|\+\s*/\s*[\-−]|\+\s*[\-−])\s*(.+)")


def _share(number: str, percent_sign: bool) -> float | None:
    """A share from 0 to 1: a number above 1 (or with %) is a percentage; None beyond 100%."""
    try:
        value = float(number.replace(",", "."))
    except ValueError:
        return None
    if percent_sign or value > 1:
        value /= 100
    return value if 0 <= value <= 1 else None


def read_rate(text: str) -> float | str | None:
    """A share from 0 to 1, however written: "0.7", "0,7", ".7", "70%", "70 %", "70" (a number above 1 is a
    percentage), "7/10", "7 of 10", "7 de 10", "70 percentage points" (a width); :data:`DONT_KNOW`, or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    cleaned = _strip_words(_in_digits(cleaned), answer_words("rate_word") | answer_words("article"))
    unknown = _UNKNOWN.fullmatch(cleaned)
    if unknown:
        cleaned = _unwrap(unknown[1])
    shown = _BRACKETED.fullmatch(cleaned)  # "0.7 (70%)": two readings of one share
    if shown:
        first, second = read_rate(shown[1]), read_rate(shown[2])
        return first if isinstance(first, float) and isinstance(second, float) and abs(first - second) < 1e-9 else None
    of = _SHARE_OF.fullmatch(cleaned)
    if of:
        wins, deals = int(of[1]), int(of[2])
        return wins / deals if 0 <= wins <= deals and deals else None
    found = _DECIMAL.fullmatch(cleaned)
    if not found or not found[1] or not any(char.isdecimal() for char in found[1]):
        return None
    return _share(found[1], bool(found[2]))


def read_interval(text: str) -> tuple[float, float] | str | None:
    """Two bounds, each a share or a percentage, lowest first: "0.55 to 0.82", "[0,55; 0,82]", "55%–82%",
    "between 55 and 82", "de 55% a 82%", or a centre and its margin, "0.7 ± 0.14"; :data:`DONT_KNOW`, or None
    (one number, three, or other words)."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    cleaned = _in_digits(cleaned)
    centred = _PLUS_MINUS.fullmatch(cleaned)
    if centred:  # p ± margin, as the textbook formula is written: its bounds cut to [0, 1], as the formula's are
        centre, margin = read_rate(centred[1]), read_rate(centred[2])
        if not isinstance(centre, float) or not isinstance(margin, float):
            return None
        return (max(0.0, centre - margin), min(1.0, centre + margin))
    numbers = list(_NUMBER_IN.finditer(cleaned))
    if len(numbers) != 2:
        return None
    between = [
        cleaned[: numbers[0].start()],
        cleaned[numbers[0].end() : numbers[1].start()],
        cleaned[numbers[1].end() :],
    ]
    shares, percents = [], []
    for index, number in enumerate(numbers):
        after = between[index + 1].lstrip()
        percents.append(after.startswith("%"))
        if percents[-1]:
            between[index + 1] = after[1:]
        shares.append(number[0])
    glue = answer_words("interval_word") | answer_words("article") | _INEQUALITY
    for part in between:
        part = re.sub(r"(<=|>=|[<>≤≥])", r" \1 ", part)  # "0.63<p<0.81": each sign a word of its own
        words = [word for word in re.split(r"[\s\[\]()\-‐‑‒–—−;:,]+", part) if word]
        if any(word not in glue for word in words):
            return None
    # "55 to 82%": one percent sign for both; "0.55 to 82": a bound above 1 makes both percentages
    as_percent = any(percents) or any(float(number.replace(",", ".")) > 1 for number in shares)
    low, high = (_share(number, as_percent) for number in shares)
    if low is None or high is None:
        return None
    return (low, high) if low <= high else (high, low)


def _read_choice(text: str, choices: dict[str, str]) -> str | None:
    """One of ``choices`` (answer-word kind → reading), or a letter a to d in the order given, or None."""
    cleaned = _clean(text)
    if cleaned is None or cleaned == DONT_KNOW:
        return cleaned
    for kind, reading in choices.items():
        if cleaned in answer_words(kind):
            return reading
    cleaned = _strip_words(cleaned, answer_words("choice_word"))  # "option d", "alínea d"
    # "d", "(d)", "d)", "d.", "d: too few", "d - too few deals to tell"
    letter = re.fullmatch(r"\(?([a-d])(?:(?:[).:]|\s*[\-‐‑–—:])\s*(.*)|\s+(.*))?", cleaned)
    readings = list(choices.values())
    if letter and "abcd".index(letter[1]) < len(readings):
        chosen = readings["abcd".index(letter[1])]
        words = letter[2] or letter[3]
        # "(d) too few deals to tell": the words after the letter, if any, must say the same
        return chosen if not words or _read_choice(words, choices) == chosen else None
    return None


#: The choices on a claim, in the order the questions list them: (a) above, (b) below, (c) proven, (d) unclear.
CLAIM_CHOICES = {"claim_above": "above", "claim_below": "below", "claim_proven": "proven", "claim_unclear": "unclear"}
#: The choices on two intervals, in the order the questions list them: (a) the same, (b) different, (c) unclear.
COMPARISON_CHOICES = {"compare_same": "same", "compare_different": "different", "compare_unclear": "unclear"}


def read_claim(text: str) -> str | None:
    """'above', 'below', 'proven' or 'unclear' (too few deals to tell): a letter a to d, or words in any
    language ("too few deals to tell", "não dá para saber"); :data:`DONT_KNOW`, or None."""
    return _read_choice(text, CLAIM_CHOICES)


def read_comparison(text: str) -> str | None:
    """'same', 'different' or 'unclear': a letter a to c, or words in any language; :data:`DONT_KNOW`, or None."""
    return _read_choice(text, COMPARISON_CHOICES)


# Each kind of answer an exercise asks for: how its text is read, and the message saying what was expected.
READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "rank": (read_rank, "lessons.read_rank"),
    "rank_or_none": (read_rank, "lessons.read_rank_or_none"),
    "number": (read_rank, "lessons.read_number"),
    "card": (read_rank, "lessons.read_card"),
    "count": (read_count, "lessons.read_count"),
    "count_or_none": (read_count, "lessons.read_count_or_none"),
    "place": (read_place, "lessons.read_place"),
    "foundation": (read_foundations, "lessons.read_foundation"),
    "yes_no": (read_yes_no, "lessons.read_yes_no"),
    "rate": (read_rate, "lessons.read_rate"),
    "interval": (read_interval, "lessons.read_interval"),
    "claim": (read_claim, "lessons.read_claim"),
    "comparison": (read_comparison, "lessons.read_comparison"),
}


def echo(text: str) -> str:
    """The typed answer as quoted in feedback: one line, at most 40 characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= _LONGEST else line[: _LONGEST - 1] + "…"


def read_answer(kind: str, text: object) -> object:
    """What ``text`` says as an answer of ``kind`` (a key of :data:`READERS`), or None when it is not one."""
    reader, _expected = READERS[kind]
    return reader(str(text))
