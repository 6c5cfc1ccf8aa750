"""The rules engine: move notation, legal moves, refusals with reasons, outcome, explanations.

Every rule and edge of the engine issue has a test here, and at the end the engine is
played side by side with ``tests/reference_rules.py`` (written from the seed text alone)
over hundreds of random games and positions, comparing every step.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
import reference_rules as ref
from sweeps import SIZES

from calcnb import IllegalMove, InvalidMove, Move, State
from calcnb.game.cards import DECK, Card, parse_cards
from calcnb.game.deals import deal, format_deal
from calcnb.game.engine import (
    ALL_MOVES,
    REFUSAL_CODES,
    STOCK_TO_FOUNDATION,
    STOCK_TO_WASTE,
    TURN,
    WASTE_TO_FOUNDATION,
    Refusal,
    render_text,
)
from calcnb.i18n import LANGUAGES, catalogue, message, set_language

# ------------------------------------------------------------------ helpers

FULL_ORDERS = (
    "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣",
    "2♦ 4♦ 6♦ 8♦ 10♦ Q♦ A♦ 3♦ 5♦ 7♦ 9♦ J♦ K♦",
    "3♥ 6♥ 9♥ Q♥ 2♥ 5♥ 8♥ J♥ A♥ 4♥ 7♥ 10♥ K♥",
    "4♠ 8♠ Q♠ 3♠ 7♠ J♠ 2♠ 6♠ 10♠ A♠ 5♠ 9♠ K♠",
)


def position(
    foundations,
    wastes=("", "", "", ""),
    pending=None,
    stock="",
    rest: str = "stock",
) -> State:
    """A consistent position: the cards not named go to the stock (after those named), or under
    the named cards of one waste (``rest="W2"``), so what a test names stays on top."""
    named = [c for pile in foundations for c in parse_cards(pile)] + [c for pile in wastes for c in parse_cards(pile)]
    named += list(parse_cards(stock)) + ([Card.parse(pending)] if pending else [])
    others = [card for card in DECK if card not in named]
    waste_piles = [list(parse_cards(pile)) for pile in wastes]
    stock_cards = list(parse_cards(stock))
    if rest == "stock":
        stock_cards += others
    else:
        index = int(rest[1:]) - 1
        waste_piles[index] = others + waste_piles[index]
    return State.from_position(foundations=foundations, wastes=waste_piles, stock=stock_cards, pending=pending)


def texts(moves) -> list[str]:
    return [move.text for move in moves]


# The seed's worked example: step 1 at Q, step 2 at Q♦ (2-4-6-8-10-Q), A♠ turned.
WORKED_EXAMPLE = dict(
    foundations=["A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣", "2♦ 4♦ 6♦ 8♦ 10♦ Q♦", "3♥", "4♠"],
    pending="A♠",
)


# ------------------------------------------------------------------ move notation


def test_there_are_25_moves_in_the_documented_order():
    expected = ["T", "S>F1", "S>F2", "S>F3", "S>F4", "S>W1", "S>W2", "S>W3", "S>W4"]
    expected += [f"W{w}>F{k}" for w in range(1, 5) for k in range(1, 5)]
    assert texts(ALL_MOVES) == expected
    assert Move.all() == ALL_MOVES
    assert len(set(ALL_MOVES)) == 25


@pytest.mark.parametrize("move", ALL_MOVES, ids=str)
def test_every_move_prints_and_parses_back_to_the_same_object(move):
    assert Move.parse(str(move)) is move
    assert Move.parse(move.text.lower()) is move
    assert Move(move.text) is move
    assert eval(repr(move), {"Move": Move}) is move
    assert Move.parse(move) is move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("t", "T"), (" T ", "T"), ("s>f2", "S>F2"), ("S > W3", "S>W3"), ("w3>f2", "W3>F2"), (" W4 >  F1", "W4>F1")],
)
def test_move_notation_is_case_and_space_insensitive(text, canonical):
    assert Move.parse(text).text == canonical


def test_move_fields():
    assert (TURN.kind, TURN.waste, TURN.foundation, TURN.source) == ("turn", None, None, "stock")
    s2f = Move.parse("S>F2")
    assert (s2f.kind, s2f.waste, s2f.foundation, s2f.foundation_index) == ("stock_to_foundation", None, 2, 1)
    assert s2f is STOCK_TO_FOUNDATION[1]
    s2w = Move.parse("S>W3")
    assert (s2w.kind, s2w.waste, s2w.waste_index, s2w.foundation, s2w.source) == ("stock_to_waste", 3, 2, None, "stock")
    assert s2w is STOCK_TO_WASTE[2]
    w2f = Move.parse("W3>F2")
    assert (w2f.kind, w2f.waste, w2f.foundation, w2f.source) == ("waste_to_foundation", 3, 2, "W3")
    assert (w2f.waste_index, w2f.foundation_index) == (2, 1)
    assert w2f is WASTE_TO_FOUNDATION[2][1]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("W1>W2", "waste piles only move to foundations"),
        ("w4 > w1", "waste piles only move to foundations"),
        ("F1>W1", "foundations never give cards back"),
        ("F2>F3", "foundations never give cards back"),
        ("W1>S", "nothing goes back to the stock"),
        ("S>T", "nothing goes back to the stock"),
        ("S>F5", "there are 4 foundations, F1 to F4"),
        ("W1>F0", "there are 4 foundations, F1 to F4"),
        ("S>F", "there are 4 foundations, F1 to F4"),
        ("W5>F1", "there are 4 waste piles, W1 to W4"),
        ("S>W9", "there are 4 waste piles, W1 to W4"),
        ("X", "write T, S>F2, S>W3 or W3>F2"),
        ("", "write T, S>F2, S>W3 or W3>F2"),
        ("TT", "write T, S>F2, S>W3 or W3>F2"),
        ("S>F1>F2", "write T, S>F2, S>W3 or W3>F2"),
        ("S>", "write T, S>F2, S>W3 or W3>F2"),
        ("Q>F1", "write T, S>F2, S>W3 or W3>F2"),
    ],
)
def test_text_that_can_never_be_a_move_is_refused_saying_why(text, why):
    with pytest.raises(InvalidMove) as caught:
        Move.parse(text)
    assert isinstance(caught.value, ValueError)
    assert repr(text) in str(caught.value)
    assert why in str(caught.value)


@pytest.mark.parametrize("thing", [None, 3, 2.5, ["T"], b"T"])
def test_non_text_is_not_a_move(thing):
    with pytest.raises(InvalidMove, match="is not a move"):
        Move.parse(thing)


# ------------------------------------------------------------------ legal moves


def test_opening_allows_only_a_turn():
    starters, stock = deal(1)
    state = State.initial(starters, stock)
    assert state.legal_moves() == [TURN]
    assert state.pending is None
    assert state.score == 4
    assert state.needs() == (2, 4, 6, 8)
    assert state.status == "playing"


def test_a_turn_shows_the_next_stock_card_which_must_be_placed_before_the_next_turn():
    starters, stock = deal(1)
    state = State.initial(starters, stock).apply("T")
    assert state.pending is stock[0]
    assert state.stock == stock[1:]
    assert TURN not in state.legal_moves()
    assert not state.is_legal("T")
    assert state.why_illegal("T") == f"the turned card {stock[0]} must be placed before the next turn"
    with pytest.raises(IllegalMove, match=r"^T: the turned card .* must be placed before the next turn$"):
        state.apply("T")
    placed = state.apply("S>W1")
    assert placed.pending is None
    assert placed.wastes[0] == (stock[0],)
    assert placed.legal_moves()[0] is TURN


def test_pending_card_goes_to_a_fitting_foundation_or_any_waste():
    state = position(["A♣", "2♦", "3♥", "4♠"], pending="2♠")
    assert texts(state.legal_moves()) == ["S>F1", "S>W1", "S>W2", "S>W3", "S>W4"]
    after = state.apply("S>F1")
    assert after.foundations[0] == parse_cards("A♣ 2♠")
    assert after.pending is None
    assert after.score == 5


def test_a_pending_card_that_fits_nowhere_may_still_go_on_any_waste():
    state = position(["A♣", "2♦", "3♥", "4♠"], pending="K♠", wastes=["5♦", "", "", "9♣"])
    assert texts(state.legal_moves()) == ["S>W1", "S>W2", "S>W3", "S>W4"]
    after = state.apply("S>W4")
    assert after.wastes[3] == parse_cards("9♣ K♠")


def test_waste_tops_move_to_foundations_with_a_pending_card():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["", "4♦", "", "2♥"], pending="6♣")
    assert texts(state.legal_moves()) == ["S>F3", "S>W1", "S>W2", "S>W3", "S>W4", "W2>F2", "W4>F1"]
    after = state.apply("W2>F2")
    assert after.pending is Card.parse("6♣")  # the pending card stays turned
    assert after.wastes[1] == ()
    assert after.foundations[1] == parse_cards("2♦ 4♦")
    assert TURN not in after.legal_moves()


def test_waste_tops_move_to_foundations_without_a_pending_card():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["8♥", "", "", ""], stock="K♦")
    assert texts(state.legal_moves()) == ["T", "W1>F4"]
    assert state.apply("W1>F4").foundations[3] == parse_cards("4♠ 8♥")


def test_only_the_top_of_a_waste_may_move():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["2♠ K♦", "", "", ""])
    assert "W1>F1" not in texts(state.legal_moves())
    assert state.why_illegal("W1>F1") == "foundation 1 needs 2 after A; the top of waste 1 is K♦"


def test_a_tie_between_two_foundations_is_two_moves():
    # Foundation 1 (A 2) and foundation 2 (2 4 6 8 10 Q A) both need a 3.
    state = position(
        ["A♣ 2♣", "2♦ 4♦ 6♦ 8♦ 10♦ Q♦ A♦", "3♥", "4♠"], wastes=["3♣", "", "", ""], pending="3♠", stock="5♥"
    )
    assert state.needs() == (3, 3, 6, 8)
    assert texts(state.legal_moves()) == ["S>F1", "S>F2", "S>W1", "S>W2", "S>W3", "S>W4", "W1>F1", "W1>F2"]
    to_first, to_second = state.apply("S>F1"), state.apply("S>F2")
    assert to_first.foundations[0][-1] is Card.parse("3♠")
    assert to_second.foundations[1][-1] is Card.parse("3♠")
    assert to_first != to_second


def test_a_three_way_tie():
    # foundation 1 (A 2 3), foundation 2 (2) and foundation 3 (3 6 9 Q 2 5 8 J A) all need a 4
    state = position(["A♣ 2♣ 3♣", "2♦", "3♥ 6♥ 9♥ Q♥ 2♥ 5♥ 8♥ J♥ A♥", "4♠"], pending="4♦")
    assert state.needs() == (4, 4, 4, 8)
    assert texts(state.legal_moves())[:3] == ["S>F1", "S>F2", "S>F3"]


def test_a_complete_foundation_accepts_nothing():
    # After A..K on foundation 1, the formula would ask for an ace again: the rules say no.
    state = position([FULL_ORDERS[0], "2♦", "3♥", "4♠"], wastes=["A♦", "", "", ""], pending="A♠")
    assert state.needs() == (None, 4, 6, 8)
    assert texts(state.legal_moves()) == ["S>W1", "S>W2", "S>W3", "S>W4"]
    assert state.why_illegal("S>F1") == "foundation 1 is complete (it ends in K) and accepts nothing more"
    assert state.why_illegal("W1>F1") == "foundation 1 is complete (it ends in K) and accepts nothing more"
    with pytest.raises(IllegalMove, match="S>F1: foundation 1 is complete"):
        state.apply("S>F1")


def test_a_complete_foundation_2_refuses_a_two():
    state = position(["A♣", FULL_ORDERS[1], "3♥", "4♠"], pending="2♠")
    assert state.needs() == (2, None, 6, 8)
    assert texts(state.legal_moves()) == ["S>F1", "S>W1", "S>W2", "S>W3", "S>W4"]


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_each_foundation_needs_the_next_rank_of_its_order(step):
    order = parse_cards(FULL_ORDERS[step - 1])
    for held in range(1, 13):
        piles = ["A♣", "2♦", "3♥", "4♠"]
        piles[step - 1] = " ".join(map(str, order[:held]))
        state = position(piles, pending=str(order[held]))
        assert state.needs()[step - 1] == order[held].rank
        assert STOCK_TO_FOUNDATION[step - 1] in state.legal_moves()


def test_legal_moves_are_a_fresh_list_each_time():
    state = position(["A♣", "2♦", "3♥", "4♠"], stock="5♦")
    moves = state.legal_moves()
    moves.append(Move.parse("S>W1"))
    assert state.legal_moves() == [TURN]


# ------------------------------------------------------------------ refusals


def test_the_seed_worked_example_refusal_reads_in_game_terms():
    state = position(**WORKED_EXAMPLE)
    assert state.why_illegal("S>F1") == "foundation 1 needs K after Q; the turned card is A♠"
    with pytest.raises(IllegalMove) as caught:
        state.apply("S>F1")
    error = caught.value
    assert str(error) == "S>F1: foundation 1 needs K after Q; the turned card is A♠"
    assert error.move is Move.parse("S>F1")
    assert error.reason == "foundation 1 needs K after Q; the turned card is A♠"
    assert isinstance(error, ValueError)
    assert state == position(**WORKED_EXAMPLE)  # unchanged
    assert state.is_legal("S>F2")


@pytest.mark.parametrize(
    ("kwargs", "move", "reason"),
    [
        (dict(pending="5♦"), "T", "the turned card 5♦ must be placed before the next turn"),
        (dict(rest="W1"), "T", "the stock is empty; there is no second pass"),
        (dict(stock="5♦"), "S>W2", "no card is turned; turn one with T first"),
        (dict(stock="5♦"), "S>F1", "no card is turned; turn one with T first"),
        (dict(stock="5♦"), "W3>F1", "waste 3 is empty"),
        (dict(pending="5♦"), "S>F3", "foundation 3 needs 6 after 3; the turned card is 5♦"),
        (dict(wastes=["", "", "", "J♥"], rest="W1"), "W4>F4", "foundation 4 needs 8 after 4; the top of waste 4 is J♥"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(kwargs, move, reason):
    state = position(["A♣", "2♦", "3♥", "4♠"], **kwargs)
    before = state
    assert state.why_illegal(move) == reason
    assert not state.is_legal(move)
    with pytest.raises(IllegalMove) as caught:
        state.apply(move)
    assert str(caught.value) == f"{move}: {reason}"
    assert state == before


def test_why_illegal_is_none_exactly_for_legal_moves():
    state = position(["A♣ 2♣", "2♦ 4♦ 6♦ 8♦ 10♦ Q♦ A♦", "3♥", "4♠"], wastes=["3♣", "8♣", "", ""], pending="3♠")
    for move in ALL_MOVES:
        assert (state.why_illegal(move) is None) == (move in state.legal_moves()) == state.is_legal(move.text)


def test_why_illegal_refuses_malformed_text():
    state = position(["A♣", "2♦", "3♥", "4♠"], stock="5♦")
    with pytest.raises(InvalidMove):
        state.why_illegal("W1>W2")
    with pytest.raises(InvalidMove):
        state.apply("F1>W1")


@pytest.mark.parametrize(
    ("kwargs", "move", "code", "values"),
    [
        (dict(pending="5♦"), "T", "pending_first", dict(card=Card.parse("5♦"))),
        (dict(rest="W1"), "T", "stock_empty", {}),
        (dict(stock="5♦"), "S>W2", "nothing_pending", {}),
        (dict(stock="5♦"), "S>F1", "nothing_pending", {}),
        (dict(stock="5♦"), "W3>F1", "waste_empty", dict(waste=3)),
        (dict(foundations=FULL_ORDERS[0], pending="A♠"), "S>F1", "complete", dict(foundation=1)),
        (dict(pending="5♦"), "S>F3", "needs_pending", dict(foundation=3, need="6", top="3", card=Card.parse("5♦"))),
        (
            dict(wastes=["", "", "", "J♥"], rest="W1"),
            "W4>F4",
            "needs_waste",
            dict(foundation=4, need="8", top="4", card=Card.parse("J♥"), waste=4),
        ),
    ],
)
def test_a_refusal_is_a_code_and_its_values_that_each_voice_words(kwargs, move, code, values):
    kwargs = dict(kwargs)
    state = position([kwargs.pop("foundations", "A♣"), "2♦", "3♥", "4♠"], **kwargs)
    assert state.refusal(move) == Refusal(code, values)
    assert state.why_illegal(move) == message("illegal." + code, **values)


def test_every_refusal_code_is_worded_by_both_voices_in_every_language():
    for language in LANGUAGES:
        for code in REFUSAL_CODES:
            assert f"illegal.{code}" in catalogue(language) and f"widget.why.{code}" in catalogue(language)


def test_refusals_in_portuguese():
    set_language("pt")
    state = position(**WORKED_EXAMPLE)
    assert state.why_illegal("S>F1") == "a base 1 precisa de K após Q; a carta virada é A♠"
    with pytest.raises(InvalidMove, match="um descarte só vai para uma base"):
        Move.parse("W1>W2")


# ------------------------------------------------------------------ playing is pure


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone():
    starters, stock = deal(3)
    state = State.initial(starters, stock)
    after = state.apply("T").apply("S>W2")
    assert state == State.initial(starters, stock)
    assert after.wastes[1] == (stock[0],)
    assert isinstance(after, State)
    assert hash(after) == hash(State.initial(starters, stock).apply("T").apply("S>W2"))


def test_hot_path_agrees_with_checked_apply():
    rng = random.Random(5)
    starters, stock = deal(5)
    state = State.initial(starters, stock)
    while moves := state.legal_moves():
        move = rng.choice(moves)
        checked = state.apply(move)
        assert state._apply_legal(move) == checked
        assert type(checked) is State
        state = checked


def test_states_moves_and_refusals_survive_pickling_and_copying():
    # parallel studies send them between processes
    state = position(**WORKED_EXAMPLE)
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    for move in ALL_MOVES:
        assert pickle.loads(pickle.dumps(move)) is move
        assert copy.copy(move) is move and copy.deepcopy(move) is move
    with pytest.raises(IllegalMove) as caught:
        state.apply("S>F1")
    revived = pickle.loads(pickle.dumps(caught.value))
    assert isinstance(revived, IllegalMove)
    assert (str(revived), revived.move, revived.reason) == (str(caught.value), caught.value.move, caught.value.reason)
    invalid = pickle.loads(pickle.dumps(InvalidMove("'X' is not a move")))
    assert str(invalid) == "'X' is not a move"


def test_an_error_holds_its_reason_and_values_and_is_worded_when_read():
    """Raised in English, read in Portuguese: the words are chosen where the error is shown."""
    state = position(**WORKED_EXAMPLE)
    with pytest.raises(IllegalMove) as caught:
        state.apply("S>F1")
    with pytest.raises(InvalidMove) as bad:
        Move.parse("W1>W2")
    error, refusal = caught.value, state.refusal("S>F1")
    assert error.key == "illegal.prefix" and error.values["move"] == Move.parse("S>F1")
    assert error.values["reason"].key == f"illegal.{refusal.code}" and error.values["reason"].values == refusal.values
    assert (bad.value.key, bad.value.values) == ("move.waste_to_waste", {"text": "'W1>W2'"})
    english, english_bad = str(error), str(bad.value)
    revived = pickle.loads(pickle.dumps(error))
    set_language("pt")
    try:
        portuguese = message("illegal.prefix", move="S>F1", reason=message(f"illegal.{refusal.code}", **refusal.values))
        assert str(error) == str(revived) == portuguese != english
        assert error.reason == state.why_illegal("S>F1") and str(bad.value) != english_bad
    finally:
        set_language("en")
    assert str(error) == english and str(bad.value) == english_bad


# ------------------------------------------------------------------ outcome and score


def test_score_counts_foundation_cards_including_the_starters():
    assert position(["A♣", "2♦", "3♥", "4♠"], stock="5♦").score == 4
    assert position(**WORKED_EXAMPLE).score == 12 + 6 + 1 + 1
    assert position(list(FULL_ORDERS)).score == 52


def test_won_with_all_52_on_the_foundations():
    state = position(list(FULL_ORDERS))
    assert state.status == "won"
    assert state.is_terminal()
    assert state.legal_moves() == []
    assert state.needs() == (None, None, None, None)


def test_the_last_card_wins():
    piles = list(FULL_ORDERS)
    piles[3] = FULL_ORDERS[3].rsplit(" ", 1)[0]
    state = position(piles, wastes=["K♠", "", "", ""])
    assert state.status == "playing"
    assert texts(state.legal_moves()) == ["W1>F4"]
    assert state.explain("W1>F4") == "K♠ onto 9♠ on foundation 4: 9 + 4 = 13 (K); foundation 4 is complete"
    won = state.apply("W1>F4")
    assert (won.status, won.score) == ("won", 52)


def test_lost_when_the_stock_is_spent_nothing_is_turned_and_no_waste_top_fits():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["5♦", "K♠", "", "J♣"], rest="W1")
    assert state.stock == () and state.pending is None
    assert state.legal_moves() == []
    assert state.status == "lost"
    assert state.is_terminal()
    assert state.score == 4


def test_not_lost_while_a_waste_top_fits():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["5♦", "K♠", "", "2♣"], rest="W1")
    assert texts(state.legal_moves()) == ["W4>F1"]
    assert state.status == "playing"
    assert state.apply("W4>F1").status == "lost"  # 3 next on F1, and no top is a 3, 4, 6 or 8


def test_not_lost_while_a_card_is_pending_or_the_stock_remains():
    pending = position(["A♣", "2♦", "3♥", "4♠"], wastes=["5♦", "", "", ""], pending="K♠", rest="W1")
    assert pending.stock == ()
    assert pending.status == "playing"
    stock_left = position(["A♣", "2♦", "3♥", "4♠"], wastes=["5♦", "", "", ""], stock="K♠", rest="W1")
    assert stock_left.status == "playing"
    assert stock_left.apply("T").apply("S>W1").status == "lost"


def test_a_finished_game_refuses_every_move():
    for state in (
        position(list(FULL_ORDERS)),
        position(["A♣", "2♦", "3♥", "4♠"], wastes=["5♦", "", "", ""], rest="W1"),
    ):
        for move in ALL_MOVES:
            assert state.why_illegal(move) is not None
            with pytest.raises(IllegalMove):
                state.apply(move)


# ------------------------------------------------------------------ explanations


def test_the_seed_worked_example_explained():
    state = position(**WORKED_EXAMPLE)
    assert state.explain("S>F2") == "A♠ onto Q♦ on foundation 2: 12 + 2 = 14, and 14 wraps past K to 1 (A)"


@pytest.mark.parametrize(
    ("foundations", "pending", "move", "sentence"),
    [
        (["A♣", "2♦", "3♥", "4♠"], "2♠", "S>F1", "2♠ onto A♣ on foundation 1: 1 + 1 = 2"),
        (
            ["A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣", "2♦", "3♥", "4♠"],
            "J♠",
            "S>F1",
            "J♠ onto 10♣ on foundation 1: 10 + 1 = 11 (J)",
        ),
        (
            ["A♣", "2♦", "3♥ 6♥ 9♥ Q♥", "4♠"],
            "2♠",
            "S>F3",
            "2♠ onto Q♥ on foundation 3: 12 + 3 = 15, and 15 wraps past K to 2 (2)",
        ),
        (
            ["A♣", "2♦", "3♥", "4♠ 8♠ Q♠"],
            "3♦",
            "S>F4",
            "3♦ onto Q♠ on foundation 4: 12 + 4 = 16, and 16 wraps past K to 3 (3)",
        ),
        (
            [FULL_ORDERS[0].rsplit(" ", 1)[0], "2♦", "3♥", "4♠"],
            "K♠",
            "S>F1",
            "K♠ onto Q♣ on foundation 1: 12 + 1 = 13 (K); foundation 1 is complete",
        ),
    ],
)
def test_foundation_moves_explained_in_arithmetic(foundations, pending, move, sentence):
    assert position(foundations, pending=pending).explain(move) == sentence


def test_turn_and_waste_moves_explained():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["", "9♦", "", ""], stock="7♣ 8♣")
    assert state.explain("T") == (
        "Turned 7♣ from the stock (46 left): place it on a foundation that needs it or on a waste pile"
    )
    turned = state.apply("T")
    assert turned.explain("S>W1") == ("7♣ onto waste 1: any card may go on a waste, and only the top stays available")
    assert turned.explain("S>W2") == (
        "7♣ onto waste 2, on top of 9♦: any card may go on a waste, and only the top stays available"
    )


def test_explaining_an_illegal_move_raises():
    state = position(**WORKED_EXAMPLE)
    with pytest.raises(IllegalMove, match="S>F1: foundation 1 needs K after Q"):
        state.explain("S>F1")


def test_explain_in_portuguese():
    set_language("pt")
    assert (
        position(**WORKED_EXAMPLE).explain("S>F2") == "A♠ sobre Q♦ na base 2: 12 + 2 = 14, e 14 passa K e volta a 1 (A)"
    )


def test_every_legal_move_in_random_play_is_explained_with_its_arithmetic():
    rng = random.Random(2)
    foundation_moves = 0
    for seed in range(20):
        state = State.initial(*deal(seed))
        while moves := state.legal_moves():
            for move in moves:
                sentence = state.explain(move)
                card = state.card_moved_by(move)
                assert sentence.startswith(str(card)) or sentence.startswith(f"Turned {card}")
                if move.foundation is not None:
                    foundation_moves += 1
                    top, step = state.foundations[move.foundation_index][-1], move.foundation
                    total = top.rank + step
                    assert sentence.startswith(f"{card} onto {top} on foundation {step}: {top.rank} + {step} = {total}")
                    assert ("wraps past K to" in sentence) is (total > 13)
                    assert (card.rank - top.rank - step) % 13 == 0
            state = state.apply(rng.choice(moves))
    assert foundation_moves > 100


def test_card_moved_by_and_unseen_cards():
    state = position(["A♣", "2♦", "3♥", "4♠"], wastes=["", "9♦", "", ""], stock="7♣ 8♣")
    assert state.card_moved_by("T") is Card.parse("7♣")
    assert state.card_moved_by("W2>F1") is Card.parse("9♦")
    assert state.card_moved_by("W1>F1") is None
    assert state.card_moved_by("S>W1") is None
    assert state.apply("T").card_moved_by("S>F2") is Card.parse("7♣")
    assert state.unseen_cards() == frozenset(state.stock)
    assert len(state.unseen_cards()) == 52 - 4 - 1


# ------------------------------------------------------------------ positions


def test_from_position_accepts_text_or_cards_and_initial_matches():
    starters, stock = deal(9)
    by_text = State.from_position(
        foundations=[str(c) for c in starters], wastes=["", "", "", ""], stock=" ".join(c.ascii for c in stock)
    )
    assert by_text == State.initial(starters, stock)
    assert by_text == State.initial(" ".join(map(str, starters)), stock)


@pytest.mark.parametrize(
    ("kwargs", "fault"),
    [
        (dict(foundations=["A♣", "2♦", "3♥"]), "foundations must be 4 piles; found 3"),
        (dict(foundations=["A♣", "2♦", "3♥", "4♠"], wastes=["", ""]), "wastes must be 4 piles; found 2"),
        (dict(foundations=["A♣", "", "3♥", "4♠"]), "foundation 2 is empty; it starts with its starter, of rank 2"),
        (dict(foundations=["2♣", "A♦", "3♥", "4♠"]), "foundation 1 must start with rank A; found 2♣"),
        (dict(foundations=["A♣", "2♦ 5♦", "3♥", "4♠"]), "foundation 2 cannot hold 5♦ after 2♦: it needs 4"),
        (dict(foundations=["A♣ 2♣ 4♣", "2♦", "3♥", "4♠"]), "foundation 1 cannot hold 4♣ after 2♣: it needs 3"),
        (
            dict(foundations=[FULL_ORDERS[0] + " A♦", "2♦", "3♥", "4♠"]),
            "foundation 1 is complete with its 13 cards (it ends in K) and cannot hold A♦",
        ),
        (dict(foundations=["A♣", "2♦", "3♥", "4♠"], wastes=["A♣", "", "", ""]), "A♣ appears more than once"),
        (dict(foundations=["A♣", "2♦", "3♥", "4♠"], pending="4♠"), "4♠ appears more than once"),
        (
            dict(foundations=["A♣", "2♦", "3♥", "4♠"], stock="5♦"),
            "missing: a game uses each of the 52 cards exactly once",
        ),
        (dict(foundations=["A♣", "2♦", "3♥", "4♠"], stock="ZZ"), "'ZZ' is not a card"),
        (dict(foundations=["A♣", "2♦", "3♥", "4♠"], pending="1♠"), "'1♠' is not a card"),
    ],
)
def test_from_position_refuses_inconsistent_positions_saying_why(kwargs, fault):
    with pytest.raises(ValueError) as caught:
        State.from_position(**kwargs)
    assert fault in str(caught.value)


def test_from_position_names_the_missing_cards():
    cards = [c for c in DECK if c not in parse_cards("A♣ 2♦ 3♥ 4♠ K♠ 7♦")]
    with pytest.raises(ValueError, match=r"^7♦ K♠ missing"):
        State.from_position(foundations=["A♣", "2♦", "3♥", "4♠"], stock=cards)


# ------------------------------------------------------------------ the text board


def test_render_text_lists_every_pile_plainly():
    state = position(["A♣ 2♣", "2♦", "3♥", FULL_ORDERS[3]], wastes=["", "9♦ 5♦", "", ""], pending="7♣", stock="8♣")
    text = render_text(state)
    assert text == str(state)
    lines = text.splitlines()
    assert lines[0] == "Calculation: playing, score 17/52"
    assert "  F1 (+1): A♣ 2♣  (next 3)" in lines
    assert "  F4 (+4): " + FULL_ORDERS[3] + "  (complete)" in lines
    assert "  W1: empty" in lines
    assert "  W2: 9♦ 5♦  (top 5♦)" in lines
    assert "Stock: 32 cards face down" in lines
    assert lines[-1] == "Turned card: 7♣ (place it before the next turn)"
    assert all(line.isprintable() for line in lines)


# ------------------------------------------------------------------ side by side with the reference


def snapshot(state: State) -> tuple:
    """The engine's position as ASCII texts, the form the reference uses."""
    return (
        tuple(tuple(card.ascii for card in pile) for pile in state.foundations),
        tuple(tuple(card.ascii for card in pile) for pile in state.wastes),
        tuple(card.ascii for card in state.stock),
        None if state.pending is None else state.pending.ascii,
    )


