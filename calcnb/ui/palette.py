"""The project's colours, by name: the board, the widgets and the class view all take theirs from here.

Marks and verdicts use the Okabe–Ito hues, told apart with the common colour-vision deficiencies,
and always say it another way too (a line style, a ✓ or ✗, a word), so no colour is needed to read them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

# The Okabe–Ito hues
BLUE = "#0072B2"
ORANGE = "#E69F00"
REDDISH_PURPLE = "#CC79A7"
YELLOW = "#F0E442"
BLUISH_GREEN = "#009E73"
VERMILION = "#D55E00"

# What they mean on the board and the widgets: blue is legal (and right, reached), orange the hint,
# vermilion lost (and wrong, closing too soon).
LEGAL_COLOUR = BLUE
HINT_COLOUR = ORANGE
LAST_COLOUR = REDDISH_PURPLE
NEXT_COLOUR = YELLOW
WON_COLOUR = BLUISH_GREEN
LOST_COLOUR = VERMILION

# Ink on those hues, chosen for contrast (white on blue 5.1:1, black on orange 8.7:1)
WHITE = "white"
BLACK = "black"

# The cards and the table
RED_SUIT = "#C8102E"
BLACK_SUIT = "#000000"
TABLE = "#F3F5F1"
CARD_FACE = "#FFFFFF"
CARD_EDGE = "#333333"
CARD_BACK = "#35608C"
CARD_BACK_LINE = "#9FB7CF"
EMPTY_FACE = "#E6E8E3"
EMPTY_EDGE = "#B0B5AB"
FAINT_TEXT = "#6F746B"
NO_COLOUR = "none"

# Greys, darkest first: secondary text, what was missed, rules and outlines, the track behind a bar
DARK_GREY = "#555555"
MID_GREY = "#999999"
LIGHT_GREY = "#CCCCCC"
PALE_GREY = "#E8E8E8"

# The class view: one bar colour for each wrong answer, in turn; a refusal's text
BAR_COLOURS = ("#B03A2E", "#D35400", "#7D3C98", "#1F618D", "#117864", "#7E5109", "#566573")
ERROR_TEXT = "#8A1C1C"
ALARM_BACKGROUND = "#FFF1EC"  # behind ERROR_TEXT in a banner (contrast above 9:1)

# Charts of studies: players in grey, the solver (which sees the stock) in red, the folklore's two claims.
PLAYER_BAR = "#9AA5B1"
SOLVER_BAR = "#C0392B"
CLAIM_HIGH = "#22AA66"  # "a skilled player wins > 80%"
CLAIM_LOW = "#2255AA"  # "normal play wins 1 in 5"


def palette_png(figure: object, dpi: float) -> bytes:
    """A matplotlib figure as a PNG of at most 64 colours: the pictures calcnb draws have few, so they stay small
    for the page and the stored notebook (Pillow quantizes; matplotlib is imported by whoever drew the figure).

    The figure is rendered to raw pixels, not to a PNG that Pillow would decode again, and the palette PNG is
    written at zlib's usual level: a picture drawn at each click (the counting clock) costs half as much, for a
    file about 8% larger than at the highest level.
    """
    import io

    from PIL import Image

    raw = io.BytesIO()
    figure.savefig(raw, format="rgba", dpi=dpi, facecolor=figure.get_facecolor())
    pixels = raw.getbuffer()
    size = _rendered_size(figure.get_size_inches() * dpi, len(pixels) // 4)
    image = Image.frombuffer("RGBA", size, pixels, "raw", "RGBA", 0, 1).convert("RGB")
    small = io.BytesIO()
    image.quantize(64).save(small, format="PNG")
    return small.getvalue()


def _rendered_size(inches_times_dpi: Sequence[float], pixel_count: int) -> tuple[int, int]:
    """The width and height Agg rendered a figure at: its size in pixels, each side rounded down or up
    (Agg truncates a size computed in floating point, which may fall just under a whole number)."""
    width, height = inches_times_dpi
    for size in itertools.product((math.floor(width), math.ceil(width)), (math.floor(height), math.ceil(height))):
        if size[0] * size[1] == pixel_count:
            return size
    raise ValueError(f"a figure of {width:g}x{height:g} pixels rendered {pixel_count} pixels")
