"""A class recorder's saving: every check and deal since the student joined, kept in order, written once each.

The checks are kept in the kernel, in order, and a saver thread of the recorder's own writes them
(never the kernel's event loop, so the database never stands between two clicks). A write that fails
is tried again with back-off until the database takes it; each check carries the page's writer key
and its number, so a retry never writes it twice. A SQLite log deleted or replaced is noticed by the
file's identity: nothing is written into it, and every check is sent again once there is a log at the path.
The page's health row (:meth:`ClassLog.report <calcnb.classlog.store.ClassLog.report>`) tells the class view
how it goes. :class:`Saving` is mixed into :class:`calcnb.classroom.recorder.ClassRecorder`, which is the
page (the notice, the nickname, joining) and draws the save line (:meth:`Saving._show`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from typing import Any

from calcnb.classlog.log import RATE_LIMITS, REFUSED, within_rate
from calcnb.classlog.schema import WRITER_MAX, ClassLogMoved
from calcnb.classlog.store import ClassLog
from calcnb.exercises.items import Attempt
from calcnb.i18n import get_language, message

__all__ = ["HEARTBEAT", "RETRY_FIRST", "RETRY_MAX", "Saving"]

#: Seconds before the first retry of a write that failed; each failure in a row doubles it, up to RETRY_MAX.
RETRY_FIRST = 0.25
#: Longest wait between two tries (the database back, answers arrive within this).
RETRY_MAX = 8.0
#: Seconds between two heartbeats of a page's health row while nothing else is written.
HEARTBEAT = 15.0


class Saving:
    """What a recorder keeps for the log and the saver thread that writes it; see the module's docstring.

    The recorder sets ``class_log`` (None: nothing is ever saved), ``nickname`` (None until the student joins)
    and ``stopped``, calls :meth:`_init_saving` first and :meth:`_start_saving` once the student has joined.
    """

    class_log: ClassLog | None
    nickname: str | None
    stopped: bool

    def _init_saving(self) -> None:
        """Nothing kept yet, no saver thread: the state of a page before the student joins."""
        self.writer_key = secrets.token_hex(WRITER_MAX // 2)  # this page's, for the log's unique keys
        self.error: BaseException | None = None  # the last failed write, while checks wait because of it
        self.failures = 0  # failed writes so far
        self.last_write: float | None = None
        self.last_failure: float | None = None
        self._checks: list[Attempt] = []  # every check since joining, in order; number = index + 1
        self._written = 0  # checks the log has answered for (all before this index): in it, or refused
        self._games: list[Any] = []  # every deal played since joining, in order (calcnb.lessons.evidence's Deal)
        self._games_written = 0  # deals the log has (all before this index)
        self._refused: set[int] = set()  # indices of checks the log refused (their student over RATE_LIMITS)
        self.refused_here = 0  # checks this page refused before sending them (over RATE_LIMITS on its own)
        self._rejoin = False  # the log's file was replaced: join it again before sending the checks again
        self._closing = False
        self._condition = threading.Condition()
        self._writer: threading.Thread | None = None
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()  # a kernel's
        except RuntimeError:
            self._loop = None

    def _start_saving(self) -> None:
        """Start the saver thread (the student has joined)."""
        self._writer = threading.Thread(target=self._save, name="calcnb-class-log", daemon=True)
        self._writer.start()

    def _stop_saving(self) -> None:
        """Make one last try at what waits and stop the saver thread (at most 30 seconds)."""
        if self._writer is not None:
            with self._condition:
                self._closing = True
                self._condition.notify_all()
            self._writer.join(timeout=30)
            self._writer = None

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
        """How many checks were not stored because they came too fast (:data:`~calcnb.classlog.log.RATE_LIMITS`)."""
        return self.refused_here + len(self._refused)

    def record(self, attempt: Attempt) -> str | None:
        """Keep one check for the log (an answer listener): returns at once, never raises.

        The saver thread writes it; until it is in, the page says "Saving…". A check that comes too fast
        after this page's others (over :data:`~calcnb.classlog.log.RATE_LIMITS`) is not kept, and the
        sentence returned says so under the exercise's feedback; the log refuses the same, counting every
        page of the student.
        """
        if self.stopped or self.nickname is None:
            return None
        widest = max(seconds for seconds, _ in RATE_LIMITS)
        with self._condition:
            recent = [check.timestamp for check in self._checks[-100:] if attempt.timestamp - check.timestamp < widest]
            kept = within_rate(recent, attempt.timestamp)
            if kept:
                self._checks.append(attempt)
                self._condition.notify_all()
            else:
                self.refused_here += 1
        self._show()
        return None if kept else message("classroom.too_fast")

    @property
    def games_waiting(self) -> int:
        """How many deals played are kept here, not yet known to be in the log."""
        return len(self._games) - self._games_written

    @property
    def games_recorded(self) -> int:
        """How many deals played are in the log."""
        return self._games_written

    def games_played(self) -> list[dict[str, Any]]:
        """This student's games already in the log (as :meth:`ClassLog.games` gives them), for a page that joins
        again after a reload; empty before joining. Raises the database's error."""
        if self.stopped or self.nickname is None:
            return []
        return self.class_log.games(self.nickname)

    def record_game(self, deal: Any) -> None:
        """Keep one deal the lesson's player played (a game listener) for the log: returns at once, never raises.

        The saver thread writes it after the checks waiting, once each (the log keeps one row per student,
        deal and player). Nothing is kept before the student joins: their deals follow their nickname.
        """
        if self.stopped or self.nickname is None:
            return
        with self._condition:
            self._games.append(deal)
            self._condition.notify_all()

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
        if self._rejoin:
            if not self.class_log.has_joined(self.nickname):
                self.class_log.join(self.nickname, get_language())
            self._rejoin = False
        sent = False
        while self.waiting:
            index = self._written
            done = self.class_log.record_keyed(self.writer_key, index + 1, self.nickname, self._checks[index])
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
            self.class_log.record_game(self.nickname, deal.seed, deal.player, deal.won, deal.score)
            with self._condition:
                self._games_written += 1
                self._condition.notify_all()
        was_failing, self.error = self.error is not None, None
        if sent or was_failing:
            self._announce()
        self._report()

    def _take_new_file(self) -> bool:
        """The log's file was deleted or replaced: take the one at the path now, if any, and send all again."""
        try:
            if not self.class_log.reopen():
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
            self.class_log.engine.dispose()  # fresh connections next time: a restarted server, a new session
        self._announce()
        self._report()

    def _report(self) -> None:
        """The page's health row in the log, for the class view; when the log cannot take it, nothing."""
        reason = None if self.error is None else str(getattr(self.error, "orig", None) or self.error).splitlines()
        with contextlib.suppress(Exception):
            self.class_log.report(
                self.writer_key,
                self.nickname,
                waiting=self.waiting,
                written=self.recorded,
                last_write=self.last_write,
                last_failure=self.last_failure,
                failure=reason[0] if reason else None,
            )

    def _announce(self) -> None:
        """Update the save line from the saver thread: widgets change on the kernel's own thread."""
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._show)
        else:
            self._show()

    def _show(self) -> None:
        """Bring the page's save line up to date (the recorder draws it); on the kernel's thread."""

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every check kept so far is in the log, or a write has failed since; True if all are in.

        The save line is then brought up to date on the caller's thread (a loop may not be turning).
        """
        with self._condition:
            failures = self.failures
            self._condition.wait_for(lambda: self._pending() == 0 or self.failures > failures, timeout=timeout)
            done = self._pending() == 0
        self._show()
        return done
