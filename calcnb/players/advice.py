"""Advice in a few sentences: a player's move for a position and why, for the Hint button and the coach's Watch.

:func:`advise` asks any player for its move and words its reason from the catalogue; :func:`hint`
is the advice of :func:`hint_player`: the strongest blind player where the solver runs compiled,
and where it runs interpreted the strongest that still answers within a fraction of a second
(:func:`hint_player_sentence` says which, and why).

The hint's determinized player thinks within a budget (:data:`HINT_NODES`, and :data:`HINT_SECONDS` on the
clock as a fallback): it counts the same imagined orders in the same race as the player itself, and stops
when the budget is spent, choosing among the moves still in the race on the orders counted
(:func:`deliberate`). Its reasons come from that analysis: what the chosen move scored, and for every
legal foundation move it did not advise, why not (what that move scored, that it can still be played
later, or that turning first gives nothing up). A position asked about again is answered from memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field

from calcnb.game.cards import rank_name
from calcnb.game.engine import ALL_MOVES, TURN, Move, State
from calcnb.game.rules import NEXT, WIN_SCORE, MoveKind
from calcnb.i18n import message
from calcnb.players.blind import (
    _NO_RANDOM,
    _REVERSE_NEED,
    MOST_ORDERS,
    Determinized,
    RaceBudget,
    _after,
    _preference,
    candidates,
    evaluate,
    hidden_orders,
)
from calcnb.players.blind import Evaluation as Result
from calcnb.players.ladder import MonteCarlo, RandomPlayer, ReverseNeed, rollouts
from calcnb.players.player import Player
from calcnb.players.table import FOUNDATION_RANGE, S2F_ID, Evaluation, PlayerView, Table
from calcnb.solver import COMPILED

__all__ = [
    "HINT_NODES",
    "HINT_SECONDS",
    "Deliberation",
    "advise",
    "deliberate",
    "forget_hints",
    "hint",
    "hint_deliberation",
    "hint_player",
    "hint_player_for",
    "hint_player_sentence",
]

# ---------------------------------------------------------------- the Hint

HINT_SAMPLES_INTERPRETED = 128
"""Imagined orders of the Monte Carlo player that hints where the solver runs interpreted."""

HINT_NODES = 24_000
"""The most solver nodes a hint spends on its imagined orders (the hint's player counts up to 64 orders of at
most 600 nodes for each move still in its race). Counted in nodes, not seconds, so the same position gets the
same hint on any machine that is not overloaded. An order is not started when the nodes the orders before it
took, on average, say it would end past the budget. Over every position of five games
(``benchmarks/bench_strategies.py --hint-only``, a loaded 2-core machine, the same run): at the waste
placements p50 193 ms and p95 424 ms, against 320 ms and 1,131 ms for the same player without a budget; the
same move at 146 of those 166 placements (619 of all 646 positions), the others close calls the budget cut
short (the Why? then says how many orders it counted)."""

HINT_SECONDS = 0.6
"""The fallback on the clock: an order that would end past this many seconds from the start of the hint is not
started, however few nodes were spent (a machine so loaded that the nodes crawl): there the hint answers in
about this time and one order more, with the orders it counted."""

MINIMUM_ORDERS = 2
"""Orders every weighed hint counts whatever the budget: a hint never rests on one imagined order."""

_MEMORY_SIZE = 256
"""Positions whose hint is kept, so a hint asked again (a second click, after an undo) answers at once."""


def hint_player_for(compiled: bool) -> Player:
    """The hint's player where the solver runs compiled (``Determinized(samples=MOST_ORDERS)``, the strongest
    blind player, a fraction of a second a choice compiled) or interpreted (Monte Carlo, about as quick there)."""
    return Determinized(samples=MOST_ORDERS) if compiled else MonteCarlo(samples=HINT_SAMPLES_INTERPRETED)


def hint_player() -> Player:
    """The player behind :func:`hint` here: :func:`hint_player_for` this installation's solver."""
    return _HINT_PLAYER


_HINT_PLAYER: Player = hint_player_for(COMPILED)


