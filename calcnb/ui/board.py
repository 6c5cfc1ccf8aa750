"""The board drawn with matplotlib: a pure :func:`draw` and a fast, reusable :class:`BoardRenderer`.

The picture shows, left to right, the four foundations (each its whole 13-rank order as a strip,
the next needed rank in yellow), the stock with the turned card and the last move, and the four
waste piles fanned so every card's corner shows. Marks use the colour-blind-safe Okabe-Ito palette
and differ in line style as well as colour; every label comes from the message catalogue (keys
``board.draw.*``). Text is read back from the board's own artists, not from pixels
(:func:`board_texts`, :func:`board_labels`, :func:`board_marks`, :func:`text_overlaps`).
How a click stays fast is told in ``docs/design.md``, and measured in ``docs/performance.md``.
"""

from __future__ import annotations

import struct
import zlib

try:  # ISA-L's deflate: the same format, about 2.5 times quicker than zlib's fastest level, and smaller here
    from isal import isal_zlib as _deflate
except ImportError:  # a platform without its wheel: zlib, the same pictures a little slower
    _deflate = zlib  # type: ignore[assignment]
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, get_font
from matplotlib.patches import Rectangle
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, Bbox

try:  # matplotlib >= 3.10
    from matplotlib.ft2font import LoadFlags

    _NO_HINTING = LoadFlags.NO_HINTING
except ImportError:  # older matplotlib, still allowed by the project's requirements
    from matplotlib.ft2font import LOAD_NO_HINTING as _NO_HINTING

from calcnb.game.cards import RANK_COUNT, Card, rank_name
from calcnb.game.engine import Move, State
from calcnb.game.errors import CalcnbError, quote
from calcnb.game.rules import ORDERS, STEPS, MoveKind, Status, is_complete
from calcnb.i18n import Words, message
from calcnb.ui.palette import (
    BLACK_SUIT,
    CARD_BACK,
    CARD_BACK_LINE,
    CARD_EDGE,
    CARD_FACE,
    EMPTY_EDGE,
    EMPTY_FACE,
    FAINT_TEXT,
    HINT_COLOUR,
    LAST_COLOUR,
    LEGAL_COLOUR,
    LOST_COLOUR,
    NEXT_COLOUR,
    NO_COLOUR,
    RED_SUIT,
    TABLE,
    WHITE,
    WON_COLOUR,
)

__all__ = [
    "BoardRenderer",
    "Label",
    "LabelCollection",
    "MarkCollection",
    "NotDrawable",
    "PngEncoder",
    "board_labels",
    "board_marks",
    "board_texts",
    "draw",
    "place_at",
    "place_regions",
    "text_extents",
    "text_overlaps",
    "to_png",
]


class NotDrawable(CalcnbError, TypeError):
    """Something :func:`draw` cannot draw: neither a :class:`~calcnb.game.game.Game` nor a
    :class:`~calcnb.game.engine.State`. A ``ValueError`` (as every calcnb refusal) and a ``TypeError``."""


# ---------------------------------------------------------------- look

# The colours are the palette's (calcnb.ui.palette); the marks differ in line style as well.
EMPTY_DASHES = (0, (3, 3))
LEGAL_DASHES = (0, (4, 2))

# Geometry in inches: the axes spans the figure and its data units are inches.
WIDTH, HEIGHT = 12.0, 8.0
DPI = 80  # 960 x 640 pixels: legible on a projector, quick to rasterise and encode
TITLE_Y = 7.62
SECTION_Y = 7.12
HEADER_Y = 6.82
STRIP_TOP = 6.6
CELL_H = 0.44
CELL_W = 0.96
FOUNDATION_X = (0.2, 1.28, 2.36, 3.44)
NEXT_Y = STRIP_TOP - RANK_COUNT * CELL_H - 0.24
MIDDLE_CENTRE = 5.32
STOCK_CARD = (4.85, 5.25, 0.95, 1.3)  # x, y, width, height
PENDING_CARD = (4.85, 3.15, 0.95, 1.3)
LAST_MOVE_Y = 2.1
WASTE_X = (6.25, 7.68, 9.11, 10.54)
WASTE_CARD_W = 1.25
WASTE_CARD_H = 1.15
WASTE_BOTTOM = 0.15
WASTE_SPACING_MAX = 0.4
WASTE_LABEL_MAX_PT = 14.0
COLUMN_FIT = CELL_W  # widest text under a foundation column: columns stay 0.12 inch apart
MIDDLE_FIT = 1.6  # widest text in the middle column

MARK_STYLE = {
    # kind: (colour, line width in points, how far outside the outlined box, in inches); legal is dashed.
    # Nested so all three can frame one card: last on its edge, legal just outside, hint outermost.
    "legal": (LEGAL_COLOUR, 2.5, 0.045),
    "hint": (HINT_COLOUR, 4.5, 0.1),
    "last": (LAST_COLOUR, 3.0, 0.0),
}

