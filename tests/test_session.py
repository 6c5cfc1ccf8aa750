"""A game in progress: play, undo, redo, history, saves and the text board."""

from __future__ import annotations

import inspect
import json
import re

import pytest

import calcnb
from calcnb import Card, Game, IllegalMove, InvalidMove, Move, State
from calcnb.game.engine import TURN
from calcnb.i18n import catalogue, set_language


def first_moves(game: Game, count: int) -> list[Move]:
    """Play ``count`` moves, always the first legal one; the moves played."""
    played = []
    for _ in range(count):
        played.append(game.play(game.legal_moves()[0]))
    return played


def finished(seed: int) -> Game:
    """A game played to its end by always taking the last legal move (foundation moves come last)."""
    game = Game.new(seed)
    while moves := game.legal_moves():
        game.play(moves[-1])
    return game


# ------------------------------------------------------------------ making games


def test_package_exports_the_names_later_issues_call():
    for name in ("Card", "Move", "Game", "State", "IllegalMove", "InvalidMove"):
        assert name in calcnb.__all__
    for name in ("next_rank", "foundation_order", "position_in_order"):
        assert callable(getattr(calcnb, name))
    assert issubclass(IllegalMove, ValueError) and issubclass(InvalidMove, ValueError)


def test_a_new_game_starts_at_the_opening():
    game = Game.new(3)
    assert game.state == game.start == game.states[0]
    assert game.history == () and game.redo_moves == ()
    assert (game.status, game.score) == ("playing", 4)
    assert game.legal_moves() == [TURN]
    assert [pile[0].rank for pile in game.foundations] == [1, 2, 3, 4]
    assert game.wastes == ((), (), (), ()) and game.pending is None and len(game.stock) == 48
    assert game.last_move is None
    assert not game.can_undo() and not game.can_redo()
    assert not game.is_terminal()


def test_from_position_game_and_its_refusals():
    state = Game.new(2).state.apply("T")
    game = Game.from_position(
        foundations=state.foundations, wastes=state.wastes, stock=state.stock, pending=state.pending
    )
    assert game.state == game.start == state
    assert game.deal_code is None and game.seed is None
    assert game.legal_moves() == state.legal_moves()
    # not all 52 cards: refused with the reason
    with pytest.raises(ValueError, match="missing: a game uses each of the 52 cards exactly once"):
        Game.from_position(foundations=["A♣", "2♦", "3♥", "4♠"], pending="5♦")
    with pytest.raises(ValueError, match="foundation 2 cannot hold 6♦ after 2♦: it needs 4"):
        Game.from_position(foundations=["A♣", "2♦ 6♦", "3♥", "4♠"])


def test_from_position_takes_the_arguments_and_defaults_of_the_state_one():
    """One signature, State.from_position's: the game shows it, and a position given by place reads the same."""
    state = Game.new(2).state.apply("T")
    shown = inspect.signature(Game.from_position)
    assert shown.parameters == inspect.signature(State.from_position).parameters
    assert Game.from_position(state.foundations, state.wastes, state.stock, state.pending).state == state


# ------------------------------------------------------------------ playing


def test_play_takes_text_or_moves_and_returns_the_move():
    game = Game.new(3)
    assert game.play("t") is TURN
    assert game.play(Move.parse("S>W2")) is Move.parse("S>W2")
    assert game.history == (TURN, Move.parse("S>W2"))
    assert game.last_move is Move.parse("S>W2")
    assert len(game.states) == 3
    assert game.state == game.start.apply("T").apply("S>W2")


def test_an_illegal_or_malformed_move_changes_nothing():
    game = Game.new(3)
    game.play("T")
    before = (game.state, game.history, game.redo_moves)
    with pytest.raises(IllegalMove, match=r"^T: the turned card .* must be placed before the next turn$"):
        game.play("T")
    with pytest.raises(InvalidMove, match="waste piles only move to foundations"):
        game.play("W1>W2")
    with pytest.raises(InvalidMove):
        game.play(None)
    assert (game.state, game.history, game.redo_moves) == before


