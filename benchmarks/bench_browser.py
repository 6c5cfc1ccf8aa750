"""Click latency in a real browser: from a click (a button, or a card on the board) to the new board shown, in Voila.

Usage: ``python benchmarks/bench_browser.py [--runs 3] [--clicks 10]``.

Voila serves a copy of ``notebooks/`` with pages made here, and Debian's chromium
(``/usr/bin/chromium``, through playwright) opens them all. The time is taken inside the page with
``performance.now()``: the click event is dispatched, then a MutationObserver sees the board picture
change (a new ``src``, or a new ``<img>``), then ``img.decode()`` and one animation frame, so the
picture is on screen. Compared on the same run, pages interleaved:

* ``play app``: a PlayBoard (as on the play page, notebooks/play.ipynb) on a fixed seed, clicked by
  its buttons (one reused figure, artists updated);
* ``card clicks``: the same, clicked on the cards of the board picture (ipyevents): the stock to
  turn, the turned card to pick it up, a waste pile to put it there;
* ``naive redraw``: the same PlayBoard and the same moves, its image drawn on a new figure each
  click (``naive_png`` of benchmarks/bench_board.py, else ``calcnb.ui.board.to_png``);
* ``image swap``: a button that only swaps two board PNGs drawn in advance (the transport of a
  board image: kernel round trip, bytes, decode, paint);
* ``text only``: a button that only changes the text of an HTML widget (the widget round-trip floor).

Read ``src set`` against the two floors: on this stack a small widget update (a text, a button's
state) reaches the page in about 45 ms however little it carries, while a large one (a board PNG)
arrives in a few ms, so a click's latency is mostly transport, not drawing.

Moves are chosen the same way on both boards: a foundation move when there is one, else Turn,
else the turned card to the next waste in turn. The in-kernel figure beside it is bench_board's
click (``Game.play`` + ``BoardRenderer.render_png``) measured in this process.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import statistics
import sys
import time
from pathlib import Path

import nbformat
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser tests' page helpers find the widgets' parts

from browser.pages import PlayApp, Server, live_move, open_app, voila_on_a_copy  # noqa: E402

from calcnb.serve.shared.settings import CHROMIUM_ARGS, CHROMIUM_PATH, LOCALHOST  # noqa: E402

PLAY_SEED = 2026
TARGET_MS = 150.0

# Click in the page (a button, or a point of the board) and time until the board shows a new picture,
# decoded and painted. ``box`` holds the picture, which may be replaced by a new <img> or get a new src.
_TIME_IMAGE_CLICK = """
async ([target, box, x, y]) => {
    const noAnswer = new Promise((_, reject) => setTimeout(() => reject(new Error('no new image in 30 s')), 30000));
    const picture = () => box.tagName === 'IMG' ? box : box.querySelector('img');
    const beforeImg = picture(), beforeSrc = beforeImg.src;
    let shown = null;
    const changed = new Promise(resolve => {
        const observer = new MutationObserver(() => {
            const img = picture();
            if (img && (img !== beforeImg || img.src !== beforeSrc)) {
                shown = img; observer.disconnect(); resolve(performance.now());
            }
        });
        observer.observe(box, {attributes: true, attributeFilter: ['src'], childList: true, subtree: true});
    });
    const start = performance.now();
    if (x === null) {
        target.click();
    } else {
        const rect = target.getBoundingClientRect();
        const where = {clientX: rect.left + x, clientY: rect.top + y, bubbles: true, view: window};
        for (const kind of ['mousedown', 'mouseup', 'click']) target.dispatchEvent(new MouseEvent(kind, where));
    }
    const arrived = await Promise.race([changed, noAnswer]);
    await shown.decode();
    await new Promise(resolve => requestAnimationFrame(() => resolve()));
    return [arrived - start, performance.now() - start];
}
"""

# Click in the page and time until the label shows new text, painted.
_TIME_LABEL_CLICK = """
async ([button, label]) => {
    const noAnswer = new Promise((_, reject) => setTimeout(() => reject(new Error('no new text in 30 s')), 30000));
    const before = label.textContent;
    const changed = new Promise(resolve => {
        const observer = new MutationObserver(() => {
            if (label.textContent !== before) { observer.disconnect(); resolve(performance.now()); }
        });
        observer.observe(label, {childList: true, subtree: true, characterData: true});
    });
    const start = performance.now();
    button.click();
    const arrived = await Promise.race([changed, noAnswer]);
    await new Promise(resolve => requestAnimationFrame(() => resolve()));
    return [arrived - start, performance.now() - start];
}
"""

_SETUP = """\
import sys