Box = tuple[float, float, float, float]  # x, y, width, height in inches


def suit_colour(card: Card) -> str:
    """Red for ♦ and ♥, black for ♣ and ♠."""
    return RED_SUIT if card.is_red else BLACK_SUIT


def waste_spacing(cards: int) -> float:
    """The vertical step between fanned waste cards when a pile holds ``cards``; closes up as piles grow."""
    room = STRIP_TOP - WASTE_BOTTOM - WASTE_CARD_H
    return min(WASTE_SPACING_MAX, room / max(cards, 1))


def waste_label_size(spacing: float) -> float:
    """The corner label size (points, in half points) that keeps consecutive labels apart.

    A label's ink is at most 0.95 em tall (J and Q descend); 2.2 points stay clear between two.
    """
    return min(WASTE_LABEL_MAX_PT, int((spacing * 72 - 2.2) / 0.95 * 2) / 2)


# ---------------------------------------------------------------- labels as glyph outlines

FONT = "DejaVu Sans"  # ships with matplotlib, has the suit symbols; fixed so layout never depends on rcParams
CAP_HEIGHT = 0.73  # of DejaVu Sans, in ems: centres and tops line up on capitals


@dataclass(frozen=True)
class _Outline:
    """Glyph outlines and their ink extents (x0, y0, x1, y1), both in the same units."""

    vertices: np.ndarray
    codes: np.ndarray
    ink: tuple[float, float, float, float]
    advance: float = 0.0


_NO_INK = (np.inf, np.inf, -np.inf, -np.inf)


@lru_cache(maxsize=512)
def _char_outline(char: str, weight: str) -> _Outline:
    """One character one em high: outline, exact ink extents and how far it moves the pen, in ems."""
    prop = FontProperties(family=FONT, weight=weight)
    font = get_font(findfont(prop))
    font.set_size(100, 72)  # 100 pixels to the em; matplotlib sets the size again before each use
    advance = font.load_char(ord(char), flags=_NO_HINTING).linearHoriAdvance / 65536 / 100
    if char.isspace():  # no outline (and TextPath refuses a lone space)
        return _Outline(np.zeros((0, 2)), np.zeros(0, np.uint8), _NO_INK, advance)
    path = TextPath((0, 0), char, size=1, prop=prop)
    ink = path.get_extents()  # exact (curve extrema), slow: once a character
    return _Outline(path.vertices, path.codes, (ink.x0, ink.y0, ink.x1, ink.y1), advance)


@lru_cache(maxsize=2048)
def _em_glyphs(text: str, weight: str) -> _Outline:
    """``text`` one em high, put together from cached characters.

    ``TextPath`` and ``Path.get_extents`` of a whole string cost milliseconds; composing cached
    characters costs microseconds, so a new text (a count, a score) costs a click nothing.
    Kerning is left out, which at these sizes nobody sees.
    """
    vertices, codes, pen = [], [], 0.0
    x0, y0, x1, y1 = _NO_INK
    for char in text:
        outline = _char_outline(char, weight)
        if len(outline.vertices):
            vertices.append(outline.vertices + np.array((pen, 0.0)))
            codes.append(outline.codes)
            a0, b0, a1, b1 = outline.ink
            x0, y0, x1, y1 = min(x0, a0 + pen), min(y0, b0), max(x1, a1 + pen), max(y1, b1)
        pen += outline.advance
    if not vertices:
        return _Outline(np.zeros((1, 2)), np.array([Path.MOVETO], np.uint8), (0.0, 0.0, 0.0, 0.0), pen)
    return _Outline(np.concatenate(vertices), np.concatenate(codes), (x0, y0, x1, y1), pen)


@lru_cache(maxsize=8192)
def _glyphs(text: str, weight: str, ha: str, va: str, size: float) -> tuple[Path, Bbox]:
    """``text`` as an outline in points, shifted for its alignment, and its ink extents in points.

    The size is baked into the outline: one collection-wide transform then draws every label, which
    Agg does many times faster than a transform per label.
    """
    outline = _em_glyphs(text, weight)
    x0, y0, x1, y1 = outline.ink
    dx = {"left": 0.0, "center": -(x0 + x1) / 2, "right": -x1}[ha]
    dy = {"baseline": 0.0, "center": -CAP_HEIGHT / 2, "top": -CAP_HEIGHT}[va]
    placed = Path((outline.vertices + np.array((dx, dy))) * size, outline.codes)
    return placed, Bbox.from_extents((x0 + dx) * size, (y0 + dy) * size, (x1 + dx) * size, (y1 + dy) * size)


