"""The play page (notebooks/play.ipynb served by Voila and by the class server, code hidden), played as a person
plays it.

The coach sits beside the board: Analyse charts every legal move's chance on screen, and Watch
plays moves on its own until Stop.

At a classroom laptop's screen (1366 x 768) the whole board and every control are on screen at once;
a game is played to its end by clicking the cards only, a few moves by the keyboard only, and a
whole game on a tablet-wide window; the page never shows a card still face down.
"""

import base64
import os
import re
import signal
import subprocess
import sys

import pytest

from calcnb import Game, Move
from calcnb.game.rules import MoveKind
from calcnb.i18n import message
from calcnb.players.coach import describe_move
from calcnb.players.ladder import ReverseNeed
from calcnb.serve.cli.process import free_port
from calcnb.ui.board import BoardRenderer

from .pages import MOVE_NAMES, PLACEHOLDER_ROOM, SERVERS, PlayApp, css_name, live_move

pytestmark = pytest.mark.browser

PLAY_NOTEBOOK = os.environ.get("CALCNB_PLAY_NOTEBOOK", "play.ipynb")
LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 768, "height": 1024}
SEED = 2026

# Records every text the message line shows, so a test can tell what was said in between.
_RECORD_MESSAGES = """
(line) => {
    window.__messages = [];
    new MutationObserver(() => window.__messages.push(line.innerText.trim()))
        .observe(line.parentElement, {childList: true, subtree: true, characterData: true});
}
"""


def open_play(page, server, viewport=LAPTOP) -> PlayApp:
    page.set_viewport_size(viewport)
    return PlayApp(page, server, PLAY_NOTEBOOK)


@pytest.fixture
def app(page, app_server) -> PlayApp:
    return open_play(page, app_server)


def test_the_whole_board_and_every_control_fit_a_laptop_screen(app):
    app.page.evaluate("() => window.scrollTo(0, 0)")
    parts = {"board": app.image, "message": app.message_line, "seed field": app.seed_input}
    parts.update(app.buttons)
    for name, locator in parts.items():
        box = locator.bounding_box()
        assert box is not None, name
        assert box["x"] >= 0 and box["y"] >= 0, (name, box)
        assert box["x"] + box["width"] <= LAPTOP["width"] and box["y"] + box["height"] <= LAPTOP["height"], (name, box)
    board = app.image.bounding_box()
    assert board["width"] >= 800  # still a board to read, not a thumbnail
    assert app.page.evaluate("() => document.scrollingElement.scrollHeight") <= LAPTOP["height"]


def test_the_page_holds_the_game_and_nothing_else(app):
    assert app.page.locator(".calcnb-play").count() == 1
    page_text = app.page.evaluate("() => document.body.innerText").strip()
    assert page_text == app.root.inner_text().strip()
    assert app.page.locator("img").count() == 1  # the board is the only picture


def test_the_seed_fields_placeholder_is_read_whole(app):
    """At a classroom laptop's width the seed box shows all of what it says it wants."""
    seed = app.root.locator(".calcnb-seed input")
    assert seed.get_attribute("placeholder") == message("widget.seed_placeholder")
    text, room = seed.evaluate(PLACEHOLDER_ROOM)
    assert 0 < text <= room


def test_no_card_still_face_down_is_ever_on_the_page(app):
    app.deal(SEED)
    game = Game.new(SEED)
    for clicks in range(8):
        name = live_move([m.text for m in game.legal_moves()], clicks)
        app.click(name)
        game.play(name)
        app.wait_for_board(str(game.state))
        html = app.page.content()  # every text and attribute: alt texts, tooltips, hidden details
        for card in game.state.stock:
            assert str(card) not in html, (card, clicks)
        assert game.deal_code not in html and "|" not in app.page.evaluate("() => document.body.innerText")


def test_a_whole_game_by_clicking_the_cards_only(app):
    app.deal(SEED)
    game = Game.new(SEED)
    said = app.message()
    for clicks in range(250):  # 48 turns, 48 placements and at most 48 waste moves end any game
        if not game.legal_moves():
            break
        move = Move.parse(live_move([m.text for m in game.legal_moves()], clicks))
        if move.kind == MoveKind.TURN:
            app.board.click(position=app.place_point("stock"))
        else:
            source = (
                "pending" if move.kind in (MoveKind.STOCK_TO_FOUNDATION, MoveKind.STOCK_TO_WASTE) else f"W{move.waste}"
            )
            targets = [m for m in game.legal_moves() if m.kind == move.kind and m.source == move.source]
            if move.foundation and len([m for m in targets if m.foundation]) == 1:
                app.board.dblclick(position=app.place_point(source))  # it fits one foundation only: sent there
            else:
                before = app.message()
                app.board.click(position=app.place_point(source))
                assert app.wait_for_message(before).startswith("You picked")
                target = f"F{move.foundation}" if move.foundation else f"W{move.waste}"
                app.board.click(position=app.place_point(target))
        game.play(move)
        app.wait_for_board(str(game.state))
        said = app.message()
    assert game.state.is_terminal()
    assert not [name for name in app.enabled() if name in MOVE_NAMES], "the game did not end"
    ending = app.ending()
    assert ending.startswith(("Won!", "Lost:")) and ending not in said  # the end of the game has its own line
    assert "hint" not in app.enabled()