def test_passthroughs_ask_the_current_state():
    game = Game.new(3)
    game.play("T")
    card = game.pending
    assert game.why_illegal("T") == f"the turned card {card} must be placed before the next turn"
    assert game.why_illegal("S>W1") is None
    assert game.is_legal("S>W3") and not game.is_legal("T")
    assert game.explain("S>W1") == f"{card} onto waste 1: any card may go on a waste, and only the top stays available"


def test_undo_and_redo_walk_the_history_exactly():
    game = Game.new(11)
    played = first_moves(game, 12)
    states = game.states
    assert game.undo() is played[-1]
    assert game.undo() is played[-2]
    assert game.state == states[-3]
    assert game.history == tuple(played[:-2])
    assert game.redo_moves == (played[-2], played[-1])
    assert game.can_undo() and game.can_redo()
    assert game.redo() is played[-2]
    assert game.redo() is played[-1]
    assert game.redo() is None
    assert game.states == states
    assert game.history == tuple(played)


def test_playing_after_undo_forgets_the_redo_moves():
    game = Game.new(11)
    first_moves(game, 4)
    game.undo()
    assert game.can_redo()
    game.play(game.legal_moves()[-1])
    assert not game.can_redo()
    assert game.redo() is None


def test_a_refused_move_keeps_the_redo_moves():
    game = Game.new(11)
    first_moves(game, 2)  # T, S>W1
    game.undo()
    with pytest.raises(IllegalMove):
        game.play("T")
    assert game.redo_moves == (Move.parse("S>W1"),)


def test_undo_at_the_start_does_nothing():
    game = Game.new(2)
    assert game.undo() is None
    assert game.state == game.start and game.history == ()


def test_restart_goes_back_to_the_start_and_keeps_the_moves_to_redo():
    game = Game.new(4)
    played = first_moves(game, 6)
    game.restart()
    assert game.state == game.start
    assert game.redo_moves == tuple(played)
    while game.redo():
        pass
    assert game.history == tuple(played)


def test_play_many_is_all_or_nothing():
    game = Game.new(4)
    game.play_many("T S>W1, T S>W2")
    assert [m.text for m in game.history] == ["T", "S>W1", "T", "S>W2"]
    before = game.states
    with pytest.raises(IllegalMove):
        game.play_many(["T", "T"])
    with pytest.raises(InvalidMove):
        game.play_many("T W1>W2")
    assert game.states == before
    game.play_many([TURN, "s>w3"])
    assert len(game.history) == 6


def test_copy_is_independent():
    game = Game.new(4)
    first_moves(game, 3)
    twin = game.copy()
    twin.play(twin.legal_moves()[0])
    assert len(twin.history) == 4 and len(game.history) == 3
    assert (twin.deal_code, twin.seed, twin.start) == (game.deal_code, game.seed, game.start)


def test_a_finished_game_reports_its_outcome():
    game = finished(1)
    assert game.is_terminal()
    assert game.status in ("won", "lost")
    assert game.legal_moves() == []
    assert game.score == game.state.score
    with pytest.raises(IllegalMove):
        game.play("T")


# ------------------------------------------------------------------ saves


def test_save_and_load_round_trip_a_dealt_game():
    game = Game.new(21)
    first_moves(game, 15)
    loaded = Game.from_json(game.to_json())
    assert loaded.state == game.state
    assert loaded.history == game.history
    assert loaded.states == game.states
    assert (loaded.deal_code, loaded.seed) == (game.deal_code, 21)
    assert loaded.to_json() == game.to_json()


def test_save_and_load_a_finished_game_and_a_string_seed():
    game = finished(8)
    assert Game.from_json(game.to_json()).state == game.state
    named = Game.new("lesson")
    named.play("T")
    assert Game.from_json(named.to_json()).seed == "lesson"


def test_save_and_load_a_game_from_a_deal_code():
    game = Game.from_deal(Game.new(5).deal_code)
    first_moves(game, 5)
    loaded = Game.from_json(game.to_json())
    assert loaded.seed is None
    assert loaded.states == game.states