@dataclass(frozen=True)
class Label:
    """One text on the board: what it says, its role (``gid``), where and how it is drawn."""

    gid: str
    text: str
    x: float
    y: float
    size: float
    colour: str = BLACK_SUIT
    weight: str = "normal"
    ha: str = "center"
    va: str = "center"
    pad: float = 0.0  # inches of coloured box around the ink, if it has one

    def extents(self) -> Bbox:
        """The ink extents, with the box around it if any, in inches (data units of the board)."""
        ink = _glyphs(self.text, self.weight, self.ha, self.va, self.size)[1]
        scale, pad = 1 / 72, self.pad
        return Bbox.from_extents(
            self.x + ink.x0 * scale - pad,
            self.y + ink.y0 * scale - pad,
            self.x + ink.x1 * scale + pad,
            self.y + ink.y1 * scale + pad,
        )


BOARD_GID = "calcnb.ui.board"  # the gid of every artist of a board, so drawing again replaces them


class LabelCollection(PathCollection):
    """All the board's texts as one collection of glyph outlines; ``labels`` says what each one reads."""

    labels: tuple[Label, ...] = ()

    def set_labels(self, labels: list[Label]) -> None:
        """Show exactly ``labels``."""
        self.labels = tuple(labels)
        self.set_paths([_glyphs(label.text, label.weight, label.ha, label.va, label.size)[0] for label in labels])
        self.set_offsets([(label.x, label.y) for label in labels] or np.zeros((0, 2)))
        self.set_facecolor(_rgba([label.colour for label in labels]))

    def get_texts(self) -> list[str]:
        """What the labels read, in drawing order."""
        return [label.text for label in self.labels]


_RGBA: dict[str, tuple[float, float, float, float]] = {}


def _rgba(colours: list[str]) -> np.ndarray:
    """The colours as an N x 4 array, each name converted once: matplotlib parses a list's names one by one anew,
    most of the cost of putting a board's hundred-odd colours on its collections."""
    try:
        return np.array([_RGBA[colour] for colour in colours], dtype=float).reshape(-1, 4)
    except KeyError:
        _RGBA.update((colour, to_rgba(colour)) for colour in colours)
        return _rgba(colours)


@lru_cache(maxsize=8192)
def _rect_path(box: Box) -> Path:
    x, y, w, h = box
    return Path([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], closed=True)


@dataclass
class _Rects:
    """Filled or outlined rectangles of one line style, drawn in order as one collection."""

    paths: list = field(default_factory=list)
    faces: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    widths: list = field(default_factory=list)

    def add(self, box: Box, face: str, edge: str, width: float = 1.2) -> None:
        self.paths.append(_rect_path(box))
        self.faces.append(face)
        self.edges.append(edge)
        self.widths.append(width)

    def push(self, collection: PathCollection) -> None:
        # One line style per collection: per-item styles make matplotlib rescale every dash
        # pattern against every width, the slowest part of an update.
        collection.set_paths(self.paths)
        collection.set_facecolor(_rgba(self.faces))
        collection.set_edgecolor(_rgba(self.edges))
        collection.set_linewidth(self.widths or [0.0])


@dataclass
class _Marks:
    """The places marked: ``F1``..``F4``, ``W1``..``W4``, ``stock``, ``pending``."""

    legal: list[str] = field(default_factory=list)
    hint: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)


class MarkCollection(PathCollection):
    """The frames of marked places; ``places`` says which places it marks, by kind (legal, hint, last)."""

    places: dict[str, tuple[str, ...]] = {}  # noqa: RUF012  # replaced whole, never mutated


# ---------------------------------------------------------------- inputs


def _split(game_or_state: object) -> tuple[State, Move | None]:
    """The state to draw and, for a Game, its last move."""
    if isinstance(game_or_state, State):
        return game_or_state, None
    state = getattr(game_or_state, "state", None)
    if isinstance(state, State):
        return state, getattr(game_or_state, "last_move", None)
    raise NotDrawable(Words("board.not_drawable", value=quote(game_or_state)))


def _moves(highlight: Move | str | Iterable[Move | str] | None) -> tuple[Move, ...]:
    if highlight is None:
        return ()
    if isinstance(highlight, (Move, str)):
        return (Move.parse(highlight),)
    return tuple(Move.parse(move) for move in highlight)


# ---------------------------------------------------------------- places on the board


def _cell_box(f: int, i: int) -> Box:
    return (FOUNDATION_X[f], STRIP_TOP - (i + 1) * CELL_H + 0.03, CELL_W, CELL_H - 0.06)


def _foundation_box(state: State, f: int, *, top: bool) -> Box:
    """The top card's cell (``top``), else the cell of the next needed rank (the top when complete)."""
    played = len(state.foundations[f])
    return _cell_box(f, played - 1 if top or is_complete(played) else played)


def _waste_card_y(cards: int, i: int) -> float:
    return STRIP_TOP - WASTE_CARD_H - i * waste_spacing(cards)


def _waste_box(state: State, w: int) -> Box:
    """The top card of waste ``w``, or its empty place."""
    cards = len(state.wastes[w])
    return (WASTE_X[w], _waste_card_y(cards, max(cards - 1, 0)), WASTE_CARD_W, WASTE_CARD_H)


