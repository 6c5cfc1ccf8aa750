"""Pages built in turns: in the order the pupils came, never more at once than allowed, and every turn ends."""

from __future__ import annotations

import threading
import time

import pytest

from calcnb.serve.class_server.turns import TakingTurns


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
