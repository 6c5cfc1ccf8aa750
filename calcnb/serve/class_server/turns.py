"""Turns, first come first served: a few threads at a time do a piece of work, in the order they asked.

The class server builds each arriving pupil's page in a thread of its own (a Solara virtual kernel's), in turns.
A turn may have a time limit (:meth:`TakingTurns.run`): a build that passes it is asked to stop and left behind,
so one notebook that never ends cannot keep every later pupil waiting.
"""

from __future__ import annotations

import contextvars
import ctypes
import threading
from collections import deque
from collections.abc import Callable
from typing import TypeVar

__all__ = ["TakingTurns", "TooLong", "within"]

T = TypeVar("T")


class TooLong(Exception):
    """A piece of work passed its time limit: it was asked to stop and left behind, and its turn is free."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"not done within {seconds:g} s")
        self.seconds = seconds


class _Stop(BaseException):
    """Raised inside work left behind, to end it: a BaseException, so a cell's ``except Exception`` lets it by."""


def _ask_to_stop(thread: threading.Thread) -> None:
    """Raise :class:`_Stop` in ``thread`` at its next Python instruction (CPython's own way to interrupt a thread).

    A thread blocked inside a C call (a long ``time.sleep``, a read) stops only once the call returns; until then
    it holds no turn and, waiting, no processor.
    """
    if thread.ident is not None and thread.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Stop))


def within(work: Callable[[], T], seconds: float, *, name: str = "calcnb-turn") -> T:
    """``work()``'s result, or what it raised, if it ends within ``seconds``; else :class:`TooLong`.

    The work runs on a thread of its own (with the caller's context variables), so the caller can stop waiting
    for it; work that passes the limit is asked to stop (:func:`_ask_to_stop`) and left behind.
    """
    done = threading.Event()
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            try:
                outcome["value"] = work()
            except BaseException as error:  # handed to the caller, whatever it is
                outcome["error"] = error
            finally:
                done.set()
        except _Stop:  # asked to stop just as it ended: nothing left to stop
            pass

    thread = threading.Thread(target=contextvars.copy_context().run, args=(run,), name=name, daemon=True)
    thread.start()
    if not done.wait(seconds):
        _ask_to_stop(thread)
        raise TooLong(seconds)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


class TakingTurns:
    """A first-come, first-served turn for ``at_once`` threads at a time (a context manager: ``with turns:``).

    Thirty pupils arriving together each have their page built in a thread of their own, and Python runs one
    thread at a time: built all at once, every page shares the processor evenly and each is done only when
    the last one is (all thirty wait as long as the slowest). In turns, in the order the pupils came, the
    first board is out in a tenth of a second and the last no later than before. What is not a page's build
    (a pupil's click) takes no turn, so those already playing are not kept waiting by those arriving.

    A turn ends by being handed to the next in line, who alone is woken: sixty pupils waiting are not all woken
    (each taking Python's one thread in turn) every time a page is done. A thread that holds a turn may take it
    again inside (a page's build inside its app's load): it waits for nothing, and its turn ends when its
    outermost ``with`` does.

    ``limit``: seconds a turn taken through :meth:`run` may last (None: no limit).
    """

    def __init__(self, at_once: int = 1, *, limit: float | None = None) -> None:
        self.at_once = at_once
        self.limit = limit
        self._lock = threading.Lock()
        self._waiting: deque[threading.Event] = deque()  # each waiting thread's own signal, in the order they came
        self._running = 0  # turns held, counting those handed over and not yet noticed
        self._handed: threading.Event | None = None  # the waiter last handed a turn, until it has taken it
        self._owed = 0  # turns ended while that waiter had not yet taken its own: the next in line's, in order
        self._held = threading.local()  # how deep this thread is in the turn it holds

    def __enter__(self) -> None:
        depth = getattr(self._held, "depth", 0)
        if depth:  # already this thread's turn
            self._held.depth = depth + 1
            return
        with self._lock:
            if self._running < self.at_once and not self._waiting:
                self._running += 1
                self._held.depth = 1
                return
            handed = threading.Event()
            self._waiting.append(handed)
        try:
            handed.wait()
        except BaseException:  # interrupted while waiting: leave the line, or pass on a turn handed meanwhile
            with self._lock:
                if handed in self._waiting:
                    self._waiting.remove(handed)
                else:
                    self._taken(handed)
                    self._pass_on()
            raise
        with self._lock:
            self._taken(handed)
        self._held.depth = 1

    @property
    def busy(self) -> bool:
        """Whether any work has or awaits a turn."""
        return self._running > 0 or bool(self._waiting)

    def __exit__(self, *_exc_info: object) -> None:
        self._held.depth -= 1
        if self._held.depth:
            return
        with self._lock:
            self._pass_on()

    def _pass_on(self) -> None:
        """A turn ends (with the lock held): the next in line has it, or there is one turn fewer.

        Until the last waiter handed a turn has taken it, a turn that ends is owed to the one after it, so that
        waiters take their turns in the order they came even when several turns end at once.
        """
        if not self._waiting:
            self._running -= 1
        elif self._handed is not None:
            self._owed += 1
        else:
            self._handed = self._waiting.popleft()
            self._handed.set()

    def _taken(self, handed: threading.Event) -> None:
        """``handed``'s waiter has taken its turn (with the lock held): a turn owed goes to the next in line."""
        if self._handed is handed:
            self._handed = None
        while self._owed and self._handed is None:
            self._owed -= 1
            self._pass_on()

    def run(self, work: Callable[[], T]) -> T:
        """``work()`` done in a turn; raises :class:`TooLong` once it passes :attr:`limit`, and the turn is free.

        Work past its limit is asked to stop and left behind (see :func:`within`): the next in line goes on.
        """
        with self:
            if self.limit is None:
                return work()
            return within(work, self.limit, name="calcnb-page-build")
