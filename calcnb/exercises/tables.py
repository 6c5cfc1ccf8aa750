"""Tables a lesson prints, and the positions and moves it shows: all computed by calcnb, never typed in.

>>> print(order_table(steps=(2,)).splitlines()[-1])
+2    | 2 4 6 8 10 Q A 3 5 7  9  J  K
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from calcnb.game.cards import (
    DECK,
    RANK_COUNT,
    SUITS,
    Card,
    foundation_order,
    modular_inverse,
    next_rank,
    parse_cards,
    position_in_order,
    rank_name,
)
from calcnb.game.deals import SeededRandom
from calcnb.game.engine import ALL_MOVES, IllegalMove, InvalidMove, Move, State, render_text
from calcnb.game.game import Game
from calcnb.game.rules import STEPS, order_of
from calcnb.i18n import message

# ---------------------------------------------------------------- tables


def _table(header: Sequence[str], rows: Iterable[Sequence[object]], *, first_sep: str = " | ") -> str:
    """Columns padded to their widest cell; the first column set apart by ``first_sep``."""
    rows = [[str(cell) for cell in row] for row in rows]
    header = [str(cell) for cell in header]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = " ".join(cell.ljust(width) for cell, width in zip(cells[1:], widths[1:]))
        return (first + first_sep + rest).rstrip()

    return "\n".join([line(header), *map(line, rows)])


def _step_label(step: int) -> str:
    return f"+{step}"


def order_table(steps: Sequence[int] = STEPS) -> str:
    """The foundation orders, one row a step, one column a place (1..13), in card names.

    >>> print(order_table(steps=(1,)))
    place | 1 2 3 4 5 6 7 8 9 10 11 12 13
    +1    | A 2 3 4 5 6 7 8 9 10 J  Q  K
    """
    header = [message("lessons.table.place"), *range(1, RANK_COUNT + 1)]
    rows = [[_step_label(step), *map(rank_name, foundation_order(step))] for step in steps]
    return _table(header, rows)


def next_card_table(steps: Sequence[int] = STEPS, tops: Sequence[int] = range(1, RANK_COUNT + 1)) -> str:
    """For each step and each top card, the rank that goes on next: ``(top + step - 1) mod 13 + 1``.

    Under a K the table says the foundation is complete (a K is the 13th and last card of every
    foundation, so it takes nothing more), and a note under the table says so.
    """
    done = message("lessons.table.complete_mark")
    # a top that is the last card of its order (K for every step) means the foundation is complete
    header = [f"{message('lessons.table.step')} \\ {message('lessons.table.top')}", *map(rank_name, tops)]
    rows = [
        [_step_label(step), *(done if top == order_of(step)[-1] else rank_name(next_rank(top, step)) for top in tops)]
        for step in steps
    ]
    table = _table(header, rows)
    return table + "\n" + message("lessons.table.complete_note") if RANK_COUNT in tops else table


def clock_table(totals: Iterable[int]) -> str:
    """Where each whole number lands on the clock of 13 (0 read as 13, shown as its card name)."""
    totals = list(totals)
    header = ["n", *totals]
    row = [message("lessons.table.clock"), *(rank_name((total - 1) % RANK_COUNT + 1) for total in totals)]
    return _table(header, [row])


def order_summary(step: int) -> str:
    """One line on foundation ``step``: how many cards, how many different ranks, and its last card."""
    order = foundation_order(step)
    return message(
        "lessons.order_summary", step=step, count=len(order), different=len(set(order)), last=rank_name(order[-1])
    )


def multiples_table(step: int) -> str:
    """The places 1..13 of foundation ``step`` as multiples: ``n × step = laps × 13 + left → rank``.

    Shows why every order ends in K: 13 × step leaves remainder 0, read as K.
    """
    lines = []
    for count in range(1, RANK_COUNT + 1):
        product = count * step
        laps, left = divmod(product, RANK_COUNT)
        rank = rank_name(left or RANK_COUNT)
        lines.append(
            message("lessons.multiple_line", count=count, step=step, product=product, laps=laps, left=left, rank=rank)
        )
    return "\n".join(lines)


def inverse_table(steps: Iterable[int] = range(1, RANK_COUNT)) -> str:
    """Each step's inverse mod 13, checked: ``k × k⁻¹ = laps × 13 + 1``."""
    header = [message("lessons.table.step"), message("lessons.table.inverse"), message("lessons.table.check")]
    rows = []
    for step in steps:
        inverse = modular_inverse(step)
        product = step * inverse
        laps, left = divmod(product, RANK_COUNT)
        rows.append([step, inverse, f"{step} × {inverse} = {product} = {laps} × 13 + {left}"])
    return _table(header, rows)


def position_table(steps: Sequence[int] = STEPS) -> str:
    """Where each rank sits on each foundation, computed as ``r × k⁻¹ (mod 13)`` (0 read as 13)."""
    header = [f"{message('lessons.table.step')} \\ {message('lessons.table.rank')}", *map(rank_name, range(1, 14))]
    rows = [[_step_label(step), *(position_in_order(rank, step) for rank in range(1, 14))] for step in steps]
    return _table(header, rows)


def positions_check(steps: Sequence[int] = STEPS) -> str:
    """Compare ``r × k⁻¹ (mod 13)`` with the place of ``r`` in each computed order, and say the result."""
    disagreements = [
        f"{rank_name(rank)} on +{step}"
        for step in steps
        for rank in range(1, RANK_COUNT + 1)
        if foundation_order(step)[position_in_order(rank, step) - 1] != rank
    ]
    if disagreements:
        return message("lessons.positions_disagree", pairs=", ".join(disagreements))
    return message("lessons.positions_agree", count=len(steps) * RANK_COUNT)


