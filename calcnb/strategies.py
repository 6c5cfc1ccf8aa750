"""Players of Calculation that see only what a person sees, and the Hint they power.

A person at the table sees the foundations, the waste piles, the turned card,
how many cards are left in the stock and therefore *which* cards are still
unseen, but never the order of the face-down stock. Players here are given
exactly that: a :class:`PlayerView` (built from a position with the stock
replaced by its count and the set of unseen cards). They cannot peek, because
the stock is not there to read.

The ladder, weakest first:

- :class:`RandomPlayer`: any legal move, chosen at random;
- :class:`FirstFit`: any foundation move first, else the first waste pile;
- :class:`ReverseNeed`: keep each waste pile in reverse order of need, so the
  card needed soonest is on top;
- :class:`KingsApart`: reverse need, with one waste pile kept for kings;
- :class:`MonteCarlo`: at each placement, imagine many orders of the unseen
  cards, play each out with a fast policy, and choose the placement that wins
  or scores most.

Games are played by a lean internal loop (ranks as ints, mutable lists) that
makes the very same moves as playing through :class:`~calcnb.engine.State`:
:meth:`Player.play` returns the move list, which replays through
:class:`~calcnb.session.Game` to the same score. :func:`hint` answers the
play widget's Hint button with a move and one plain sentence saying why.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .cards import Card, rank_name
from .deals import Seed, deal
from .engine import (
    ALL_MOVES,
    TURN,
    HasState,
    Move,
    State,
    as_state,
)
from .i18n import message, register
from .rules import (
    FOUNDATION_OF,
    FOUNDATIONS,
    NEED_BY_COUNT,
    NEXT,
    POSITION,
    RANK_COUNT,
    STOCK_TO_FOUNDATION_IDS,
    STOCK_TO_WASTE_IDS,
    WASTE_OF,
    WASTE_TO_FOUNDATION_IDS,
    WASTES,
    WIN_SCORE,
    MoveId,
    MoveKind,
    Status,
)

__all__ = [
    "PLAYERS",
    "FirstFit",
    "KingsApart",
    "MonteCarlo",
    "PlayResult",
    "Player",
    "PlayerView",
    "RandomPlayer",
    "ReverseNeed",
    "hint",
    "hint_player",
]

# ---------------------------------------------------------------- lean tables

# Moves inside the lean loop are the rules core's MoveId numbers, which index ALL_MOVES
# (the engine's documented order): T, S>F1..S>F4, S>W1..S>W4, W1>F1..W4>F4.
# Plain ints, not the enum members: the loop indexes tables with them, which an int does fastest.
_TURN = int(MoveId.T)
_S2F = tuple(map(int, STOCK_TO_FOUNDATION_IDS))
_S2W = tuple(map(int, STOCK_TO_WASTE_IDS))
_W2F = tuple(tuple(map(int, row)) for row in WASTE_TO_FOUNDATION_IDS)
_FOUNDATION_RANGE = range(FOUNDATIONS)
_WASTE_RANGE = range(WASTES)

_FAR = 99  # "not needed by any foundation" (only once every foundation is complete)
# _WAIT[k][c][r]: with c cards on foundation k, how soon it needs rank r (1 = next), or _FAR if it holds r already.
_WAIT = tuple(
    tuple(
        tuple(POSITION[k][r] - c if POSITION[k][r] > c else _FAR for r in range(RANK_COUNT + 1))
        for c in range(RANK_COUNT + 1)
    )
    for k in _FOUNDATION_RANGE
)


class _Table:
    """What a person sees, in lean form: no stock order, only its count and the unseen ranks.

    ``need[k]`` is the rank foundation k needs next (0 once complete), ``count[k]`` its cards;
    ``wastes`` are lists of ranks (top last); ``pending`` the turned rank (0 for none);
    ``unseen[r]`` how many cards of rank r are still face down.
    """

    __slots__ = ("count", "need", "pending", "stock_left", "unseen", "wastes")

    def __init__(
        self, need: list[int], count: list[int], wastes: list[list[int]], pending: int, stock_left: int, unseen: list
    ) -> None:
        self.need = need
        self.count = count
        self.wastes = wastes
        self.pending = pending
        self.stock_left = stock_left
        self.unseen = unseen

    def copy(self) -> _Table:
        return _Table(
            self.need[:],
            self.count[:],
            [pile[:] for pile in self.wastes],
            self.pending,
            self.stock_left,
            self.unseen[:],
        )

    @property
    def score(self) -> int:
        return sum(self.count)

    def legal(self) -> list[int]:
        """Legal moves as ALL_MOVES indexes, in the engine's order."""
        need = self.need
        pending = self.pending
        if pending:
            moves = [_S2F[k] for k in _FOUNDATION_RANGE if need[k] == pending] if pending in need else []
            moves += _S2W
        else:
            moves = [_TURN] if self.stock_left else []
        for w, pile in enumerate(self.wastes):
            if pile and pile[-1] in need:
                top = pile[-1]
                moves += [_W2F[w][k] for k in _FOUNDATION_RANGE if need[k] == top]
        return moves

    def place_on_foundation(self, k: int) -> None:
        """One more card on foundation k: it now needs the next rank of its order (none once complete)."""
        count = self.count
        count[k] += 1
        self.need[k] = NEED_BY_COUNT[k][count[k]]

    def soonness(self, rank: int) -> int:
        """How soon some foundation needs ``rank``: 1 = next, 2 = after one more card, ...; large when never."""
        c0, c1, c2, c3 = self.count
        return min(_WAIT[0][c0][rank], _WAIT[1][c1][rank], _WAIT[2][c2][rank], _WAIT[3][c3][rank])

    def soonest_foundation(self, rank: int) -> int:
        """The foundation (0-based) that needs ``rank`` soonest."""
        count = self.count
        best, where = _FAR, 0
        for k in _FOUNDATION_RANGE:
            distance = POSITION[k][rank] - count[k]
            if 0 < distance < best:
                best, where = distance, k
        return where