def _source(state: State, move: Move) -> tuple[Box, str]:
    if move.kind == MoveKind.TURN:
        return STOCK_CARD, "stock"
    if move.kind == MoveKind.WASTE_TO_FOUNDATION:
        return _waste_box(state, move.waste_index), f"W{move.waste}"
    return PENDING_CARD, "pending"


def _target(state: State, move: Move) -> tuple[Box, str]:
    if move.kind == MoveKind.TURN:
        return PENDING_CARD, "pending"
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return _waste_box(state, move.waste_index), f"W{move.waste}"
    return _foundation_box(state, move.foundation_index, top=False), f"F{move.foundation}"


def _landed(state: State, move: Move) -> tuple[Box, str]:
    """Where the card moved by ``move`` lies now that it has been played."""
    if move.kind == MoveKind.TURN:
        return PENDING_CARD, "pending"
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return _waste_box(state, move.waste_index), f"W{move.waste}"
    return _foundation_box(state, move.foundation_index, top=True), f"F{move.foundation}"


def place_regions() -> dict[str, Box]:
    """Where a click picks each place, in inches from the bottom left: ``stock``, ``pending``, ``F1``..``F4``
    (a foundation's whole column) and ``W1``..``W4`` (a waste pile's whole column, however tall it is).

    The regions never depend on the position, so a click means the same place all game long.
    """
    regions: dict[str, Box] = {"stock": STOCK_CARD, "pending": PENDING_CARD}
    column_bottom = NEXT_Y - 0.25
    for f, x in enumerate(FOUNDATION_X):
        regions[f"F{f + 1}"] = (x, column_bottom, CELL_W, HEADER_Y + 0.2 - column_bottom)
    for w, x in enumerate(WASTE_X):
        regions[f"W{w + 1}"] = (x, WASTE_BOTTOM, WASTE_CARD_W, HEADER_Y + 0.2 - WASTE_BOTTOM)
    return regions


def place_at(x: float, y: float) -> str | None:
    """The place (as :func:`place_regions` names it) under the point ``(x, y)`` in inches, or None."""
    for place, (left, bottom, width, height) in place_regions().items():
        if left <= x <= left + width and bottom <= y <= bottom + height:
            return place
    return None


# ---------------------------------------------------------------- the picture of one state


@dataclass
class _Scene:
    """Everything one state looks like: rectangles, labels and marks, in drawing order."""

    empty: _Rects = field(default_factory=_Rects)  # dashed outlines of empty places, under the rest
    rects: _Rects = field(default_factory=_Rects)  # cards, cells, boxes
    labels: list[Label] = field(default_factory=list)
    legal: _Rects = field(default_factory=_Rects)  # dashed marks
    frames: _Rects = field(default_factory=_Rects)  # solid marks: hint and last move
    marks: _Marks = field(default_factory=_Marks)

    def label(
        self,
        gid: str,
        text: str,
        x: float,
        y: float,
        size: float,
        *,
        fit: float | None = None,
        box: tuple[str, str, float] | None = None,
        pad: float = 0.0,
        **style: str,
    ) -> Label | None:
        """Add a label; ``fit``: widest it may be (inches), shrinking its size to fit;
        ``box``: (face, edge, line width) of a box ``pad`` inches around it."""
        if not text:
            return None
        if fit is not None:
            ink = _glyphs(text, style.get("weight", "normal"), "left", "baseline", size)[1]
            if ink.width / 72 > fit:
                size = int(size * fit / (ink.width / 72) * 2) / 2  # in half points, so outlines are reused
        label = Label(gid, text, x, y, size, pad=pad, **style)
        if box is not None:
            area = label.extents()
            self.rects.add((area.x0, area.y0, area.width, area.height), *box)
        self.labels.append(label)
        return label

    def mark(self, kind: str, box: Box, place: str) -> None:
        colour, width, outset = MARK_STYLE[kind]
        x, y, w, h = box
        rects = self.legal if kind == "legal" else self.frames
        rects.add((x - outset, y - outset, w + 2 * outset, h + 2 * outset), NO_COLOUR, colour, width)
        getattr(self.marks, kind).append(place)


def _scene(state: State, highlight: tuple[Move, ...], last_move: Move | None) -> _Scene:
    scene = _Scene()
    _title(scene, state)
    _foundations(scene, state)
    _middle(scene, state, last_move)
    _wastes(scene, state)
    _marks(scene, state, highlight, last_move)
    return scene