class Coverage:
    """What the cross-check met, so a test can insist the interesting cases really happened."""

    def __init__(self) -> None:
        self.steps = self.ties = self.complete_refusals = self.won = self.lost = self.illegal_tries = 0


NAMED_MOVES = [(name, Move.parse(name)) for name in ref.MOVE_NAMES]


def cross_check(state: State, reference: ref.Position, rng: random.Random, coverage: Coverage) -> None:
    """Play random legal moves through both, with random illegal and malformed tries between them,
    comparing position, every move's legality, the legal-move list, status and score at every step."""
    greed = rng.choice([0.0, 0.5, 0.9, 1.0])  # how often a foundation move is preferred: reaches deeper games
    while True:
        coverage.steps += 1
        assert snapshot(state) == reference.snapshot()
        legal = texts(state.legal_moves())
        assert legal == reference.legal()
        for name, move in NAMED_MOVES:
            assert (state.why_illegal(move) is None) is reference.is_legal(name), name
        assert state.status == reference.status
        assert state.score == reference.score
        assert state.is_terminal() is (reference.status != "playing")
        assert state.needs() == tuple(reference.wanted(k) for k in (1, 2, 3, 4))
        sources = [m.split(">")[0] for m in legal if ">F" in m]
        coverage.ties += len(sources) != len(set(sources))
        available = [reference.pending] + [pile[-1] for pile in reference.wastes if pile]
        coverage.complete_refusals += any(
            card is not None and reference.wanted(k) is None and ref.rank_of(card) == k
            for card in available
            for k in (1, 2, 3, 4)
        )
        # an illegal try and a malformed one: refused, nothing changes
        illegal = [name for name in ref.MOVE_NAMES if not reference.is_legal(name)]
        before = snapshot(state)
        with pytest.raises(IllegalMove):
            state.apply(rng.choice(illegal))
        with pytest.raises(InvalidMove):
            state.apply(rng.choice(["W1>W2", "F1>W3", "S>F5", "W0>F1", "Z", "T>S", "S>S"]))
        coverage.illegal_tries += 1
        assert snapshot(state) == before
        if not legal:
            break
        foundation_moves = [m for m in legal if ">F" in m]
        move = rng.choice(foundation_moves if foundation_moves and rng.random() < greed else legal)
        after = state.apply(move)
        assert state._apply_legal(Move.parse(move)) == after
        state = after
        reference.play(move)
    coverage.won += state.status == "won"
    coverage.lost += state.status == "lost"


