"""The winnability table: decisions, the CSV round trip, resuming, and the live re-check."""

from __future__ import annotations

import gzip

from calcnb import Game
from calcnb.studies.winnability import Decision, decide, read_table, recheck, summary, to_decide, write_table


def test_a_won_decision_carries_a_line_that_wins_through_the_engine():
    decision = decide(6, budget_seconds=5.0)
    assert decision.outcome == "won" and decision.nodes > 0
    game = Game.new(6)
    game.play_many(decision.moves)
    assert game.status == "won"


def test_table_round_trips_through_gzip_and_plain_csv(tmp_path):
    table = {seed: decide(seed, budget_seconds=5.0) for seed in (3, 1, 2)}
    for name in ("t.csv.gz", "t.csv"):
        write_table(table, tmp_path / name)
        back = read_table(tmp_path / name)
        assert list(back) == [1, 2, 3]
        assert {seed: (d.outcome, d.moves) for seed, d in back.items()} == {
            seed: (d.outcome, d.moves) for seed, d in table.items()
        }
    assert gzip.decompress((tmp_path / "t.csv.gz").read_bytes()).startswith(b"seed,outcome,nodes,seconds,moves\n")


def test_a_line_cut_short_by_a_stopped_run_is_skipped_and_decided_rows_win(tmp_path):
    work = tmp_path / "work.csv"
    work.write_text(
        "seed,outcome,nodes,seconds,moves\n"
        "5,unknown,900,0.990,\n"
        "5,won,4000,3.100,T S>W1\n"
        "7,unknown,800,0.980,\n"
        "7,unknown,9000,9.950,\n"
        "8,won,12,0.0"  # cut short: no moves column
    )
    table = read_table(work, tmp_path / "missing.csv.gz")
    assert set(table) == {5, 7}
    assert table[5].outcome == "won" and table[7].seconds == 9.95
    assert summary(table) == {"won": 1, "lost": 0, "unknown": 1}


def test_a_pass_decides_only_what_is_new_or_unknown_after_a_shorter_attempt():
    table = {
        1: Decision(1, "won", 10, 0.01, "T"),
        2: Decision(2, "lost", 10, 0.5, ""),
        3: Decision(3, "unknown", 900, 0.99, ""),
    }
    assert to_decide(table, range(5), 1.0) == [0, 4]
    assert to_decide(table, range(5), 10.0) == [0, 3, 4]


def test_recheck_replays_the_lines_and_catches_a_wrong_one():
    table = {seed: decide(seed, budget_seconds=5.0) for seed in (0, 1)}
    assert recheck(table, sample=2, seed=0) == [(0, True), (1, True)]
    moves = table[1].moves.split()
    table[1] = Decision(1, "won", 0, 0.0, " ".join(moves[:-1]))  # one move short of the win
    table[0] = Decision(0, "won", 0, 0.0, "S>F1")  # illegal at the start
    assert recheck(table, sample=2, seed=0) == [(0, False), (1, False)]