def hint_player_sentence(player: Player | None = None) -> str:
    """One sentence for the person asking: which player the hints come from, and why that one."""
    player = _HINT_PLAYER if player is None else player
    name = message(f"coach.player.{player.name.replace(' ', '_')}")
    if isinstance(player, Determinized):
        return message("hint.player.strongest", player=name)
    strongest = message("coach.player." + Determinized(samples=MOST_ORDERS).name.replace(" ", "_"))
    return message("hint.player.interpreted", player=name, strongest=strongest)


# ---------------------------------------------------------------- what the determinized player weighed


@dataclass(frozen=True)
class Deliberation:
    """What a determinized player weighed at one position, and its choice (moves as ``ALL_MOVES`` indexes).

    ``results`` is empty when nothing was weighed (one sensible move); otherwise it holds every candidate's
    :class:`~calcnb.players.blind.Evaluation` over the imagined orders (a move dropped from the race holds the
    orders it was tried on). ``played_out`` holds the blind tie-break's (wins, total score) of each tied move,
    ``preferred`` reverse need's own move here (the tie-break after that). ``counted`` is the orders counted
    for the moves still in the race, of the ``samples`` the player imagines; ``stopped`` is True when the
    budget ended the race before the player would have.
    """

    move: int | None
    legal: tuple[int, ...]
    candidates: tuple[int, ...]
    samples: int
    rollouts: int
    results: Mapping[int, Result] = field(default_factory=dict)
    played_out: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    preferred: int | None = None
    counted: int = 0
    stopped: bool = False


def deliberate(
    player: Determinized,
    table: Table,
    rng,
    *,
    nodes: float = float("inf"),
    seconds: float = float("inf"),
) -> Deliberation:
    """``player``'s choice at ``table`` and what it weighed, within ``nodes`` solver nodes and ``seconds``.

    The same candidates, imagined orders (drawn from ``rng`` as the player draws them), race and tie-breaks
    as :meth:`Determinized.next_move`, so without a budget the same move; with one, an order that would end
    past it is not started (after :data:`MINIMUM_ORDERS`), and the choice is made on the orders counted.
    Only the settings the hint's player uses (no ``total_nodes``, no ``escalate``) are supported.
    """
    if player.total_nodes is not None or player.escalate:
        raise ValueError("deliberate() supports determinized players without total_nodes or escalate")
    legal = tuple(table.legal())
    moves = candidates(table)
    base = dict(legal=legal, candidates=tuple(moves), samples=player.samples, rollouts=player.rollouts)
    if len(moves) <= 1:
        return Deliberation(moves[0] if moves else None, **base)
    orders = hidden_orders(table, player.samples, rng)
    budget = RaceBudget(nodes, seconds, MINIMUM_ORDERS)
    results = evaluate(table, moves, orders, player.nodes, race=True, budget=budget)
    counted, stopped = budget.counted, budget.stopped
    best = max(result.points for result in results.values())
    tied = [move for move in moves if results[move].points == best]
    base.update(results=results, counted=counted, stopped=stopped)
    if len(tied) == 1:
        return Deliberation(tied[0], **base)
    preferred = _preference(table)
    if not player.rollouts:
        return Deliberation(max(tied, key=lambda move: (move == preferred, -move)), preferred=preferred, **base)
    played_out = hidden_orders(table, player.rollouts, rng)
    blind = {move: rollouts(_after(table, move), played_out, _REVERSE_NEED, _NO_RANDOM) for move in tied}
    move = max(tied, key=lambda move: (blind[move], move == preferred, -move))
    return Deliberation(move, played_out=blind, preferred=preferred, **base)


def _as_deliberation(player: Determinized, table: Table, move: int | None) -> Deliberation:
    """What ``player`` weighed at its last choice (``move``, just made at ``table``), read from the player."""
    results = dict(player.last_results)
    counted = max((result.futures for result in results.values()), default=0)
    preferred = _preference(table) if results else None
    return Deliberation(
        move,
        tuple(table.legal()),
        tuple(candidates(table)),
        player.samples,
        player.rollouts,
        results,
        dict(player.last_played_out),
        preferred,
        counted,
    )


