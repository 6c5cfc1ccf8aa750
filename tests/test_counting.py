"""The lesson "Counting in steps": its exercises name each slip, its clock face steps where the game's rule says,
its worksheet matches the screens, and the catalogue lists it with the command that serves it."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from widget_support import open_models

from calcnb import set_language
from calcnb.exercises.items import gives_away, judge
from calcnb.game.cards import RANK_COUNT, foundation_order, next_rank, rank_name
from calcnb.lessons import BANK, LESSONS, MISCONCEPTIONS, lesson, lesson_for, lesson_index, lesson_of
from calcnb.lessons.counting import exercises as counting
from calcnb.lessons.counting.widgets import CLOCK_TEMPLATE, CountingClock, clock_at, clock_point, draw_clock

WRAPAROUND = lesson("wraparound")  # the clock of 13

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _reference_next(top: int, step: int) -> int:
    """The rule as the seed states it, written out here apart from the engine: count on, and past K go round."""
    total = top + step
    return total - RANK_COUNT if total > RANK_COUNT else total


def _every_item(exercise_id: str):
    return [BANK[exercise_id].item(variant) for variant in range(len(BANK[exercise_id].variants))]


# ---------------------------------------------------------------- the exercises and their slips


def test_the_lesson_is_a_list_of_exercises_and_the_clock_of_13_keeps_its_numbering():
    assert [known.name for known in LESSONS] == ["counting", "02_wraparound", "evidence"]
    assert [known.key for known in LESSONS] == ["counting", "wraparound", "evidence"]
    assert lesson("02_wraparound") is lesson("wraparound") is WRAPAROUND
    assert WRAPAROUND.exercises[0] == "clock" and len(WRAPAROUND.exercises) == 10  # 1 to 10, unchanged
    assert lesson("counting.ipynb").exercises == counting.ORDER
    assert len(counting.ORDER) == 8 and not set(counting.ORDER) & set(WRAPAROUND.exercises)
    assert lesson_of("count-twos-queen").name == "counting" and lesson_of("fits-buried").key == "rules_example"
    assert lesson_for(["count-on", "count-ones", "clock"]).name == "counting"
    assert lesson_for(["no-such-exercise"]) is None
    with pytest.raises(KeyError, match="counting, wraparound, evidence"):
        lesson("nope")


def test_every_answer_is_where_the_rule_lands_and_is_judged_right():
    for exercise_id in counting.ORDER:
        for item in _every_item(exercise_id):
            assert judge(item, item.solution).correct is True, item
            assert all(misconception in MISCONCEPTIONS for misconception, _reason in item.wrong.values())
    for item in _every_item("count-ones") + _every_item("count-twos") + _every_item("count-threes"):
        start, step = BANK[item.exercise_id].variants[item.variant]
        assert item.accepted == {_reference_next(start, step)}
    for variant, (start, step, times) in enumerate(BANK["count-on"].variants):
        landed = start
        for _ in range(times):
            landed = _reference_next(landed, step)
        assert BANK["count-on"].item(variant).accepted == {landed}
    # the 13th card said, counting from the step itself, is K on every foundation: found by counting
    assert {item.solution for item in _every_item("count-thirteenth")} == {"K"}


def test_after_q_in_twos_is_the_ace_and_each_slip_is_named():
    (item,) = _every_item("count-twos-queen")
    assert item.question == "Count in twos round the clock. Which card comes after Q?"
    assert judge(item, "A").correct and judge(item, "ace").correct and judge(item, "1").correct
    stopped = judge(item, "K")
    assert stopped.misconception == "stops_at_king" and "Did you count Q itself, or stop at K?" in stopped.text
    no_round = judge(item, "14")
    assert no_round.misconception == "no_wraparound" and "there is no card 14" in no_round.text
    assert judge(item, "0").misconception == "zero_not_on_clock"
    assert judge(item, "J").correct is False  # counted backwards: wrong, with the hint to move on two cards
    assert "move it on two cards" in judge(item, "J").text


@pytest.mark.parametrize(
    ("exercise_id", "start", "typed", "misconception", "said"),
    [
        # Q + 3: counting Q itself lands on A; stopping at 13 on K; not going round on 15
        ("count-threes", 12, "A", "counting_the_start", "you counted Q itself as the first card"),
        ("count-threes", 12, "K", "stops_at_king", "the count does not stop at K"),
        ("count-threes", 12, "15", "no_wraparound", "there is no card 15 on the clock"),
        ("count-threes", 12, "K♠", None, None),  # a card with its suit is no rank: not read, never wrong
        ("count-fours", 11, "A", "counting_the_start", "you counted J itself"),
        ("count-fours", 11, "Q", "wrong_step", "that is counting in ones"),
        ("count-fours", 11, "3", "off_by_one", "one card too far"),
        ("count-twos", 13, "A", "counting_the_start", "you counted K itself"),
        ("count-twos", 13, "15", "no_wraparound", "there is no card 15"),
        ("count-ones", 13, "K", "stops_at_king", "does not stop at K"),
        ("count-ones", 13, "14", "no_wraparound", "there is no card 14"),
    ],
)
def test_the_feedback_names_the_slip(exercise_id, start, typed, misconception, said):
    kind = BANK[exercise_id]
    variant = next(index for index, values in enumerate(kind.variants) if values[0] == start)
    verdict = judge(kind.item(variant), typed)
    if misconception is None:
        assert verdict.correct is None
        return
    assert verdict.correct is False and verdict.misconception == misconception
    assert said in verdict.text


def test_counting_on_several_times_names_each_slip():
    kind = BANK["count-on"]
    variant = kind.variants.index((6, 2, 4))  # 6 → 8 → 10 → Q → A
    item = kind.item(variant)
    assert item.solution == "A" and item.why == "6 → 8 → 10 → Q → A: you land on A"
    assert judge(item, "Q").misconception == "counting_the_start"  # three steps, 6 counted as the first
    assert judge(item, "K").misconception == "stops_at_king"
    assert judge(item, "14").misconception == "no_wraparound"
    to_king = BANK["count-to-king"]
    item = to_king.item(to_king.variants.index((8, 3)))  # 8 → J → A → 4 → 7 → 10 → K
    assert item.solution == "6"
    assert judge(item, "7").misconception == "counting_the_start"
    assert judge(item, "1").misconception == "stops_at_king"  # one step, then the count would pass K
    item = to_king.item(to_king.variants.index((2, 4)))  # 2 → 6 → 10 → A → 5 → 9 → K
    assert item.solution == "6"
    assert judge(item, "2").misconception == "stops_at_king"  # two steps, then the count would pass K
    assert judge(item, "11").misconception == "wrong_step"  # 13 − 2 steps of one
    assert judge(item, "5").misconception == "off_by_one"


def test_the_thirteenth_card_feedback_never_says_k():
    for item in _every_item("count-thirteenth"):
        step = BANK["count-thirteenth"].variants[item.variant][0]
        assert judge(item, str(step * RANK_COUNT)).correct is (step == 1 or False)
        for typed in ("0", "Q", str(step * RANK_COUNT), "A"):
            verdict = judge(item, typed)
            if verdict.correct is False:
                assert not re.search(r"(?<!\w)K(?!\w)", verdict.text.split(":", 1)[1]), verdict.text


@pytest.mark.parametrize("language", ["en", "pt"])
def test_no_wrong_answer_feedback_names_the_answer_and_odd_text_is_never_right(language):
    set_language(language)
    try:
        for exercise_id in counting.ORDER:
            for item in _every_item(exercise_id):
                for reading in item.wrong:
                    verdict = judge(item, str(reading))
                    assert verdict.correct is False and not gives_away(item, verdict.text.split(":", 1)[1])
                for odd in ("", "²", "K" * 3, "I think it is the card after the one after the queen, maybe? " * 3):
                    assert judge(item, odd).correct is None
    finally:
        set_language("en")


def test_portuguese_answers_are_read():
    set_language("pt")
    try:
        (item,) = _every_item("count-twos-queen")
        assert item.question == "Conta de dois em dois à volta do relógio. Que carta vem depois de Q?"
        assert judge(item, "ás").correct and judge(item, "o ás").correct
        assert judge(item, "rei").misconception == "stops_at_king"
    finally:
        set_language("en")


# ---------------------------------------------------------------- the clock face


def _angle(point: tuple[float, float]) -> float:
    return math.atan2(point[1], point[0]) % (2 * math.pi)


def _from_the_page(clock: CountingClock, event: str, data: object) -> None:
    """What the page sends when a person clicks: ipyvue's event message, handled as the kernel handles it."""
    clock._handle_event(None, {"event": event, "data": data}, [])


