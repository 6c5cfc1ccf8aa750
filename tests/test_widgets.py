"""The play widgets driven as a person drives them: by clicking ``board.buttons[...]``."""

from __future__ import annotations

import random

import ipywidgets as widgets
import pytest

from calcnb import Game, State, set_language
from calcnb.board import BoardRenderer, board_labels, board_marks, draw
from calcnb.cards import DECK, SUITS, Card, foundation_order
from calcnb.engine import ALL_MOVES
from calcnb.examples import worked_example
from calcnb.i18n import catalogue
from calcnb.widgets import PlayBoard, Stepper, parse_seed

MOVE_NAMES = [move.text for move in ALL_MOVES]
CONTROLS = ["undo", "redo", "hint", "new"]


class SampledRenderer:
    """Records what the widget asks to draw; really draws only every ``every``-th call (drawing is slow).

    The widget's own logic is what these tests exercise; the board's drawing has its own tests,
    and a sample of real renders keeps it in the loop here.
    """

    def __init__(self, every: int = 0) -> None:
        self.every = every
        self.calls: list[tuple[object, object, object]] = []
        self.real = BoardRenderer()

    def render_png(self, game_or_state, *, highlight=None, last_move=None) -> bytes:
        state = game_or_state.state if isinstance(game_or_state, Game) else game_or_state
        self.calls.append((state, highlight, last_move))
        if self.every and len(self.calls) % self.every == 0:
            return self.real.render_png(game_or_state, highlight=highlight, last_move=last_move)
        return b"\x89PNG sampled"


def quick_board(game: Game | None = None, **kwargs) -> PlayBoard:
    """A PlayBoard whose later redraws are recorded rather than drawn."""
    board = PlayBoard(game, **kwargs)
    board.renderer = SampledRenderer()
    return board


def all_cards(state: State) -> list[Card]:
    cards = [card for pile in state.foundations + state.wastes for card in pile] + list(state.stock)
    return cards + ([state.pending] if state.pending is not None else [])


def random_positions(count: int, seed: int = 0) -> list[State]:
    """Positions met in random play of several deals, from openings to ends of games."""
    rng = random.Random(seed)
    positions = []
    for deal in range(count):
        game = Game.new(deal)
        for _ in range(rng.randrange(0, 120)):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
        positions.append(game.state)
    return positions


def complete(step: int, suit: str) -> list[Card]:
    return [Card(rank, suit) for rank in foundation_order(step)]


def near_end(pending: str | None, wastes: list[str]) -> Game:
    """Foundations 2..4 complete in one suit each; foundation 1 in clubs as far as the rest allows."""
    held = {Card.parse(pending)} if pending else set()
    held |= {Card.parse(text) for pile in wastes for text in pile.split()}
    first = [card for card in complete(1, SUITS[0]) if card not in held]
    return Game.from_position(
        foundations=[first, complete(2, SUITS[1]), complete(3, SUITS[2]), complete(4, SUITS[3])],
        wastes=wastes,
        stock=[],
        pending=pending,
    )


def assert_buttons_match(board: PlayBoard) -> None:
    state = board.game.state
    for move in ALL_MOVES:
        button = board.buttons[move.text]
        reason = state.why_illegal(move)
        assert button.disabled == (reason is not None), (move, state)
        if reason is not None:
            assert button.tooltip == reason
            assert button.button_style == ""
        else:
            assert button.button_style == ("warning" if move is board.hinted else "info")
    assert board.buttons["undo"].disabled == (not board.game.can_undo())
    assert board.buttons["redo"].disabled == (not board.game.can_redo())


# ---------------------------------------------------------------- PlayBoard


def test_the_board_has_a_button_for_every_move_and_control():
    board = quick_board(seed=3)
    assert set(board.buttons) == set(MOVE_NAMES) | set(CONTROLS)
    assert all(isinstance(button, widgets.Button) for button in board.buttons.values())
    assert isinstance(board.game, Game) and board.game.seed == 3
    assert isinstance(board.image, widgets.Image) and board.image.format == "png"
    assert bytes(board.renderer.real.render_png(board.game)).startswith(b"\x89PNG")


