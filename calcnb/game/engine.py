"""The rules of Calculation as an immutable state and its moves.

A :class:`State` is a value: playing a move returns a new state and never
changes the old one, so undo, search and comparison are trivial. Cards are
interned (:class:`~calcnb.game.cards.Card`), so states compare quickly.

Move notation (case-insensitive on input, canonical on output):

========  ===========================================================
``T``     turn the next stock card face up (it becomes *pending*)
``S>F2``  put the pending card on foundation 2
``S>W3``  put the pending card on waste pile 3
``W3>F2`` move the top card of waste pile 3 to foundation 2
========  ===========================================================

:meth:`State.legal_moves` lists moves in this fixed order: ``T``; then
``S>F1`` .. ``S>F4``; then ``S>W1`` .. ``S>W4``; then ``W1>F1``, ``W1>F2``, ..
``W4>F4`` (waste by waste, foundation by foundation). Only legal moves appear.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sized
from typing import ClassVar, NamedTuple, Protocol

from calcnb.core.pictures import picture
from calcnb.game.cards import Card, check_each_card_once, parse_cards, rank_name
from calcnb.game.deals import parse_deal
from calcnb.game.errors import ASCII_SPACE, CalcnbError, InvalidPosition, ascii_upper, quote
from calcnb.game.rules import (
    COMPLETE,
    FOUNDATIONS,
    NEED_BY_COUNT,
    NEXT,
    RANK_COUNT,
    STOCK_TO_FOUNDATION_IDS,
    STOCK_TO_WASTE_IDS,
    WASTE_TO_FOUNDATION_IDS,
    WASTES,
    WIN_SCORE,
    MoveId,
    MoveKind,
    Status,
    is_complete,
)
from calcnb.i18n import Words, message

_PLAYING, _WON, _LOST = Status.PLAYING, Status.WON, Status.LOST  # bound once: reading a member off its class costs more


class InvalidMove(CalcnbError):
    """Text that can never be a move, whatever the position (``W1>W2``, ``F1>W1``, ``X``)."""


class IllegalMove(CalcnbError):
    """A well-formed move that the rules forbid in this position; nothing was changed."""

    def __init__(self, move: Move, reason: str | Words) -> None:
        # the reason stays unworded (a refusal's key and values): worded in the reader's language when shown
        super().__init__(Words("illegal.prefix", move=move, reason=reason))
        self.move = move

    @property
    def reason(self) -> str:
        """Why the rules forbid the move, in the language in use ("waste 2 is empty")."""
        return str(self.values["reason"])

    def __reduce__(self) -> tuple[type[IllegalMove], tuple[Move, str | Words]]:
        # pickled by its parts, so it crosses process boundaries (parallel studies) intact
        return (IllegalMove, (self.move, self.values["reason"]))


class Refusal(NamedTuple):
    """Why the rules forbid a well-formed move here: a reason ``code`` and the ``values`` its words need.

    The rules decide it once, in :meth:`State.refusal`; each voice puts it into words from the
    catalogue: the engine's notation under ``illegal.<code>`` (:meth:`State.why_illegal`), the
    widgets' plain words under ``widget.why.<code>``. The codes are :data:`REFUSAL_CODES`; the
    values are the cards (``card``), pile numbers (``foundation``, ``waste``) and rank names
    (``need``, ``top``) the reason names.

    >>> from calcnb.game.deals import deal
    >>> start = State.initial(*deal(7))
    >>> start.refusal("S>W1")
    Refusal(code='nothing_pending', values={})
    >>> start.refusal("W2>F1")
    Refusal(code='waste_empty', values={'waste': 2})
    """

    code: str
    values: dict[str, object]


REFUSAL_CODES = (
    "pending_first",
    "stock_empty",
    "nothing_pending",
    "waste_empty",
    "complete",
    "needs_pending",
    "needs_waste",
)
"""Every :attr:`Refusal.code`, in the order the rules check them."""


class Move:
    """One move: ``T``, ``S>Fk``, ``S>Wk`` or ``Wi>Fk``. There are 25; each is a single shared object.

    ``kind`` is a :class:`~calcnb.game.rules.MoveKind` (equal to ``"turn"``, ``"stock_to_foundation"``,
    ``"stock_to_waste"`` or ``"waste_to_foundation"``); ``id`` is the move's
    :class:`~calcnb.game.rules.MoveId` (``ALL_MOVES[move.id] is move``); ``waste`` and ``foundation``
    are 1-based pile numbers or None, ``waste_index`` and ``foundation_index`` 0-based.
    """

    __slots__ = ("foundation", "foundation_index", "id", "kind", "text", "waste", "waste_index")
    _by_text: ClassVar[dict[str, Move]] = {}

    id: MoveId
    kind: MoveKind
    waste: int | None
    foundation: int | None
    text: str

    def __new__(cls, text: str) -> Move:
        return cls.parse(text)

    @classmethod
    def _make(cls, move_id: MoveId) -> Move:
        """The one Move object of the rules core's ``move_id``."""
        move = object.__new__(cls)
        move.id, move.kind, move.text = move_id, move_id.kind, move_id.text
        # zero-based indexes for the hot path, one-based pile numbers for people
        move.waste_index, move.foundation_index = move_id.waste_index, move_id.foundation_index
        move.waste = None if move.waste_index is None else move.waste_index + 1
        move.foundation = None if move.foundation_index is None else move.foundation_index + 1
        cls._by_text[move.text] = move
        return move

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Read move notation (``t``, ``s>f2``, ``W3 > F2``); :class:`InvalidMove` says why not.

        Letters in either case (ASCII only), ASCII digits and ASCII whitespace anywhere.
        """
        if isinstance(text, Move):
            return text
        known = cls._by_text.get(text) if text.__class__ is str else None  # the printed form, at once
        if known is not None:
            return known
        if not isinstance(text, str) or len(text) > _LONGEST_MOVE_TEXT:
            raise InvalidMove(Words("move.bad", text=quote(text)))
        cleaned = ascii_upper(text.translate(_NO_SPACE))
        known = cls._by_text.get(cleaned)
        if known is not None:
            return known
        raise InvalidMove(_why_not_a_move(quote(text), cleaned))

    @classmethod
    def all(cls) -> tuple[Move, ...]:
        """All 25 moves in the documented legal-move order."""
        return ALL_MOVES

    @property
    def source(self) -> str:
        """Where the card comes from: ``"stock"`` (turn and pending card) or ``"W1"`` .. ``"W4"``."""
        return "stock" if self.waste is None or self.kind is MoveKind.STOCK_TO_WASTE else f"W{self.waste}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[str]]:
        return (Move, (self.text,))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict) -> Move:
        return self


_LONGEST_MOVE_TEXT = 64  # "W3>F2" and some spaces; longer text is refused before it is read
_NO_SPACE = str.maketrans(dict.fromkeys(ASCII_SPACE))
_PILE_NUMBERS = {"W": tuple(map(str, range(1, WASTES + 1))), "F": tuple(map(str, range(1, FOUNDATIONS + 1)))}


def _why_not_a_move(text: str, cleaned: str) -> Words:
    """The reason ``cleaned`` (upper-cased, spaces gone) is no move; ``text`` is the input, quoted."""
    parts = cleaned.split(">")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return Words("move.bad", text=text)
    source, target = parts
    kinds = {"S", "W", "F", "T"}
    if source[0] not in kinds or target[0] not in kinds:
        return Words("move.bad", text=text)
    if source[0] == "F":
        return Words("move.from_foundation", text=text)
    if target[0] in ("S", "T"):
        return Words("move.to_stock", text=text)
    if source[0] == "W" and target[0] == "W":
        return Words("move.waste_to_waste", text=text)
    for pile in (source, target):
        if pile[0] in ("W", "F") and pile[1:] not in _PILE_NUMBERS[pile[0]]:
            return Words("move.bad_waste" if pile[0] == "W" else "move.bad_foundation", text=text)
    return Words("move.bad", text=text)


ALL_MOVES: tuple[Move, ...] = tuple(Move._make(move_id) for move_id in MoveId)
"""The 25 moves in the documented order: ``ALL_MOVES[move_id]`` is the Move of a rules-core MoveId."""
# The moves grouped by kind (tuples of Move objects; a move's kind itself is a MoveKind).
TURN = ALL_MOVES[MoveId.T]
STOCK_TO_FOUNDATION = tuple(ALL_MOVES[move_id] for move_id in STOCK_TO_FOUNDATION_IDS)
STOCK_TO_WASTE = tuple(ALL_MOVES[move_id] for move_id in STOCK_TO_WASTE_IDS)
WASTE_TO_FOUNDATION = tuple(tuple(ALL_MOVES[move_id] for move_id in row) for row in WASTE_TO_FOUNDATION_IDS)
_TURNING, _ONTO_FOUNDATION, _ONTO_WASTE = MoveKind.TURN, MoveKind.STOCK_TO_FOUNDATION, MoveKind.STOCK_TO_WASTE

# The hot path marks, for each rank, which foundations take it next as a 4-bit mask (bit k for
# foundation k+1); these give the moves for each mask, already in the documented order.
_STOCK_TO_FOUNDATION_BY_MASK = tuple(
    tuple(STOCK_TO_FOUNDATION[k] for k in range(FOUNDATIONS) if mask >> k & 1) for mask in range(16)
)
_WASTE_TO_FOUNDATION_BY_MASK = tuple(
    tuple(tuple(row[k] for k in range(FOUNDATIONS) if mask >> k & 1) for mask in range(16))
    for row in WASTE_TO_FOUNDATION
)
_RANK_SLOTS = RANK_COUNT + 1  # accepts[rank] for ranks 0 (no card: a complete foundation) to K
_new_tuple = tuple.__new__  # builds a State without the Python-level NamedTuple constructor


class State(NamedTuple):
    """A position: what is on the table, immutable.

    ``foundations``: 4 tuples of cards, bottom first; foundation k starts with rank k.
    ``wastes``: 4 tuples of cards, bottom first, top last.
    ``stock``: the cards still face down, the next to turn first.
    ``pending``: the turned card that must be placed before the next turn, or None.
    """

    foundations: tuple[tuple[Card, ...], ...]
    wastes: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pending: Card | None = None

    # ------------------------------------------------------------ construction

    @classmethod
    def initial(cls, starters: Iterable[Card | str], stock: Iterable[Card | str]) -> State:
        """The opening position: the 4 starters on the foundations and the stock face down."""
        return cls.from_position(
            foundations=[[card] for card in parse_cards(starters)],
            wastes=[[], [], [], []],
            stock=stock,
            pending=None,
        )

    @classmethod
    def from_position(
        cls,
        foundations: Iterable,
        wastes: Iterable = ((), (), (), ()),
        stock: Iterable | str = (),
        pending: Card | str | None = None,
    ) -> State:
        """Any consistent position; cards may be given as text (``"2♦ 4♣"``) or Cards.

        Refused with a ValueError saying why unless the 52 cards appear exactly
        once each and every foundation is a start of its order.
        """
        foundation_piles = _read_piles(foundations, "foundation")
        waste_piles = _read_piles(wastes, "waste")
        if len(foundation_piles) != FOUNDATIONS:
            raise InvalidPosition(
                Words("position.piles", what=Words("position.what_foundations"), count=len(foundation_piles))
            )
        if len(waste_piles) != WASTES:
            raise InvalidPosition(Words("position.piles", what=Words("position.what_wastes"), count=len(waste_piles)))
        stock_cards = _read_pile(stock, "stock")
        pending_card = None if pending is None else Card.parse(pending)
        for number, pile in enumerate(foundation_piles, start=1):
            if not pile:
                raise InvalidPosition(Words("position.empty_foundation", foundation=number, need=rank_name(number)))
            if pile[0].rank != number:
                raise InvalidPosition(
                    Words("position.foundation_start", foundation=number, need=rank_name(number), card=pile[0])
                )
            if len(pile) > COMPLETE:
                raise InvalidPosition(Words("position.foundation_full", foundation=number, card=pile[COMPLETE]))
            for below, card in itertools.pairwise(pile):
                need = NEXT[number - 1][below.rank]
                if card.rank != need:
                    raise InvalidPosition(
                        Words(
                            "position.foundation_order",
                            foundation=number,
                            card=card,
                            top=below,
                            need=rank_name(need),
                        )
                    )
        every_card = [c for pile in foundation_piles for c in pile] + [c for pile in waste_piles for c in pile]
        every_card += list(stock_cards) + ([pending_card] if pending_card is not None else [])
        check_each_card_once(every_card)
        return cls(foundation_piles, waste_piles, stock_cards, pending_card)

    # ------------------------------------------------------------ queries

    def needs(self) -> tuple[int | None, ...]:
        """The rank each foundation needs next, or None where it is complete."""
        return tuple(NEED_BY_COUNT[k][len(pile)] or None for k, pile in enumerate(self.foundations))

    def legal_moves(self) -> list[Move]:
        """Every legal move, in the module's documented order (T, S>F, S>W, W>F)."""
        foundations, wastes, stock, pending = self
        f1, f2, f3, f4 = foundations
        # accepts[rank]: which foundations take that rank next (a complete one "needs" rank 0)
        accepts = [0] * _RANK_SLOTS
        accepts[NEED_BY_COUNT[0][len(f1)]] = 1
        accepts[NEED_BY_COUNT[1][len(f2)]] |= 2
        accepts[NEED_BY_COUNT[2][len(f3)]] |= 4
        accepts[NEED_BY_COUNT[3][len(f4)]] |= 8
        if pending is None:
            moves = [TURN] if stock else []
        else:
            moves = [*_STOCK_TO_FOUNDATION_BY_MASK[accepts[pending.rank]], *STOCK_TO_WASTE]
        w1, w2, w3, w4 = wastes
        if w1:
            moves += _WASTE_TO_FOUNDATION_BY_MASK[0][accepts[w1[-1].rank]]
        if w2:
            moves += _WASTE_TO_FOUNDATION_BY_MASK[1][accepts[w2[-1].rank]]
        if w3:
            moves += _WASTE_TO_FOUNDATION_BY_MASK[2][accepts[w3[-1].rank]]
        if w4:
            moves += _WASTE_TO_FOUNDATION_BY_MASK[3][accepts[w4[-1].rank]]
        return moves

    def refusal(self, move: Move | str) -> Refusal | None:
        """Why ``move`` may not be played here, as a :class:`Refusal` (a code and its values); None when it is legal."""
        move = Move.parse(move)
        kind = move.kind
        if kind == MoveKind.TURN:
            if self.pending is not None:
                return Refusal("pending_first", {"card": self.pending})
            if not self.stock:
                return Refusal("stock_empty", {})
            return None
        if kind == MoveKind.STOCK_TO_WASTE:
            return None if self.pending is not None else Refusal("nothing_pending", {})
        if kind == MoveKind.STOCK_TO_FOUNDATION:
            if self.pending is None:
                return Refusal("nothing_pending", {})
            card = self.pending
        else:
            pile = self.wastes[move.waste_index]
            if not pile:
                return Refusal("waste_empty", {"waste": move.waste})
            card = pile[-1]
        foundation = self.foundations[move.foundation_index]
        if is_complete(len(foundation)):
            return Refusal("complete", {"foundation": move.foundation})
        need = NEED_BY_COUNT[move.foundation_index][len(foundation)]
        if card.rank == need:
            return None
        values = dict(foundation=move.foundation, need=rank_name(need), top=rank_name(foundation[-1].rank), card=card)
        if kind == MoveKind.STOCK_TO_FOUNDATION:
            return Refusal("needs_pending", values)
        return Refusal("needs_waste", {**values, "waste": move.waste})

    def why_illegal(self, move: Move | str) -> str | None:
        """Why ``move`` may not be played here, in game terms (:meth:`refusal` worded); None when it is legal."""
        refusal = self.refusal(move)
        return None if refusal is None else message("illegal." + refusal.code, **refusal.values)

    def is_legal(self, move: Move | str) -> bool:
        """True when ``move`` may be played here."""
        return self.refusal(move) is None

    # ------------------------------------------------------------ playing

    def apply(self, move: Move | str) -> State:
        """The state after ``move``; :class:`IllegalMove` (and no change) when it is not legal."""
        if move.__class__ is not Move:
            move = Move.parse(move)
        foundations, wastes, stock, pending = self
        kind = move.kind
        # Decide legality inline (the common, legal case costs a few lookups); the reason is
        # worked out by why_illegal only when the move is refused.
        if kind is _TURNING:
            if pending is None and stock:
                return _new_tuple(State, (foundations, wastes, stock[1:], stock[0]))
        elif kind is _ONTO_WASTE:
            if pending is not None:
                w = move.waste_index
                new_wastes = list(wastes)
                new_wastes[w] = wastes[w] + (pending,)
                return _new_tuple(State, (foundations, tuple(new_wastes), stock, None))
        else:
            k = move.foundation_index
            foundation = foundations[k]
            need = NEED_BY_COUNT[k][len(foundation)]
            if kind is _ONTO_FOUNDATION:
                if pending is not None and pending.rank == need:
                    new_foundations = list(foundations)
                    new_foundations[k] = (*foundation, pending)
                    return _new_tuple(State, (tuple(new_foundations), wastes, stock, None))
            else:
                w = move.waste_index
                pile = wastes[w]
                if pile and pile[-1].rank == need:
                    new_foundations = list(foundations)
                    new_foundations[k] = (*foundation, pile[-1])
                    new_wastes = list(wastes)
                    new_wastes[w] = pile[:-1]
                    return _new_tuple(State, (tuple(new_foundations), tuple(new_wastes), stock, pending))
        refusal = self.refusal(move)
        raise IllegalMove(move, Words("illegal." + refusal.code, **refusal.values))

    def _apply_legal(self, move: Move) -> State:
        """The state after a move already known to be legal (the hot path of search)."""
        foundations, wastes, stock, pending = self
        kind = move.kind
        if kind is _TURNING:
            return _new_tuple(State, (foundations, wastes, stock[1:], stock[0]))
        if kind is _ONTO_WASTE:
            w = move.waste_index
            new_wastes = list(wastes)
            new_wastes[w] = wastes[w] + (pending,)
            return _new_tuple(State, (foundations, tuple(new_wastes), stock, None))
        k = move.foundation_index
        new_foundations = list(foundations)
        if kind is _ONTO_FOUNDATION:
            new_foundations[k] = foundations[k] + (pending,)
            return _new_tuple(State, (tuple(new_foundations), wastes, stock, None))
        w = move.waste_index
        new_foundations[k] = foundations[k] + (wastes[w][-1],)
        new_wastes = list(wastes)
        new_wastes[w] = wastes[w][:-1]
        return _new_tuple(State, (tuple(new_foundations), tuple(new_wastes), stock, pending))

    # ------------------------------------------------------------ outcome

    @property
    def score(self) -> int:
        """Cards on the foundations, the 4 starters included; 52 means solved."""
        f1, f2, f3, f4 = self.foundations
        return len(f1) + len(f2) + len(f3) + len(f4)

    @property
    def status(self) -> Status:
        """``"won"`` with 52 cards on the foundations; ``"lost"`` when no move remains; else ``"playing"``."""
        if self.score == WIN_SCORE:
            return _WON
        # A pending card can always go on a waste, and with none pending a stock card can be
        # turned: only with both spent does it come down to whether a waste top fits.
        if self.pending is not None or self.stock:
            return _PLAYING
        return _PLAYING if self.legal_moves() else _LOST

    def is_terminal(self) -> bool:
        """True when the game is over (won or lost)."""
        return self.status is not _PLAYING

    def card_moved_by(self, move: Move | str) -> Card | None:
        """The card ``move`` would move (the next stock card for ``T``), or None if there is none."""
        move = Move.parse(move)
        if move.kind == MoveKind.TURN:
            return self.stock[0] if self.stock else None
        if move.kind in (MoveKind.STOCK_TO_FOUNDATION, MoveKind.STOCK_TO_WASTE):
            return self.pending
        pile = self.wastes[move.waste_index]
        return pile[-1] if pile else None

    def unseen_cards(self) -> frozenset[Card]:
        """The cards a player cannot see (the face-down stock) as a set: their order stays hidden."""
        return frozenset(self.stock)

    def explain(self, move: Move | str) -> str:
        """One teaching sentence on what ``move`` does here, in arithmetic terms."""
        move = Move.parse(move)
        refusal = self.refusal(move)
        if refusal is not None:
            raise IllegalMove(move, Words("illegal." + refusal.code, **refusal.values))
        card = self.card_moved_by(move)
        if move.kind == MoveKind.TURN:
            return message("explain.turn", card=card, left=len(self.stock) - 1)
        if move.kind == MoveKind.STOCK_TO_WASTE:
            pile = self.wastes[move.waste_index]
            if pile:
                return message("explain.to_waste_on", card=card, waste=move.waste, under=pile[-1])
            return message("explain.to_waste", card=card, waste=move.waste)
        return explain_foundation_step(card, self.foundations[move.foundation_index], move.foundation)

    def __str__(self) -> str:
        return render_text(self)

    def _repr_png_(self) -> bytes | None:
        """The board as PNG bytes, how a notebook shows a State; drawn by the painter a layer above gives
        (:mod:`calcnb.core.pictures`), so the engine never imports the drawing. None (text only) without one."""
        return picture(self)


