"""The students' page of a class log: the notice, the nickname and its rejoin code, every check saved once and
in order by the page's saver thread, answers too fast refused, and a log that cannot be written never breaking
the exercises.

Every test taking ``location``, ``log`` or ``recorder`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import html
import io
import time

import pytest
from class_log_support import (
    VIEWED,
    WRAPAROUND,
    an_attempt,
    an_exercise,
    fault,
    figures,
    joins,
    unwritable,
    warnings_as_errors,
)

from calcnb.classlog.names import rejoin_code
from calcnb.classlog.store import RATE_LIMITS, open_class_log
from calcnb.classroom.recorder import MAX_WRONG_CODES, ClassRecorder, join_class
from calcnb.classroom.view import ClassView
from calcnb.core.settings import CLASS_LOG
from calcnb.exercises.items import Outcome
from calcnb.i18n import set_language
from calcnb.ui import lesson as lessons
from calcnb.ui.lesson import Quiz

pytest_plugins = ["class_log_fixtures"]


def test_without_a_class_log_nothing_is_shown_or_recorded(monkeypatch):
    monkeypatch.delenv(CLASS_LOG.variable, raising=False)
    before = list(lessons._listeners.get())
    assert join_class() is None
    assert lessons._listeners.get() == before


def test_the_page_says_what_is_collected_and_records_only_after_joining(recorder, log):
    lesson = an_exercise()
    assert "collecting the answers" in recorder.notice.value and "nickname" in recorder.notice.value
    lesson.exercise.check(lesson.wrong)
    recorder.outbox.flush()
    assert log.count() == 0  # not joined yet: nothing recorded
    assert recorder.join("  ana  ")
    lesson.exercise.check(lesson.wrong)
    lesson.exercise.check(lesson.right)
    assert recorder.outbox.flush() is True  # written by the outbox's own thread
    assert "Saved: the class log has all your answers (2)." in recorder.save_status.value
    variant = str(lesson.exercise.item.variant)
    assert [(row["nickname"], row["exercise_id"], row["answer"], row["correct"], row["misconception"], row["variant"])
            for row in log.attempts()] == [("ana", "next-wrap", lesson.wrong, False, lesson.misconception, variant),
                                           ("ana", "next-wrap", lesson.right, True, None, variant)]  # fmt: skip
    assert log.students() == ["ana"]
    assert "ana" in recorder.status.value and recorder.nickname_box.disabled


def test_the_nickname_picks_the_quiz_variants(log):
    class NamedQuiz:
        def __init__(self):
            self.names = []

        def use_name(self, name, *, class_key=None):
            self.names.append((name, class_key))

    quiz = NamedQuiz()
    recorder = ClassRecorder(log, quiz=quiz)
    recorder.nickname_box.value = "bia"  # typing and pressing Enter joins
    recorder.close()
    assert quiz.names == [("bia", log.class_key())] and log.students() == ["bia"]


def test_the_class_key_changes_the_variants_and_the_recorder_passes_it_on(log):
    bank, order = WRAPAROUND.bank, WRAPAROUND.exercises
    quiz = Quiz(bank, order)
    quiz.show(*order)
    recorder = ClassRecorder(log, quiz=quiz)
    recorder.join("bia")
    recorder.close()
    shown = [(exercise.item.exercise_id, exercise.item.variant) for exercise in quiz.exercises]
    keyed = [(item.exercise_id, item.variant) for item in bank.student_items("bia", order, log.class_key())]
    assert shown == keyed
    # without the class's key the nickname alone gives other questions
    assert shown != [(item.exercise_id, item.variant) for item in bank.student_items("bia", order)]


def test_a_nickname_already_joined_needs_its_rejoin_code(recorder, log):
    assert recorder.join("ana")
    code = rejoin_code(log.class_key(), "ana")
    assert f"Your rejoin code is {code}" in recorder.status.value  # shown to the student who joined
    namesake = ClassRecorder(log)
    asked = namesake.same_student
    assert asked.layout.display == "none"
    namesake.nickname_box.value = " ana "  # typing and pressing Enter: asked, not joined
    assert namesake.nickname is None and not namesake.nickname_box.disabled
    assert "already joined as ana" in namesake.status.value and asked.layout.display is None
    assert namesake.same_student_button.description == "That was me: go on as ana"
    assert log.students() == ["ana"] and len(joins(log)) == 1
    assert not namesake.join()  # pressing Join again asks again
    namesake.same_student_button.click()  # "that was me" without the code: refused
    assert namesake.nickname is None and "not the rejoin code of ana" in namesake.status.value
    namesake.nickname_box.value = "ana b"  # another nickname joins at once, and the question goes
    assert namesake.nickname == "ana b" and asked.layout.display == "none"
    assert log.students() == ["ana", "ana b"]
    namesake.close()
    reloaded = ClassRecorder(log)
    assert not reloaded.join("ana")
    reloaded.code_box.value = f" {code.lower()} "  # typed as the student remembers it
    reloaded.same_student_button.click()  # a reloaded page: the student goes on under the nickname
    assert (
        reloaded.nickname == "ana" and reloaded.nickname_box.disabled and reloaded.same_student.layout.display == "none"
    )
    assert "Going on as ana" in reloaded.status.value and len(joins(log)) == 3
    reloaded.close()
    # guessing: after a few wrong codes the page can only join under a free nickname
    guesser = ClassRecorder(log)
    guesser.join("ana")
    for attempt in range(MAX_WRONG_CODES):
        assert not guesser.join("ana", code=f"X{attempt}")
    assert not guesser.join("ana", code=code) and guesser.nickname is None
    assert "Too many wrong codes" in guesser.status.value
    guesser.close()


LOOK_ALIKES = {
    "capitals": "Ana",
    "Cyrillic а": "\u0430na",
    "zero-width joiner": "a\u200dna",
    "zero-width space": "an\u200ba",
    "right-to-left isolate": "\u2067ana\u2069",
    "full-width": "\uff41\uff4e\uff41",
    "right-to-left override": "\u202eana",
}


@pytest.mark.parametrize("kind", LOOK_ALIKES)
def test_a_look_alike_of_a_taken_nickname_is_that_nickname(recorder, log, kind):
    assert recorder.join("ana")
    look_alike = ClassRecorder(log)
    assert not look_alike.join(LOOK_ALIKES[kind])  # asked for ana's code, not joined as a new student
    assert "already joined as ana" in look_alike.status.value
    assert log.students() == ["ana"]
    look_alike.close()


def test_a_nickname_without_readable_characters_is_refused_on_the_page(recorder, log):
    assert not recorder.join("\x1b\x07")
    assert recorder.nickname is None and "not a nickname" in recorder.status.value
    assert log.students() == []


def test_join_class_reads_the_environment_and_replaces_an_earlier_recorder(monkeypatch, location):
    monkeypatch.setenv(CLASS_LOG.variable, location)
    first = join_class()
    second = join_class()
    assert first.record not in lessons._listeners.get() and second.record in lessons._listeners.get()
    second.join("caio")
    lesson = an_exercise()
    lesson.exercise.check(lesson.right)
    second.close()
    assert [row["nickname"] for row in open_class_log(location).attempts()] == ["caio"]


def test_two_visits_on_the_class_server_each_keep_their_own_recorder(monkeypatch, location, visits):
    # The class server runs every pupil's page in one process: the second pupil's page must not close the first's.
    monkeypatch.setenv(CLASS_LOG.variable, location)
    kernels_own = list(lessons._listeners.get())
    with visits({}) as ana_values:
        ana = join_class()
        ana.join("ana")
    with visits({}):
        bia = join_class()
        bia.join("bia")
    assert not ana.stopped and not bia.stopped
    with visits(ana_values):
        assert lessons._listeners.get() == [ana.record]
        lesson = an_exercise()
        lesson.exercise.check(lesson.right)
    ana.close()
    bia.close()
    assert [row["nickname"] for row in open_class_log(location).attempts()] == ["ana"]
    assert lessons._listeners.get() == kernels_own  # outside any visit: the kernel's own list, untouched


def test_the_students_page_speaks_portuguese(log):
    set_language("pt")
    recorder = ClassRecorder(log)
    recorder.join("ana")
    assert "alcunha" in recorder.notice.value and "Entraste como ana" in recorder.status.value
    assert recorder.join_button.description == "Entrar na turma"
    assert log.students() == ["ana"]
    recorder.close()
    namesake = ClassRecorder(log)
    assert not namesake.join("ana")
    assert "já entrou como ana" in namesake.status.value
    assert namesake.same_student_button.description == "Fui eu: continuar como ana"
    assert namesake.code_box.description == "Código para voltar:"
    namesake.close()


def test_the_teachers_terminal_is_told_who_joins_in_one_printable_line(recorder, log, monkeypatch):
    terminal = io.StringIO()
    monkeypatch.setattr("sys.__stderr__", terminal)
    assert recorder.join("ana\x1b[2J\u202e")  # an escape and a bidi override: kept out of the terminal
    reloaded = ClassRecorder(log)
    assert reloaded.join(recorder.nickname, code=rejoin_code(log.class_key(), recorder.nickname))
    reloaded.close()
    lines = terminal.getvalue().splitlines()
    assert lines[0] == f"[calcnb] {recorder.nickname} joined the class." and "\x1b" not in terminal.getvalue()
    assert lines[1] == f"[calcnb] {recorder.nickname} went on with their rejoin code (a page closed or reloaded)."
    assert all(line.isprintable() for line in lines) and len(lines) == 2


def test_the_recorder_logs_a_reveal_and_the_class_view_marks_it(recorder, log):
    lesson = an_exercise()
    lesson.exercise.reveal_on = True
    recorder.join("ana")
    lesson.exercise.check("")
    lesson.exercise.reveal()  # refused: nothing recorded
    lesson.exercise.check(lesson.wrong)
    lesson.exercise.show_button.click()
    lesson.exercise.check(lesson.right)
    recorder.outbox.flush()
    assert [row["outcome"] for row in log.attempts()] == ["unreadable", "wrong", "revealed", "right"]
    view = ClassView(log, **VIEWED)
    view.refresh()
    row = view.exercises.value.split('data-exercise="next-wrap"')[1].split("</tr>")[0]
    cells = [cell.split("</td>")[0] for cell in row.split('<td style="padding:2px 8px">')[1:]]
    assert cells[:5] == ["1", "0", "1", "3", "1"]  # tried, right, answer shown, answers, unreadable
    student = view.summary.value.split('data-nickname="ana"')[1].split("</tr>")[0]
    assert [cell.split("</td>")[0] for cell in student.split('<td style="padding:2px 8px">')[1:]][:4] == [
        "0", "0", "0", "1"
    ]  # fmt: skip


# ---------------------------------------------------------------- a log that cannot be written


@pytest.mark.parametrize("kind", ["read_only", "locked", "disk_full"])
def test_a_log_that_cannot_be_written_never_breaks_the_exercise_and_keeps_the_answers(location, kind):
    """The feedback goes on; the page says the answers are not reaching the log, never that they are saved,
    and keeps them, in order, trying again."""
    with unwritable(kind, location) as log:
        recorder = ClassRecorder(log)
        recorder.nickname = "ana"  # joined before the log stopped being writable
        recorder.outbox.start("ana")
        lesson = an_exercise()
        exercise = lesson.exercise
        with warnings_as_errors():
            verdict = exercise.check(lesson.right)
            assert recorder.outbox.flush() is False
        assert verdict.correct is True and verdict.text and html.escape(verdict.text) in exercise.feedback.value
        assert not recorder.stopped and recorder.outbox.waiting == 1
        assert "not reaching the class log" in recorder.save_status.value and "Saved" not in recorder.save_status.value
        with warnings_as_errors():
            second = exercise.check(lesson.wrong)
            recorder.outbox.flush()
        assert second.correct is False and html.escape(second.text) in exercise.feedback.value  # feedback goes on
        assert recorder.outbox.waiting == 2 and [check.answer for check in recorder.outbox.checks] == [
            lesson.right,
            lesson.wrong,
        ]
        assert "2 wait" in recorder.save_status.value
        assert recorder.outbox.failures >= 2  # tried again
        recorder.close()


def test_an_unreachable_log_leaves_the_lesson_working_and_says_so(tmp_path):
    recorder = join_class(location=str(tmp_path / "no_such_folder" / "lesson.db"))
    assert recorder.stopped and "cannot be opened" in recorder.status.value and not recorder.save_status.value
    lesson = an_exercise()
    assert lesson.exercise.check(lesson.right).correct is True
    recorder.close()


@pytest.mark.slow
def test_thirty_pages_lose_no_answer_through_locks_a_read_only_log_and_a_lost_database(location):
    """Thirty students' pages (recorders with their saver threads) keep answering while the log is locked,
    made read-only, and lost (SQLite: the file deleted, then made again; PostgreSQL: the server stopped and
    started again). At the end every answer that was checked is in the log exactly once, in each student's
    order, and the class view, read all along, shows the figures of a full reading."""
    open_class_log(location).close()
    pages = [ClassRecorder(open_class_log(location, timeout=1.0)) for _ in range(30)]
    for number, page in enumerate(pages):
        assert page.join(f"student{number:02}")
    view = ClassView(open_class_log(location, timeout=1.0), **VIEWED)
    checked: dict[str, list[str]] = {page.nickname: [] for page in pages}
    start = time.time()

    def answer_round(label: str) -> None:
        for page in pages:  # one answer each, at a student's pace (their checks two seconds apart)
            answer = f"{label}-{len(checked[page.nickname])}"
            checked[page.nickname].append(answer)
            when = start + 2.0 * len(checked[page.nickname])
            assert page.record(an_attempt("clock", 0, answer, Outcome.WRONG, None, "en", when)) is None
        view.refresh()

    alarms = {}
    answer_round("before")
    for kind in ("locked", "read_only", "gone"):
        answer_round(f"{kind}-just-before")
        with fault(kind, location):
            for _ in range(3):
                answer_round(kind)
                time.sleep(1.0)  # the pages try, fail, and wait to try again
            view.refresh()
            alarms[kind] = list(view.alarms)
        answer_round(f"after-{kind}")
    deadline = time.monotonic() + 240
    while any(page.outbox.waiting for page in pages) and time.monotonic() < deadline:
        for page in pages:
            page.outbox.flush(timeout=5)
    assert [page.nickname for page in pages if page.outbox.waiting] == []
    assert all(page.outbox.refused == 0 for page in pages)
    log = open_class_log(location)
    rows = log.attempts_after(0)  # in the order written
    for nickname, answers in checked.items():
        assert [row["answer"] for row in rows if row["nickname"] == nickname] == answers, nickname
    assert len(rows) == sum(map(len, checked.values())) == 30 * 16
    assert all(alarms[kind] for kind in ("locked", "read_only")) and sum(page.outbox.failures for page in pages) >= 30
    assert alarms["gone"]  # the view said the log was gone or could not be read
    assert view.refresh()
    full = ClassView(log, **VIEWED)
    assert full.refresh() and figures(view) == figures(full)
    for page in pages:
        page.close()
    view.close()
    full.close()


# ---------------------------------------------------------------- answers too fast


def _paced(recorder, times, exercise="clock"):
    """Checks by ``recorder``'s student at ``times`` (seconds), as the exercises hand them over; returns the notes."""
    return [
        recorder.record(an_attempt(exercise, 0, "1", Outcome.WRONG, None, "en", 1_800_000_000.0 + t)) for t in times
    ]