def _shown(widget: widgets.Widget) -> list[widgets.Widget]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _shown(child)
    return found


def test_buttons_carry_css_classes_for_pages_to_find_them():
    board = quick_board(seed=3)
    assert "calcnb-btn-S-F1" in board.buttons["S>F1"]._dom_classes
    assert "calcnb-btn-W4-F2" in board.buttons["W4>F2"]._dom_classes
    assert "calcnb-btn-undo" in board.buttons["undo"]._dom_classes
    assert "calcnb-message" in board._message_line._dom_classes
    stepper = Stepper(worked_example)
    assert "calcnb-btn-next" in stepper.buttons["next"]._dom_classes


def test_every_button_is_on_screen_once_in_learner_order():
    board = quick_board(seed=3)
    shown = _shown(board)
    for name, button in board.buttons.items():
        assert sum(widget is button for widget in shown) == 1, name
    assert board.image in shown
    rows = [child for child in board.children if isinstance(child, widgets.HBox)]
    row_of = {name: index for index, row in enumerate(rows) for name, b in board.buttons.items() if b in row.children}
    assert row_of["T"] < row_of["S>F1"] == row_of["S>W4"] < row_of["W1>F1"] < row_of["W4>F4"]
    assert len({row_of[f"W{w}>F1"] for w in range(1, 5)}) == 4  # one row per waste pile
    assert [b.description for b in rows[row_of["S>F1"]].children if isinstance(b, widgets.Button)] == [
        "F1 (+1)",
        "F2 (+2)",
        "F3 (+3)",
        "F4 (+4)",
        "W1",
        "W2",
        "W3",
        "W4",
    ]


def test_the_first_board_is_drawn_for_real():
    board = PlayBoard(seed=5)
    assert bytes(board.image.value).startswith(b"\x89PNG")
    assert board.displayed_state is board.game.state
    assert board_labels(board.renderer.figure) == board_labels(draw(board.game))


@pytest.mark.parametrize("position", random_positions(12, seed=1), ids=lambda state: f"score{state.score}")
def test_each_button_plays_exactly_its_move(position):
    board = quick_board(Game(position))
    for move in position.legal_moves():
        board.buttons[move.text].click()
        assert board.game.state == position.apply(move)
        assert board.game.last_move is move
        assert board.game.history == (move,)
        board.buttons["undo"].click()
        assert board.game.state == position


def test_every_button_is_enabled_exactly_when_its_move_is_legal():
    board = quick_board(seed=0)
    positions = random_positions(40, seed=2)
    positions.append(near_end("K♣", ["Q♣", "", "", ""]).state)  # a won-next position
    positions.append(near_end(None, ["Q♣ K♣", "", "", ""]).state)  # a lost one
    for position in positions:
        board.game = Game(position)
        board.refresh()
        assert_buttons_match(board)
    # and along games played by clicking
    rng = random.Random(7)
    board.game = Game.new(11)
    board.refresh()
    for _ in range(200):
        assert_buttons_match(board)
        enabled = [name for name in MOVE_NAMES if not board.buttons[name].disabled]
        if not enabled:
            break
        board.buttons[rng.choice(enabled)].click()


def test_the_message_line_explains_each_move_before_it_was_played():
    board = quick_board(seed=1)
    before = board.game.state
    board.buttons["T"].click()
    assert board.message == before.explain("T")
    turned = board.game.state
    board.buttons["S>W2"].click()
    assert board.message == turned.explain("S>W2")
    assert str(turned.pending) in board.message
    assert board.buttons["S>W2"].tooltip == board.game.state.why_illegal("S>W2")  # nothing is turned now


