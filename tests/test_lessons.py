"""Lesson helpers: tables equal the engine's orders; exercises say right or wrong, and why."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sweeps import examples

from calcnb import Game, foundation_order, modular_inverse, next_rank, position_in_order, set_language
from calcnb.exercises.items import answer_key, judge
from calcnb.exercises.tables import (
    attempt,
    clock_table,
    coverage_table,
    inverse_table,
    lesson_game,
    move_table,
    multiples_table,
    nearly_won_game,
    next_card_table,
    order_table,
    position_table,
    position_text,
    positions_check,
    replay_lines,
    replay_script,
)
from calcnb.exercises.words import game_summary, played_again, same_game, save_summary, status_summary, took_back
from calcnb.game.cards import RANK_COUNT, rank_name
from calcnb.game.engine import ALL_MOVES
from calcnb.i18n import catalogue
from calcnb.lessons import BANK, MISCONCEPTIONS, lesson
from calcnb.lessons.rules_example import POSITIONS
from calcnb.ui.lesson import Exercise, Quiz, add_answer_listener, remove_answer_listener

WRAPAROUND = lesson("wraparound")  # the clock of 13


def _body(table: str) -> list[list[str]]:
    """The cells of a printed table's rows after the header, the row label dropped."""
    return [line.split("|", 1)[1].split() for line in table.splitlines()[1:]]


# ---------------------------------------------------------------- tables


def test_order_table_rows_are_the_engine_orders():
    rows = _body(order_table())
    assert rows == [[rank_name(rank) for rank in foundation_order(step)] for step in (1, 2, 3, 4)]
    assert rows[1][:7] == ["2", "4", "6", "8", "10", "Q", "A"]  # the seed's 2-4-6-8-10-Q, then A


def test_next_card_table_follows_next_rank_and_a_king_completes_the_foundation():
    table = next_card_table()
    rows = _body("\n".join(table.splitlines()[:5]))
    for step, row in zip((1, 2, 3, 4), rows):
        assert row[:12] == [rank_name(next_rank(top, step)) for top in range(1, 13)]
        assert row[12] == "done"  # K on top: the foundation is complete, nothing goes on
    assert rows[1][11] == "A"  # Q + 2 = 14 wraps to A
    assert "complete" in table.splitlines()[-1]


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


def test_a_game_in_words_says_what_the_game_did_in_either_language():
    """Notebook 04's sentences about a game come from the catalogue, with the game's own figures, in either language."""
    game = Game.new(seed=11)
    game.play_many("T S>W1 T")
    twin = game.copy()
    said = {}
    for language in ("en", "pt"):
        set_language(language)
        saved = json.loads(game.to_json())
        said[language] = [
            game_summary(game),
            status_summary(game.state),
            took_back(twin.undo(), twin.undo()),
            played_again(twin.redo(), None),
            save_summary(saved),
            same_game(twin, game),
        ]
        twin.redo()
    assert said["en"] == [
        "after 3 moves: playing, score 4/52",
        "playing, score 4/52",
        "took back T and S>W1",
        "played again S>W1",
        "saved: 'format', 'version', 'deal', 'seed', 'moves' - 3 moves",
        "same moves: no - same position: no",
    ]
    assert said["pt"] == [
        "após 3 jogadas: em jogo, pontos 4/52",
        "em jogo, pontos 4/52",
        "jogadas desfeitas: T e S>W1",
        "jogadas refeitas: S>W1",
        "guardado: 'format' (o formato), 'version' (a versão), 'deal' (a distribuição), 'seed' (a semente), "
        "'moves' (as jogadas) - 3 jogadas",
        "mesmas jogadas: não - mesma posição: não",
    ]
    set_language("en")
    assert took_back(None) == "took back nothing" and same_game(twin, game) == "same moves: yes - same position: yes"
    assert save_summary({"moves": ["T"], "extra": 1}) == "saved: 'moves', 'extra' - 1 move"
    won = nearly_won_game()
    won.play(won.legal_moves()[0])
    assert game_summary(won) == "after 1 move: won, score 52/52" == f"after 1 move: {status_summary(won)}"


