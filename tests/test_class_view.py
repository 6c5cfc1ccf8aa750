"""The teacher's class view: counts, bars and who needs help, in the teacher's words and language, every student's
text escaped, and a loud banner whenever the log, or some student's answers, are not being kept.

Every test taking ``location`` or ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import base64
import os
import shutil
import time

import pytest
import sqlalchemy as sa
from class_log_support import (
    HOSTILE,
    UNWRITABLE_TIMEOUT,
    VIEWED,
    a_class,
    a_summary_class,
    an_attempt,
    fault,
    record_checks,
)

from calcnb.classlog.export import csv_text
from calcnb.classlog.health import QUIET_AFTER, student_health
from calcnb.classlog.readings import ClassStatus
from calcnb.classlog.schema import NICKNAME_MAX, WRITERS
from calcnb.classlog.store import open_class_log, read_class_key
from calcnb.classroom import view as view_module
from calcnb.classroom.view import ClassView, class_view, escaped, students_html
from calcnb.core.settings import CLASS_LOG, CLASS_VIEW
from calcnb.exercises.items import Outcome
from calcnb.i18n import set_language

pytest_plugins = ["class_log_fixtures"]


@pytest.fixture(autouse=True)
def _short_probe_wait(monkeypatch):
    """The view's probe waits up to a second for a lock held by a fault: a real wait, made short here."""
    monkeypatch.setattr(view_module, "PROBE_TIMEOUT", UNWRITABLE_TIMEOUT)


def test_the_class_view_shows_counts_bars_and_who_needs_help(log):
    a_class(log)
    view = ClassView(log, order=["next_card", "last_card"], bank=VIEWED["bank"])
    assert view.refresh()
    table = view.exercises.value
    assert table.index("next_card") < table.index("last_card")
    assert '<td style="padding:2px 8px">3</td><td style="padding:2px 8px">2</td>' in table
    assert "forgot_wraparound: 67% (2)" in table and "zero_for_k: 33% (1)" in table
    assert "duda" in view.students.value and "<bdi>bia</bdi>, on last_card" in view.students.value
    assert "4 joined, 3 answering, 7 answers checked" in view.status.value
    assert view.export.value == "" and view.alarms == []  # the export is made when asked, not at every reading
    view.export_button.click()
    link = view.export.value
    data = link.split("base64,")[1].split('"')[0]
    assert base64.b64decode(data).decode("utf-8-sig") == csv_text(log.attempts())


@pytest.mark.parametrize("text", HOSTILE)
def test_the_class_view_shows_what_students_typed_escaped(log, text):
    for number in range(3):
        log.record(text, an_attempt(exercise_id=text, outcome=Outcome.WRONG, misconception=text, timestamp=number))
    view = ClassView(log, **VIEWED)
    view.refresh()
    page = view.exercises.value + view.students.value
    for dangerous in ("<script", "<img", "\x1b", "\x07", "\r"):
        assert dangerous not in page
    assert escaped(text.strip()[:NICKNAME_MAX]) in view.students.value
    assert escaped(text) in view.exercises.value


def test_escaped_escapes_markup_and_control_characters():
    assert escaped("<b>&'\"") == "&lt;b&gt;&amp;&#x27;&quot;"
    assert escaped("a\x1b[0m\tb\x00") == "a\\x1b[0m\\x09b\\x00"
    assert escaped("ação 🂡") == "ação 🂡"


def test_the_class_view_speaks_portuguese(log):
    a_class(log)
    set_language("pt")
    view = ClassView(log, **VIEWED)
    view.refresh()
    assert "Tentaram" in view.exercises.value and "Bloqueados" in view.students.value
    assert "Exportar" in view.export_button.description


def test_without_a_log_the_class_view_says_how_to_name_one(monkeypatch):
    monkeypatch.delenv(CLASS_VIEW.variable, raising=False)
    monkeypatch.setenv(CLASS_LOG.variable, "lesson.db")  # the students' variable never opens the class view
    view = class_view(**VIEWED)
    assert not view.refresh() and "class-view lesson.db" in view.status.value
    assert view.class_log is None


def test_the_class_view_reads_the_log_the_class_view_command_names(monkeypatch, log, location):
    a_class(log)
    monkeypatch.setenv(CLASS_VIEW.variable, f"  {location} ")
    view = class_view(**VIEWED)
    try:
        assert view.class_log is not None and "4 joined, 3 answering" in view.status.value
    finally:
        view.close()


def test_a_class_view_of_an_unreadable_log_says_so_and_keeps_going(log, location):
    a_class(log)
    view = ClassView(log, **VIEWED)
    assert view.refresh() and view.banner.value == ""
    log.attempts_after = lambda _after: (_ for _ in ()).throw(
        sa.exc.OperationalError("SELECT", {}, Exception("disk I/O error"))
    )
    assert not view.refresh() and "cannot be read right now (disk I/O error)" in view.banner.value
    assert 'role="alert"' in view.banner.value and "The figures below are as of" in view.banner.value
    assert "7 answers checked" in view.status.value  # the last figures stay on the page
    del log.attempts_after
    assert view.refresh() and view.banner.value == ""


