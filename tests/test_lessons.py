"""Lesson helpers: tables equal the engine's orders; exercises say right or wrong, and why."""

import pytest

from calcnb import Game, IllegalMove, foundation_order, modular_inverse, next_rank, position_in_order, set_language
from calcnb.cards import RANK_COUNT, rank_name
from calcnb.engine import ALL_MOVES
from calcnb.i18n import catalogue
from calcnb.lessons import (
    Exercise,
    answer_key,
    attempt,
    clock_exercise,
    clock_table,
    coverage_table,
    fits_exercise,
    inverse_exercise,
    inverse_table,
    last_card_exercise,
    legal_exercise,
    lesson_game,
    move_table,
    multiples_table,
    nearly_won_game,
    next_card_exercise,
    next_card_table,
    order_table,
    position_exercise,
    position_table,
    position_text,
    positions_check,
    replay_lines,
    replay_script,
    visits_exercise,
)


def _body(table: str) -> list[list[str]]:
    """The cells of a printed table's rows after the header, the row label dropped."""
    return [line.split("|", 1)[1].split() for line in table.splitlines()[1:]]


# ---------------------------------------------------------------- tables


def test_order_table_rows_are_the_engine_orders():
    rows = _body(order_table())
    assert rows == [[rank_name(rank) for rank in foundation_order(step)] for step in (1, 2, 3, 4)]
    assert rows[1][:7] == ["2", "4", "6", "8", "10", "Q", "A"]  # the seed's 2-4-6-8-10-Q, then A


def test_next_card_table_follows_next_rank():
    rows = _body(next_card_table())
    for step, row in zip((1, 2, 3, 4), rows):
        assert row == [rank_name(next_rank(top, step)) for top in range(1, 14)]
    assert rows[1][11] == "A"  # Q + 2 = 14 wraps to A


def test_position_table_agrees_with_the_orders_and_the_engine():
    rows = _body(position_table())
    for step, row in zip((1, 2, 3, 4), rows):
        places = [int(cell) for cell in row]
        assert places == [position_in_order(rank, step) for rank in range(1, 14)]
        assert [foundation_order(step)[place - 1] for place in places] == list(range(1, 14))
    assert "52" in positions_check()


def test_inverse_table_inverses_multiply_to_one():
    for line in inverse_table().splitlines()[1:]:
        step, inverse = (int(cell) for cell in line.replace("|", " ").split()[:2])
        assert inverse == modular_inverse(step)
        assert step * inverse % RANK_COUNT == 1


def test_multiples_table_ends_in_k_for_every_step():
    for step in (1, 2, 3, 4):
        lines = multiples_table(step).splitlines()
        assert len(lines) == RANK_COUNT
        assert [line.split("→")[1].strip() for line in lines] == [rank_name(r) for r in foundation_order(step)]
        assert lines[-1].endswith("+  0 → K")


def test_clock_table_wraps_past_k():
    row = clock_table([12, 13, 14, 26, 27]).splitlines()[1].split("|")[1].split()
    assert row == ["Q", "K", "A", "K", "A"]


def test_coverage_table_shows_12_and_16_breaking():
    rows = [line.replace("|", " ").split() for line in coverage_table().splitlines()[1:]]
    verdicts = {(int(ranks), step): (reached, every) for ranks, step, reached, every in rows}
    assert all(verdicts[13, f"+{k}"] == ("13/13", "yes") for k in (1, 2, 3, 4))
    assert verdicts[12, "+2"] == ("6/12", "no")
    assert verdicts[16, "+3"] == ("16/16", "yes")
    assert verdicts[16, "+4"] == ("4/16", "no")


def test_move_table_marks_exactly_the_legal_moves_with_engine_reasons():
    game = Game.new(seed=7)
    game.play("T")
    state = game.state
    lines = move_table(state).splitlines()[1:]
    assert len(lines) == len(ALL_MOVES)
    legal = set(state.legal_moves())
    for move, line in zip(ALL_MOVES, lines):
        assert line.split()[0] == move.text
        if move in legal:
            assert "✓" in line and state.explain(move) in line
        else:
            assert "✗" in line and state.why_illegal(move) in line


