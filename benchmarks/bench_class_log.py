"""What recording a class costs a student: click-to-feedback in the lesson app, with and without --class-log;
and (``--refresh``) what the teacher's class view costs to keep up with a big log.

Usage: ``python benchmarks/bench_class_log.py [--students 10] [--seconds 60] [--rounds 2] [--postgresql URL]``,
or ``python benchmarks/bench_class_log.py --refresh [--sizes 1000,100000,300000] [--repeat 7]``

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

With ``--refresh`` it fills a SQLite log with 1,000, 100,000 and 300,000 answers of 30 students
(rights, wrong answers with misconceptions, unreadable ones, reveals) and times the class view
(:class:`calcnb.classroom.view.ClassView`): its first reading of the whole log, and the median of
several readings each after one new answer arrives (what it does every 3 s during a lesson), in wall
and CPU time, each with its ratio to the 1,000-answer figure of the same run. For comparison it
also times a full reading as the view made it before it read only new answers (every row read,
every figure computed, the CSV of every answer made for its link).
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

from calcnb.classlog.store import open_class_log  # noqa: E402
from calcnb.lessons import BANK, DEFAULT_LESSON  # noqa: E402
from calcnb.serve.cli.process import free_port, stop_server, wait_until_serving  # noqa: E402
from calcnb.serve.shared.settings import CHROMIUM_ARGS, CHROMIUM_PATH, LOCALHOST  # noqa: E402
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


@contextlib.contextmanager
def _unlimited() -> Iterator[None]:
    """The per-student limit lifted, in every calcnb module that holds it (the benchmark checks 300 times at once)."""
    holders = [module for name, module in list(sys.modules.items()) if name.startswith("calcnb.")]
    holders = [module for module in holders if hasattr(module, "RATE_LIMITS")]
    limits = [module.RATE_LIMITS for module in holders]
    for module in holders:
        module.RATE_LIMITS = ((1.0, 10**9),)
    try:
        yield
    finally:
        for module, held in zip(holders, limits, strict=True):
            module.RATE_LIMITS = held


def check_time(location: str | None, checks: int = 300) -> float:
    """Median milliseconds of one Check of a lesson exercise in this process, recorded into ``location`` or not."""
    from calcnb.classroom.recorder import join_class
    from calcnb.lessons import BANK
    from calcnb.ui.lesson import Exercise

    recorder = join_class(location) if location else None
    exercise = Exercise(BANK["next-wrap"].item(0))
    spent = []
    with _unlimited():  # checks come faster than any student's, so the limit is lifted
        if recorder is not None:
            recorder.join(f"bench{time.time_ns()}")  # a new benchmark student on every run
        for number in range(checks):
            start = time.perf_counter()
            exercise.check(ANSWERS[number % 2])
            spent.append((time.perf_counter() - start) * 1000)
        if recorder is not None:
            outbox = getattr(recorder, "outbox", recorder)  # the writes' own object; the recorder itself before it
            outbox.flush()
            assert outbox.recorded == checks and not recorder.stopped, (outbox.recorded, checks)
            recorder.close()
    return statistics.median(spent)


def fill(location: str, answers: int, students: int = 30) -> None:
    """A class log of ``students`` who joined and ``answers`` checks of the lesson's exercises among them."""
    import random

    from calcnb.exercises.items import Attempt

    rng = random.Random(answers)
    log = open_class_log(location)
    names = [f"student{number:02}" for number in range(students)]
    for name in names:
        log.join(name)
    start = time.time() - answers
    outcomes = ("right", "wrong", "wrong", "unreadable", "revealed")
    ideas = ("no_wraparound", "off_by_one", None)
    for first in range(0, answers, 10_000):  # one transaction per batch of one student's answers
        batch = []
        for number in range(first, min(answers, first + 10_000)):
            outcome = rng.choice(outcomes)
            misconception = rng.choice(ideas) if outcome == "wrong" else None
            exercise = rng.choice(DEFAULT_LESSON.exercises)
            batch.append(Attempt(exercise, 0, str(number % 14), outcome, misconception, "en", start + number))
        log.record_many(names[first // 10_000 % students], batch)
    log.close()


def full_reading(location: str) -> None:
    """What the class view did at every reading before it read only new answers."""
    from calcnb.classlog.export import csv_text
    from calcnb.classlog.readings import class_status, exercise_stats, student_summaries
    from calcnb.classlog.summary import summary_csv

    log = open_class_log(location)
    rows, students = log.attempts(), log.students()
    class_status(students, rows)
    summaries = student_summaries(students, rows)
    exercise_stats(rows)
    summary_csv(summaries, DEFAULT_LESSON.exercises, BANK)
    csv_text(rows).encode("utf-8-sig")
    log.close()


def refresh_times(location: str, repeat: int) -> dict[str, float]:
    """Milliseconds (wall, CPU) of the class view's first reading and median reading after one new answer."""
    from calcnb.classroom.view import ClassView
    from calcnb.exercises.items import Attempt

    view = ClassView(open_class_log(location), order=DEFAULT_LESSON.exercises, bank=BANK)
    wall, cpu = time.perf_counter(), time.process_time()
    assert view.refresh()
    first = ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
    writer = open_class_log(location)
    walls, cpus = [], []
    for number in range(repeat):
        writer.record("student00", Attempt("clock", 0, "5", "wrong", None, "en", time.time() + 60 * number))
        wall, cpu = time.perf_counter(), time.process_time()
        assert view.refresh()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    writer.close()
    view.close()
    spent = []
    for _ in range(3 if repeat > 1 else 1):
        cpu = time.process_time()
        full_reading(location)
        spent.append((time.process_time() - cpu) * 1000)
    return {"first wall": first[0], "first cpu": first[1], "one new wall": statistics.median(walls),
            "one new cpu": statistics.median(cpus), "full cpu": statistics.median(spent)}  # fmt: skip


def bench_refresh(sizes: list[int], repeat: int) -> None:
    """Print the class view's reading times at each size, with ratios to the smallest size's."""
    figures = {}
    with tempfile.TemporaryDirectory(prefix="calcnb-bench-refresh-") as scratch:
        for size in sizes:
            location = str(Path(scratch) / f"log{size}.db")
            fill(location, size)
            figures[size] = refresh_times(location, repeat)
            print(f"{size:>8,} answers: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in figures[size].items()),
                  flush=True)  # fmt: skip
    base = figures[sizes[0]]
    print(f"\nclass view reading, median of {repeat} readings after one new answer (ratio to {sizes[0]:,} answers):")
    for size in sizes:
        row = figures[size]
        ratio = {name: row[name] / base[name] for name in row}
        print(
            f"{size:>8,} answers: one new answer {row['one new wall']:7.1f} ms wall (x{ratio['one new wall']:.2f}),"
            f" {row['one new cpu']:7.1f} ms CPU (x{ratio['one new cpu']:.2f});"
            f" first reading {row['first wall']:8.1f} ms wall (x{ratio['first wall']:.1f});"
            f" full reading as before {row['full cpu']:8.1f} ms CPU (x{ratio['full cpu']:.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (off, on), alternating")
    parser.add_argument("--postgresql", default=None, help="record into this PostgreSQL URL instead of a SQLite file")
    parser.add_argument("--refresh", action="store_true", help="time the class view's readings of a big log instead")
    parser.add_argument("--sizes", default="1000,100000,300000", help="answers in the log, for --refresh")
    parser.add_argument("--repeat", type=int, default=7, help="readings after one new answer, for --refresh")
    arguments = parser.parse_args()
    if arguments.refresh:
        bench_refresh([int(size) for size in arguments.sizes.split(",")], arguments.repeat)
        return

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
