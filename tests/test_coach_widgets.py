"""The coach's controls on the play board: Analyse shows each move's chance; Watch plays, explains and stops."""

from __future__ import annotations

import re
import warnings
from html import unescape

import ipywidgets as widgets
import pytest
from traitlets import TraitError

from calcnb import CoachedBoard, Game
from calcnb.i18n import set_language
from calcnb.players.coach import describe_move
from calcnb.players.ladder import ReverseNeed
from calcnb.solver import COMPILED
from calcnb.ui.coach import CoachPanel, coach, player_label, watch_default, watch_players
from calcnb.ui.play import PlayBoard
from calcnb.ui.view import COACH_TEMPLATE


def _board_at(seed: int, moves: int) -> PlayBoard:
    game = Game.new(seed)
    game.play_many(ReverseNeed().play(seed).moves[:moves])
    return PlayBoard(game)


def test_coach_sits_beside_the_board():
    board = PlayBoard(seed=3)
    panel = coach(board)
    assert isinstance(panel, CoachPanel) and board.beside == [panel]


def test_the_play_page_opens_four_widget_models():
    # The board and its coach are one widget each (and the Layout every DOM widget has): a page used to open
    # 171 models, a Button being three of them, and a visitor's page paid for opening and syncing each one.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ipywidgets 8 keeps Widget.widgets for this use
        before = set(widgets.Widget.widgets)
        board = CoachedBoard(seed=3)
        opened = [widgets.Widget.widgets[model] for model in set(widgets.Widget.widgets) - before]
    assert sorted(type(widget).__name__ for widget in opened) == ["CoachPanel", "CoachedBoard", "Layout", "Layout"]
    assert {board, board.coach} <= set(opened)


def test_the_play_page_reaches_the_page_in_few_messages(monkeypatch):
    # Each message is a round trip between the class server's threads and a re-render in the page: the board's
    # first state (its classes, buttons, rows, message and picture) goes with its opening or in one update, not
    # one message for each part.
    import ipywidgets.comm
    from comm.base_comm import BaseComm

    sent: list[tuple[str, str]] = []

    class Recorded(BaseComm):
        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            method = (data or {}).get("method", "open") if msg_type == "comm_msg" else msg_type
            sent.append((self.comm_id, method))

    monkeypatch.setattr(ipywidgets.comm, "create_comm", lambda **kwargs: Recorded(**kwargs))
    board = CoachedBoard(seed=3)
    assert board.comm is not None and board.coach.comm is not None
    for view in (board, board.coach):
        said = [method for comm_id, method in sent if comm_id == view.comm.comm_id]
        assert said[0] == "comm_open"
        assert "jupyter-widgets" in view._dom_classes
        assert said.count("update") <= 2, said  # the first state; the board's one more: the coach beside it
    assert len(sent) <= 8, sent


def test_the_coachs_buttons_and_choices_are_drawn_by_its_template():
    panel = CoachedBoard(seed=3).coach
    for name in ("analyse", "watch", "stop"):
        assert panel.controls[name]["cls"] == f"calcnb-coach-{name}"  # the class pages find each button by
        assert f"press('{name}')" in COACH_TEMPLATE
    assert '<select v-model="player"' in COACH_TEMPLATE and '<select v-model="pace"' in COACH_TEMPLATE
    assert '<div class="calcnb-coach-chart" v-html="chart"></div>' in COACH_TEMPLATE


def test_the_page_chooses_a_player_and_a_pace_among_those_offered():
    board = PlayBoard(seed=4)
    panel = CoachPanel(board)
    panel.set_state({"player": "first fit", "pace": 0.5})  # as the page sends a choice
    assert (panel.player, panel.pace) == ("first fit", 0.5)
    panel.set_state({"pace": 2})  # a whole number of seconds comes as an int
    assert panel.pace == 2.0
    for hostile in ({"player": "nobody"}, {"player": None}, {"pace": 0.0}, {"pace": -1}):
        with pytest.raises(TraitError):
            panel.set_state(hostile)
    assert (panel.player, panel.pace) == ("first fit", 2.0)
    panel._handle_event(None, {"event": "press", "data": "watch"}, [])  # the Watch button in the page
    assert panel.watching and panel.buttons["stop"].tooltip
    panel._handle_event(None, {"event": "press", "data": "stop"}, [])
    panel._thread.join(timeout=30)
    assert not panel.watching
    assert panel.buttons["stop"].disabled and not panel.buttons["watch"].disabled


