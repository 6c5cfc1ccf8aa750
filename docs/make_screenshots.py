"""Regenerate the README's and the teacher's guide's screenshots.

Usage: ``python docs/make_screenshots.py [--readme] [--teachers]`` (from anywhere; both by default). It
serves a copy of ``notebooks/`` with Voila on a free local port, opens the apps in Debian's chromium
(``/usr/bin/chromium``) through playwright, clicks them into an instructive state, and writes

* ``docs/play_app.png``: the play page (notebooks/play.ipynb) after a few moves and a hint, the whole
  screen of a classroom laptop (1366 x 768) as a student sees it;
* ``docs/worked_example.png``: notebooks/03_worked_example.ipynb at the step where A♠ wraps past K,
  on a 1280 x 800 screen scrolled to the example.

For the teacher's guide (``docs/teachers.md``) it starts the lesson as the guide's step 4 does
(``calcnb app 02_wraparound --class-log ... --class-code maths7``) and the class view as its step 6 does,
and writes, at a classroom laptop's 1366 x 768:

* ``docs/teachers_address.png``: the page the teacher projects (the address, the class code, the QR code);
* ``docs/teachers_lesson.png``: a pupil's page after the class code, the nickname and a first answer;
* ``docs/teachers_class_view.png``: the teacher's class view once two pupils have answered.

The clicks follow fixed rules on the notebook's fixed seed, so the pictures change only when the
app does. Each picture is reduced to a 256-colour palette to keep the repository small.
"""

from __future__ import annotations

import argparse
import io
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser tests' page helpers find the widgets' parts

from browser.pages import PlayApp, Server, StepperApp, live_move, voila_on_a_copy  # noqa: E402

from calcnb.serve.cli.process import free_port, stop_server, wait_until_serving  # noqa: E402
from calcnb.serve.shared.settings import CHROMIUM_ARGS, CHROMIUM_PATH, LOCALHOST  # noqa: E402

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


LAPTOP = {"width": 1366, "height": 768}
CLASS_CODE = "maths7"  # the teacher's guide's own


def _calcnb(*arguments: str, cwd: Path) -> tuple[subprocess.Popen, int]:
    """Start ``calcnb ARGUMENTS`` on a free port as a teacher's terminal does; (the process, its port)."""
    port = free_port()
    command = [sys.executable, "-m", "calcnb", *arguments, "--no-browser", "--port", str(port)]
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    return process, port


def _answer(page, exercise_index: int, text: str) -> None:
    exercise = page.locator(".calcnb-exercise").nth(exercise_index)
    exercise.locator("input[type=text]").fill(text)
    exercise.get_by_role("button", name="Check").click()
    feedback = exercise.locator(".calcnb-feedback")
    page.wait_for_function("node => node.innerText.trim() !== ''", arg=feedback.element_handle())


def _pupil(browser, url: str, nickname: str, answers: list[str]):
    """A pupil's page: the class code, the nickname, then ``answers`` to the first exercises in turn."""
    context = browser.new_context(viewport=LAPTOP, device_scale_factor=1)
    context.set_default_timeout(120_000)
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded")
    page.locator("#calcnb-code input[type=text], #calcnb-code input:not([type=hidden])").first.fill(CLASS_CODE)
    page.locator("#calcnb-code").evaluate("form => form.requestSubmit()")
    recorder = page.locator(".calcnb-class-recorder")
    recorder.wait_for(state="visible")
    recorder.get_by_placeholder("a nickname").fill(nickname)
    recorder.get_by_placeholder("a nickname").press("Enter")
    recorder.get_by_text(f"Joined as {nickname}").wait_for()
    for index, text in enumerate(answers):
        _answer(page, index, text)
    return page


def teachers_pictures(browser) -> None:
    """The teacher's guide's pictures: the page to project, a pupil's lesson, and the class view."""
    with tempfile.TemporaryDirectory(prefix="calcnb-guide-") as folder:
        work = Path(folder)
        classroom = ["app", "02_wraparound", "--host", "0.0.0.0", "--class-log", "lesson.db"]
        app, port = _calcnb(*classroom, "--class-code", CLASS_CODE, cwd=work)  # as the guide's step 4
        view = None
        try:
            wait_until_serving(app, LOCALHOST, port, timeout=90)
            said = ""
            deadline = time.monotonic() + 30
            while "project this page" not in said and time.monotonic() < deadline:
                said += app.stdout.readline()
            address_page = re.search(r"project this page: (file:\S+)", said).group(1)
            projector = browser.new_page(viewport=LAPTOP, device_scale_factor=1)
            projector.goto(address_page)
            save_small(projector.screenshot(), DOCS / "teachers_address.png")

            url = f"http://{LOCALHOST}:{port}/"
            _pupil(browser, url, "Bruno", ["14", "K"])
            page = _pupil(browser, url, "Ana", ["1"])  # a slip past the King: the feedback names it
            page.locator(".calcnb-exercise").first.scroll_into_view_if_needed()
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            save_small(page.screenshot(), DOCS / "teachers_lesson.png")

            view, view_port = _calcnb("class-view", "lesson.db", "--lesson", "02_wraparound", cwd=work)
            wait_until_serving(view, LOCALHOST, view_port, timeout=90)
            teacher = browser.new_page(viewport=LAPTOP, device_scale_factor=1)
            teacher.goto(f"http://{LOCALHOST}:{view_port}/", wait_until="domcontentloaded")
            teacher.get_by_text("Bruno").first.wait_for(timeout=120_000)
            teacher.wait_for_timeout(1000)  # the bars drawn
            save_small(teacher.screenshot(), DOCS / "teachers_class_view.png")
        finally:
            for process in (app, view):
                if process is not None:
                    stop_server(process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", action="store_true", help="only the README's pictures")
    parser.add_argument("--teachers", action="store_true", help="only the teacher's guide's pictures")
    arguments = parser.parse_args()
    both = not (arguments.readme or arguments.teachers)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally below stops the server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        if both or arguments.readme:
            with voila_on_a_copy("calcnb-screens-") as server:
                context = browser.new_context(viewport={"width": 1100, "height": 1000}, device_scale_factor=1)
                context.set_default_timeout(60_000)
                save_small(play_app_picture(context.new_page(), server), DOCS / "play_app.png")
                save_small(worked_example_picture(context.new_page(), server), DOCS / "worked_example.png")
        if both or arguments.teachers:
            teachers_pictures(browser)
        browser.close()


if __name__ == "__main__":
    main()
