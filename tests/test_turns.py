"""Pages built in turns: in the order the pupils came, never more at once than allowed, every turn ends, and a turn
past its time limit is stopped and given to the next."""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Iterator

import pytest

from calcnb.serve.class_server.turns import TakingTurns, TooLong


@pytest.mark.parametrize("at_once", [1, 2])
def test_turns_are_taken_in_the_order_asked_and_never_more_at_once_than_allowed(at_once):
    turns = TakingTurns(at_once)
    started: list[int] = []
    inside = 0
    most = 0
    lock = threading.Lock()
    holding = threading.Event()

    def build(pupil: int) -> None:
        nonlocal inside, most
        with turns:
            with lock:
                started.append(pupil)
                inside += 1
                most = max(most, inside)
            holding.wait(10)
            time.sleep(0.002)
            with lock:
                inside -= 1

    threads = []
    for pupil in range(12):
        thread = threading.Thread(target=build, args=(pupil,))
        thread.start()
        threads.append(thread)
        time.sleep(0.01)  # the pupils arrive one after the other, while the first turns are held
    holding.set()
    for thread in threads:
        thread.join(10)
    assert started == list(range(12))
    assert most == at_once


def test_a_turn_that_fails_still_ends():
    turns = TakingTurns()
    with pytest.raises(RuntimeError), turns:
        raise RuntimeError("the notebook failed")
    done = threading.Event()

    def next_pupil() -> None:
        with turns:
            done.set()

    threading.Thread(target=next_pupil).start()
    assert done.wait(5)


def test_work_past_its_limit_is_stopped_and_the_next_in_line_goes_on():
    turns = TakingTurns(limit=0.5)
    stuck_started = threading.Event()
    stuck_ended = threading.Event()
    outcomes: dict[str, object] = {}

    def never_ends() -> None:  # a notebook's first cell that never ends (a Python loop: it can be stopped)
        stuck_started.set()
        try:
            while True:
                time.sleep(0.01)
        finally:
            stuck_ended.set()

    def first_pupil() -> None:
        try:
            turns.run(never_ends)
        except TooLong as late:
            outcomes["first"] = late

    first = threading.Thread(target=first_pupil)
    first.start()
    assert stuck_started.wait(10)
    outcomes["second"] = turns.run(lambda: "the second pupil's page")  # waits for the turn, then gets it
    first.join(10)
    assert isinstance(outcomes["first"], TooLong) and outcomes["first"].seconds == 0.5
    assert outcomes["second"] == "the second pupil's page"
    assert stuck_ended.wait(10)  # the stuck work was stopped, not only left behind


def test_work_within_its_limit_gives_its_value_or_raises_what_it_raised_in_the_callers_context():
    turns = TakingTurns(limit=30)
    pupil: contextvars.ContextVar[str] = contextvars.ContextVar("pupil")
    pupil.set("ana")
    assert turns.run(pupil.get) == "ana"  # the work runs with the caller's context variables
    with pytest.raises(ZeroDivisionError):
        turns.run(lambda: 1 / 0)
    assert turns.run(lambda: "next") == "next"  # a turn that failed still ended


@contextlib.contextmanager
def _held_by_another_thread(turns: TakingTurns) -> Iterator[None]:
    """A turn held by another thread (an earlier visit) until the block ends."""
    inside = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with turns:
            inside.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join(10)


def test_turns_are_busy_while_work_has_or_awaits_a_turn():
    turns = TakingTurns(1)
    assert not turns.busy
    with _held_by_another_thread(turns):
        assert turns.busy
    assert not turns.busy


def test_a_thread_holding_a_turn_takes_it_again_inside_and_the_next_waits_for_the_outer_end():
    turns = TakingTurns()
    inner_done = threading.Event()
    next_in = threading.Event()

    def next_pupil() -> None:
        with turns:
            next_in.set()

    with turns:
        waiting = threading.Thread(target=next_pupil)
        waiting.start()
        with turns:  # the page's build inside its app's load: no wait for itself
            inner_done.set()
        assert not next_in.wait(0.2)  # the inner end does not end the turn
    assert inner_done.is_set()
    assert next_in.wait(5)
    waiting.join(5)
    assert not turns.busy


def test_solaras_whole_app_load_takes_the_visits_turn_and_the_build_inside_it_does_not_wait(monkeypatch):
    solara_app = pytest.importorskip("solara.server.app")
    from calcnb.serve.class_server import page

    turns = TakingTurns()
    seen: list[bool] = []

    def load_app_widget(app_state, app_script, pathname):  # Solara's, as the page's build meets it
        seen.append(turns.busy)
        with turns:  # the page's build, in the turn its thread already holds
            return f"loaded {pathname}"

    monkeypatch.setattr(page, "PAGE_TURNS", turns)
    monkeypatch.setattr(solara_app, "load_app_widget", load_app_widget)
    page.load_apps_in_turn()
    page.load_apps_in_turn()  # once only
    wrapped = solara_app.load_app_widget
    assert wrapped is not load_app_widget and wrapped.__wrapped__ is load_app_widget

    loaded: list[str] = []
    with _held_by_another_thread(turns):
        second = threading.Thread(target=lambda: loaded.append(wrapped(None, None, "/")))
        second.start()
        second.join(0.2)
        assert second.is_alive() and loaded == []  # the app's load waits for the earlier visit's turn
    second.join(5)
    assert loaded == ["loaded /"] and seen == [True]
    assert not turns.busy