def test_holding_enter_down_keeps_a_few_answers_and_says_the_others_were_not_saved(recorder, log, monkeypatch):
    """Sixty checks a second for eight seconds: the log keeps what the limits allow, the exercise says of every
    other one that it was not saved, and the save line counts them."""
    assert recorder.join("ana")
    lesson = an_exercise()
    now = [1_800_000_000.0]
    monkeypatch.setattr(lessons, "time", type("Clock", (), {"time": staticmethod(lambda: now[0])}))
    notes = []
    for _ in range(8 * 60):
        now[0] += 1 / 60
        verdict = lesson.exercise.check(lesson.wrong)
        assert verdict.correct is False and html.escape(verdict.text) in lesson.exercise.feedback.value
        notes.append("Not saved: too many answers" in lesson.exercise.feedback.value)
    assert recorder.outbox.flush(timeout=30)
    kept = [row["recorded_at"] for row in log.attempts()]
    assert len(kept) == recorder.outbox.recorded == notes.count(False) == 8 * 60 - recorder.outbox.refused
    assert 5 <= len(kept) <= 20  # five in the first second, then at most twenty in any ten seconds
    for when in kept:
        for seconds, count in RATE_LIMITS:
            assert sum(1 for other in kept if when - seconds < other <= when) <= count
    assert notes[:5] == [False] * 5 and all(notes[5:60])
    assert f"The class log refused {recorder.outbox.refused} of your answers" in recorder.save_status.value


