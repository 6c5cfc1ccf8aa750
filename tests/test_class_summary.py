"""The class log in the teacher's words: exercises numbered by the lesson's order and named by a short text,
misconceptions by their names in the bank, and the end-of-lesson summary as CSV and PDF.

Every test taking ``log`` runs on SQLite and on PostgreSQL (``class_log_fixtures``).
"""

from __future__ import annotations

import io

import pytest
from class_log_support import ORDER, WRAPAROUND, a_summary_class

from calcnb.classlog.readings import OTHER, student_summaries
from calcnb.classlog.summary import (
    exercise_label,
    exercise_number,
    misconception_label,
    summary_csv,
    summary_pdf,
    summary_rows,
)
from calcnb.exercises.bank import Bank
from calcnb.exercises.items import ExerciseKind
from calcnb.i18n import set_language
from calcnb.lessons import BANK, lesson

pytest_plugins = ["class_log_fixtures"]


def test_every_exercise_with_variants_has_a_short_text_in_both_languages():
    from calcnb.i18n import catalogue

    for language in ("en", "pt"):
        keys = catalogue(language)
        for exercise_id, kind in BANK.items():
            if len(kind.variants) > 1:
                assert f"classview.ex.{exercise_id}" in keys, (language, exercise_id)


def test_an_exercise_is_numbered_by_its_place_in_the_order_the_caller_gives():
    """No lesson is looked up: the same exercise has the number of its place in whichever order is handed over."""
    assert exercise_number("next-wrap", ORDER) == 5 and exercise_number("next-wrap", ("next-wrap",)) == 1
    assert exercise_number("next-wrap", ()) is None
    assert exercise_label("next-wrap", ORDER, BANK) == "5. Which rank goes on next, past K?"
    assert exercise_label("next-wrap", ("clock", "next-wrap"), BANK) == "2. Which rank goes on next, past K?"
    assert exercise_label("next-wrap", (), BANK) == "Which rank goes on next, past K?"
    counting = lesson("counting")
    assert exercise_label(counting.exercises[0], counting.exercises, counting.bank).startswith("1. ")
    # every exercise of calcnb's lessons has a short title in one style; one of another lesson with one variant is
    # named by its question, from the bank it is in; one no bank knows, as recorded
    assert (
        exercise_label("fits-buried", ORDER, BANK)
        == "Which foundation takes the turned card, with a fitting card buried in a waste?"
    )
    one = ExerciseKind("zz-half", ((8,),), lambda variant, n: dict(question=f"Half of {n}?", kind="count",
                       accepted=frozenset({n // 2}), solution=str(n // 2), why="."))  # fmt: skip
    assert exercise_label("zz-half", ("zz-half",), Bank([one])) == "1. Half of 8?"
    assert exercise_label("zz-half", ORDER, Bank()) == "zz-half"
    assert exercise_label("zz-unknown", ORDER, BANK) == "zz-unknown"


def test_a_misconception_is_named_by_the_bank_that_knows_it():
    assert misconception_label("no_wraparound", WRAPAROUND.bank) == "forgets the wraparound past K"
    assert misconception_label("no_wraparound", Bank()) == "no_wraparound"  # a bank that does not know it
    assert misconception_label("<b>made up</b>", BANK) == "<b>made up</b>"  # as recorded (the view escapes it)
    assert misconception_label(OTHER, Bank()) == "other"
    set_language("pt")
    assert misconception_label("no_wraparound", BANK) == "esquece a volta depois do K"


def test_the_summary_counts_how_each_exercise_ended_for_each_student(log):
    a_summary_class(log)
    summaries = student_summaries(log.students(), log.attempts())
    count = len(ORDER)
    assert summary_rows(summaries, ORDER, BANK) == [
        ["ana", 1, 0, 0, 1, count - 2, ""],
        ["bia", 0, 1, 1, 0, count - 2, "9. Which x makes k × x ≡ 1 (mod 13)?"],
        ["caio", 0, 0, 0, 0, count, ""],
    ]
    lines = summary_csv(summaries, ORDER, BANK).splitlines()
    assert lines[0].startswith("Nickname,Right,Wrong,Unreadable,Answer shown,Not tried,Stuck on,")
    assert lines[1].startswith("ana,1,0,0,1,") and ",Right,,,,Answer shown," in lines[1]
    assert len(lines) == 4


@pytest.mark.parametrize("language", ["en", "pt"])
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_summary_prints_as_a_pdf_that_reads_back(log, language, paper):
    from pypdf import PdfReader

    a_summary_class(log)
    set_language(language)
    summaries = student_summaries(log.students(), log.attempts())
    reader = PdfReader(io.BytesIO(summary_pdf(summaries, ORDER, BANK, location="lesson.db", paper=paper)))
    width, height = (float(value) for value in reader.pages[0].mediabox.upper_right)
    assert width > height and round(width) == {"A4": 842, "Letter": 792}[paper]  # landscape, points
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())  # a heading may wrap inside its cell
    words = {"en": ("End of the lesson", "Answer shown", "Stuck on", "9. Which x makes"),
             "pt": ("Fim da aula", "Resposta mostrada", "Bloqueado em", "9. Que x faz")}[language]  # fmt: skip
    for word in (*words, "ana", "bia", "caio", "lesson.db"):
        assert word in text, word
