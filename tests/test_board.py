"""The drawn board shows what the state holds; read back from the board's labels, not pixels."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from PIL import Image
from sweeps import SIZES, examples

from calcnb import CalcnbError, Game, InvalidMove, Move, State, set_language
from calcnb.game.cards import DECK, RANK_COUNT, SUITS, Card, foundation_order, rank_name
from calcnb.game.rules import MoveKind
from calcnb.i18n import catalogue, message
from calcnb.ui.board import (
    BLACK_SUIT,
    DPI,
    HEIGHT,
    RED_SUIT,
    WIDTH,
    BoardRenderer,
    board_labels,
    board_marks,
    board_texts,
    draw,
    text_overlaps,
    to_png,
)


def random_walk(seed: int, moves: int | None = None) -> list[Game]:
    """Copies of one random game after each move, to its end (or after ``moves`` moves)."""
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    games = [game.copy()]
    while game.legal_moves() and (moves is None or len(games) <= moves):
        game.play(rng.choice(game.legal_moves()))
        games.append(game.copy())
    return games


def reachable_states(seeds: range, every: int = 7) -> list[Game]:
    """A spread of positions from several random games, always with each game's last position."""
    picked = []
    for seed in seeds:
        games = random_walk(seed)
        picked.extend(games[::every])
        picked.append(games[-1])
    return picked


def won_state() -> State:
    # each foundation's order is a permutation of the ranks, so one suit per foundation uses every card once
    return State.from_position(
        foundations=[[Card(rank, SUITS[k]) for rank in foundation_order(k + 1)] for k in range(4)],
        wastes=[[], [], [], []],
        stock=[],
    )


def tall_waste_state(tall: int) -> State:
    """Starters on the foundations, ``tall`` cards on waste 1, a few elsewhere, a card pending."""
    starters = [Card(1, "♣"), Card(2, "♣"), Card(3, "♣"), Card(4, "♣")]
    rest = [card for card in DECK if card not in starters]
    waste1, rest = rest[:tall], rest[tall:]
    pending, rest = rest[0], rest[1:]
    waste2, rest = rest[:3], rest[3:]
    return State.from_position(
        foundations=[[card] for card in starters], wastes=[waste1, waste2, [], []], stock=rest, pending=pending
    )


def labels_by_role(figure: Figure) -> dict[str, object]:
    return {label.gid: label for label in board_labels(figure)}


def assert_board_shows(figure: Figure, state: State, last_move: Move | None = None) -> None:
    """Every pile's cards, the stock count, pending card, score, status and banner are on the board."""
    labels = labels_by_role(figure)
    texts = board_texts(figure)
    for f, (pile, order) in enumerate(zip(state.foundations, (foundation_order(k) for k in (1, 2, 3, 4)))):
        for i, rank in enumerate(order):
            label = labels[f"foundation.{f + 1}.cell.{i + 1}"]
            if i < len(pile):
                assert label.text == str(pile[i])
                assert label.colour == (RED_SUIT if pile[i].is_red else BLACK_SUIT)
            else:
                assert label.text == rank_name(rank)  # the rest of the order, still to come
        need = state.needs()[f]
        next_label = labels[f"foundation.{f + 1}.next"].text
        if need is None:
            assert next_label == message("board.draw.complete")
        else:
            assert next_label == message("board.draw.next", rank=rank_name(need))
            needed_cell = labels[f"foundation.{f + 1}.cell.{len(pile) + 1}"]
            assert needed_cell.text == rank_name(need)
            assert needed_cell.weight == "bold"  # the next needed rank stands out
    for w, pile in enumerate(state.wastes):
        for i, card in enumerate(pile):
            label = labels[f"waste.{w + 1}.card.{i + 1}"]
            assert label.text == str(card)
            assert label.colour == (RED_SUIT if card.is_red else BLACK_SUIT)
        assert f"waste.{w + 1}.card.{len(pile) + 1}" not in labels
    assert labels["stock.count"].text == message("board.draw.stock_left", count=len(state.stock))
    if state.pending is None:
        assert "pending.card" not in labels
    else:
        assert labels["pending.card"].text == str(state.pending)
    assert labels["score"].text == message("board.draw.score", score=state.score)
    assert message(f"board.draw.status.{state.status}") in labels["title"].text
    if state.status == "won":
        assert labels["banner"].text == message("board.draw.won")
    elif state.status == "lost":
        assert labels["banner"].text == message("board.draw.lost")
    else:
        assert "banner" not in labels
    if last_move is None:
        assert "last.move" not in labels
    else:
        # said in the board's own names, never in notation: the card moved and where it went
        said = labels["last.move"].text
        assert ">" not in said
        if last_move.kind == MoveKind.TURN:
            assert said == message("board.draw.moved_turn", card=state.pending)
        elif last_move.kind == MoveKind.STOCK_TO_WASTE:
            card = state.wastes[last_move.waste_index][-1]
            assert said == message("board.draw.moved_to_waste", card=card, waste=last_move.waste)
        else:
            card = state.foundations[last_move.foundation_index][-1]
            assert said == message("board.draw.moved_to_foundation", card=card, foundation=last_move.foundation)
    # every card of the table is somewhere in the text, once for each pile it is in
    table = [card for pile in (*state.foundations, *state.wastes) for card in pile]
    for card in table:
        assert str(card) in texts