_MEMORY: OrderedDict[tuple, Deliberation] = OrderedDict()
_MEMORY_LOCK = threading.Lock()


def hint_deliberation(position: State | PlayerView | object) -> Deliberation:
    """What the hint's determinized player weighed at ``position`` (a State, Game or view), within the hint's
    budget: from memory when this position was hinted before, else thought anew (and remembered)."""
    view = PlayerView.of(position)
    player = _HINT_PLAYER
    if not isinstance(player, Determinized):
        raise TypeError("the hint's player weighs no imagined orders here: the solver runs interpreted")
    return _hint_deliberation(view, view.table(), player)


def _hint_deliberation(view: PlayerView, table: Table, player: Determinized) -> Deliberation:
    """The hint's deliberation at ``view``: from memory when this position was hinted before, else thought anew."""
    key = (view.fingerprint(), repr(player), HINT_NODES, HINT_SECONDS)
    with _MEMORY_LOCK:
        known = _MEMORY.get(key)
        if known is not None:
            _MEMORY.move_to_end(key)
            return known
    thought = deliberate(player, table.copy(), view.rng(), nodes=HINT_NODES, seconds=HINT_SECONDS)
    with _MEMORY_LOCK:
        _MEMORY[key] = thought
        while len(_MEMORY) > _MEMORY_SIZE:
            _MEMORY.popitem(last=False)
    return thought


def forget_hints() -> None:
    """Empty the hints' memory (for measurements that must think every time)."""
    with _MEMORY_LOCK:
        _MEMORY.clear()


# ---------------------------------------------------------------- advice


def advise(position: State | PlayerView | object, player: Player | None = None) -> tuple[Move | None, str]:
    """``player``'s move in ``position`` (a State, Game or view) and a few plain sentences saying why.

    The player sees only what a person sees, never the order of the stock, and draws its random
    numbers from what is visible (:meth:`PlayerView.rng`), so the same position gets the same advice.
    Without ``player``, one like the hint's (:func:`hint_player`), thinking without the hint's budget (a
    player keeps what it weighed last: the hint's own player is left untouched). Returns ``(None, sentence)``
    when the game is over.
    """
    view = PlayerView.of(position)
    table = view.table()
    player = hint_player_for(COMPILED) if player is None else player
    index, evaluation = player.deliberate(table.copy(), view.rng())
    if index is None:
        return None, _over(table)
    move = ALL_MOVES[index]
    if isinstance(player, Determinized):
        return move, _determinized_reason(view, table, _as_deliberation(player, table, index), arithmetic=False)
    return move, _reason(view, table, move, player, evaluation)


def hint(position: State | PlayerView | object) -> tuple[Move | None, str]:
    """The Hint button's advice: a move by :func:`hint_player` and a few sentences of why.

    The determinized player thinks within the hint's budget (:func:`deliberate`); where it had nothing to
    weigh (one sensible move), a move the rules' arithmetic explains in full (:func:`_arithmetic_says_it_all`)
    is explained that way. Every legal foundation move not advised is named, with why not.
    """
    view = PlayerView.of(position)
    table = view.table()
    player = _HINT_PLAYER
    if not isinstance(player, Determinized):
        move, why = advise(view, player)
        if move is not None and move.kind != MoveKind.STOCK_TO_WASTE:
            why = " ".join([why, *_unweighed_others(view, table, move.id)])
        return move, why
    thought = _hint_deliberation(view, table, player)
    if thought.move is None:
        return None, _over(table)
    return ALL_MOVES[thought.move], _determinized_reason(view, table, thought, arithmetic=True)


def _over(table: Table) -> str:
    return message("hint.won" if table.score == WIN_SCORE else "hint.lost")


def _arithmetic_says_it_all(view: PlayerView, table: Table, move: Move) -> bool:
    """Is the rules' arithmetic the whole reason for a move nothing else was weighed against?

    A turn that is the only move, the first card put on empty wastes, a card only one foundation takes.
    """
    if move is TURN:
        return len(table.legal()) == 1
    if move.kind == MoveKind.STOCK_TO_WASTE:
        return not any(view.wastes)
    return not _rivals(table, view, move)


