"""What recording a class costs a student: click-to-feedback in the lesson app, with and without --class-log.

Usage: ``python benchmarks/bench_class_log.py [--students 10] [--seconds 60] [--rounds 2] [--postgresql URL]``

The lesson app (``python -m calcnb app 02_wraparound``) is started as a teacher starts it, once
without a class log and once with ``--class-log`` (a SQLite file, or ``--postgresql URL``), in
alternating rounds so the noise of a shared machine falls on both alike. In each, N students
(real chromium pages, Debian's ``/usr/bin/chromium``) open the lesson within the same second,
join the class with a nickname (when recording), then each checks an answer of the first
exercise every 2 s for the given time, alternating two answers whose feedback differs. The time
is taken inside the page with ``performance.now()``: from the Check button's click event to the
feedback's new text in the page (a MutationObserver). It prints p50/p95 click-to-feedback for
each mode, their ratio, the checks recorded against the checks made (nothing lost), and the
median time of one write to the log measured in this process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from calcnb.classroom.log import open_class_log  # noqa: E402
from calcnb.serve.cli import (  # noqa: E402
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    LOCALHOST,
    free_port,
    stop_server,
    wait_until_serving,
)
from calcnb.stats import percentile  # noqa: E402

ANSWERS = ("zzz", "1")  # an unreadable answer and a readable one: their feedback always differs

# Click Check in the page and time until the feedback shows new text.
_TIME_CHECK = """
async ([button, feedback]) => {
    const before = feedback.innerText;
    const changed = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no feedback in 30 s')), 30000);
        const observer = new MutationObserver(() => {
            if (feedback.innerText !== before) { clearTimeout(timer); observer.disconnect(); resolve(); }
        });
        observer.observe(feedback, {childList: true, subtree: true, characterData: true});
    });
    const start = performance.now();
    button.click();
    await changed;
    return performance.now() - start;
}
"""


@contextlib.contextmanager
def lesson_app(class_log: str | None) -> Iterator[str]:
    """``python -m calcnb app 02_wraparound`` (with ``--class-log`` when given) on a free port; yields its URL."""
    port = free_port()
    command = [sys.executable, "-m", "calcnb", "app", "02_wraparound", "--port", str(port), "--no-browser"]
    if class_log:
        command += ["--class-log", class_log]
    environment = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment,
                                   start_new_session=True)  # fmt: skip
        try:
            wait_until_serving(process, LOCALHOST, port, timeout=120)
            yield f"http://{LOCALHOST}:{port}/"
        finally:
            stop_server(process, timeout=60)


async def student(
    browser, url: str, nickname: str, recording: bool, seconds: float, times: list[float], errors: list[str]
) -> int:
    """One student's visit: open, join as ``nickname`` when recording, check every 2 s; returns the number of checks.

    A page that fails (never shows the lesson, no feedback in 30 s) is counted in ``errors``.
    """
    context = await browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(300_000)
    page = await context.new_page()
    checks = 0
    try:
        await page.goto(url, wait_until="domcontentloaded")
        if recording:
            box = page.locator(".calcnb-class-recorder input[type=text]")
            await box.fill(nickname)
            await box.press("Enter")
            await page.get_by_text(f"Joined as {nickname}").wait_for()
        exercise = page.locator(".calcnb-exercise").first
        answer_box = exercise.locator("input[type=text]")
        button = await exercise.get_by_role("button", name="Check").element_handle()
        feedback = await exercise.locator(".calcnb-feedback").element_handle()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            tick = time.monotonic()
            # The box sends its value as it is typed, on the same connection and so before the click; no Enter,
            # which checks the answer by itself.
            await answer_box.fill(ANSWERS[checks % 2])
            times.append(await page.evaluate(_TIME_CHECK, [button, feedback]))
            checks += 1
            await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - tick)))
    except Exception as error:
        errors.append(f"{nickname}: {str(error).splitlines()[0]}")
    finally:
        await context.close()
    return checks


async def one_class(
    url: str, students: int, recording: bool, seconds: float, errors: list[str], label: str = ""
) -> tuple[list[float], int]:
    """``students`` visits at once; each joins as ``{label}student{number}`` (a nickname nobody has used in the log)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=list(CHROMIUM_ARGS))
        try:
            times: list[float] = []
            counts = await asyncio.gather(
                *(
                    student(browser, url, f"{label}student{number}", recording, seconds, times, errors)
                    for number in range(students)
                )
            )
        finally:
            await browser.close()
    return times, sum(counts)


