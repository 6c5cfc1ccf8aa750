"""No answer to an exercise of the lesson can be read from an output on its own page, and the page has no key."""

import json
import re
from pathlib import Path

from calcnb.lessons import BANK

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _outputs(name: str) -> str:
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def _page(name: str) -> str:
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")


def test_the_lesson_prints_nothing_an_exercise_asks():
    shown = _outputs("02_wraparound.ipynb")
    # the clock: no printed line works out where a question's number lands
    for (total,) in BANK["clock"].variants:
        assert not re.search(rf"(?<!\d){total} (=|≡)", shown), total
    # the first number past a start that lands on K: no multiple of 13 past the printed table is worked out
    for (start,) in BANK["next-king"].variants:
        assert not re.search(rf"(?<!\d){(start // 13 + 1) * 13} (=|≡)", shown), start
    # the next card and the card at a place: the orders of +3 and +4 are never printed
    assert not re.search(r"^\+[34] +\|", shown, re.MULTILINE)
    # other clocks: the clock sizes asked about are not tabled
    for _step, ranks in BANK["visits"].variants:
        assert not re.search(rf"^{ranks} +\|", shown, re.MULTILINE)
    # the inverse and the place of a rank: no inverse asked about is worked out, no place table printed
    for (step,) in BANK["inverse"].variants:
        assert f"{step}⁻¹" not in shown
    assert "\\ rank" not in shown


def test_the_student_pages_carry_no_answer_key_and_the_teacher_notes_do():
    for name in ("02_wraparound.ipynb", "pt/02_wraparound.ipynb", "03_worked_example.ipynb"):
        text = _page(name) + _outputs(name)
        for words in ("Answer:", "Resposta:", "answer_key", "Teacher", "Professor"):
            assert words not in text, (name, words)
    teacher = _outputs("teacher/02_wraparound_teacher.ipynb")
    assert "Answer:" in teacher and "off by one" in teacher


def test_the_rules_notebook_deals_starters_of_different_suits():
    code = "\n".join(
        "".join(cell["source"])
        for cell in json.loads((NOTEBOOKS / "01_rules.ipynb").read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
    )
    seeds = set(re.findall(r"seed=(\d+)", code))
    assert len(seeds) == 1  # one deal, used throughout
    from calcnb import Game

    starters = [pile[0] for pile in Game.new(seed=int(seeds.pop())).foundations]
    assert len({card.suit for card in starters}) == 4  # nothing suggests the starters share a suit


def test_the_hint_in_the_worked_example_says_something_true():
    from calcnb.lessons.rules_example import POSITIONS
    from calcnb.players.advice import hint

    game = POSITIONS["two-choices"]()
    move, why = hint(game.state)
    chosen = len(game.foundations[move.foundation - 1])
    assert "fewest cards" not in why or chosen == min(len(pile) for pile in game.foundations)