def test_save_and_load_a_game_from_a_position():
    start = Game.new(5)
    first_moves(start, 9)
    state = start.state
    game = Game.from_position(
        foundations=state.foundations, wastes=state.wastes, stock=state.stock, pending=state.pending
    )
    first_moves(game, 4)
    text = game.to_json()
    data = json.loads(text)
    assert "position" in data and "deal" not in data
    loaded = Game.from_json(text)
    assert loaded.start == game.start
    assert loaded.states == game.states


def test_a_save_is_versioned_json_with_the_deal_and_the_moves():
    game = Game.new(9)
    first_moves(game, 3)
    data = json.loads(game.to_json())
    assert data["format"] == "calcnb-save"
    assert data["version"] == 1
    assert data["deal"] == game.deal_code
    assert data["seed"] == 9
    assert data["moves"] == [m.text for m in game.history]


def _save(seed: int, count: int) -> dict:
    game = Game.new(seed)
    first_moves(game, count)
    return json.loads(game.to_json())


def test_a_tampered_save_is_refused_naming_the_first_bad_move():
    data = _save(9, 6)
    assert data["moves"][:3] == ["T", "S>W1", "T"]
    data["moves"][2] = "S>W1"  # nothing turned yet
    with pytest.raises(ValueError) as caught:
        Game.from_json(json.dumps(data))
    assert str(caught.value) == (
        "move 3 of the save, 'S>W1', cannot be played: no card is turned; turn one with T first"
    )


def test_a_save_with_an_impossible_move_text_is_refused():
    data = _save(9, 6)
    data["moves"][4] = "W1>W2"
    with pytest.raises(ValueError, match=r"^move 5 of the save, 'W1>W2', cannot be played: .*waste piles only move"):
        Game.from_json(json.dumps(data))
    data["moves"][4] = 17
    with pytest.raises(ValueError, match=r"^move 5 of the save, 17, cannot be played"):
        Game.from_json(json.dumps(data))


def test_a_save_whose_deal_was_changed_is_refused():
    data = _save(9, 6)
    starters, stock = data["deal"].split(" | ")
    cards = stock.split()
    cards[0], cards[1] = cards[1], cards[1]
    data["deal"] = starters + " | " + " ".join(cards)
    with pytest.raises(ValueError, match="appears more than once"):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("", "not a calcnb save: the text is empty"),
        ("{not json", "not a calcnb save: it is not JSON: it cannot be read from line 1, column 2 on: 'not json'"),
        ('{"format": "calcnb-save",\n "version": 1', "it is not JSON: it stops too soon, at line 2, column 14"),
        ("[" * 100_000, "not a calcnb save: its JSON nests lists or objects too deep to be read"),
        (12.5, "not a calcnb save: a save is JSON text; got 12.5"),
        (b"\x80 not text", "not a calcnb save: its bytes are not text in UTF-8, UTF-16 or UTF-32"),
        ('{"format": "calcnb-save", "moves": []}', "this save does not say its version; this calcnb reads version 1"),
        ("[]", "its 'format' must be 'calcnb-save'"),
        ('{"format": "chess"}', "its 'format' must be 'calcnb-save'"),
        (
            '{"format": "calcnb-save", "version": 2, "moves": []}',
            "this save has version 2; this calcnb reads version 1",
        ),
        ('{"format": "calcnb-save", "version": 1}', "'moves' must be a list of moves"),
        ('{"format": "calcnb-save", "version": 1, "moves": "T"}', "'moves' must be a list of moves"),
        ('{"format": "calcnb-save", "version": 1, "moves": []}', "it has neither 'deal' nor 'position'"),
        ('{"format": "calcnb-save", "version": 1, "moves": [], "deal": 5}', "there is no '|' in 5"),
        ('{"format": "calcnb-save", "version": 1, "moves": [], "position": {}}', "its 'position' has no 'foundations'"),
        (
            '{"format": "calcnb-save", "version": 1, "moves": [], "position": '
            '{"foundations": 5, "wastes": [], "stock": "", "pending": null}}',
            "the save's position cannot be set out: the foundations (4 piles) must be cards",
        ),
        (
            '{"format": "calcnb-save", "version": 1, "moves": [], "position": '
            '{"foundations": ["A♣", "2♦", "3♥", "4♠"], "wastes": ["", "", "", ""], "stock": "", "pending": null}}',
            "missing: a game uses each of the 52 cards exactly once",
        ),
    ],
)
def test_malformed_saves_are_refused_saying_what_is_wrong(text, fault):
    with pytest.raises(ValueError) as caught:
        Game.from_json(text)
    assert fault in str(caught.value)


