"""The projector view in the browser: ``python -m calcnb class-view LOG --projector``, a server of its own, in
English and Portuguese, at a projector's 1920x1080 and a classroom laptop's 1366x768.

The log is filled through the class log itself (pupils answering through their pages is tested in
``test_class_view.py``); the projector's page is then searched for every nickname in the log. One server per
language, shared by the module's tests.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from calcnb.classlog.store import open_class_log
from calcnb.classlog.summary import misconception_label
from calcnb.exercises.items import Attempt, Outcome
from calcnb.i18n import get_language, set_language
from calcnb.lessons import BANK, lesson
from calcnb.serve.shared.settings import LOCALHOST

from .pages import assert_secured, calcnb_serving

WRAPAROUND = lesson("wraparound")
FIRST, SECOND = WRAPAROUND.exercises[:2]
NICKNAMES = ["Anabela7", "bia_q", "caio99", "Zé Maria"]  # words no page holds by chance
CHECKS = [  # (nickname, exercise, answer, outcome, misconception)
    ("Anabela7", FIRST, "417", Outcome.WRONG, "off_by_one"),
    ("bia_q", FIRST, "418", Outcome.WRONG, "off_by_one"),
    ("bia_q", FIRST, "419", Outcome.WRONG, "no_wraparound"),
    ("caio99", FIRST, "5", Outcome.RIGHT, None),
    ("Zé Maria", SECOND, "420", Outcome.WRONG, "zero_for_king"),
]
SIZES = [(1920, 1080), (1366, 768)]
WORDS = {"en": ("In the class: 4", "1 of 3 got it right"), "pt": ("Na turma: 4", "1 de 3 acertaram")}
BUTTONS = {"en": ("Put it on the projector", "Take it down"), "pt": ("Mostrar na projeção", "Retirar")}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class log four pupils joined and answered in."""
    path = tmp_path_factory.mktemp("projector") / "lesson.db"
    log = open_class_log(path)
    try:
        for name in NICKNAMES:
            log.join(name)
        for second, (name, exercise, answer, outcome, idea) in enumerate(CHECKS):
            log.record(name, Attempt(exercise, 0, answer, outcome, idea, "en", 1_800_000_000.0 + second))
    finally:
        log.close()
    return path


@pytest.fixture(scope="module", params=["en", "pt"])
def projector(request, database: Path) -> Iterator[tuple[str, str, str]]:
    """The projector's server and the teacher's class view on ``database``, each its own, in one language:
    (language, the projector's address, the class view's address)."""
    lang = request.param
    with (
        calcnb_serving("class-view", str(database), "--projector", "--lang", lang,
                 log=database.parent / f"projector-{lang}.log") as port,
        calcnb_serving("class-view", str(database), "--lang", lang, log=database.parent / f"view-{lang}.log") as view,
    ):  # fmt: skip
        yield lang, f"http://{LOCALHOST}:{port}/", f"http://{LOCALHOST}:{view}/"


def _in(lang: str, function, *arguments):
    """``function(*arguments)`` in the language ``lang``."""
    before = get_language()
    set_language(lang)
    try:
        return function(*arguments)
    finally:
        set_language(before)


def _nicknames_in_log(database: Path) -> list[str]:
    log = open_class_log(database)
    try:
        return log.students()
    finally:
        log.close()


@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES, ids=[f"{width}x{height}" for width, height in SIZES])
def test_the_projector_shows_the_class_in_large_type_and_no_nickname(browser, projector, database, size):
    lang, url, _teacher = projector
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(120_000)
    page = context.new_page()
    try:
        assert_secured(page.goto(url, wait_until="domcontentloaded"))
        joined, right = WORDS[lang]
        view = page.locator(".calcnb-projector-page")
        view.get_by_text(joined).wait_for()
        assert right in view.inner_text()
        for idea, count in (("off_by_one", 2), ("no_wraparound", 1), ("zero_for_king", 1)):
            assert f"{_in(lang, misconception_label, idea, BANK)}: {count}" in view.inner_text()
        # Not a nickname anywhere in the page: not in its text, not in its markup.
        text, markup = page.inner_text("body"), page.content()
        for name in _nicknames_in_log(database):
            assert name not in text and name not in markup
        for _, _, answer, outcome, _ in CHECKS:
            if outcome is Outcome.WRONG:
                assert answer not in text
        # Readable from the back: no line wider than the screen, and type of at least 20 px.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        size_px = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.calcnb-projector-page')).fontSize)"
        )
        assert size_px >= 20
        shots = Path(os.environ.get("CALCNB_SHOTS") or database.parent)  # a folder to look at them, when named
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=shots / f"projector-{lang}-{width}x{height}.png")
    finally:
        context.close()


@pytest.mark.browser
def test_the_projectors_server_serves_the_projector_only(projector):
    _lang, url, _teacher = projector
    for path in ("voila/render/teacher/class_view.ipynb", "voila/render/class_view.ipynb", "voila/tree/teacher"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + path, timeout=60)
        assert refused.value.code in (403, 404)


@pytest.mark.browser
def test_the_teacher_puts_a_wrong_answer_on_the_projector_and_takes_it_down(browser, projector, database):
    lang, url, teacher_url = projector
    put_up, take_down = BUTTONS[lang]
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(120_000)
    wall, teacher = context.new_page(), context.new_page()
    try:
        wall.goto(url, wait_until="domcontentloaded")
        wall.get_by_text(WORDS[lang][0]).wait_for()
        assert wall.locator(".calcnb-projector-answer").count() == 0  # nothing typed is up before the teacher picks
        teacher.goto(teacher_url, wait_until="domcontentloaded")
        choice = teacher.locator(".calcnb-discuss-choice select")
        choice.locator("option", has_text="418").wait_for(state="attached")
        label = choice.locator("option", has_text="418").inner_text()
        choice.select_option(label=label)
        teacher.get_by_role("button", name=put_up).click()
        teacher.locator(".calcnb-discuss-status", has_text="418").wait_for()
        shots = Path(os.environ.get("CALCNB_SHOTS") or database.parent)
        teacher.locator(".calcnb-discuss").screenshot(path=shots / f"class-view-discuss-{lang}.png")
        # the projector's own server reads it from the log at its next reading
        answer = wall.locator(".calcnb-projector-answer")
        answer.wait_for()
        assert answer.inner_text().strip() == "418"
        question = _in(lang, lambda: BANK[FIRST].item(0).question)
        assert question in wall.inner_text(".calcnb-projector-discussed")
        text, markup = wall.inner_text("body"), wall.content()
        for name in _nicknames_in_log(database):
            assert name not in text and name not in markup
        assert "417" not in text and "419" not in text and WORDS[lang][1] not in text  # alone
        wall.screenshot(path=shots / f"projector-discussed-{lang}-1366x768.png")
        teacher.get_by_role("button", name=take_down).click()
        answer.wait_for(state="detached")
        wall.get_by_text(WORDS[lang][1]).wait_for()
    finally:
        context.close()