# The first three deals' states in the fast tier; fifteen more deals' in the full run.
@pytest.mark.parametrize("seed", [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 6))])
def test_every_reachable_state_draws_what_it_holds(seed: int) -> None:
    for game in reachable_states(range(seed * 3, seed * 3 + 3)):
        figure = draw(game)
        assert_board_shows(figure, game.state, game.last_move)
        assert text_overlaps(figure) == [], game.state


@pytest.mark.parametrize("size", SIZES)
def test_reachable_states_in_portuguese_have_no_overlapping_text(size: str) -> None:
    set_language("pt")
    deals, every = (range(20, 24), 5) if size == "whole" else (range(20, 21), 10)
    for game in reachable_states(deals, every=every):
        figure = draw(game)
        assert_board_shows(figure, game.state, game.last_move)
        assert text_overlaps(figure) == [], game.state


def test_a_thirty_card_waste_fits_without_overlap() -> None:
    for tall in (30, 40, 47):  # 47 and the pending card: the whole stock turned onto one pile
        state = tall_waste_state(tall)
        figure = draw(state)
        assert_board_shows(figure, state)
        assert text_overlaps(figure) == []
        labels = labels_by_role(figure)
        bottom = labels["waste.1.card.1"].extents()
        top = labels[f"waste.1.card.{tall}"].extents()
        assert 0 <= top.y0 < bottom.y0 <= HEIGHT  # the fan stays on the board, top card lowest
    assert labels_by_role(draw(tall_waste_state(30)))["waste.1.card.2"].size >= 8  # still legible at 30


def test_won_and_lost_states_show_a_banner() -> None:
    won = won_state()
    assert won.status == "won"
    figure = draw(won)
    assert_board_shows(figure, won)
    assert text_overlaps(figure) == []
    assert [labels_by_role(figure)[f"foundation.{k}.next"].text for k in (1, 2, 3, 4)] == ["complete"] * 4

    lost = next(games[-1] for seed in range(50) if (games := random_walk(seed))[-1].status == "lost")
    figure = draw(lost)
    assert_board_shows(figure, lost.state, lost.last_move)
    assert text_overlaps(figure) == []


@pytest.mark.parametrize("size", SIZES)
def test_renderer_shows_what_draw_shows_whatever_it_showed_before(size: str) -> None:
    renderer = BoardRenderer()
    games = reachable_states(range(2), every=6) if size == "whole" else reachable_states(range(1), every=12)
    states = [*games, won_state(), tall_waste_state(30), *reversed(games[:10])]
    rng = random.Random(5)
    for item in states:
        hint = rng.choice(item.legal_moves()) if item.legal_moves() and rng.random() < 0.5 else None
        shown = renderer.render(item, highlight=hint)
        fresh = draw(item, highlight=hint)
        assert shown is renderer.figure
        assert board_labels(shown) == board_labels(fresh)
        assert board_marks(shown) == board_marks(fresh)
        board = [artist for artist in renderer.figure.artists if isinstance(artist, PathCollection)]
        for reused, new in ((board, fresh.axes[0].collections),):
            for a, b in zip(reused, new, strict=True):
                assert [p.vertices.tolist() for p in a.get_paths()] == [p.vertices.tolist() for p in b.get_paths()]
                assert a.get_facecolor().tolist() == b.get_facecolor().tolist()
                assert a.get_edgecolor().tolist() == b.get_edgecolor().tolist()


