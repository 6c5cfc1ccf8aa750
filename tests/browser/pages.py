"""Page helpers for the browser tests: find the play board's parts, click, and wait for the kernel's answer.

The play widget's buttons are found by their place in the board, in the
order the widget documents (``T``, ``S>F1`` .. ``S>F4``, ``S>W1`` .. ``S>W4``,
``W1>F1`` .. ``W4>F4``, then Undo, Redo, Hint, New deal), and their texts are
checked against that order, so a changed layout fails loudly instead of
clicking the wrong button. CSS classes (``calcnb-btn-S-F1``, ``calcnb-message``,
``calcnb-board-image``, ``calcnb-caption``) are preferred when the widgets provide them.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Locator, Page

from calcnb.game.engine import ALL_MOVES

MOVE_NAMES = [move.text for move in ALL_MOVES]
CONTROL_NAMES = ["undo", "redo", "hint", "new"]
BOARD_BUTTONS = MOVE_NAMES + CONTROL_NAMES


def live_move(enabled: list[str], clicks: int) -> str:
    """A move that keeps a game going: a foundation move, else Turn, else the turned card to the wastes in turn."""
    moves = [name for name in enabled if name in MOVE_NAMES]
    for name in moves:
        if ">F" in name:
            return name
    if "T" in moves:
        return "T"
    wastes = [name for name in moves if name.startswith("S>W")]
    return wastes[clicks % len(wastes)]


# The smallest widget box holding both a button reading ``buttonText`` and an image: a widget's root.
_FIND_ROOT = """
([buttonText, marker]) => {
    const buttons = [...document.querySelectorAll('button.jupyter-button')]
        .filter(b => b.textContent.trim() === buttonText);
    for (const button of buttons) {
        let node = button.parentElement;
        while (node && !(node.classList.contains('jupyter-widgets') && node.querySelector('img'))) {
            node = node.parentElement;
        }
        if (node) { node.setAttribute('data-test-root', marker); return true; }
    }
    return false;
}
"""

_ENABLED = """
(root, classes) => classes.map(c => { const b = root.querySelector('button.' + c); return !!b && !b.disabled; })
"""

_SHOWS = """
([root, alt]) => { const img = root.querySelector('img.calcnb-board-image'); return !!img && img.alt === alt; }
"""

_DIGEST = """
async (img) => {
    for (let attempt = 0; attempt < 5; attempt++) {
        try {
            const bytes = await (await fetch(img.src)).arrayBuffer();
            const digest = await crypto.subtle.digest('SHA-256', bytes);
            return [...new Uint8Array(digest)].map(x => x.toString(16).padStart(2, '0')).join('');
        } catch (error) {
            // the blob was replaced (and revoked) while it was read: read the new one
            await new Promise(resolve => setTimeout(resolve, 50));
        }
    }
    throw new Error('could not read the board image');
}
"""


@dataclass(frozen=True)
class Server:
    """A local server started by a fixture: its address, the folder it serves, and its log file."""

    url: str
    root: Path
    log: Path

    def voila_page(self, notebook: str) -> str:
        """The address of ``notebook`` rendered as an app."""
        return f"{self.url}/voila/render/{notebook}"


def open_app(
    page: Page, server: Server, notebook: str, button_text: str, marker: str, *, navigate: bool = True
) -> Locator:
    """Open ``notebook`` in Voila, wait for its widget with a button reading ``button_text``; return its root.

    ``navigate=False`` finds the widget in the page already there (one a login led to, say).
    Raises a clear AssertionError when the notebook is missing or shows no such widget.
    """
    assert (server.root / notebook).exists(), f"notebooks/{notebook} is missing"
    if navigate:
        page.goto(server.voila_page(notebook), wait_until="domcontentloaded")
    page.locator("button.jupyter-button", has_text=button_text).first.wait_for(state="visible")
    page.locator("img").first.wait_for(state="visible")
    assert page.evaluate(_FIND_ROOT, [button_text, marker]), f"no widget with a {button_text!r} button and an image"
    return page.locator(f"[data-test-root='{marker}']")


class PlayApp:
    """The play widget in a page: buttons by move name, the board picture, the message area."""

    def __init__(self, page: Page, server: Server, notebook: str = "play.ipynb", *, navigate: bool = True) -> None:
        """``navigate=False`` finds the app in the page already there (one a login led to, say)."""
        self.page = page
        assert (server.root / notebook).exists(), f"notebooks/{notebook} is missing"
        if navigate:
            page.goto(server.voila_page(notebook), wait_until="domcontentloaded")
        self.root = page.locator(".calcnb-play").first
        self.image = self.root.locator("img.calcnb-board-image")
        self.board = self.root.locator(".calcnb-board")  # the picture's box: it stays while pictures change
        self.image.wait_for(state="visible")
        self.buttons: dict[str, Locator] = {
            name: self.root.locator(f"button.calcnb-btn-{css_name(name)}") for name in BOARD_BUTTONS
        }
        self.buttons["T"].wait_for(state="visible")
        self.message_line = self.root.locator(".calcnb-message")
        self.seed_input = self.root.locator(".calcnb-controls input[type=text]")

    # ------------------------------------------------------------ reading

    def message(self) -> str:
        return self.message_line.inner_text().strip()

    def ending(self) -> str:
        ending = self.root.locator(".calcnb-ending")
        return ending.inner_text().strip() if ending.count() else ""

    def alt(self) -> str:
        """The picture's alternative text: the text board."""
        return self.image.get_attribute("alt") or ""

    def image_src(self) -> str:
        return self.image.get_attribute("src") or ""

    def image_digest(self) -> str:
        """SHA-256 of the PNG the board picture shows."""
        return self.image.evaluate(_DIGEST)

    def enabled(self) -> list[str]:
        """The names of the enabled buttons, in board order."""
        classes = [f"calcnb-btn-{css_name(name)}" for name in BOARD_BUTTONS]
        on = self.root.evaluate(
            _ENABLED,
            classes,
        )
        return [name for name, enabled in zip(BOARD_BUTTONS, on) if enabled]

    def tooltip(self, name: str) -> str:
        return self.buttons[name].get_attribute("title") or ""

    def place_point(self, place: str) -> dict[str, float]:
        """Where to click ``place`` (a name of calcnb.ui.board.place_regions) on the picture, in CSS pixels."""
        from calcnb.ui.board import HEIGHT, WIDTH, place_regions

        left, bottom, width, height = place_regions()[place]
        box = self.board.bounding_box()
        assert box is not None
        scale = box["width"] / WIDTH
        # the top of a waste pile's column is where its first cards lie; the middle of anything else
        y = bottom + height - 0.6 if place.startswith("W") else bottom + height / 2
        return {"x": (left + width / 2) * scale, "y": (HEIGHT - y) * scale}

    # ------------------------------------------------------------ acting

    def wait_for_board(self, text_board: str) -> None:
        """Wait until the picture shows the position whose text board is ``text_board`` (its alt text)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(_SHOWS, arg=[self.root.element_handle(), text_board])
        except PlaywrightTimeout:
            shown = f"the board shows\n{self.alt()}\ninstead of\n{text_board}\n({self.message()})"
            raise AssertionError(shown) from None

    def wait_for_message(self, before: str) -> str:
        """Wait until the message line says something other than ``before``; return it."""
        self.page.wait_for_function(  # the line is made anew with each message: find it each time
            "([root, before]) => { const line = root.querySelector('.calcnb-message');"
            " return !!line && line.innerText.trim() !== before; }",
            arg=[self.root.element_handle(), before],
        )
        return self.message()

    def click(self, name: str) -> str:
        """Click an enabled button and wait for the board picture to be replaced; return the new message."""
        marked = self.image.evaluate("img => { img.dataset.old = '1'; return true; }")
        assert marked
        self.buttons[name].click()
        self.page.wait_for_function(
            "root => { const img = root.querySelector('img.calcnb-board-image'); return img && !img.dataset.old; }",
            arg=self.root.element_handle(),
        )
        return self.message()

    def deal(self, seed: int) -> None:
        """Deal the game of ``seed`` through the seed field and New deal."""
        from calcnb import Game

        self.seed_input.fill(str(seed))
        self.buttons["new"].click()
        self.wait_for_board(str(Game.new(seed).state))
        assert f"seed {seed}" in self.message(), self.message()


def _preferred(root: Locator, by_class: str, fallback: str) -> Locator:
    """The one element with the widget's CSS class when it has one, else the first ``fallback``."""
    marked = root.locator(by_class)
    return marked if marked.count() == 1 else root.locator(fallback).first


