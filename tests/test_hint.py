"""The Hint says why it passed over a legal foundation move, thinks within its budget, and never lags the board.

Every position here is driven through the engine (``Game``) or the widget's buttons (``board.press(name)``);
nothing is timed: the budget is tested by what it stops and says, not by a clock.
"""

from __future__ import annotations

import random

import pytest

from calcnb import Game
from calcnb.game.engine import ALL_MOVES, TURN
from calcnb.game.rules import MoveKind
from calcnb.i18n import set_language
from calcnb.players import advice
from calcnb.players.advice import (
    MINIMUM_ORDERS,
    deliberate,
    forget_hints,
    hint,
    hint_deliberation,
    hint_player,
    hint_player_for,
    hint_player_sentence,
)
from calcnb.players.blind import Determinized
from calcnb.players.ladder import ReverseNeed
from calcnb.players.table import PlayerView
from calcnb.solver import COMPILED
from calcnb.ui.play import PlayBoard, hint_sentence

needs_determinized = pytest.mark.skipif(
    not isinstance(hint_player(), Determinized),
    reason="the hint weighs imagined orders only where the solver runs compiled",
)
TO_FOUNDATION = (MoveKind.STOCK_TO_FOUNDATION, MoveKind.WASTE_TO_FOUNDATION)


def _turn_first_position() -> Game:
    """No card turned; waste 1's 5♣ fits foundation 1, which needs a 5 now, while foundation 2 needs a 5 later
    (so playing it is a real choice, not a move that can never hurt): the hint turns first."""
    return Game.from_position(
        foundations=["A♣ 2♣ 3♣ 4♣", "2♦", "3♥", "4♠"],
        wastes=["5♣", "", "", ""],
        stock=[card for card in _rest("A♣ 2♣ 3♣ 4♣ 2♦ 3♥ 4♠ 5♣")],
    )


def _rest(used: str) -> list[str]:
    from calcnb.game.cards import DECK, Card

    taken = {Card.parse(text) for text in used.split()}
    rest = [card for card in DECK if card not in taken]
    random.Random(7).shuffle(rest)
    return rest


def _passed_over(game: Game, move) -> list:
    """The legal foundation moves the hint did not advise."""
    return [other for other in game.legal_moves() if other.kind in TO_FOUNDATION and other is not move]


def _named(game: Game, other) -> bool:
    """Does the hint's Why? name ``other`` (its card, and where it comes from)?"""
    state, why = game.state, hint(game)[1]
    if other.kind == MoveKind.STOCK_TO_FOUNDATION:
        return f"the turned card, {state.pending}," in why
    card = state.wastes[other.waste_index][-1]
    return f"{card} from waste {other.waste}" in why or f"{card} on waste {other.waste}" in why


# ---------------------------------------------------------------- a foundation move not advised


# Interpreted, the hint asks Monte Carlo (calcnb.players.advice.hint_player_for), which plays this foundation move.
DETERMINIZED_HINT = pytest.mark.skipif(not COMPILED, reason="the interpreted hint's player is Monte Carlo")


@DETERMINIZED_HINT
def test_a_turn_advised_over_a_legal_foundation_move_names_it_and_says_why():
    game = _turn_first_position()
    move, why = hint(game)
    assert move is TURN and any(m.text == "W1>F1" for m in game.legal_moves())
    assert "Nothing else was worth weighing" not in why
    assert why.startswith("Turn the next card first: moving 5♣ from waste 1 to foundation 1 can wait")
    assert "can still go up after the turn" in why
    # and it is true: after the turn the same move is still there to play
    game.play(TURN)
    assert any(m.text == "W1>F1" for m in game.legal_moves())


def test_watch_says_the_same_of_the_determinized_players_turn():
    move, why = advice.advise(_turn_first_position(), Determinized())
    assert move is TURN and why.startswith("Turn the next card first: moving 5♣ from waste 1 to foundation 1")


@DETERMINIZED_HINT
def test_the_turn_first_reason_speaks_portuguese_as_tu():
    set_language("pt")
    _, why = hint(_turn_first_position())
    assert why.startswith("Vira primeiro a próxima carta: passar 5♣ do descarte 1 para a base 1 pode esperar")
    assert "virares" in why and "você" not in why


