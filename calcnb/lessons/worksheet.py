"""Printable worksheets and answer sheets for the lesson on the clock of 13, as PDF (fpdf2).

:func:`worksheet_pdf` writes one page a student: the questions of that student's variants (the same
ones their :class:`~calcnb.ui.lesson.Quiz` shows after they type their name), with a line for each
answer. :func:`answer_sheet_pdf` writes the matching answers, each with its reasoning computed by
calcnb, for the teacher. Both use DejaVu Sans (shipped with matplotlib), which has the suit
symbols, ≡ and ⁻¹.

>>> pdf = worksheet_pdf(["Ana"])
>>> pdf[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from calcnb.i18n import message
from calcnb.lessons.bank import WORKSHEET_EXERCISES, Item, student_items

__all__ = ["answer_sheet_pdf", "worksheet_pdf"]


_FONT = "DejaVu"
# millimetres kept free for one item, so a question and its answer (or answer line) stay on one page
_ITEM_HEIGHT = {False: 16, True: 30}


def _document():
    import matplotlib
    from fpdf import FPDF

    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_font(_FONT, "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font(_FONT, "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.set_creator("calcnb")
    return pdf


def _line(pdf, text: str, *, size: float = 11, bold: bool = False, gap: float = 1.5) -> None:
    pdf.set_font(_FONT, "B" if bold else "", size)
    pdf.multi_cell(0, size * 0.5, text, align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(gap)


def _page(pdf, title: str, name: str | None, items: Sequence[Item], *, answers: bool) -> None:
    pdf.add_page()
    _line(pdf, title, size=16, bold=True, gap=3)
    _line(pdf, message("worksheet.name", name=name) if name else message("worksheet.blank_name"), gap=3)
    if not answers:
        _line(pdf, message("worksheet.intro"), size=10, gap=4)
    for number, item in enumerate(items, start=1):
        if pdf.will_page_break(_ITEM_HEIGHT[answers]):
            pdf.add_page()
        _line(pdf, f"{number}. {item.question}", bold=True)
        if answers:
            _line(pdf, message("worksheet.answer", answer=item.solution))
            _line(pdf, message("worksheet.why", why=item.why), size=9, gap=4)
        else:
            pdf.ln(2)
            _line(pdf, message("worksheet.answer_line"), gap=6)


def _sheets(names: Iterable[str] | None, exercise_ids: Sequence[str], *, answers: bool) -> bytes:
    pdf = _document()
    title = message("worksheet.answers_title" if answers else "worksheet.title")
    chosen = [name for name in (names or []) if str(name).strip()]
    if not chosen:  # one sheet for the whole class: variant 0 of every exercise
        from calcnb.lessons.bank import BANK

        items = [BANK[exercise_id].item(0) for exercise_id in exercise_ids]
        _page(pdf, title, message("worksheet.class_sheet") if answers else None, items, answers=answers)
    for name in chosen:
        _page(pdf, title, str(name).strip(), student_items(name, exercise_ids), answers=answers)
    return bytes(pdf.output())


def worksheet_pdf(names: Iterable[str] | None = None, exercise_ids: Sequence[str] = WORKSHEET_EXERCISES) -> bytes:
    """The worksheet as PDF bytes: one page a student of ``names`` (their own variants), or one blank class sheet."""
    return _sheets(names, exercise_ids, answers=False)


def answer_sheet_pdf(names: Iterable[str] | None = None, exercise_ids: Sequence[str] = WORKSHEET_EXERCISES) -> bytes:
    """The answers to :func:`worksheet_pdf` for the same ``names``: each answer with its reasoning."""
    return _sheets(names, exercise_ids, answers=True)