def _click_point(rank: int, width: float) -> dict[str, object]:
    """A click on ``rank``'s disc, in CSS pixels of the picture's box shown ``width`` wide, as the page measures it."""
    x, y = clock_point(rank)
    return {"type": "click", "x": (x + 1.32) / 2.64 * width, "y": (1.32 - y) / 2.64 * width, "width": width,
            "height": width}  # fmt: skip


# The first and the last step in the fast tier (the count of one, the longest jump); the others in the full run.
@pytest.mark.parametrize(
    "step",
    [
        step if step in (counting.STEPS[0], counting.STEPS[-1]) else pytest.param(step, marks=pytest.mark.slow)
        for step in counting.STEPS
    ],
)
def test_every_step_on_the_clock_face_lands_where_next_rank_says(step):
    clock = CountingClock(step=step)
    while not clock.done:
        top = clock.said[-1]
        assert clock.click_rank(next_rank(top, step)).correct is True
        assert clock.said[-1] == _reference_next(top, step)
    assert clock.said == list(foundation_order(step))  # the order of foundation +step, K the 13th
    figure = draw_clock(step, clock.said)
    arcs = [line for line in figure.axes[0].get_lines() if (line.get_gid() or "").startswith("step ")]
    assert len(arcs) == RANK_COUNT - 1
    for line, start, end in zip(arcs, clock.said, clock.said[1:]):
        assert line.get_gid() == f"step {rank_name(start)}>{rank_name(end)}"
        xs, ys = line.get_data()
        assert end == next_rank(start, step)
        # the arc leaves from the card counted from and ends pointing at the card landed on
        assert math.isclose(_angle((xs[0], ys[0])), _angle(clock_point(start)), abs_tol=1e-9)
        assert math.isclose(_angle((xs[-1], ys[-1])), _angle(clock_point(end)), abs_tol=1e-9)
        # and it goes round clockwise past exactly `step` cards
        swept = (math.atan2(ys[0], xs[0]) - math.atan2(ys[-1], xs[-1])) % (2 * math.pi)
        assert math.isclose(swept, 2 * math.pi * step / RANK_COUNT, abs_tol=1e-9)