def test_a_student_at_a_normal_pace_is_never_refused(recorder, log):
    assert recorder.join("ana")
    # a quick burst of corrections, then an answer every second and a half for two minutes, then Show answer
    times = [0.0, 0.3, 0.6, 0.9, *(2 + 1.5 * n for n in range(80))]
    assert _paced(recorder, times) == [None] * len(times)
    assert recorder.outbox.flush(timeout=30) and recorder.outbox.refused == 0 and log.count() == len(times)


def test_the_limit_holds_across_the_pages_of_one_student(log):
    """Two pages of ana, each within the limits by itself, together too fast: the log refuses the excess,
    each page says how many of its answers were not saved, and the log's rows stay within the limits."""
    first, second = ClassRecorder(log), ClassRecorder(log)
    assert first.join("ana")
    assert second.join("ana", code=rejoin_code(log.class_key(), "ana"))
    for step in range(30):  # each page: an answer every 0.8 s; together, five every two seconds
        _paced(first, [0.8 * step])
        _paced(second, [0.8 * step + 0.4])
        assert first.outbox.flush(timeout=30) and second.outbox.flush(timeout=30)
    kept = [row["recorded_at"] for row in log.attempts()]
    assert (
        first.outbox.refused and second.outbox.refused and first.outbox.refused_here == second.outbox.refused_here == 0
    )
    assert (
        len(kept) == first.outbox.recorded + second.outbox.recorded == 60 - first.outbox.refused - second.outbox.refused
    )
    for when in kept:
        for seconds, count in RATE_LIMITS:
            assert sum(1 for other in kept if when - seconds < other <= when) <= count
    assert "of your answers: too many in a short time" in second.save_status.value
    first.close()
    second.close()