import ipywidgets as widgets

sys.path.insert(0, {benchmarks!r})
from calcnb import Game, PlayBoard
from calcnb.ui.board import BoardRenderer, to_png

try:
    from bench_board import naive_png
except ImportError:  # an older bench_board: the pure drawing on a new figure is naive enough
    naive_png = to_png
"""

_NAIVE_BOARD = """\
class NaiveRenderer:
    \"\"\"What PlayBoard asks of its renderer, answered by drawing a new figure every time.\"\"\"

    def render_png(self, game, *, highlight=None, last_move=None):
        return naive_png(game)


board = PlayBoard(seed={seed})
board.renderer = NaiveRenderer()
board.refresh()
board
"""

_FLOOR = """\
game = Game.new(seed={seed})
renderer = BoardRenderer()
first = renderer.render_png(game)
game.play("T")
pictures = [first, renderer.render_png(game)]
image = widgets.Image(value=pictures[0], format="png", layout=widgets.Layout(width="100%", max_width="960px"))
label = widgets.HTML("0")
label.add_class("bench-label")
swap = widgets.Button(description="Swap")
ping = widgets.Button(description="Ping")
swaps, pings = [0], [0]


def on_swap(_button):
    swaps[0] += 1
    image.value = pictures[swaps[0] % 2]


def on_ping(_button):
    pings[0] += 1
    label.value = str(pings[0])