def _weighed_position_with_a_foundation_move_passed_over() -> Game:
    """The first position of seeded random games where the hint weighed imagined orders and did not advise a
    legal move from a waste pile to a foundation (random play, unlike the players, leaves such moves about)."""
    for seed in range(10):
        rng = random.Random(seed)
        game = Game.new(seed)
        while game.legal_moves():
            state = game.state
            if state.pending is not None and any(m.kind == MoveKind.WASTE_TO_FOUNDATION for m in state.legal_moves()):
                thought = hint_deliberation(game)
                move = ALL_MOVES[thought.move]
                if thought.results and any(m.kind == MoveKind.WASTE_TO_FOUNDATION for m in _passed_over(game, move)):
                    return game
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no such position in ten games")


@needs_determinized
def test_a_weighed_hint_names_each_foundation_move_it_passed_over_with_what_it_scored():
    game = _weighed_position_with_a_foundation_move_passed_over()
    move, why = hint(game)
    thought = hint_deliberation(game)  # what the hint weighed (from its memory: the same analysis)
    chosen = thought.results[move.id]
    assert f"found a win after this move in {chosen.won} (and could not tell in {chosen.unknown})" in why
    for other in _passed_over(game, move):
        assert _named(game, other), (other, why)
        theirs = thought.results[other.id]
        if theirs.futures < chosen.futures:
            assert f"found a win in only {theirs.won} of the first {theirs.futures} orders" in why
        elif theirs.points < chosen.points:
            assert f"found a win in {theirs.won} of the same {theirs.futures} orders" in why
        else:  # a tie, broken by the blind play-outs, reverse need's own move or the order of the buttons
            assert "the solver's count on those orders was the same" in why
            wins, _ = thought.played_out[other.id]
            best, _ = thought.played_out[move.id]
            if wins < best:
                assert f"it won {wins} of those games after it, against {best} after this move" in why


@needs_determinized
def test_a_hint_that_runs_out_of_budget_says_how_many_orders_it_counted(monkeypatch):
    game = _weighed_position_with_a_foundation_move_passed_over()
    monkeypatch.setattr(advice, "HINT_NODES", 1)  # spent at once: the race stops after its minimum of orders
    forget_hints()
    move, why = hint(game)
    thought = hint_deliberation(game)
    assert thought.stopped and thought.counted == MINIMUM_ORDERS
    assert move in game.legal_moves()
    assert why.endswith(f"It stopped after {MINIMUM_ORDERS} of its 64 imagined orders, to answer quickly.")
    forget_hints()


# ---------------------------------------------------------------- every position of a few games


@needs_determinized
@pytest.mark.slow  # every position of a whole game, hinted: seconds
@pytest.mark.parametrize("seed", [0, 1])
def test_the_hint_at_every_position_of_a_game_is_legal_and_names_what_it_passed_over(seed):
    game = Game.new(seed)
    while True:
        move, why = hint(game)
        if move is None:
            assert game.status != "playing"
            break
        assert move in game.legal_moves(), (seed, len(game.history))
        assert why.endswith(".") and "{" not in why
        passed = _passed_over(game, move)
        if passed:
            assert "Nothing else was worth weighing" not in why
            for other in passed:
                assert _named(game, other), (seed, len(game.history), other, why)
        game.play(move)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_the_hint_at_every_position_of_reverse_needs_games_is_a_legal_move(seed):
    game = Game.new(seed)
    for played in ReverseNeed().play(seed).moves:
        move, why = hint(game)
        assert move in game.legal_moves(), (seed, len(game.history))
        assert why
        game.play(played)
    assert hint(game)[0] is None


# ---------------------------------------------------------------- the budget


@needs_determinized
@pytest.mark.slow
def test_without_a_budget_the_hint_deliberates_as_its_player_chooses():
    # the same candidates, orders, race and tie-breaks: where no budget stops it, the player's own choice
    player = hint_player_for(compiled=True)  # one like the hint's (which is never asked to choose: it would remember)
    game = Game.new(5)
    checked = 0
    for played in ReverseNeed().play(5).moves:
        view = PlayerView.of(game)
        if view.pending is not None and len(game.legal_moves()) > 2 and len(game.state.stock) < 16:
            thought = deliberate(player, view.table(), view.rng())
            assert thought.results and not thought.stopped
            assert ALL_MOVES[thought.move] == player.choose(game)
            checked += 1
            if checked == 4:
                break
        game.play(played)
    assert checked == 4