# ---------------------------------------------------------------- positions and moves


def test_attempt_plays_a_legal_move_and_refuses_an_illegal_one_unchanged():
    game = Game.new(seed=3)
    before = game.state
    said = attempt(game, "S>F1")
    assert said.startswith("✗") and before.why_illegal("S>F1") in said
    assert game.state is before
    said = attempt(game, "W1>W2")
    assert said.startswith("✗") and "never to another waste" in said
    assert game.state is before
    said = attempt(game, "T")
    assert said.startswith("✓ T") and game.history == (game.history[0],) and game.state.pending == before.stock[0]


def test_lesson_game_is_complete_and_nearly_won_wins_in_one_move():
    game = nearly_won_game()
    assert game.status == "playing" and game.score == 51
    attempt(game, game.legal_moves()[0])
    assert game.status == "won" and game.score == 52
    built = lesson_game((5, "2♣ 4♥", 1, 1), wastes=("K♣ 5♥", "", "", ""), pending="A♠")
    assert built.state.pending.rank == 1 and len(built.state.foundations[0]) == 5
    with pytest.raises(ValueError, match="1 to 13"):
        lesson_game((14, 1, 1, 1))


def test_position_text_shows_every_card_but_no_hint():
    game = lesson_game((3, 4, 8, 1), wastes=("K♦", "5♣ 9♠", "", ""), pending="A♠")
    text = position_text(game)
    assert "(next" not in text and "(top" not in text
    assert "F3 (+3): " + " ".join(map(str, game.foundations[2])) in text
    assert "W2: 5♣ 9♠" in text and "A♠" in text and f"Stock: {len(game.stock)} cards" in text


def test_replay_lines_and_script_follow_the_game():
    game = Game.new(seed=11)
    game.play_many("T S>W1 T")
    lines = replay_lines(game).splitlines()
    assert len(lines) == 4 and lines[1].startswith("1. T:") and lines[2].startswith("2. S>W1:")
    script = replay_script(game)
    assert [step.state for step in script] == list(game.states)
    assert [step.last_move for step in script[1:]] == list(game.history)


# ---------------------------------------------------------------- exercises


def _answer(exercise: Exercise, text: str):
    """Type ``text`` into the answer box and click Check, as a person would."""
    exercise.answer_box.value = text
    exercise.check_button.click()
    return exercise.last


def test_next_card_exercise_right_wrong_and_why():
    exercise = next_card_exercise(12, 2)
    right = _answer(exercise, "A")
    assert right.correct is True and "12 + 2 = 14" in right.text and "✓" in exercise.feedback.value
    assert _answer(exercise, "1").correct is True
    unreduced = _answer(exercise, "14")
    assert unreduced.correct is False and "no rank 14" in unreduced.text and "✗" in exercise.feedback.value
    other = _answer(exercise, "K")
    assert other.correct is False and "adds 2" in other.text
    assert _answer(exercise, "banana").correct is None


def test_inverse_exercise_says_the_remainder_of_a_wrong_answer():
    exercise = inverse_exercise(4)
    assert _answer(exercise, str(modular_inverse(4))).correct is True
    wrong = _answer(exercise, "3")
    assert wrong.correct is False and "4 × 3 = 12" in wrong.text and "remainder 12, not 1" in wrong.text
    assert _answer(exercise, "40").correct is False


def test_position_exercise_says_what_a_wrong_place_holds():
    exercise = position_exercise(1, 2)
    assert exercise.solution == str(position_in_order(1, 2))
    assert _answer(exercise, exercise.solution).correct is True
    wrong = _answer(exercise, "6")
    assert wrong.correct is False and "place 6 of foundation +2 holds Q, not A" in wrong.text


