"""The board drawn with matplotlib: a pure :func:`draw` and a fast, reusable :class:`BoardRenderer`.

What the picture shows, left to right:

* the four foundations, one column each, headed by their step (``+1`` .. ``+4``); each column is
  the foundation's whole 13-rank order as a strip: played cells show the card (the top one in bold),
  the next needed rank stands out in yellow, and ``complete`` is written under a full foundation;
* the stock as a face-down card with the number of cards left, the turned (pending) card face up,
  and the last move;
* the four waste piles fanned downwards so every card's corner is visible; the fan closes up as a
  pile grows (a 30-card pile still fits) and the top card is drawn whole.

Marks use the colour-blind-safe Okabe-Ito palette and differ in line style as well as colour:
legal places (dashed blue), a hint (thick orange) and the last move (reddish purple). Every label
comes from the message catalogue (keys ``board.draw.*``), so the board follows ``set_language``.

:func:`draw` builds a fresh figure and never touches pyplot, so nothing leaks in a notebook.
:class:`BoardRenderer` keeps one figure and only updates its artists, which is what a play widget
wants on every click (:meth:`BoardRenderer.render_png`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, field

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from PIL import Image

from .cards import RANK_COUNT, Card, foundation_order, rank_name
from .engine import STEPS, Move, State
from .i18n import message, register

__all__ = [
    "BoardRenderer",
    "board_labels",
    "board_marks",
    "board_texts",
    "draw",
    "text_overlaps",
    "to_png",
]

register(
    {
        "en": {
            "board.draw.title": "Calculation",
            "board.draw.status.playing": "playing",
            "board.draw.status.won": "won",
            "board.draw.status.lost": "lost",
            "board.draw.score": "Score {score}/52",
            "board.draw.foundations": "Foundations",
            "board.draw.foundation": "F{number}  +{step}",
            "board.draw.next": "next {rank}",
            "board.draw.complete": "complete",
            "board.draw.wastes": "Waste piles",
            "board.draw.waste": "W{number}",
            "board.draw.stock": "Stock",
            "board.draw.stock_left": "{count} left",
            "board.draw.pending": "Turned card",
            "board.draw.last_move": "Last move",
            "board.draw.won": "Won! All 52 cards are on the foundations",
            "board.draw.lost": "Lost: no move is left. Score {score}/52",
        },
        "pt": {
            "board.draw.title": "Cálculo",
            "board.draw.status.playing": "em jogo",
            "board.draw.status.won": "ganho",
            "board.draw.status.lost": "perdido",
            "board.draw.score": "Pontos {score}/52",
            "board.draw.foundations": "Bases",
            "board.draw.foundation": "B{number}  +{step}",
            "board.draw.next": "a seguir {rank}",
            "board.draw.complete": "completa",
            "board.draw.wastes": "Descartes",
            "board.draw.waste": "D{number}",
            "board.draw.stock": "Monte",
            "board.draw.stock_left": "restam {count}",
            "board.draw.pending": "Carta virada",
            "board.draw.last_move": "Última jogada",
            "board.draw.won": "Ganhou! As 52 cartas estão nas bases",
            "board.draw.lost": "Perdeu: não há mais jogadas. Pontos {score}/52",
        },
    }
)

# ---------------------------------------------------------------- look

# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
LEGAL_COLOUR = "#0072B2"  # blue
HINT_COLOUR = "#E69F00"  # orange
LAST_COLOUR = "#CC79A7"  # reddish purple
NEXT_COLOUR = "#F0E442"  # yellow
WON_COLOUR = "#009E73"  # bluish green
LOST_COLOUR = "#D55E00"  # vermilion
RED_SUIT = "#C8102E"
BLACK_SUIT = "#000000"
TABLE = "#F3F5F1"
CARD_FACE = "#FFFFFF"
CARD_EDGE = "#333333"
CARD_BACK = "#35608C"
EMPTY_FACE = "#E6E8E3"
EMPTY_EDGE = "#B9BDB5"
FAINT_TEXT = "#7A7F76"

# Geometry in inches (the axes spans the figure and its data units are inches).
WIDTH, HEIGHT = 12.0, 8.0
DPI = 80  # 960 x 640 pixels: legible on a projector, quick to rasterise and encode
TITLE_Y = 7.62
SECTION_Y = 7.12
HEADER_Y = 6.82
STRIP_TOP = 6.6
CELL_H = 0.44
CELL_W = 0.96
FOUNDATION_X = (0.2, 1.28, 2.36, 3.44)
NEXT_Y = STRIP_TOP - RANK_COUNT * CELL_H - 0.22
MIDDLE_X = 4.72
MIDDLE_W = 1.2
STOCK_CARD = (4.85, 5.25, 0.95, 1.3)  # x, y, width, height
PENDING_CARD = (4.85, 3.15, 0.95, 1.3)
WASTE_X = (6.25, 7.68, 9.11, 10.54)
WASTE_CARD_W = 1.25
WASTE_CARD_H = 1.15
WASTE_BOTTOM = 0.15
WASTE_SPACING_MAX = 0.4
WASTE_LABEL_MAX_PT = 14.0
MAX_WASTE_CARDS = 48  # the whole stock on one pile

MARK_STYLE = {
    # kind: (colour, line width in points, line style, how far outside the outlined box, in inches)
    "legal": (LEGAL_COLOUR, 2.5, (0, (4, 2)), 0.03),
    "hint": (HINT_COLOUR, 4.5, "solid", 0.08),
    "last": (LAST_COLOUR, 3.0, "solid", -0.04),
}


def suit_colour(card: Card) -> str:
    """Red for ♦ and ♥, black for ♣ and ♠."""
    return RED_SUIT if card.is_red else BLACK_SUIT


def waste_spacing(cards: int) -> float:
    """The vertical step between fanned waste cards when a pile holds ``cards`` (room kept for one more)."""
    room = STRIP_TOP - WASTE_BOTTOM - WASTE_CARD_H
    return min(WASTE_SPACING_MAX, room / max(cards, 1))


def waste_label_size(spacing: float) -> float:
    """The corner label size (points) that keeps consecutive labels from touching."""
    return min(WASTE_LABEL_MAX_PT, spacing * 72 / 1.32)


# ---------------------------------------------------------------- inputs


def _split(game_or_state: object) -> tuple[State, Move | None]:
    """The state to draw and, for a Game, its last move."""
    if isinstance(game_or_state, State):
        return game_or_state, None
    state = getattr(game_or_state, "state", None)
    if isinstance(state, State):
        return state, getattr(game_or_state, "last_move", None)
    raise TypeError(f"cannot draw {game_or_state!r}: give a calcnb Game or State")


def _moves(highlight: Move | str | Iterable[Move | str] | None) -> tuple[Move, ...]:
    if highlight is None:
        return ()
    if isinstance(highlight, (Move, str)):
        return (Move.parse(highlight),)
    return tuple(Move.parse(move) for move in highlight)


# ---------------------------------------------------------------- the artists


@dataclass
class _Marks:
    """The places marked in the last update: ``F1``..``F4``, ``W1``..``W4``, ``stock``, ``pending``."""

    legal: list[str] = field(default_factory=list)
    hint: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)


class _BoardArtists:
    """Every artist of one board, created once on an axes and updated in place for each state."""

    def __init__(self, ax: Axes) -> None:
        self.ax = ax
        ax.set_xlim(0, WIDTH)
        ax.set_ylim(0, HEIGHT)
        ax.set_axis_off()
        ax.add_patch(Rectangle((0, 0), WIDTH, HEIGHT, facecolor=TABLE, edgecolor="none", zorder=0))
        self.marks = _Marks()
        self._mark_pool: list[Rectangle] = []
        self._marks_used = 0

        self.title = self._text(0.2, TITLE_Y, "title", size=18, weight="bold", ha="left")
        self.score = self._text(WIDTH - 0.2, TITLE_Y, "score", size=18, weight="bold", ha="right")
        self.banner = self._text(
            6.9, TITLE_Y, "banner", size=17, weight="bold", color="white", ha="center",
            bbox={"boxstyle": "round,pad=0.35", "facecolor": WON_COLOUR, "edgecolor": "none"},
        )  # fmt: skip
        self.foundations_title = self._text(FOUNDATION_X[0], SECTION_Y, "foundations", size=14, ha="left")
        self.wastes_title = self._text(WASTE_X[0], SECTION_Y, "wastes", size=14, ha="left")

        # Foundations: a strip of 13 cells per step, in the order the foundation builds.
        self.orders = [foundation_order(step) for step in STEPS]
        self.foundation_headers: list[Text] = []
        self.cells: list[list[Rectangle]] = []
        self.cell_texts: list[list[Text]] = []
        self.next_texts: list[Text] = []
        for f, x in enumerate(FOUNDATION_X):
            self.foundation_headers.append(
                self._text(x + CELL_W / 2, HEADER_Y, f"foundation.{f + 1}.header", size=15, weight="bold")
            )
            cells, texts = [], []
            for i in range(RANK_COUNT):
                y = STRIP_TOP - (i + 1) * CELL_H
                cells.append(self._rect(x, y + 0.03, CELL_W, CELL_H - 0.06, zorder=1))
                texts.append(self._text(x + CELL_W / 2, y + CELL_H / 2, f"foundation.{f + 1}.cell.{i + 1}", size=14))
            self.cells.append(cells)
            self.cell_texts.append(texts)
            self.next_texts.append(self._text(x + CELL_W / 2, NEXT_Y, f"foundation.{f + 1}.next", size=13))

        # Stock, pending card and last move in the middle column.
        centre = MIDDLE_X + MIDDLE_W / 2
        self.stock_title = self._text(centre, STOCK_CARD[1] + STOCK_CARD[3] + 0.22, "stock.title", size=13)
        self.stock_card = self._rect(*STOCK_CARD, zorder=1)
        self.stock_inner = self._rect(
            STOCK_CARD[0] + 0.1, STOCK_CARD[1] + 0.1, STOCK_CARD[2] - 0.2, STOCK_CARD[3] - 0.2, zorder=1.5
        )
        self.stock_count = self._text(centre, STOCK_CARD[1] - 0.22, "stock.count", size=13, weight="bold")
        self.pending_title = self._text(centre, PENDING_CARD[1] + PENDING_CARD[3] + 0.22, "pending.title", size=13)
        self.pending_card = self._rect(*PENDING_CARD, zorder=1)
        self.pending_text = self._text(
            centre, PENDING_CARD[1] + PENDING_CARD[3] / 2, "pending.card", size=26, weight="bold"
        )
        self.last_title = self._text(centre, 2.5, "last.title", size=12)
        self.last_text = self._text(
            centre, 2.1, "last.move", size=16, weight="bold",
            bbox={"boxstyle": "round,pad=0.3", "facecolor": CARD_FACE, "edgecolor": LAST_COLOUR, "linewidth": 3},
        )  # fmt: skip

        # Waste piles: enough pre-made cards for the whole stock on one pile.
        self.waste_headers: list[Text] = []
        self.waste_cards: list[list[Rectangle]] = []
        self.waste_texts: list[list[Text]] = []
        self.waste_pips: list[Text] = []
        self.waste_slots: list[Rectangle] = []
        for w, x in enumerate(WASTE_X):
            self.waste_headers.append(
                self._text(x + WASTE_CARD_W / 2, HEADER_Y, f"waste.{w + 1}.header", size=15, weight="bold")
            )
            cards, texts = [], []
            for i in range(MAX_WASTE_CARDS):
                cards.append(self._rect(x, 0, WASTE_CARD_W, WASTE_CARD_H, zorder=2 + i * 0.01))
                texts.append(
                    self._text(x + 0.08, 0, f"waste.{w + 1}.card.{i + 1}", ha="left", va="top", zorder=2.005 + i * 0.01)
                )
            for artist in (*cards, *texts):
                artist.set_visible(False)
            self.waste_cards.append(cards)
            self.waste_texts.append(texts)
            self.waste_pips.append(self._text(x + WASTE_CARD_W / 2, 0, f"waste.{w + 1}.pip", size=30, zorder=2.6))
            # the empty outline where the next card would land on this pile
            self.waste_slots.append(self._rect(x, 0, WASTE_CARD_W, WASTE_CARD_H, zorder=1))
        self._state: State | None = None

    # -------------------------------------------------------- helpers

    def _text(self, x: float, y: float, gid: str, *, size: float = 12, **style: object) -> Text:
        style.setdefault("ha", "center")
        style.setdefault("va", "center")
        style.setdefault("zorder", 3)
        text = self.ax.text(x, y, "", fontsize=size, gid=gid, **style)
        return text

    def _rect(self, x: float, y: float, width: float, height: float, *, zorder: float) -> Rectangle:
        rect = Rectangle((x, y), width, height, linewidth=1.2, zorder=zorder)
        self.ax.add_patch(rect)
        return rect

    @staticmethod
    def _look(rect: Rectangle, face: str, edge: str, width: float = 1.2, style: object = "solid") -> None:
        rect.set_facecolor(face)
        rect.set_edgecolor(edge)
        rect.set_linewidth(width)
        rect.set_linestyle(style)

    @staticmethod
    def _show(text: Text, value: str, colour: str = BLACK_SUIT, weight: str = "normal") -> None:
        text.set_text(value)
        text.set_color(colour)
        text.set_fontweight(weight)
        text.set_visible(bool(value))

    def _mark(self, kind: str, box: tuple[float, float, float, float], place: str) -> None:
        """Outline ``box`` (x, y, width, height) as a mark of ``kind``; pooled rectangles are reused."""
        colour, width, style, outset = MARK_STYLE[kind]
        if self._marks_used == len(self._mark_pool):
            rect = Rectangle((0, 0), 1, 1, fill=False, zorder=4)
            self.ax.add_patch(rect)
            self._mark_pool.append(rect)
        rect = self._mark_pool[self._marks_used]
        self._marks_used += 1
        x, y, w, h = box
        rect.set_bounds(x - outset, y - outset, w + 2 * outset, h + 2 * outset)
        rect.set_edgecolor(colour)
        rect.set_linewidth(width)
        rect.set_linestyle(style)
        rect.set_visible(True)
        getattr(self.marks, kind).append(place)

    # -------------------------------------------------------- places

    def _cell_box(self, f: int, i: int) -> tuple[float, float, float, float]:
        return (FOUNDATION_X[f], STRIP_TOP - (i + 1) * CELL_H + 0.03, CELL_W, CELL_H - 0.06)

    def _foundation_box(self, state: State, f: int, *, top: bool) -> tuple[float, float, float, float]:
        """The top card's cell (``top``), else the cell of the next needed rank (the top when complete)."""
        played = len(state.foundations[f])
        i = played - 1 if top or played == RANK_COUNT else played
        return self._cell_box(f, i)

    def _waste_card_y(self, cards: int, i: int) -> float:
        return STRIP_TOP - WASTE_CARD_H - i * waste_spacing(cards)

    def _waste_box(self, state: State, w: int, *, slot: bool) -> tuple[float, float, float, float]:
        """The top card of waste ``w`` or (``slot``) the place where the next card would land."""
        cards = len(state.wastes[w])
        i = cards if slot else max(cards - 1, 0)
        return (WASTE_X[w], self._waste_card_y(cards, i), WASTE_CARD_W, WASTE_CARD_H)

    def _source_box(self, state: State, move: Move) -> tuple[tuple[float, float, float, float], str]:
        if move.kind == Move.TURN_KIND:
            return STOCK_CARD, "stock"
        if move.kind == Move.WASTE_TO_FOUNDATION:
            return self._waste_box(state, move.waste_index, slot=False), f"W{move.waste}"
        return PENDING_CARD, "pending"

    def _target_box(self, state: State, move: Move) -> tuple[tuple[float, float, float, float], str]:
        if move.kind == Move.TURN_KIND:
            return PENDING_CARD, "pending"
        if move.kind == Move.STOCK_TO_WASTE:
            return self._waste_box(state, move.waste_index, slot=True), f"W{move.waste}"
        return self._foundation_box(state, move.foundation_index, top=False), f"F{move.foundation}"

    # -------------------------------------------------------- update

    def update(self, state: State, highlight: tuple[Move, ...], last_move: Move | None) -> None:
        """Make every artist show ``state`` with the given hint and last move."""
        status = state.status
        self._show(self.title, f"{message('board.draw.title')}: {message('board.draw.status.' + status)}")
        self._show(self.score, message("board.draw.score", score=state.score))
        if status == "playing":
            self.banner.set_visible(False)
        else:
            banner = message("board.draw.won") if status == "won" else message("board.draw.lost", score=state.score)
            self._show(self.banner, banner, "white", "bold")
            self.banner.get_bbox_patch().set_facecolor(WON_COLOUR if status == "won" else LOST_COLOUR)
        self._show(self.foundations_title, message("board.draw.foundations"))
        self._show(self.wastes_title, message("board.draw.wastes"))
        self._update_foundations(state)
        self._update_middle(state, last_move)
        self._update_wastes(state)
        self._update_marks(state, highlight, last_move)
        self._state = state

    def _update_foundations(self, state: State) -> None:
        needs = state.needs()
        for f, (pile, order) in enumerate(zip(state.foundations, self.orders)):
            self._show(
                self.foundation_headers[f], message("board.draw.foundation", number=f + 1, step=STEPS[f]), weight="bold"
            )
            played = len(pile)
            for i, (rect, text) in enumerate(zip(self.cells[f], self.cell_texts[f])):
                if i < played:
                    card = pile[i]
                    top = i == played - 1
                    self._look(rect, CARD_FACE, CARD_EDGE, 2.2 if top else 1.0)
                    self._show(text, str(card), suit_colour(card), "bold" if top else "normal")
                elif i == played:
                    self._look(rect, NEXT_COLOUR, CARD_EDGE, 1.0)
                    self._show(text, rank_name(order[i]), BLACK_SUIT, "bold")
                else:
                    self._look(rect, EMPTY_FACE, EMPTY_EDGE, 0.8)
                    self._show(text, rank_name(order[i]), FAINT_TEXT)
            need = needs[f]
            after = message("board.draw.complete") if need is None else message("board.draw.next", rank=rank_name(need))
            self._show(self.next_texts[f], after, WON_COLOUR if need is None else BLACK_SUIT, "bold")

    def _update_middle(self, state: State, last_move: Move | None) -> None:
        self._show(self.stock_title, message("board.draw.stock"))
        left = len(state.stock)
        if left:
            self._look(self.stock_card, CARD_BACK, CARD_EDGE, 1.2)
            self._look(self.stock_inner, CARD_BACK, "#9FB7CF", 1.5)
            self.stock_inner.set_visible(True)
        else:
            self._look(self.stock_card, EMPTY_FACE, EMPTY_EDGE, 1.0, (0, (3, 3)))
            self.stock_inner.set_visible(False)
        self._show(self.stock_count, message("board.draw.stock_left", count=left))
        self._show(self.pending_title, message("board.draw.pending"))
        if state.pending is None:
            self._look(self.pending_card, EMPTY_FACE, EMPTY_EDGE, 1.0, (0, (3, 3)))
            self._show(self.pending_text, "")
        else:
            self._look(self.pending_card, CARD_FACE, CARD_EDGE, 1.5)
            self._show(self.pending_text, str(state.pending), suit_colour(state.pending), "bold")
        if last_move is None:
            self._show(self.last_title, "")
            self._show(self.last_text, "")
        else:
            self._show(self.last_title, message("board.draw.last_move"))
            self._show(self.last_text, last_move.text, BLACK_SUIT, "bold")

    def _update_wastes(self, state: State) -> None:
        for w, pile in enumerate(state.wastes):
            self._show(self.waste_headers[w], message("board.draw.waste", number=w + 1), weight="bold")
            count = len(pile)
            size = waste_label_size(waste_spacing(count))
            for i, (rect, text) in enumerate(zip(self.waste_cards[w], self.waste_texts[w])):
                if i >= count:
                    if not rect.get_visible() and not text.get_visible():
                        break  # the rest were hidden by an earlier update
                    rect.set_visible(False)
                    text.set_visible(False)
                    continue
                card = pile[i]
                y = self._waste_card_y(count, i)
                top = i == count - 1
                rect.set_y(y)
                rect.set_visible(True)
                self._look(rect, CARD_FACE, CARD_EDGE, 1.8 if top else 1.0)
                text.set_y(y + WASTE_CARD_H - 0.04)
                text.set_fontsize(WASTE_LABEL_MAX_PT if top else size)
                self._show(text, str(card), suit_colour(card), "bold")
            pip = self.waste_pips[w]
            if count:
                top_card = pile[-1]
                pip.set_y(self._waste_card_y(count, count - 1) + WASTE_CARD_H * 0.4)
                self._show(pip, top_card.suit, suit_colour(top_card))
            else:
                self._show(pip, "")
            slot = self.waste_slots[w]
            slot.set_y(self._waste_card_y(count, count))
            self._look(slot, "none", EMPTY_EDGE, 1.0, (0, (3, 3)))
            slot.set_visible(count == 0)

    def _update_marks(self, state: State, highlight: tuple[Move, ...], last_move: Move | None) -> None:
        self.marks = _Marks()
        self._marks_used = 0
        # Where things may legally go: the pending card's places, else each waste top's (and the turn).
        pending = state.pending is not None
        for move in state.legal_moves():
            if move.kind == Move.TURN_KIND:
                self._mark("legal", STOCK_CARD, "stock")
            elif pending != (move.kind == Move.WASTE_TO_FOUNDATION):
                box, place = self._target_box(state, move)
                self._mark("legal", box, place)
                box, place = self._source_box(state, move)
                if place not in self.marks.legal:
                    self._mark("legal", box, place)
        for move in highlight:
            for box, place in (self._source_box(state, move), self._target_box(state, move)):
                self._mark("hint", box, place)
        if last_move is not None:
            box, place = self._last_box(state, last_move)
            self._mark("last", box, place)
        for rect in self._mark_pool[self._marks_used :]:
            rect.set_visible(False)

    def _last_box(self, state: State, move: Move) -> tuple[tuple[float, float, float, float], str]:
        """Where the card moved by ``move`` now lies."""
        if move.kind == Move.TURN_KIND:
            return PENDING_CARD, "pending"
        if move.kind == Move.STOCK_TO_WASTE:
            return self._waste_box(state, move.waste_index, slot=False), f"W{move.waste}"
        return self._foundation_box(state, move.foundation_index, top=True), f"F{move.foundation}"