def test_save_errors_in_portuguese():
    set_language("pt")
    with pytest.raises(ValueError, match="não é um jogo guardado do calcnb"):
        Game.from_json("{not json")


def _words(text: str) -> set[str]:
    """The words of ``text`` outside its quoted parts (input and field keys), lower-cased."""
    return {word.lower() for word in re.findall(r"[^\W\d_]+", re.sub(r"'[^']*'", "", text))}


def _english_words(text: object) -> set[str]:
    """Words a Portuguese reader must not meet in a refused save: those of the English save messages and of
    Python's own words for why the text is no JSON, less any word the Portuguese messages use too."""
    english = set().union(*(_words(said) for key, said in catalogue("en").items() if key.startswith("save.")))
    try:
        json.loads(text)
    except Exception as error:
        english |= _words(str(error))
    return english - set().union(*map(_words, catalogue("pt").values()))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{not json",
        '{"format": "calcnb-save", "version": 1',
        '{"a": 1} extra',
        "[" * 100_000,
        None,
        b"\x80 not text",
        "[]",
        '{"format": "calcnb-save", "moves": []}',
        '{"format": "calcnb-save", "version": 1}',
        '{"format": "calcnb-save", "version": 1, "moves": []}',
        '{"format": "calcnb-save", "version": 1, "moves": [], "position": {"foundations": ""}}',
    ],
)
def test_save_errors_in_portuguese_have_no_english_words(text):
    """Outside the quoted input and the field keys (glossed in Portuguese), every word is Portuguese."""
    with pytest.raises(ValueError) as english:
        Game.from_json(text)
    in_english = str(english.value)
    set_language("pt")
    with pytest.raises(ValueError) as portuguese:
        Game.from_json(text)
    said = str(portuguese.value)
    assert said.startswith(("não é um jogo guardado do calcnb: ", "este jogo guardado ")), said
    assert not _words(said) & _english_words(text), said
    assert said != in_english
    # the error raised in English holds its reason, not its words: read now, it speaks Portuguese too
    assert str(english.value) == said and english.value.key == portuguese.value.key


# ------------------------------------------------------------------ the text board


def test_str_game_is_a_plain_text_board():
    game = Game.from_deal(Game.new(0).deal_code)
    game.play_many("T S>W1 T")
    text = str(game)
    assert text == str(game.state)
    lines = text.splitlines()
    assert lines == [
        "Calculation: playing, score 4/52",
        "Foundations",
        "  F1 (+1): A♥  (next 2)",
        "  F2 (+2): 2♥  (next 4)",
        "  F3 (+3): 3♣  (next 6)",
        "  F4 (+4): 4♥  (next 8)",
        "Waste piles (bottom to top)",
        "  W1: A♦  (top A♦)",
        "  W2: empty",
        "  W3: empty",
        "  W4: empty",
        "Stock: 46 cards face down",
        "Turned card: 9♣ (place it before the next turn)",
    ]


def test_str_game_in_portuguese():
    set_language("pt")
    text = str(Game.new(0))
    assert text.startswith("Cálculo: em jogo, pontos 4/52\nBases\n")
    assert "Carta virada: nenhuma" in text


def test_repr_names_the_game():
    game = Game.new(6)
    game.play("T")
    assert repr(game) == "<Game seed=6 moves=1 score=4 status=playing>"
    assert repr(Game.from_deal(game.deal_code)).startswith("<Game deal_code='A")
    state = game.state
    positioned = Game.from_position(state.foundations, state.wastes, state.stock, state.pending)
    assert repr(positioned) == "<Game from_position moves=0 score=4 status=playing>"


def test_game_state_is_a_state_of_cards():
    game = Game.new(6)
    assert isinstance(game.state, State)
    assert all(isinstance(card, Card) for card in game.stock)
