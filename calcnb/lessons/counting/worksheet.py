"""What "Counting in steps" adds to its worksheet: the clock of the 13 cards, drawn to count on with a finger."""

from __future__ import annotations

import math
from typing import Any

from calcnb.exercises.worksheet import FONT
from calcnb.game.cards import RANK_COUNT, rank_name

#: Millimetres across the clock on a worksheet's first page, and on the pages after it.
CLOCK_SIZES = (62, 46)


def draw_clock(pdf: Any, first_page: bool) -> None:
    """The clock of the 13 cards, K at the top and A to Q clockwise, centred under the page's header."""
    size = CLOCK_SIZES[0] if first_page else CLOCK_SIZES[1]
    radius = size / 2 - 6
    centre_x, centre_y = pdf.w / 2, pdf.y + size / 2
    pdf.set_draw_color(120)
    # ellipse (top left corner, width, height) means the same in every fpdf2; circle's arguments changed in 2.8.1
    pdf.ellipse(centre_x - radius, centre_y - radius, radius * 2, radius * 2)
    pdf.set_font(FONT, "B", 12)
    for rank in range(1, RANK_COUNT + 1):
        angle = math.pi / 2 - 2 * math.pi * (rank % RANK_COUNT) / RANK_COUNT
        x, y = centre_x + radius * math.cos(angle), centre_y - radius * math.sin(angle)
        pdf.set_fill_color(255)
        pdf.ellipse(x - 4.5, y - 4.5, 9, 9, style="FD")
        label = rank_name(rank)
        pdf.text(x - pdf.get_string_width(label) / 2, y + 1.6, label)
    pdf.set_y(centre_y + size / 2 + 2)
