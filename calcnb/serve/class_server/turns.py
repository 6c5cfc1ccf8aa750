"""Turns, first come first served: a few threads at a time do a piece of work, in the order they asked.

The class server builds each arriving pupil's page in a thread of its own (a Solara virtual kernel's).
"""

from __future__ import annotations

import threading
from collections import deque

__all__ = ["TakingTurns"]


class TakingTurns:
    """A first-come, first-served turn for ``at_once`` threads at a time (a context manager: ``with turns:``).

    Thirty pupils arriving together each have their page built in a thread of their own, and Python runs one
    thread at a time: built all at once, every page shares the processor evenly and each is done only when
    the last one is (all thirty wait as long as the slowest). In turns, in the order the pupils came, the
    first board is out in a tenth of a second and the last no later than before. What is not a page's build
    (a pupil's click) takes no turn, so those already playing are not kept waiting by those arriving.
    """

    def __init__(self, at_once: int = 1) -> None:
        self.at_once = at_once
        self._changed = threading.Condition()
        self._waiting: deque[object] = deque()
        self._running = 0

    def __enter__(self) -> None:
        ticket = object()
        with self._changed:
            self._waiting.append(ticket)
            self._changed.wait_for(lambda: self._waiting[0] is ticket and self._running < self.at_once)
            self._waiting.popleft()
            self._running += 1
            self._changed.notify_all()

    def __exit__(self, *_exc_info: object) -> None:
        with self._changed:
            self._running -= 1
            self._changed.notify_all()