def test_a_hint_asked_again_is_remembered_and_ignores_the_stock_order(monkeypatch):
    monkeypatch.setattr(advice, "HINT_SECONDS", float("inf"))  # only the node budget: the same on any machine
    game = Game.new(9)
    game.play_many(ReverseNeed().play(9).moves[:41])
    first = hint(game)
    assert hint(game) == first
    stock = list(game.state.stock)
    random.Random(1).shuffle(stock)
    forget_hints()  # think again, on a stock in another order
    assert hint(game.state._replace(stock=tuple(stock))) == first


# ---------------------------------------------------------------- the widget: a Hint after a move


def _board(seed: int) -> PlayBoard:
    """A board whose redraws show its first picture again (the drawing has its own tests; these are about the hint)."""
    board = PlayBoard(seed=seed)
    first = board.png
    board.renderer.render_png = lambda *args, **kwargs: first
    return board


def _assert_shows_the_hint_of_the_board_position(board: PlayBoard) -> None:
    state = board.game.state
    move, why = hint(state)
    assert board.hinted is move and move in state.legal_moves()
    assert board.message == hint_sentence(state, move)
    assert board.detail == f"{why} {hint_player_sentence()}"
    assert board.buttons[move.text].tone == "hint"


@pytest.mark.slow
@pytest.mark.parametrize("follow", [True, False], ids=["the hinted move", "another move"])
def test_a_hint_after_a_move_shows_the_new_positions_hint(follow):
    board = _board(seed=11)
    rng = random.Random(3)
    for _ in range(25):
        board.press("hint")
        _assert_shows_the_hint_of_the_board_position(board)
        before = board.game.state
        move = board.hinted if follow else rng.choice(board.game.legal_moves())
        board.press(move.text)
        assert board.game.state is not before and board.hinted is None  # the old hint is gone with its position
        if board.game.status != "playing":
            break
        board.press("hint")  # the new position's hint, not nothing and not the old one
        _assert_shows_the_hint_of_the_board_position(board)


def test_a_hint_after_an_undo_shows_the_earlier_positions_hint():
    board = _board(seed=12)
    for name in ("T", "hint"):
        board.press(name)
    hinted = board.hinted
    board.press(hinted.text)
    board.press("undo")
    board.press("hint")
    _assert_shows_the_hint_of_the_board_position(board)
    assert board.hinted is hinted


def test_a_hint_while_the_game_moves_under_it_is_about_the_position_shown(monkeypatch):
    # Watch plays from its own thread: a move lands while the hint thinks. The hint then thinks again.
    board = _board(seed=13)
    thinking = advice.hint
    moved = []

    def hint_while_watch_plays(position):
        answer = thinking(position)
        if not moved:
            moved.append(board.game.legal_moves()[0])
            board.game.play(moved[0])
        return answer

    monkeypatch.setattr(advice, "hint", hint_while_watch_plays)
    board.press("hint")
    assert moved and board.game.history[-1] == moved[0]
    _assert_shows_the_hint_of_the_board_position(board)


def test_a_game_that_never_stops_moving_gets_no_stale_hint(monkeypatch):
    board = _board(seed=14)
    thinking = advice.hint

    def hint_while_watch_plays(position):
        answer = thinking(position)
        board.game.play(board.game.legal_moves()[0])
        return answer

    monkeypatch.setattr(advice, "hint", hint_while_watch_plays)
    board.press("hint")
    assert board.hinted is None
    assert board.message == "No hint: the game kept moving while the hint thought. Press Hint again once it stops."


@needs_determinized
def test_watch_and_advice_leave_the_hints_own_player_untouched():
    # Watch plays from its own thread: the player it asks keeps its last choice, so it must not be the hint's
    from calcnb.ui.coach import CoachPanel

    board = _board(seed=15)
    panel = CoachPanel(board)
    panel.player = hint_player().name
    for _ in range(6):
        assert panel.step()
    advice.advise(board.game)
    assert panel.players[hint_player().name] is not hint_player()
    assert hint_player() == Determinized(samples=64) and not hint_player().last_results