def _apply(table: _Table, move: int, stock: list[int], position: int) -> int:
    """Play ``move`` on ``table`` (the runner owns the stock); returns the new stock position."""
    if move == _TURN:
        rank = stock[position]
        table.pending = rank
        table.unseen[rank] -= 1
        table.stock_left -= 1
        return position + 1
    k, w = FOUNDATION_OF[move], WASTE_OF[move]
    if w < 0:  # the pending card onto foundation k
        table.place_on_foundation(k)
        table.pending = 0
    elif k < 0:  # the pending card onto waste w
        table.wastes[w].append(table.pending)
        table.pending = 0
    else:
        table.wastes[w].pop()
        table.place_on_foundation(k)
    return position


def _initial_table(starter_count: Sequence[int], stock: Sequence[int]) -> _Table:
    unseen = [0] * (RANK_COUNT + 1)
    for rank in stock:
        unseen[rank] += 1
    need = [NEED_BY_COUNT[k][count] for k, count in enumerate(starter_count)]
    return _Table(need, list(starter_count), [[], [], [], []], 0, len(stock), unseen)


Evaluation = dict[int, tuple[int, int]]
"""What a player weighed at a placement: ``{waste pile (0-based): (wins, total score)}`` over its trials."""


# ---------------------------------------------------------------- the view


@dataclass(frozen=True)
class PlayerView:
    """A position as a person sees it: everything but the order of the face-down stock.

    ``unseen`` is the *set* of face-down cards; ``stock_count`` how many there are.
    """

    foundations: tuple[tuple[Card, ...], ...]
    wastes: tuple[tuple[Card, ...], ...]
    pending: Card | None
    stock_count: int
    unseen: frozenset[Card]

    @classmethod
    def of(cls, position: State | PlayerView | HasState) -> PlayerView:
        """The view of a :class:`State`, a :class:`~calcnb.session.Game` (its current state) or a view."""
        if isinstance(position, PlayerView):
            return position
        if isinstance(position, str):  # a deal code is an opening, not a position a player is shown
            raise TypeError(message("player.bad_position", kind="str"))
        try:
            state = as_state(position)
        except TypeError:
            raise TypeError(message("player.bad_position", kind=type(position).__name__)) from None
        return cls(state.foundations, state.wastes, state.pending, len(state.stock), state.unseen_cards())

    def needs(self) -> tuple[int | None, ...]:
        """The rank each foundation needs next, or None where it is complete."""
        return tuple(NEED_BY_COUNT[k][len(pile)] or None for k, pile in enumerate(self.foundations))

    def legal_moves(self) -> list[Move]:
        """The legal moves, in the engine's documented order."""
        return [ALL_MOVES[i] for i in self._table().legal()]

    def _table(self) -> _Table:
        unseen = [0] * (RANK_COUNT + 1)
        for card in self.unseen:
            unseen[card.rank] += 1
        return _Table(
            [need or 0 for need in self.needs()],
            [len(pile) for pile in self.foundations],
            [[card.rank for card in pile] for pile in self.wastes],
            self.pending.rank if self.pending is not None else 0,
            self.stock_count,
            unseen,
        )

    def _fingerprint(self) -> str:
        """A stable text of what is visible, to seed a player's choices here reproducibly."""
        parts = [" ".join(map(str, pile)) for pile in (*self.foundations, *self.wastes)]
        parts.append(str(self.pending))
        parts.append(" ".join(sorted(map(str, self.unseen))))
        return "|".join(parts)