def coverage_table(clocks: Sequence[int] = (12, 13, 16), steps: Sequence[int] = STEPS) -> str:
    """For each clock size and step: how many ranks the order reaches, and whether it reaches them all.

    Computed by :func:`calcnb.exercises.orders.walk`, the same computation the OrderExplorer draws.
    """
    from calcnb.exercises.orders import walk

    header = [
        message("lessons.table.ranks"),
        message("lessons.table.step"),
        message("lessons.table.reached"),
        message("lessons.table.every"),
    ]
    rows = []
    for ranks in clocks:
        for step in steps:
            order = walk(step, ranks)
            every = message("lessons.yes") if order.reaches_every_rank else message("lessons.no")
            rows.append([ranks, _step_label(step), f"{order.closes_after}/{ranks}", every])
    return _table(header, rows)


# ---------------------------------------------------------------- positions and moves


def move_table(state: State | Game, moves: Iterable[Move | str] | None = None) -> str:
    """Each move (all 25 by default) marked legal or illegal, with the engine's explanation or reason."""
    if isinstance(state, Game):
        state = state.state
    chosen = ALL_MOVES if moves is None else [Move.parse(move) for move in moves]
    rows = []
    for move in chosen:
        reason = state.why_illegal(move)
        if reason is None:
            rows.append([move.text, "✓ " + message("lessons.legal_mark"), state.explain(move)])
        else:
            rows.append([move.text, "✗ " + message("lessons.illegal_mark"), reason])
    header = [message("lessons.table.move"), "", message("lessons.table.why")]
    return _table(header, rows, first_sep="  ")


def attempt(game: Game, move: Move | str) -> str:
    """Try ``move`` in ``game``: play it and say what it did, or say why not and change nothing.

    The sentences are the engine's own: :meth:`Game.explain` for a legal move, the
    :class:`~calcnb.game.engine.IllegalMove` or :class:`~calcnb.game.engine.InvalidMove` message otherwise.
    """
    try:
        parsed = Move.parse(move)
        sentence = game.explain(parsed)
    except (InvalidMove, IllegalMove) as error:
        return f"✗ {error}"
    game.play(parsed)
    return f"✓ {parsed.text}: {sentence}"


def lesson_game(
    foundations: Sequence[str | int],
    wastes: Sequence[str] = ("", "", "", ""),
    pending: str | Card | None = None,
    *,
    seed: int | str = "lesson",
) -> Game:
    """A complete 52-card position for a lesson, built with :meth:`Game.from_position`.

    Each foundation is either its cards as text (``"2♣ 4♥ 6♦"``) or a height (how
    many cards of its order it holds; the suits are the first not shown elsewhere).
    Every card not shown goes to the stock, in an order shuffled from ``seed``.
    """
    shown = [card for pile in foundations if isinstance(pile, str) for card in parse_cards(pile)]
    shown += [card for pile in wastes for card in parse_cards(pile)]
    if pending is not None:
        shown.append(Card.parse(pending))
    used = set(shown)
    piles: list[Sequence[Card] | str] = []
    for number, pile in enumerate(foundations, start=1):
        if isinstance(pile, str):
            piles.append(pile)
            continue
        if not 1 <= pile <= RANK_COUNT:
            raise ValueError(message("lessons.height", foundation=number, height=pile))
        cards = []
        for rank in foundation_order(number)[:pile]:
            free = [Card(rank, suit) for suit in SUITS if Card(rank, suit) not in used]
            if not free:
                raise ValueError(message("lessons.no_card", rank=rank_name(rank), foundation=number))
            cards.append(free[0])
            used.add(free[0])
        piles.append(cards)
    stock = [card for card in DECK if card not in used]
    SeededRandom(seed).shuffle(stock)
    return Game.from_position(foundations=piles, wastes=wastes, stock=stock, pending=pending)


def position_text(position: State | Game) -> str:
    """The position in plain text without the board's hints (no "next" rank, no top marked): for exercises.

    The engine's own text board (``print(game)``) names the rank each foundation needs,
    which would answer a "which foundation takes it?" question before it is asked.
    """
    state = position.state if isinstance(position, Game) else position
    return render_text(state, hints=False)


def nearly_won_game() -> Game:
    """A position one move from a win: three foundations complete, the fourth waiting for the K on waste 1."""
    last_of_four = rank_name(foundation_order(4)[-1])
    return lesson_game((13, 13, 13, 12), wastes=(f"{last_of_four}♠", "", "", ""))


def script_text(script: Iterable, *, width: int = 100) -> str:
    """A script of steps (such as :func:`calcnb.exercises.examples.worked_example`) as numbered, wrapped text."""
    import textwrap

    blocks = []
    for number, step in enumerate(script, start=1):
        title = getattr(step, "title", "")
        heading = f"{number}. {title}" if title else f"{number}."
        body = textwrap.fill(step.caption, width=width, initial_indent="   ", subsequent_indent="   ")
        blocks.append(f"{heading}\n{body}")
    return "\n".join(blocks)


def replay_lines(game: Game) -> str:
    """The game's moves, one a line, each with the engine's explanation from the position it was played in."""
    lines = [message("lessons.replay_start", cards=game.start.score)]
    for number, (before, move) in enumerate(zip(game.states, game.history), start=1):
        lines.append(message("lessons.replay_line", number=number, move=move.text, explanation=before.explain(move)))
    return "\n".join(lines)


def replay_script(game: Game) -> list:
    """The game as a script for :class:`calcnb.Stepper`: the start, then one step per move played."""
    from calcnb.exercises.examples import Step

    lines = replay_lines(game).splitlines()
    steps = [Step(game.start, lines[0])]
    for index, move in enumerate(game.history, start=1):
        steps.append(Step(game.states[index], lines[index], last_move=move))
    return steps
