"""The claims' verdicts follow the intervals; the stored study and the table are read as they are."""

from __future__ import annotations

from calcnb.i18n import set_language
from calcnb.players.blind import MOST_ORDERS, Determinized
from calcnb.players.ladder import FirstFit, RandomPlayer
from calcnb.studies.folklore import (
    ALONE,
    CEILING,
    FRESH,
    FRESH_ALONE,
    FRESH_SET_ASIDE,
    SET_ASIDE,
    STUDY,
    StoredPlayer,
    ThinkingAlone,
    Winnability,
    claims,
    compare_players,
    nine_in_ten,
    same_game,
    score_comment,
    stored_study,
    study_rows,
    thinking_alone,
    verdict,
    winnability,
    within_a_second,
)
from calcnb.studies.measure import study
from calcnb.studies.winnability import Decision


def _player(wins: int, games: int) -> StoredPlayer:
    return StoredPlayer("p", tuple(range(games)), wins, 0.5, 1.0)


def test_verdict_is_unclear_whenever_the_interval_holds_both_sides():
    assert verdict((0.81, 0.9), 0.8) == "above"
    assert verdict((0.5, 0.79), 0.8) == "below"
    assert verdict((0.3, 0.95), 0.8) == "unclear"
    # the same rate on few and on many deals: only the many can tell
    assert verdict(_player(3, 4).interval, 0.8) == "unclear"
    assert verdict(_player(75, 100).interval, 0.8) == "unclear"
    assert verdict(_player(600, 1000).interval, 0.8) == "below"
    assert verdict(_player(900, 1000).interval, 0.8) == "above"


def test_claims_say_too_few_deals_when_the_sample_cannot_carry_the_verdict():
    table = Winnability(won=8, lost=0, unknown=0, lost_seeds=())
    few = claims(_player(3, 4), _player(1, 4), table)
    assert few[0].startswith("**Too few deals to tell.**") and few[1].startswith("**Too few deals to tell.**")
    assert "all 8 of 8 deals" in few[2] and "not ruled out" in few[2]
    many = claims(_player(950, 1000), _player(100, 1000), Winnability(97, 1, 2, (42,)))
    assert many[0].startswith("**Holds.**") and many[1].startswith("**Less than that.**")
    assert "seeds 42" in many[2] and many[2].startswith("**False.**")
    set_language("pt")
    try:
        assert claims(_player(3, 4), _player(1, 4), table)[0].startswith("**Poucos jogos para decidir.**")
    finally:
        set_language("en")


def test_nine_in_ten_follows_the_interval_and_says_too_few_when_it_holds_90_percent():
    assert nine_in_ten(_player(860, 1000)).startswith("**Not nine in ten.** p wins 86.0% (95% interval 83.7–88.0%")
    assert nine_in_ten(_player(960, 1000)).startswith("**Nine in ten, and more.**")
    few = nine_in_ten(_player(29, 32))
    assert few.startswith("**Too few deals to tell** whether p wins nine in ten") and "32 deals" in few
    set_language("pt")  # the autouse fixture in conftest.py puts English back
    assert nine_in_ten(_player(860, 1000)).startswith("**Não chega a nove em dez.**")


def test_winnability_counts_the_table_and_names_lost_seeds():
    table = {
        1: Decision(1, "won", 1, 0.1, "T"),
        2: Decision(2, "lost", 1, 0.1, ""),
        3: Decision(3, "unknown", 1, 1.0, ""),
    }
    figures = winnability(table)
    assert (figures.won, figures.lost, figures.unknown, figures.lost_seeds, figures.seeds) == (1, 1, 1, (2,), 3)


def test_stored_study_pairs_players_on_the_seeds_all_of_them_played(tmp_path):
    path = tmp_path / "study.csv"
    path.write_text(
        "player,seed,outcome,score,decisions,choices,think_median,think_p95,think_seconds\n"
        "a,1,won,52,10,5,0.5,0.9,3.0\n"
        "b,1,lost,40,10,5,0.1,0.2,1.0\n"
        "a,2,won,52,10,5,0.7,1.1,3.0\n"
    )
    paired = stored_study(path)
    assert paired["a"].seeds == (1,) and paired["a"].wins == 1 and paired["b"].wins == 0
    alone = stored_study(path, paired=False)
    assert alone["a"].games == 2 and alone["a"].think_median == 0.6
    assert stored_study(tmp_path / "missing.csv") == {}
    second = stored_study(path, paired=False, seeds=range(2, 5))
    assert list(second) == ["a"] and second["a"].seeds == (2,) and second["a"].think_median == 0.7


def test_no_stored_game_was_played_on_the_fresh_set_aside_deals():
    # the next strongest player's rate is measured there once: no setting may be chosen on them first
    assert len(FRESH_SET_ASIDE) == 500 and not set(FRESH_SET_ASIDE) & set(SET_ASIDE)
    for path in (STUDY, CEILING, ALONE):
        played = {seed for player in stored_study(path, paired=False).values() for seed in player.seeds}
        assert played and not played & set(FRESH_SET_ASIDE)


