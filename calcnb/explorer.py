"""The foundation orders on a clock: why 13 ranks work and 12 or 16 break the game.

Foundation ``k`` counts in steps of ``k`` around a clock of 13 ranks. Because 13
is prime, every step 1..12 visits all 13 ranks before it comes back to its
start. With 12 or 16 ranks a step that shares a factor with the number of
ranks closes early and never reaches the others: a foundation would stall.

The computation is pure (:func:`walk` returns an :class:`OrderWalk` that a
notebook can print); :func:`draw_walk` draws it with matplotlib as a path around
a clock; :class:`OrderExplorer` is the ipywidgets app with a step and a number
of ranks to pick.

>>> w = walk(2, 12)
>>> w.visited, w.reaches_every_rank, w.closes_after
((2, 4, 6, 8, 10, 12), False, 6)
"""

from __future__ import annotations

import io
import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import ipywidgets as widgets

from .cards import RANK_COUNT, foundation_order, rank_name
from .i18n import message, register

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["OrderExplorer", "OrderWalk", "draw_walk", "rank_label", "walk"]

# Okabe-Ito colours: told apart with any colour vision.
_VISITED = "#0072B2"  # blue
_CLOSING = "#D55E00"  # vermillion
_MISSED = "#999999"  # grey

register(
    {
        "en": {
            "explorer.step": "Step",
            "explorer.ranks": "Ranks",
            "explorer.title": "Step {step} on a clock of {ranks} ranks",
            "explorer.visited": "Ranks visited, in order: {ranks}",
            "explorer.every": "Every one of the {ranks} ranks is reached: {count} cards, then the order closes.",
            "explorer.not_every": "Only {count} of the {ranks} ranks are reached; never reached: {missed}.",
            "explorer.closes": "The sequence closes after {count} cards: after {last} the next would be {first} again.",
            "explorer.why_all": "{step} and {ranks} share no factor, so counting by {step} must pass every rank before it returns.",  # noqa: E501
            "explorer.why_not": "{step} and {ranks} share the factor {factor}, so counting by {step} only ever lands on 1 rank in {factor}.",  # noqa: E501
            "explorer.prime": "{ranks} is prime: every step from 1 to {top} reaches every rank, which is why each foundation of Calculation can hold all 13 ranks.",  # noqa: E501
            "explorer.broken": "With {ranks} ranks the game breaks: steps {steps} close before reaching every rank, so their foundations would stall.",  # noqa: E501
            "explorer.position": "Rank r sits at place r × {inverse} (mod {ranks}, 0 read as {ranks}) of this order, since {step} × {inverse} = {product} ≡ 1 (mod {ranks}).",  # noqa: E501
            "explorer.footer": "{count} of {ranks} ranks reached · #n: place in the order · dashed: where it closes",
        },
        "pt": {
            "explorer.step": "Passo",
            "explorer.ranks": "Valores",
            "explorer.title": "Passo {step} num relógio de {ranks} valores",
            "explorer.visited": "Valores visitados, por ordem: {ranks}",
            "explorer.every": "Todos os {ranks} valores são alcançados: {count} cartas, e depois a ordem fecha.",
            "explorer.not_every": "Só {count} dos {ranks} valores são alcançados; nunca alcançados: {missed}.",
            "explorer.closes": "A sequência fecha após {count} cartas: depois de {last} viria de novo {first}.",
            "explorer.why_all": "{step} e {ranks} não têm fator comum, por isso contar de {step} em {step} passa por todos os valores antes de voltar.",  # noqa: E501
            "explorer.why_not": "{step} e {ranks} têm o fator comum {factor}, por isso contar de {step} em {step} só cai em 1 valor em cada {factor}.",  # noqa: E501
            "explorer.prime": "{ranks} é primo: todos os passos de 1 a {top} alcançam todos os valores, e é por isso que cada base do Cálculo pode ter os 13 valores.",  # noqa: E501
            "explorer.broken": "Com {ranks} valores o jogo quebra: os passos {steps} fecham antes de alcançar todos os valores, e as suas bases ficariam paradas.",  # noqa: E501
            "explorer.position": "O valor r fica no lugar r × {inverse} (mod {ranks}, 0 lido como {ranks}) desta ordem, pois {step} × {inverse} = {product} ≡ 1 (mod {ranks}).",  # noqa: E501
            "explorer.footer": "{count} de {ranks} valores alcançados · #n: lugar na ordem · tracejado: onde fecha",
        },
    }
)


def rank_label(rank: int, ranks: int = RANK_COUNT) -> str:
    """How a rank is written: card names (A, 2..10, J, Q, K) for 13 ranks, plain numbers otherwise."""
    return rank_name(rank) if ranks == RANK_COUNT else str(rank)


