"""The play widgets driven as a person drives them: by pressing their buttons (``board.press("S>F1")``) and clicking
the picture, through the same methods the page calls."""

from __future__ import annotations

import base64
import functools
import random
import re
import uuid

import comm
import ipywidgets as widgets
import pytest
from widget_support import open_models

from calcnb import Game, Move, State, set_language
from calcnb.exercises.examples import worked_example
from calcnb.game.cards import DECK, SUITS, Card, foundation_order
from calcnb.game.engine import ALL_MOVES
from calcnb.game.rules import MoveKind
from calcnb.i18n import catalogue, message
from calcnb.players.advice import hint_player_sentence
from calcnb.ui.board import DPI, HEIGHT, WIDTH, BoardRenderer, board_labels, board_marks, draw, place_regions
from calcnb.ui.palette import HINT_COLOUR, LEGAL_COLOUR
from calcnb.ui.play import (
    PlayBoard,
    Stepper,
    hint_sentence,
    move_sentence,
    parse_seed,
    png_size,
    refusal_reason,
)
from calcnb.ui.view import PLAY_TEMPLATE, Control

MOVE_NAMES = [move.text for move in ALL_MOVES]
NOTATION = re.compile(r"\b(S|W\d)>[FW]\d|\bT\b")  # what the app never says: S>F1, W2>F3, T
CONTROLS = ["undo", "redo", "hint", "new"]


@functools.cache
def _sampled_png() -> bytes:
    """The picture a sampled render shows: one real board, drawn once."""
    return BoardRenderer().render_png(Game.new(0))


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
        return _sampled_png()


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
            assert button.tooltip == refusal_reason(state, move)
            assert not NOTATION.search(button.tooltip), button.tooltip
            assert button.tone == ""
        else:
            assert button.tone == ("hint" if move is board.hinted else "legal")
    assert board.buttons["undo"].disabled == (not board.game.can_undo())
    assert board.buttons["redo"].disabled == (not board.game.can_redo())


# ---------------------------------------------------------------- PlayBoard


def test_the_board_has_a_button_for_every_move_and_control():
    board = quick_board(seed=3)
    assert set(board.buttons) == set(MOVE_NAMES) | set(CONTROLS) == set(board.controls)
    assert all(isinstance(button, Control) for button in board.buttons.values())
    assert isinstance(board.game, Game) and board.game.seed == 3
    assert board.png.startswith(b"\x89PNG")
    assert board.picture_src == "data:image/png;base64," + base64.b64encode(board.png).decode("ascii")
    assert bytes(board.renderer.real.render_png(board.game)).startswith(b"\x89PNG")


def test_a_board_is_one_widget_however_many_buttons_it_shows():
    before = set(open_models())
    board = PlayBoard(seed=3)
    opened = [open_models()[model] for model in set(open_models()) - before]
    assert sorted(type(widget).__name__ for widget in opened) == ["Layout", "PlayBoard"]
    assert board in opened


def test_buttons_carry_css_classes_for_pages_to_find_them():
    board = quick_board(seed=3)
    assert "jupyter-widgets" in board._dom_classes  # a widget, as JupyterLab, Voila and their tests know one
    assert board.buttons["S>F1"].css_class == "calcnb-btn-S-F1"
    assert "calcnb-btn-S-F1" in board.controls["S>F1"]["cls"].split()
    assert "calcnb-btn-W4-F2" in board.controls["W4>F2"]["cls"].split()
    assert "calcnb-btn-undo" in board.controls["undo"]["cls"].split()
    # the page draws each as a real <button> with those classes, and the message line as a live region
    row_button = re.search(r'<button v-for="name in row.names"[^>]*>', PLAY_TEMPLATE).group()
    assert ":class=\"['jupyter-button', 'calcnb-button', controls[name].cls" in row_button
    assert ':disabled="controls[name].disabled" :title="controls[name].tip" @click="press(name)"' in row_button
    assert '<div class="calcnb-message" role="status">{{ said }}</div>' in PLAY_TEMPLATE
    assert 'class="calcnb-message-area"' in PLAY_TEMPLATE and 'class="calcnb-controls"' in PLAY_TEMPLATE
    # the tones are the board's colours for a legal place and a hint
    assert f".calcnb-view button.calcnb-legal {{ background-color: {LEGAL_COLOUR}; color: white; }}" in PLAY_TEMPLATE
    assert f".calcnb-view button.calcnb-hint {{ background-color: {HINT_COLOUR}; color: black; }}" in PLAY_TEMPLATE
    stepper = Stepper(worked_example)
    assert "calcnb-btn-next" in stepper.buttons["next"]._dom_classes