def _rivals(table: Table, view: PlayerView, move: Move) -> list[int]:
    """The other foundations (numbered from 1) that need the card a foundation move plays."""
    card = view.pending if move.kind == MoveKind.STOCK_TO_FOUNDATION else view.wastes[move.waste_index][-1]
    k = move.foundation_index
    return [other + 1 for other in FOUNDATION_RANGE if other != k and table.need[other] == card.rank]


def _reason(view: PlayerView, table: Table, move: Move, player: Player, evaluation: Evaluation) -> str:
    """Why ``player`` (not a determinized one) chose ``move``, in its own terms (the arithmetic of a foundation
    move or a turn)."""
    if move.kind == MoveKind.STOCK_TO_WASTE and not isinstance(player, ReverseNeed):
        return message("coach.widget.random" if isinstance(player, RandomPlayer) else "coach.widget.first_fit")
    return _why(view, table, move, player, evaluation)


def _determinized_reason(view: PlayerView, table: Table, thought: Deliberation, *, arithmetic: bool) -> str:
    """Why the determinized player chose ``thought.move``, from what it weighed; then every legal foundation
    move it did not advise, and why not.

    With nothing weighed: turning first when foundation moves are legal says that they can wait; the rules'
    arithmetic where it is the whole reason (with ``arithmetic``, the hint's wording); else that nothing
    else was worth weighing. With no card face down there is nothing to imagine: the solver saw the whole
    game, and says so.
    """
    move = ALL_MOVES[thought.move]
    if not thought.results:
        others = _foundation_moves(thought.legal, thought.move)
        if move is TURN and others:
            return message("hint.turn_first", moves=_list([_doing(view, group) for group in _by_card(others)]))
        if arithmetic and _arithmetic_says_it_all(view, table, move):
            first = _why(view, table, move, _HINT_PLAYER, {})
        else:
            first = message("coach.widget.forced")
        return " ".join([first, *_unweighed_others(view, table, thought.move)])
    parts = [_weighed_reason(thought, table.stock_left)]
    parts += [_why_not(view, table, thought, other) for other in _foundation_moves(thought.legal, thought.move)]
    if thought.stopped:
        parts.append(message("hint.stopped", counted=thought.counted, samples=thought.samples))
    return " ".join(parts)


def _exact(thought: Deliberation, stock_left: int) -> bool:
    """No card face down and every result decided: the solver saw the whole game."""
    return not stock_left and not any(result.unknown for result in thought.results.values())


def _weighed_reason(thought: Deliberation, stock_left: int) -> str:
    """What the determinized player found: the imagined futures won with its move, and how ties were broken."""
    results = thought.results
    chosen = results[thought.move]
    if _exact(thought, stock_left):
        return message("coach.widget.determinized_last_won" if chosen.won else "coach.widget.determinized_last_lost")
    found = message("coach.widget.determinized", won=chosen.won, unknown=chosen.unknown, futures=chosen.futures)
    tied, choices = thought.played_out, len(results)
    if len(tied) <= 1:
        return found + message("coach.widget.determinized_best", choices=choices)
    ending = "coach.widget.determinized_all_tied" if len(tied) == choices else "coach.widget.determinized_tie"
    tie_break = message("coach.widget.tie_break", rollouts=thought.rollouts, wins=tied[thought.move][0])
    return found + message(ending, tied=len(tied), choices=choices) + " " + tie_break


# ---------------------------------------------------------------- the foundation moves not advised


def _foundation_moves(legal: tuple[int, ...], chosen: int) -> list[int]:
    """The legal foundation moves other than ``chosen``, in the engine's order."""
    return [move for move in legal if move != chosen and ALL_MOVES[move].kind in _TO_FOUNDATION]


_TO_FOUNDATION = (MoveKind.STOCK_TO_FOUNDATION, MoveKind.WASTE_TO_FOUNDATION)