def test_a_click_picks_the_card_under_it_and_a_wrong_one_changes_nothing():
    for rank in range(1, RANK_COUNT + 1):
        assert clock_at(*clock_point(rank)) == rank
    assert clock_at(0, 0) is None
    clock = CountingClock(step=2)
    for rank in (4, 6, 8, 10, 12):
        clock.click_rank(rank)
    before = list(clock.said)
    stopped = clock.click_rank(13)
    assert stopped.correct is False and stopped.misconception == "stops_at_king" and clock.said == before
    assert "Not K" in clock.message
    assert clock.click_at(0, 0).correct is None and clock.said == before
    # a click in the browser, in the picture's pixels: the A's disc, on a picture shown 300 px wide
    _from_the_page(clock, "board", _click_point(1, 300))
    assert clock.said == [*before, 1] and clock.message.startswith("✓ A. From Q: K, A.")
    assert "A, 2" not in clock.alt_text() and clock.alt_text().endswith("2, 4, 6, 8, 10, Q, A.")
    assert clock.picture_alt == clock.alt_text()  # what a screen reader reads of the picture


def test_a_click_on_the_picture_counts_whatever_its_size_and_a_slip_is_shown():
    for width in (414.0, 320.5, 250.0):  # as drawn, on a tablet, on a phone
        clock = CountingClock(step=3)
        _from_the_page(clock, "board", _click_point(6, width))
        assert clock.said == [3, 6] and clock.message.startswith("✓ 6. From 3: 4, 5, 6."), width
        right = clock.png
        _from_the_page(clock, "board", _click_point(8, width))  # one card short of 9
        assert clock.said == [3, 6] and clock.message.startswith("✗ Not 8:") and clock.wrong == 8
        assert clock.png != right and clock.picture_src.startswith("data:image/png;base64,")
        _from_the_page(clock, "board", {**_click_point(6, width), "x": width / 2, "y": width / 2})  # the middle
        assert clock.message == "Click on one of the cards of the clock." and clock.said == [3, 6]
    # a double-click is its two clicks (each counts as a click does); the double-click itself adds nothing
    clock = CountingClock(step=1)
    for kind in ("click", "click", "dblclick"):
        _from_the_page(clock, "board", {**_click_point(2, 414), "type": kind})
    assert clock.said == [1, 2] and "you counted 2 itself" in clock.message


