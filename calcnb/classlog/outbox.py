"""A page's outbox: every check and deal since the student joined, kept in order and written into the log once each.

The checks are kept in memory, in order, and a saver thread of the outbox's own writes them (never the
kernel's event loop, so the database never stands between two clicks). A write that fails is tried again
with back-off until the database takes it; each check carries the page's writer key and its number, so a
retry never writes it twice. A SQLite log deleted or replaced is noticed by the file's identity: nothing
is written into it, and every check is sent again once there is a log at the path. The page's health row
(:meth:`ClassLog.report <calcnb.classlog.store.ClassLog.report>`) tells the class view how it goes.

:class:`Outbox` is a plain object with a callback: the students' page (:mod:`calcnb.classroom.recorder`)
owns one and redraws its save line when told; a test or a script drives one without any widget.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import Callable
from typing import Protocol

from calcnb.classlog.schema import WRITER_MAX, ClassLogMoved
from calcnb.classlog.store import RATE_LIMITS, REFUSED, ClassLog, within_rate
from calcnb.exercises.items import Attempt
from calcnb.i18n import get_language

__all__ = ["HEARTBEAT", "RETRY_FIRST", "RETRY_MAX", "HomeLoop", "Outbox", "PlayedDeal"]

#: Seconds before the first retry of a write that failed; each failure in a row doubles it, up to RETRY_MAX.
RETRY_FIRST = 0.25
#: Longest wait between two tries (the database back, answers arrive within this).
RETRY_MAX = 8.0
#: Seconds between two heartbeats of a page's health row while nothing else is written.
HEARTBEAT = 15.0


class PlayedDeal(Protocol):
    """A deal a lesson's player played for a student, as the log keeps it: its seed, the player, won or not,
    the score (a lesson's own record of a deal is one)."""

    seed: int
    player: str
    won: bool
    score: int


class HomeLoop:
    """The asyncio loop running where an object was made (a kernel's, where widgets change), if any: a thread of
    the object's own hands its calls back to it."""

    def __init__(self) -> None:
        try:
            self.loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # a plain script or a test: no loop runs here
            self.loop = None

    def call(self, function: Callable[..., object], *arguments: object) -> None:
        """``function(*arguments)`` on the loop when it turns, else at once on this thread."""
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(function, *arguments)
        else:
            function(*arguments)


class Outbox:
    """What one page keeps for ``log`` and the saver thread that writes it; see the module's docstring.

    Nothing is kept before :meth:`start` (the student's nickname: their checks follow it). ``on_change`` is
    called whenever the figures change (a check kept, written or refused, a write failed), on the thread that
    made the outbox: the saver thread's changes are handed to that thread's asyncio loop when it runs one (a
    kernel's, where widgets change), else called on the saver thread. :meth:`stop` makes one last try.
    """

    def __init__(self, log: ClassLog, *, on_change: Callable[[], None] | None = None) -> None:
        self.log = log
        self.on_change: Callable[[], None] = on_change or (lambda: None)
        self.nickname: str | None = None  # whose checks these are, once started
        self.writer_key = secrets.token_hex(WRITER_MAX // 2)  # this page's, for the log's unique keys
        self.error: BaseException | None = None  # the last failed write, while checks wait because of it
        self.failures = 0  # failed writes so far
        self.last_write: float | None = None
        self.last_failure: float | None = None
        self.refused_here = 0  # checks refused here before sending them (over RATE_LIMITS on this page alone)
        self._checks: list[Attempt] = []  # every check since starting, in order; number = index + 1
        self._written = 0  # checks the log has answered for (all before this index): in it, or refused
        self._games: list[PlayedDeal] = []  # every deal played since starting, in order
        self._games_written = 0  # deals the log has (all before this index)
        self._refused: set[int] = set()  # indices of checks the log refused (their student over RATE_LIMITS)
        self._rejoin = False  # the log's file was replaced: join it again before sending the checks again
        self._closing = False
        self._condition = threading.Condition()
        self._writer: threading.Thread | None = None
        self._home = HomeLoop()  # where on_change is called

    def __repr__(self) -> str:
        return f"<Outbox of {self.nickname!r}: {self.recorded} recorded, {self.waiting} waiting>"

    def start(self, nickname: str) -> None:
        """Keep ``nickname``'s checks and deals from now on, and start the saver thread (once)."""
        self.nickname = nickname
        if self._writer is None:
            self._writer = threading.Thread(target=self._save, name="calcnb-class-log", daemon=True)
            self._writer.start()

    def stop(self) -> None:
        """Make one last try at what waits and stop the saver thread (at most 30 seconds)."""
        if self._writer is not None:
            with self._condition:
                self._closing = True
                self._condition.notify_all()
            self._writer.join(timeout=30)
            self._writer = None

    @property
    def checks(self) -> tuple[Attempt, ...]:
        """Every check kept since starting, in order, written or not."""
        with self._condition:
            return tuple(self._checks)

    @property
    def waiting(self) -> int:
        """How many checks are kept here, not yet known to be in the log."""
        return len(self._checks) - self._written

    @property
    def recorded(self) -> int:
        """How many checks are in the log."""
        return self._written - len(self._refused)

    @property
    def refused(self) -> int:
        """How many checks were not stored because they came too fast (:data:`~calcnb.classlog.store.RATE_LIMITS`)."""
        return self.refused_here + len(self._refused)

    @property
    def games_waiting(self) -> int:
        """How many deals played are kept here, not yet known to be in the log."""
        return len(self._games) - self._games_written

    @property
    def games_recorded(self) -> int:
        """How many deals played are in the log."""
        return self._games_written

    def record(self, attempt: Attempt) -> bool:
        """Keep one check for the log: returns at once, never raises; False if it was not kept, coming too fast.

        A check over :data:`~calcnb.classlog.store.RATE_LIMITS` after this page's others is not kept; the log
        refuses the same, counting every page of the student. Before :meth:`start` nothing is kept (True).
        """
        if self.nickname is None:
            return True
        widest = max(seconds for seconds, _ in RATE_LIMITS)
        with self._condition:
            recent = [check.timestamp for check in self._checks[-100:] if attempt.timestamp - check.timestamp < widest]
            kept = within_rate(recent, attempt.timestamp)
            if kept:
                self._checks.append(attempt)
                self._condition.notify_all()
            else:
                self.refused_here += 1
        self.on_change()
        return kept

    def record_game(self, deal: PlayedDeal) -> None:
        """Keep one deal played for the log: returns at once, never raises; nothing before :meth:`start`.

        The saver thread writes it after the checks waiting, once each (the log keeps one row per student,
        deal and player).
        """
        if self.nickname is None:
            return
        with self._condition:
            self._games.append(deal)
            self._condition.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything kept so far is in the log, or a write has failed since; True if all are in.

        ``on_change`` is then called on the caller's thread (its loop may not be turning).
        """
        with self._condition:
            failures = self.failures
            self._condition.wait_for(lambda: self._pending() == 0 or self.failures > failures, timeout=timeout)
            done = self._pending() == 0
        self.on_change()
        return done

    # ------------------------------------------------------------ the saver thread

    def _pending(self) -> int:
        return self.waiting + self.games_waiting

    def _save(self) -> None:
        """The saver thread: write what waits, in order; on failure wait (doubling) and try again."""
        delay = RETRY_FIRST
        beat = 0.0
        while True:
            with self._condition:
                while not self._closing and self._pending() == 0 and time.monotonic() - beat < HEARTBEAT:
                    self._condition.wait(timeout=HEARTBEAT)
                if self._closing and (self._pending() == 0 or self.error is not None):
                    return  # closing: one last try was made (or nothing waits)
            try:
                self._send_waiting()
            except Exception as error:  # whatever the database says: the checks stay here, in order
                if isinstance(error, ClassLogMoved) and self._take_new_file():
                    continue  # a log is at the path again: send everything to it, at once
                self._failed(error)
                with self._condition:
                    if not self._closing:
                        self._condition.wait(timeout=delay)
                delay = min(2 * delay, RETRY_MAX)
                continue
            delay = RETRY_FIRST
            beat = time.monotonic()

    def _send_waiting(self) -> None:
        nickname = self.nickname
        assert nickname is not None  # the saver thread runs only once started
        if self._rejoin:
            if not self.log.has_joined(nickname):
                self.log.join(nickname, get_language())
            self._rejoin = False
        sent = False
        while self.waiting:
            index = self._written
            done = self.log.record_keyed(self.writer_key, index + 1, nickname, self._checks[index])
            with self._condition:
                if done == REFUSED:
                    self._refused.add(index)
                else:
                    self._refused.discard(index)
                self._written = index + 1
                self.last_write = time.time()
                self._condition.notify_all()
            sent = True
        while self.games_waiting:
            deal = self._games[self._games_written]
            self.log.record_game(nickname, deal.seed, deal.player, deal.won, deal.score)
            with self._condition:
                self._games_written += 1
                self._condition.notify_all()
        was_failing, self.error = self.error is not None, None
        if sent or was_failing:
            self._changed()
        self._report()

    def _take_new_file(self) -> bool:
        """The log's file was deleted or replaced: take the one at the path now, if any, and send all again."""
        try:
            if not self.log.reopen():
                return False
        except Exception:
            return False
        with self._condition:
            self._written = 0  # the new file holds none of them; the keys skip any it already has
            self._games_written = 0
            self._refused.clear()
            self._rejoin = True
        return True

    def _failed(self, error: BaseException) -> None:
        with self._condition:
            self.error = error
            self.failures += 1
            self.last_failure = time.time()
            self._condition.notify_all()
        with contextlib.suppress(Exception):
            self.log.engine.dispose()  # fresh connections next time: a restarted server, a new session
        self._changed()
        self._report()

    def _report(self) -> None:
        """The page's health row in the log, for the class view; when the log cannot take it, nothing."""
        reason = None if self.error is None else str(getattr(self.error, "orig", None) or self.error).splitlines()
        with contextlib.suppress(Exception):
            self.log.report(
                self.writer_key,
                self.nickname or "",
                waiting=self.waiting,
                written=self.recorded,
                last_write=self.last_write,
                last_failure=self.last_failure,
                failure=reason[0] if reason else None,
            )

    def _changed(self) -> None:
        """Tell the owner from the saver thread, on the owner's loop when it turns one."""
        self._home.call(self.on_change)