def test_every_button_is_on_screen_once_in_learner_order():
    board = quick_board(seed=3)
    # one row per card that can move, as a person reads the table, then Undo, Redo, Hint, the message, New deal
    assert [row["names"] for row in board.rows] == [
        ["T"],
        ["S>F1", "S>F2", "S>F3", "S>F4"],
        ["S>W1", "S>W2", "S>W3", "S>W4"],
        *([f"W{w}>F{f}" for f in range(1, 5)] for w in range(1, 5)),
    ]
    assert [board.buttons[name].description for name in board.rows[1]["names"]] == ["F1", "F2", "F3", "F4"]
    assert [board.buttons[name].description for name in board.rows[2]["names"]] == ["W1", "W2", "W3", "W4"]
    order = [PLAY_TEMPLATE.index(part) for part in ('v-for="(row, index) in rows"', "press('undo')", "press('redo')",
                                                     "press('hint')", "calcnb-message-area", "press('new')",
                                                     'v-model.lazy="seed"', "in beside")]  # fmt: skip
    assert order == sorted(order)
    for name in CONTROLS:
        assert PLAY_TEMPLATE.count(f"press('{name}')") == 1
    # each row is a group named by its label, which says which card its buttons move
    assert board.rows[0]["label"] == "Stock, 48 left:" and board.rows[1]["label"] == "Turned card: none"
    assert 'role="group" :aria-label="row.label"' in PLAY_TEMPLATE


def test_the_first_board_is_drawn_for_real():
    board = PlayBoard(seed=5)
    assert board.png.startswith(b"\x89PNG")
    assert board.displayed_state is board.game.state
    # the picture's alternative text is the text board, and follows every move
    assert board.alt == str(board.game.state)
    assert board.picture_alt == board.alt
    board.press("T")
    assert board.alt == str(board.game.state) and str(board.game.state.pending) in board.alt
    assert board_labels(board.renderer.figure) == board_labels(draw(board.game))


def test_the_picture_is_safe_to_replace_under_the_pointer():
    # A new picture must hold its place before the browser has decoded it (its pixel size in the tag) and
    # leave clicks to the box around it, which stays and measures them (see docs/design.md).
    board = PlayBoard(seed=5)
    assert png_size(board.png) == (round(WIDTH * DPI), round(HEIGHT * DPI))
    tag = re.search(r"<img [^<>]*>", PLAY_TEMPLATE).group()
    assert ':width="picture_width"' in tag and ':height="picture_height"' in tag and ':alt="picture_alt"' in tag
    assert re.search(r"\.calcnb-board-image \{[^}]*pointer-events: none", PLAY_TEMPLATE)
    assert '<div class="calcnb-board" @click="on_board($event, \'click\')"' in PLAY_TEMPLATE
    for _ in range(2):
        assert (board.picture_width, board.picture_height) == (960, 640)
        board.press("T")


@pytest.mark.parametrize("position", random_positions(12, seed=1), ids=lambda state: f"score{state.score}")
def test_each_button_plays_exactly_its_move(position):
    board = quick_board(Game(position))
    for move in position.legal_moves():
        board.press(move.text)
        assert board.game.state == position.apply(move)
        assert board.game.last_move is move
        assert board.game.history == (move,)
        board.press("undo")
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
        board.press(rng.choice(enabled))


def test_the_message_line_explains_each_move_before_it_was_played():
    board = quick_board(seed=1)
    before = board.game.state
    board.press("T")
    assert board.message == move_sentence(before, Move.parse("T"))
    turned = board.game.state
    assert board.message.startswith(f"You turned {turned.pending}.")
    board.press("S>W2")
    assert board.message == f"Put {turned.pending} on waste pile 2."
    assert board.detail == turned.explain("S>W2")  # the rule behind it, one click away
    assert board.buttons["S>W2"].tooltip == "no card is turned yet; click the stock to turn one"