@dataclass(frozen=True)
class OrderWalk:
    """The order of one step around a clock of ``ranks`` positions, and what it shows.

    ``visited``: the ranks in the order counted (from :func:`calcnb.cards.foundation_order`);
    ``reaches_every_rank``: whether every rank 1..ranks is among them;
    ``closes_after``: how many cards before the next would be the first again;
    ``missed``: the ranks never reached; ``common_factor``: gcd(step, ranks), 1 exactly
    when every rank is reached; ``inverse``: step⁻¹ mod ranks when it exists (rank r
    then sits at place r × inverse of the order), else None.
    """

    step: int
    ranks: int
    visited: tuple[int, ...]
    reaches_every_rank: bool
    closes_after: int
    missed: tuple[int, ...]
    common_factor: int
    inverse: int | None

    @property
    def first(self) -> int:
        """The rank the order starts on, and where it would come back to."""
        return self.visited[0]

    @property
    def last(self) -> int:
        """The rank the order ends on before it closes (always the top rank: K for 13)."""
        return self.visited[-1]

    def place_of(self, rank: int) -> int | None:
        """Where ``rank`` sits in the order, 1-based, or None if the order never reaches it."""
        try:
            return self.visited.index(rank) + 1
        except ValueError:
            return None

    def lines(self) -> list[str]:
        """The findings as sentences in the current language."""
        label = lambda rank: rank_label(rank, self.ranks)  # noqa: E731
        found = [message("explorer.visited", ranks=" → ".join(map(label, self.visited)))]
        if self.reaches_every_rank:
            found.append(message("explorer.every", ranks=self.ranks, count=self.closes_after))
        else:
            missed = ", ".join(map(label, self.missed))
            found.append(message("explorer.not_every", ranks=self.ranks, count=self.closes_after, missed=missed))
        found.append(
            message("explorer.closes", count=self.closes_after, last=label(self.last), first=label(self.first))
        )
        if self.common_factor == 1:
            found.append(message("explorer.why_all", step=self.step, ranks=self.ranks))
        else:
            found.append(message("explorer.why_not", step=self.step, ranks=self.ranks, factor=self.common_factor))
        if self.inverse is not None:
            product = self.step * self.inverse
            found.append(
                message("explorer.position", inverse=self.inverse, ranks=self.ranks, step=self.step, product=product)
            )
        found.append(clock_verdict(self.ranks))
        return found

    def __str__(self) -> str:
        return "\n".join([message("explorer.title", step=self.step, ranks=self.ranks), *self.lines()])


def walk(step: int, ranks: int = RANK_COUNT) -> OrderWalk:
    """Count from ``step`` in steps of ``step`` around ``ranks`` positions until the count returns.

    ValueError (from :func:`~calcnb.cards.foundation_order`) unless step ≥ 1 and ranks ≥ 2.
    """
    visited = foundation_order(step, ranks)
    reached = set(visited)
    missed = tuple(rank for rank in range(1, ranks + 1) if rank not in reached)
    factor = math.gcd(step, ranks)
    inverse = pow(step, -1, ranks) if factor == 1 else None
    return OrderWalk(
        step=step,
        ranks=ranks,
        visited=visited,
        reaches_every_rank=not missed,
        closes_after=len(visited),
        missed=missed,
        common_factor=factor,
        inverse=inverse,
    )


def broken_steps(ranks: int) -> tuple[int, ...]:
    """The steps 1..ranks-1 whose order misses some rank (none when ``ranks`` is prime)."""
    return tuple(step for step in range(1, ranks) if math.gcd(step, ranks) != 1)


def clock_verdict(ranks: int) -> str:
    """One sentence on the whole clock: every step works (a prime) or which steps break."""
    broken = broken_steps(ranks)
    if not broken:
        return message("explorer.prime", ranks=ranks, top=ranks - 1)
    return message("explorer.broken", ranks=ranks, steps=", ".join(map(str, broken)))


# ---------------------------------------------------------------- drawing


def _clock_point(rank: int, ranks: int, radius: float = 1.0) -> tuple[float, float]:
    # The top rank (K for 13) sits at twelve o'clock, like 0 on a clock; ranks run clockwise.
    angle = math.pi / 2 - 2 * math.pi * (rank % ranks) / ranks
    return radius * math.cos(angle), radius * math.sin(angle)