def _title(scene: _Scene, state: State) -> None:
    status = state.status
    title = f"{message('board.draw.title')}: {message('board.draw.status.' + status)}"
    left = scene.label("title", title, 0.2, TITLE_Y, 18, fit=3.6, weight="bold", ha="left")
    score = message("board.draw.score", score=state.score)
    right = scene.label("score", score, WIDTH - 0.2, TITLE_Y, 18, fit=2.6, weight="bold", ha="right")
    if status != Status.PLAYING:
        # the banner takes the room between the title and the score
        start, end = left.extents().x1 + 0.35, right.extents().x0 - 0.35
        text = message("board.draw.won") if status == Status.WON else message("board.draw.lost")
        colour = WON_COLOUR if status == Status.WON else LOST_COLOUR
        scene.label(
            "banner", text, (start + end) / 2, TITLE_Y, 18, fit=end - start - 0.3, box=(colour, NO_COLOUR, 0.0),
            pad=0.13, colour=WHITE, weight="bold",
        )  # fmt: skip
    scene.label("foundations", message("board.draw.foundations"), FOUNDATION_X[0], SECTION_Y, 14, fit=4.1, ha="left")
    scene.label("wastes", message("board.draw.wastes"), WASTE_X[0], SECTION_Y, 14, fit=5.5, ha="left")


def _foundations(scene: _Scene, state: State) -> None:
    for f, (pile, order, need) in enumerate(zip(state.foundations, ORDERS, state.needs())):
        x = FOUNDATION_X[f] + CELL_W / 2
        header = message("board.draw.foundation", number=f + 1, step=STEPS[f])
        scene.label(f"foundation.{f + 1}.header", header, x, HEADER_Y, 15, fit=COLUMN_FIT, weight="bold")
        played = len(pile)
        for i, rank in enumerate(order):
            box = _cell_box(f, i)
            gid = f"foundation.{f + 1}.cell.{i + 1}"
            y = box[1] + box[3] / 2
            if i < played:
                card = pile[i]
                top = i == played - 1
                scene.rects.add(box, CARD_FACE, CARD_EDGE, 2.4 if top else 1.0)
                scene.label(gid, str(card), x, y, 14, colour=suit_colour(card), weight="bold" if top else "normal")
            elif i == played:
                scene.rects.add(box, NEXT_COLOUR, CARD_EDGE, 1.0)
                scene.label(gid, rank_name(rank), x, y, 14, weight="bold")
            else:
                scene.rects.add(box, EMPTY_FACE, EMPTY_EDGE, 0.8)
                scene.label(gid, rank_name(rank), x, y, 13, colour=FAINT_TEXT)
        if need is None:
            scene.label(
                f"foundation.{f + 1}.next",
                message("board.draw.complete"),
                x,
                NEXT_Y,
                13,
                colour=WON_COLOUR,
                weight="bold",
            )
        else:
            after = message("board.draw.next", rank=rank_name(need))
            scene.label(f"foundation.{f + 1}.next", after, x, NEXT_Y, 13, fit=COLUMN_FIT, weight="bold")


def _middle(scene: _Scene, state: State, last_move: Move | None) -> None:
    x = MIDDLE_CENTRE
    scene.label("stock.title", message("board.draw.stock"), x, STOCK_CARD[1] + STOCK_CARD[3] + 0.22, 13, fit=MIDDLE_FIT)
    left = len(state.stock)
    if left:
        sx, sy, sw, sh = STOCK_CARD
        scene.rects.add(STOCK_CARD, CARD_BACK, CARD_EDGE, 1.2)
        scene.rects.add((sx + 0.1, sy + 0.1, sw - 0.2, sh - 0.2), CARD_BACK, CARD_BACK_LINE, 1.5)
    else:
        scene.empty.add(STOCK_CARD, EMPTY_FACE, EMPTY_EDGE, 1.0)
    count = message("board.draw.stock_left", count=left)
    scene.label("stock.count", count, x, STOCK_CARD[1] - 0.22, 13, fit=MIDDLE_FIT, weight="bold")
    pending_title = message("board.draw.pending")
    scene.label("pending.title", pending_title, x, PENDING_CARD[1] + PENDING_CARD[3] + 0.22, 13, fit=MIDDLE_FIT)
    if state.pending is None:
        scene.empty.add(PENDING_CARD, EMPTY_FACE, EMPTY_EDGE, 1.0)
    else:
        scene.rects.add(PENDING_CARD, CARD_FACE, CARD_EDGE, 1.5)
        card = state.pending
        y = PENDING_CARD[1] + PENDING_CARD[3] / 2
        scene.label("pending.card", str(card), x, y, 26, colour=suit_colour(card), weight="bold")
    if last_move is not None:
        scene.label("last.title", message("board.draw.last_move"), x, LAST_MOVE_Y + 0.42, 12, fit=MIDDLE_FIT)
        frame = (CARD_FACE, LAST_COLOUR, 3.0)
        said = moved_text(state, last_move)
        scene.label("last.move", said, x, LAST_MOVE_Y, 16, fit=MIDDLE_FIT, box=frame, pad=0.1, weight="bold")


