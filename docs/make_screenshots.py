"""Regenerate the README's screenshots: the play app and the worked example, as Voila shows them.

Usage: ``python docs/make_screenshots.py`` (from anywhere). It serves a copy of ``notebooks/`` with
Voila on a free local port, opens the apps in Debian's chromium (``/usr/bin/chromium``) through
playwright, clicks them into an instructive state, and writes

* ``docs/play_app.png``: the play page (notebooks/play.ipynb) after a few moves and a hint, the whole
  screen of a classroom laptop (1366 x 768) as a student sees it;
* ``docs/worked_example.png``: notebooks/03_worked_example.ipynb at the step where A♠ wraps past K,
  on a 1280 x 800 screen scrolled to the example.

The clicks follow fixed rules on the notebook's fixed seed, so the pictures change only when the
app does. Each picture is reduced to a 256-colour palette to keep the repository small.
"""

from __future__ import annotations

import argparse
import io
import signal
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser tests' page helpers find the widgets' parts

from browser.pages import PlayApp, Server, StepperApp, live_move, voila_on_a_copy  # noqa: E402

from calcnb.serve.settings import CHROMIUM_ARGS, CHROMIUM_PATH  # noqa: E402

DOCS = REPO / "docs"
PLAY_SEED = 2026
PLAY_CLICKS = 24  # enough for cards on the wastes and the foundations, early enough to be a live game


def save_small(png: bytes, path: Path) -> None:
    """Write a screenshot as a 256-colour PNG (a UI of flat colours loses nothing visible)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    print(f"wrote {path.relative_to(REPO)} ({image.width} x {image.height} px, {path.stat().st_size // 1024} KiB)")


def play_app_picture(page, server: Server) -> bytes:
    page.set_viewport_size({"width": 1366, "height": 768})
    app = PlayApp(page, server, "play.ipynb")
    app.deal(PLAY_SEED)
    for clicks in range(PLAY_CLICKS):
        app.click(live_move(app.enabled(), clicks))
    if "T" in app.enabled():
        app.click("T")  # a turned card waiting makes the marks of where it may go visible
    app.click("hint")
    app.root.locator("details.calcnb-detail summary").click()  # the hint's reasons, one click away
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    return page.screenshot()


def worked_example_picture(page, server: Server) -> bytes:
    page.set_viewport_size({"width": 1280, "height": 800})
    app = StepperApp(page, server, "03_worked_example.ipynb")
    app.click(app.next)  # "Why A♠ fits foundation 2": the wrap past K
    app.root.evaluate("root => root.scrollIntoView({block: 'start'})")
    return page.screenshot()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally below stops the server
    with voila_on_a_copy("calcnb-screens-") as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        context = browser.new_context(viewport={"width": 1100, "height": 1000}, device_scale_factor=1)
        context.set_default_timeout(60_000)
        save_small(play_app_picture(context.new_page(), server), DOCS / "play_app.png")
        save_small(worked_example_picture(context.new_page(), server), DOCS / "worked_example.png")
        browser.close()


if __name__ == "__main__":
    main()