# ---------------------------------------------------------------- the exercise bank


def _answer(exercise: Exercise, text: str):
    """Type ``text`` into the answer box and click Check, as a person would."""
    exercise.answer_box.value = text
    exercise.check_button.click()
    return exercise.last


def _items(exercise_id):
    kind = BANK[exercise_id]
    return [kind.item(variant) for variant in range(len(kind.variants))]


def test_every_variant_accepts_its_computed_answer_and_names_only_known_misconceptions():
    for exercise_id in BANK:
        for item in _items(exercise_id):
            assert item.exercise_id == exercise_id
            assert judge(item, item.solution).correct is True, item
            assert judge(item, item.solution.split(" ")[0]).correct is True, item
            assert {misconception for misconception, _ in item.wrong.values()} <= {*MISCONCEPTIONS, None}
            for reading in item.wrong:
                assert reading not in item.accepted


def test_answers_vary_and_two_lesson_items_need_no_wraparound():
    first = [BANK[exercise_id].item(0) for exercise_id in WRAPAROUND.exercises]
    assert len({item.solution for item in first}) >= 6  # typing one answer every time cannot score
    plain = [exercise_id for exercise_id in WRAPAROUND.exercises if not any(item.wraps for item in _items(exercise_id))]
    assert len(plain) >= 2
    for exercise_id in WRAPAROUND.exercises:  # every numeric exercise has variants with different answers
        if exercise_id not in {"next-complete", "last-card", "clock-king"}:
            assert len({item.solution for item in _items(exercise_id)}) > 1, exercise_id


def test_the_next_card_is_computed_by_the_rules_and_past_k_wraps():
    for item in _items("next-wrap") + _items("next-plain") + _items("next-small"):
        top, step = BANK[item.exercise_id].variants[item.variant]
        assert item.accepted == {next_rank(top, step)}
        assert item.wraps == (top + step > RANK_COUNT)
        assert top != RANK_COUNT  # a K on top is complete: its own exercise
    wrap = BANK["next-wrap"].item(0)
    top, step = BANK["next-wrap"].variants[0]
    forgot = judge(wrap, str(top + step))
    assert forgot.misconception == "no_wraparound" and f"no rank {top + step}" in forgot.text
    near = judge(wrap, str(next_rank(top, step) + 1))
    assert near.misconception == "off_by_one"


def test_a_foundation_with_k_on_top_is_complete_in_the_exercise():
    for item in _items("next-complete"):
        (step,) = BANK["next-complete"].variants[item.variant]
        assert judge(item, "none").correct is True and judge(item, "nenhum").correct is True
        wrapped = judge(item, rank_name(next_rank(RANK_COUNT, step)))
        assert wrapped.correct is False and wrapped.misconception == "past_complete" and "K on top" in wrapped.text
        assert "complete" not in wrapped.text  # the feedback points at the reason without saying the answer
        assert "K" in item.question and "complete" in item.why