def moved_text(state: State, move: Move) -> str:
    """The move just played, in the board's own names (``9♣ to F3``, ``turned K♥``), read from ``state`` after it.

    The board speaks in the places it labels rather than in notation: ``S>F3`` and ``W2>F3`` both read
    ``9♣ to F3``. A move that cannot have led to ``state`` reads as its notation.
    """
    if move.kind == MoveKind.TURN:
        card = state.pending
        return message("board.draw.moved_turn", card=card) if card is not None else move.text
    if move.kind == MoveKind.STOCK_TO_WASTE:
        pile = state.wastes[move.waste_index]
        return message("board.draw.moved_to_waste", card=pile[-1], waste=move.waste) if pile else move.text
    pile = state.foundations[move.foundation_index]
    return message("board.draw.moved_to_foundation", card=pile[-1], foundation=move.foundation)


def _wastes(scene: _Scene, state: State) -> None:
    for w, pile in enumerate(state.wastes):
        x = WASTE_X[w]
        header = message("board.draw.waste", number=w + 1)
        scene.label(
            f"waste.{w + 1}.header", header, x + WASTE_CARD_W / 2, HEADER_Y, 15, fit=WASTE_CARD_W, weight="bold"
        )
        count = len(pile)
        if not count:
            scene.empty.add(_waste_box(state, w), NO_COLOUR, EMPTY_EDGE, 1.0)
            continue
        size = waste_label_size(waste_spacing(count))
        for i, card in enumerate(pile):
            y = _waste_card_y(count, i)
            top = i == count - 1
            scene.rects.add((x, y, WASTE_CARD_W, WASTE_CARD_H), CARD_FACE, CARD_EDGE, 1.8 if top else 1.0)
            scene.label(
                f"waste.{w + 1}.card.{i + 1}",
                str(card),
                x + 0.08,
                y + WASTE_CARD_H - 0.06,
                WASTE_LABEL_MAX_PT if top else size,
                colour=suit_colour(card),
                weight="bold",
                ha="left",
                va="top",
            )
        top_card = pile[-1]
        y = _waste_card_y(count, count - 1) + WASTE_CARD_H * 0.38
        scene.label(f"waste.{w + 1}.pip", top_card.suit, x + WASTE_CARD_W / 2, y, 30, colour=suit_colour(top_card))


def _marks(scene: _Scene, state: State, highlight: tuple[Move, ...], last_move: Move | None) -> None:
    # Where things may legally go: the pending card's places, else each waste top's (and the turn).
    pending = state.pending is not None
    for move in state.legal_moves():
        if move.kind == MoveKind.TURN:
            scene.mark("legal", STOCK_CARD, "stock")
        elif pending != (move.kind == MoveKind.WASTE_TO_FOUNDATION):
            scene.mark("legal", *_target(state, move))
            box, place = _source(state, move)
            if place not in scene.marks.legal:
                scene.mark("legal", box, place)
    for move in highlight:
        scene.mark("hint", *_source(state, move))
        scene.mark("hint", *_target(state, move))
    if last_move is not None:
        scene.mark("last", *_landed(state, last_move))


class _BoardArtists:
    """The few artists of one board, updated in place for each state.

    On an axes (``draw`` into a notebook's axes) the board's inches are the axes' data units. A
    :class:`BoardRenderer` puts them on its figure alone, in the figure's own inches: a matplotlib ``Axes``
    (its ticks, spines and grid, none of them shown) costs more to make than a whole board costs to draw.
    """

    def __init__(self, ax: Axes | None = None, figure: Figure | None = None) -> None:
        if ax is not None:
            ax.set_xlim(0, WIDTH)
            ax.set_ylim(0, HEIGHT)
            ax.set_axis_off()
            figure, inches = ax.figure, ax.transData
        elif figure is not None:
            inches = figure.dpi_scale_trans  # the figure is WIDTH x HEIGHT inches: board inches as they are
        else:
            raise TypeError("an axes or a figure to draw on")
        table = Rectangle((0, 0), WIDTH, HEIGHT, facecolor=TABLE, edgecolor=NO_COLOUR, zorder=0, gid=BOARD_GID)
        table.set_transform(inches)
        self.empty = PathCollection([], transform=inches, linestyle=EMPTY_DASHES, zorder=1)
        self.rects = PathCollection([], transform=inches, zorder=1.1)
        points = Affine2D().scale(1 / 72) + figure.dpi_scale_trans  # follows the dpi of savefig
        self.labels = LabelCollection([], offsets=np.zeros((0, 2)), offset_transform=inches, transform=points, zorder=2)
        self.labels.set_edgecolor(NO_COLOUR)
        self.legal = MarkCollection([], transform=inches, linestyle=LEGAL_DASHES, zorder=3)
        self.frames = MarkCollection([], transform=inches, zorder=3.1)
        self.artists = (table, self.empty, self.rects, self.labels, self.legal, self.frames)  # in drawing order
        for artist in self.artists[1:]:
            artist.set_gid(BOARD_GID)
        if ax is not None:
            ax.add_patch(table)
            for collection in self.artists[1:]:
                ax.add_collection(collection, autolim=False)
        else:
            for artist in self.artists:
                figure.add_artist(artist)

    def update(self, state: State, highlight: tuple[Move, ...], last_move: Move | None) -> None:
        """Make the artists show ``state`` with the given hint and last move."""
        scene = _scene(state, highlight, last_move)
        scene.empty.push(self.empty)
        scene.rects.push(self.rects)
        self.labels.set_labels(scene.labels)
        scene.legal.push(self.legal)
        scene.frames.push(self.frames)
        marks = scene.marks
        self.legal.places = {"legal": tuple(marks.legal)}
        self.frames.places = {"hint": tuple(marks.hint), "last": tuple(marks.last)}


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
    the board's inches (12 x 8); give it an axes of about that size in inches for the text to fit.
    """
    state, game_last = _split(game_or_state)
    last = Move.parse(last_move) if last_move is not None else game_last
    if ax is None:
        ax = _new_figure().add_axes((0, 0, 1, 1))
    else:  # drawing again into the same axes replaces the board
        for artist in ax.findobj(lambda artist: artist.get_gid() == BOARD_GID):
            artist.remove()
    _BoardArtists(ax).update(state, _moves(highlight), last)
    return ax.figure


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from their own checksums (zlib's ``adler32_combine``)."""
    rem = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low += (second & 0xFFFF) + _ADLER_BASE - 1
    high += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    return (low % _ADLER_BASE) | ((high % _ADLER_BASE) << 16)


