"""Click-to-image time of the board: BoardRenderer against a naive full redraw, in the same run.

A "click" is what the play widget does on a button press: play one move on the Game, then turn
the board into PNG bytes. The positions are real: random legal moves through seeded deals.

Compared, on the same clicks:

* ``BoardRenderer.render_png``: one figure kept, its collections updated in place (the fast path);
* ``naive``: a new figure each click with a ``Text`` artist per label and a ``Rectangle`` per card,
  then ``savefig`` to PNG (how a board is usually drawn with matplotlib);
* ``draw + savefig``: this module's pure :func:`calcnb.ui.board.draw` on a new figure, then ``savefig``.

Usage: ``python benchmarks/bench_board.py [--runs 3] [--clicks 60]``. Prints the median time of a
click for each (wall clock per run and overall, and CPU time), and the ratios to the naive redraw.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import time
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from calcnb import Game, Move
from calcnb.ui.board import (
    DPI,
    EMPTY_DASHES,
    HEIGHT,
    LEGAL_DASHES,
    TABLE,
    WIDTH,
    BoardRenderer,
    _scene,
    _split,
    draw,
)


def naive_png(game: Game) -> bytes:
    """The same picture the plain way: new figure, one artist per card and per label, savefig."""
    state, last_move = _split(game)
    scene = _scene(state, (), last_move)
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(0, HEIGHT)
    ax.set_axis_off()
    ax.add_patch(Rectangle((0, 0), WIDTH, HEIGHT, facecolor=TABLE, edgecolor="none"))
    styles = {"empty": EMPTY_DASHES, "rects": "solid", "legal": LEGAL_DASHES, "frames": "solid"}
    for part, style in styles.items():
        rects = getattr(scene, part)
        for path, face, edge, width in zip(rects.paths, rects.faces, rects.edges, rects.widths):
            (x0, y0), (x1, y1) = path.vertices.min(axis=0), path.vertices.max(axis=0)
            ax.add_patch(
                Rectangle((x0, y0), x1 - x0, y1 - y0, facecolor=face, edgecolor=edge, linewidth=width, linestyle=style)
            )
    for label in scene.labels:
        va = "center_baseline" if label.va == "center" else label.va
        ax.text(label.x, label.y, label.text, fontsize=label.size, color=label.colour, weight=label.weight,
                ha=label.ha, va=va)  # fmt: skip
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


def draw_savefig_png(game: Game) -> bytes:
    """This module's pure drawing on a new figure, saved the usual way."""
    out = io.BytesIO()
    draw(game).savefig(out, format="png")
    return out.getvalue()


def click_sequences(clicks: int) -> list[tuple[Game, list[Move]]]:
    """Seeded deals and the random legal moves played on them, ``clicks`` moves in all."""
    sequences = []
    seed = 0
    while clicks > 0:
        rng = random.Random(seed)
        game = Game.new(seed=seed)
        start = game.copy()
        moves = []
        while game.legal_moves() and len(moves) < clicks:
            move = rng.choice(game.legal_moves())
            game.play(move)
            moves.append(move)
        sequences.append((start, moves))
        clicks -= len(moves)
        seed += 1
    return sequences


def time_clicks(
    sequences: list[tuple[Game, list[Move]]], to_image: Callable[[Game], bytes]
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds for each click: play the move, then make the image.

    CPU time is reported too because the machine is shared: other processes stretch the wall clock.
    """
    wall, cpu = [], []
    for start, moves in sequences:
        game = start.copy()
        to_image(game)  # the widget shows the board before the first click
        for move in moves:
            began, began_cpu = time.perf_counter(), time.process_time()
            game.play(move)
            to_image(game)
            wall.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
    return wall, cpu


def time_widget_clicks(sequences: list[tuple[Game, list[Move]]]) -> tuple[list[float], list[float]]:
    """The whole click as a person makes it: ``PlayBoard.buttons[move].click()``.

    That runs the widget's handler, the engine move, the buttons' update and the
    board's PNG, which is what the image in the notebook waits for.
    """
    from calcnb.ui.play import PlayBoard

    wall, cpu = [], []
    for start, moves in sequences:
        board = PlayBoard(start.copy())
        for move in moves:
            began, began_cpu = time.perf_counter(), time.process_time()
            board.buttons[move.text].click()
            wall.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
        assert board.game.history == tuple(moves)  # every click played its move
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of the whole click sequence (default 3)")
    parser.add_argument("--clicks", type=int, default=60, help="clicks in a run (default 60)")
    args = parser.parse_args()

    sequences = click_sequences(args.clicks)
    renderer = BoardRenderer()
    methods: dict[str, Callable[[Game], bytes]] = {
        "BoardRenderer.render_png": renderer.render_png,
        "draw + savefig": draw_savefig_png,
        "naive full redraw": naive_png,
    }
    for to_image in methods.values():  # warm caches (fonts, glyph outlines) outside the timing
        to_image(sequences[0][0])
    per_run: dict[str, list[float]] = {name: [] for name in methods}
    wall: dict[str, list[float]] = {name: [] for name in methods}
    cpu: dict[str, list[float]] = {name: [] for name in methods}
    widget = "PlayBoard button click"
    time_widget_clicks(sequences[:1])  # warm the widget classes
    per_run[widget], wall[widget], cpu[widget] = [], [], []
    for _ in range(args.runs):
        for name, to_image in methods.items():  # interleaved, so machine load hits all alike
            run_wall, run_cpu = time_clicks(sequences, to_image)
            per_run[name].append(statistics.median(run_wall))
            wall[name].extend(run_wall)
            cpu[name].extend(run_cpu)
        run_wall, run_cpu = time_widget_clicks(sequences)
        per_run[widget].append(statistics.median(run_wall))
        wall[widget].extend(run_wall)
        cpu[widget].extend(run_cpu)

    total = sum(len(moves) for _, moves in sequences)
    deals = len(sequences)
    print(f"click = Game.play(move) + PNG bytes of the board; {total} clicks over {deals} deal(s), {args.runs} runs")
    print(f"image {int(WIDTH * DPI)} x {int(HEIGHT * DPI)} pixels; load average {os.getloadavg()[0]:.1f}")
    naive_wall = statistics.median(wall["naive full redraw"])
    naive_cpu = statistics.median(cpu["naive full redraw"])
    for name in [widget, *methods]:
        median_wall, median_cpu = statistics.median(wall[name]), statistics.median(cpu[name])
        runs = ", ".join(f"{value * 1000:.1f}" for value in per_run[name])
        print(
            f"{name:26s} median {median_wall * 1000:6.1f} ms wall (runs: {runs}), {median_cpu * 1000:6.1f} ms CPU;"
            f"  naive / this = {naive_wall / median_wall:4.1f}x wall, {naive_cpu / median_cpu:4.1f}x CPU"
        )
    verdict = "met" if statistics.median(wall[widget]) <= 0.030 else "not met"
    print(f"target: a PlayBoard click at most 30 ms median: {verdict}")


if __name__ == "__main__":
    main()
