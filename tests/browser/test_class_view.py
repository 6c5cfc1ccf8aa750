"""A class in the browser: three students answer in the lesson app started with ``--class-log``, and the
teacher's class view (``python -m calcnb class-view``, a server of its own) shows their answers and misconceptions.

Both servers are started exactly as a teacher starts them, through ``python -m calcnb``, and stopped at the end
with their kernels. What the class view must show is computed from the class log itself, so the test does not
depend on which variant of each exercise a student was given.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from calcnb.classlog.export import csv_text
from calcnb.classlog.readings import class_status, exercise_stats, student_summaries
from calcnb.classlog.store import open_class_log
from calcnb.classlog.summary import exercise_label, misconception_label, summary_csv
from calcnb.lessons import BANK, lesson
from calcnb.serve.cli.address import network_address as _network_address
from calcnb.serve.shared.settings import LOCALHOST, MAX_PAGES

from .pages import assert_secured, calcnb_serving

WRAPAROUND = lesson("wraparound")  # the clock of 13
RIGHT = object()
REVEAL = object()

STUDENTS = {
    # nickname: answers typed into the first exercise, one Check each (REVEAL: Show answer pressed instead)
    "ana": ["0", REVEAL, RIGHT],  # RIGHT: the right answer to her variant, typed after it was shown: revealed
    # three answers judged wrong, unreadable ones between them: stuck; a nickname with markup, shown as text
    "bia <b>&amp;": ["zzz", "0", "?", "14", "99"],
    "eva": ["zzz", "?", "no idea"],  # three unreadable answers: never wrong, not stuck
    "caio": [],  # joins and answers nothing: not started
}
# The outcome the class log must record for each of those checks.
OUTCOMES = {"0": "wrong", "14": "wrong", "99": "wrong", "zzz": "unreadable", "?": "unreadable",
            "no idea": "unreadable", REVEAL: "revealed", RIGHT: "right"}  # fmt: skip


def _wait_for_rows(database: Path, count: int, timeout: float = 120) -> None:
    """Wait until the class log holds ``count`` checks (a check is recorded once its feedback is on the page)."""
    log = open_class_log(database)
    deadline = time.monotonic() + timeout
    try:
        while log.count() < count:
            assert time.monotonic() < deadline, f"the class log holds {log.count()} checks, not {count}"
            time.sleep(0.1)
    finally:
        log.close()


def _right_answer(database: Path) -> str:
    """The right answer to the exercise and variant of the last check recorded, computed from the lesson's bank."""
    from calcnb.lessons import BANK

    last = open_class_log(database).attempts()[-1]
    return str(min(BANK[last["exercise_id"]].item(int(last["variant"])).accepted))