class PngEncoder:
    """Writes Agg's RGBA buffer as a PNG, compressing again only the bands of rows that changed.

    The image data is one zlib stream made of independently deflated bands of :attr:`BAND` rows
    (each starts afresh and ends byte-aligned), so a band whose pixels are as last time reuses its
    compressed bytes; a click usually changes a fraction of the board. The fastest level is used (ISA-L's, where
    installed, else zlib's):
    the board is mostly flat colour and compresses well anyway.
    """

    BAND = 16

    def __init__(self) -> None:
        self._size: tuple[int, int] = (0, 0)
        # per band: its RGBA bytes, their deflated filtered form, its Adler-32 and filtered length
        self._bands: list[tuple[bytes, bytes, int, int]] = []

    def bands(self) -> tuple[tuple[int, int], tuple[tuple[bytes, bytes, int, int], ...]]:
        """What the encoder remembers of the last image (its size and bands), to :meth:`resume` from later."""
        return self._size, tuple(self._bands)

    def resume(self, bands: tuple[tuple[int, int], tuple[tuple[bytes, bytes, int, int], ...]]) -> None:
        """Remember an image encoded elsewhere (:meth:`bands`) as the last one: the next compares with it."""
        self._size, self._bands = bands[0], list(bands[1])

    def encode(self, rgba: memoryview, width: int, height: int) -> bytes:
        """PNG bytes of an 8-bit RGBA image, rows top first, ``width * 4`` bytes a row."""
        if (width, height) != self._size:
            self._size, self._bands = (width, height), []
        stride = width * 4
        pieces = [b"\x78\x01"]  # zlib header: deflate, 32 KiB window, fastest
        checksum = 1
        for index, top in enumerate(range(0, height, self.BAND)):
            band = bytes(rgba[top * stride : min(top + self.BAND, height) * stride])  # bytes compare fast
            cached = self._bands[index] if index < len(self._bands) else None
            if cached is None or cached[0] != band:
                view = memoryview(band)
                rows = [view[start : start + stride] for start in range(0, len(band), stride)]
                filtered = b"\0" + b"\0".join(rows)  # filter type 0 (none) before each row
                deflate = _deflate.compressobj(1, _deflate.DEFLATED, -15)
                packed = deflate.compress(filtered) + deflate.flush(_deflate.Z_SYNC_FLUSH)
                cached = (band, packed, _deflate.adler32(filtered), len(filtered))
                if index < len(self._bands):
                    self._bands[index] = cached
                else:
                    self._bands.append(cached)
            pieces.append(cached[1])
            checksum = adler32_combine(checksum, cached[2], cached[3])
        pieces.append(b"\x03\x00")  # the final block, empty
        pieces.append(struct.pack(">I", checksum))
        header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
        return b"".join(
            (
                b"\x89PNG\r\n\x1a\n",
                _png_chunk(b"IHDR", header),
                _png_chunk(b"IDAT", b"".join(pieces)),
                _png_chunk(b"IEND", b""),
            )
        )


def _png(figure: Figure, encoder: PngEncoder | None = None) -> bytes:
    """Rasterise ``figure`` with Agg and write it as a PNG (quicker than ``savefig``, which draws again)."""
    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    canvas.draw()
    return _buffer_png(canvas, encoder or PngEncoder())


def _buffer_png(canvas: FigureCanvasAgg, encoder: PngEncoder) -> bytes:
    width, height = canvas.get_width_height(physical=True)
    return encoder.encode(memoryview(canvas.buffer_rgba()).cast("B"), width, height)