def test_enabled_tooltips_explain_and_the_turn_keeps_the_stock_secret():
    board = quick_board(seed=1)
    state = board.game.state
    assert str(state.stock[0]) not in board.buttons["T"].tooltip
    assert "48" in board.buttons["T"].tooltip
    board.press("T")
    board.press("S>W1")
    board.press("T")
    state = board.game.state
    for move in state.legal_moves():
        if move.text != "T":
            assert board.buttons[move.text].tooltip == move_sentence(state, move)


def test_a_disabled_button_clicked_from_code_changes_nothing_and_says_why():
    board = quick_board(seed=1)
    before = board.game.state
    assert board.buttons["S>W1"].disabled
    board.press("S>W1")
    assert board.game.state == before and board.game.history == ()
    assert refusal_reason(before, Move.parse("S>W1")) in board.message
    assert board.message.startswith("That move is not possible: no card is turned yet")


def test_undo_and_redo_through_buttons_restore_exact_states():
    board = quick_board(seed=21)
    rng = random.Random(21)
    assert board.buttons["undo"].disabled and board.buttons["redo"].disabled
    states = [board.game.state]
    for _ in range(60):
        enabled = [name for name in MOVE_NAMES if not board.buttons[name].disabled]
        if not enabled:
            break
        board.press(rng.choice(enabled))
        states.append(board.game.state)
    for expected in reversed(states[:-1]):
        board.press("undo")
        assert board.game.state == expected
        assert_buttons_match(board)
    assert board.buttons["undo"].disabled
    for expected in states[1:]:
        board.press("redo")
        assert board.game.state == expected
    assert board.buttons["redo"].disabled
    # a new move after an undo drops what could have been redone
    board.press("undo")
    assert not board.buttons["redo"].disabled
    enabled = [name for name in MOVE_NAMES if not board.buttons[name].disabled]
    board.press(enabled[0])
    assert board.buttons["redo"].disabled


def test_undo_and_redo_say_what_they_did():
    board = quick_board(seed=2)
    board.press("T")
    turned = board.game.state.pending
    board.press("S>W3")
    board.press("undo")
    assert str(turned) in board.message and not NOTATION.search(board.message)
    explanation = board.game.state.explain("S>W3")
    board.press("redo")
    assert f"Put {turned} on waste pile 3." in board.message and board.detail == explanation
    board.press("undo")
    board.press("undo")
    assert str(turned) in board.message and board.game.state.pending is None


def test_new_deal_with_a_seed_gives_that_deal():
    board = quick_board(seed=1)
    board.press("T")
    board.seed_input.value = " 42 "
    board.press("new")
    assert board.game.deal_code == Game.new(42).deal_code
    assert board.game.state == Game.new(42).state
    assert board.game.seed == 42 and board.game.history == ()
    assert "42" in board.message
    assert_buttons_match(board)
    board.seed_input.value = "lesson-3"
    board.press("new")
    assert board.game.deal_code == Game.new("lesson-3").deal_code


def test_new_deal_with_an_empty_seed_is_random_and_says_its_seed():
    board = quick_board(seed=1)
    board.seed_input.value = ""
    board.press("new")
    seed = board.game.seed
    assert isinstance(seed, int)
    assert str(seed) in board.message
    assert board.game.deal_code == Game.new(seed).deal_code


def test_parse_seed():
    assert parse_seed("") is None and parse_seed("   ") is None
    assert parse_seed(" 7 ") == 7 and parse_seed("-3") == -3
    assert parse_seed("class A") == "class A"
    # other scripts' digits and Python's digit groups are texts, so they deal other games than 3 and 1000
    assert parse_seed("٣") == "٣" and parse_seed("1_000") == "1_000" and parse_seed("²") == "²"


def test_hint_proposes_a_legal_move_highlights_it_and_clears_when_played():
    board = quick_board(seed=4)
    board.renderer.every = 1
    board.press("T")
    board.press("hint")
    move = board.hinted
    assert move in board.game.legal_moves()
    assert board.message == hint_sentence(board.game.state, move)  # one short sentence
    assert board.detail and "unseen" not in board.message  # the reasons are one click away
    assert board.buttons[move.text].tone == "hint"
    assert board.renderer.calls[-1][1] == (move,)
    assert board_marks(board.renderer.real.figure)["hint"]
    board.press(move.text)
    assert board.hinted is None and board.buttons[move.text].tone != "hint"
    assert not board_marks(board.renderer.real.figure)["hint"]