# How the board shows a new picture, done by hand: the picture's <img> gets the new PNG as its src (what the
# page does with each new picture), and the box around it is measured before and after.
_SHOW_ANOTHER_PICTURE = """
(root, png) => {
    const board = root.querySelector('.calcnb-board');
    const img = root.querySelector('img.calcnb-board-image');
    const before = board.getBoundingClientRect().height;
    img.setAttribute('src', 'data:image/png;base64,' + png);
    return [before, board.getBoundingClientRect().height];
}
"""


def test_a_click_pressed_on_one_picture_and_released_on_the_next_still_counts(app):
    # The kernel may send a new picture at any moment, even while the button is down (a busy
    # server answers a click late): the board must neither shrink while the new picture loads
    # nor lose the click.
    other = Game.new(SEED + 1)
    png = base64.b64encode(BoardRenderer().render_png(other)).decode("ascii")
    before = app.message()
    box = app.board.bounding_box()
    point = app.place_point("stock")
    app.page.mouse.move(box["x"] + point["x"], box["y"] + point["y"])
    app.page.mouse.down()
    heights = app.root.evaluate(_SHOW_ANOTHER_PICTURE, png)
    app.page.mouse.up()
    assert heights[1] == heights[0] > 0, heights  # the new picture holds its place before it is decoded
    assert app.wait_for_message(before).startswith("You turned")


def _press_until_focused(app: PlayApp, name: str) -> None:
    wanted = f"calcnb-btn-{css_name(name)}"
    for _ in range(80):
        if app.page.evaluate("(c) => document.activeElement && document.activeElement.classList.contains(c)", wanted):
            return
        app.page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached the {name} button")


def test_a_few_moves_by_the_keyboard_only(app):
    game = Game.new(SEED)
    app.page.keyboard.press("Tab")
    _press_until_focused(app, "new")
    # the seed field follows New deal: type the seed there, then back to the button
    app.page.keyboard.press("Tab")
    app.page.keyboard.type(str(SEED))
    app.page.keyboard.press("Shift+Tab")
    _press_until_focused(app, "new")  # already there: Shift+Tab went back to it
    app.page.keyboard.press("Enter")
    app.wait_for_board(str(game.state))
    assert f"seed {SEED}" in app.message()
    for clicks in range(6):
        name = live_move([m.text for m in game.legal_moves()], clicks)
        _press_until_focused(app, name)
        app.page.keyboard.press("Enter")
        game.play(name)
        app.wait_for_board(str(game.state))
    _press_until_focused(app, "undo")
    app.page.keyboard.press("Enter")
    game.undo()
    app.wait_for_board(str(game.state))
    assert app.message().startswith("Took back")


def test_a_whole_game_on_a_tablet_wide_window(page, app_server):
    app = open_play(page, app_server, TABLET)
    assert app.image.bounding_box()["width"] <= TABLET["width"]
    clicks = 0
    while clicks < 250:
        moves = [name for name in app.enabled() if name in MOVE_NAMES]
        if not moves:
            break
        app.click(live_move(moves, clicks))  # playwright scrolls each button into view, as a person would
        clicks += 1
    assert app.ending().startswith(("Won!", "Lost:"))
    assert clicks >= 48 * 2  # every stock card was turned and placed


def test_turn_undo_and_the_plain_words_of_the_message_line(app):
    start = app.image_digest()
    said = app.click("T")
    assert said.startswith("You turned "), said
    enabled = app.enabled()
    assert "T" not in enabled and {"S>W1", "S>W2", "S>W3", "S>W4"} <= set(enabled)
    assert app.tooltip("T").startswith("put the turned card")
    said = app.click("S>W2")
    assert re.fullmatch(r"Put \S+ on waste pile 2\.", said), said
    assert not re.search(r"\b(S|W\d)>[FW]\d", app.root.inner_text())  # no notation anywhere in the app
    said = app.click("undo")
    assert said.startswith("Took back"), said
    app.click("undo")
    assert app.image_digest() == start
    assert "undo" not in app.enabled()


def test_a_disabled_button_cannot_be_clicked(app):
    button = app.buttons["S>F1"]
    assert button.is_disabled()
    assert "no card is turned" in app.tooltip("S>F1")
    app.message_line.evaluate(_RECORD_MESSAGES)
    button.click(force=True)  # the browser must not deliver it
    # The kernel answers clicks in order: once Turn's answer is shown, an answer to S>F1 would have been too.
    said = app.click("T")
    shown = app.page.evaluate("() => window.__messages")
    assert not any("not possible" in text for text in shown), shown
    assert said.startswith("You turned ")


# ------------------------------------------------------------ the coach beside the board


def _coach_button(app: PlayApp, name: str):
    return app.root.locator(f"button.calcnb-coach-{name}")