# ---------------------------------------------------------------- the games of "Is the 80% true?"


@pytest.mark.slow  # the lesson's player plays its deals for real
def test_the_recorder_keeps_every_deal_played_and_the_class_view_pools_them(location):
    from calcnb.lessons import lesson
    from calcnb.lessons.class_view import LessonClassView
    from calcnb.lessons.evidence.exercises import pool, seed_block
    from calcnb.lessons.evidence.widgets import EvidenceLab
    from calcnb.stats import wilson_interval

    view = LessonClassView(open_class_log(location), lesson="evidence")
    view.refresh()  # before anyone has answered: the lesson named, its exercises, an empty sample
    assert view.lesson_name == "evidence" and view.order[0] == "evidence-rate"
    assert view.panel is not None and view.panel.evidence.deals == 0
    labs = []
    for name in ("Ana", "Bruno"):  # one kernel each, one after the other (a kernel has one recorder)
        lab = EvidenceLab(lesson("evidence").quiz())
        recorder = ClassRecorder(open_class_log(location), quiz=lab)
        assert recorder.join(name)
        assert lab.block == seed_block(name, recorder.class_log.class_key())
        lab.play_batch()
        assert recorder.outbox.flush(timeout=30) and recorder.outbox.games_recorded == 10
        recorder.close()
        labs.append(lab)
    view.refresh()
    wins = sum(deal.won for lab in labs for deal in lab.played)
    panel = view.panel
    assert (panel.evidence.wins, panel.evidence.deals) == (wins, 20)
    assert panel.evidence.interval == wilson_interval(wins, 20) == pool(view.class_log.games()).interval
    low, high = wilson_interval(wins, 20)
    assert f"{round(100 * low)}%" in panel.text.value and f"{round(100 * high)}%" in panel.text.value
    assert panel.picture.png[:4] == b"\x89PNG" and "20 deals" in panel.picture.alt
    view.close()


@pytest.mark.slow
def test_a_student_who_joins_again_after_a_reload_gets_their_deals_back(log, location):
    from calcnb.lessons import lesson
    from calcnb.lessons.evidence.widgets import EvidenceLab

    first_quiz = lesson("evidence").quiz()
    first = ClassRecorder(log, quiz=first_quiz)
    lab = EvidenceLab(first_quiz, need_name=True, history=first.games_played)
    assert first.join("jo") and lab.played == []  # nothing of jo's in the log yet
    played = lab.play_batch()
    first.close()  # the tab is closed: what waits is written, the connections closed
    again = open_class_log(location)
    quiz = lesson("evidence").quiz()
    second = ClassRecorder(again, quiz=quiz)
    back = EvidenceLab(quiz, need_name=True, history=second.games_played)
    try:
        assert second.join("jo", code=rejoin_code(again.class_key(), "jo"))
        assert back.played == played and len(played) == 10
        assert not back.interval_button.disabled and "10" in back.said.value
        assert [deal.seed for deal in back.play_batch()] == list(back.block[10:20])  # on from where jo was
    finally:
        second.close()