def _read_pile(pile: object, kind: str, number: int | None = None) -> tuple[Card, ...]:
    """The cards of one pile (text or an iterable of cards); :class:`InvalidPosition` naming it if not cards.

    ``kind`` names the pile: ``"stock"``, or ``"foundation"`` or ``"waste"`` with its ``number``.
    """
    if pile.__class__ not in (tuple, list, str) and pile is not None and not isinstance(pile, (Card, Iterable)):
        name = message(f"position.pile_{kind}", number=number)
        raise InvalidPosition(Words("position.not_pile", pile=name, value=quote(pile)))
    return parse_cards(pile)


def _read_piles(piles: object, kind: str) -> tuple[tuple[Card, ...], ...]:
    """The piles of ``kind`` (``"foundation"`` or ``"waste"``), each read by :func:`_read_pile`."""
    if isinstance(piles, (str, Card)) or not isinstance(piles, Iterable):
        raise InvalidPosition(Words("position.not_pile", pile=Words(f"position.pile_{kind}s"), value=quote(piles)))
    wanted = FOUNDATIONS if kind == "foundation" else WASTES
    # the piles, and one more to tell there are too many: an endless iterable is not read to its end
    read = tuple(itertools.islice(piles, wanted + 1))
    if len(read) > wanted:
        found = len(piles) if isinstance(piles, Sized) else f"{wanted + 1}+"
        raise InvalidPosition(Words("position.piles", what=Words(f"position.what_{kind}s"), count=found))
    return tuple(_read_pile(pile, kind, number) for number, pile in enumerate(read, 1))