def test_a_garbled_click_from_the_page_does_nothing():
    clock = CountingClock(step=2)
    said = clock.message
    for data in (None, "card-4", [1, 2], {}, {"x": "a", "y": 1, "width": 3}, {"x": 1, "y": 1, "width": 0},
                 {"x": 1, "y": 1, "width": -5}, {"x": 1, "y": 1}):  # fmt: skip
        _from_the_page(clock, "board", data)
    for hostile in ("nonsense", "card-14", "4", None, 4, ["card-4"], "__init__"):
        _from_the_page(clock, "press", hostile)
    assert clock.said == [2] and clock.message == said


def test_the_keyboard_counts_as_a_click_does():
    # A card's button is a real <button>, which the keyboard focuses and presses (Enter, Space): the page sends
    # its name, and the count goes on as a click on the card's disc does.
    by_keys, by_mouse = CountingClock(step=4), CountingClock(step=4)
    for rank in (8, 12, 3, 6):  # three right (Q, K, A, 2, 3), then one wrong
        _from_the_page(by_keys, "press", f"card-{rank}")
        _from_the_page(by_mouse, "board", _click_point(rank, 414))
        assert (by_keys.said, by_keys.message, by_keys.png) == (by_mouse.said, by_mouse.message, by_mouse.png)
    assert by_keys.said == [4, 8, 12, 3] and by_keys.wrong == 6
    _from_the_page(by_keys, "press", "step-1")
    assert by_keys.step == 1 and by_keys.said == [1] and by_keys.step_choice.value == 1
    _from_the_page(by_keys, "press", "again")
    assert by_keys.said == [1]
    # every button is drawn with its words, in a group named by its label; the step chosen says it is pressed
    assert [by_keys.buttons[rank].description for rank in range(1, RANK_COUNT + 1)] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"
    ]  # fmt: skip
    assert [by_keys.controls[f"step-{k}"]["text"] for k in counting.STEPS] == ["ones", "twos", "threes", "fours"]
    assert [by_keys.controls[f"step-{k}"]["pressed"] for k in counting.STEPS] == ["true", "false", "false", "false"]
    assert by_keys.again.description == "Start again" and by_keys.buttons[13].css_class == "calcnb-btn-card-13"
    assert "calcnb-card-13" in by_keys.controls["card-13"]["cls"].split()
    for part in ("in ['card-1', 'card-2',", "in ['step-1', 'step-2', 'step-3', 'step-4']", "press('again')",
                 'role="group" :aria-label="cards_label"', 'role="group" :aria-label="step_label"',
                 ':aria-pressed="controls[name].pressed"', 'role="status"', ':alt="picture_alt"'):  # fmt: skip
        assert part in CLOCK_TEMPLATE, part
    assert CLOCK_TEMPLATE.count("<button ") == 3 and CLOCK_TEMPLATE.count('@click="press(') == 3


def test_the_clock_is_one_widget_with_no_ipyevents():
    before = set(open_models())
    clock = CountingClock(step=2)
    new = [widget for key, widget in open_models().items() if key not in before]
    assert sorted(type(widget).__name__ for widget in new) == ["CountingClock", "Layout"]
    assert clock in new and clock._model_module == "jupyter-vue"
    assert '<div class="calcnb-board calcnb-counting-clock" @click="on_board($event, \'click\')">' in CLOCK_TEMPLATE
    # no widget takes its clicks through ipyevents, whose front end the class server (Solara) cannot load
    package = Path(sys.modules["calcnb"].__file__).parent
    assert [path.name for path in package.rglob("*.py") if "ipyevents" in path.read_text(encoding="utf-8")] == []