def test_the_class_view_names_questions_and_misconceptions_as_the_teacher_reads_them(log):
    record_checks(
        log,
        [
            ("ana", "next-wrap", "14", Outcome.WRONG, "no_wraparound"),
            ("ana", "next-wrap", "3", Outcome.WRONG, None),
            ("bia", "fits-buried", "1", Outcome.WRONG, "buried_card"),
            ("ana", "visits", "?", Outcome.UNREADABLE, None),
            ("bia", "next-wrap", "1", Outcome.WRONG, "no_wraparound"),
            ("bia", "next-wrap", "2", Outcome.WRONG, "no_wraparound"),
        ],
    )
    view = ClassView(log, **VIEWED)
    view.refresh()
    table = view.exercises.value
    assert ">5. Which rank goes on next, past K?</th>" in table  # its number in the lesson and a short text
    assert ">8. Another clock: how many numbers does the count land on?</th>" in table
    assert "Which foundation takes the turned card, with a fitting card buried in a waste?" in table
    assert "forgets the wraparound past K: 75% (3)" in table and "other: 25% (1)" in table
    assert "no_wraparound" not in table.replace('"no_wraparound"', "")
    assert "<bdi>bia</bdi>, on 5. Which rank goes on next, past K?" in view.students.value
    set_language("pt")
    view.refresh()
    table = view.exercises.value
    assert ">5. Que valor vem a seguir, depois do K?</th>" in table and "esquece a volta" in table
    assert "outra: 25% (1)" in table and "Resposta mostrada" in table and "Ilegíveis" in table
    assert "<bdi>bia</bdi>, em 5. Que valor vem a seguir" in view.students.value
    assert "Entraram na turma: 0; a responder: 2" in view.status.value  # never "1 entraram"


def test_the_class_view_numbers_the_exercises_by_the_order_it_is_given(log):
    """The classroom knows no lesson: another order, another numbering, from the same answers."""
    record_checks(log, [("ana", "next-wrap", "14", Outcome.WRONG, "no_wraparound")])
    view = ClassView(log, order=["visits", "next-wrap"], bank=VIEWED["bank"])
    view.refresh()
    assert ">2. Which rank goes on next, past K?</th>" in view.exercises.value
    assert "2 exercises" in view.summary.value


def test_the_class_view_makes_the_pdf_when_asked(log):
    a_summary_class(log)
    view = ClassView(log, **VIEWED)
    view.refresh()
    assert view.pdf_link.value == ""  # drawn only when asked: not at every reading of the log
    view.pdf_button.click()
    assert "application/pdf;base64," in view.pdf_link.value and 'download="class_summary.pdf"' in view.pdf_link.value


def test_the_class_view_isolates_every_students_text_so_nothing_mirrors_the_page():
    # a nickname from an old log, or typed in right-to-left letters, with markup in it
    status = ClassStatus(not_started=["\u202egnirts", "<b>bo</b>"], stuck={"\u05d3\u05e0\u05d4": "clock"}, working=1)
    page = students_html(status, **VIEWED)
    assert "<bdi>\u202egnirts</bdi>, <bdi>&lt;b&gt;bo&lt;/b&gt;</bdi>" in page
    assert "<bdi>\u05d3\u05e0\u05d4</bdi>" in page and "<b>bo" not in page


# ---------------------------------------------------------------- the class view: is the log keeping the answers?


def test_a_students_pages_are_summed_and_their_answers_not_arriving_said():
    now = 1_800_000_000.0
    row = {"waiting": 0, "written": 2, "last_write": now - 5, "last_failure": None, "failure": None, "heartbeat": now}
    health = student_health(
        [
            dict(row, writer="a1", nickname="ana"),
            dict(row, writer="a2", nickname="ana", waiting=2, heartbeat=now - QUIET_AFTER - 1),  # fell quiet
            dict(row, writer="b1", nickname="bia", waiting=1, last_failure=now - 1, failure="locked"),
            dict(row, writer="c1", nickname="caio", waiting=3),  # on their way
        ],
        now,
    )
    assert [(item.nickname, item.waiting, item.written, item.stuck) for item in health] == [
        ("ana", 2, 4, True), ("bia", 1, 2, True), ("caio", 3, 2, False)
    ]  # fmt: skip
    assert health[1].failure == "locked" and health[0].failure is None and health[0].heard == now


