"""Every recorded check taken away as CSV: formulas defused, the export link a button, the log one complete file.

Every test taking ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

from class_log_support import VIEWED, a_class, an_attempt

from calcnb.classlog.export import csv_cell, csv_text
from calcnb.classlog.schema import ATTEMPT_COLUMNS
from calcnb.classlog.store import open_class_log

pytest_plugins = ["class_log_fixtures"]


def test_csv_export_has_every_check_and_defuses_formulas(log):
    a_class(log)
    log.record("=cmd|' /C calc'!A0", an_attempt(answer="-5", timestamp=1_800_000_100.0))
    log.record("x", an_attempt(answer="=1+1", timestamp=1_800_000_101.0))
    lines = csv_text(log.attempts()).splitlines()
    assert lines[0] == ",".join(ATTEMPT_COLUMNS)
    assert len(lines) == 1 + 9
    assert lines[1].startswith("2027-01-15T08:00:00+00:00,ana,next_card,1,5,1,right,,en")
    assert lines[-2].startswith("2027-01-15T08:01:40+00:00,'=cmd|' /C calc'!A0,next_card,3,-5,1")
    assert lines[-1].split(",")[4] == "'=1+1"


def test_a_cell_that_starts_like_a_formula_is_text_but_a_number_stays_a_number():
    assert [csv_cell(text) for text in ("=SUM(A1)", "+1+1", "@x", "-x", "\tx", "-5", "+3", "1e3", "ana")] == [
        "'=SUM(A1)", "'+1+1", "'@x", "'-x", "'\tx", "-5", "+3", "1e3", "ana"
    ]  # fmt: skip
    assert csv_cell(7) == 7 and csv_cell(None) is None


def test_the_export_links_look_like_buttons(log):
    from calcnb.classroom.view import ClassView

    a_class(log)
    view = ClassView(log, **VIEWED)
    view.refresh()
    view.make_export()
    for link in (view.export.value, view.summary_csv.value):
        assert 'role="button"' in link and "background:#0072B2" in link and "color:white" in link
        assert "text-decoration:underline" in link


def test_exporting_checkpoints_the_log_so_its_one_file_holds_every_answer(tmp_path):
    from calcnb.classroom.view import ClassView

    database = tmp_path / "lesson.db"
    log = open_class_log(database)
    a_class(log)
    view = ClassView(log, **VIEWED)
    view.refresh()
    csv = view.make_export()
    assert csv == csv_text(log.attempts()) and "as of" in view.export.value
    wal = tmp_path / "lesson.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    copy = tmp_path / "copy.db"
    copy.write_bytes(database.read_bytes())
    assert open_class_log(copy).count() == 7
    view.close()
