"""Exercises and their judge: items, attempts, outcomes and feedback, for any lesson.

An exercise is data: each :class:`Item` holds its question, its answer and the reasoning
(computed by calcnb), the forms of answer accepted, and the feedback for each common wrong
answer, named by a misconception identifier. One function, :func:`judge`, reads any text a
student types and never raises. An :class:`ExerciseKind` is an exercise with its variants and
the function that works one out; :class:`Attempt` is the record of one check, handed to every
answer listener. Nothing here names a lesson: the lessons (:mod:`calcnb.lessons`) bring the kinds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from calcnb.core.enums import TextEnum
from calcnb.exercises.answers import CARD_FOR_COUNT, DONT_KNOW, READERS, Several, echo, read_answer
from calcnb.exercises.keys import student_number
from calcnb.game.cards import rank_name
from calcnb.i18n import answer_words, get_language, message, words_edition


class Feedback(NamedTuple):
    """What a check says: ``correct`` is True, False, or None when the answer could not be read.

    ``misconception`` names the wrong idea a wrong answer shows (one of :data:`MISCONCEPTIONS`), or is None.
    """

    correct: bool | None
    text: str
    misconception: str | None = None


class Outcome(TextEnum):
    """What one check of an exercise came to: judged right, judged wrong, not readable, or the answer shown.

    Each is its text (``Outcome.RIGHT == "right"``), the text a class log stores.
    """

    RIGHT = "right"
    WRONG = "wrong"
    UNREADABLE = "unreadable"
    REVEALED = "revealed"


#: Every outcome, in the order a class view counts them.
OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)

#: The misconception every exercise may name: an answer that could not be read.
UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Attempt:
    """One check of an exercise, or one press of Show answer: which exercise and variant, what was typed, the outcome.

    ``outcome`` is an :class:`Outcome` (its text is read as one): ``UNREADABLE`` for an answer that could not
    be read (never counted as wrong), ``REVEALED`` for Show answer (``answer`` is then ""); ``misconception`` names the
    wrong idea of a wrong answer, or is None. ``language`` is the language the student saw; ``timestamp`` is
    seconds since the epoch (:func:`time.time`).
    """

    exercise_id: str
    variant: int | str
    answer: str
    outcome: Outcome
    misconception: str | None
    language: str
    timestamp: float

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(message("lessons.bad_outcome", outcome=repr(self.outcome), outcomes=", ".join(OUTCOMES)))
        object.__setattr__(self, "outcome", Outcome(self.outcome))  # stored text is read as its outcome

    @property
    def correct(self) -> bool:
        """Was the answer judged right?"""
        return self.outcome is Outcome.RIGHT


# The wrong ideas the exercises recognise, by stable identifier (their names are messages "lessons.mis.<id>").


@dataclass(frozen=True)
class Item:
    """One exercise, fully worked out: the data :func:`judge` needs and nothing else.

    ``kind`` says how an answer is read (a rank, a number, foundations, yes or no);
    ``accepted`` holds the readings counted right; ``wrong`` maps the readings of common wrong
    answers to ``(misconception, reason)``; ``too_big`` (when set) is ``(limit, misconception,
    reason)`` for any number above ``limit``, ``reason(number)`` saying why; ``other`` is the reason given
    for any other answer
    (``reason_for``, when set, computes it from the reading, or ``(misconception, reason)``); ``accepts``, when
    set, also counts a reading right (a rate or an interval within a tolerance). ``solution`` and ``why`` are the
    answer as shown and its reasoning, computed by calcnb; ``wraps`` says whether the answer needs
    the wraparound past K; ``typed`` gives an example of how a reading may be typed (for a teacher's list);
    ``unclear`` maps readings that are no answer to this question, though readable (``0`` for "which rank
    goes on a complete foundation"), to what to write instead: neither right nor wrong; ``shows`` is the order
    explorer's picture that would show the answer (:attr:`ExerciseKind.shows`), or None.
    """

    exercise_id: str
    variant: int
    question: str
    kind: str
    accepted: frozenset
    solution: str
    why: str
    wrong: Mapping[object, tuple[str | None, str]] = field(default_factory=dict)
    other: str = ""
    too_big: tuple[int, str | None, Callable[[int], str]] | None = None
    reason_for: Callable[[object], str | tuple[str | None, str] | None] | None = None
    accepts: Callable[[object], bool] | None = None
    wraps: bool = False
    typed: Mapping[object, str] = field(default_factory=dict)
    unclear: Mapping[object, str] = field(default_factory=dict)
    shows: tuple[int | None, int] | None = None


def judge(item: Item, text: str) -> Feedback:
    """Judge one typed answer to ``item``: always a :class:`Feedback`, never an exception, whatever the text.

    ``correct`` is None for text that is not an answer, for a mark meaning "I don't know" (``-``, ``?``,
    "não sei": never right) and for a reading the item calls unclear; a wrong answer's feedback never
    contains the item's answer (:func:`gives_away`).
    """
    reading = read_answer(item.kind, text)
    expected = message(READERS[item.kind][1])
    if reading is None:
        return Feedback(None, message("lessons.unread", reason=expected))
    if reading == DONT_KNOW:
        return Feedback(None, message("lessons.dont_know", hint=item.other or expected))
    if isinstance(reading, Several):  # a hedge is never right, whichever of its answers is
        typed = [echo(answer).upper() if len(answer) == 1 else echo(answer) for answer in reading.typed]
        said = message("lessons.and", first=", ".join(typed[:-1]), last=typed[-1])
        return Feedback(None, message("lessons.unread", reason=message("lessons.several", answers=said)))
    if reading == CARD_FOR_COUNT:
        return Feedback(None, message("lessons.unread", reason=message("lessons.card_for_count", reason=expected)))
    if reading in item.unclear:
        return Feedback(None, message("lessons.unread", reason=item.unclear[reading]))
    if reading in item.accepted or (item.accepts is not None and item.accepts(reading)):
        return Feedback(True, message("lessons.right", why=item.why))
    misconception, reason = item.wrong.get(reading, (None, ""))
    if not reason and item.too_big is not None and isinstance(reading, int) and reading > item.too_big[0]:
        _limit, misconception, explain = item.too_big
        reason = explain(reading)
    if not reason and item.reason_for is not None:
        found = item.reason_for(reading) or ""
        misconception, reason = found if isinstance(found, tuple) else (misconception, found)
    if not reason or gives_away(item, reason):
        reason = item.other  # a reason that happens to name the answer would hand it over
    return Feedback(False, message("lessons.wrong", answer=echo(text), reason=reason), misconception)


def _standalone(token: str) -> re.Pattern[str]:
    """``token`` on its own: not part of a longer word or number, a foundation's name ("+3") or an inverse ("3⁻¹")."""
    return re.compile(rf"(?<![\w+\-−]){re.escape(token)}(?![\w⁻])")


def answer_tokens(item: Item) -> list[re.Pattern[str]]:
    """The ways ``item``'s answer could be read off a sentence: the answer as shown, the right rank's name,
    the right number (unless the question itself writes it, as in "1 to 13" or "foundation +3"), the
    foundation that takes the card, and the words for "none" or "waste"."""
    if item.kind == "yes_no":
        return []  # a wrong yes is always answered by no: there is nothing to hide
    patterns = [] if item.solution.isdecimal() else [_standalone(item.solution)]  # a number: as the readings
    for reading in item.accepted:
        if isinstance(reading, int):
            if item.solution != str(reading):  # the answer is a rank shown by its name: "K (13)"
                patterns.append(_standalone(rank_name(reading)))
            # a number the question itself writes ("1 to 13", the 3 of "foundation +3") gives nothing away
            if not re.search(rf"(?<!\d){reading}(?!\d)", item.question):
                patterns.append(_standalone(str(reading)))
        elif isinstance(reading, frozenset) and len(reading) == 1:
            (number,) = reading
            words = "|".join(map(re.escape, sorted(answer_words("foundation") - {"f", "b"})))
            patterns.append(re.compile(rf"(?i)\b(?:{words})\s+\+?{number}(?!\w)"))
        elif reading in ("none", "waste"):
            said = answer_words(reading) | {message(f"lessons.{reading}_word")}
            patterns.extend(re.compile(rf"(?i){_standalone(word).pattern}") for word in said if len(word) > 1)
    return patterns


def gives_away(item: Item, text: str) -> bool:
    """Whether ``text`` names ``item``'s answer (:func:`answer_tokens`): feedback on a wrong answer never does."""
    return any(pattern.search(text) for pattern in answer_tokens(item))


@dataclass(frozen=True)
class ExerciseKind:
    """One exercise: a stable identifier, its variants (their parameters) and how each is worked out.

    ``shows``, when set, tells which picture of the order explorer would show a variant's answer, as
    ``(step, ranks)`` from the variant's parameters (step None: any step on that clock); the explorer
    refuses that picture until the exercise is answered.
    """

    exercise_id: str
    variants: tuple[tuple, ...]
    build: Callable[..., dict]
    shows: Callable[[tuple], tuple[int | None, int]] | None = None
    # The items worked out, by (variant, language, words' edition): Items are frozen, so every page may share one.
    _worked: dict[tuple[int, str, int], Item] = field(default_factory=dict, init=False, repr=False, compare=False)

    def item(self, variant: int) -> Item:
        """Variant number ``variant`` (taken modulo the number of variants), worked out in the current language.

        Worked out once per language (and edition of the words): a class's pages, its class view and its
        worksheets ask for the same few variants again and again.
        """
        variant %= len(self.variants)
        key = (variant, get_language(), words_edition())
        found = self._worked.get(key)
        if found is None:
            worked = self.build(variant, *self.variants[variant])
            wrong = worked.get("wrong", {})
            worked["wrong"] = {reading: said for reading, said in wrong.items() if reading not in worked["accepted"]}
            shows = None if self.shows is None else self.shows(self.variants[variant])
            found = self._worked[key] = Item(self.exercise_id, variant, **worked, shows=shows)
        return found

    def variant_for(self, seed: object, class_key: str | None = None) -> int:
        """The variant a student gets: fixed by ``seed`` (a name, or a number drawn per visit) and ``class_key``.

        The class key (the class log's secret) keeps anyone without it from working out a student's
        answers from their nickname; a name counts the same however it is capitalised or spaced.
        """
        return student_number(self.exercise_id, seed, len(self.variants), class_key)


def wrong_answers(item: Item) -> list[tuple[str, str, str]]:
    """The common wrong answers ``item`` recognises: ``(answer as typed, misconception name, feedback)``.

    For a teacher's list of misconceptions: one example answer per misconception the item names.
    """
    shown: list[tuple[str, str, str]] = []
    named: set[str] = set()
    for reading, (misconception, _reason) in item.wrong.items():
        if misconception is None or misconception in named:
            continue
        named.add(misconception)
        typed = item.typed.get(reading) or {"waste": message("lessons.waste_word")}.get(str(reading), str(reading))
        if isinstance(reading, frozenset):
            typed = " ".join(map(str, sorted(reading)))
        typed = {"yes": message("lessons.yes"), "no": message("lessons.no")}.get(typed, typed)
        shown.append((typed, misconception_name(misconception), judge(item, typed).text))
    return shown


def misconception_name(misconception: str | None) -> str:
    """The misconception's name in the current language ("off by one", ...), or "" for None."""
    return message(f"lessons.mis.{misconception}") if misconception else ""


def question_with_answer(item: Item) -> str:
    """One question and its answer on one line, for the teacher's lists."""
    return message("lessons.question_answer", question=item.question, answer=item.solution)


def answer_key(items: Iterable[Item]) -> str:
    """The teacher's answers: each question, its answer and why, numbered."""
    return "\n".join(
        message("lessons.key_line", number=number, question=item.question, answer=item.solution, why=item.why)
        for number, item in enumerate(items, start=1)
    )
