"""The printed worksheet and its answer sheet: generated as PDF, read back, each student's own questions."""

from io import BytesIO

import pypdf

from calcnb import set_language
from calcnb.lessons.bank import BANK, WORKSHEET_EXERCISES, student_items
from calcnb.lessons.worksheet import answer_sheet_pdf, worksheet_pdf


def _pages(pdf: bytes) -> list[str]:
    """The text of each page, with line breaks and runs of spaces made single spaces."""
    return [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(BytesIO(pdf)).pages]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_each_student_gets_a_page_with_their_own_questions_and_no_answers():
    names = ["Ana", "Bruno"]
    pages = _pages(worksheet_pdf(names))
    assert len(pages) == len(names)
    for name, page in zip(names, pages):
        assert f"Name: {name}" in page
        for item in student_items(name, WORKSHEET_EXERCISES):
            assert _flat(item.question) in page
        assert "Answer: ____" in page and "Why:" not in page
    assert pages[0] != pages[1].replace("Bruno", "Ana")  # neighbours do not share a sheet


def test_the_answer_sheet_holds_each_answer_and_its_reasoning():
    page = " ".join(_pages(answer_sheet_pdf(["Ana"])))  # a student's answers may run onto a second page
    for item in student_items("Ana", WORKSHEET_EXERCISES):
        assert f"Answer: {item.solution}" in page
        assert _flat(item.why) in page
    assert "remainder 0 is read as 13, the K" in page


def test_a_class_sheet_shows_suits_and_speaks_portuguese():
    positions = ["fits-past-the-king", "legal-buried"]
    page = _pages(worksheet_pdf(exercise_ids=positions))[0]
    assert "A♠" in page and "top card of waste 2 go to foundation 1" in page and "Name: ____" in page
    set_language("pt")
    page = _pages(answer_sheet_pdf(exercise_ids=["next-complete"]))[0]
    assert "O relógio de 13: respostas" in page and "toda a turma" in page
    assert BANK["next-complete"].item(0).solution == "nenhum" and "Resposta: nenhum" in page
