"""The class log in the teacher's words: exercises by number and short text, misconceptions and outcomes by name,
and the end-of-lesson summary of each student, as CSV for a spreadsheet and as PDF to print.

An exercise is numbered by its place in the lesson's ``order`` (the exercises' identifiers, as the lesson asks
them) and named by a short text in the teacher's language; the ``bank`` of the lesson's exercises
(:class:`calcnb.exercises.bank.Bank`) gives the question of an exercise of one variant and the names of
its misconceptions. The caller (a lesson's class view, the command line) passes both: nothing here knows
a lesson. Students each see their own numbers, so the view names the question, not one student's variant.
The PDF is drawn with fpdf2 and DejaVu Sans, as the worksheets are (:mod:`calcnb.exercises.worksheet`).

>>> from calcnb.exercises.bank import Bank
>>> summary_pdf([], (), Bank())[:5]
b'%PDF-'
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Sequence
from pathlib import Path

from calcnb.classlog.export import csv_cell
from calcnb.classlog.readings import OTHER, STUCK_AFTER, StudentSummary
from calcnb.exercises.bank import Bank
from calcnb.exercises.items import OUTCOMES, Outcome
from calcnb.i18n import get_language, has_message, message

__all__ = [
    "MARKS",
    "SUMMARY_COLUMNS",
    "exercise_label",
    "exercise_number",
    "misconception_label",
    "outcome_name",
    "summary_csv",
    "summary_pdf",
    "summary_rows",
]

#: How the PDF marks each exercise's outcome for a student (the legend, message "classview.summary.marks", says so).
MARKS = {Outcome.RIGHT: "✓", Outcome.WRONG: "✗", Outcome.UNREADABLE: "?", Outcome.REVEALED: "◉"}
#: The summary's columns, each a message "classview.summary.<name>" (then one column per exercise in the CSV):
#: the nickname, how many exercises ended with each outcome, how many were not tried, and the exercise stuck on.
SUMMARY_COLUMNS = ("nickname", *(outcome.value for outcome in OUTCOMES), "not_tried", "stuck")


def exercise_number(exercise_id: str, order: Sequence[str]) -> int | None:
    """The exercise's number in the lesson: its place in ``order`` (1 for the first), or None for an exercise the
    lesson does not ask.

    >>> exercise_number("clock", ("next", "clock")), exercise_number("other", ("next", "clock"))
    (2, None)
    """
    return order.index(exercise_id) + 1 if exercise_id in order else None


def exercise_label(exercise_id: str, order: Sequence[str], bank: Bank) -> str:
    """The exercise as the teacher reads it: its number in ``order`` and a short text ("3. Foundation +3: …").

    An exercise of one variant is named by its very question (from ``bank``); an identifier with no short
    text that ``bank`` does not know is shown as is.
    """
    key = f"classview.ex.{exercise_id}"
    if has_message(key):
        text = message(key)
    elif exercise_id in bank and len(bank[exercise_id].variants) == 1:
        text = bank[exercise_id].item(0).question  # a lesson of another package: its one question, the same for all
    else:
        return exercise_id
    number = exercise_number(exercise_id, order)
    return text if number is None else message("classview.numbered", number=number, text=text)


def misconception_label(name: str, bank: Bank) -> str:
    """A misconception's name in the teacher's language ("off by one"); one ``bank`` does not know, as recorded."""
    if name == OTHER:
        return message("classview.other")
    return bank.misconception_text(name)


def outcome_name(outcome: Outcome) -> str:
    """An outcome in the teacher's language, as the summary's columns name it ("Right", "Answer shown")."""
    return message(f"classview.summary.{outcome}")


def summary_exercises(summaries: Sequence[StudentSummary], order: Sequence[str]) -> list[str]:
    """The lesson's exercises in ``order``, then any other exercise a student tried, as first met."""
    tried = dict.fromkeys(exercise for summary in summaries for exercise in summary.outcomes)
    return [*order, *(exercise for exercise in tried if exercise not in order)]