def test_enabled_tooltips_explain_and_the_turn_keeps_the_stock_secret():
    board = quick_board(seed=1)
    state = board.game.state
    assert str(state.stock[0]) not in board.buttons["T"].tooltip
    assert "48" in board.buttons["T"].tooltip
    board.buttons["T"].click()
    board.buttons["S>W1"].click()
    board.buttons["T"].click()
    state = board.game.state
    for move in state.legal_moves():
        if move.text != "T":
            assert board.buttons[move.text].tooltip == state.explain(move)


def test_a_disabled_button_clicked_from_code_changes_nothing_and_says_why():
    board = quick_board(seed=1)
    before = board.game.state
    assert board.buttons["S>W1"].disabled
    board.buttons["S>W1"].click()
    assert board.game.state == before and board.game.history == ()
    assert before.why_illegal("S>W1") in board.message


def test_undo_and_redo_through_buttons_restore_exact_states():
    board = quick_board(seed=21)
    rng = random.Random(21)
    assert board.buttons["undo"].disabled and board.buttons["redo"].disabled
    states = [board.game.state]
    for _ in range(60):
        enabled = [name for name in MOVE_NAMES if not board.buttons[name].disabled]
        if not enabled:
            break
        board.buttons[rng.choice(enabled)].click()
        states.append(board.game.state)
    for expected in reversed(states[:-1]):
        board.buttons["undo"].click()
        assert board.game.state == expected
        assert_buttons_match(board)
    assert board.buttons["undo"].disabled
    for expected in states[1:]:
        board.buttons["redo"].click()
        assert board.game.state == expected
    assert board.buttons["redo"].disabled
    # a new move after an undo drops what could have been redone
    board.buttons["undo"].click()
    assert not board.buttons["redo"].disabled
    enabled = [name for name in MOVE_NAMES if not board.buttons[name].disabled]
    board.buttons[enabled[0]].click()
    assert board.buttons["redo"].disabled


def test_undo_and_redo_say_what_they_did():
    board = quick_board(seed=2)
    board.buttons["T"].click()
    turned = board.game.state.pending
    board.buttons["S>W3"].click()
    board.buttons["undo"].click()
    assert "S>W3" in board.message and str(turned) in board.message
    explanation = board.game.state.explain("S>W3")
    board.buttons["redo"].click()
    assert explanation in board.message
    board.buttons["undo"].click()
    board.buttons["undo"].click()
    assert str(turned) in board.message and board.game.state.pending is None


def test_new_deal_with_a_seed_gives_that_deal():
    board = quick_board(seed=1)
    board.buttons["T"].click()
    board.seed_input.value = " 42 "
    board.buttons["new"].click()
    assert board.game.deal_code == Game.new(42).deal_code
    assert board.game.state == Game.new(42).state
    assert board.game.seed == 42 and board.game.history == ()
    assert "42" in board.message
    assert_buttons_match(board)
    board.seed_input.value = "lesson-3"
    board.buttons["new"].click()
    assert board.game.deal_code == Game.new("lesson-3").deal_code


def test_new_deal_with_an_empty_seed_is_random_and_says_its_seed():
    board = quick_board(seed=1)
    board.seed_input.value = ""
    board.buttons["new"].click()
    seed = board.game.seed
    assert isinstance(seed, int)
    assert str(seed) in board.message
    assert board.game.deal_code == Game.new(seed).deal_code


def test_parse_seed():
    assert parse_seed("") is None and parse_seed("   ") is None
    assert parse_seed(" 7 ") == 7 and parse_seed("-3") == -3
    assert parse_seed("class A") == "class A"


def test_hint_proposes_a_legal_move_highlights_it_and_clears_when_played():
    board = quick_board(seed=4)
    board.renderer.every = 1
    board.buttons["T"].click()
    board.buttons["hint"].click()
    move = board.hinted
    assert move in board.game.legal_moves()
    assert board.message.startswith(f"Hint: {move}.") and len(board.message) > len(f"Hint: {move}. ")
    assert board.buttons[move.text].button_style == "warning"
    assert board.renderer.calls[-1][1] is move
    assert board_marks(board.renderer.real.figure)["hint"]
    board.buttons[move.text].click()
    assert board.hinted is None and board.buttons[move.text].button_style != "warning"
    assert not board_marks(board.renderer.real.figure)["hint"]