def explain_foundation_step(card: Card, foundation: tuple[Card, ...], number: int) -> str:
    """The arithmetic of ``card`` going onto ``foundation`` (number 1..4), e.g. ``12 + 2 = 14, and 14 wraps``."""
    top = foundation[-1]
    total = top.rank + number
    total_text = f"{total} ({rank_name(total)})" if total in (11, 12, 13) else str(total)
    sentence = message(
        "explain.onto", card=card, top=top, foundation=number, top_value=top.rank, step=number, total=total_text
    )
    if total > RANK_COUNT:
        wrapped = NEXT[number - 1][top.rank]
        sentence += message("explain.wrap", total=total, wrapped=wrapped, name=rank_name(wrapped))
    if is_complete(len(foundation) + 1):
        sentence += message("explain.complete", foundation=number)
    return sentence


class HasState(Protocol):
    """Anything that holds a current position, like :class:`~calcnb.game.game.Game` (named without importing it)."""

    @property
    def state(self) -> State: ...


def as_state(position: State | HasState | str) -> State:
    """The :class:`State` meant by ``position``: a State itself, the current state of a Game, or a deal code's opening.

    The one place that turns "a Game, a State or a deal code" into a State; players, the
    solver and studies all take their argument through it.

    >>> from calcnb.game.deals import deal, format_deal
    >>> as_state(format_deal(*deal(7))) == State.initial(*deal(7))
    True
    """
    if isinstance(position, State):
        return position
    state = getattr(position, "state", None)
    if isinstance(state, State):
        return state
    if isinstance(position, str):
        return State.initial(*parse_deal(position))
    raise TypeError(message("position.not_a_position", kind=type(position).__name__))


