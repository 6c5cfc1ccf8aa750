"""Counting in steps as a class of three meets it: ``python -m calcnb app counting --class-log`` (with each of the
app's servers) in a browser at a classroom laptop's size, the clock face clicked (right and wrong cards), the
exercises answered rightly, wrongly and oddly, and the teacher's class view (``python -m calcnb class-view``)
showing the three students, their answers and their slips, numbered as the lesson numbers them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from calcnb.classlog.readings import class_status, exercise_stats
from calcnb.classlog.store import open_class_log, read_class_key
from calcnb.classlog.summary import exercise_label, misconception_label
from calcnb.lessons import BANK, lesson
from calcnb.lessons.counting.widgets import clock_point
from calcnb.serve.shared.settings import LOCALHOST

from .pages import SERVERS, calcnb_serving
from .test_class_view import _students_page, _wait_for_rows

pytestmark = pytest.mark.browser

LESSON = lesson("counting")
PARAGRAPH = (
    "I counted Q then K and then I was not sure if the clock goes on or stops, so I think it might be K "
    "but maybe A, I am not sure at all really."
)


def _click_card(page, clock, rank: int) -> str:
    """Click ``rank``'s disc on the clock picture, as a child does with the mouse; return what the clock says then."""
    said = clock.locator(".calcnb-counting-message")  # the widget stays; the sentence inside it is made anew
    before = said.inner_text()
    picture = clock.locator(".calcnb-counting-clock")
    picture.scroll_into_view_if_needed()  # the mouse clicks what is on the screen
    box = picture.bounding_box()
    x, y = clock_point(rank)
    page.mouse.click(box["x"] + (x + 1.32) / 2.64 * box["width"], box["y"] + (1.32 - y) / 2.64 * box["width"])
    page.wait_for_function("([node, before]) => node.innerText !== before", arg=[said.element_handle(), before])
    return said.inner_text()


def _answer(page, database: Path, index: int, text: str) -> str:
    """Type ``text`` in exercise ``index``, press Check, wait until it is recorded; return the feedback."""
    exercise = page.locator(".calcnb-exercise").nth(index)
    feedback = exercise.locator(".calcnb-feedback")
    recorded = open_class_log(database).count()
    exercise.locator("input[type=text]").fill(text)
    exercise.get_by_role("button", name="Check").click()
    _wait_for_rows(database, recorded + 1)
    page.wait_for_function("node => node.innerText.trim() !== ''", arg=feedback.element_handle())
    feedback.locator(f"[data-check='{_checks(exercise)}']").wait_for()
    return feedback.inner_text().strip()


def _checks(exercise) -> int:
    return exercise.evaluate("node => node.dataset.checks = String(Number(node.dataset.checks || 0) + 1)")


def _right(database: Path, nickname: str, exercise_id: str) -> str:
    key = read_class_key(database)
    item = BANK[exercise_id].item(BANK.variant_for(exercise_id, nickname, key))
    return item.solution


def _shoot(page, shots: Path, name: str, locator=None) -> None:
    if locator is not None:
        locator.evaluate("node => node.scrollIntoView({block: 'center'})")
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shots / f"{name}.png")