@contextlib.contextmanager
def _students_page(browser, url: str, nickname: str):
    """A student's page of the lesson at a laptop's size, the nickname typed: (page, recorder, nickname box)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    page = context.new_page()
    try:
        page.goto(url, wait_until="domcontentloaded")
        recorder = page.locator(".calcnb-class-recorder")
        recorder.wait_for(state="visible")
        assert "collecting the answers" in recorder.inner_text()
        box = recorder.get_by_placeholder("a nickname")
        box.fill(nickname)
        yield page, recorder, box
    finally:
        context.close()


def _student(browser, url: str, nickname: str, answers: list[str], database: Path) -> None:
    with _students_page(browser, url, nickname) as (page, recorder, box):
        box.press("Enter")
        recorder.get_by_text(f"Joined as {nickname}").wait_for()
        exercise = page.locator(".calcnb-exercise").first
        answer_box = exercise.locator("input[type=text]")
        feedback = exercise.locator(".calcnb-feedback")
        for answer in answers:
            recorded = open_class_log(database).count()
            if answer is REVEAL:
                exercise.get_by_role("button", name="Show answer").click()
                _wait_for_rows(database, recorded + 1)
                exercise.get_by_text("The answer is").wait_for()
                continue
            answer_box.fill(_right_answer(database) if answer is RIGHT else answer)
            exercise.get_by_role("button", name="Check").click()
            _wait_for_rows(database, recorded + 1)
            page.wait_for_function("node => node.innerText.trim() !== ''", arg=feedback.element_handle())


def _namesake_goes_on(browser, url: str, nickname: str, screenshot: Path, database: Path) -> None:
    """A page types a nickname someone has joined under: it is asked for the rejoin code the first page
    showed, and with it goes on under the nickname."""
    from calcnb.classlog.names import rejoin_code

    with _students_page(browser, url, nickname) as (page, recorder, box):
        recorder.get_by_role("button", name="Join the class").click()
        recorder.get_by_text(f"Someone in this class has already joined as {nickname}").wait_for()
        assert box.is_enabled()  # not joined: the box stays open for another nickname
        page.screenshot(path=screenshot)
        log = open_class_log(database)
        code = rejoin_code(log.class_key(), nickname)
        log.close()
        recorder.get_by_role("textbox", name="Rejoin code:").fill(code)
        recorder.get_by_role("button", name=f"That was me: go on as {nickname}").click()
        recorder.get_by_text(f"Going on as {nickname}").wait_for()
        expect(box).to_be_disabled()  # the box's state may reach the page just after the status line


@pytest.mark.browser
def test_three_students_answer_and_the_class_view_shows_them(browser, tmp_path):
    database = tmp_path / "lesson.db"
    # Five students' pages from this one machine: no cap per device.
    command = ("app", "02_wraparound", "--class-log", str(database), "--max-pages-per-device", str(MAX_PAGES))
    with calcnb_serving(*command, log=tmp_path / "app.log") as app_port:
        app_url = f"http://{LOCALHOST}:{app_port}/"
        for nickname, answers in STUDENTS.items():
            _student(browser, app_url, nickname, answers, database)
        _namesake_goes_on(browser, app_url, "caio", tmp_path / "namesake.png", database)
        # The students' server serves the lesson only: the class view is not among its pages.
        for path in ("voila/render/teacher/class_view.ipynb", "voila/tree/teacher", "voila/render/class_view.ipynb"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(app_url + path, timeout=60)
            assert refused.value.code in (403, 404)

    log = open_class_log(database)
    rows, students = log.attempts(), log.students()
    log.close()
    assert students == list(STUDENTS)
    assert [row["nickname"] for row in rows] == [name for name, answers in STUDENTS.items() for _ in answers]
    assert [row["outcome"] for row in rows] == [OUTCOMES[answer] for answers in STUDENTS.values() for answer in answers]
    stats = exercise_stats(rows)
    status = class_status(students, rows)
    assert status.not_started == ["caio"] and list(status.stuck) == ["bia <b>&amp;"]
    (clock,) = stats
    assert (clock.tried, clock.right, clock.revealed, clock.unreadable) == (3, 0, 1, 5)
    checked = clock.attempts  # Show answer is not an answer checked

    with calcnb_serving("class-view", str(database), log=tmp_path / "view.log") as view_port:
        # Served on this machine only: another machine (this one's network address) cannot connect.
        address = _network_address()
        if not address.startswith("127.") and address[:1].isdigit():
            with pytest.raises(OSError), socket.create_connection((address, view_port), timeout=5):
                pass
        context = browser.new_context(viewport={"width": 1366, "height": 768}, accept_downloads=True)
        context.set_default_timeout(120_000)
        page = context.new_page()
        try:
            assert_secured(page.goto(f"http://{LOCALHOST}:{view_port}/", wait_until="domcontentloaded"))
            view = page.locator(".calcnb-class-view")
            view.get_by_text(f"4 joined, 3 answering, {checked} answers checked").wait_for()
            for item in stats:
                row = view.locator(f"tr.calcnb-exercise[data-exercise='{item.exercise_id}']")
                label = exercise_label(item.exercise_id, WRAPAROUND.exercises, BANK)  # "1. On the…"
                assert row.locator("th").inner_text().strip() == label
                cells = [text.strip() for text in row.locator("td").all_inner_texts()]
                counts = (item.tried, item.right, item.revealed, item.attempts, item.unreadable)
                assert cells[:5] == [str(count) for count in counts]
                for name, share in item.shares().items():
                    assert f"{misconception_label(name, BANK)}: {share:.0%} ({item.misconceptions[name]})" in cells[5]
            # Ana typed the right answer after Show answer: the view counts her exercise as revealed, not right.
            ana = view.locator("tr.calcnb-student[data-nickname='ana']")
            assert [text.strip() for text in ana.locator("td").all_inner_texts()][:4] == ["0", "0", "0", "1"]
            assert view.locator(".calcnb-not-started").inner_text().strip() == "caio"
            stuck = view.locator(".calcnb-stuck").inner_text()
            exercise = exercise_label(status.stuck["bia <b>&amp;"], WRAPAROUND.exercises, BANK)
            assert f"bia <b>&amp;, on {exercise}" in stuck  # the markup shown as typed
            assert view.locator(".calcnb-stuck b").count() == 0  # ...and never rendered
            assert "eva" not in stuck
            view.get_by_role("button", name="Export every answer as CSV").click()  # made when asked
            with page.expect_download() as download:
                view.locator("a.calcnb-export").click()
            saved = Path(download.value.path()).read_bytes().decode("utf-8-sig")
            assert saved == csv_text(rows)
            with page.expect_download() as download:
                view.locator("a.calcnb-summary-csv").click()
            saved = Path(download.value.path()).read_bytes().decode("utf-8-sig")
            assert saved == summary_csv(student_summaries(students, rows), WRAPAROUND.exercises, BANK)
            view.get_by_role("button", name="Print the summary (PDF)").click()
            with page.expect_download() as download:
                view.locator("a.calcnb-summary-pdf").click()
            assert download.value.suggested_filename == "class_summary.pdf"
            assert Path(download.value.path()).read_bytes()[:5] == b"%PDF-"
            shots = Path(os.environ.get("CALCNB_SHOTS") or tmp_path)  # a folder to look at them, when named
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=shots / "class-view.png", full_page=True)
            # A late student joins: the open view shows it by itself within a few seconds.
            late = open_class_log(database)
            late.join("dani")
            late.close()
            view.get_by_text(f"5 joined, 3 answering, {checked} answers checked").wait_for(timeout=30_000)
            assert "dani" in view.locator(".calcnb-not-started").inner_text()
        finally:
            context.close()


@pytest.mark.browser
def test_with_no_reveal_the_page_says_show_answer_is_off_and_never_shows_an_answer(browser, tmp_path):
    """``python -m calcnb app --no-reveal``: after a wrong answer the exercise says Show answer is off, and the
    hidden button, pressed all the same, shows no answer and records no reveal."""
    database = tmp_path / "lesson.db"
    command = ("app", "02_wraparound", "--class-log", str(database), "--no-reveal")
    with calcnb_serving(*command, log=tmp_path / "app.log") as app_port:
        assert "Show answer is off" in (tmp_path / "app.log").read_text()
        with _students_page(browser, f"http://{LOCALHOST}:{app_port}/", "fay") as (page, recorder, box):
            box.press("Enter")
            recorder.get_by_text("Joined as fay").wait_for()
            exercise = page.locator(".calcnb-exercise").first
            note = exercise.locator(".calcnb-show-off")
            expect(note).to_be_hidden()  # nothing to say before an answer was judged wrong
            exercise.locator("input[type=text]").fill("0")
            exercise.get_by_role("button", name="Check").click()
            _wait_for_rows(database, 1)
            expect(note).to_be_visible()
            assert "Show answer is off for this class" in note.inner_text()
            show = exercise.locator("button.calcnb-show")
            expect(show).to_be_hidden()
            show.dispatch_event("click")  # pressed all the same, as a page's script can
            feedback = exercise.locator(".calcnb-feedback")
            feedback.locator("[data-check='1-refused']").wait_for()
            assert "Show answer is off" in feedback.inner_text() and "The answer is" not in page.inner_text("body")
    log = open_class_log(database)
    assert [row["outcome"] for row in log.attempts()] == ["wrong"]
    log.close()
