"""Printable worksheets and answer sheets for a lesson (by default the clock of 13), as PDF (fpdf2), A4 or Letter.

:func:`worksheet_pdf` writes each student's own questions (the variants their
:class:`~calcnb.ui.lesson.Quiz` shows after they join under that nickname, with the class's key),
numbered as on their screen and in the teacher's key, with room to work under each.
:func:`answer_sheet_pdf` writes the matching answers with their reasoning, one page a student.
:func:`save_sheets` writes both, named in the teacher's language. DejaVu Sans (shipped with
matplotlib) has the suit symbols, ≡ and ⁻¹. Given ``lesson`` (a name of
:data:`calcnb.lessons.catalogue.LESSONS`), the sheets hold that lesson's exercises under its title; the
worksheet of "Counting in steps" starts with the clock of 13 cards drawn to count on with a finger.

>>> pdf = worksheet_pdf(["Ana"])
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from calcnb.game.errors import quote
from calcnb.i18n import message
from calcnb.lessons.bank import BANK, LESSON_EXERCISES, Item, student_items
from calcnb.lessons.catalogue import lesson as find_lesson

__all__ = ["PAPERS", "answer_sheet_pdf", "save_sheets", "worksheet_pdf"]

#: The paper sizes a sheet can be printed on (fpdf2's names).
PAPERS = ("A4", "Letter")

_FONT = "DejaVu"
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
    pdf.add_font(_FONT, "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font(_FONT, "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.set_creator("calcnb")
    return pdf


def _line(pdf, text: str, *, size: float = 11, bold: bool = False, gap: float = 1.5) -> None:
    pdf.set_font(_FONT, "B" if bold else "", size)
    pdf.multi_cell(0, size * 0.45, text, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(gap)


def _header(pdf, title: str, name: str | None, *, size: float = 16) -> None:
    pdf.add_page()
    _line(pdf, title, size=size, bold=True, gap=2)
    _line(pdf, message("worksheet.name", name=name) if name else message("worksheet.blank_name"), gap=3)


def _height(pdf, text: str, size: float, *, bold: bool = False, gap: float = 1.5) -> float:
    """How many millimetres :func:`_line` takes for ``text``, measured without drawing."""
    pdf.set_font(_FONT, "B" if bold else "", size)
    lines = pdf.multi_cell(0, size * 0.45, text, dry_run=True, output="LINES")
    return len(lines) * size * 0.45 + gap


def _clock(pdf, size: float = 62) -> None:
    """The clock of the 13 cards, K at the top and A to Q clockwise, ``size`` millimetres across, centred."""
    import math

    from calcnb.game.cards import RANK_COUNT, rank_name

    radius = size / 2 - 6
    centre_x, centre_y = pdf.w / 2, pdf.y + size / 2
    pdf.set_draw_color(120)
    # ellipse (top left corner, width, height) means the same in every fpdf2; circle's arguments changed in 2.8.1
    pdf.ellipse(centre_x - radius, centre_y - radius, radius * 2, radius * 2)
    pdf.set_font(_FONT, "B", 12)
    for rank in range(1, RANK_COUNT + 1):
        angle = math.pi / 2 - 2 * math.pi * (rank % RANK_COUNT) / RANK_COUNT
        x, y = centre_x + radius * math.cos(angle), centre_y - radius * math.sin(angle)
        pdf.set_fill_color(255)
        pdf.ellipse(x - 4.5, y - 4.5, 9, 9, style="FD")
        label = rank_name(rank)
        pdf.text(x - pdf.get_string_width(label) / 2, y + 1.6, label)
    pdf.set_y(centre_y + size / 2 + 2)


def _worksheet_pages(pdf, title: str, name: str | None, items: Sequence[Item], lesson: str | None = None) -> None:
    _header(pdf, title, name)
    intro = f"worksheet.intro.{lesson}"
    try:
        said = message(intro)
    except KeyError:
        said = message("worksheet.intro")
    _line(pdf, said, size=10, gap=4)
    if lesson == "counting":  # the clock the lesson's screens show, to count on with a finger
        _clock(pdf)
    for number, item in enumerate(items, start=1):
        question = message("worksheet.numbered", number=number, question=item.question)
        needed = _height(pdf, question, 11, bold=True) + _WORKING_ROOM + _ANSWER_LINE
        if pdf.will_page_break(needed):  # a question, its room and its answer line stay on one page
            _header(pdf, title, name, size=12)
            if lesson == "counting":
                _clock(pdf, 46)
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
    names: Iterable[str] | None, exercise_ids: Sequence[str], class_key: str | None
) -> list[tuple[str | None, list[Item]]]:
    chosen = [" ".join(str(name).split()) for name in (names or []) if str(name).strip()]
    if not chosen:  # one sheet for the whole class: variant 0 of every exercise
        return [(None, [BANK[exercise_id].item(0) for exercise_id in exercise_ids])]
    return [(name, student_items(name, exercise_ids, class_key)) for name in chosen]


def _lesson_sheet(lesson: str | None, exercise_ids: Sequence[str] | None, key: str) -> tuple[Sequence[str], str]:
    """The exercises and the title of a sheet: the lesson's (its title in ``key``), or the clock of 13's."""
    if lesson is None:
        return (LESSON_EXERCISES if exercise_ids is None else exercise_ids), message(f"worksheet.{key}")
    found = find_lesson(lesson)
    title = message(f"worksheet.{key}_of", title=found.title)
    return (found.exercises if exercise_ids is None else exercise_ids), title


def worksheet_pdf(
    names: Iterable[str] | None = None,
    exercise_ids: Sequence[str] | None = None,
    *,
    class_key: str | None = None,
    paper: str = "A4",
    lesson: str | None = None,
) -> bytes:
    """The worksheet as PDF bytes: each student of ``names`` gets their own questions (two pages,
    to print on both sides of one sheet), numbered as on their screen; without names, one class sheet.

    ``class_key`` must be the class log's key (:meth:`~calcnb.classroom.log.ClassLog.class_key`) for the
    questions to match what the students see; ``paper`` is one of :data:`PAPERS`. ``lesson`` names the
    lesson (:data:`calcnb.lessons.catalogue.LESSONS`); without it, the clock of 13's exercises.
    """
    pdf = _document(paper)
    exercise_ids, title = _lesson_sheet(lesson, exercise_ids, "title")
    for name, items in _student_sheets(names, exercise_ids, class_key):
        _worksheet_pages(pdf, title, name, items, lesson)
    return bytes(pdf.output())


def answer_sheet_pdf(
    names: Iterable[str] | None = None,
    exercise_ids: Sequence[str] | None = None,
    *,
    class_key: str | None = None,
    paper: str = "A4",
    lesson: str | None = None,
) -> bytes:
    """The answers to :func:`worksheet_pdf` for the same ``names``: one page a student, each with its reasoning."""
    pdf = _document(paper)
    exercise_ids, title = _lesson_sheet(lesson, exercise_ids, "answers_title")
    for name, items in _student_sheets(names, exercise_ids, class_key):
        _answer_page(pdf, title, name or message("worksheet.class_sheet"), items)
    return bytes(pdf.output())


def save_sheets(
    folder: str | Path,
    names: Iterable[str] | None = None,
    *,
    class_key: str | None = None,
    paper: str = "A4",
    lesson: str | None = None,
) -> list[Path]:
    """Write the worksheet and the answer sheet into ``folder``, named in the current language; returns the paths.

    With ``lesson``, that lesson's sheets, their names starting with the lesson's ("counting-worksheet-A4.pdf").
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    names = list(names or [])
    written = []
    for key, make in (("worksheet.file_questions", worksheet_pdf), ("worksheet.file_answers", answer_sheet_pdf)):
        path = folder / ((f"{lesson}-" if lesson else "") + message(key, paper=paper))
        path.write_bytes(make(names, class_key=class_key, paper=paper, lesson=lesson))
        written.append(path)
    return written