# ---------------------------------------------------------------- public API


def _new_figure() -> Figure:
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    FigureCanvasAgg(figure)
    return figure


def draw(
    game_or_state: object,
    ax: Axes | None = None,
    *,
    highlight: Move | str | Iterable[Move | str] | None = None,
    last_move: Move | str | None = None,
) -> Figure:
    """Draw a Game or State; return the figure (a new one, or ``ax``'s when ``ax`` is given).

    ``highlight``: a move or moves (or their text, ``"W2>F3"``) to emphasise, such as a hint; the
    places where cards may legally go are always marked. ``last_move``: the move to mark as just
    played; for a Game it defaults to the game's last move. Drawing into ``ax`` sets its limits to
    the board's inches, so give it an axes of the board's shape (12 x 8) for text to fit.
    """
    state, game_last = _split(game_or_state)
    last = Move.parse(last_move) if last_move is not None else game_last
    if ax is None:
        figure = _new_figure()
        ax = figure.add_axes((0, 0, 1, 1))
    board = _BoardArtists(ax)
    board.update(state, _moves(highlight), last)
    ax._calcnb_board = board  # type: ignore[attr-defined]  # read back by board_marks
    return ax.figure


def _png(figure: Figure) -> bytes:
    """Rasterise ``figure`` with Agg and encode it fast (low zlib level: speed matters, size little)."""
    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    canvas.draw()
    width, height = canvas.get_width_height()
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def to_png(game_or_state: object, **kwargs: object) -> bytes:
    """PNG bytes of :func:`draw` (``kwargs`` as for draw); what notebooks show for a Game or State."""
    return _png(draw(game_or_state, **kwargs))


