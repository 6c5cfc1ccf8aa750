"""The rules core against the seed's own statement of the rules (seeds/000, section 03 and 07)."""

import itertools

import pytest

from calcnb.game import rules
from calcnb.game.rules import (
    COMPLETE,
    FOUNDATION_OF,
    KIND_OF,
    NEED_BY_COUNT,
    NEXT,
    NO_RANK,
    ORDERS,
    POSITION,
    STOCK_TO_FOUNDATION_IDS,
    STOCK_TO_WASTE_IDS,
    WASTE_OF,
    WASTE_TO_FOUNDATION_IDS,
    MoveId,
    MoveKind,
    Status,
    is_complete,
    order_of,
    orders,
    positions,
)

# The seed's "Complete foundation orders", copied as printed (A=1, J=11, Q=12, K=13).
SEED_ORDERS = {
    1: "A 2 3 4 5 6 7 8 9 10 J Q K",
    2: "2 4 6 8 10 Q A 3 5 7 9 J K",
    3: "3 6 9 Q 2 5 8 J A 4 7 10 K",
    4: "4 8 Q 3 7 J 2 6 10 A 5 9 K",
}
NAMES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _ranks(text: str) -> tuple[int, ...]:
    return tuple(NAMES.get(token) or int(token) for token in text.split())


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_each_order_is_the_seeds(step):
    assert ORDERS[step - 1] == _ranks(SEED_ORDERS[step])


def test_every_order_visits_each_rank_once_and_ends_in_king():
    for order in ORDERS:
        assert sorted(order) == list(rules.RANK_RANGE)
        assert order[-1] == rules.RANK_COUNT


def test_position_and_next_agree_with_the_orders():
    for k, order in enumerate(ORDERS):
        for place, rank in enumerate(order, start=1):
            assert POSITION[k][rank] == place
        for below, above in itertools.pairwise(order):
            assert NEXT[k][below] == above


def test_position_is_the_modular_inverse():
    for k, step in enumerate(rules.STEPS):
        for rank in rules.RANK_RANGE:
            assert POSITION[k][rank] == (rank * pow(step, -1, 13)) % 13 or 13


def test_seed_worked_example_wraparound():
    # step 2 at Q takes A (12 + 2 = 14 wraps); step 1 at Q needs K
    assert NEXT[1][12] == 1
    assert NEXT[0][12] == 13
    # and K wraps to the step's own first rank
    assert [NEXT[k][13] for k in range(4)] == [1, 2, 3, 4]


def test_need_by_count_and_completeness():
    for k, order in enumerate(ORDERS):
        for count in range(1, COMPLETE):
            assert NEED_BY_COUNT[k][count] == order[count] == NEXT[k][order[count - 1]]
            assert not is_complete(count)
        assert NEED_BY_COUNT[k][COMPLETE] == NO_RANK
        assert is_complete(COMPLETE)
    assert NO_RANK not in rules.RANK_RANGE


def test_small_games_break_where_the_modulus_is_not_prime():
    assert order_of(2, ranks=12) == (2, 4, 6, 8, 10, 12)
    assert len(order_of(4, ranks=16)) == 4
    assert all(len(order) == 7 for order in orders(ranks=7, foundations=3))
    assert positions(orders(ranks=5, foundations=2), ranks=5) == ((0, 1, 2, 3, 4, 5), (0, 3, 1, 4, 2, 5))


def test_move_ids_follow_the_documented_order():
    assert len(MoveId) == 25
    assert [move.value for move in MoveId] == list(range(25))
    assert MoveId.T.kind is MoveKind.TURN and MoveId.T.text == "T"
    for k, move in enumerate(STOCK_TO_FOUNDATION_IDS):
        assert (move.kind, move.foundation_index, move.waste_index, move.text) == (
            MoveKind.STOCK_TO_FOUNDATION,
            k,
            None,
            f"S>F{k + 1}",
        )
    for w, move in enumerate(STOCK_TO_WASTE_IDS):
        assert (move.kind, move.waste_index, move.foundation_index) == (MoveKind.STOCK_TO_WASTE, w, None)
    flat = [move for row in WASTE_TO_FOUNDATION_IDS for move in row]
    assert flat == list(MoveId)[9:]
    for w, row in enumerate(WASTE_TO_FOUNDATION_IDS):
        for k, move in enumerate(row):
            assert (KIND_OF[move], WASTE_OF[move], FOUNDATION_OF[move]) == (MoveKind.WASTE_TO_FOUNDATION, w, k)
            assert move.text == f"W{w + 1}>F{k + 1}"


def test_text_enums_compare_and_print_as_their_text():
    assert Status.WON == "won" and f"{Status.LOST}" == "lost" and str(Status.PLAYING) == "playing"
    assert MoveKind.TURN == "turn" and {Status.WON: 1}["won"] == 1


def test_the_rules_core_imports_nothing_from_calcnb_but_its_base():
    """The rules core stands on its own: of calcnb it imports only the base layer (its text enum)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(rules))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert all(not module.startswith("calcnb") or module.startswith("calcnb.core.") for module in imported)
    assert "calcnb.core.enums" in imported


def test_the_engine_moves_are_the_rules_core_move_set():
    from calcnb.game.engine import ALL_MOVES, STOCK_TO_FOUNDATION, STOCK_TO_WASTE, TURN, WASTE_TO_FOUNDATION, Move

    assert [move.id for move in ALL_MOVES] == list(MoveId)
    assert TURN.id is MoveId.T and TURN.kind is MoveKind.TURN
    assert [move.id for move in STOCK_TO_FOUNDATION] == list(STOCK_TO_FOUNDATION_IDS)
    assert [move.id for move in STOCK_TO_WASTE] == list(STOCK_TO_WASTE_IDS)
    assert [[move.id for move in row] for row in WASTE_TO_FOUNDATION] == [list(row) for row in WASTE_TO_FOUNDATION_IDS]
    for move_id in MoveId:
        move = Move.parse(move_id.text)
        assert move is ALL_MOVES[move_id] and move.kind is KIND_OF[move_id]
        assert (move.waste_index, move.foundation_index) == (move_id.waste_index, move_id.foundation_index)