def css_name(name: str) -> str:
    """The CSS class suffix for a button name: ``S>F1`` -> ``S-F1``."""
    return name.replace(">", "-")


def wait_for_new_src(page: Page, image: Locator, before: str) -> None:
    """Wait until ``image`` shows a picture other than the blob ``before``.

    The widget sends its message line and buttons before the image, and the
    browser applies a kernel's messages in order, so once the image has changed
    the rest of the board is up to date too.
    """
    handle = image.element_handle()
    page.wait_for_function("([img, before]) => img.src && img.src !== before", arg=[handle, before])


class StepperApp:
    """The worked-example stepper in a page: Previous, Next, Back to the start, the caption and counter."""

    def __init__(self, page: Page, server: Server, notebook: str = "03_worked_example.ipynb") -> None:
        self.page = page
        self.root = open_app(page, server, notebook, "Next ▶", "stepper")
        self.image = _preferred(self.root, "img.calcnb-board-image", "img")
        self.next = self.root.locator("button.jupyter-button", has_text="Next")
        self.prev = self.root.locator("button.jupyter-button", has_text="Previous")
        self.reset = self.root.locator("button.jupyter-button", has_text="Back to the start")
        # Without a class, the caption is the second HTML widget (after the title).
        by_class = self.root.locator(".calcnb-caption")
        self.caption_line = by_class if by_class.count() == 1 else self.root.locator(".widget-html").nth(1)
        self.counter = self.root.locator(".widget-label", has_text="Step ")

    def caption(self) -> str:
        return self.caption_line.inner_text().strip()

    def position(self) -> tuple[int, int]:
        """(step number, step count) as the counter shows them."""
        words = self.counter.inner_text().split()
        return int(words[1]), int(words[3])

    def click(self, button: Locator) -> None:
        """Click and wait until the counter and then the caption (sent after it) have changed."""
        counter, caption = self.counter.inner_text(), self.caption()
        button.click()
        changed = "([node, before]) => node.innerText.trim() !== before"
        self.page.wait_for_function(changed, arg=[self.counter.element_handle(), counter])
        self.page.wait_for_function(changed, arg=[self.caption_line.element_handle(), caption])


@contextmanager
def voila_on_a_copy(prefix: str, prepare: Callable[[Path], None] | None = None) -> Iterator[Server]:
    """Voila on a free local port, serving a temporary copy of the notebooks; stopped on leaving.

    ``prepare(root)`` may add notebooks to the copy before the server starts. Used by the
    scripts that drive the app outside pytest (the screenshots and the latency benchmark).
    """
    from calcnb.serve.commands import voila_command
    from calcnb.serve.notebooks import notebooks_dir
    from calcnb.serve.process import free_port, start_server, stop_server, wait_until_serving
    from calcnb.serve.settings import LOCALHOST, MAX_PAGES

    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        root = Path(scratch) / "notebooks"
        shutil.copytree(notebooks_dir(), root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        if prepare is not None:
            prepare(root)
        port = free_port()
        log_path = Path(scratch) / "voila.log"
        with log_path.open("wb") as log:
            command = voila_command(
                root, port=port, pages_per_device=MAX_PAGES
            )  # a whole class's pages come from this one machine: no cap per device
            process = start_server(command, cwd=root, log=log)
            try:
                wait_until_serving(process, LOCALHOST, port)
                yield Server(f"http://{LOCALHOST}:{port}", root, log_path)
            finally:
                stop_server(process)