def draw_walk(order: OrderWalk | int, ranks: int = RANK_COUNT, ax: Axes | None = None) -> Figure:
    """Draw an order as a path around a clock of ``ranks`` positions; returns the Figure.

    ``order`` is an :class:`OrderWalk` or a step (then ``ranks`` says the clock size).
    Visited ranks are blue and numbered by their place in the order; ranks never
    reached are grey; the dashed vermillion arrow is where the sequence closes.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    if not isinstance(order, OrderWalk):
        order = walk(order, ranks)
    if ax is None:
        # A bare Figure (not pyplot): nothing global is touched and nothing is shown twice in a notebook.
        ax = Figure(figsize=(5.2, 5.6), dpi=100).add_subplot()
    figure = ax.figure
    n = order.ranks
    ax.set_aspect("equal")
    ax.set_xlim(-1.45, 1.45)
    ax.set_ylim(-1.45, 1.45)
    ax.axis("off")
    ax.add_patch(Circle((0, 0), 1.0, fill=False, edgecolor="#cccccc", linewidth=1.5))

    reached = set(order.visited)
    for rank in range(1, n + 1):
        x, y = _clock_point(rank, n)
        seen = rank in reached
        ax.plot(
            [x],
            [y],
            marker="o",
            markersize=22,
            markerfacecolor=_VISITED if seen else "white",
            markeredgecolor=_VISITED if seen else _MISSED,
            markeredgewidth=2,
            zorder=3,
        )
        ax.text(
            x,
            y,
            rank_label(rank, n),
            ha="center",
            va="center",
            fontsize=10,
            fontweight="bold",
            color="white" if seen else _MISSED,
            zorder=4,
        )
        place = order.place_of(rank)
        if place is not None:
            px, py = _clock_point(rank, n, radius=1.27)
            ax.text(px, py, f"#{place}", ha="center", va="center", fontsize=8, fontstyle="italic", color="#555555")

    path = [*order.visited, order.first]
    for index, (start, end) in enumerate(itertools.pairwise(path)):
        closing = index == len(path) - 2
        ax.annotate(
            "",
            xy=_clock_point(end, n, 0.9),
            xytext=_clock_point(start, n, 0.9),
            arrowprops=dict(
                arrowstyle="-|>",
                color=_CLOSING if closing else _VISITED,
                linestyle="--" if closing else "-",
                linewidth=1.4,
                shrinkA=9,
                shrinkB=9,
                alpha=0.85,
            ),
            zorder=2,
        )
    ax.set_title(message("explorer.title", step=order.step, ranks=n), fontsize=12)
    footer = message("explorer.footer", count=len(reached), ranks=n)
    ax.text(
        0,
        -1.42,
        footer,
        ha="center",
        va="bottom",
        fontsize=9,
        color=_VISITED if order.reaches_every_rank else _CLOSING,
    )
    return figure


def walk_png(order: OrderWalk | int, ranks: int = RANK_COUNT) -> bytes:
    """The clock drawing of an order as PNG bytes."""
    figure = draw_walk(order, ranks)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


# ---------------------------------------------------------------- the widget


class OrderExplorer(widgets.VBox):
    """Pick a step and a number of ranks; see the order drawn on a clock and what it reaches.

    ``explorer.walk`` is the current :class:`OrderWalk`, ``explorer.text`` the
    findings shown; ``explorer.step_input`` and ``explorer.ranks_input`` are the
    sliders (set their ``value`` to change the picture, as a person would).
    """

    def __init__(self, step: int = 2, ranks: int = RANK_COUNT) -> None:
        walk(step, ranks)  # refuse a bad step or number of ranks before building anything
        self.step_input = widgets.IntSlider(
            value=step, min=1, max=max(24, step), description=message("explorer.step"), continuous_update=False
        )
        self.ranks_input = widgets.IntSlider(
            value=ranks, min=2, max=max(24, ranks), description=message("explorer.ranks"), continuous_update=False
        )
        self.image = widgets.Image(format="png", layout=widgets.Layout(width="420px"))
        self.findings = widgets.HTML()
        self.walk: OrderWalk = walk(step, ranks)
        super().__init__([widgets.HBox([self.step_input, self.ranks_input]), widgets.HBox([self.image, self.findings])])
        self.step_input.observe(self._changed, names="value")
        self.ranks_input.observe(self._changed, names="value")
        self.refresh()

    @property
    def text(self) -> str:
        """The findings for the current step and number of ranks, one sentence a line."""
        return "\n".join(self.walk.lines())

    def _changed(self, _change: dict) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute and redraw (also picks up a language switched with ``set_language``)."""
        from html import escape

        self.step_input.description = message("explorer.step")
        self.ranks_input.description = message("explorer.ranks")
        self.walk = walk(self.step_input.value, self.ranks_input.value)
        self.image.value = walk_png(self.walk)
        items = "".join(f"<li>{escape(line)}</li>" for line in self.walk.lines())
        self.findings.value = f"<ul style='max-width:32em'>{items}</ul>"
