"""Faults in the middle of a lesson, on the class server, in chromium: three pupils answer ``02_wraparound`` served
with ``--class-log`` while the class log is locked, made read-only, left without room, deleted, or (on PostgreSQL)
stopped. One test per fault, each the same story:

- every answer committed before the fault is still in the log after it;
- each pupil's page says once (one line, however many answers wait) that its answers are not reaching the log,
  and what to do: nothing but keep the page open;
- the teacher's class view says it at its first reading during the fault (a view read once, in this process),
  and through the real class view page for the faults of the SQLite log;
- recording resumes by itself once the database is back (the lock released, the file writable again, room made,
  the server started again): every answer typed during the fault reaches the log, in order, and each page says
  "Saved" again. A deleted log file is made again, empty, by the class view at its next reading, and the pages
  send every answer they hold to it.

The SQLite tests share one class server, one class view and three pupils (the log on a small file system of its
own, so the disk can fill for real; a tmpfs, mounted here as root); PostgreSQL's has a server of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from class_log_support import VIEWED, fault, fill, small_disk_at
from playwright.sync_api import Page, expect

from calcnb.classlog.store import open_class_log
from calcnb.classroom.view import ClassView
from calcnb.serve.shared.settings import LOCALHOST, MAX_PAGES

from .pages import calcnb_serving
from .test_evidence_app import _join

pytestmark = [pytest.mark.browser, pytest.mark.slow]
pytest_plugins = ["class_log_fixtures"]

NICKNAMES = ("ana", "bia", "caio")
#: What a page says while its answers wait because the log cannot take them (classroom.not_reaching).
NOT_REACHING = "Your answers are not reaching the class log right now"
ANSWERS = ("0", "14", "99", "27", "40", "52", "13", "1")  # typed into the clock exercise in turn: judged, recorded


@dataclass
class Pupil:
    """A pupil's page of the lesson, joined under ``nickname``, and every answer typed on it so far."""

    page: Page
    nickname: str
    typed: list[str] = field(default_factory=list)

    def answer(self) -> None:
        """Type the next answer into the first exercise, press Check, and wait for its feedback."""
        exercise = self.page.locator(".calcnb-exercise").first
        answer = ANSWERS[len(self.typed) % len(ANSWERS)]
        exercise.locator("input[type=text]").fill(answer)
        exercise.get_by_role("button", name="Check").click()
        self.typed.append(answer)
        exercise.locator(f".calcnb-feedback [data-check='{len(self.typed)}']").wait_for()

    def says_stopped_once(self) -> None:
        """The page says its answers are not reaching the log: on one line, once, whatever the number waiting."""
        line = self.page.locator(".calcnb-save-status")
        expect(line).to_contain_text(NOT_REACHING, timeout=60_000)
        assert self.page.locator("body").inner_text().count(NOT_REACHING) == 1
        assert "Keep this page open" in line.inner_text()

    def says_saved(self) -> None:
        """The page says every answer typed on it is in the log (as it does once recording resumes)."""
        said = f"Saved: the class log has all your answers ({len(self.typed)})."
        expect(self.page.locator(".calcnb-save-status")).to_have_text(said, timeout=120_000)


@dataclass
class Lesson:
    """A lesson under way: where its log is, its pupils, and the teacher's class view page (None: none open)."""

    location: str
    pupils: list[Pupil]
    disk: Path | None = None  # the small file system the SQLite log is on (None: it could not be mounted)
    no_disk: str = ""  # why not
    view: Page | None = None
    stop_view: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def answer_round(self) -> None:
        for pupil in self.pupils:
            pupil.answer()

    def all_saved(self) -> None:
        for pupil in self.pupils:
            pupil.says_saved()

    def logged(self) -> dict[str, list[str]]:
        """Each pupil's answers in the log, in the order they were written."""
        log = open_class_log(self.location)
        try:
            rows = log.attempts_after(0)
        finally:
            log.close()
        return {pupil.nickname: [row["answer"] for row in rows if row["nickname"] == pupil.nickname]
                for pupil in self.pupils}  # fmt: skip

    def typed(self) -> dict[str, list[str]]:
        return {pupil.nickname: list(pupil.typed) for pupil in self.pupils}


