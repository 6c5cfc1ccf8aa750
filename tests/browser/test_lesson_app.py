"""The lesson as a class meets it (notebooks/02_wraparound.ipynb served by Voila and by the class server): no answers
on the page, own questions, feedback for wrong, odd and right answers; and the Portuguese twin in Portuguese."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from calcnb import set_language
from calcnb.lessons import BANK, lesson

WRAPAROUND = lesson("wraparound")  # the clock of 13

pytestmark = pytest.mark.browser

# Screenshots land here when CALCNB_SHOTS names a folder (to look at them); otherwise in pytest's tmp_path.
SHOTS = os.environ.get("CALCNB_SHOTS")


def _every_item(language: str = "en"):
    set_language(language)
    try:
        return [BANK[key].item(variant) for key in WRAPAROUND.exercises for variant in range(len(BANK[key].variants))]
    finally:
        set_language("en")


# Each exercise's question, less its number ("3. "), which _NUMBERS reads.
_QUESTIONS = """() => [...document.querySelectorAll('.calcnb-exercise')]
    .map(exercise => exercise.querySelector('.widget-html').innerText.trim().replace(/^\\d+\\. /, ''))"""
_NUMBERS = """() => [...document.querySelectorAll('.calcnb-exercise')]
    .map(exercise => exercise.querySelector('.widget-html').innerText.trim().split('.')[0])"""


class LessonApp:
    """The lesson page: its exercises (each a question, an answer box, Check, Show answer, feedback)."""

    def __init__(self, page: Page, url: str, check: str) -> None:
        self.page = page
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(url, wait_until="domcontentloaded")
        self.exercises = page.locator(".calcnb-exercise")
        page.wait_for_function(
            "count => document.querySelectorAll('.calcnb-exercise').length === count", arg=len(WRAPAROUND.exercises)
        )
        self.check = check

    def text(self) -> str:
        return self.page.locator("body").inner_text()

    def questions(self) -> list[str]:
        """Each exercise's question, less its number ("3. "), as _QUESTIONS reads them."""
        return self.page.evaluate(_QUESTIONS)

    def answer(self, index: int, text: str, *, enter: bool = False) -> str:
        """Type ``text`` in exercise ``index``, press Check (or Enter), and return the feedback of that very check."""
        exercise = self.exercises.nth(index)
        feedback = exercise.locator(".calcnb-feedback")
        checks = feedback.locator("[data-check]")
        before = checks.first.get_attribute("data-check") if checks.count() else "0"
        box = exercise.locator("input")
        box.fill(text)
        if enter:
            box.press("Enter")
        else:
            box.press("Tab")  # the box sends its value when it loses focus
            exercise.locator("button.jupyter-button", has_text=self.check).click()
        number = int(before.split("-")[0]) + 1
        feedback.locator(f"[data-check='{number}']").wait_for()
        return feedback.inner_text().strip()

    def shoot(self, folder: Path, name: str, index: int | None = None) -> Path:
        """A screenshot of what the screen shows (with exercise ``index`` in the middle, when given)."""
        if index is not None:
            self.exercises.nth(index).evaluate("node => node.scrollIntoView({block: 'center'})")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


def _shots(tmp_path: Path) -> Path:
    return Path(SHOTS) if SHOTS else tmp_path


def test_the_lesson_app_shows_no_answer_and_judges_wrong_odd_and_right_answers(page, app_server, tmp_path):
    app = LessonApp(page, app_server.page_url("02_wraparound.ipynb"), "Check")
    shots = _shots(tmp_path)
    app.shoot(shots, "lesson-en-top")
    text = app.text()
    # No answer key: no teacher's notes, no "Answer:" lines, and no exercise's reasoning anywhere on the page.
    for words in ("Teacher", "Answer:", "The answer is"):
        assert words not in text
    shown = app.questions()
    items = {item.question: item for item in _every_item()}
    assert all(question in items for question in shown)
    for question in shown:
        assert items[question].why not in text
    # Show answer waits for an attempt.
    first = app.exercises.nth(0)
    show = first.locator("button.jupyter-button", has_text="Show answer")
    expect(show).to_be_hidden()

    # A name gives the student their own questions.
    page.locator("input[placeholder='your nickname']").fill("Ana")
    page.locator("button.jupyter-button", has_text="My questions").click()
    ana = [item.question for item in WRAPAROUND.student_items("Ana")]
    page.wait_for_function(f"expected => JSON.stringify(({_QUESTIONS})()) === JSON.stringify(expected)", arg=ana)
    assert app.questions() == ana
    # numbered as on the worksheet and in the teacher's key: 1 to 10, in the order of WRAPAROUND.exercises
    assert page.evaluate(_NUMBERS) == [str(number) for number in range(1, len(WRAPAROUND.exercises) + 1)]
    clock = WRAPAROUND.student_items("Ana")[0]

    said = app.answer(0, "0")
    assert said.startswith("✗ Not 0") and "no 0" in said
    expect(show).to_be_visible()  # the button is its own widget: its message may follow the verdict's
    for odd in ("²", "--5", "a whole paragraph of text " * 20):
        said = app.answer(0, odd)
        assert said.startswith("?") and "whole number" in said
    said = app.answer(0, "99")
    assert said.startswith("✗ Not 99") and "past 13" in said
    app.shoot(shots, "lesson-en-wrong", 0)
    show.click()
    page.wait_for_function(
        "node => node.innerText.startsWith('The answer is')", arg=first.locator(".calcnb-feedback").element_handle()
    )
    said = app.answer(0, clock.solution.split()[0])
    assert said.startswith("✓ Right")
    expect(show).to_be_hidden()  # nothing left to show
    complete = WRAPAROUND.exercises.index("to-complete")
    app.exercises.nth(complete).scroll_into_view_if_needed()
    still = WRAPAROUND.student_items("Ana")[complete]
    said = app.answer(complete, "13")  # more cards than any foundation holds
    assert said.startswith("✗ Not 13") and "13 cards" in said
    assert app.answer(complete, still.solution).startswith("✓ Right")
    app.shoot(shots, "lesson-en-complete", complete)
    assert not [line for line in page.console_messages if line.startswith("pageerror")]