def to_png(game_or_state: object, **kwargs: object) -> bytes:
    """PNG bytes of :func:`draw` (``kwargs`` as for draw); what a notebook shows for a Game or State."""
    return _png(draw(game_or_state, **kwargs))  # type: ignore[arg-type]


_TABLE_PIXEL = np.array([round(255 * part) for part in to_rgba(TABLE)], dtype=np.uint8).view(np.uint32)[0]

# The bands (PngEncoder.bands) of the last first picture a renderer drew, for the next renderer to start from.
_first_bands: tuple | None = None


class BoardRenderer:
    """One figure kept for a whole game: each render only updates its artists (the fast path)."""

    def __init__(self) -> None:
        self.figure = _new_figure()
        self._board = _BoardArtists(figure=self.figure)
        self.canvas: FigureCanvasAgg = self.figure.canvas  # type: ignore[assignment]
        self._encoder = PngEncoder()
        self._first = True

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
        """:meth:`render`, then the PNG bytes of the figure."""
        self.render(game_or_state, highlight=highlight, last_move=last_move)
        global _first_bands
        first, self._first = self._first, False
        if first and _first_bands is not None:
            # Deals differ before their first turn only in the starters' suits: a new renderer's encoder starts
            # from the last first picture's bands and compresses only the few that differ (its output is exact
            # whatever it starts from; see PngEncoder).
            self._encoder.resume(_first_bands)
        # The figure holds only the board, whose artists are drawn straight onto the Agg buffer:
        # the figure machinery around them costs a millisecond a click and adds nothing.
        # The table covers the whole picture, opaque: filling the buffer with its colour draws it exactly, quicker.
        renderer = self.canvas.get_renderer()
        np.asarray(renderer.buffer_rgba()).view(np.uint32).fill(_TABLE_PIXEL)
        for artist in self._board.artists[1:]:
            artist.draw(renderer)
        png = _buffer_png(self.canvas, self._encoder)
        if first:
            _first_bands = self._encoder.bands()
        return png


# ---------------------------------------------------------------- reading a drawn board back


def _collections(figure: Figure, kind: type) -> list[tuple[Axes | None, PathCollection]]:
    found = [(ax, c) for ax in figure.axes for c in ax.collections if isinstance(c, kind)]
    found += [(None, c) for c in figure.artists if isinstance(c, kind)]  # a BoardRenderer's board
    if not found:
        raise ValueError(message("board.no_board"))
    return found


def board_labels(figure: Figure) -> list[Label]:
    """Every text the figure's board shows, as :class:`Label` (role, text, place, size, colour)."""
    return [label for _ax, labels in _collections(figure, LabelCollection) for label in labels.labels]


def board_texts(figure: Figure) -> list[str]:
    """Every text the figure's board shows, in drawing order (what tests read instead of pixels)."""
    return [label.text for label in board_labels(figure)]


def board_marks(figure: Figure) -> dict[str, list[str]]:
    """The places marked on the figure's board: ``{"legal": [...], "hint": [...], "last": [...]}``.

    Places are ``F1``..``F4`` (the needed cell, or the top cell for the last move), ``W1``..``W4``
    (the top card, or where the next card lands), ``stock`` and ``pending``.
    """
    marks: dict[str, list[str]] = {"legal": [], "hint": [], "last": []}
    for _ax, collection in _collections(figure, MarkCollection)[:2]:  # the first board's two
        for kind, places in collection.places.items():
            marks[kind] = list(places)
    return marks


def text_extents(figure: Figure) -> list[tuple[Label, Bbox]]:
    """Each label with the window extent (pixels) of its drawn glyphs, wherever its axes sits."""
    result = []
    pixels_per_point = figure.dpi / 72
    for _ax, labels in _collections(figure, LabelCollection):
        inches = labels.get_offset_transform()  # the axes' data units, or the renderer's figure inches
        for label in labels.labels:
            x, y = inches.transform((label.x, label.y))
            ink = _glyphs(label.text, label.weight, label.ha, label.va, label.size)[1]
            box = Bbox.from_extents(
                x + ink.x0 * pixels_per_point,
                y + ink.y0 * pixels_per_point,
                x + ink.x1 * pixels_per_point,
                y + ink.y1 * pixels_per_point,
            )
            result.append((label, box))
    return result


def text_overlaps(figure: Figure, gap: float = 2.0) -> list[tuple[str, str]]:
    """Pairs of labels (by role) whose drawn glyphs (or boxes) overlap or come within ``gap`` pixels.

    A readable board has none: words that touch read as one.
    """
    placed = text_extents(figure)
    clashes = []
    for i, (first, a) in enumerate(placed):
        for second, b in placed[i + 1 :]:
            if a.x0 < b.x1 + gap and b.x0 < a.x1 + gap and a.y0 < b.y1 + gap and b.y0 < a.y1 + gap:
                clashes.append((first.gid, second.gid))
    return clashes