def test_analyse_in_the_app_charts_every_legal_move_in_words_on_screen(app):
    app.deal(SEED)
    app.click("T")
    game = Game.new(SEED)
    game.play(Move.parse("T"))
    _coach_button(app, "analyse").click()
    chart = app.root.locator(".calcnb-chances")
    chart.wait_for(state="visible", timeout=60_000)
    rows = chart.locator("tr")
    assert rows.count() == len(game.legal_moves())
    words = sorted(rows.nth(i).locator("th").inner_text().strip() for i in range(rows.count()))
    assert words == sorted(describe_move(move) for move in game.legal_moves())
    for i in range(rows.count()):
        assert re.fullmatch(r"about \d+ in 100", rows.nth(i).locator("td").last.inner_text().strip())
        assert "futures tried" in (rows.nth(i).get_attribute("title") or "")
    note = app.root.locator(".calcnb-chances-note")
    assert re.search(r"the same \d+ imagined orders", note.inner_text())
    for part in (chart, note, _coach_button(app, "watch")):
        box = part.bounding_box()
        assert box["x"] + box["width"] <= LAPTOP["width"] and box["y"] + box["height"] <= LAPTOP["height"], box
    assert app.page.evaluate("() => document.scrollingElement.scrollHeight") <= LAPTOP["height"]
    app.click("S>W1")  # the chart was about the position before this move: it goes
    chart.wait_for(state="detached")


# Records in the page every text board the picture shows (its alt text), as it changes: window.calcnbBoards.
_RECORD_BOARDS = """root => {
    const boards = [];
    const read = () => {
        const image = root.querySelector("img.calcnb-board-image");
        const text = image ? image.getAttribute("alt") : null;
        if (text !== null && text !== boards[boards.length - 1]) boards.push(text);
    };
    read();
    new MutationObserver(read).observe(root, {subtree: true, childList: true, attributes: true});
    window.calcnbBoards = boards;
}"""


def test_watch_in_the_app_plays_on_and_stop_stops(app):
    app.deal(SEED)
    app.root.locator("select").nth(0).select_option(label="reverse need")  # compiled, Watch starts on another
    app.root.locator("select").nth(1).select_option(label="0.2 s")
    app.root.evaluate(_RECORD_BOARDS)
    _coach_button(app, "watch").click()
    stop = _coach_button(app, "stop")
    app.page.wait_for_function("b => !b.disabled", arg=stop.element_handle())
    game = Game.new(SEED)
    boards = [str(game.state)]
    for move in ReverseNeed().play(SEED).moves[:4]:
        game.play(move)
        boards.append(str(game.state))
    # The moves happen on their own, reverse need's, one at a time: each position is shown, in order (recorded in the
    # page as the board changes, so a test slower than the 0.2 s pace misses none).
    app.page.wait_for_function("n => window.calcnbBoards.length >= n", arg=len(boards))
    assert app.page.evaluate("() => window.calcnbBoards")[: len(boards)] == boards
    assert app.root.locator(".calcnb-coach-text").inner_text().startswith("reverse need chose to")
    stop.click()
    app.page.wait_for_function("b => b.disabled", arg=stop.element_handle())
    stopped = app.alt()
    app.page.wait_for_timeout(1000)  # five moves' time at this pace
    assert app.alt() == stopped
    assert not _coach_button(app, "watch").is_disabled()


@pytest.mark.parametrize("server", SERVERS)
def test_the_coach_speaks_portuguese_in_the_app_served_with_lang_pt(page, server):
    port = free_port()
    command = ["app", "--no-browser", "--port", str(port), "--lang", "pt", "--server", server]
    cli = subprocess.Popen(
        [sys.executable, "-m", "calcnb", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        cli.stdout.readline()  # the address: the server is up
        page.set_viewport_size(LAPTOP)
        page.goto(f"http://127.0.0.1:{port}/", wait_until="domcontentloaded", timeout=120_000)
        root = page.locator(".calcnb-play")
        root.locator("button.calcnb-btn-T").wait_for(state="visible", timeout=120_000)
        root.locator("button.calcnb-btn-T").click()
        root.locator("button.calcnb-coach-analyse").click()
        chart = root.locator(".calcnb-chances")
        chart.wait_for(state="visible", timeout=60_000)
        coach_panel = root.locator(".calcnb-coach")
        texts = [root.locator(f"button.calcnb-coach-{name}").inner_text().strip() for name in ("analyse", "watch")]
        assert texts == ["Analisar", "Ver jogar"]
        rows = chart.locator("tr")
        assert rows.count() >= 4  # a turned card goes on any of four waste piles at least
        for i in range(rows.count()):
            assert re.fullmatch(r"cerca de \d+ em 100", rows.nth(i).locator("td").last.inner_text().strip())
        words = set(re.findall(r"[a-z]+", coach_panel.inner_text().lower()))
        english = {
            "analyse",
            "watch",
            "stop",
            "player",
            "seconds",
            "about",
            "futures",
            "waste",
            "put",
            "the",
            "need",
            "fit",
        }
        assert not words & english, words & english
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= LAPTOP["height"]
    finally:
        cli.send_signal(signal.SIGINT)
        try:
            cli.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            cli.kill()