def test_the_portuguese_lesson_app_speaks_portuguese(page, app_server, tmp_path):
    app = LessonApp(page, app_server.page_url("pt/02_wraparound.ipynb"), "Verificar")
    shots = _shots(tmp_path)
    text = app.text()
    assert "O relógio de 13" in text and "congruentes módulo 13" in text
    buttons = [label.strip() for label in page.locator("button.jupyter-button").all_inner_texts()]
    assert "Verificar" in buttons and "As minhas perguntas" in buttons
    assert "Check" not in buttons and "My questions" not in buttons
    assert "Resposta:" not in text and "A resposta é" not in text
    portuguese = {item.question for item in _every_item("pt")}
    assert all(question in portuguese for question in app.questions())
    said = app.answer(0, "²")
    assert said.startswith("?") and "número inteiro" in said
    said = app.answer(0, "0", enter=True)  # Enter in the box checks, as Verificar does
    assert said.startswith("✗ Não é 0")
    app.shoot(shots, "lesson-pt-wrong", 0)


def test_show_answer_is_refused_until_an_answer_was_read_and_judged_wrong(page, app_server):
    """A student presses Show answer before answering, after an empty check and after an unreadable one:
    each time it is refused and no answer reaches the page; after a wrong answer it shows the answer."""
    app = LessonApp(page, app_server.page_url("02_wraparound.ipynb"), "Check")
    first = app.exercises.nth(0)
    show = first.locator("button.calcnb-show")
    feedback = first.locator(".calcnb-feedback")
    item = next(item for item in _every_item() if item.question == app.questions()[0])
    for typed in (None, "", "²"):
        if typed is not None:
            assert app.answer(0, typed).startswith("?")
        expect(show).to_be_hidden()
        checks = 0 if typed is None else {"": 1, "²": 2}[typed]
        show.dispatch_event("click")  # the hidden button, pressed all the same (as a page's script can)
        feedback.locator(f"[data-check='{checks}-refused']").wait_for()
        said = feedback.inner_text()
        assert "try an answer first" in said
        assert item.why not in app.text() and not said.startswith("The answer is")
    said = app.answer(0, "0")
    assert said.startswith("✗ Not 0")
    expect(show).to_be_visible()
    show.click()
    feedback.locator("[data-check='3-answer']").wait_for()
    assert feedback.inner_text().startswith(f"The answer is {item.solution}")
    assert not [line for line in page.console_messages if line.startswith("pageerror")]


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@pytest.mark.parametrize("language", ["en", "pt"])
def test_right_answers_typed_in_several_forms_are_accepted(page, app_server, language):
    """A student writes right answers as students do: 7.0, x = 7, in quotes, with a full stop, as an ordinal
    place, a rank as its letter or its number with the letter (and 7,0 and 7.º in Portuguese)."""
    notebook, check = {"en": ("02_wraparound.ipynb", "Check"), "pt": ("pt/02_wraparound.ipynb", "Verificar")}[language]
    app = LessonApp(page, app_server.page_url(notebook), check)
    items = {item.question: item for item in _every_item(language)}
    questions = app.questions()
    right = {"en": "✓ Right", "pt": "✓ Certo"}[language]
    clock = items[questions[WRAPAROUND.exercises.index("clock")]]
    (value,) = clock.accepted
    forms = [f"{value}.0", f"x = {value}", f'"{value}"', f"{value}."]
    forms += [f"{value},0"] if language == "pt" else []
    for typed in forms:
        assert app.answer(0, typed).startswith(right), typed
    place_index = WRAPAROUND.exercises.index("position")
    (place,) = items[questions[place_index]].accepted
    app.exercises.nth(place_index).scroll_into_view_if_needed()
    for typed in [_ordinal(place)] if language == "en" else [f"{place}.º", f"{place}º"]:
        assert app.answer(place_index, typed).startswith(right), typed
    nth_index = WRAPAROUND.exercises.index("nth-card")
    item = items[questions[nth_index]]
    (rank,) = item.accepted
    letter = item.solution.split()[0]  # "J (11)" or "7"
    app.exercises.nth(nth_index).scroll_into_view_if_needed()
    for typed in {str(rank), letter, f"{rank} ({letter})" if letter != str(rank) else f"{rank}!"}:
        assert app.answer(nth_index, typed).startswith(right), typed