@pytest.mark.slow
def test_engine_matches_the_reference_over_random_games_from_seeded_deals():
    coverage = Coverage()
    for seed in range(300):
        rng = random.Random(seed)
        starters, stock = deal(seed)
        code = format_deal(starters, stock, ascii=seed % 2 == 0)
        state = State.initial(starters, stock)
        cross_check(state, ref.Position.opening(*ref.parse_deal_code(code)), rng, coverage)
    assert coverage.won + coverage.lost == 300
    assert coverage.lost > 0
    assert coverage.ties > 100
    assert coverage.complete_refusals > 0
    assert coverage.steps > 300 * 50


@pytest.mark.parametrize("size", SIZES)
def test_engine_matches_the_reference_from_random_positions_with_ties_and_complete_foundations(size):
    coverage = Coverage()
    seeds = range(400 if size == "whole" else 100)  # the first hundred: every mix of ties and complete foundations
    for seed in seeds:
        rng = random.Random(10_000 + seed)
        reference = ref.random_position(rng, tie=seed % 2 == 0, complete=seed % 3 == 0)
        state = State.from_position(**reference.as_text_piles())
        cross_check(state, reference, rng, coverage)
    # Wins are rare from random positions (14 in the 400, 2 in the first 100): the sample asks for one.
    won, lost, ties, complete_refusals = (10, 10, 200, 50) if size == "whole" else (0, 10, 50, 12)
    assert coverage.won > won
    assert coverage.lost > lost
    assert coverage.ties > ties
    assert coverage.complete_refusals > complete_refusals


