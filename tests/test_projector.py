"""The projector view: counts and the lesson's words for the whole class, never a nickname or an answer.

Every test taking ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from class_log_support import HOSTILE, an_attempt

from calcnb.classlog.schema import ClassLogError
from calcnb.classlog.store import Pacing, open_class_log
from calcnb.classlog.summary import exercise_label, misconception_label
from calcnb.classroom.projector import MOST_BARS, ProjectorView
from calcnb.classroom.view import escaped
from calcnb.core.settings import CLASS_LOG, CLASS_PROJECTOR, CLASS_VIEW
from calcnb.exercises.items import Outcome
from calcnb.i18n import message, set_language
from calcnb.lessons import BANK, LESSONS, lesson
from calcnb.lessons.class_view import LessonClassView, class_view
from calcnb.lessons.evidence.exercises import PLAYER_KEY
from calcnb.lessons.projector import LessonProjectorView, projector_view
from calcnb.serve.cli.environments import class_log_environment, class_view_environment, projector_environment
from calcnb.serve.cli.parser import build_parser

pytest_plugins = ["class_log_fixtures"]

WRAPAROUND = lesson("wraparound")
FIRST, SECOND = WRAPAROUND.exercises[:2]
NICKNAMES = ["ana", "bia <b>&amp;", "Zé", "caio"]
# (nickname, exercise, answer, outcome, misconception): answers no count can be mistaken for
CHECKS = [
    ("ana", FIRST, "417", Outcome.WRONG, "off_by_one"),
    ("ana", FIRST, "5", Outcome.RIGHT, None),
    ("bia <b>&amp;", FIRST, "418", Outcome.WRONG, "off_by_one"),
    ("bia <b>&amp;", FIRST, "419", Outcome.WRONG, "no_wraparound"),
    ("Zé", FIRST, "5", Outcome.RIGHT, None),
    ("Zé", SECOND, "420", Outcome.WRONG, "zero_for_king"),
]


def _a_class(log, nicknames=NICKNAMES, checks=CHECKS) -> None:
    for name in nicknames:
        log.join(name)
    for second, (name, exercise, answer, outcome, wrong_idea) in enumerate(checks):
        log.record(name, an_attempt(exercise, 0, answer, outcome, wrong_idea, "en", 1_800_000_000.0 + second))


def test_the_projector_shows_counts_and_the_lessons_words_and_no_nickname_or_answer(log):
    _a_class(log)
    view = LessonProjectorView(log)
    assert view.refresh()
    page = view.page.value
    for name in NICKNAMES:
        assert name not in page and escaped(name) not in page
    for _, _, answer, outcome, _ in CHECKS:
        if outcome is Outcome.WRONG:
            assert answer not in page
    assert "In the class: 4" in page
    assert "2 of 3 got it right" in page and "0 of 1 got it right" in page
    assert escaped(exercise_label(FIRST, WRAPAROUND.exercises, BANK)) in page
    assert f"{misconception_label('off_by_one', BANK)}: 2" in page
    assert f"{misconception_label('no_wraparound', BANK)}: 1" in page
    assert f"{misconception_label('zero_for_king', BANK)}: 1" in page
    # exercises nobody tried take no room on the wall
    assert page.count('class="calcnb-projector-exercise"') == 2


def test_the_projector_shows_the_exercises_open_when_the_class_is_paced(log):
    _a_class(log)
    log.set_pacing(Pacing(1, False))
    view = LessonProjectorView(log)
    view.refresh()
    assert (
        view.page.value.count('class="calcnb-projector-exercise"') == 1 and "0 of 1 got it right" not in view.page.value
    )
    log.set_pacing(Pacing())
    view.refresh()
    assert view.page.value.count('class="calcnb-projector-exercise"') == 2


def test_the_projector_speaks_portuguese(log):
    _a_class(log)
    set_language("pt")
    view = LessonProjectorView(log)
    view.refresh()
    assert "Na turma: 4" in view.page.value and "2 de 3 acertaram" in view.page.value
    assert f"{misconception_label('off_by_one', BANK)}: 2" in view.page.value


def test_a_nickname_typed_as_a_misconception_or_exercise_never_reaches_the_projector_as_markup(log):
    for number, text in enumerate(HOSTILE):
        log.record(
            "ana", an_attempt(exercise_id=text, outcome=Outcome.WRONG, misconception=text, timestamp=number * 20)
        )
    view = ProjectorView(log, order=[], bank=BANK)
    view.refresh()
    for dangerous in ("<script", "<img", "\x1b", "\x07"):
        assert dangerous not in view.page.value


def test_many_misconceptions_are_cut_to_the_largest_few(log):
    ideas = WRAPAROUND.misconceptions[: MOST_BARS + 2]
    for number, idea in enumerate(ideas):
        log.record("ana", an_attempt(FIRST, 0, str(number), Outcome.WRONG, idea, "en", 1_800_000_000.0 + 20 * number))
    view = LessonProjectorView(log)
    view.refresh()
    assert view.page.value.count('class="calcnb-projector-bar"') == 1 + MOST_BARS  # right, then the ideas
    assert "Other wrong ideas: 2" in view.page.value


def test_each_wrong_ideas_bar_is_its_share_of_the_wrong_answers(log):
    """Of four wrong answers, an idea seen twice is a half bar and each seen once a quarter (not a full bar and two
    half bars, as if everyone held the first); the green bar is the share of those who tried who got it right."""
    ideas = WRAPAROUND.misconceptions[:3]
    for number, idea in enumerate([ideas[0], ideas[0], ideas[1], ideas[2]]):
        log.record(f"pupil{number}", an_attempt(FIRST, 0, str(number), Outcome.WRONG, idea, "en", 1.8e9 + number))
    log.record("pupil0", an_attempt(FIRST, 0, "5", Outcome.RIGHT, None, "en", 1.8e9 + 100))
    view = LessonProjectorView(log)
    view.refresh()
    widths = [float(found) for found in re.findall(r"display:block;width:([0-9.]+)%", view.page.value)]
    assert widths == [25.0, 50.0, 25.0, 25.0]  # right 1 of 4 who tried; then the ideas, largest first


def test_those_in_neither_bar_are_counted_an_answer_shown_or_unreadable(log):
    """Three tried the first exercise and none got it right: one wrong, then shown the answer; two typed only what
    could not be read. The card says so, instead of leaving two of three unexplained."""
    log.record("ana", an_attempt(FIRST, 0, "417", Outcome.WRONG, "off_by_one", "en", 1.8e9))
    log.record("ana", an_attempt(FIRST, 0, "", Outcome.REVEALED, None, "en", 1.8e9 + 1))
    for number, name in enumerate(["bia", "caio"]):
        log.record(name, an_attempt(FIRST, 0, "²", Outcome.UNREADABLE, None, "en", 1.8e9 + 2 + number))
    view = LessonProjectorView(log)
    view.refresh()
    page = view.page.value
    assert "0 of 3 got it right" in page
    assert "Shown the answer: 1" in page and "Answers that could not be read: 2" in page
    set_language("pt")
    try:
        view.refresh()
        assert "Viram a resposta: 1" in view.page.value and "Respostas que não se conseguiram ler: 2" in view.page.value
    finally:
        set_language("en")


def test_the_evidence_lesson_puts_the_pooled_interval_against_80_percent_and_no_nickname(log):
    evidence = lesson("evidence")
    for seed in range(40):
        log.record_game("ana" if seed % 2 else "bia", seed, PLAYER_KEY, won=seed % 5 != 0, score=52)
    view = LessonProjectorView(log)
    view.refresh()
    page = view.page.value
    assert view.lesson is evidence
    assert "32 won of 40 deals" in page and "calcnb-projector-interval" in page and "80%" in page
    assert "ana" not in page and "bia" not in page


def test_the_projector_is_told_its_log_apart_from_the_class_view(tmp_path):
    location = str(tmp_path / "lesson.db")
    projector = projector_environment({CLASS_VIEW.variable: "left.db", CLASS_LOG.variable: "left.db"}, location)
    assert CLASS_VIEW.read(projector) is None and CLASS_LOG.read(projector) is None
    assert CLASS_PROJECTOR.read(projector).endswith("lesson.db")
    teacher = class_view_environment({CLASS_PROJECTOR.variable: "left.db"}, location)
    assert CLASS_PROJECTOR.read(teacher) is None and CLASS_VIEW.read(teacher).endswith("lesson.db")
    pupils = class_log_environment({CLASS_PROJECTOR.variable: "left.db"}, location)
    assert CLASS_PROJECTOR.read(pupils) is None


def test_on_the_projectors_server_the_class_view_finds_no_log(monkeypatch, tmp_path):
    for variable, value in projector_environment({}, str(tmp_path / "lesson.db")).items():
        monkeypatch.setenv(variable, value)
    monkeypatch.delenv(CLASS_VIEW.variable, raising=False)
    assert class_view().class_log is None
    view = projector_view()
    try:
        assert view.class_log is not None and "In the class: 0" in view.page.value
    finally:
        view.close()


def test_class_view_projector_serves_on_a_port_of_its_own():
    arguments = build_parser().parse_args(["class-view", "lesson.db", "--projector"])
    assert arguments.projector and arguments.port is None  # the runner chooses the projector's own port
    assert build_parser().parse_args(["class-view", "lesson.db"]).projector is False


# ---------------------------------------------------------------- a wrong answer to discuss


def test_the_teacher_puts_a_wrong_answer_up_and_takes_it_down(log):
    _a_class(log)
    teacher = LessonClassView(log)
    projector = LessonProjectorView(log)
    assert teacher.refresh() and projector.refresh()
    # offered: each wrong answer, the latest first, by its text and exercise, never its nickname
    labels = [label for label, _number in teacher.discuss_choice.options]
    assert [label.split()[0] for label in labels] == ["420", "419", "418", "417"]
    assert not any(name in label for label in labels for name in NICKNAMES)
    assert teacher.take_down_button.disabled and "Nothing is up" in teacher.discuss_status.value
    teacher.discuss_choice.value = dict(teacher.discuss_choice.options)[labels[2]]  # bia's 418
    shown = teacher.put_up()
    assert shown["answer"] == "418" and log.discussed()["answer"] == "418"
    assert not teacher.take_down_button.disabled and "On the projector now" in teacher.discuss_status.value
    projector.refresh()  # another process, as far as the log goes: it reads what the teacher put up
    page = projector.page.value
    assert "418" in page and "An answer to talk about" in page
    question = BANK[FIRST].item(0).question
    assert escaped(question) in page
    for name in NICKNAMES:
        assert name not in page and escaped(name) not in page
    for other in ("417", "419", "420"):  # alone: no other answer, and no figures beside it
        assert other not in page
    assert "got it right" not in page
    teacher.take_down_button.click()
    assert log.discussed() is None
    projector.refresh()
    assert "418" not in projector.page.value and "2 of 3 got it right" in projector.page.value


def test_the_answer_up_is_kept_in_the_log_for_every_view_to_read(location):
    first = open_class_log(location)
    _a_class(first)
    second = open_class_log(location)
    try:
        up = first.discuss(1, when=1_800_000_100.0)
        assert up == {"attempt_id": 1, "exercise_id": FIRST, "variant": "0", "answer": "417",
                      "shown_at": 1_800_000_100.0}  # fmt: skip
        assert second.discussed() == up
        first.discuss(3)  # in place of the first: one answer up at a time
        assert second.discussed()["answer"] == "418"
        second.stop_discussing()
        assert first.discussed() is None
        with pytest.raises(ClassLogError, match="no answer numbered 99"):
            first.discuss(99)
    finally:
        first.close()
        second.close()


def test_a_view_with_no_wrong_answer_offers_nothing_to_put_up(log):
    _a_class(log, checks=[("ana", FIRST, "5", Outcome.RIGHT, None)])
    teacher = LessonClassView(log)
    teacher.refresh()
    assert teacher.discuss_choice.options == () and teacher.discuss_button.disabled
    assert teacher.put_up() is None and log.discussed() is None


def test_the_projector_puts_up_an_answer_in_portuguese(log):
    _a_class(log)
    log.discuss(4)
    set_language("pt")
    projector = LessonProjectorView(log)
    projector.refresh()
    assert "Uma resposta para conversarmos" in projector.page.value and "419" in projector.page.value


# ---------------------------------------------------------------- the teacher's notes, word for word

NOTES = Path(__file__).resolve().parent.parent / "notebooks"


@pytest.mark.parametrize("lang", ["en", "pt"])
@pytest.mark.parametrize("known", [found for found in LESSONS if found.teacher_notebook], ids=lambda found: found.key)
def test_the_teachers_notes_start_the_projector_and_name_the_buttons_word_for_word(known, lang):
    path = NOTES / ("" if lang == "en" else "pt") / known.teacher_notebook
    prose = "\n".join(
        "".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown"
    )  # fmt: skip
    tail = "" if lang == "en" else " --lang pt"
    lines = [line.strip() for line in prose.splitlines() if "--projector" in line and line.startswith("    python")]
    assert lines == [f"python -m calcnb class-view lesson.db --lesson {known.name} --projector{tail}"]
    arguments = build_parser().parse_args(lines[0].split()[3:])
    assert arguments.projector and lesson(arguments.lesson) is known and (arguments.lang or "en") == lang
    set_language(lang)
    for key in (
        "classview.discuss.title",
        "classview.discuss.put_up",
        "classview.discuss.take_down",
        "classview.pace.label",
        "classview.pace.all",
        "classview.pace.pause",
        "classview.pace.release",
    ):
        assert message(key) in prose  # fmt: skip
    assert message("classview.pace.up_to", number="N") in prose