def _by_card(moves: list[int]) -> list[list[int]]:
    """Foundation moves grouped by the card they play (the turned card, or a waste pile's top), in order."""
    groups: dict[int, list[int]] = {}
    for move in moves:
        groups.setdefault(ALL_MOVES[move].waste_index if move not in S2F_ID else -1, []).append(move)
    return list(groups.values())


def _card_of(view: PlayerView, move: Move):
    return view.pending if move.kind == MoveKind.STOCK_TO_FOUNDATION else view.wastes[move.waste_index][-1]


def _doing(view: PlayerView, moves: list[int]) -> str:
    """Playing one card to one of its foundations, in words: "moving 5♣ from waste 2 to foundation 1"."""
    first = ALL_MOVES[moves[0]]
    numbers = [ALL_MOVES[move].foundation for move in moves]
    if len(numbers) == 1:
        foundations = message("hint.one_foundation", number=numbers[0])
    else:
        foundations = message("hint.either_foundation", numbers=", ".join(map(str, numbers[:-1])), last=numbers[-1])
    card = _card_of(view, first)
    if first.kind == MoveKind.STOCK_TO_FOUNDATION:
        return message("hint.do.stock", card=card, foundations=foundations)
    return message("hint.do.waste", card=card, waste=first.waste, foundations=foundations)


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else message("hint.list", items=", ".join(items[:-1]), last=items[-1])


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _unweighed_others(view: PlayerView, table: Table, chosen: int) -> list[str]:
    """Why the legal foundation moves other than ``chosen`` (a move chosen without weighing) were not advised.

    Those still legal after ``chosen`` can wait; one that is not (another card of the same rank, for the same
    foundation) lost to the rule's order. The same card's other foundations are the main sentence's business.
    """
    move = ALL_MOVES[chosen]
    others = _foundation_moves(tuple(table.legal()), chosen)
    if move.kind in _TO_FOUNDATION:
        card = _card_of(view, move)
        others = [other for other in others if _card_of(view, ALL_MOVES[other]) is not card]
    if not others:
        return []
    after = _after(table, chosen).legal()
    waiting = [other for other in others if other in after]
    said = []
    if waiting:
        groups = [_doing(view, group) for group in _by_card(waiting)]
        key = "hint.waits.one" if len(groups) == 1 else "hint.waits.many"
        said.append(message(key, moves=_capital(_list(groups))))
    for other in others:
        if other in after:
            continue
        other_move = ALL_MOVES[other]
        card = _card_of(view, other_move)
        if other_move.kind == MoveKind.STOCK_TO_FOUNDATION:
            named = message("hint.card.turned", card=card)
        else:
            named = message("hint.card.waste", card=card, waste=other_move.waste)
        said.append(message("hint.clash", other=_capital(named), foundation=other_move.foundation))
    return said


def _why_not(view: PlayerView, table: Table, thought: Deliberation, other: int) -> str:
    """Why the weighed race did not choose the foundation move ``other``: what it scored against the move chosen,
    and, where they scored the same, how the tie was broken."""
    doing = _doing(view, [other])
    mine = thought.results[thought.move]
    theirs = thought.results[other]  # every legal foundation move is a candidate where the player weighs
    exact = _exact(thought, table.stock_left)
    if exact:
        if mine.won and not theirs.won:
            return message("hint.other.exact_lost", move=doing)
        first = message("hint.other.exact_won" if theirs.won else "hint.other.exact_lost", move=doing)
        return f"{first} {_tie_break(thought, other, exact=True)}"
    if theirs.futures < mine.futures:
        return message("hint.other.dropped", move=doing, won=theirs.won, unknown=theirs.unknown, futures=theirs.futures)
    if theirs.points < mine.points:
        if not theirs.unknown and not mine.unknown:
            return message("hint.other.fewer_wins", move=doing, won=theirs.won, futures=theirs.futures, best=mine.won)
        return message(
            "hint.other.fewer_points",
            move=doing,
            won=theirs.won,
            unknown=theirs.unknown,
            futures=theirs.futures,
            points=_number(theirs.points),
            best=_number(mine.points),
        )
    return f"{message('hint.other.tied', move=doing)} {_tie_break(thought, other, exact=False)}"