def test_the_reference_itself_is_consistent():
    # its legal-move list and its move-by-move judgement are written separately: they must agree
    rng = random.Random(1)
    for _ in range(50):
        position_ = ref.random_position(rng, tie=True)
        assert position_.legal() == [name for name in ref.MOVE_NAMES if position_.is_legal(name)]
        every = [c for p in position_.foundations + position_.wastes for c in p] + position_.stock
        every += [position_.pending] if position_.pending is not None else []
        assert sorted(every) == sorted(ref.ALL_CARDS)
    assert {k: " ".join(ref.RANK_TEXT[r] for r in order) for k, order in ref.SEED_ORDERS.items()} == ref.SEED_ORDER_TEXT


def test_as_state_takes_a_state_a_game_or_a_deal_code():
    from calcnb import Game
    from calcnb.game.deals import deal, format_deal
    from calcnb.game.engine import as_state

    game = Game.new(seed=5)
    game.play("T")
    assert as_state(game) is game.state
    assert as_state(game.state) is game.state
    opening = State.initial(*deal(5))
    assert as_state(format_deal(*deal(5))) == opening
    assert as_state(format_deal(*deal(5), ascii=True)) == opening
    for nonsense in (5, None, b"AC 2D", ["T"]):
        with pytest.raises(TypeError, match="a Game, a State or a deal code"):
            as_state(nonsense)
    with pytest.raises(ValueError):  # text that is no deal code is refused as a deal, not as a type
        as_state("A♣ 2♦ 3♥ 4♠ | 5♠")
