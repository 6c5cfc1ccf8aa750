"""Pacing in the browser: a teacher and three pupils, the lesson ``02_wraparound`` served with ``--class-log`` on the
class server in English and on Voila in Portuguese, the teacher's class view on a server of its own.

The teacher sets "up to exercise 2" in the class view: every pupil's page stops at 2, and so does a page opened
late. "Eyes on the board" covers every page and holds every exercise, keeping what each pupil typed; "Carry on"
lets every page go on where it was. A pupil's page has no control over it, and the pupils' server, asked with a
pupil's own cookies, serves none of the teacher's pages.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

import calcnb.classroom.recorder  # its words, for message()
import calcnb.lessons  # noqa: F401  (the lessons' words)
from calcnb.i18n import get_language, message, set_language
from calcnb.serve.shared.settings import LOCALHOST, MAX_PAGES

from .pages import calcnb_serving

pytestmark = [pytest.mark.browser]

NICKNAMES = ("ana", "bia", "caio")
WAIT = 30_000  # ms: a page reads the pacing every two seconds


def _words(lang: str, key: str, **values: object) -> str:
    before = get_language()
    set_language(lang)
    try:
        return message(key, **values)
    finally:
        set_language(before)


def _pupil(browser, url: str, lang: str, nickname: str | None):
    """A pupil's page at a laptop's size, joined under ``nickname`` (None: not joined): (context, page)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded")
    recorder = page.locator(".calcnb-class-recorder")
    recorder.wait_for(state="visible")
    page.locator(".calcnb-exercise").nth(2).wait_for()
    if nickname is not None:
        box = recorder.locator("input[type=text]").first
        box.fill(nickname)
        box.press("Enter")
        joined = _words(lang, "classroom.joined", nickname=nickname, code="").split(":")[0]
        recorder.get_by_text(joined).wait_for()
    return context, page


def _answer_boxes(page):
    return [page.locator(".calcnb-exercise").nth(index).locator("input[type=text]") for index in range(3)]


@pytest.mark.parametrize(("server", "lang"), [("solara", "en"), ("voila", "pt")])
def test_the_teacher_paces_and_pauses_every_pupils_page(browser, tmp_path, server, lang):
    database = str(tmp_path / "lesson.db")
    app = (
        "app",
        "02_wraparound",
        "--server",
        server,
        "--class-log",
        database,
        "--lang",
        lang,
        "--max-pages-per-device",
        str(MAX_PAGES),
    )  # fmt: skip (a class's pages from this one machine)
    with contextlib.ExitStack() as stack:
        port = stack.enter_context(calcnb_serving(*app, log=tmp_path / "app.log"))
        view = ("class-view", database, "--lang", lang)
        view_port = stack.enter_context(calcnb_serving(*view, log=tmp_path / "view.log"))
        url = f"http://{LOCALHOST}:{port}/"
        pupils = []
        for nickname in NICKNAMES:
            context, page = _pupil(browser, url, lang, nickname)
            stack.callback(context.close)
            pupils.append(page)
        teacher_context = browser.new_context(viewport={"width": 1366, "height": 768})
        teacher_context.set_default_timeout(120_000)
        stack.callback(teacher_context.close)
        teacher = teacher_context.new_page()
        teacher.goto(f"http://{LOCALHOST}:{view_port}/", wait_until="domcontentloaded")
        choice = teacher.locator(".calcnb-pace-choice select")
        choice.wait_for()
        choice.select_option(label=_words(lang, "classview.pace.up_to", number=2))
        not_open = _words(lang, "classroom.not_open")
        for page in pupils:
            first, second, third = _answer_boxes(page)
            expect(third).to_be_disabled(timeout=WAIT)
            expect(first).to_be_enabled()
            expect(second).to_be_enabled()
            expect(page.locator(".calcnb-exercise").nth(2).locator(".calcnb-held")).to_contain_text(not_open)
            assert page.locator(".calcnb-exercise").nth(1).locator(".calcnb-held").is_hidden()
        # A pupil who opens the page late starts at the class's pacing, before joining and after.
        context, late = _pupil(browser, url, lang, None)
        stack.callback(context.close)
        pupils.append(late)
        expect(_answer_boxes(late)[2]).to_be_disabled(timeout=WAIT)
        expect(_answer_boxes(late)[1]).to_be_enabled()
        # What each pupil has typed, not yet checked, stays through "Eyes on the board".
        for index, page in enumerate(pupils):
            _answer_boxes(page)[0].fill(f"1{index}")
        teacher.get_by_role("button", name=_words(lang, "classview.pace.pause")).click()
        eyes = _words(lang, "classroom.eyes")
        for index, page in enumerate(pupils):
            cover = page.locator(".calcnb-eyes-cover")
            expect(cover).to_contain_text(eyes, timeout=WAIT)
            # The whole window dimmed, the words over it: drawn by the page's body, over every exercise.
            said = page.evaluate("getComputedStyle(document.body, '::before').content")
            assert eyes in said and _words(lang, "classroom.eyes_more") in said
            assert page.evaluate("getComputedStyle(document.body, '::after').position") == "fixed"
            for answer_box in _answer_boxes(page)[:1]:
                answer_box.scroll_into_view_if_needed()
                box = answer_box.bounding_box()
                hit = page.evaluate(
                    "([x, y]) => document.elementFromPoint(x, y) === document.body",
                    [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
                )
                assert hit  # a click there reaches the cover, not the exercise
            for answer_box in _answer_boxes(page):
                expect(answer_box).to_be_disabled(timeout=WAIT)
            assert _answer_boxes(page)[0].input_value() == f"1{index}"
        shots = Path(os.environ.get("CALCNB_SHOTS") or tmp_path)  # a folder to look at them, when named
        shots.mkdir(parents=True, exist_ok=True)
        pupils[0].screenshot(path=shots / f"pupil-paused-{server}-{lang}.png")
        teacher.locator(".calcnb-pace").screenshot(path=shots / f"class-view-pace-{server}-{lang}.png")
        # A pupil's page has no control over the pacing; the pupils' server serves no teacher's page.
        for page in pupils:
            for key in ("classview.pace.pause", "classview.pace.release"):
                assert page.get_by_role("button", name=_words(lang, key)).count() == 0
            assert page.locator(".calcnb-pace-choice, .calcnb-pace").count() == 0
        for path in ("voila/render/teacher/class_view.ipynb", "voila/render/class_view.ipynb",
                     "voila/render/teacher/projector.ipynb"):  # fmt: skip
            assert pupils[0].context.request.get(url + path).status in (403, 404)
        teacher.get_by_role("button", name=_words(lang, "classview.pace.release")).click()
        for index, page in enumerate(pupils):
            expect(page.locator(".calcnb-eyes-cover")).to_have_count(0, timeout=WAIT)
            assert page.evaluate("getComputedStyle(document.body, '::after').content") in ("none", "normal")
            first, second, third = _answer_boxes(page)
            expect(first).to_be_enabled(timeout=WAIT)
            expect(second).to_be_enabled()
            expect(third).to_be_disabled()  # still up to exercise 2
            assert first.input_value() == f"1{index}"
        pupils[0].screenshot(path=shots / f"pupil-paced-{server}-{lang}.png")
        # Every exercise again: each page carries on where it was.
        teacher.locator(".calcnb-pace-choice select").select_option(label=_words(lang, "classview.pace.all"))
        for page in pupils:
            expect(_answer_boxes(page)[2]).to_be_enabled(timeout=WAIT)
