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

from calcnb.engine import ALL_MOVES

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


# The English descriptions the play widget gives its buttons, in BOARD_BUTTONS order.
_FOUNDATION_TEXTS = [f"F{k} (+{k})" for k in range(1, 5)]
EXPECTED_TEXTS = (
    ["Turn"]
    + _FOUNDATION_TEXTS
    + [f"W{w}" for w in range(1, 5)]
    + _FOUNDATION_TEXTS * 4
    + ["Undo", "Redo", "Hint", "New deal"]
)

# The smallest widget box holding both the Turn button and an image: the play board.
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


def open_app(page: Page, server: Server, notebook: str, button_text: str, marker: str) -> Locator:
    """Open ``notebook`` in Voila, wait for its widget with a button reading ``button_text``; return its root.

    Raises a clear AssertionError when the notebook is missing or shows no such widget.
    """
    assert (server.root / notebook).exists(), f"notebooks/{notebook} is missing"
    page.goto(server.voila_page(notebook), wait_until="domcontentloaded")
    page.locator("button.jupyter-button", has_text=button_text).first.wait_for(state="visible")
    page.locator("img").first.wait_for(state="visible")
    assert page.evaluate(_FIND_ROOT, [button_text, marker]), f"no widget with a {button_text!r} button and an image"
    return page.locator(f"[data-test-root='{marker}']")


class PlayApp:
    """The play widget in a page: buttons by move name, the board image, the message line."""

    def __init__(self, page: Page, server: Server, notebook: str = "04_play.ipynb") -> None:
        self.page = page
        self.root = open_app(page, server, notebook, "Turn", "play")
        self.image = _preferred(self.root, "img.calcnb-board-image", "img")
        self.image.wait_for(state="visible")
        buttons = self.root.locator("button.jupyter-button")
        texts = [text.strip() for text in buttons.all_inner_texts()]
        assert texts[: len(EXPECTED_TEXTS)] == EXPECTED_TEXTS, f"the play board's buttons changed: {texts}"
        self.buttons: dict[str, Locator] = {}
        for index, name in enumerate(BOARD_BUTTONS):
            by_class = self.root.locator(f"button.calcnb-btn-{css_name(name)}")
            self.buttons[name] = by_class if by_class.count() == 1 else buttons.nth(index)
        # Without a class, the message line is the first HTML widget after the image.
        self.message_line = _preferred(self.root, ".calcnb-message", ".widget-html")

    # ------------------------------------------------------------ reading

    def message(self) -> str:
        return self.message_line.inner_text().strip()

    def image_src(self) -> str:
        return self.image.get_attribute("src") or ""

    def image_digest(self) -> str:
        """SHA-256 of the PNG the board image shows (blob URLs change on every update; the bytes may not)."""
        return self.image.evaluate(_DIGEST)

    def enabled(self) -> list[str]:
        """The names of the enabled buttons, in board order."""
        states = self.root.locator("button.jupyter-button").evaluate_all("bs => bs.map(b => !b.disabled)")
        return [name for name, on in zip(BOARD_BUTTONS, states) if on]

    def tooltip(self, name: str) -> str:
        return self.buttons[name].get_attribute("title") or ""

    # ------------------------------------------------------------ acting

    def click(self, name: str) -> str:
        """Click an enabled button and wait for the board image to be replaced; return the new message."""
        before = self.image_src()
        self.buttons[name].click()
        wait_for_new_src(self.page, self.image, before)
        return self.message()


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
    from calcnb.app import (
        LOCALHOST,
        free_port,
        notebooks_dir,
        start_server,
        stop_server,
        voila_command,
        wait_until_serving,
    )

    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        root = Path(scratch) / "notebooks"
        shutil.copytree(notebooks_dir(), root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        if prepare is not None:
            prepare(root)
        port = free_port()
        log_path = Path(scratch) / "voila.log"
        with log_path.open("wb") as log:
            process = start_server(voila_command(root, port=port), cwd=root, log=log)
            try:
                wait_until_serving(process, LOCALHOST, port)
                yield Server(f"http://{LOCALHOST}:{port}", root, log_path)
            finally:
                stop_server(process)