swap.on_click(on_swap)
ping.on_click(on_ping)
widgets.VBox([widgets.HBox([swap, ping, label]), image])
"""


def write_notebook(path: Path, *cells: str) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(notebook, path)


def time_board_clicks(app: PlayApp, clicks: int, done: int) -> list[tuple[float, float]]:
    """Time ``clicks`` move clicks on a play board (``done`` clicks were played on it before)."""
    app.page.bring_to_front()  # a page in the background gets no animation frames
    times = []
    for number in range(done, done + clicks):
        name = live_move(app.enabled(), number)
        button = app.buttons[name].element_handle()
        times.append(tuple(app.page.evaluate(_TIME_IMAGE_CLICK, [button, picture_box(app), None, None])))
    return times


def picture_box(app: PlayApp):
    """The element holding the board picture (a Picture widget's box, or an older board's <img> itself)."""
    box = app.root.locator(".calcnb-board")
    return box.element_handle() if box.count() else app.image.element_handle()


def time_card_clicks(app: PlayApp, clicks: int, done: int) -> list[tuple[float, float]]:
    """Time ``clicks`` clicks on the board picture: the stock, then the turned card, then a waste pile, again."""
    app.page.bring_to_front()
    times = []
    box = picture_box(app)
    for number in range(done, done + clicks):
        place = ("stock", "pending", f"W{number // 3 % 4 + 1}")[number % 3]
        point = app.place_point(place)
        times.append(tuple(app.page.evaluate(_TIME_IMAGE_CLICK, [box, box, point["x"], point["y"]])))
    return times


def in_kernel_click_ms(clicks: int) -> tuple[str, float]:
    """bench_board's click (play + render_png), median in ms, measured here; or render_png alone."""
    from calcnb import Game
    from calcnb.ui.board import BoardRenderer

    renderer = BoardRenderer()
    spec = importlib.util.spec_from_file_location("bench_board", REPO / "benchmarks" / "bench_board.py")
    try:
        bench_board = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench_board)
        sequences = bench_board.click_sequences(clicks)
        renderer.render_png(sequences[0][0])  # warm the fonts outside the timing
        wall, _cpu = bench_board.time_clicks(sequences, renderer.render_png)
        return "bench_board click (Game.play + BoardRenderer.render_png)", statistics.median(wall) * 1000
    except (AttributeError, FileNotFoundError, ImportError):
        game = Game.new(seed=1)
        game.play("T")
        renderer.render_png(game)
        times = []
        for _ in range(clicks):
            began = time.perf_counter()
            renderer.render_png(game)
            times.append(time.perf_counter() - began)
        return "BoardRenderer.render_png", statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds over all pages, interleaved (default 3)")
    parser.add_argument("--clicks", type=int, default=10, help="timed clicks per page per round (default 10)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally below stops the server
    seed = PLAY_SEED

    setup = _SETUP.format(benchmarks=str(REPO / "benchmarks"))

    def add_baseline_pages(root: Path) -> None:
        write_notebook(root / "bench_play.ipynb", setup, f"PlayBoard(seed={seed})")
        write_notebook(root / "bench_cards.ipynb", setup, f"PlayBoard(seed={seed})")
        write_notebook(root / "bench_naive.ipynb", setup, _NAIVE_BOARD.format(seed=seed))
        write_notebook(root / "bench_floor.ipynb", setup, _FLOOR.format(seed=seed))

    with voila_on_a_copy("calcnb-bench-", add_baseline_pages) as server:
        results = measure(server, args.runs, args.clicks)

    kernel_name, kernel_ms = in_kernel_click_ms(60)
    report(results, args, kernel_name, kernel_ms, seed)


def measure(server: Server, runs: int, clicks: int) -> dict[str, list[tuple[float, float]]]:
    """Open every page once, then time ``clicks`` clicks on each, round after round."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        context.set_default_timeout(60_000)
        play = PlayApp(context.new_page(), server, "bench_play.ipynb")
        cards = PlayApp(context.new_page(), server, "bench_cards.ipynb")
        naive = PlayApp(context.new_page(), server, "bench_naive.ipynb")
        floor_page = context.new_page()
        floor = open_app(floor_page, server, "bench_floor.ipynb", "Swap", "floor")
        swap_image = floor.locator("img").element_handle()
        swap_args = [floor.locator("button", has_text="Swap").element_handle(), swap_image, None, None]
        ping_button = floor.locator("button", has_text="Ping").element_handle()
        ping_args = [ping_button, floor.locator(".bench-label").element_handle()]

        # One untimed click each: the first click loads code and warms caches on both sides.
        time_board_clicks(play, 1, 0)
        time_card_clicks(cards, 1, 0)
        time_board_clicks(naive, 1, 0)
        floor_page.bring_to_front()
        floor_page.evaluate(_TIME_IMAGE_CLICK, swap_args)
        floor_page.evaluate(_TIME_LABEL_CLICK, ping_args)

        results: dict[str, list[tuple[float, float]]] = {
            name: [] for name in ("play app", "card clicks", "naive redraw", "image swap", "text only")
        }
        for run in range(runs):
            done = 1 + run * clicks
            results["play app"] += time_board_clicks(play, clicks, done)
            results["card clicks"] += time_card_clicks(cards, clicks, done)
            results["naive redraw"] += time_board_clicks(naive, clicks, done)
            floor_page.bring_to_front()
            results["image swap"] += [tuple(floor_page.evaluate(_TIME_IMAGE_CLICK, swap_args)) for _ in range(clicks)]
            results["text only"] += [tuple(floor_page.evaluate(_TIME_LABEL_CLICK, ping_args)) for _ in range(clicks)]
        browser.close()
    return results


def report(results: dict[str, list[tuple[float, float]]], args, kernel_name: str, kernel_ms: float, seed: int) -> None:
    shown = {name: statistics.median(t[1] for t in times) for name, times in results.items()}
    arrived = {name: statistics.median(t[0] for t in times) for name, times in results.items()}
    count = len(results["play app"])
    print(
        f"click to image shown in chromium (Voila, {LOCALHOST}); seed {seed}; {args.runs} rounds x {args.clicks} "
        f"clicks per page, interleaved; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':14s} {'median shown':>12s} {'(src set)':>10s} {'p90 shown':>10s}   clicks")
    for name, times in results.items():
        p90 = statistics.quantiles([t[1] for t in times], n=10)[-1]
        print(f"{name:14s} {shown[name]:9.1f} ms {arrived[name]:7.1f} ms {p90:7.1f} ms   {len(times)}")
    play = shown["play app"]
    print(f"in kernel, this process: {kernel_name}: median {kernel_ms:.1f} ms")
    verdict = "met" if play <= TARGET_MS else "NOT met"
    print(
        f"play app: {play:.1f} ms median over {count} clicks (target <= {TARGET_MS:.0f} ms: {verdict}); "
        f"naive redraw / play app = {shown['naive redraw'] / play:.2f}x; "
        f"play app / image swap = {play / shown['image swap']:.2f}x; "
        f"play app / text only = {play / shown['text only']:.2f}x"
    )
    print(
        json.dumps(
            {"median_ms": {name: round(value, 1) for name, value in shown.items()}, "kernel_ms": round(kernel_ms, 1)}
        )
    )


if __name__ == "__main__":
    main()