def write_time(location: str, writes: int = 300) -> float:
    """Median milliseconds of one recorded check written to the log at ``location``, in this process."""

    class Attempt:
        exercise_id, variant, answer, correct, misconception, language = "clock", 1, "14", False, "no_wraparound", "en"
        outcome = "wrong"  # the log's schema 2 keeps the outcome; a baseline tree of schema 1 reads correct
        timestamp = time.time()

    log = open_class_log(location)
    spent = []
    for _ in range(writes):
        start = time.perf_counter()
        log.record("bench", Attempt())
        spent.append((time.perf_counter() - start) * 1000)
    log.close()
    return statistics.median(spent)


def check_time(location: str | None, checks: int = 300) -> float:
    """Median milliseconds of one Check of a lesson exercise in this process, recorded into ``location`` or not."""
    from calcnb.classroom.recorder import join_class
    from calcnb.lessons.bank import BANK
    from calcnb.ui.lesson import Exercise

    recorder = join_class(location=location) if location else None
    if recorder is not None:
        recorder.join("bench", rejoin=True)  # the same benchmark student on every run
    exercise = Exercise(BANK["next-wrap"].item(0))
    spent = []
    for number in range(checks):
        start = time.perf_counter()
        exercise.check(ANSWERS[number % 2])
        spent.append((time.perf_counter() - start) * 1000)
    if recorder is not None:
        recorder.flush()
        assert recorder.recorded == checks and not recorder.stopped
        recorder.close()
    return statistics.median(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (off, on), alternating")
    parser.add_argument("--postgresql", default=None, help="record into this PostgreSQL URL instead of a SQLite file")
    arguments = parser.parse_args()

    results: dict[str, list[float]] = {"off": [], "on": []}
    made = recorded = 0
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="calcnb-bench-class-log-") as scratch:
        for round_number in range(arguments.rounds):
            for mode in ("off", "on") if round_number % 2 == 0 else ("on", "off"):
                location = None
                if mode == "on":
                    location = arguments.postgresql or str(Path(scratch) / f"round{round_number}.db")
                    before = 0 if not arguments.postgresql else open_class_log(location).count()
                with lesson_app(location) as url:
                    # one PostgreSQL log keeps every run's students: new nicknames each round and run
                    label = f"{os.getpid()}r{round_number}-"
                    visit = one_class(url, arguments.students, mode == "on", arguments.seconds, errors, label)
                    times, checks = asyncio.run(visit)
                results[mode] += times
                if location:
                    made += checks
                    recorded += open_class_log(location).count() - before
                p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
                label = f"round {round_number + 1} recording {mode}"
                print(f"{label}: {len(times)} checks, p50 {p50:.0f} ms, p95 {p95:.0f} ms", flush=True)
        single = write_time(arguments.postgresql or str(Path(scratch) / "writes.db"))
        in_process = {mode: [] for mode in ("off", "on")}
        for _ in range(3):  # interleaved, median of three
            in_process["off"].append(check_time(None))
            in_process["on"].append(check_time(arguments.postgresql or str(Path(scratch) / "checks.db")))

    plan = f"{arguments.students} students, a check every 2 s for {arguments.seconds:.0f} s"
    print(f"\n{plan}, {arguments.rounds} rounds")
    for mode in ("off", "on"):
        times = results[mode]
        print(f"click-to-feedback, recording {mode:3}: p50 {percentile(times, 0.5):6.0f} ms   "
              f"p95 {percentile(times, 0.95):6.0f} ms   ({len(times)} checks)")  # fmt: skip
    ratio50 = percentile(results["on"], 0.5) / percentile(results["off"], 0.5)
    ratio95 = percentile(results["on"], 0.95) / percentile(results["off"], 0.95)
    print(f"recording on / off: p50 x{ratio50:.2f}   p95 x{ratio95:.2f}   (target: p95 at most x1.10)")
    print(f"checks recorded: {recorded} of {made} made with recording on")
    print(f"errors: {len(errors)}", *(f"\n  {error}" for error in errors[:10]))
    kind = "PostgreSQL" if arguments.postgresql else "SQLite"
    print(f"one write to the class log ({kind}), in this process: median {single:.2f} ms")
    off, on = statistics.median(in_process["off"]), statistics.median(in_process["on"])
    print(
        f"one Check of an exercise, in this process: {off:.2f} ms without recording, {on:.2f} ms recording"
        f" into {kind} (x{on / off:.2f})"
    )


if __name__ == "__main__":
    main()