class BoardRenderer:
    """One figure kept for a whole game: each render only updates its artists (the fast path)."""

    def __init__(self) -> None:
        self.figure = _new_figure()
        self.canvas: FigureCanvasAgg = self.figure.canvas  # type: ignore[assignment]
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self._board = _BoardArtists(self.ax)
        self.ax._calcnb_board = self._board  # type: ignore[attr-defined]

    def render(
        self,
        game_or_state: object,
        *,
        highlight: Move | str | Iterable[Move | str] | None = None,
        last_move: Move | str | None = None,
    ) -> Figure:
        """Show a Game or State (same arguments and picture as :func:`draw`); return the figure."""
        state, game_last = _split(game_or_state)
        last = Move.parse(last_move) if last_move is not None else game_last
        self._board.update(state, _moves(highlight), last)
        return self.figure

    def render_png(
        self,
        game_or_state: object,
        *,
        highlight: Move | str | Iterable[Move | str] | None = None,
        last_move: Move | str | None = None,
    ) -> bytes:
        """:meth:`render` and return the PNG bytes."""
        self.render(game_or_state, highlight=highlight, last_move=last_move)
        return _png(self.figure)


# ---------------------------------------------------------------- reading a drawn board back


def _board_text_artists(figure: Figure) -> list[Text]:
    return [
        text
        for ax in figure.axes
        for text in ax.texts
        if text.get_visible() and text.get_text() and (text.get_gid() or "") != ""
    ]