@pytest.mark.parametrize("server", SERVERS)
def test_a_class_of_three_counts_on_the_clock_answers_and_the_class_view_shows_them(browser, tmp_path, server):
    database = tmp_path / "lesson.db"
    shots = Path(os.environ.get("CALCNB_SHOTS") or tmp_path)
    app = ("app", "counting", "--server", server, "--class-log", str(database))
    with calcnb_serving(*app, log=tmp_path / "app.log") as port:
        url = f"http://{LOCALHOST}:{port}/"

        # ana clicks the clock in ones from A (a right card, then a wrong one), and answers rightly
        with _students_page(browser, url, "ana") as (page, recorder, box):
            box.press("Enter")
            recorder.get_by_text("Joined as ana").wait_for()
            assert "Counting in steps" in page.locator("body").inner_text()
            clocks = page.locator(".calcnb-counting")
            assert clocks.count() == 4 and page.locator(".calcnb-exercise").count() == len(LESSON.exercises)
            first = clocks.first
            assert _click_card(page, first, 2).startswith("✓ 2. From A: 2.")
            wrong = _click_card(page, first, 2)  # the card the count is on: no step at all
            assert wrong.startswith("✗ Not 2:") and "you counted 2 itself" in wrong
            assert _click_card(page, first, 3).startswith("✓ 3.")
            assert "Cards said (3): A → 2 → 3" in first.inner_text()
            _shoot(page, shots, "counting-clock-ones", first)
            twos = clocks.nth(1)
            for card in (4, 6, 8, 10, 12):
                assert _click_card(page, twos, card).startswith(f"✓ {'Q' if card == 12 else card}.")
            stopped = _click_card(page, twos, 13)
            assert "Did you count Q itself, or stop at K?" in stopped
            _shoot(page, shots, "counting-clock-twos-slip", twos)
            assert _click_card(page, twos, 1).startswith("✓ A. From Q: K, A.")
            box_size = twos.locator(".calcnb-counting-clock").bounding_box()
            assert box_size["width"] >= 300 and box_size["x"] + box_size["width"] <= 1366
            assert _answer(page, database, 0, _right(database, "ana", "count-ones")).startswith("✓ Right")
            assert _answer(page, database, 1, "A").startswith("✓ Right: from Q, move on two cards: K, A")

        # bia slips in each way on "after Q in twos", and types odd things
        with _students_page(browser, url, "bia") as (page, recorder, box):
            box.press("Enter")
            recorder.get_by_text("Joined as bia").wait_for()
            said = _answer(page, database, 1, "K")
            assert said.startswith("✗ Not K:") and "stop at K" in said
            assert "there is no card 14 on the clock" in _answer(page, database, 1, "14")
            assert _answer(page, database, 1, "²").startswith("?")
            assert _answer(page, database, 1, "").startswith("?")
            assert _answer(page, database, 1, PARAGRAPH).startswith("?")
            _shoot(page, shots, "counting-exercise-odd", page.locator(".calcnb-exercise").nth(1))
            threes = page.locator(".calcnb-exercise").nth(3)
            assert "Which card comes after" in threes.inner_text()

        # caio forgets to go round, then has the answer shown
        with _students_page(browser, url, "caio") as (page, recorder, box):
            box.press("Enter")
            recorder.get_by_text("Joined as caio").wait_for()
            assert "there is no card 14" in _answer(page, database, 1, "14")
            exercise = page.locator(".calcnb-exercise").nth(1)
            recorded = open_class_log(database).count()
            exercise.get_by_role("button", name="Show answer").click()
            _wait_for_rows(database, recorded + 1)
            exercise.get_by_text("The answer is A").wait_for()

    log = open_class_log(database)
    rows, students = log.attempts(), log.students()
    log.close()
    assert students == ["ana", "bia", "caio"]
    outcomes = [(row["nickname"], row["exercise_id"], row["outcome"], row["misconception"]) for row in rows]
    assert outcomes == [
        ("ana", "count-ones", "right", None),
        ("ana", "count-twos-queen", "right", None),
        ("bia", "count-twos-queen", "wrong", "stops_at_king"),
        ("bia", "count-twos-queen", "wrong", "no_wraparound"),
        ("bia", "count-twos-queen", "unreadable", None),
        ("bia", "count-twos-queen", "unreadable", None),
        ("bia", "count-twos-queen", "unreadable", None),
        ("caio", "count-twos-queen", "wrong", "no_wraparound"),
        ("caio", "count-twos-queen", "revealed", None),
    ]
    stats = exercise_stats(rows, LESSON.exercises)
    assert [item.exercise_id for item in stats] == ["count-ones", "count-twos-queen"]
    assert class_status(students, rows).not_started == []

    with calcnb_serving("class-view", str(database), log=tmp_path / "view.log") as view_port:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        context.set_default_timeout(120_000)
        page = context.new_page()
        try:
            page.goto(f"http://{LOCALHOST}:{view_port}/", wait_until="domcontentloaded")
            view = page.locator(".calcnb-class-view")
            view.get_by_text("3 joined, 3 answering, 8 answers checked").wait_for()
            queen = view.locator("tr.calcnb-exercise[data-exercise='count-twos-queen']")
            label = queen.locator("th").inner_text().strip()
            assert label == exercise_label("count-twos-queen", lesson("counting").exercises, BANK)
            assert label == "2. Counting in twos: which card comes after Q?"  # a title in the style of the others
            cells = [text.strip() for text in queen.locator("td").all_inner_texts()]
            assert cells[:5] == ["3", "1", "1", "7", "3"]  # tried, right, answer shown, checks, unreadable
            assert f"{misconception_label('no_wraparound', BANK)}: 67% (2)" in cells[5]
            assert f"{misconception_label('stops_at_king', BANK)}: 33% (1)" in cells[5]
            ones = view.locator("tr.calcnb-exercise[data-exercise='count-ones'] th").inner_text()
            assert ones.startswith("1. Counting in ones")
            summary = view.locator("tr.calcnb-student[data-nickname='ana']")
            # right 2, wrong 0, unreadable 0, shown 0, not tried: the lesson's other 6 exercises
            assert [text.strip() for text in summary.locator("td").all_inner_texts()][:5] == ["2", "0", "0", "0", "6"]
            page.screenshot(path=shots / "counting-class-view.png", full_page=True)
        finally:
            context.close()