def _rows(chart: str) -> list[tuple[str, str, str]]:
    """The chart's rows as (tooltip, words, number), in the order shown."""
    found = re.findall(r"<tr title='([^']*)'><th[^>]*>([^<]*)</th>.*?<td[^>]*>([^<]*)</td></tr>", chart)
    return [tuple(unescape(part) for part in row) for row in found]


def test_the_play_board_students_use_carries_the_coach():
    board = CoachedBoard(seed=3)
    assert isinstance(board, PlayBoard) and isinstance(board.coach, CoachPanel)
    assert board.beside == [board.coach] and board.coach.board is board
    assert [board.coach.buttons[name].description for name in ("analyse", "watch", "stop")] == [
        "Analyse",
        "Watch",
        "Stop",
    ]
    assert board.coach.buttons["stop"].disabled  # nothing to stop yet


def test_analyse_shows_every_legal_move_as_a_bar_in_plain_words():
    board = _board_at(0, 80)
    panel = CoachPanel(board, seconds=0.0)
    panel.press("analyse")
    rows = _rows(panel.chart)
    legal = board.game.legal_moves()
    assert len(rows) == len(legal) == len(panel.chances)
    assert sorted(words for _, words, _ in rows) == sorted(describe_move(move) for move in legal)
    for (tooltip, words, number), chance in zip(rows, panel.chances, strict=True):
        assert tooltip == str(chance) and words == describe_move(chance.move)
        assert number == f"about {round(100 * chance.chance)} in 100"
    assert f"the same {panel.chances[0].futures} imagined orders" in panel.chart
    assert board.game.history == tuple(ReverseNeed().play(0).moves[:80])  # analysing plays nothing


def test_the_chart_goes_away_when_the_position_changes():
    board = _board_at(0, 80)
    panel = coach(board)
    panel.seconds = 0.0
    panel.analyse()
    assert panel.chances and panel.chart
    move = panel.chances[0].move
    board.press(move.text)
    assert board.game.history[-1] == move
    assert panel.chart == "" and panel.chances == []
    assert "press Analyse again" in panel.said


def test_watch_plays_the_chosen_players_moves_with_a_reason_each():
    board = PlayBoard(seed=4)
    panel = CoachPanel(board)
    panel.player = "reverse need"
    expected = ReverseNeed().play(4).moves
    for count in range(1, 13):
        assert panel.step()
        assert board.game.history == expected[:count]
        assert panel.said.startswith("reverse need chose to")
    assert board.message  # the board's own line says what the move did


def test_watch_runs_until_stopped_and_stops_at_the_end():
    board = PlayBoard(seed=4)
    panel = CoachPanel(board)
    panel.player = "first fit"
    panel.pace = 0.2
    panel.press("watch")
    assert panel.buttons["watch"].disabled and not panel.buttons["stop"].disabled
    panel.press("stop")
    panel._thread.join(timeout=30)
    assert not panel._thread.is_alive() and not panel.watching
    assert not panel.buttons["watch"].disabled and panel.buttons["stop"].disabled
    played = len(board.game.history)
    while panel.step():
        pass
    assert board.game.status != "playing" and len(board.game.history) > played
    assert not panel.step()