def render_text(state: State, *, hints: bool = True) -> str:
    """A plain-text board for terminals and screen readers (no box drawing, one pile a line).

    With ``hints=False`` the title, each foundation's next rank and the marked waste
    tops are left out, so an exercise can show a position without answering itself.
    """
    lines = []
    if hints:
        lines.append(message("board.title", status=message(f"status.{state.status}"), score=state.score))
    lines.append(message("board.foundations"))
    for number, (pile, need) in enumerate(zip(state.foundations, state.needs()), start=1):
        line = "  " + message("board.foundation_line", foundation=number, cards=" ".join(map(str, pile)))
        if hints:
            after = message("board.complete") if need is None else message("board.next", need=rank_name(need))
            line += f"  ({after})"
        lines.append(line)
    lines.append(message("board.wastes"))
    for number, pile in enumerate(state.wastes, start=1):
        if not pile:
            cards = message("board.empty")
        else:
            cards = " ".join(map(str, pile))
            if hints:
                cards += "  (" + message("board.top", card=pile[-1]) + ")"
        lines.append("  " + message("board.waste_line", waste=number, cards=cards))
    lines.append(message("board.stock", count=len(state.stock)))
    if state.pending is None:
        lines.append(message("board.no_pending"))
    else:
        lines.append(message("board.pending", card=state.pending))
    return "\n".join(lines)