def test_winning_is_said_plainly():
    board = quick_board(near_end("K♣", ["", "", "", ""]))
    board.buttons["S>F1"].click()
    assert board.game.status == "won"
    assert board.message.endswith("Won! All 52 cards are on the foundations.")
    assert "13 (K)" in board.message  # the explanation of the last move comes first
    assert all(board.buttons[name].disabled for name in MOVE_NAMES)
    assert board.buttons["hint"].disabled and not board.buttons["undo"].disabled


def test_losing_is_said_plainly_with_the_score():
    board = quick_board(near_end("K♣", ["Q♣", "", "", ""]))
    board.buttons["S>W1"].click()  # K onto Q buries the Q that foundation 1 needs
    assert board.game.status == "lost"
    assert board.message.endswith("Lost: no move is left. Score 50/52.")
    assert all(board.buttons[name].disabled for name in MOVE_NAMES)
    board.buttons["undo"].click()
    assert "Lost" not in board.message


def test_a_board_opened_on_a_finished_game_says_so():
    board = quick_board(near_end(None, ["Q♣ K♣", "", "", ""]))
    assert "Lost: no move is left. Score 50/52." in board.message


def test_a_game_and_a_seed_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        PlayBoard(Game.new(1), seed=2)


def test_fuzz_two_thousand_random_clicks():
    board = quick_board(seed=99)
    board.renderer.every = 50  # a real render every 50 clicks keeps the drawing in the loop
    rng = random.Random(99)
    names = MOVE_NAMES + CONTROLS
    for _ in range(2000):
        enabled = [name for name in names if not board.buttons[name].disabled]
        weights = [0.02 if name == "new" else 0.3 if name in ("undo", "hint") else 1.0 for name in enabled]
        board.buttons[rng.choices(enabled, weights)[0]].click()
        state = board.game.state
        assert sorted(all_cards(state)) == sorted(DECK)
        assert board.displayed_state is state
        drawn_state, highlight, _ = board.renderer.calls[-1]
        assert drawn_state is state and highlight is board.hinted
    assert_buttons_match(board)
    # the board finally shown, drawn for real, is the game's board
    board.renderer = BoardRenderer()
    board.refresh()
    assert bytes(board.image.value).startswith(b"\x89PNG")
    expected = draw(board.game, highlight=board.hinted)
    assert board_labels(board.renderer.figure) == board_labels(expected)
    assert board_marks(board.renderer.figure) == board_marks(expected)


# ---------------------------------------------------------------- Stepper


def _rebuilt(state: State) -> State:
    return State.from_position(
        foundations=state.foundations, wastes=state.wastes, stock=state.stock, pending=state.pending
    )


def test_the_stepper_walks_the_worked_example_forward_and_back():
    script = worked_example()
    stepper = Stepper(script)
    assert set(stepper.buttons) == {"prev", "next", "reset"}
    assert stepper.index == 0 and stepper.buttons["prev"].disabled
    forward = []
    for number in range(len(script)):
        assert stepper.index == number
        assert stepper.caption == script[number].caption
        assert stepper.step.state == script[number].state
        assert _rebuilt(stepper.step.state) == stepper.step.state  # a legal engine position
        assert board_labels(stepper.renderer.figure) == board_labels(
            draw(script[number].state, highlight=script[number].highlight, last_move=script[number].last_move)
        )
        forward.append(stepper.step.state)
        stepper.buttons["next"].click()
    assert stepper.index == len(script) - 1 and stepper.buttons["next"].disabled
    backward = []
    for _ in range(len(script)):
        backward.append(stepper.step.state)
        stepper.buttons["prev"].click()
    assert backward[::-1] == forward
    assert stepper.index == 0
    stepper.go(4)
    stepper.buttons["reset"].click()
    assert stepper.index == 0 and stepper.step.state == script[0].state


