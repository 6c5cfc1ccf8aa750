"""The printed worksheet and its answer sheet: read back from the PDF, each student's own questions, numbered
as on their screen and in the teacher's key, on A4 and on Letter, the answers on one page a student."""

from io import BytesIO

import pypdf
import pytest

from calcnb import set_language
from calcnb.exercises.items import answer_key
from calcnb.exercises.worksheet import PAPERS, answer_sheet_pdf, save_sheets, worksheet_pdf
from calcnb.lessons import BANK, lesson
from calcnb.ui.lesson import Quiz

WRAPAROUND = lesson("wraparound")  # the clock of 13

# PDF points (1/72 inch): A4 is 210 × 297 mm, Letter 8.5 × 11 inches
PAPER_POINTS = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
KEY = "a class key for the tests"


def _reader(pdf: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(BytesIO(pdf))


def _pages(pdf: bytes) -> list[str]:
    """The text of each page, with line breaks and runs of spaces made single spaces."""
    return [" ".join(page.extract_text().split()) for page in _reader(pdf).pages]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("paper", PAPERS)
def test_each_student_gets_their_own_questions_numbered_with_room_to_work(paper):
    names = ["Ana", "Bruno", "Carla"]
    pdf = worksheet_pdf(WRAPAROUND, names, class_key=KEY, paper=paper)
    reader = _reader(pdf)
    assert {tuple(round(float(v), 2) for v in page.mediabox[2:]) for page in reader.pages} == {PAPER_POINTS[paper]}
    pages = _pages(pdf)
    assert len(pages) == 2 * len(names)  # two pages a student: both sides of one sheet, each with the name
    for index, name in enumerate(names):
        sheet = " ".join(pages[2 * index : 2 * index + 2])
        assert pages[2 * index].count(f"Name: {name}") == 1 and pages[2 * index + 1].count(f"Name: {name}") == 1
        for number, item in enumerate(BANK.student_items(name, WRAPAROUND.exercises, KEY), start=1):
            assert f"{number}. {_flat(item.question)}" in sheet
            assert item.solution not in sheet.split(_flat(item.question))[1].split("Answer")[0]
        assert sheet.count("Answer: ____") == len(WRAPAROUND.exercises) and "Why:" not in sheet
    assert pages[0] != pages[2].replace("Bruno", "Ana")  # neighbours do not share a sheet


@pytest.mark.slow
@pytest.mark.parametrize("paper", PAPERS)
def test_the_answer_sheet_is_one_page_a_student_and_matches_the_key(paper):
    # every variant of every exercise appears on some page: the longest reasoning must fit too
    names = [f"student {number}" for number in range(40)]
    pages = _pages(answer_sheet_pdf(WRAPAROUND, names, class_key=KEY, paper=paper))
    assert len(pages) == len(names)
    for name, page in zip(names, pages):
        items = BANK.student_items(name, WRAPAROUND.exercises, KEY)
        key = _flat(answer_key(items))  # the teacher notebook's key: "1. question  (answer) — why" lines
        for number, item in enumerate(items, start=1):
            assert f"{number}. {_flat(item.question)}" in page
            assert f"Answer: {item.solution}. Why: {_flat(item.why)}" in page
            # the same number, question and answer as the teacher notebook's key
            assert f"{number}. {_flat(item.question)} Answer: {item.solution}." in key


def test_the_sheets_number_the_questions_as_the_students_screen_does():
    quiz = Quiz(BANK, class_key=KEY)
    quiz.show(*WRAPAROUND.exercises)
    quiz.use_name("Ana")
    screen = [exercise.prompt.value for exercise in quiz.exercises]
    items = BANK.student_items("Ana", WRAPAROUND.exercises, KEY)
    sheet = " ".join(_pages(worksheet_pdf(WRAPAROUND, ["Ana"], class_key=KEY)))
    for number, (shown, item) in enumerate(zip(screen, items), start=1):
        assert shown == f"<b>{number}. {item.question}</b>".replace("'", "&#x27;")
        assert f"{number}. {_flat(item.question)}" in sheet
    # and the teacher's key numbers them the same way
    assert [line.split(".")[0] for line in answer_key(items).splitlines() if line[:1].isdigit()] == [
        str(number) for number in range(1, len(items) + 1)
    ]


def test_without_the_class_key_the_sheets_show_other_questions():
    keyed = " ".join(_pages(worksheet_pdf(WRAPAROUND, ["Ana"], class_key=KEY)))
    plain = " ".join(_pages(worksheet_pdf(WRAPAROUND, ["Ana"])))
    assert keyed != plain


def test_the_files_are_named_in_the_teachers_language(tmp_path):
    written = save_sheets(WRAPAROUND, tmp_path / "en", ["Ana"], class_key=KEY, paper="Letter")
    assert [path.name for path in written] == ["wraparound-worksheet-Letter.pdf", "wraparound-answers-Letter.pdf"]
    set_language("pt")
    written = save_sheets(WRAPAROUND, tmp_path / "pt", ["Ana"], class_key=KEY)
    assert [path.name for path in written] == ["wraparound-ficha-A4.pdf", "wraparound-respostas-A4.pdf"]
    pages = _pages(written[1].read_bytes())
    assert len(pages) == 1 and "O relógio de 13 — respostas" in pages[0] and "Resposta:" in pages[0]


def test_an_unknown_paper_size_is_refused_with_the_sizes_there_are():
    with pytest.raises(ValueError, match="A4, Letter"):
        worksheet_pdf(WRAPAROUND, ["Ana"], paper="A5")


def test_a_class_sheet_shows_suits_and_speaks_portuguese():
    positions = ["fits-past-the-king", "legal-buried"]
    page = _pages(worksheet_pdf(lesson("rules_example"), exercise_ids=positions))[0]
    assert "A♠" in page and "top card of waste 2 go to foundation 1" in page and "Name: ____" in page
    set_language("pt")
    page = _pages(answer_sheet_pdf(WRAPAROUND, exercise_ids=["next-complete"]))[0]
    assert "O relógio de 13 — respostas" in page and "toda a turma" in page
    assert BANK["next-complete"].item(0).solution == "nenhum" and "Resposta: nenhum" in page


def test_each_question_has_room_to_work_under_it():
    from calcnb.exercises.worksheet import _WORKING_ROOM

    for page in _reader(worksheet_pdf(WRAPAROUND, ["Ana"], class_key=KEY)).pages:
        lines: list[tuple[float, str]] = []

        def seen(text, _matrix, text_matrix, *_rest, lines=lines):
            if text.strip():
                lines.append((text_matrix[5], text))

        page.extract_text(visitor_text=seen)
        # from the last line of each question down to its answer line, at least the working room is blank
        answers = [y for y, text in lines if text.startswith("Answer:")]
        assert answers
        for answer_y in answers:
            above = max(y for y, text in lines if y > answer_y)
            assert above - answer_y >= _WORKING_ROOM * 72 / 25.4