# ---------------------------------------------------------------- players


@dataclass(frozen=True)
class PlayResult:
    """One game played by a player: its moves (they replay through Game), score and outcome."""

    moves: tuple[Move, ...]
    score: int
    last_progress: int
    """Cards turned when the last card reached a foundation: where the game stopped moving."""
    needs: tuple[int, ...]
    """The rank each foundation needed at the end (0 for a complete foundation)."""

    @property
    def outcome(self) -> Status:
        """``"won"`` or ``"lost"``."""
        return Status.WON if self.score == WIN_SCORE else Status.LOST


class Player:
    """A player: chooses each move from a :class:`PlayerView` (never from the stock order).

    Subclasses implement ``_next(table, rng)``, returning the index of a legal move in
    ``ALL_MOVES`` or None when there is none.
    """

    name: ClassVar[str] = "player"
    parallel_from: ClassVar[int] = 4000
    """Studies with at least this many deals use a process pool by default."""
    uses_random: ClassVar[bool] = True
    """False for players whose choices never draw a random number (they need no generator)."""

    def choose(self, position: State | PlayerView | object, rng: random.Random | None = None) -> Move | None:
        """The move this player makes in ``position`` (a State, a Game or a view); None when the game is over.

        The stock is replaced by its count and its set of cards before the player looks.
        Without ``rng`` the choice is seeded from what is visible, so it is reproducible.
        """
        view = PlayerView.of(position)
        if rng is None and self.uses_random:
            rng = random.Random(view._fingerprint())
        index = self._next(view._table(), rng)
        return None if index is None else ALL_MOVES[index]

    def play(self, game_or_seed: object, rng: random.Random | None = None) -> PlayResult:
        """Play a whole game from a seed, a Game or a State with the fast loop; the result's moves replay.

        The random generator, when not given, is derived from the class's name and the deal's seed (or its
        code), so the same deal is always played the same way, and players of one class that differ only
        in settings imagine the same things where they face the same position.
        """
        table, stock, key = _start_of(game_or_seed)
        if rng is None:
            rng = random.Random(f"{type(self).name}:{key}")
        moves = self._run(table, stock, rng)
        return PlayResult(tuple(ALL_MOVES[i] for i in moves), table.score, _last_progress(moves), tuple(table.need))

    def _run(self, table: _Table, stock: list[int], rng: random.Random) -> list[int]:
        """The fast loop: ask the player, apply, until no move is left. Only the runner holds the stock."""
        moves: list[int] = []
        position = 0
        next_move = self._next
        while True:
            move = next_move(table, rng)
            if move is None:
                return moves
            position = _apply(table, move, stock, position)
            moves.append(move)

    def _next(self, table: _Table, rng: random.Random) -> int | None:
        raise NotImplementedError

    def _advise(self, table: _Table, rng: random.Random) -> tuple[int | None, Evaluation]:
        """The move :meth:`_next` makes and what it weighed to choose it (empty for players that weigh nothing)."""
        return self._next(table, rng), {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(vars(self).items()))))