def test_every_player_of_the_ladder_can_be_watched_and_says_why():
    ladder = ["random", "first fit", "reverse need", "kings apart", "monte carlo", "determinized"]
    # the hint's player comes last where it is not one of the ladder: the strongest blind player, compiled
    assert list(watch_players()) == ladder + (["determinized with 64 orders"] if COMPILED else [])
    board = _board_at(2, 60)
    panel = CoachPanel(board)
    for name in ("random", "first fit", "kings apart", "determinized"):
        panel.player = name
        if board.game.state.pending is None:
            panel.step()  # a turn
        assert panel.step()
        assert panel.said.startswith(f"{name} chose to")


def test_watch_plays_moves_at_the_pace_until_stop_is_pressed():
    board = PlayBoard(seed=8)
    panel = CoachPanel(board)
    panel.player = "reverse need"
    panel.pace = 0.2
    panel.watch()
    while len(board.game.history) < 3:  # moves happen on their own
        panel._thread.join(timeout=0.05)
        assert panel.watching
    panel.stop()
    panel._thread.join(timeout=30)
    stopped = board.game.history
    assert stopped == ReverseNeed().play(8).moves[: len(stopped)]
    panel._thread.join(timeout=0.5)
    assert board.game.history == stopped  # nothing more after Stop


def test_controls_speak_portuguese():
    set_language("pt")
    try:
        board = CoachedBoard(seed=1)
        panel = board.coach
        assert panel.buttons["analyse"].description == "Analisar"
        assert panel.buttons["watch"].description == "Ver jogar"
        assert panel.player_caption == "Jogador" and panel.pace_caption == "Segundos por jogada"
        assert [label for label, _ in panel.player_options] == [player_label(name) for name in watch_players()]
        assert "necessidade inversa" in dict(panel.player_options)
        assert [label for label, _ in panel.pace_options] == ["0,2 s", "0,5 s", "1 s", "2 s", "3 s"]
        panel.player = "reverse need"
        panel.step()
        assert panel.said.startswith("necessidade inversa escolheu")
        panel.seconds = 0.0
        panel.analyse()
        rows = _rows(panel.chart)
        assert rows and all(number.startswith("cerca de ") and number.endswith(" em 100") for _, _, number in rows)
        assert "imagined" not in panel.chart and "futuros" in rows[0][0]
    finally:
        set_language("en")


def test_the_board_changes_language_with_its_coach():
    board = CoachedBoard(seed=2)
    set_language("pt")
    try:
        board.refresh()
        assert board.coach.buttons["stop"].description == "Parar"
        assert board.coach.player == watch_default()  # the choice survives the new labels
    finally:
        set_language("en")
    board.refresh()
    assert board.coach.buttons["stop"].description == "Stop"


@pytest.mark.slow
def test_watching_determinized_explains_a_tie_by_its_blind_play_outs():
    board = _board_at(0, 6)
    panel = CoachPanel(board)
    panel.player = "determinized"
    player = panel.players["determinized"]
    seen = set()
    for _ in range(60):  # early in a game most real choices are ties on the solver's evidence
        assert panel.step()
        tied, choices = len(player.last_played_out), len(player.last_results)
        said = unescape(panel.said)
        if tied <= 1:
            assert "To choose among them" not in said
            continue
        wins = player.last_played_out[board.game.history[-1].id][0]
        assert wins == max(won for won, _ in player.last_played_out.values())
        assert f"played each one out on {player.rollouts} more imagined orders" in said
        assert f"after this move it won {wins} of those {player.rollouts} games, no fewer than after any other" in said
        if tied < choices:
            assert f"; {tied} of the {choices} choices did as well." in said
        else:
            assert f", and all {choices} choices did as well." in said
        seen.add(tied < choices)
        if len(seen) == 2:
            break
    assert seen == {True, False}  # some of the choices tied, and all of them


def test_watch_starts_on_the_strongest_blind_player_where_the_solver_is_compiled():
    panel = CoachedBoard(seed=4).coach
    assert panel.player == ("determinized with 64 orders" if COMPILED else "reverse need")
    assert player_label(panel.player) in dict(panel.player_options)
    set_language("pt")
    try:
        assert player_label("determinized with 64 orders") == "determinizado com 64 ordens"
    finally:
        set_language("en")