def test_king_misconceptions_zero_and_thirteen_times_k():
    last = BANK["last-card"].item(0)
    (place, step) = BANK["last-card"].variants[0]
    assert last.solution.startswith("K")
    assert judge(last, "0").misconception == "zero_for_king"
    assert judge(last, str(place * step)).misconception == "multiple_for_king"  # 52 for K on foundation +4
    assert judge(last, "52").text.startswith("✗ Not 52: 52 is 13 × 4")
    king = BANK["clock-king"].item(BANK.variant_for("clock-king", "x"))
    (total,) = BANK["clock-king"].variants[king.variant]
    assert judge(king, "0").misconception == "zero_for_king"
    assert judge(king, str(total)).misconception == "multiple_for_king"
    assert judge(king, str(total // 13)).misconception == "counted_laps"


def test_counting_the_start_and_every_number_reached_on_other_clocks():
    for item in _items("visits"):
        step, ranks = BANK["visits"].variants[item.variant]
        count = len(foundation_order(step, ranks))
        assert item.accepted == {count}
        assert judge(item, str(count + 1)).misconception == "counting_the_start"
        assert judge(item, str(count - 1)).misconception == "counting_the_start"
        assert judge(item, str(ranks)).misconception == "every_number_reached"
        assert ranks not in (12, 13, 16)  # the clocks tabled in the lesson


def test_inverse_and_position_feedback_name_the_wrong_idea():
    for item in _items("inverse"):
        (step,) = BANK["inverse"].variants[item.variant]
        assert item.accepted == {modular_inverse(step)}
        assert judge(item, f"1/{step}").misconception == "reciprocal"
        wrong = next(x for x in range(1, 13) if x != modular_inverse(step))
        assert f"remainder {step * wrong % 13}, not 1" in judge(item, str(wrong)).text
    for item in _items("position"):
        rank, step = BANK["position"].variants[item.variant]
        assert item.accepted == {position_in_order(rank, step)}
        multiplied = (rank * step) % 13 or 13
        if multiplied != position_in_order(rank, step) and multiplied != rank:
            assert judge(item, str(multiplied)).misconception == "multiplied_not_divided"
        if rank != position_in_order(rank, step):
            assert judge(item, str(rank)).misconception == "rank_as_place"


def test_the_buried_card_and_the_fitting_foundations_of_notebook_03():
    buried = BANK["legal-buried"].item(0)
    said = judge(buried, "yes")
    assert said.misconception == "buried_card" and "buried under K♠" in said.text and "4♦" in said.text
    assert judge(buried, "no").correct is True
    two = BANK["fits-two-choices"].item(0)
    game = POSITIONS["two-choices"]()
    fitting = {move.foundation for move in game.legal_moves() if move.kind == "stock_to_foundation"}
    assert fitting == {1, 4}
    for text in ("1", "4", "1 and 4", "F1, F4", "4 e 1"):
        assert judge(two, text).correct is True, text
    assert game.why_illegal("S>F2") in judge(two, "2").text
    assert judge(two, "waste").correct is False
    assert judge(BANK["fits-buried"].item(0), "waste").correct is True


WEIRD = ["", " ", "²", "--5", "−3", "١٢", "５", "x" * 10_000, "9" * 10_000, "1/0", "0.5", "\x00", "🂡", "A♠", "K K"]


def test_the_judge_reads_odd_text_without_raising():
    for exercise_id in BANK:
        item = BANK[exercise_id].item(0)
        for text in WEIRD:
            verdict = judge(item, text)
            assert verdict.correct in (True, False, None) and verdict.text
            assert len(verdict.text) < 600
    clock = BANK["clock"].item(0)
    assert judge(clock, "²").correct is None and judge(clock, "--5").correct is None
    assert judge(clock, "x" * 10_000).correct is None


@settings(max_examples=examples(300), deadline=None)
@given(
    exercise_id=st.sampled_from(sorted(BANK)),
    text=st.one_of(
        st.text(),
        st.text(alphabet=st.characters(categories=["Nd", "No", "Pd", "Sm"]), max_size=12),
        st.integers().map(str),
        st.just("x" * 10_000),
    ),
)
def test_the_judge_never_raises_on_any_text_and_always_answers(exercise_id, text):
    item = BANK[exercise_id].item(0)
    verdict = judge(item, text)
    assert verdict.correct in (True, False, None) and verdict.text
    if verdict.correct is None:
        assert verdict.text.startswith("?")


def test_each_check_replaces_the_feedback_and_show_answer_waits_for_a_wrong_answer():
    exercise = Exercise(BANK["next-wrap"].item(0), reveal=True)
    assert exercise.show_button.layout.display == "none" and exercise.reveal() == ""
    assert _answer(exercise, exercise.item.solution.split()[0]).correct is True
    assert "✓" in exercise.feedback.value
    for text in ("²", "--5", "", "a paragraph " * 50):
        assert _answer(exercise, text).correct is None
        assert "✓" not in exercise.feedback.value and "?" in exercise.feedback.value
    assert exercise.show_button.layout.display == "none"  # unreadable answers open nothing
    top, step = BANK["next-wrap"].variants[0]
    assert _answer(exercise, str(top + step)).correct is False
    assert exercise.show_button.layout.display == "none"  # ...nor does a wrong one after a right one
    exercise.set_item(exercise.item)
    assert _answer(exercise, str(top + step)).correct is False
    assert exercise.show_button.layout.display is None
    exercise.show_button.click()
    assert exercise.item.solution in exercise.feedback.value


def test_a_quiz_gives_each_name_its_own_variants_with_computed_answers():
    quiz = Quiz(BANK)
    group = quiz.show(*WRAPAROUND.exercises)
    assert repr(group).startswith("ExerciseGroup(['clock'")
    quiz.use_name("  Ana   Silva ")
    chosen = [(exercise.exercise_id, exercise.item.variant, exercise.item.question) for exercise in group.exercises]
    assert chosen == [(item.exercise_id, item.variant, item.question) for item in WRAPAROUND.student_items("ana silva")]
    names = ("Ana", "Bruno", "Carla", "Duarte")
    many = {tuple(item.variant for item in WRAPAROUND.student_items(name)) for name in names}
    assert len(many) == 4  # neighbours do not get the same sheet
    first = group.exercises[0]
    _answer(first, "x")
    quiz.use_name("Bruno")
    assert first.feedback.value == "" and first.attempts == 0 and first.show_button.layout.display == "none"
    quiz.use_name("   ")
    assert quiz.seed == "Bruno"


def test_show_answer_and_answer_key():
    items = BANK.student_items("Ana", ["inverse", "position"])
    key = answer_key(items)
    assert key.startswith("1. ") and f"Answer: {items[0].solution}." in key and "2. " in key


def test_every_check_tells_the_answer_listeners_and_a_failing_one_breaks_nothing():
    heard = []

    def broken(attempt):
        raise RuntimeError("the recorder is down")

    exercise = Exercise(BANK["next-wrap"].item(3))
    add_answer_listener(broken)
    add_answer_listener(heard.append)
    try:
        with pytest.warns(RuntimeWarning, match="recorder is down"):
            said = _answer(exercise, "banana")
        assert said.correct is None and "A, 2 to 10" in exercise.feedback.value
        with pytest.warns(RuntimeWarning):
            _answer(exercise, exercise.item.solution.split()[0])
        top, step = BANK["next-wrap"].variants[3]
        set_language("pt")
        said_in_portuguese = r"^o ouvinte de respostas test_.*\.broken falhou: RuntimeError\('the recorder is down'\)$"
        with pytest.warns(RuntimeWarning, match=said_in_portuguese):
            _answer(exercise, str(top + step))
        set_language("en")
    finally:
        remove_answer_listener(broken)
        remove_answer_listener(heard.append)
    assert [(a.exercise_id, a.variant, a.outcome, a.misconception, a.language) for a in heard] == [
        ("next-wrap", 3, "unreadable", None, "en"),  # an outcome of its own, never a wrong answer
        ("next-wrap", 3, "right", None, "en"),
        ("next-wrap", 3, "wrong", "no_wraparound", "pt"),  # checked in Portuguese
    ]
    assert heard[0].answer == "banana" and all(a.timestamp > 0 for a in heard)
    _answer(exercise, "K")
    assert len(heard) == 3  # removed listeners hear nothing more


def test_exercises_speak_portuguese():
    set_language("pt")
    exercise = Exercise(BANK["next-wrap"].item(0))
    assert exercise.check_button.description == "Verificar"
    top, step = BANK["next-wrap"].variants[0]
    assert _answer(exercise, str(top + step)).text.startswith(f"✗ Não é {top + step}")
    assert _answer(exercise, exercise.item.solution.split()[0]).text.startswith("✓ Certo")
    assert judge(BANK["next-complete"].item(0), "nenhum").correct is True


def test_misconceptions_have_names_and_lesson_messages_exist_in_both_languages():
    english = {key for key in catalogue("en") if key.startswith("lessons.")}
    portuguese = {key for key in catalogue("pt") if key.startswith("lessons.")}
    assert english and english == portuguese
    assert {f"lessons.mis.{name}" for name in MISCONCEPTIONS} <= english


def test_a_board_that_shows_the_answer_appears_only_once_every_question_is_tried():
    quiz = Quiz(BANK, seed="Ana")
    group = quiz.show("legal-buried", "fits-buried", board=POSITIONS["buried"]())
    assert group.after in group.children and group.after.layout.display == "none"
    _answer(group.exercises[0], "yes")
    assert group.after.layout.display == "none"
    _answer(group.exercises[1], "²")
    assert group.after.layout.display is None


def test_wasting_a_card_that_fits_past_k_is_forgetting_the_wraparound():
    past = BANK["fits-past-the-king"].item(0)
    said = judge(past, "waste")
    assert said.misconception == "no_wraparound" and "wraps round to A" in said.text
    assert "11 + 3" not in said.text and "foundation 3" not in said.text  # which foundation is the answer
    assert judge(BANK["fits-two-choices"].item(0), "waste").misconception is None  # 4 + 1 and A + 4 do not wrap


def test_enter_in_the_answer_box_checks_the_answer():
    exercise = Exercise(BANK["next-complete"].item(0))
    exercise.answer_box.value = "none"
    exercise.answer_box._handle_string_msg(exercise.answer_box, {"event": "submit"}, [])  # what Enter sends
    assert exercise.attempts == 1 and exercise.last.correct is True


# ---------------------------------------------------------------- variants that really differ


def _shared_answers_per_pair(names: list[str], class_key: str | None) -> float:
    from itertools import combinations

    from calcnb.lessons import BANK

    answers = {
        name: [item.solution for item in BANK.student_items(name, WRAPAROUND.exercises, class_key)] for name in names
    }
    pairs = list(combinations(names, 2))
    return sum(sum(a == b for a, b in zip(answers[x], answers[y])) for x, y in pairs) / len(pairs)


def test_thirty_random_nicknames_share_at_most_two_answers_a_pair_on_average():
    import random
    import string

    rng = random.Random(34)
    for class_key in (None, "0" * 32, "a class key"):
        names = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 9))) for _ in range(30)]
        assert _shared_answers_per_pair(names, class_key) <= 2