def _start_of(game_or_seed: Seed | State | HasState) -> tuple[_Table, list[int], str]:
    """The lean table and stock ranks of a seed, Game or State, and a key naming it for seeding random choices.

    The runner keeps the stock; the table (all a player reads) holds only its count and unseen ranks.
    """
    if isinstance(game_or_seed, (int, str)) and not isinstance(game_or_seed, bool):
        # dealt directly (the same deal Game.new(seed) makes, without re-checking a deal known to be whole)
        _, stock_cards = deal(game_or_seed)
        stock = [card.rank for card in stock_cards]
        return _initial_table([1] * FOUNDATIONS, stock), stock, str(game_or_seed)
    try:
        state = as_state(game_or_seed)
    except TypeError:
        raise TypeError(message("player.bad_game", kind=type(game_or_seed).__name__)) from None
    if state is game_or_seed:
        key = "|".join(" ".join(card.ascii for card in pile) for pile in (*state.foundations, *state.wastes))
        key += f"|{state.pending}|" + " ".join(card.ascii for card in state.stock)
    else:  # a game in progress: named by its seed (or deal code) and how far it has got
        seed = getattr(game_or_seed, "seed", None)
        key = str(seed if seed is not None else (getattr(game_or_seed, "deal_code", None) or ""))
        played = len(getattr(game_or_seed, "history", ()))
        key = f"{key}:{played}" if played else key
    return PlayerView.of(state)._table(), [card.rank for card in state.stock], key


def _last_progress(moves: list[int]) -> int:
    turned = last = 0
    for move in moves:
        if move == _TURN:
            turned += 1
        elif FOUNDATION_OF[move] >= 0:
            last = turned
    return last


class RandomPlayer(Player):
    """Random legal moves: the floor of the ladder, every legal move equally likely."""

    name = "random"

    def _next(self, table: _Table, rng: random.Random) -> int | None:
        moves = table.legal()
        return moves[int(rng.random() * len(moves))] if moves else None


class _FoundationFirst(Player):
    """Shared rule: any foundation move first (pending card, then waste tops), else place, else turn.

    A card that fits a foundation is only ever useful there, so playing it never hurts;
    the one real choice is which foundation when two need the same rank (:meth:`_pick_foundation`).
    """

    uses_random = False

    def _next(self, table: _Table, rng: random.Random) -> int | None:
        move = self._foundation_move(table)
        if move is not None:
            return move
        if table.pending:
            return _S2W[self._place(table, rng)]
        return _TURN if table.stock_left else None

    def _foundation_move(self, table: _Table) -> int | None:
        """The foundation move this player makes first (the pending card, then waste tops), or None."""
        need = table.need
        pending = table.pending
        if pending and pending in need:
            return _S2F[self._pick_foundation(table, pending)]
        for w, pile in enumerate(table.wastes):
            if pile and pile[-1] in need:
                return _W2F[w][self._pick_foundation(table, pile[-1])]
        return None

    def _run(self, table: _Table, stock: list[int], rng: random.Random) -> list[int]:
        """The fast loop with :meth:`_next` written inline: the same moves, in the same order, sooner."""
        moves: list[int] = []
        append = moves.append
        need, count, wastes, unseen = table.need, table.count, table.wastes, table.unseen
        pick, place = self._pick_foundation, self._place
        position, end = 0, table.stock_left
        while True:
            pending = table.pending
            if pending and pending in need:
                # a single foundation that needs the card leaves nothing to choose
                k = need.index(pending) if need.count(pending) == 1 else pick(table, pending)
                count[k] += 1
                need[k] = NEED_BY_COUNT[k][count[k]]
                table.pending = 0
                append(_S2F[k])
                continue
            for w in _WASTE_RANGE:
                pile = wastes[w]
                if pile and pile[-1] in need:
                    rank = pile[-1]
                    # chosen with the card still on show, as _next does
                    k = need.index(rank) if need.count(rank) == 1 else pick(table, rank)
                    pile.pop()
                    count[k] += 1
                    need[k] = NEED_BY_COUNT[k][count[k]]
                    append(_W2F[w][k])
                    break
            else:
                if pending:
                    w = place(table, rng)
                    wastes[w].append(pending)
                    table.pending = 0
                    append(_S2W[w])
                elif position < end:
                    rank = stock[position]
                    position += 1
                    table.pending = rank
                    unseen[rank] -= 1
                    table.stock_left -= 1
                    append(_TURN)
                else:
                    return moves

    def _pick_foundation(self, table: _Table, rank: int) -> int:
        return table.need.index(rank)

    def _place(self, table: _Table, rng: random.Random) -> int:
        raise NotImplementedError


class FirstFit(_FoundationFirst):
    """First fit: any foundation move first (the lowest foundation on a tie), else the first waste pile.

    Every card that does not fit goes onto waste 1, the first pile listed: the naive
    baseline a beginner plays before thinking about the waste piles at all.
    """

    name = "first fit"

    def _place(self, table: _Table, rng: random.Random) -> int:
        return 0