@contextlib.contextmanager
def _lesson(browser, location: str, logs: Path, *, with_view: bool) -> Iterator[Lesson]:
    """``calcnb app 02_wraparound --class-log LOCATION`` on the class server, three pupils joined, and (with
    ``with_view``) ``calcnb class-view LOCATION`` open in a page of its own."""
    with contextlib.ExitStack() as stack:
        app = (
            "app",
            "02_wraparound",
            "--server",
            "solara",
            "--class-log",
            location,
            "--max-pages-per-device",
            str(MAX_PAGES),
        )  # fmt: skip (a class's pages from this one machine)
        port = stack.enter_context(calcnb_serving(*app, log=logs / "app.log"))
        pupils = []
        for nickname in NICKNAMES:
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            context.set_default_timeout(120_000)
            stack.callback(context.close)
            page = context.new_page()
            page.goto(f"http://{LOCALHOST}:{port}/", wait_until="domcontentloaded")
            _join(page, nickname)
            pupils.append(Pupil(page, nickname))
        lesson = Lesson(location, pupils)
        if with_view:
            view_port = lesson.stop_view.enter_context(calcnb_serving("class-view", location, log=logs / "view.log"))
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            context.set_default_timeout(120_000)
            lesson.stop_view.callback(context.close)
            lesson.view = context.new_page()
            lesson.view.goto(f"http://{LOCALHOST}:{view_port}/", wait_until="domcontentloaded")
            lesson.view.locator(".calcnb-class-view").get_by_text("3 joined").wait_for()
        stack.push(lesson.stop_view)
        yield lesson


@pytest.fixture(scope="module")
def sqlite_lesson(browser, tmp_path_factory) -> Iterator[Lesson]:
    """The SQLite tests' lesson, its log on a small disk of its own when one can be mounted."""
    base = tmp_path_factory.mktemp("faults")
    with contextlib.ExitStack() as stack:
        try:
            disk = stack.enter_context(small_disk_at(base / "disk", megabytes=64))
        except pytest.skip.Exception as cannot:  # every fault but a full disk can be tried without one
            disk, reason = None, str(cannot)
        lesson = stack.enter_context(_lesson(browser, str(base / "disk" / "lesson.db"), base, with_view=True))
        lesson.disk = disk
        lesson.no_disk = "" if disk else reason
        yield lesson


def _through_a_fault(lesson: Lesson, making: contextlib.AbstractContextManager, alarm: str) -> None:
    """The story of the module's docstring: answers, the fault ``making`` makes (with ``alarm``, the start of what
    the teacher is told), more answers during it, and recording resuming after it."""
    lesson.answer_round()
    lesson.all_saved()
    before = lesson.logged()
    assert before == lesson.typed()
    teacher = ClassView(open_class_log(lesson.location, timeout=1.0), **VIEWED)
    assert teacher.refresh() and teacher.alarms == []
    try:
        with making:
            lesson.answer_round()
            lesson.answer_round()  # two answers wait on each page: still one line says so
            for pupil in lesson.pupils:
                pupil.says_stopped_once()
            teacher.refresh()  # one reading
            assert any(said.startswith(alarm) for said in teacher.alarms), teacher.alarms
            if lesson.view is not None:
                expect(lesson.view.locator(".calcnb-alarm")).to_contain_text(alarm, timeout=60_000)
        lesson.all_saved()  # recording resumes by itself: nothing for a pupil to do
    finally:
        teacher.close()
    after = lesson.logged()
    for nickname, answers in before.items():
        assert after[nickname][: len(answers)] == answers  # kept through the fault
    assert after == lesson.typed()  # and every answer typed during it, in order, once each
    if lesson.view is not None:
        expect(lesson.view.locator(".calcnb-alarm")).to_have_count(0, timeout=60_000)  # gone with the fault


def test_the_log_locked_by_another_connection(sqlite_lesson):
    _through_a_fault(sqlite_lesson, fault("locked", sqlite_lesson.location), "The class log cannot be written")


def test_the_log_file_made_read_only(sqlite_lesson):
    _through_a_fault(sqlite_lesson, fault("read_only", sqlite_lesson.location), "The class log cannot be written")


@contextlib.contextmanager
def _full(disk: Path) -> Iterator[None]:
    filler = fill(disk)
    try:
        yield
    finally:
        filler.unlink()  # room made again, as the teacher is told to


def test_the_disk_of_the_log_full(sqlite_lesson):
    if sqlite_lesson.disk is None:
        pytest.skip(f"no small disk to fill: {sqlite_lesson.no_disk}")
    _through_a_fault(sqlite_lesson, _full(sqlite_lesson.disk), "The disk holding the class log is full")


def test_the_log_file_deleted_is_made_again_by_the_class_view(sqlite_lesson):
    # The class view server would make the log again at its next reading, at any moment: this test's own view
    # (read by the test, at a known moment) does it instead, so the pages meet the missing file first.
    sqlite_lesson.stop_view.close()
    sqlite_lesson.view = None
    remade = f"The class log file {sqlite_lesson.location} was deleted or moved away: this view made a new"
    _through_a_fault(sqlite_lesson, fault("gone", sqlite_lesson.location), remade)


@pytest.mark.postgres
@pytest.mark.parametrize("location", ["postgresql"], indirect=True)  # the run's server; its tables dropped after
def test_postgresql_stopped_then_started_again(browser, location, tmp_path):
    with _lesson(browser, location, tmp_path, with_view=False) as lesson:
        _through_a_fault(lesson, fault("gone", location), "The class log cannot be read right now")
