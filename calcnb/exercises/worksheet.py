"""Printable worksheets and answer sheets of a lesson, as PDF (fpdf2), A4 or Letter.

:func:`worksheet_pdf` writes each student's own questions (the variants their
:class:`~calcnb.ui.lesson.Quiz` shows after they join under that nickname, with the class's key),
numbered as on their screen and in the teacher's key, with room to work under each.
:func:`answer_sheet_pdf` writes the matching answers with their reasoning, one page a student.
:func:`save_sheets` writes both, named in the teacher's language. DejaVu Sans (shipped with
matplotlib) has the suit symbols, ≡ and ⁻¹. The sheets ask the lesson (a :class:`SheetLesson`, such as
:class:`calcnb.lessons.Lesson`) for its exercises, its title, its first line, and what it draws on
each page (a lesson may add a picture under the header).

>>> from calcnb.lessons import lesson
>>> pdf = worksheet_pdf(lesson("wraparound"), ["Ana"])
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from calcnb.exercises.bank import Bank
from calcnb.exercises.items import Item
from calcnb.game.errors import quote
from calcnb.i18n import message

__all__ = ["FONT", "PAPERS", "SheetLesson", "answer_sheet_pdf", "save_sheets", "worksheet_pdf"]


class SheetLesson(Protocol):
    """What a worksheet asks of a lesson (:class:`calcnb.lessons.Lesson` is one)."""

    key: str
    exercises: tuple[str, ...]
    draw_on_worksheet: Callable[[Any, bool], None] | None

    @property
    def bank(self) -> Bank: ...

    @property
    def title(self) -> str: ...

    @property
    def worksheet_intro(self) -> str: ...


#: The paper sizes a sheet can be printed on (fpdf2's names).
PAPERS = ("A4", "Letter")

#: The font of every sheet (DejaVu Sans, shipped with matplotlib): a lesson drawing on a sheet writes in it.
FONT = "DejaVu"
_MARGIN = 15  # millimetres, all round
_WORKING_ROOM = 24  # millimetres of blank space under each question of the worksheet
_ANSWER_LINE = 9  # the "Answer: ____" line and the gap after it


def _document(paper: str):
    import matplotlib
    from fpdf import FPDF

    if paper not in PAPERS:
        raise ValueError(message("worksheet.bad_paper", paper=quote(paper), papers=", ".join(PAPERS)))
    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    pdf = FPDF(format=paper)
    pdf.set_margins(_MARGIN, _MARGIN)
    pdf.set_auto_page_break(auto=True, margin=_MARGIN)
    pdf.add_font(FONT, "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font(FONT, "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.set_creator("calcnb")
    return pdf


def _line(pdf, text: str, *, size: float = 11, bold: bool = False, gap: float = 1.5) -> None:
    pdf.set_font(FONT, "B" if bold else "", size)
    pdf.multi_cell(0, size * 0.45, text, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(gap)


def _header(pdf, title: str, name: str | None, *, size: float = 16) -> None:
    pdf.add_page()
    _line(pdf, title, size=size, bold=True, gap=2)
    _line(pdf, message("worksheet.name", name=name) if name else message("worksheet.blank_name"), gap=3)


def _height(pdf, text: str, size: float, *, bold: bool = False, gap: float = 1.5) -> float:
    """How many millimetres :func:`_line` takes for ``text``, measured without drawing."""
    pdf.set_font(FONT, "B" if bold else "", size)
    lines = pdf.multi_cell(0, size * 0.45, text, dry_run=True, output="LINES")
    return len(lines) * size * 0.45 + gap


def _worksheet_pages(pdf, title: str, name: str | None, items: Sequence[Item], lesson: SheetLesson) -> None:
    _header(pdf, title, name)
    _line(pdf, lesson.worksheet_intro, size=10, gap=4)
    if lesson.draw_on_worksheet is not None:  # what the lesson's screens show, drawn for the page
        lesson.draw_on_worksheet(pdf, True)
    for number, item in enumerate(items, start=1):
        question = message("worksheet.numbered", number=number, question=item.question)
        needed = _height(pdf, question, 11, bold=True) + _WORKING_ROOM + _ANSWER_LINE
        if pdf.will_page_break(needed):  # a question, its room and its answer line stay on one page
            _header(pdf, title, name, size=12)
            if lesson.draw_on_worksheet is not None:
                lesson.draw_on_worksheet(pdf, False)
        _line(pdf, question, bold=True)
        pdf.ln(_WORKING_ROOM)
        _line(pdf, message("worksheet.answer_line"), gap=_ANSWER_LINE - 5)


def _answer_lines(number: int, item: Item) -> tuple[str, str]:
    question = message("worksheet.numbered", number=number, question=item.question)
    return question, message("worksheet.answer_why", answer=item.solution, why=item.why)


def _answer_page(pdf, title: str, name: str, items: Sequence[Item]) -> None:
    """One student's answers on one page: the largest type with which they all fit."""
    _header(pdf, title, name)
    room = pdf.h - _MARGIN - pdf.y
    lines = [_answer_lines(number, item) for number, item in enumerate(items, start=1)]
    for size in (10, 9.5, 9, 8.5, 8, 7.5, 7, 6.5, 6):
        used = sum(
            _height(pdf, question, size, bold=True, gap=0.5) + _height(pdf, answer, size - 0.5, gap=2)
            for question, answer in lines
        )
        if used <= room:
            break
    for question, answer in lines:
        _line(pdf, question, size=size, bold=True, gap=0.5)
        _line(pdf, answer, size=size - 0.5, gap=2)