class ReverseNeed(_FoundationFirst):
    """Reverse need: keep each waste pile in reverse order of need, the card needed soonest on top.

    How soon a rank is needed is read from the foundations' positions (``position_in_order``):
    a rank at position p of foundation k, which holds c cards, is needed after p - c - 1 more.
    A card goes on a pile whose top is needed no sooner than it, the tightest such fit counting
    each card already in the pile as one step of slack (short piles keep more cards in reach);
    failing that on an empty pile; failing that it buries the top needed latest (less the pile's height).
    On a tie between foundations, it feeds the one whose next need is on show.
    """

    name = "reverse need"

    def _pick_foundation(self, table: _Table, rank: int) -> int:
        need = table.need
        candidates = [k for k in _FOUNDATION_RANGE if need[k] == rank]
        if len(candidates) == 1:
            return candidates[0]
        visible = {pile[-1] for pile in table.wastes if pile}
        for k in candidates:
            if NEXT[k][rank] in visible:
                return k
        # otherwise the foundation furthest behind: it has the most cards still to come
        return min(candidates, key=lambda k: table.count[k])

    def _place(self, table: _Table, rng: random.Random) -> int:
        return _reverse_need_place(table, _WASTE_RANGE)[0]


def _reverse_need_place(table: _Table, piles: Iterable[int]) -> tuple[int, str, int, int]:
    """Reverse-need placement among ``piles``: (pile, kind, soonness of card, soonness of top).

    ``kind`` is ``"fit"`` (the top is needed no sooner than the card), ``"empty"`` or ``"bury"``.
    A fit costs the gap in soonness plus the pile's height (short piles keep more cards in reach);
    a burial prefers the top needed latest, less the pile's height.
    """
    card = table.soonness(table.pending)
    wastes = table.wastes
    fit = empty = bury = None
    fit_cost = fit_top = bury_top = 0
    bury_value = -1_000
    for w in piles:
        pile = wastes[w]
        if not pile:
            if empty is None:
                empty = w
            continue
        top = table.soonness(pile[-1])
        if top >= card:
            cost = top - card + len(pile)
            if fit is None or cost < fit_cost:
                fit, fit_cost, fit_top = w, cost, top
        else:
            value = top - len(pile)
            if value > bury_value:
                bury, bury_value, bury_top = w, value, top
    if fit is not None:
        return fit, "fit", card, fit_top
    if empty is not None:
        return empty, "empty", card, 0
    return bury, "bury", card, bury_top


class KingsApart(ReverseNeed):
    """Kings apart: reverse need, with one waste pile (the last) kept for kings.

    Every foundation ends in K, so kings are needed last of all; the lore says to give them
    a pile of their own so they never bury a card needed sooner. The other three piles
    follow reverse need; a non-king goes on the kings' pile only when all three would bury.
    """

    name = "kings apart"
    KINGS_PILE = WASTES - 1

    def _place(self, table: _Table, rng: random.Random) -> int:
        if table.pending == RANK_COUNT:
            return self.KINGS_PILE
        pile, kind, _, _ = _reverse_need_place(table, range(self.KINGS_PILE))
        if kind == "bury":
            kings = table.wastes[self.KINGS_PILE]
            if not kings or kings[-1] == RANK_COUNT or table.soonness(kings[-1]) >= table.soonness(table.pending):
                return self.KINGS_PILE
        return pile