def test_the_class_view_names_the_students_whose_answers_are_not_reaching_the_log(log):
    a_class(log)
    now = time.time()
    log.report("page-a", "ana", waiting=0, written=2, last_write=now - 5, last_failure=None, failure=None)
    log.report("page-b", "bia", waiting=3, written=1, last_write=now - 60, last_failure=now - 2,
               failure="database is locked <b>")  # fmt: skip
    log.report("page-c", "caio", waiting=2, written=2, last_write=now - 1, last_failure=None, failure=None)
    view = ClassView(log, **VIEWED)
    assert view.refresh()
    assert view.alarms == ["Answers are not reaching the class log from 1 student(s), answers waiting on their "
                           "pages: bia (3)."]  # fmt: skip
    assert 'role="alert"' in view.banner.value
    table = view.health.value
    bia = table.split('data-nickname="bia"')[1].split("</tr>")[0]
    assert 'data-stuck="1"' in bia and "<td" in bia and ">3</td>" in bia and "database is locked &lt;b&gt;" in bia
    assert table.index('data-nickname="bia"') < table.index('data-nickname="ana"')  # the trouble first
    caio = table.split('data-nickname="caio"')[1].split("</tr>")[0]
    assert 'data-stuck="0"' in caio  # on their way: no failure, heard from just now
    # A page with answers waiting that has not been heard from for a while: its answers are not arriving either.
    quiet = time.time() - QUIET_AFTER - 1
    with log.engine.begin() as connection:
        connection.execute(sa.update(WRITERS).where(WRITERS.c.writer == "page-c").values(heartbeat=quiet))
    assert view.refresh() and "bia (3), caio (2)" in view.alarms[0]


def test_the_class_view_says_when_the_log_cannot_be_written(location):
    log = open_class_log(location)
    a_class(log)
    view = ClassView(log, **VIEWED)
    assert view.refresh() and view.alarms == []
    for kind in ("locked", "read_only"):
        with fault(kind, location):
            if kind == "locked" and location.startswith("postgresql"):
                # PostgreSQL's ACCESS EXCLUSIVE lock stops readers too: the view says it cannot read, and keeps
                # its last figures; SQLite's write lock leaves readers going, as PostgreSQL's read-only does.
                assert not view.refresh()
                (alarm,) = view.alarms
                assert alarm.startswith("The class log cannot be read right now (") and "as of" in alarm
            else:
                assert view.refresh()  # still read: the figures stay up to date
                (alarm,) = view.alarms
                assert alarm.startswith("The class log cannot be written right now (")
                assert "no student's answer" in alarm
        assert view.refresh() and view.alarms == [], kind
    view.close()


def test_the_class_view_makes_a_deleted_log_again_and_says_when_it_is_gone_or_replaced(tmp_path):
    location = str(tmp_path / "lesson.db")
    log = open_class_log(location)
    key = log.class_key()  # made when the app starts: a new file at the path has another (even with the same inode)
    a_class(log)
    view = ClassView(log, **VIEWED)
    assert view.refresh() and "7 answers checked" in view.status.value
    with fault("gone", location):
        assert view.refresh()  # the file deleted: a new, empty log made at its path, with a class key of its own
        (alarm,) = view.alarms
        assert alarm.startswith(f"The class log file {location} was deleted or moved away: this view made a new")
        assert 'role="alert"' in view.banner.value and read_class_key(location) not in (None, key)
        assert "0 answers checked" in view.status.value and "nobody" in view.students.value
    # Where no log can be made (its folder gone), the view says the log is gone and keeps its last figures.
    folder = tmp_path / "usb-stick"
    folder.mkdir()
    elsewhere = open_class_log(folder / "lesson.db")
    a_class(elsewhere)
    stranded = ClassView(elsewhere, **VIEWED)
    assert stranded.refresh() and "7 answers checked" in stranded.status.value
    shutil.rmtree(folder)
    assert not stranded.refresh()
    (alarm,) = stranded.alarms
    assert alarm.startswith(f"The class log file {folder / 'lesson.db'} is gone")
    assert "7 answers checked" in stranded.status.value
    # Another file put at the path: read afresh, and said so.
    other = tmp_path / "other.db"
    made = open_class_log(other)
    a_class(made)
    made.close()  # one complete file (its write-ahead file folded in), as a teacher's copy is
    os.replace(other, location)
    assert view.refresh() and any(
        alarm.startswith(f"The class log file {location} was replaced by another file at") for alarm in view.alarms
    )
    assert "7 answers checked" in view.status.value
    view.close()
    stranded.close()


def test_the_class_views_banners_speak_portuguese(tmp_path):
    location = str(tmp_path / "lesson.db")
    log = open_class_log(location)
    a_class(log)
    log.report("page-b", "bia", waiting=3, written=1, last_write=None, last_failure=time.time(), failure="x")
    set_language("pt")
    view = ClassView(log, **VIEWED)
    assert view.refresh() and "não estão a chegar ao registo da turma" in view.alarms[0]
    assert "Respostas à espera" in view.health.value
    with fault("locked", location):
        view.refresh()
        assert any(alarm.startswith("O registo da turma não pode ser escrito agora") for alarm in view.alarms)
    with fault("gone", location):
        view.refresh()
        assert view.alarms[0].startswith("O ficheiro do registo da turma") and "foi apagado ou movido" in view.alarms[0]
    view.close()