def board_texts(figure: Figure) -> list[str]:
    """Every text the board shows, in drawing order (what a test reads instead of pixels)."""
    return [text.get_text() for text in _board_text_artists(figure)]


def board_labels(figure: Figure) -> dict[str, str]:
    """The visible board texts by role: ``"score"``, ``"stock.count"``, ``"waste.2.card.5"``, ``"banner"`` ..."""
    return {text.get_gid(): text.get_text() for text in _board_text_artists(figure)}


def board_marks(figure: Figure) -> dict[str, list[str]]:
    """The places marked on the figure's board: ``{"legal": [...], "hint": [...], "last": [...]}``.

    Places are ``F1``..``F4``, ``W1``..``W4``, ``stock`` and ``pending``.
    """
    for ax in figure.axes:
        board = getattr(ax, "_calcnb_board", None)
        if board is not None:
            marks = board.marks
            return {"legal": list(marks.legal), "hint": list(marks.hint), "last": list(marks.last)}
    raise ValueError("this figure holds no calcnb board")


def text_overlaps(figure: Figure) -> list[tuple[str, str]]:
    """Pairs of visible board texts whose drawn extents overlap (none on a well-laid-out board)."""
    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    renderer = canvas.get_renderer()
    texts = _board_text_artists(figure)
    boxes = [text.get_window_extent(renderer) for text in texts]
    clashes = []
    for i in range(len(texts)):
        a = boxes[i]
        for j in range(i + 1, len(texts)):
            b = boxes[j]
            if a.x0 < b.x1 - 0.5 and b.x0 < a.x1 - 0.5 and a.y0 < b.y1 - 0.5 and b.y0 < a.y1 - 0.5:
                clashes.append((texts[i].get_gid(), texts[j].get_gid()))
    return clashes
