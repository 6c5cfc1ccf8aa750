"""Each visitor's own values, in a process that serves many visitors at once (the class server).

In a notebook's kernel there is one visitor, and a module's value is theirs. The class server runs every
pupil's page in one process, each in its own virtual kernel: a value that belongs to a visitor (the
language, the answer listeners, the class recorder) must then be kept in that visit's own dict, which the
server gives through :func:`use_visit_scope`. :class:`PerVisit` is such a value: the visitor's own inside a
visit, the process's outside any.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Generic, TypeVar, cast

__all__ = ["PerVisit", "use_visit_scope", "visit_values"]

T = TypeVar("T")


def _no_visit() -> MutableMapping[str, object] | None:
    return None


_visit_scope: Callable[[], MutableMapping[str, object] | None] = _no_visit


def use_visit_scope(scope: Callable[[], MutableMapping[str, object] | None]) -> None:
    """Keep each visitor's values apart: ``scope`` gives the dict a server keeps for the visitor whose code is
    running now (a Solara virtual kernel's), or None outside any visit."""
    global _visit_scope
    _visit_scope = scope


def visit_values() -> MutableMapping[str, object] | None:
    """The current visitor's dict of values, or None outside any visit (a notebook's kernel, a script)."""
    return _visit_scope()


class PerVisit(Generic[T]):
    """A value each visitor has their own of (made by ``make`` at first use), and the process one outside visits."""

    def __init__(self, key: str, make: Callable[[], T]) -> None:
        self.key = key
        self.make = make
        self.process_value = make()

    def get(self) -> T:
        """The current visitor's value, or the process's outside any visit."""
        values = _visit_scope()
        if values is None:
            return self.process_value
        if self.key not in values:
            values[self.key] = self.make()
        return cast(T, values[self.key])