def test_no_lesson_exercise_has_one_answer_for_everyone():
    from calcnb.lessons import BANK

    for exercise_id in WRAPAROUND.exercises:
        kind = BANK[exercise_id]
        answers = {kind.item(variant).solution for variant in range(len(kind.variants))}
        assert len(answers) >= 3, exercise_id


def test_the_first_number_past_a_start_that_lands_on_k():
    from calcnb.exercises.items import judge
    from calcnb.lessons import BANK

    kind = BANK["next-king"]
    for variant, (start,) in enumerate(kind.variants):
        item = kind.item(variant)
        answer = next(n for n in range(start + 1, start + 14) if n % 13 == 0)  # counted, not computed
        assert item.solution == str(answer) and judge(item, str(answer)).correct
        assert judge(item, str(start + 13)).misconception == "added_thirteen"
        assert judge(item, str(answer - 13)).misconception == "multiple_below"
        assert judge(item, "13").correct is False and judge(item, "K").correct is False


def test_how_many_cards_a_foundation_still_takes():
    from calcnb.exercises.items import judge
    from calcnb.game.cards import foundation_order
    from calcnb.lessons import BANK

    kind = BANK["to-complete"]
    for variant, (top, step) in enumerate(kind.variants):
        item = kind.item(variant)
        order = foundation_order(step)
        still = len(order) - 1 - order.index(top)  # the cards after the top, to the K
        assert item.solution == str(still) and judge(item, str(still)).correct
        if still == 0:  # complete: "none" says it too, and any card at all is past complete
            assert judge(item, "none").correct and judge(item, "1").misconception == "past_complete"
        else:
            assert judge(item, "none").correct is False
            assert judge(item, str(still + 1)).misconception == "counting_the_start"
