# ruff: noqa: E501  (the message catalogue reads best one message a line, however long)
"""Lesson helpers for the teaching notebooks: printable tables, ready-made positions and exercises.

Every table here is computed from the engine's arithmetic (:func:`~calcnb.cards.foundation_order`,
:func:`~calcnb.cards.next_rank`, :func:`~calcnb.cards.modular_inverse`), so a lesson can print it
and never type a number in by hand. :class:`Exercise` is a small quiz widget: an answer box and a
Check button that says at once whether the answer is right, and why (for a wrong answer, why *that*
answer is wrong, without giving the right one away). The factories (:func:`next_card_exercise`,
:func:`inverse_exercise`, ...) compute each answer and its reasoning from calcnb.

Every sentence lives in the message catalogue (English and Portuguese), under ``lessons.*``.

>>> print(order_table(steps=(2,)).splitlines()[-1])
+2   | 2 4 6 8 10 Q A 3 5 7  9  J  K
>>> exercise = next_card_exercise(12, 2)
>>> exercise.check("A").correct, exercise.check("14").correct
(True, False)
"""

from __future__ import annotations

import html
import math
import time
import warnings
from collections.abc import Callable, Iterable, Sequence

import ipywidgets as widgets

from .cards import (
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
from .deals import SeededRandom
from .engine import ALL_MOVES, IllegalMove, InvalidMove, Move, State, render_text
from .i18n import get_language, message, register
from .lesson_content import Attempt, Feedback
from .rules import STEPS
from .session import Game

__all__ = [
    "Attempt",
    "Exercise",
    "Feedback",
    "add_answer_listener",
    "answer_key",
    "attempt",
    "board_image",
    "board_panel",
    "clock_exercise",
    "clock_table",
    "coverage_table",
    "fits_exercise",
    "inverse_exercise",
    "inverse_table",
    "last_card_exercise",
    "legal_exercise",
    "lesson_game",
    "move_table",
    "multiples_table",
    "nearly_won_game",
    "next_card_exercise",
    "next_card_table",
    "order_table",
    "position_exercise",
    "position_table",
    "position_text",
    "positions_check",
    "remove_answer_listener",
    "replay_lines",
    "replay_script",
    "script_text",
    "visits_exercise",
]

# Okabe-Ito colours, told apart with any colour vision; the ✓ and ✗ marks say it without colour too.
_RIGHT_COLOUR = "#0072B2"
_WRONG_COLOUR = "#D55E00"
_UNREAD_COLOUR = "#555555"

register(
    {
        "en": {
            # the widget
            "lessons.check": "Check",
            "lessons.show": "Show answer",
            "lessons.placeholder": "your answer",
            "lessons.right": "✓ Right: {why}",
            "lessons.wrong": "✗ Not {answer}: {reason} Try again.",
            "lessons.unread": "? {reason}",
            "lessons.answer_is": "The answer is {answer}: {why}",
            "lessons.key_line": "{number}. {question}\n   Answer: {answer}. {why}",
            # reading answers
            "lessons.read_rank": "Write a rank: A, 2 to 10, J, Q or K (or a number 1 to 13).",
            "lessons.read_number": "Write a whole number, like 7.",
            "lessons.read_yes_no": "Answer yes or no.",
            "lessons.read_foundation": "Write a foundation number, 1 to 4, or 'waste' if no foundation takes the card.",
            "lessons.waste_word": "waste",
            # the clock of 13
            "lessons.clock.question": "On the clock of 13, where does {total} land? (Answer 1 to 13; 13 is K.)",
            "lessons.clock.why": "{total} = {laps} × 13 + {left}, so it lands on {answer}",
            "lessons.clock.why_zero": "{total} = {laps} × 13 + 0; the clock has no 0, it shows 13 (K) there",
            "lessons.clock.past": "{answer} is past 13; the clock goes round again after K, so take 13 away.",
            "lessons.clock.zero": "there is no 0 on the clock of 13: a remainder of 0 is read as 13 (K).",
            "lessons.clock.off": "the clock only shows 1 to 13.",
            "lessons.clock.other": "take 13 away (as often as needed) until what is left is between 1 and 13.",
            # the next card
            "lessons.next.question": "Foundation +{step} has {top} on top. Which rank goes on next?",
            "lessons.next.why": "{top_value} + {step} = {total}, so {answer} comes next",
            "lessons.next.why_wrap": "{top_value} + {step} = {total}, which is past K: {total} − 13 = {answer_value}, so {answer} comes next",
            "lessons.next.no_such_rank": "there is no rank {total}; after K the count goes on from A, so take 13 away.",
            "lessons.next.other": "foundation +{step} adds {step} to the value of its top card ({top} is {top_value}).",
            # the last card
            "lessons.last.question": "What is the 13th (last) card of foundation +{step}?",
            "lessons.last.why": "the 13th card is 13 × {step} = {total} = {step} × 13 + 0 on the clock, and remainder 0 is read as K",
            "lessons.last.other": "the 13th card is 13 × {step} counted round the clock of 13: what is left after taking away 13s?",
            # visits on other clocks
            "lessons.visits.question": "Count in steps of {step} round a clock of {ranks}, starting at {step}. How many different numbers do you land on before you are back at {step}?",
            "lessons.visits.why": "the count lands on {visited}: {count} numbers. gcd({step}, {ranks}) = {factor}, and {ranks} ÷ {factor} = {count}",
            "lessons.visits.too_many": "a clock of {ranks} has only {ranks} numbers.",
            "lessons.visits.other": "write the numbers down as you count, starting at {step}, and stop when {step} comes round again.",
            # the inverse
            "lessons.inverse.question": "Which number x from 1 to 12 makes {step} × x leave remainder 1 when divided by 13?",
            "lessons.inverse.why": "{step} × {answer} = {product} = {laps} × 13 + 1, so {step}⁻¹ = {answer} (mod 13)",
            "lessons.inverse.wrong": "{step} × {answer} = {product} = {laps} × 13 + {left}, remainder {left}, not 1.",
            "lessons.inverse.off": "look for x between 1 and 12.",
            # positions on a foundation
            "lessons.position.question": "At which place (1 to 13) does {rank} sit on foundation +{step}?",
            "lessons.position.why": "{step}⁻¹ = {inverse} (mod 13) and {rank_value} × {inverse} = {product} = {laps} × 13 + {left}, so place {answer}; the order agrees: {order}",
            "lessons.position.wrong": "place {answer} of foundation +{step} holds {holds}, not {rank}.",
            "lessons.position.off": "places on a foundation run from 1 to 13.",
            # which foundation takes the turned card
            "lessons.fits.question": "The turned card is {card}. Which foundation takes it? (1 to 4, or 'waste' if none does.)",
            "lessons.fits.why_one": "{explanation}",
            "lessons.fits.why_many": "{explanation}; it also fits foundation {others}, so you may choose",
            "lessons.fits.why_none": "no foundation needs a {rank} now (they need {needs}), so it goes on a waste pile",
            "lessons.fits.waste_but": "a waste pile always takes it, but one of the foundations needs a {rank} now.",
            "lessons.fits.no": "{reason}.",
            # is this move legal
            "lessons.legal.question": "May you play {move} here? (yes or no)",
            "lessons.legal.why_yes": "{explanation}",
            "lessons.legal.why_no": "{reason}",
            "lessons.legal.it_is_illegal": "{reason}.",
            "lessons.legal.it_is_legal": "it is legal; look at what {move} moves and where it goes.",
            "lessons.yes": "yes",
            "lessons.no": "no",
            # tables
            "lessons.table.step": "step",
            "lessons.table.place": "place",
            "lessons.table.top": "top",
            "lessons.table.rank": "rank",
            "lessons.table.clock": "clock",
            "lessons.table.ranks": "ranks",
            "lessons.table.reached": "reached",
            "lessons.table.closes_after": "closes after",
            "lessons.table.every": "every rank?",
            "lessons.table.inverse": "inverse",
            "lessons.table.check": "check",
            "lessons.multiple_line": "{count:>2} × {step} = {product:>2} = {laps} × 13 + {left:>2} → {rank}",
            "lessons.positions_agree": "r × k⁻¹ (mod 13) agrees with the orders for all {count} pairs of rank and foundation.",
            "lessons.positions_disagree": "r × k⁻¹ (mod 13) disagrees with the orders for {pairs}.",
            # move tables and attempts
            "lessons.legal_mark": "legal",
            "lessons.illegal_mark": "illegal",
            "lessons.table.move": "move",
            "lessons.table.why": "why",
            "lessons.no_card": "no {rank} is left for foundation {foundation}: every {rank} is already shown elsewhere",
            "lessons.height": "foundation {foundation} holds 1 to 13 cards; {height} was asked for",
            "lessons.replay_start": "Start: {cards} cards on the foundations.",
            "lessons.board_panel": "The board (open it after you answer: it marks where the card may go)",
            "lessons.replay_line": "{number}. {move}: {explanation}",
        },
        "pt": {
            "lessons.check": "Verificar",
            "lessons.show": "Mostrar resposta",
            "lessons.placeholder": "a sua resposta",
            "lessons.right": "✓ Certo: {why}",
            "lessons.wrong": "✗ Não é {answer}: {reason} Tente de novo.",
            "lessons.unread": "? {reason}",
            "lessons.answer_is": "A resposta é {answer}: {why}",
            "lessons.key_line": "{number}. {question}\n   Resposta: {answer}. {why}",
            "lessons.read_rank": "Escreva um valor: A, 2 a 10, J, Q ou K (ou um número de 1 a 13).",
            "lessons.read_number": "Escreva um número inteiro, como 7.",
            "lessons.read_yes_no": "Responda sim ou não.",
            "lessons.read_foundation": "Escreva o número de uma base, 1 a 4, ou 'descarte' se nenhuma base aceita a carta.",
            "lessons.waste_word": "descarte",
            "lessons.clock.question": "No relógio de 13, onde cai {total}? (Responda de 1 a 13; 13 é K.)",
            "lessons.clock.why": "{total} = {laps} × 13 + {left}, por isso cai em {answer}",
            "lessons.clock.why_zero": "{total} = {laps} × 13 + 0; o relógio não tem 0, mostra ali 13 (K)",
            "lessons.clock.past": "{answer} passa de 13; depois do K o relógio dá outra volta, por isso tire 13.",
            "lessons.clock.zero": "não há 0 no relógio de 13: um resto 0 lê-se 13 (K).",
            "lessons.clock.off": "o relógio só mostra de 1 a 13.",
            "lessons.clock.other": "tire 13 (as vezes que for preciso) até o que resta ficar entre 1 e 13.",
            "lessons.next.question": "A base +{step} tem {top} no topo. Que valor vem a seguir?",
            "lessons.next.why": "{top_value} + {step} = {total}, por isso vem {answer}",
            "lessons.next.why_wrap": "{top_value} + {step} = {total}, que passa de K: {total} − 13 = {answer_value}, por isso vem {answer}",
            "lessons.next.no_such_rank": "não há valor {total}; depois do K a contagem continua em A, por isso tire 13.",
            "lessons.next.other": "a base +{step} soma {step} ao valor da carta do topo ({top} vale {top_value}).",
            "lessons.last.question": "Qual é a 13.ª (última) carta da base +{step}?",
            "lessons.last.why": "a 13.ª carta é 13 × {step} = {total} = {step} × 13 + 0 no relógio, e o resto 0 lê-se K",
            "lessons.last.other": "a 13.ª carta é 13 × {step} contado no relógio de 13: o que resta depois de tirar os 13?",
            "lessons.visits.question": "Conte de {step} em {step} num relógio de {ranks}, a começar em {step}. Em quantos números diferentes cai antes de voltar a {step}?",
            "lessons.visits.why": "a contagem cai em {visited}: {count} números. mdc({step}, {ranks}) = {factor}, e {ranks} ÷ {factor} = {count}",
            "lessons.visits.too_many": "um relógio de {ranks} só tem {ranks} números.",
            "lessons.visits.other": "escreva os números enquanto conta, a começar em {step}, e pare quando {step} voltar.",
            "lessons.inverse.question": "Que número x de 1 a 12 faz {step} × x deixar resto 1 na divisão por 13?",
            "lessons.inverse.why": "{step} × {answer} = {product} = {laps} × 13 + 1, por isso {step}⁻¹ = {answer} (mod 13)",
            "lessons.inverse.wrong": "{step} × {answer} = {product} = {laps} × 13 + {left}, resto {left}, não 1.",
            "lessons.inverse.off": "procure x entre 1 e 12.",
            "lessons.position.question": "Em que lugar (1 a 13) fica {rank} na base +{step}?",
            "lessons.position.why": "{step}⁻¹ = {inverse} (mod 13) e {rank_value} × {inverse} = {product} = {laps} × 13 + {left}, por isso lugar {answer}; a ordem confirma: {order}",
            "lessons.position.wrong": "o lugar {answer} da base +{step} tem {holds}, não {rank}.",
            "lessons.position.off": "os lugares numa base vão de 1 a 13.",
            "lessons.fits.question": "A carta virada é {card}. Que base a aceita? (1 a 4, ou 'descarte' se nenhuma aceita.)",
            "lessons.fits.why_one": "{explanation}",
            "lessons.fits.why_many": "{explanation}; também serve na base {others}, por isso pode escolher",
            "lessons.fits.why_none": "nenhuma base precisa agora de um {rank} (precisam de {needs}), por isso vai para um descarte",
            "lessons.fits.waste_but": "um descarte aceita-a sempre, mas uma das bases precisa agora de um {rank}.",
            "lessons.fits.no": "{reason}.",
            "lessons.legal.question": "Pode jogar {move} aqui? (sim ou não)",
            "lessons.legal.why_yes": "{explanation}",
            "lessons.legal.why_no": "{reason}",
            "lessons.legal.it_is_illegal": "{reason}.",
            "lessons.legal.it_is_legal": "é permitida; veja que carta {move} move e para onde vai.",
            "lessons.yes": "sim",
            "lessons.no": "não",
            "lessons.table.step": "passo",
            "lessons.table.place": "lugar",
            "lessons.table.top": "topo",
            "lessons.table.rank": "valor",
            "lessons.table.clock": "relógio",
            "lessons.table.ranks": "valores",
            "lessons.table.reached": "alcançados",
            "lessons.table.closes_after": "fecha após",
            "lessons.table.every": "todos?",
            "lessons.table.inverse": "inverso",
            "lessons.table.check": "verificação",
            "lessons.multiple_line": "{count:>2} × {step} = {product:>2} = {laps} × 13 + {left:>2} → {rank}",
            "lessons.positions_agree": "r × k⁻¹ (mod 13) coincide com as ordens para todos os {count} pares de valor e base.",
            "lessons.positions_disagree": "r × k⁻¹ (mod 13) não coincide com as ordens para {pairs}.",
            "lessons.legal_mark": "permitida",
            "lessons.illegal_mark": "proibida",
            "lessons.table.move": "jogada",
            "lessons.table.why": "porquê",
            "lessons.no_card": "não resta nenhum {rank} para a base {foundation}: todos os {rank} já aparecem noutro sítio",
            "lessons.height": "a base {foundation} tem de 1 a 13 cartas; foi pedido {height}",
            "lessons.replay_start": "Início: {cards} cartas nas bases.",
            "lessons.board_panel": "O tabuleiro (abra-o depois de responder: mostra para onde a carta pode ir)",
            "lessons.replay_line": "{number}. {move}: {explanation}",
        },
    }
)


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
    step | 1 2 3 4 5 6 7 8 9 10 11 12 13
    +1   | A 2 3 4 5 6 7 8 9 10 J  Q  K
    """
    header = [message("lessons.table.step"), *range(1, RANK_COUNT + 1)]
    rows = [[_step_label(step), *map(rank_name, foundation_order(step))] for step in steps]
    return _table(header, rows)


def next_card_table(steps: Sequence[int] = STEPS) -> str:
    """For each step and each top card, the rank that goes on next: ``(top + step - 1) mod 13 + 1``."""
    header = [f"{message('lessons.table.step')} \\ {message('lessons.table.top')}", *map(rank_name, range(1, 14))]
    rows = [[_step_label(step), *(rank_name(next_rank(top, step)) for top in range(1, 14))] for step in steps]
    return _table(header, rows)


def clock_table(totals: Iterable[int]) -> str:
    """Where each whole number lands on the clock of 13 (0 read as 13, shown as its card name)."""
    totals = list(totals)
    header = ["n", *totals]
    row = [message("lessons.table.clock"), *(rank_name((total - 1) % RANK_COUNT + 1) for total in totals)]
    return _table(header, [row])


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

    Computed by :func:`calcnb.explorer.walk`, the same computation the OrderExplorer draws.
    """
    from .explorer import walk

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
    :class:`~calcnb.engine.IllegalMove` or :class:`~calcnb.engine.InvalidMove` message otherwise.
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


def _board_png(game_or_state: State | Game, dpi: int, draw_options: dict) -> bytes:
    """The board drawn at ``dpi``, as a palette PNG: the board has few colours, so it stays small."""
    import io

    from PIL import Image

    from .board import draw

    figure = draw(game_or_state, **draw_options)
    raw = io.BytesIO()
    figure.savefig(raw, format="png", dpi=dpi)
    small = io.BytesIO()
    Image.open(raw).convert("RGB").quantize(64).save(small, format="PNG", optimize=True)
    return small.getvalue()


def board_image(game_or_state: State | Game, *, dpi: int = 60, **draw_options: object) -> object:
    """The board as a modest PNG image for a notebook (``draw_options`` as for :func:`calcnb.board.draw`).

    Smaller than the board's own ``_repr_png_`` (fewer pixels, 64 colours), so stored notebooks stay light.
    """
    from IPython.display import Image

    return Image(data=_board_png(game_or_state, dpi, draw_options), format="png")


def board_panel(game_or_state: State | Game, *, dpi: int = 60, **draw_options: object) -> widgets.Accordion:
    """The board in a closed panel, opened with a click: for exercises whose answer the board would show.

    The board marks where the turned card may legally go, which gives an exercise away; closed,
    it lets the reader answer first and check on the board afterwards.
    """
    image = widgets.Image(value=_board_png(game_or_state, dpi, draw_options), format="png")
    panel = widgets.Accordion(children=[image], selected_index=None)
    panel.set_title(0, message("lessons.board_panel"))
    return panel


def script_text(script: Iterable, *, width: int = 100) -> str:
    """A script of steps (such as :func:`calcnb.examples.worked_example`) as numbered, wrapped text."""
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
    from .examples import Step

    lines = replay_lines(game).splitlines()
    steps = [Step(game.start, lines[0])]
    for index, move in enumerate(game.history, start=1):
        steps.append(Step(game.states[index], lines[index], last_move=move))
    return steps


# ---------------------------------------------------------------- exercises


_listeners: list[Callable[[Attempt], object]] = []


def add_answer_listener(callback: Callable[[Attempt], object]) -> None:
    """Call ``callback(attempt)`` with an :class:`~calcnb.lesson_content.Attempt` after every check of an exercise.

    A listener that raises is ignored (with a warning): the student's feedback is shown first and never breaks.
    """
    if callback not in _listeners:
        _listeners.append(callback)


def remove_answer_listener(callback: Callable[[Attempt], object]) -> None:
    """Stop calling ``callback``; a callback that was never added is ignored."""
    if callback in _listeners:
        _listeners.remove(callback)


def _tell_listeners(attempt: Attempt) -> None:
    for callback in list(_listeners):
        try:
            callback(attempt)
        except Exception as error:  # a broken recorder must never break a student's exercise
            warnings.warn(f"answer listener {callback!r} failed: {error!r}", RuntimeWarning, stacklevel=2)


class Exercise(widgets.VBox):
    """A question, an answer box and a Check button that says at once: right or wrong, and why.

    ``judge(text)`` returns the :class:`Feedback` for an answer. ``solution`` and
    ``why`` are the answer and its reasoning (for the Show answer button and the
    teacher's :func:`answer_key`). Type into ``answer_box`` and click
    ``check_button`` (or call :meth:`check`); the verdict appears in ``feedback``.
    """

    def __init__(
        self,
        question: str,
        solution: str,
        why: str,
        judge: Callable[[str], Feedback],
        *,
        exercise_id: str = "",
        variant: int | str = 0,
    ) -> None:
        self.exercise_id = exercise_id
        self.variant = variant
        self.question = question
        self.solution = solution
        self.why = why
        self._judge = judge
        self.last: Feedback | None = None
        self.prompt = widgets.HTML(f"<b>{html.escape(question)}</b>")
        self.answer_box = widgets.Text(placeholder=message("lessons.placeholder"), continuous_update=False)
        self.answer_box.layout.width = "12em"
        self.check_button = widgets.Button(description=message("lessons.check"), button_style="primary")
        self.show_button = widgets.Button(description=message("lessons.show"))
        self.feedback = widgets.HTML()
        super().__init__(
            [self.prompt, widgets.HBox([self.answer_box, self.check_button, self.show_button]), self.feedback]
        )
        self.check_button.on_click(lambda _button: self.check())
        self.show_button.on_click(lambda _button: self.reveal())

    def check(self, answer: str | None = None) -> Feedback:
        """Judge ``answer`` (by default what is in the answer box), show the verdict and return it."""
        if answer is None:
            answer = self.answer_box.value
        else:
            self.answer_box.value = answer
        verdict = self._judge(answer.strip())
        self._show(verdict)
        self.last = verdict
        misconception = verdict.misconception if verdict.correct is not None else "unreadable"
        _tell_listeners(
            Attempt(
                self.exercise_id,
                self.variant,
                answer,
                verdict.correct is True,
                misconception,
                get_language(),
                time.time(),
            )
        )
        return verdict

    def reveal(self) -> str:
        """Show the answer and its reasoning; returns that sentence."""
        text = message("lessons.answer_is", answer=self.solution, why=self.why)
        self._show(Feedback(None, text))
        return text

    def _show(self, verdict: Feedback) -> None:
        colour = {True: _RIGHT_COLOUR, False: _WRONG_COLOUR}.get(verdict.correct, _UNREAD_COLOUR)
        self.feedback.value = f"<span style='color:{colour}'>{html.escape(verdict.text)}</span>"

    def __repr__(self) -> str:
        return f"Exercise({self.question!r})"


def answer_key(exercises: Iterable[Exercise]) -> str:
    """The teacher's answers: each question, its answer and why, numbered."""
    return "\n".join(
        message("lessons.key_line", number=number, question=item.question, answer=item.solution, why=item.why)
        for number, item in enumerate(exercises, start=1)
    )


# ---- reading answers


_RANK_WORDS = {"ACE": 1, "ÁS": 1, "AS": 1, "JACK": 11, "VALETE": 11, "QUEEN": 12, "DAMA": 12, "KING": 13, "REI": 13}


def _read_rank(text: str) -> int | None:
    cleaned = text.strip().upper()
    if cleaned.isdigit():
        value = int(cleaned)
        return value if 1 <= value <= RANK_COUNT else None
    if cleaned in _RANK_WORDS:
        return _RANK_WORDS[cleaned]
    if cleaned == "T":
        return 10
    names = {rank_name(rank): rank for rank in range(1, RANK_COUNT + 1)}
    return names.get(cleaned)


def _read_number(text: str) -> int | None:
    cleaned = text.strip().lstrip("+")
    if cleaned.lstrip("-").isdigit():
        return int(cleaned)
    return None


def _read_yes_no(text: str) -> bool | None:
    cleaned = text.strip().lower()
    if cleaned in {"yes", "y", "sim", "s", message("lessons.yes")}:
        return True
    if cleaned in {"no", "n", "não", "nao", message("lessons.no")}:
        return False
    return None


def _unread(key: str) -> Feedback:
    return Feedback(None, message("lessons.unread", reason=message(key)))


def _right(why: str) -> Feedback:
    return Feedback(True, message("lessons.right", why=why))


def _wrong(answer: str, reason: str) -> Feedback:
    return Feedback(False, message("lessons.wrong", answer=answer, reason=reason))


def _judge_number(
    answer: int,
    why: str,
    explain_wrong: Callable[[str, int], Feedback],
    *,
    read: Callable[[str], int | None] = _read_number,
    unreadable: str = "lessons.read_number",
) -> Callable[[str], Feedback]:
    """A judge for a whole-number answer (a rank, with ``read=_read_rank``): unreadable text,
    the right number, or ``explain_wrong(text, value)``."""

    def judge(text: str) -> Feedback:
        value = read(text)
        if value is None:
            return _unread(unreadable)
        if value == answer:
            return _right(why)
        return explain_wrong(text, value)

    return judge


def _rank_with_value(rank: int) -> str:
    name = rank_name(rank)
    return name if name == str(rank) else f"{name} ({rank})"


# ---- the factories


def clock_exercise(total: int) -> Exercise:
    """Where a whole number lands on the clock of 13 (13 shown as K)."""
    laps, left = divmod(total, RANK_COUNT)
    answer = left or RANK_COUNT
    if left:
        why = message("lessons.clock.why", total=total, laps=laps, left=left, answer=_rank_with_value(answer))
    else:
        why = message("lessons.clock.why_zero", total=total, laps=laps)

    def judge(text: str) -> Feedback:
        value = _read_number(text)
        if value is None:
            rank = _read_rank(text)
            if rank is None:
                return _unread("lessons.read_rank")
            value = rank
        if value == answer:
            return _right(why)
        if value > RANK_COUNT:
            return _wrong(text, message("lessons.clock.past", answer=value))
        if value == 0:
            return _wrong(text, message("lessons.clock.zero"))
        if value < 0:
            return _wrong(text, message("lessons.clock.off"))
        return _wrong(text, message("lessons.clock.other"))

    return Exercise(message("lessons.clock.question", total=total), _rank_with_value(answer), why, judge)


def next_card_exercise(top: int, step: int) -> Exercise:
    """Which rank goes on foundation ``+step`` after a top of rank ``top``."""
    answer = next_rank(top, step)
    total = top + step
    values = dict(top_value=top, step=step, total=total, answer=rank_name(answer), answer_value=answer)
    why = message("lessons.next.why_wrap" if total > RANK_COUNT else "lessons.next.why", **values)

    def judge(text: str) -> Feedback:
        number = _read_number(text)
        if number is not None and number == total and total > RANK_COUNT:
            return _wrong(text, message("lessons.next.no_such_rank", total=total))
        rank = _read_rank(text)
        if rank is None:
            return _unread("lessons.read_rank")
        if rank == answer:
            return _right(why)
        return _wrong(text, message("lessons.next.other", step=step, top=rank_name(top), top_value=top))

    question = message("lessons.next.question", step=step, top=rank_name(top))
    return Exercise(question, _rank_with_value(answer), why, judge)


def last_card_exercise(step: int) -> Exercise:
    """The 13th card of foundation ``+step``: always K, because 13 × step leaves remainder 0."""
    answer = foundation_order(step)[-1]
    why = message("lessons.last.why", step=step, total=RANK_COUNT * step)

    def wrong(text: str, rank: int) -> Feedback:
        return _wrong(text, message("lessons.last.other", step=step))

    judge = _judge_number(answer, why, wrong, read=_read_rank, unreadable="lessons.read_rank")
    return Exercise(message("lessons.last.question", step=step), _rank_with_value(answer), why, judge)


def visits_exercise(step: int, ranks: int) -> Exercise:
    """How many numbers a count in steps of ``step`` reaches on a clock of ``ranks`` before it repeats."""
    from .explorer import walk

    order = walk(step, ranks)
    count = order.closes_after
    factor = math.gcd(step, ranks)
    why = message(
        "lessons.visits.why",
        visited=" → ".join(map(str, order.visited)),
        count=count,
        step=step,
        ranks=ranks,
        factor=factor,
    )

    def wrong(text: str, value: int) -> Feedback:
        if value > ranks:
            return _wrong(text, message("lessons.visits.too_many", ranks=ranks))
        return _wrong(text, message("lessons.visits.other", step=step))

    judge = _judge_number(count, why, wrong)
    return Exercise(message("lessons.visits.question", step=step, ranks=ranks), str(count), why, judge)


def inverse_exercise(step: int) -> Exercise:
    """The inverse of ``step`` modulo 13: the x with step × x leaving remainder 1."""
    answer = modular_inverse(step)
    product = step * answer
    why = message("lessons.inverse.why", step=step, answer=answer, product=product, laps=product // RANK_COUNT)

    def wrong(text: str, value: int) -> Feedback:
        if not 1 <= value < RANK_COUNT:
            return _wrong(text, message("lessons.inverse.off"))
        laps, left = divmod(step * value, RANK_COUNT)
        return _wrong(
            text, message("lessons.inverse.wrong", step=step, answer=value, product=step * value, laps=laps, left=left)
        )

    return Exercise(message("lessons.inverse.question", step=step), str(answer), why, _judge_number(answer, why, wrong))


def position_exercise(rank: int, step: int) -> Exercise:
    """Where ``rank`` sits on foundation ``+step``: ``rank × step⁻¹ (mod 13)``, checked against the order."""
    order = foundation_order(step)
    inverse = modular_inverse(step)
    product = rank * inverse
    laps, left = divmod(product, RANK_COUNT)
    answer = left or RANK_COUNT
    shown = " ".join(f"[{rank_name(r)}]" if place == answer else rank_name(r) for place, r in enumerate(order, 1))
    why = message(
        "lessons.position.why",
        step=step,
        inverse=inverse,
        rank_value=rank,
        product=product,
        laps=laps,
        left=left,
        answer=answer,
        order=shown,
    )

    def wrong(text: str, value: int) -> Feedback:
        if not 1 <= value <= RANK_COUNT:
            return _wrong(text, message("lessons.position.off"))
        holds = rank_name(order[value - 1])
        return _wrong(
            text, message("lessons.position.wrong", answer=value, step=step, holds=holds, rank=rank_name(rank))
        )

    question = message("lessons.position.question", rank=rank_name(rank), step=step)
    return Exercise(question, str(answer), why, _judge_number(answer, why, wrong))


def fits_exercise(position: State | Game) -> Exercise:
    """Which foundation takes the turned card (or a waste pile when none does), judged by the engine."""
    state = position.state if isinstance(position, Game) else position
    card = state.pending
    if card is None:
        raise ValueError(message("illegal.nothing_pending"))
    from .engine import STOCK_TO_FOUNDATION

    fitting = [move.foundation for move in STOCK_TO_FOUNDATION if state.is_legal(move)]
    waste = message("lessons.waste_word")
    if not fitting:
        needs = ", ".join(rank_name(need) for need in state.needs() if need is not None)
        why = message("lessons.fits.why_none", rank=rank_name(card.rank), needs=needs)
        solution = waste
    elif len(fitting) == 1:
        why = message("lessons.fits.why_one", explanation=state.explain(STOCK_TO_FOUNDATION[fitting[0] - 1]))
        solution = str(fitting[0])
    else:
        explanation = state.explain(STOCK_TO_FOUNDATION[fitting[0] - 1])
        others = ", ".join(map(str, fitting[1:]))
        why = message("lessons.fits.why_many", explanation=explanation, others=others)
        solution = " / ".join(map(str, fitting))

    def judge(text: str) -> Feedback:
        cleaned = text.strip().lower().lstrip("f")
        if cleaned in {"waste", "w", "descarte", "d", waste.lower()}:
            if not fitting:
                return _right(why)
            return _wrong(text, message("lessons.fits.waste_but", rank=rank_name(card.rank)))
        if not (cleaned.isdigit() and 1 <= int(cleaned) <= 4):
            return _unread("lessons.read_foundation")
        foundation = int(cleaned)
        if foundation in fitting:
            chosen = STOCK_TO_FOUNDATION[foundation - 1]
            others = [number for number in fitting if number != foundation]
            if others:
                return _right(
                    message(
                        "lessons.fits.why_many",
                        explanation=state.explain(chosen),
                        others=", ".join(map(str, others)),
                    )
                )
            return _right(why)
        reason = state.why_illegal(STOCK_TO_FOUNDATION[foundation - 1])
        return _wrong(text, message("lessons.fits.no", reason=reason))

    return Exercise(message("lessons.fits.question", card=card), solution, why, judge)


def legal_exercise(position: State | Game, move: Move | str) -> Exercise:
    """Whether ``move`` may be played in ``position``: yes or no, with the engine's reason."""
    state = position.state if isinstance(position, Game) else position
    move = Move.parse(move)
    reason = state.why_illegal(move)
    legal = reason is None
    if legal:
        why = message("lessons.legal.why_yes", explanation=state.explain(move))
    else:
        why = message("lessons.legal.why_no", reason=reason)
    solution = message("lessons.yes") if legal else message("lessons.no")

    def judge(text: str) -> Feedback:
        said = _read_yes_no(text)
        if said is None:
            return _unread("lessons.read_yes_no")
        if said == legal:
            return _right(why)
        if said:
            return _wrong(text, message("lessons.legal.it_is_illegal", reason=reason))
        return _wrong(text, message("lessons.legal.it_is_legal", move=move.text))

    return Exercise(message("lessons.legal.question", move=move.text), solution, why, judge)
