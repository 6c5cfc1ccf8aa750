"""Virtual kernels made ahead: each page gets its own, never one another page had; none is made while pages are
being taken; the pool refills once the class has arrived; and Solara is given the pool in place of its kernel."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from calcnb.serve.class_server import kernel_pool
from calcnb.serve.class_server.kernel_pool import KernelPool


class Made:
    """What a pool hands out here: numbered, so a test can tell each apart."""

    count = itertools.count()

    def __init__(self) -> None:
        self.number = next(self.count)

    @classmethod
    def instance(cls) -> str:
        return "the class's own"


def test_every_call_gets_a_different_object_and_a_ready_one_first():
    pool = KernelPool(Made, size=3, quiet_seconds=0.0)
    while pool.fill_once():
        pass
    assert pool.ready == 3
    ready = list(pool._ready)
    taken = [pool() for _ in range(5)]  # three ready, then two made on the spot
    assert taken[:3] == ready
    assert len({id(made) for made in taken}) == 5
    assert pool.ready == 0


def test_nothing_is_made_while_pages_are_being_taken():
    pool = KernelPool(Made, size=3, quiet_seconds=60.0)
    pool()  # a page came just now
    assert pool.fill_once() is False
    assert pool.ready == 0


def test_the_pool_refills_on_its_own_once_quiet_and_stops_at_its_size():
    pool = KernelPool(Made, size=4, quiet_seconds=0.2)
    pool.start()
    deadline = time.monotonic() + 10
    while pool.ready < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.ready == 4
    for _ in range(4):
        pool()
    assert pool.ready == 0
    time.sleep(0.1)  # within the quiet time: a class may still be arriving
    assert pool.ready == 0
    deadline = time.monotonic() + 10
    while pool.ready < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.ready == 4
    time.sleep(0.1)
    assert pool.ready == 4  # no more than its size


def test_nothing_is_made_while_pages_wait_for_their_build():
    building = True
    pool = KernelPool(Made, size=3, quiet_seconds=0.0, busy=lambda: building)
    assert pool.fill_once() is False
    building = False
    assert pool.fill_once() is True


def test_taken_from_many_threads_at_once_no_object_is_handed_out_twice():
    pool = KernelPool(Made, size=50, quiet_seconds=0.0)
    while pool.fill_once():
        pass
    taken: list[Made] = []
    lock = threading.Lock()

    def take() -> None:
        for _ in range(10):
            made = pool()
            with lock:
                taken.append(made)

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 80
    assert len({id(made) for made in taken}) == 80


def test_the_pool_answers_for_its_class_otherwise():
    assert KernelPool(Made).instance() == "the class's own"


def test_solara_is_given_a_started_pool_of_its_own_kernels(monkeypatch):
    solara_kernels = pytest.importorskip("solara.server.kernel_context")
    from solara.server.kernel import Kernel

    monkeypatch.setattr(solara_kernels, "Kernel", Kernel)
    monkeypatch.setattr(KernelPool, "start", lambda self: None)  # no thread: this test makes its own
    pool = kernel_pool.install(2)
    assert pool is not None and solara_kernels.Kernel is pool and pool.make is Kernel
    assert kernel_pool.install(5) is pool  # installed once
    pool.quiet_seconds = 0.0
    assert pool.fill_once()
    made = pool()
    assert isinstance(made, Kernel) and made.shell is not None
    made.close()