class MonteCarlo(ReverseNeed):
    """Monte Carlo: at each placement, imagine ``samples`` orders of the unseen cards, play each out
    with a fast policy (reverse need), and choose the placement that wins or scores most.

    Every candidate pile is tried on the same imagined orders, so the comparison is fair; piles
    that are interchangeable (two empty ones) are tried once. Wins count first, then total score.
    """

    name = "monte carlo"
    parallel_from = 8
    uses_random = True

    def __init__(self, samples: int = 128, policy: Player | None = None) -> None:
        self.samples = samples
        self.policy = policy if policy is not None else ReverseNeed()

    def __repr__(self) -> str:
        return f"MonteCarlo(samples={self.samples})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MonteCarlo) and (self.samples, self.policy) == (other.samples, other.policy)

    def __hash__(self) -> int:
        return hash((MonteCarlo, self.samples, self.policy))

    def __getstate__(self) -> dict:
        return {"samples": self.samples, "policy": self.policy}

    def __setstate__(self, state: dict) -> None:
        self.__init__(**state)

    def _place(self, table: _Table, rng: random.Random) -> int:
        return self.evaluate(table, rng)[0]

    def _advise(self, table: _Table, rng: random.Random) -> tuple[int | None, Evaluation]:
        if table.pending and self._foundation_move(table) is None:
            pile, evaluation = self.evaluate(table, rng)
            return _S2W[pile], evaluation
        return self._next(table, rng), {}

    def evaluate(self, table: _Table, rng: random.Random) -> tuple[int, Evaluation]:
        """The waste pile (0-based) for the pending card, and ``{pile: (wins, total score)}`` over the
        imagined orders for every distinct pile tried (empty when only one pile differs)."""
        candidates = _distinct_piles(table)
        if len(candidates) == 1:
            return candidates[0], {}
        hidden = [rank for rank in range(1, RANK_COUNT + 1) for _ in range(table.unseen[rank])]
        orders = []
        for _ in range(self.samples):
            rng.shuffle(hidden)
            orders.append(hidden[:])
        evaluation = {}
        for w in candidates:
            placed = table.copy()
            placed.wastes[w].append(placed.pending)
            placed.pending = 0
            evaluation[w] = rollouts(placed, orders, self.policy, rng)
        return max(candidates, key=evaluation.__getitem__), evaluation


def rollouts(table: _Table, orders: Iterable[Sequence[int]], policy: Player, rng: random.Random) -> tuple[int, int]:
    """``policy`` plays on from ``table`` once on each imagined order of the face-down cards: (wins, total score).

    ``table`` is left as it was; each order lists the ranks still to be turned, first turned first.
    """
    wins = total = 0
    for order in orders:
        trial = table.copy()
        policy._run(trial, order, rng)
        score = trial.score
        total += score
        wins += score == WIN_SCORE
    return wins, total


def _distinct_piles(table: _Table) -> list[int]:
    """Waste piles that differ as places to put a card: empty piles are interchangeable."""
    seen_empty = False
    piles = []
    for w, pile in enumerate(table.wastes):
        if not pile:
            if seen_empty:
                continue
            seen_empty = True
        piles.append(w)
    return piles


PLAYERS: tuple[type[Player], ...] = (RandomPlayer, FirstFit, ReverseNeed, KingsApart, MonteCarlo)
"""The ladder, weakest first."""


# ---------------------------------------------------------------- the Hint


def hint_player() -> Player:
    """The player behind :func:`hint`: the strongest that answers within a fraction of a second."""
    return _HINT_PLAYER


_HINT_PLAYER: Player = MonteCarlo(samples=128)


def hint(position: State | PlayerView | object) -> tuple[Move | None, str]:
    """A suggested move for ``position`` (a State, Game or view) and one plain sentence saying why.

    The suggestion sees only what a person sees: never the order of the stock.
    Returns ``(None, sentence)`` when the game is over.
    """
    view = PlayerView.of(position)
    table = view._table()
    player = _HINT_PLAYER
    rng = random.Random(hashlib.sha256(view._fingerprint().encode()).hexdigest())
    index, evaluation = player._advise(table.copy(), rng)
    if index is None:
        key = "hint.won" if table.score == WIN_SCORE else "hint.lost"
        return None, message(key)
    move = ALL_MOVES[index]
    return move, _why(view, table, move, player, evaluation)