def _student_sheets(
    lesson: SheetLesson, names: Iterable[str] | None, exercise_ids: Sequence[str], class_key: str | None
) -> list[tuple[str | None, list[Item]]]:
    chosen = [" ".join(str(name).split()) for name in (names or []) if str(name).strip()]
    if not chosen:  # one sheet for the whole class: variant 0 of every exercise
        return [(None, [lesson.bank[exercise_id].item(0) for exercise_id in exercise_ids])]
    return [(name, lesson.bank.student_items(name, exercise_ids, class_key)) for name in chosen]


def _lesson_sheet(lesson: SheetLesson, exercise_ids: Sequence[str] | None, key: str) -> tuple[Sequence[str], str]:
    """The exercises and the title of a sheet: the lesson's (its title in ``key``)."""
    return (lesson.exercises if exercise_ids is None else exercise_ids), message(f"worksheet.{key}", title=lesson.title)


def worksheet_pdf(
    lesson: SheetLesson,
    names: Iterable[str] | None = None,
    exercise_ids: Sequence[str] | None = None,
    *,
    class_key: str | None = None,
    paper: str = "A4",
) -> bytes:
    """The worksheet as PDF bytes: each student of ``names`` gets their own questions (two pages,
    to print on both sides of one sheet), numbered as on their screen; without names, one class sheet.

    ``class_key`` must be the class log's key (:meth:`~calcnb.classlog.store.ClassLog.class_key`) for the
    questions to match what the students see; ``paper`` is one of :data:`PAPERS`. ``exercise_ids`` (default:
    the lesson's, in its order) picks some of the lesson's exercises.
    """
    pdf = _document(paper)
    exercise_ids, title = _lesson_sheet(lesson, exercise_ids, "title_of")
    for name, items in _student_sheets(lesson, names, exercise_ids, class_key):
        _worksheet_pages(pdf, title, name, items, lesson)
    return bytes(pdf.output())


def answer_sheet_pdf(
    lesson: SheetLesson,
    names: Iterable[str] | None = None,
    exercise_ids: Sequence[str] | None = None,
    *,
    class_key: str | None = None,
    paper: str = "A4",
) -> bytes:
    """The answers to :func:`worksheet_pdf` for the same ``names``: one page a student, each with its reasoning."""
    pdf = _document(paper)
    exercise_ids, title = _lesson_sheet(lesson, exercise_ids, "answers_title_of")
    for name, items in _student_sheets(lesson, names, exercise_ids, class_key):
        _answer_page(pdf, title, name or message("worksheet.class_sheet"), items)
    return bytes(pdf.output())


def save_sheets(
    lesson: SheetLesson,
    folder: str | Path,
    names: Iterable[str] | None = None,
    *,
    class_key: str | None = None,
    paper: str = "A4",
) -> list[Path]:
    """Write the lesson's worksheet and answer sheet into ``folder``, named in the current language, each name
    starting with the lesson's key ("counting-worksheet-A4.pdf"); returns the paths.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = list(names or [])
    written = []
    for key, make in (("worksheet.file_questions", worksheet_pdf), ("worksheet.file_answers", answer_sheet_pdf)):
        path = folder / (f"{lesson.key}-" + message(key, paper=paper))
        path.write_bytes(make(lesson, names, class_key=class_key, paper=paper))
        written.append(path)
    return written