def test_winning_is_said_plainly():
    board = quick_board(near_end("K♣", ["", "", "", ""]))
    board.press("S>F1")
    assert board.game.status == "won"
    assert board.ending == "Won! All 52 cards are on the foundations."  # a line of its own
    assert board.message == "Put K♣ on foundation 1." and "13 (K)" in board.detail
    assert board.ending_line == board.ending and board.said == board.message  # what the page shows
    assert all(board.buttons[name].disabled for name in MOVE_NAMES)
    assert board.buttons["hint"].disabled and not board.buttons["undo"].disabled


def test_losing_is_said_plainly_with_the_score():
    board = quick_board(near_end("K♣", ["Q♣", "", "", ""]))
    board.press("S>W1")  # K onto Q buries the Q that foundation 1 needs
    assert board.game.status == "lost"
    assert board.ending == "Lost: no move is left. Score 50/52."
    assert "Lost" not in board.message  # the move's own sentence is not glued to the ending
    assert all(board.buttons[name].disabled for name in MOVE_NAMES)
    board.press("undo")
    assert board.ending == board.ending_line == "" and "Lost" not in board.said


def test_a_board_opened_on_a_finished_game_says_so():
    board = quick_board(near_end(None, ["Q♣ K♣", "", "", ""]))
    assert board.ending == "Lost: no move is left. Score 50/52."


def test_a_game_and_a_seed_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        PlayBoard(Game.new(1), seed=2)


@pytest.mark.slow
def test_fuzz_two_thousand_random_clicks():
    board = quick_board(seed=99)
    board.renderer.every = 50  # a real render every 50 clicks keeps the drawing in the loop
    rng = random.Random(99)
    names = MOVE_NAMES + CONTROLS
    for _ in range(2000):
        enabled = [name for name in names if not board.buttons[name].disabled]
        weights = [0.02 if name == "new" else 0.3 if name in ("undo", "hint") else 1.0 for name in enabled]
        board.press(rng.choices(enabled, weights)[0])
        state = board.game.state
        assert sorted(all_cards(state)) == sorted(DECK)
        assert board.displayed_state is state
        drawn_state, highlight, _ = board.renderer.calls[-1]
        assert drawn_state is state and highlight == ((board.hinted,) if board.hinted else ())
        assert not NOTATION.search(board.message) and not re.search(r"\b0 unseen", board.detail)
    assert_buttons_match(board)
    # the board finally shown, drawn for real, is the game's board
    board.renderer = BoardRenderer()
    board.refresh()
    assert board.png.startswith(b"\x89PNG")
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
    assert board.buttons["S>F2"].description == "B2"  # as the board names the bases
    assert board.buttons["W3>F1"].description == "B1"
    assert board.buttons["S>W4"].description == "D4"
    assert board.seed_input.description == "Semente"
    assert board.message.startswith("Clica no monte")
    board.press("T")
    assert board.message.startswith("Viraste")
    assert board.buttons["T"].tooltip.startswith("põe primeiro a carta virada")
    board.click_place("pending")
    board.click_place("W2")
    assert board.message.endswith("no descarte 2.")
    # the text board under the picture names the piles as the picture and the buttons do
    assert "B1 (+1)" in board.alt and "D2: " in board.alt and "F1" not in board.alt


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
    import calcnb.ui.explorer  # noqa: F401  (registers its messages)

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
    board.press("new")
    assert board.game.deal_code == code
    assert board.game.history == ()
    assert "deal code" in board.message


def test_a_bad_deal_code_is_refused_and_the_game_goes_on():
    board = PlayBoard(seed=3)
    board.press("T")
    before = board.game.state
    board.seed_input.value = "A♣ 2♦ 3♥ 4♠ | 7♠ 7♠"
    board.press("new")
    assert board.game.state == before
    assert "cannot be dealt" in board.message and "goes on as before" in board.message
    assert "7♠ appears more than once" in board.message
    # and the board shows the game that goes on, not a half-dealt one
    assert board.displayed_state is board.game.state and board.alt == str(before)


def test_load_drives_another_game_from_its_current_position():
    saved = Game.new(5)
    saved.play_many("T S>W1 T")
    board = PlayBoard(seed=3)
    board.load(Game.from_json(saved.to_json()))
    assert board.game.state == saved.state
    assert board.buttons["T"].disabled  # a card is pending in the loaded game
    assert "3 moves played" in board.message