def test_legal_places_are_marked() -> None:
    game = Game.new(seed=3)
    game.play("T")
    marks = board_marks(draw(game))
    # a pending card: every waste, the foundations that need it, and the card itself
    expected = {"pending", "W1", "W2", "W3", "W4"} | {
        f"F{move.foundation}" for move in game.legal_moves() if move.kind == MoveKind.STOCK_TO_FOUNDATION
    }
    assert set(marks["legal"]) == expected
    assert marks["last"] == ["pending"]

    # nothing pending: the turn, and each waste top that fits with the foundation it fits
    state = State.from_position(
        foundations=[["A♣"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[["5♦", "2♦"], ["K♠"], ["7♥"], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♣", "3♣", "4♣", "5♦", "2♦", "K♠", "7♥"}],
    )
    marks = board_marks(draw(state))
    assert set(marks["legal"]) == {"stock", "W1", "F1"}  # 2♦ fits foundation 1 (A + 1)
    assert marks["hint"] == [] and marks["last"] == []


def test_highlight_and_last_move_are_marked() -> None:
    state = State.from_position(
        foundations=[["A♣"], ["2♣"], ["3♣"], ["4♣"]],
        wastes=[["5♦", "2♦"], ["8♠"], ["7♥"], []],
        stock=[card for card in DECK if str(card) not in {"A♣", "2♣", "3♣", "4♣", "5♦", "2♦", "8♠", "7♥"}],
    )
    marks = board_marks(draw(state, highlight="W1>F1", last_move="S>W2"))
    assert marks["hint"] == ["W1", "F1"]
    assert marks["last"] == ["W2"]
    labels = labels_by_role(draw(state, highlight=[Move.parse("T"), "W1>F1"], last_move=Move.parse("S>W2")))
    assert labels["last.move"].text == "8♠ to W2"  # the board's names, not the notation S>W2

    game = Game.new(seed=1)
    game.play_many(["T", "S>W3"])
    assert board_marks(draw(game))["last"] == ["W3"]  # a Game's own last move by default
    assert board_marks(draw(game, last_move="S>W1"))["last"] == ["W1"]
    assert board_marks(draw(game.state))["last"] == []  # a bare State knows no last move


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(TypeError, match="Game or State"):
        draw("A♠ 2♦")
    with pytest.raises(CalcnbError, match=r"^cannot draw 'xxx") as refused:
        draw("x" * 10_000)  # a calcnb refusal (a ValueError too), quoting little of what it got
    assert isinstance(refused.value, TypeError) and len(str(refused.value)) < 160
    set_language("pt")
    with pytest.raises(CalcnbError, match=r"^não é possível desenhar 42: dá um Game ou um State do calcnb$"):
        draw(42)
    set_language("en")
    with pytest.raises(InvalidMove):
        draw(Game.new(seed=1), highlight="W1>W2")
    with pytest.raises(InvalidMove):
        BoardRenderer().render_png(Game.new(seed=1), last_move="X")


def test_labels_follow_the_language() -> None:
    game = Game.new(seed=2)
    set_language("pt")
    texts = board_texts(draw(game))
    assert "Monte" in texts and "Carta virada" in texts and "Descartes" in texts
    # one naming system per language: bases B1..B4 and descartes D1..D4, as the buttons and messages say
    assert "B1  +1" in texts and "D4" in texts
    assert not any(text.startswith(("F1", "W1")) for text in texts)
    assert text_overlaps(draw(tall_waste_state(30))) == []
    assert text_overlaps(draw(won_state())) == []
    set_language("en")
    assert "Stock" in board_texts(draw(game))


def test_board_messages_exist_in_both_languages() -> None:
    english = {key for key in catalogue("en") if key.startswith("board.draw.")}
    portuguese = {key for key in catalogue("pt") if key.startswith("board.draw.")}
    assert english == portuguese
    assert {"board.draw.stock", "board.draw.complete", "board.draw.won", "board.draw.lost"} <= english


def _shown_by_ipython(value: object) -> bytes:
    """The PNG IPython's display formatter makes of ``value``: its own ``_repr_png_``, nothing registered."""
    from IPython.core.formatters import DisplayFormatter

    formatter = DisplayFormatter()
    assert not formatter.formatters["image/png"].type_printers
    data, _ = formatter.format(value)
    return data["image/png"]


def test_png_output_is_a_board_sized_image() -> None:
    game = Game.new(seed=4)
    game.play("T")
    shown = (_shown_by_ipython(game), _shown_by_ipython(game.state))
    for png in (to_png(game), *shown, BoardRenderer().render_png(game)):
        image = Image.open(io.BytesIO(png))
        image.load()
        assert image.size == (int(WIDTH * DPI), int(HEIGHT * DPI))
        assert image.getpixel((5, 5))[:3] != (0, 0, 0)


def test_renderer_png_equals_a_fresh_drawing() -> None:
    renderer = BoardRenderer()
    games = random_walk(8, moves=40)
    for game in games[::-1][:20:4]:  # back and forth through the game, reusing the figure
        reused = Image.open(io.BytesIO(renderer.render_png(game)))
        fresh = Image.open(io.BytesIO(to_png(game)))
        assert reused.tobytes() == fresh.tobytes()


def test_a_new_renderer_starts_from_the_last_first_picture_and_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals differ before their first turn only in their starters: a new renderer compresses only what differs."""

    def pixels(png: bytes) -> bytes:
        return Image.open(io.BytesIO(png)).tobytes()

    import calcnb.ui.board as board

    BoardRenderer().render_png(Game.new(seed=11))
    later = BoardRenderer()
    game = Game.new(seed=12)  # other starters: 2♠ and 4♥ where seed 11 has 2♣ and 4♦
    compressed = []
    compressobj = board._deflate.compressobj
    monkeypatch.setattr(board._deflate, "compressobj", lambda *a: compressed.append(a) or compressobj(*a))
    first = later.render_png(game)
    monkeypatch.undo()
    assert pixels(first) == pixels(to_png(game))
    assert 0 < len(compressed) <= 4  # of the picture's 40 bands: only those with the starters' row
    for _ in range(3):
        game.play(game.legal_moves()[0])
        assert pixels(later.render_png(game)) == pixels(to_png(game))
    set_language("pt")
    try:
        portuguese = Game.new(seed=13)
        assert pixels(BoardRenderer().render_png(portuguese)) == pixels(to_png(portuguese))
    finally:
        set_language("en")


def test_draw_into_given_axes_and_no_pyplot_figures() -> None:
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    figure = Figure(figsize=(WIDTH, HEIGHT))
    ax = figure.add_subplot()
    assert draw(Game.new(seed=1), ax) is figure
    assert "Stock" in board_texts(figure)
    artists = len(ax.get_children())
    won = won_state()
    draw(won, ax)  # again into the same axes: the board is replaced, not stacked
    assert len(ax.get_children()) == artists
    assert_board_shows(figure, won)
    draw(Game.new(seed=1))
    assert plt.get_fignums() == before


def test_red_suits_are_red_on_the_pending_card() -> None:
    game = Game.new(seed=0)
    while game.state.pending is None or not game.state.pending.is_red:
        game.play("T" if game.state.pending is None else "S>W1")
    assert labels_by_role(draw(game))["pending.card"].colour == RED_SUIT


def test_engine_layers_never_import_matplotlib() -> None:
    code = (
        "import calcnb.game.engine, calcnb.game.game, sys; "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    # and the package itself stays light until a board is drawn
    code = "import calcnb, sys; assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_complete_foundation_marks_its_top_not_a_next_cell() -> None:
    figure = draw(won_state())
    labels = labels_by_role(figure)
    for k in (1, 2, 3, 4):
        assert labels[f"foundation.{k}.cell.{RANK_COUNT}"].text[:-1] == "K"
        assert labels[f"foundation.{k}.cell.{RANK_COUNT}"].weight == "bold"  # the top card


def test_overlap_check_catches_crowded_text() -> None:
    # the same board squeezed into a small axes: text keeps its point size and collides
    figure = Figure(figsize=(4, 3))
    draw(tall_waste_state(30), figure.add_subplot())
    assert text_overlaps(figure)


def test_drawn_boards_are_read_back_from_their_own_artists_only() -> None:
    figure = draw(Game.new(seed=1))
    assert not any(hasattr(ax, "_calcnb_board") for ax in figure.axes)  # nothing hung on matplotlib's Axes
    with pytest.raises(ValueError, match="no calcnb board"):
        board_texts(Figure())


def test_png_encoder_reuses_bands_and_stays_exact() -> None:
    import zlib

    import numpy as np

    from calcnb.ui.board import PngEncoder, adler32_combine

    rng = np.random.default_rng(1)
    height, width = 70, 33  # bands of 16 rows and a short last band
    image = np.zeros((height, width, 4), np.uint8)
    image[..., 3] = 255
    image[5:20, 3:9, 0] = 200
    encoder = PngEncoder()
    for step in range(4):
        png = encoder.encode(memoryview(image.tobytes()), width, height)
        decoded = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
        assert (decoded == image).all(), step
        # zlib checks the Adler-32 of the whole stream as it inflates
        idat = png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8]
        assert len(zlib.decompress(idat)) == height * (1 + width * 4)
        image[rng.integers(height), rng.integers(width)] = rng.integers(0, 256, 4)  # one band changes
    a, b = b"board", bytes(range(256)) * 300
    assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


_SHARED_RENDERER = BoardRenderer()


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 24), max_size=120))
def test_any_reachable_state_draws_and_reads_back(seed: int, choices: list[int]) -> None:
    game = Game.new(seed=seed)
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[choice % len(moves)])
    hint = game.legal_moves()[:1]
    shown = _SHARED_RENDERER.render(game, highlight=hint)  # one renderer through every example
    assert_board_shows(shown, game.state, game.last_move)
    assert board_labels(shown) == board_labels(draw(game, highlight=hint))
    assert text_overlaps(shown) == []


def test_any_move_may_be_highlighted_even_where_it_is_not_legal() -> None:
    from calcnb.game.engine import ALL_MOVES

    for item in (Game.new(seed=1), won_state(), tall_waste_state(30)):
        marks = board_marks(draw(item, highlight=ALL_MOVES))
        assert len(marks["hint"]) == 2 * len(ALL_MOVES)  # a source and a target for each


def test_label_extents_cover_the_ink_actually_drawn() -> None:
    """The extents the overlap check uses are where the glyphs land: every red-suit pixel is inside one."""
    import numpy as np

    from calcnb.ui.board import text_extents

    game = random_walk(11, moves=45)[-1]
    renderer = BoardRenderer()
    pixels = np.asarray(Image.open(io.BytesIO(renderer.render_png(game))).convert("RGB")).astype(int)
    height = pixels.shape[0]
    red = (pixels[..., 0] > 150) & (pixels[..., 1] < 70) & (pixels[..., 2] < 100)
    boxes = [box for label, box in text_extents(renderer.figure) if label.colour == RED_SUIT]
    assert boxes and red.sum() > 100
    covered = np.zeros_like(red)
    for box in boxes:
        # display y grows upwards, image rows downwards; one pixel of slack for antialiasing
        top, bottom = int(height - box.y1) - 1, int(np.ceil(height - box.y0)) + 1
        covered[max(top, 0) : bottom, max(int(box.x0) - 1, 0) : int(np.ceil(box.x1)) + 1] = True
        assert red[max(top, 0) : bottom, max(int(box.x0) - 1, 0) : int(np.ceil(box.x1)) + 1].any()
    assert not (red & ~covered).any()