def _tie_break(thought: Deliberation, other: int, *, exact: bool) -> str:
    """How the tie between the move chosen and ``other`` (equal points) was broken: the blind play-outs, then
    reverse need's own move, then the engine's order. With the stock spent every play-out is the same game."""
    said = []
    if thought.played_out:
        wins, cards = thought.played_out[other]
        best_wins, best_cards = thought.played_out[thought.move]
        rollouts = thought.rollouts
        if exact:
            wins, best_wins, cards, best_cards = (value // rollouts for value in (wins, best_wins, cards, best_cards))
        prefix = "hint.tie.exact_" if exact else "hint.tie."
        if wins < best_wins:
            return message(prefix + "fewer_wins", rollouts=rollouts, wins=wins, best=best_wins)
        if cards < best_cards:
            return message(prefix + "fewer_cards", rollouts=rollouts, wins=wins, cards=cards, best=best_cards)
        said.append(message(prefix + "same", rollouts=rollouts))
    said.append(message("hint.tie.preferred" if thought.move == thought.preferred else "hint.tie.order"))
    return " ".join(said)


def _number(points: float) -> str:
    """A count that may end in one half, as the reader writes it (``12.5``, ``12,5``)."""
    return f"{points:g}".replace(".", message("coach.widget.decimal"))


def _foundations_text(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return message("hint.one_foundation", number=numbers[0])
    return message("hint.some_foundations", numbers=", ".join(map(str, numbers[:-1])), last=numbers[-1])


def _why(view: PlayerView, table: Table, move: Move, player: Player, evaluation: Evaluation) -> str:
    if move is TURN:
        return message("hint.turn", left=table.stock_left)
    if move.kind != MoveKind.STOCK_TO_WASTE:
        card = view.pending if move.kind == MoveKind.STOCK_TO_FOUNDATION else view.wastes[move.waste_index][-1]
        k = move.foundation_index
        top = view.foundations[k][-1]
        rivals = _rivals(table, view, move)
        if rivals:
            following = NEXT[k][card.rank]
            shown = view.pending is not None and view.pending is not card and view.pending.rank == following
            shown = shown or any(pile and pile[-1].rank == following for pile in view.wastes)
            return message(
                "hint.foundation_tie_shown" if shown else "hint.foundation_tie_behind",
                card=card,
                foundation=k + 1,
                others=_foundations_text(rivals),
                following=rank_name(following),
            )
        return message("hint.foundation", card=card, foundation=k + 1, top=top, step=k + 1)
    card = view.pending
    w = move.waste_index
    pile = view.wastes[w]
    if isinstance(player, MonteCarlo) and w in evaluation:
        wins, total = evaluation[w]
        samples = player.samples
        if not table.stock_left:  # nothing left unseen: every imagined order is the same one
            return message(
                "hint.monte_carlo_last", card=card, waste=w + 1, choices=len(evaluation), score=round(total / samples)
            )
        return message(
            "hint.monte_carlo",
            card=card,
            waste=w + 1,
            samples=samples,
            unseen=table.stock_left,
            choices=len(evaluation),
            wins=wins,
            average=f"{total / samples:.1f}",
        )
    card_soon = table.soonness(card.rank)
    if not pile:
        if not any(view.wastes):
            return message("hint.waste_first", card=card, waste=w + 1)
        return message("hint.waste_empty", card=card, waste=w + 1)
    top = pile[-1]
    top_soon = table.soonness(top.rank)
    values = dict(
        card=card,
        waste=w + 1,
        top=top,
        card_wait=card_soon - 1,
        card_foundation=table.soonest_foundation(card.rank) + 1,
        top_wait=top_soon - 1,
        top_foundation=table.soonest_foundation(top.rank) + 1,
    )
    return message("hint.waste_fit" if top_soon >= card_soon else "hint.waste_bury", **values)