# ---------------------------------------------------------------- clicking the cards


def test_clicking_the_stock_turns_and_the_turned_card_goes_where_it_is_dropped():
    board = quick_board(seed=2)
    board.click_place("stock")
    turned = board.game.state.pending
    assert board.game.history == (Move.parse("T"),)
    board.click_place("pending")
    assert board.selected == "pending" and str(turned) in board.message
    # the picked card is framed on the board with every place it may go
    assert set(board.renderer.calls[-1][1]) == set(board._source_moves(board.game.state, "pending"))
    board.click_place("W3")
    assert board.game.history[-1] == Move.parse("S>W3") and board.selected is None
    assert board.message == f"Put {turned} on waste pile 3."


def test_a_card_dropped_where_it_does_not_fit_stays_and_the_message_says_why():
    board = quick_board(seed=2)
    board.click_place("stock")
    state = board.game.state
    wrong = next(m for m in (Move.parse(f"S>F{k}") for k in range(1, 5)) if not state.is_legal(m))
    board.click_place("pending")
    board.click_place(f"F{wrong.foundation}")
    assert board.game.state is state
    assert board.message == f"That move is not possible: {state.why_illegal(wrong)}."
    assert board.selected is None


def test_waste_tops_go_to_foundations_never_to_other_wastes():
    game = Game.from_position(
        foundations=[["A♣"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[["5♦", "2♦"], ["K♠"], [], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♣", "3♣", "4♣", "5♦", "2♦", "K♠"}],
    )
    board = quick_board(game)
    board.click_place("W1")
    board.click_place("W2")
    assert board.game.history == () and "only go to a foundation" in board.message
    board.click_place("W1")
    board.click_place("W3")  # an empty waste: still waste to waste
    assert board.game.history == () and "only go to a foundation" in board.message
    board.click_place("F1")
    assert "Click the turned card or the top of a waste pile first" in board.message
    board.click_place("W1")
    board.click_place("F1")  # 2♦ onto A♣
    assert board.game.history == (Move.parse("W1>F1"),)
    board.click_place("W4")
    assert board.message == "There is no card there to pick up." and board.selected is None


def test_a_double_click_sends_a_card_that_fits_exactly_one_foundation():
    game = Game.from_position(
        foundations=[["A♣"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[["5♦", "2♦"], ["K♠"], ["6♥"], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♣", "3♣", "4♣", "5♦", "2♦", "K♠", "6♥"}],
    )
    board = quick_board(game)
    board.click_place("W2")
    board.click_place("W2")  # a double-click's two clicks: the card stays picked up
    board.double_click_place("W2")
    assert board.game.history == () and board.message.startswith("K♠ fits no foundation now.")
    assert "Foundation 1 needs 2." in board.detail
    board.double_click_place("W1")
    assert board.game.history == (Move.parse("W1>F1"),)
    # a turned 4 fits foundation 3 (3 + 1)? no: foundation 1 needs 3 now, foundation 2 needs 4 and 4 needs 8
    two = Game.from_position(
        foundations=[["A♣", "2♠"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[[], [], [], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♠", "2♣", "3♣", "4♣", "3♦", "6♦"}] + ["3♦"],
        pending="6♦",
    )
    board = quick_board(two)
    board.double_click_place("pending")  # 6 fits foundation 3 (3 + 3) only
    assert board.game.history == (Move.parse("S>F3"),)


def test_a_double_click_on_a_card_fitting_two_foundations_asks_which():
    game = Game.from_position(
        foundations=[["A♣", "2♠", "3♠"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[[], [], [], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♠", "3♠", "2♣", "3♣", "4♣", "4♦"}],
        pending="4♦",
    )
    board = quick_board(game)
    board.double_click_place("pending")  # 4 follows 3 on foundation 1 and 2 on foundation 2
    assert board.game.history == ()
    assert board.message == "4♦ fits foundations 1 and 2: click the one you want."


def test_a_whole_game_by_clicking_places_only():
    board = quick_board(seed=8)
    rng = random.Random(8)
    for _ in range(400):
        state = board.game.state
        moves = state.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        if move.kind == MoveKind.TURN:
            board.click_place("stock")
        else:
            source = (
                "pending" if move.kind in (MoveKind.STOCK_TO_FOUNDATION, MoveKind.STOCK_TO_WASTE) else f"W{move.waste}"
            )
            target = f"F{move.foundation}" if move.foundation else f"W{move.waste}"
            board.click_place(source)
            board.click_place(target)
        assert board.game.state == state.apply(move)
    assert board.game.state.is_terminal() and board.ending


def test_a_click_on_a_board_showing_an_old_position_plays_nothing():
    board = quick_board(seed=4)
    assert board.buttons["S>W1"].disabled
    board.game.play("T")  # code changes the game behind the board: S>W1 became legal meanwhile
    board.press("S>W1")  # the greyed-out button on screen
    assert board.game.history == (Move.parse("T"),)
    assert board.message.startswith("The game changed behind the board")
    assert board.displayed_state is board.game.state and not board.buttons["S>W1"].disabled
    board.press("S>W1")  # now the board is current: it plays
    assert board.game.history[-1] == Move.parse("S>W1")
    board.game = Game.new(seed=5)  # a whole other game behind the board
    for act in (lambda: board.press("undo"), lambda: board.click_place("stock")):
        act()
        assert board.game.history == () and board.message.startswith("The game changed")
        board.game = Game.new(seed=6)


def test_more_controls_can_be_added_beside_or_below_the_board():
    board = quick_board(seed=1)
    extra, under = widgets.Button(description="Analyse"), widgets.HTML("notes")
    board.add_panel(extra)
    board.add_panel(under, beside=False)
    assert board.beside == [extra] and board.below == [under]
    assert '<jupyter-widget v-for="(widget, index) in beside"' in PLAY_TEMPLATE  # drawn in the page


def test_the_last_cards_hint_never_counts_unseen_cards():
    board = quick_board(near_end("K♣", ["J♣ Q♣", "", "", ""]))  # the stock is spent; the K must go on a waste
    board.press("hint")
    assert board.hinted.kind == MoveKind.STOCK_TO_WASTE
    assert board.message == f"Hint: put K♣ on waste pile {board.hinted.waste}."
    assert "unseen" not in board.detail and "no card is left to turn" in board.detail.lower()
    assert board.detail.endswith(hint_player_sentence())  # which player hints, and why


def _from_the_page(board: PlayBoard, event: str, data: object) -> None:
    """What the page sends when a person clicks: ipyvue's event message, handled as the kernel handles it."""
    board._handle_event(None, {"event": event, "data": data}, [])


def _point(place: str, width: float) -> dict[str, float]:
    """Where a person clicks ``place`` on a picture ``width`` CSS pixels wide (the middle; a waste pile's top card)."""
    left, bottom, place_width, height = place_regions()[place]
    scale = width / WIDTH
    y = bottom + height - 0.6 if place.startswith("W") else bottom + height / 2
    return {"x": (left + place_width / 2) * scale, "y": (HEIGHT - y) * scale, "width": width, "height": width / 1.5}


def test_the_page_presses_buttons_by_name_and_nothing_else():
    board = quick_board(seed=6)
    _from_the_page(board, "press", "T")
    assert board.game.history == (Move.parse("T"),)
    said = board.message
    for hostile in ("nonsense", "S>W9", None, 7, ["T"], {"name": "T"}, "__init__"):
        _from_the_page(board, "press", hostile)  # ignored: nothing played, nothing said, nothing raised
    assert board.game.history == (Move.parse("T"),) and board.message == said
    _from_the_page(board, "press", "undo")
    assert board.game.history == () and board.message.startswith("Took back")


def test_a_click_on_the_picture_is_measured_against_its_box_whatever_its_size():
    for width in (930.0, 640.0, 320.5):  # a laptop, a tablet, a phone
        board = quick_board(seed=6)
        _from_the_page(board, "board", {"type": "click", **_point("stock", width)})
        turned = board.game.state.pending
        assert board.game.history == (Move.parse("T"),), width
        _from_the_page(board, "board", {"type": "click", **_point("pending", width)})
        assert board.selected == "pending" and str(turned) in board.message
        _from_the_page(board, "board", {"type": "click", **_point("W2", width)})
        assert board.game.history[-1] == Move.parse("S>W2") and board.selected is None
    # a double-click's two clicks pick the card up; the double-click sends it to the one foundation it fits
    game = Game.from_position(
        foundations=[["A♣"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[["5♦", "2♦"], [], [], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♣", "3♣", "4♣", "5♦", "2♦"}],
    )
    board = quick_board(game)
    for kind in ("click", "click", "dblclick"):
        _from_the_page(board, "board", {"type": kind, **_point("W1", 930.0)})
    assert board.game.history == (Move.parse("W1>F1"),)


def test_a_garbled_click_from_the_page_does_nothing():
    board = quick_board(seed=6)
    said = board.message
    for data in (None, "stock", [1, 2], {}, {"x": "a", "y": 1, "width": 3}, {"x": 1, "y": 1, "width": 0},
                 {"x": 1, "y": 1, "width": -5}, {"x": 1, "y": 1}):  # fmt: skip
        _from_the_page(board, "board", data)
    assert board.game.history == () and board.message == said


def test_a_seed_typed_in_the_page_deals_that_game():
    board = quick_board(seed=1)
    board.set_state({"seed": "42"})  # the field's value, as the page sends it when the field is left
    assert board.seed_input.value == "42"
    _from_the_page(board, "press", "new")
    assert board.game.deal_code == Game.new(42).deal_code


def test_a_buttons_click_is_a_press():
    board = quick_board(seed=1)
    board.buttons["T"].click()
    assert board.game.history == (Move.parse("T"),)
    assert board.buttons["T"].disabled and board.buttons["T"].description == "Turn"
    with pytest.raises(KeyError):
        board.press("S>W9")


class RecordingComm:
    """A widget's comm to a notebook's front-end, as a kernel opens it, that keeps the messages sent over it.

    ipywidgets sends a change only over a comm with a kernel, and the comm ``comm.create_comm`` gives depends on
    what the process imported before: Solara's (imported when pytest collects ``calcnb/serve/class_server/page.py`` for
    its doctests) has no kernel, and nothing is sent. A test that counts messages opens its widgets on these.
    """

    kernel = "the notebook's kernel"  # not None: ipywidgets sends over this comm

    def __init__(self, sent: list[tuple[str, dict]], comm_id: str | None = None, **_opening: object) -> None:
        self.comm_id = comm_id or uuid.uuid4().hex
        self._sent = sent

    def send(self, data: dict, metadata: object = None, buffers: object = None) -> None:
        self._sent.append((self.comm_id, data))

    def on_msg(self, callback: object) -> None:
        pass

    def on_close(self, callback: object) -> None:
        pass

    def close(self, *args: object, **kwargs: object) -> None:
        pass


def test_a_click_sends_the_board_one_message(monkeypatch):
    # Every message is relayed by the server for every student of a class: a click changes the picture, the
    # buttons, the row labels and the message line, and the page hears it all in one update.
    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(comm, "create_comm", functools.partial(RecordingComm, messages))  # every widget's comm

    def sent() -> list[tuple[str, tuple[str, ...]]]:
        """The updates sent since the last call: (the model sending, the names it sends)."""
        updates = [(model, tuple(sorted(msg["state"]))) for model, msg in messages if msg.get("method") == "update"]
        messages.clear()
        return updates

    board = PlayBoard(Game.new(7))
    assert isinstance(board.comm, RecordingComm)
    for act in (
        lambda: board.press("T"),
        lambda: _from_the_page(board, "board", {"type": "click", **_point("W1", 900)}),
    ):
        sent()
        act()
        assert [model for model, _ in sent()] == [board.model_id]
    board = PlayBoard(Game.new(7))
    sent()
    board.press("T")
    board.click_place("pending")  # from code: the picked card framed, the message, in one update too
    board.click_place("W1")
    updates = sent()
    assert [model for model, _ in updates] == [board.model_id] * 3
    assert {"picture_src", "picture_alt", "controls", "said", "rows"} <= set(updates[0][1])


def test_a_boards_repr_says_what_is_played_and_never_the_cards_face_down():
    assert repr(PlayBoard(seed=2060)) == "PlayBoard(seed=2060, moves=0, score=4, playing)"
    game = Game.new(11)
    board = quick_board(Game.from_deal(game.deal_code))
    board.press("T")
    assert repr(board) == "PlayBoard(a given deal, moves=1, score=4, playing)"
    text = board._repr_mimebundle_()["text/plain"]  # what a notebook keeps of the widget, shown before it runs
    assert text == message("before_run.say", what=message("before_run.play_board"))
    assert game.deal_code not in text and str(board.game.state.stock[0]) not in text