def summary_rows(summaries: Sequence[StudentSummary], order: Sequence[str], bank: Bank) -> list[list[object]]:
    """One row per student, in :data:`SUMMARY_COLUMNS` order: nickname, counts, and the exercise they are stuck on."""
    count = len(summary_exercises(summaries, order))
    return [
        [
            summary.nickname,
            *(summary.count(outcome) for outcome in OUTCOMES),
            count - len(summary.outcomes),
            exercise_label(summary.stuck_on, order, bank) if summary.stuck_on else "",
        ]
        for summary in summaries
    ]


def summary_csv(summaries: Sequence[StudentSummary], order: Sequence[str], bank: Bank) -> str:
    """The summary as CSV in the teacher's language: the counts, then each exercise's outcome (blank: not tried)."""
    exercises = summary_exercises(summaries, order)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    labels = [exercise_label(name, order, bank) for name in exercises]
    writer.writerow([*(message(f"classview.summary.{name}") for name in SUMMARY_COLUMNS), *labels])
    for summary, row in zip(summaries, summary_rows(summaries, order, bank)):
        ended = [outcome_name(summary.outcomes[name]) if name in summary.outcomes else "" for name in exercises]
        writer.writerow([csv_cell(cell) for cell in [*row, *ended]])
    return buffer.getvalue()


# ---------------------------------------------------------------- the PDF

_FONT = "DejaVu"


def _document(paper: str):
    import matplotlib
    from fpdf import FPDF

    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    pdf = FPDF(orientation="landscape", format=paper)
    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.add_font(_FONT, "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font(_FONT, "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.set_creator("calcnb")
    return pdf


def summary_pdf(
    summaries: Sequence[StudentSummary],
    order: Sequence[str],
    bank: Bank,
    *,
    location: str = "",
    paper: str = "A4",
) -> bytes:
    """The summary as PDF bytes to print (landscape ``paper``, "A4" or "Letter"): one line per student.

    Each line has the counts, the exercise the student is stuck on, and one mark per exercise
    (:data:`MARKS`); the exercises' numbers and short texts are listed under the table.
    """
    exercises = summary_exercises(summaries, order)
    pdf = _document(paper)
    pdf.add_page()
    pdf.set_title(message("classview.summary_title"))
    pdf.set_font(_FONT, "B", 15)
    pdf.cell(0, 8, message("classview.summary_title"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 9)
    made = message("classview.summary.made", location=location, time=time.strftime("%Y-%m-%d %H:%M"))
    pdf.cell(0, 5, made.strip(", "), new_x="LMARGIN", new_y="NEXT")
    legend = message("classview.summary_legend", count=len(exercises), stuck=STUCK_AFTER)
    pdf.multi_cell(0, 4.5, legend, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 6, message("classview.summary.marks"), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    numbers = [str(exercise_number(name, order) or "·") for name in exercises]
    heading = [message(f"classview.summary.{name}") for name in SUMMARY_COLUMNS]
    # The counts' columns fit their headings in both languages; "stuck on" takes what is left of the page.
    fixed = (32, 16, 16, 22, 24, 18)
    marks = 7 * len(exercises)
    widths = (*fixed, max(40, pdf.epw - sum(fixed) - marks), *([7] * len(exercises)))
    pdf.set_font(_FONT, "", 8.5)
    with pdf.table(col_widths=widths, width=sum(widths), align="LEFT", text_align="LEFT", line_height=5) as table:
        table.row([*heading, *numbers])
        for summary, row in zip(summaries, summary_rows(summaries, order, bank)):
            ended = [MARKS[summary.outcomes[name]] if name in summary.outcomes else "" for name in exercises]
            table.row([str(cell) for cell in [*row, *ended]])
    pdf.ln(4)
    pdf.set_font(_FONT, "B", 10)
    pdf.cell(0, 6, message("classview.summary.exercises"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(_FONT, "", 9)
    for name in exercises:
        pdf.multi_cell(0, 4.5, exercise_label(name, order, bank), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.set_lang(get_language())
    return bytes(pdf.output())
