"""A bank of exercises: the kinds of one lesson, or of every lesson, by stable identifier.

The lessons bring their kinds (:mod:`calcnb.lessons`); the quiz, the worksheets and the class view
are handed a bank and an order, so none of them names a lesson.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from calcnb.exercises.items import UNREADABLE, ExerciseKind, Item, misconception_name
from calcnb.i18n import message


class Bank(Mapping[str, ExerciseKind]):
    """Exercise kinds by identifier, and the misconceptions their feedback may name.

    >>> from calcnb.exercises.items import ExerciseKind
    >>> bank = Bank([ExerciseKind("double", ((2,), (3,)), lambda variant, n: {})])
    >>> list(bank), len(bank["double"].variants)
    (['double'], 2)
    """

    def __init__(self, kinds: Iterable[ExerciseKind] = (), misconceptions: Iterable[str] = ()) -> None:
        self._kinds: dict[str, ExerciseKind] = {}
        for kind in kinds:
            if kind.exercise_id in self._kinds and self._kinds[kind.exercise_id] is not kind:
                raise ValueError(message("lessons.duplicate_exercise", exercise=kind.exercise_id))
            self._kinds[kind.exercise_id] = kind
        self.misconceptions: tuple[str, ...] = tuple(dict.fromkeys([*misconceptions, UNREADABLE]))

    def __getitem__(self, exercise_id: str) -> ExerciseKind:
        return self._kinds[exercise_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def __repr__(self) -> str:
        return f"Bank({len(self)} exercises)"

    def variant_for(self, exercise_id: str, seed: object, class_key: str | None = None) -> int:
        """The variant of ``exercise_id`` a student gets (:meth:`ExerciseKind.variant_for`)."""
        return self[exercise_id].variant_for(seed, class_key)

    def student_items(self, seed: object, exercise_ids: Iterable[str], class_key: str | None = None) -> list[Item]:
        """The exercises one student gets (their variants fixed by ``seed`` and ``class_key``), worked out."""
        return [self[exercise_id].item(self.variant_for(exercise_id, seed, class_key)) for exercise_id in exercise_ids]

    def misconception_text(self, name: str) -> str:
        """A misconception's name in the current language when this bank knows it, else ``name`` as it is."""
        return misconception_name(name) if name in self.misconceptions else name

    def __or__(self, other: Bank) -> Bank:
        return Bank([*self.values(), *other.values()], [*self.misconceptions, *other.misconceptions])