def test_the_fresh_study_plays_every_fresh_deal_once_and_nothing_else():
    # the fresh deals' player and the next-card ceiling, each on all 500 and only on them
    fresh = stored_study(FRESH, paired=False)
    assert set(fresh) == {Determinized(samples=MOST_ORDERS).name, "next card"}
    for player in fresh.values():
        assert player.seeds == tuple(FRESH_SET_ASIDE)
    rows = study_rows(FRESH)
    assert len(rows) == len({(row["player"], row["seed"]) for row in rows}) == 2 * len(FRESH_SET_ASIDE)
    # each game played again alone made the stored game's moves, on a fresh deal
    stored = {(row["player"], row["seed"]): row for row in rows}
    alone = study_rows(FRESH_ALONE)
    assert alone and all(same_game(row, stored[row["player"], row["seed"]]) for row in alone)
    assert set(thinking_alone(FRESH_ALONE, FRESH)) == {Determinized(samples=MOST_ORDERS).name}


def test_the_set_aside_deals_are_none_a_setting_was_chosen_on():
    assert len(SET_ASIDE) == 500
    stored = stored_study(paired=False)
    chosen_on = {*stored["plain determinized"].seeds, *stored_study(CEILING)["next card"].seeds}
    assert chosen_on and not chosen_on & set(SET_ASIDE)
    measured = stored_study(paired=False, seeds=SET_ASIDE)
    assert measured and all(set(player.seeds) <= set(SET_ASIDE) for player in measured.values())


def test_score_comment_is_computed_from_the_studies():
    results = [study(RandomPlayer(), range(60)), study(FirstFit(), range(60))]
    text = score_comment(results)
    assert f"{results[0].mean_score:.1f}" in text and f"{results[1].mean_score:.1f}" in text
    surprise = results[0].mean_score > results[1].mean_score
    assert text.startswith("A surprise") == surprise


def _paired(name: str, seeds: range, won: set[int]) -> StoredPlayer:
    return StoredPlayer(name, tuple(seeds), len(won & set(seeds)), 0.5, 1.0, frozenset(won & set(seeds)))


def test_two_players_are_told_apart_only_by_the_deals_one_won_and_the_other_lost():
    both = set(range(0, 80))
    # 9 against 8 of the deals that differ: no telling
    a, b = _paired("a", range(100), both | set(range(80, 89))), _paired("b", range(100), both | set(range(89, 97)))
    said = compare_players(a, b)
    assert "On the 100 deals both played, a won 9 that b lost, and lost 8 that b won." in said
    assert "**Too few deals to tell which is stronger**" in said
    # 20 against 2: a is stronger, and the other way round b is
    a, b = _paired("a", range(120), both | set(range(80, 100))), _paired("b", range(120), both | {100, 101})
    assert "**a is stronger**" in compare_players(a, b) and "**a is stronger**" in compare_players(b, a)
    # only the deals both played count
    late = _paired("late", range(95, 130), both | set(range(80, 100)))
    assert "On the 25 deals both played, late won 5 that b lost, and lost 2 that b won." in compare_players(late, b)
    set_language("pt")
    try:
        assert "**Poucos jogos para dizer qual é mais forte**" in compare_players(late, b)
    finally:
        set_language("en")


def test_the_stored_study_knows_which_deals_each_player_won():
    stored = stored_study()
    for player in stored.values():
        assert len(player.won_seeds) == player.wins and player.won_seeds <= set(player.seeds)


_HEADER = "player,seed,outcome,score,decisions,choices,think_median,think_p95,think_seconds\n"


def test_thinking_alone_counts_only_the_games_that_made_the_stored_moves(tmp_path):
    stored, alone = tmp_path / "study.csv", tmp_path / "alone.csv"
    stored.write_text(_HEADER + "".join(f"a,{seed},won,52,120,60,{1 + seed / 10},5.0,90.0\n" for seed in range(8)))
    rows = [f"a,{seed},won,52,120,60,{0.5 + seed / 10},4.0,70.0\n" for seed in range(7)]
    rows.append("a,7,lost,40,120,60,0.1,1.0,20.0\n")  # not the stored game: left out
    alone.write_text(_HEADER + "".join(rows))
    found = thinking_alone(alone, stored)["a"]
    assert found.games == 7 and found.median == 0.8 and found.stored_median == 1.3
    assert found.interval == (0.5, 1.1)  # 7 values: the smallest and the largest hold the median at 95%
    assert thinking_alone(tmp_path / "missing.csv", stored) == {}


def test_within_a_second_follows_the_interval_of_the_median():
    def alone(low: float, high: float) -> ThinkingAlone:
        return ThinkingAlone("p", 40, (low + high) / 2, (low, high), 1.2)

    assert within_a_second(alone(0.7, 0.95)).startswith("**Within a second.**")
    assert within_a_second(alone(1.01, 1.3)).startswith("**Over a second.**")
    said = within_a_second(alone(0.8, 1.1))
    assert said.startswith("**Too few games to tell**") and "0.80–1.10 s" in said and "40 set-aside" in said
    set_language("pt")  # the autouse fixture in conftest.py puts English back
    assert within_a_second(alone(0.8, 1.1)).startswith("**Poucos jogos para dizer**")


def test_the_games_played_alone_are_set_aside_games_the_study_holds_with_the_same_moves():
    with ALONE.open(encoding="utf-8") as handle:
        rows = [line.split(",") for line in handle.read().splitlines()[1:]]
    with STUDY.open(encoding="utf-8") as handle:
        stored = {tuple(line.split(",")[:2]): line.split(",") for line in handle.read().splitlines()[1:]}
    assert len(rows) >= 20
    for row in rows:
        assert int(row[1]) in SET_ASIDE
        assert row[2:6] == stored[row[0], row[1]][2:6]  # outcome, score, decisions, choices
    measured = thinking_alone()
    assert {row[0] for row in rows} == set(measured)
    assert sum(player.games for player in measured.values()) == len(rows)