def test_the_card_buttons_and_the_step_choice_count_as_the_picture_does():
    clock = CountingClock(step=1)
    clock.buttons[2].click()
    assert clock.said == [1, 2]
    clock.step_choice.value = 3
    assert clock.step == 3 and clock.said == [3]
    clock.buttons[5].click()  # counted 3 itself: one card short of 6
    assert clock.said == [3] and "you counted 3 itself" in clock.message
    clock.buttons[6].click()
    clock.again.click()
    assert clock.said == [3]
    with pytest.raises(ValueError, match="not 5"):
        clock.restart(5)


# ---------------------------------------------------------------- the worksheet, the notebooks and the index


def test_the_worksheet_numbers_the_questions_as_the_screen_does():
    pytest.importorskip("pypdf")
    import io

    from pypdf import PdfReader

    from calcnb.exercises.worksheet import answer_sheet_pdf, worksheet_pdf
    from calcnb.ui.lesson import Quiz

    quiz = Quiz(BANK, seed="Ana", class_key="key")
    quiz.show(*counting.ORDER)
    screen = [re.sub(r"<[^>]+>", "", exercise.prompt.value) for exercise in quiz.exercises]
    sheet = worksheet_pdf(lesson("counting"), ["Ana"], class_key="key")
    answers = answer_sheet_pdf(lesson("counting"), ["Ana"], class_key="key")
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(sheet)).pages)
    answer_text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(answers)).pages)
    assert "Counting in steps — worksheet" in text and "Counting in steps — answers" in answer_text
    for number, (shown, item) in enumerate(zip(screen, BANK.student_items("Ana", counting.ORDER, "key")), 1):
        assert shown == f"{number}. {item.question}"
        assert " ".join(shown.split()) in text
        assert f"Answer: {item.solution}." in answer_text


def test_the_lesson_index_lists_every_lesson_with_its_command():
    index = lesson_index()
    for number, known in enumerate(LESSONS, start=1):
        assert f"{number}. {known.title} ({known.ages_text()}, {known.minutes_text()}" in index
        assert known.command() in index and (NOTEBOOKS / known.notebook).exists()
        assert (NOTEBOOKS / known.teacher_notebook).exists() and (NOTEBOOKS / "pt" / known.notebook).exists()
    shown = subprocess.run(
        [sys.executable, "-m", "calcnb", "lessons"], capture_output=True, text=True, check=True
    ).stdout
    from calcnb.serve.cli.workspace import default_workspace

    workspace = default_workspace().as_posix()  # the teacher's notes as ``calcnb lab`` copies them for the teacher
    assert shown.startswith(lesson_index(notebooks=workspace)) and f"{workspace}/teacher/" in shown
    assert "1. Counting in steps (ages 9–11, about 40 minutes, 8 exercises)" in index
    assert "2. The clock of 13 (ages 12–15, about 45 minutes, 10 exercises)" in index


def test_the_portuguese_lesson_index_points_to_the_portuguese_teachers_notes():
    set_language("pt")
    try:
        index = lesson_index()
    finally:
        set_language("en")
    for known in LESSONS:
        assert f"notebooks/pt/{known.teacher_notebook}" in index
        assert (NOTEBOOKS / "pt" / known.teacher_notebook).exists()


def test_the_readme_groups_the_lessons_by_age_and_the_teacher_notebooks_link_to_one_another():
    readme = (NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
    for known in LESSONS:
        assert f"Ages {known.ages[0]}–{known.ages[1]}" in readme and known.command() in readme
    for known in LESSONS:
        notebook = json.loads((NOTEBOOKS / known.teacher_notebook).read_text(encoding="utf-8"))
        prose = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
        for other in LESSONS:
            if other is not known:
                assert f"({Path(other.teacher_notebook).name})" in prose


def test_the_student_pages_carry_no_answer_key_and_the_teacher_notes_do():
    for name in ("counting.ipynb", "pt/counting.ipynb"):
        notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        text = json.dumps([cell["source"] for cell in notebook["cells"]]) + json.dumps(
            [cell.get("outputs", []) for cell in notebook["cells"]]
        )
        for words in ("Answer:", "Resposta:", "answer_key", "Teacher", "Professor", "ends on K", "acabam no K"):
            assert words not in text, (name, words)
    teacher = (NOTEBOOKS / "teacher" / "counting_teacher.ipynb").read_text(encoding="utf-8")
    assert "Answer: A. from Q, move on two cards: K, A" in teacher and "stops at 13 (K)" in teacher