def _foundations_text(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return message("hint.one_foundation", number=numbers[0])
    return message("hint.some_foundations", numbers=", ".join(map(str, numbers[:-1])), last=numbers[-1])


def _why(view: PlayerView, table: _Table, move: Move, player: Player, evaluation: Evaluation) -> str:
    if move is TURN:
        return message("hint.turn", left=table.stock_left)
    if move.kind != MoveKind.STOCK_TO_WASTE:
        card = view.pending if move.kind == MoveKind.STOCK_TO_FOUNDATION else view.wastes[move.waste_index][-1]
        k = move.foundation_index
        top = view.foundations[k][-1]
        rivals = [other + 1 for other in _FOUNDATION_RANGE if other != k and table.need[other] == card.rank]
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


register(
    {
        "en": {
            "player.bad_position": "a player needs a State, a Game or a PlayerView; got {kind}",
            "player.bad_game": "play needs a seed, a Game or a State; got {kind}",
            "hint.won": "The game is won: there is nothing left to do.",
            "hint.lost": "No move is left: the game is lost.",
            "hint.turn": "Turn the next card ({left} left): no card on show fits a foundation.",
            "hint.foundation": (
                "Play {card} onto {top} on foundation {foundation}: it is the rank that foundation needs "
                "next, and a card on a foundation is never wasted."
            ),
            "hint.one_foundation": "foundation {number}",
            "hint.some_foundations": "foundations {numbers} and {last}",
            "hint.foundation_tie_shown": (
                "Play {card} on foundation {foundation} rather than {others}: foundation {foundation} then "
                "needs {following}, which is on show."
            ),
            "hint.foundation_tie_behind": (
                "Play {card} on foundation {foundation} rather than {others}: it holds the fewest cards, "
                "so it has the most still to come."
            ),
            "hint.waste_first": "Put {card} on waste {waste}: every waste pile is empty, so any one will do.",
            "hint.waste_empty": (
                "Put {card} on the empty waste {waste}: on any other pile it would bury a card needed sooner."
            ),
            "hint.waste_fit": (
                "Put {card} on waste {waste}, on top of {top}: {card} is needed sooner (foundation "
                "{card_foundation} wants it after {card_wait} more cards) than {top} (foundation "
                "{top_foundation}, after {top_wait}), so the pile stays in reverse order of need."
            ),
            "hint.waste_bury": (
                "Put {card} on waste {waste}, on top of {top}: every pile would bury a card needed sooner, "
                "and {top} is needed latest (foundation {top_foundation}, after {top_wait} more cards)."
            ),
            "hint.monte_carlo_last": (
                "Put {card} on waste {waste}: no card is left to turn, and of the {choices} choices this one "
                "ends with the most cards on the foundations ({score})."
            ),
            "hint.monte_carlo": (
                "Put {card} on waste {waste}: over {samples} imagined orders of the {unseen} unseen cards "
                "this wins {wins} of them and averages {average} cards on the foundations, the best of "
                "{choices} choices."
            ),
        },
        "pt": {
            "player.bad_position": "um jogador precisa de um State, um Game ou uma PlayerView; recebi {kind}",
            "player.bad_game": "play precisa de uma semente, um Game ou um State; recebi {kind}",
            "hint.won": "O jogo está ganho: não há mais nada a fazer.",
            "hint.lost": "Não resta nenhuma jogada: o jogo está perdido.",
            "hint.turn": "Vire a próxima carta (restam {left}): nenhuma carta à vista serve numa base.",
            "hint.foundation": (
                "Jogue {card} sobre {top} na base {foundation}: é o valor de que essa base precisa a "
                "seguir, e uma carta numa base nunca se perde."
            ),
            "hint.one_foundation": "a base {number}",
            "hint.some_foundations": "as bases {numbers} e {last}",
            "hint.foundation_tie_shown": (
                "Jogue {card} na base {foundation} e não n{others}: a base {foundation} passa a precisar "
                "de {following}, que está à vista."
            ),
            "hint.foundation_tie_behind": (
                "Jogue {card} na base {foundation} e não n{others}: é a que tem menos cartas, e portanto "
                "a que tem mais por vir."
            ),
            "hint.waste_first": "Ponha {card} no descarte {waste}: todos os descartes estão vazios, qualquer um serve.",
            "hint.waste_empty": (
                "Ponha {card} no descarte vazio {waste}: em qualquer outro descarte taparia uma carta "
                "necessária mais cedo."
            ),
            "hint.waste_fit": (
                "Ponha {card} no descarte {waste}, sobre {top}: {card} é necessária mais cedo (a base "
                "{card_foundation} quere-a daqui a {card_wait} cartas) do que {top} (base {top_foundation},"
                " daqui a {top_wait}), e assim o descarte fica em ordem inversa de necessidade."
            ),
            "hint.waste_bury": (
                "Ponha {card} no descarte {waste}, sobre {top}: todos os descartes tapariam uma carta "
                "necessária mais cedo, e {top} é a necessária mais tarde (base {top_foundation}, daqui a "
                "{top_wait} cartas)."
            ),
            "hint.monte_carlo_last": (
                "Ponha {card} no descarte {waste}: já não há cartas para virar, e das {choices} escolhas esta "
                "é a que acaba com mais cartas nas bases ({score})."
            ),
            "hint.monte_carlo": (
                "Ponha {card} no descarte {waste}: em {samples} ordens imaginadas das {unseen} cartas por "
                "ver, esta escolha ganha {wins} delas e põe em média {average} cartas nas bases, a melhor "
                "de {choices} escolhas."
            ),
        },
    }
)