def test_the_stepper_shows_the_caption_and_highlight():
    stepper = Stepper(worked_example, start=1)
    assert "12 + 2 = 14" in stepper.caption
    assert board_marks(stepper.renderer.figure)["hint"]  # S>F2 is pointed at
    assert "Step 2 of 6" in stepper._counter.value
    assert stepper.step.title in stepper._title.value


def test_a_stepper_needs_steps():
    with pytest.raises(ValueError, match="at least one step"):
        Stepper([])
    with pytest.raises(ValueError, match="from 0 to 5; got 9"):
        Stepper(worked_example(), start=9)


# ---------------------------------------------------------------- two languages


def test_portuguese_labels_after_set_language():
    set_language("pt")
    board = quick_board(seed=1)
    assert board.buttons["T"].description == "Virar"
    assert board.buttons["undo"].description == "Desfazer"
    assert board.buttons["redo"].description == "Refazer"
    assert board.buttons["hint"].description == "Dica"
    assert board.buttons["new"].description == "Nova distribuição"
    assert board.buttons["S>F2"].description == "B2 (+2)"
    assert board.buttons["W3>F1"].description == "B1 (+1)"
    assert board.buttons["S>W4"].description == "D4"
    assert board.seed_input.description == "Semente"
    assert board.message.startswith("Semente 1.")
    board.buttons["T"].click()
    assert board.message.startswith("Virou")
    assert board.buttons["T"].tooltip.startswith("a carta virada")


def test_an_existing_board_and_stepper_refresh_into_portuguese():
    board = quick_board(seed=1)
    stepper = Stepper(worked_example)
    set_language("pt")
    board.refresh()
    stepper.refresh()
    assert board.buttons["T"].description == "Virar"
    assert stepper.buttons["next"].description == "Seguinte ▶"
    assert stepper.step.title == "A posição"


def test_widget_catalogues_match_in_both_languages():
    import calcnb.explorer  # noqa: F401  (registers its messages)

    english, portuguese = catalogue("en"), catalogue("pt")
    for prefix in ("widget.", "example.", "explorer."):
        en_keys = {key for key in english if key.startswith(prefix)}
        assert en_keys, prefix
        assert en_keys == {key for key in portuguese if key.startswith(prefix)}
        # translated, not copied
        assert [key for key in en_keys if english[key] == portuguese[key] and "{" not in english[key]] == []


def test_importing_calcnb_alone_loads_no_widgets():
    import subprocess
    import sys

    code = "import sys, calcnb; print('ipywidgets' in sys.modules, 'matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "False"]
    code = "import calcnb; print(calcnb.PlayBoard.__name__, calcnb.Stepper.__name__, calcnb.OrderExplorer.__name__)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["PlayBoard", "Stepper", "OrderExplorer"]


def test_new_deal_from_a_deal_code_typed_in_the_seed_field():
    code = Game.new(11).deal_code
    board = PlayBoard(seed=3)
    board.seed_input.value = code
    board.buttons["new"].click()
    assert board.game.deal_code == code
    assert board.game.history == ()
    assert "deal code" in board.message


def test_a_bad_deal_code_is_refused_and_the_game_goes_on():
    board = PlayBoard(seed=3)
    board.buttons["T"].click()
    before = board.game.state
    board.seed_input.value = "A♣ 2♦ 3♥ 4♠ | 7♠ 7♠"
    board.buttons["new"].click()
    assert board.game.state == before
    assert "cannot be dealt" in board.message
    assert "7♠ appears more than once" in board.message


def test_load_drives_another_game_from_its_current_position():
    saved = Game.new(5)
    saved.play_many("T S>W1 T")
    board = PlayBoard(seed=3)
    board.load(Game.from_json(saved.to_json()))
    assert board.game.state == saved.state
    assert board.buttons["T"].disabled  # a card is pending in the loaded game
    assert "3 moves played" in board.message