def test_clock_last_card_and_visits_exercises():
    assert _answer(clock_exercise(26), "K").correct is True
    zero = _answer(clock_exercise(26), "0")
    assert zero.correct is False and "no 0" in zero.text
    assert _answer(last_card_exercise(3), "K").correct is True
    assert _answer(last_card_exercise(3), "13").correct is True  # a rank may be written as its number
    wrong = _answer(last_card_exercise(3), "3")
    assert wrong.correct is False
    assert "13 × 3" in wrong.text
    unreadable = _answer(last_card_exercise(3), "banana")
    assert unreadable.correct is None
    assert "A, 2 to 10, J, Q or K" in unreadable.text
    visits = visits_exercise(2, 12)
    assert _answer(visits, "6").correct is True
    assert "gcd(2, 12) = 2" in visits.why
    assert _answer(visits, "12").correct is False


def test_fits_exercise_judged_by_the_engine():
    # Foundation 1 needs 5 after 4 and foundation 4 needs 5 after A: a turned 5 fits both.
    game = lesson_game((4, 1, 1, 10), pending="5♠")
    exercise = fits_exercise(game)
    assert set(exercise.solution.split(" / ")) == {"1", "4"}
    assert _answer(exercise, "4").correct is True and "also fits foundation 1" in exercise.last.text
    wrong = _answer(exercise, "2")
    assert wrong.correct is False and game.why_illegal("S>F2") in wrong.text
    assert _answer(exercise, "waste").correct is False
    nowhere = fits_exercise(lesson_game((1, 1, 1, 1), pending="K♠"))
    assert nowhere.solution == "waste" and _answer(nowhere, "waste").correct is True


def test_legal_exercise_gives_the_engine_reason():
    game = lesson_game((12, 6, 1, 1), wastes=("K♣ 5♥", "", "", ""), pending="A♠")
    buried = legal_exercise(game, "W1>F1")
    said_yes = _answer(buried, "yes")
    assert said_yes.correct is False and game.why_illegal("W1>F1") in said_yes.text
    assert _answer(buried, "no").correct is True
    fits = legal_exercise(game, "S>F2")
    assert _answer(fits, "sim").correct is True and "wraps past K" in fits.last.text
    with pytest.raises(IllegalMove):
        game.explain("W1>F1")  # the buried K is not the top: the engine refuses it too


def test_show_answer_and_answer_key():
    exercise = inverse_exercise(2)
    exercise.show_button.click()
    assert "7" in exercise.feedback.value and exercise.last is None
    key = answer_key([exercise, position_exercise(1, 2)])
    assert key.startswith("1. ") and "Answer: 7." in key and "2. " in key


def test_exercises_speak_portuguese():
    set_language("pt")
    exercise = next_card_exercise(12, 2)
    assert exercise.check_button.description == "Verificar"
    assert _answer(exercise, "14").text.startswith("✗ Não é 14")
    assert _answer(exercise, "A").text.startswith("✓ Certo")


def test_lesson_messages_exist_in_both_languages():
    english = {key for key in catalogue("en") if key.startswith("lessons.")}
    portuguese = {key for key in catalogue("pt") if key.startswith("lessons.")}
    assert english and english == portuguese


def test_every_check_tells_the_answer_listeners_and_a_failing_one_breaks_nothing():
    from calcnb.lessons import add_answer_listener, remove_answer_listener

    heard = []

    def broken(attempt):
        raise RuntimeError("the recorder is down")

    exercise = next_card_exercise(12, 2)
    exercise.exercise_id, exercise.variant = "next-card", 3
    add_answer_listener(broken)
    add_answer_listener(heard.append)
    try:
        with pytest.warns(RuntimeWarning, match="recorder is down"):
            said = _answer(exercise, "banana")
        assert said.correct is None and "A, 2 to 10" in exercise.feedback.value
        with pytest.warns(RuntimeWarning):
            _answer(exercise, "A")
    finally:
        remove_answer_listener(broken)
        remove_answer_listener(heard.append)
    assert "✓" in exercise.feedback.value
    assert [(a.exercise_id, a.variant, a.answer, a.correct, a.misconception, a.language) for a in heard] == [
        ("next-card", 3, "banana", False, "unreadable", "en"),
        ("next-card", 3, "A", True, None, "en"),
    ]
    assert all(a.timestamp > 0 for a in heard)
    _answer(exercise, "K")
    assert len(heard) == 2  # removed listeners hear nothing more
