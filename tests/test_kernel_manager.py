"""The classroom kernel manager: kernels warm up in turns (students first), and the culler spares kernels with no page.

Each test runs its asyncio loop in a thread of its own: the browser tests' sync Playwright may keep a loop
running in the main thread of the same test process.
"""

import asyncio
import concurrent.futures
from datetime import timedelta
from types import SimpleNamespace

import nbformat
import pytest
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from nbformat.sign import NotebookNotary

from calcnb.core.settings import VOILA_PREHEAT
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.voila import kernels as serving
from calcnb.serve.voila.app import trust_shipped_notebooks
from calcnb.serve.voila.kernels import PAGE_LOAD_SECONDS, ClassroomKernelManager


def _run(coroutine) -> None:
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        executor.submit(asyncio.run, coroutine).result(timeout=60)


def _kernel(idle_seconds: float, state: str = "idle") -> SimpleNamespace:
    return SimpleNamespace(last_activity=utcnow() - timedelta(seconds=idle_seconds), execution_state=state)


@pytest.fixture
def culled(monkeypatch) -> list[str]:
    """The kernels the classroom manager lets through to Jupyter Server's own idle check, in order (that check
    replaced by one that only notes them)."""
    reached: list[str] = []

    async def cull(_manager, kernel_id):
        reached.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "cull_kernel_if_idle", cull)
    return reached


def test_a_kernel_whose_page_never_connected_is_given_the_page_load_time(culled):
    async def cull_all() -> None:
        manager = ClassroomKernelManager()
        manager._kernels = {
            "page-loading": _kernel(PAGE_LOAD_SECONDS - 30),
            "page-never-came": _kernel(PAGE_LOAD_SECONDS + 5),
            "page-closed": _kernel(PAGE_LOAD_SECONDS - 30),
        }
        manager._kernel_connections = dict.fromkeys(manager._kernels, 0)
        manager.notify_connect("page-closed")
        manager.notify_disconnect("page-closed")
        for kernel_id in manager._kernels:
            await manager.cull_kernel_if_idle(kernel_id)

    _run(cull_all())
    # Jupyter Server's own rules (idle timeout, busy, connections) decide for the two that reach it.
    assert culled == ["page-never-came", "page-closed"]


def test_the_culler_leaves_alone_the_kernels_waiting_in_the_pool(culled):
    async def cull_both() -> None:
        loop = asyncio.get_running_loop()
        ready, starting = loop.create_future(), loop.create_future()
        ready.set_result({"kernel_id": "waiting"})
        manager = ClassroomKernelManager()
        manager._pools = {"play.ipynb": [ready, starting]}
        assert manager.pooled_kernels() == {"waiting"}
        for kernel in ("waiting", "a-student-left"):
            await manager.cull_kernel_if_idle(kernel)

    _run(cull_both())
    assert culled == ["a-student-left"]


def _starting(manager: ClassroomKernelManager, log: list, monkeypatch) -> None:
    """Replace Jupyter Server's start with one that records who starts and how many are warming meanwhile."""

    async def start(_manager, **kwargs):
        name = kwargs["kernel_name"]
        log.append((name, manager._warming))
        await asyncio.sleep(0.05)
        manager._kernels[name] = _kernel(0, state="busy")  # running the notebook, then idle and quiet
        manager._kernel_connections[name] = 0

        async def finish():
            await asyncio.sleep(0.3)
            manager._kernels[name] = _kernel(serving.WARM_UP_QUIET_SECONDS + 1)

        asyncio.get_running_loop().create_task(finish())
        return name

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)


@pytest.mark.slow
def test_kernels_warm_up_in_turns_students_before_pool_refills(monkeypatch):
    log: list[tuple[str, int]] = []

    async def a_class_arrives() -> None:
        manager = ClassroomKernelManager(warm_up_slots=2)
        _starting(manager, log, monkeypatch)
        pooled = {"env": {VOILA_PREHEAT.variable: "True"}}
        # The pool's first filling, before any page: at a student's pace.
        await asyncio.gather(*(manager.start_kernel(kernel_name=f"pool-{i}", **pooled) for i in range(2)))
        manager.notify_connect("pool-0")  # a student took a pooled kernel: from now on the pool refills
        starts = [manager.start_kernel(kernel_name="refill-0", **pooled)]
        starts += [manager.start_kernel(kernel_name=f"student-{i}") for i in range(4)]
        starts.append(manager.start_kernel(kernel_name="refill-1", **pooled))
        await asyncio.gather(*starts)
        while manager._warming:
            await asyncio.sleep(0.05)

    _run(a_class_arrives())
    order = [name for name, _ in log]
    assert order[:2] == ["pool-0", "pool-1"]
    # refill-0 asked before the students but got no slot while they waited; refills warm up one at a time.
    assert order[2:] == ["student-0", "student-1", "student-2", "student-3", "refill-0", "refill-1"]
    warming = dict(log)
    assert max(warming[f"student-{i}"] for i in range(4)) == 2  # two at once, the slots given, never more
    assert warming["refill-0"] == 1 and warming["refill-1"] == 1  # each refill alone


def test_the_app_trusts_its_own_notebooks_and_no_other(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))  # a signature store of this test's own
    served = tmp_path / "served"
    served.mkdir()
    own = served / "play.ipynb"
    own.write_bytes((notebooks_dir() / "play.ipynb").read_bytes())
    changed = served / "changed.ipynb"
    notebook = nbformat.read(notebooks_dir() / "01_rules.ipynb", as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell("print('a teacher added this')"))
    nbformat.write(notebook, changed)

    assert trust_shipped_notebooks(served) == [own]
    notary = NotebookNotary()
    assert notary.check_signature(nbformat.read(own, as_version=4))
    assert not notary.check_signature(nbformat.read(changed, as_version=4))
    assert trust_shipped_notebooks(own) == [own]  # a single notebook served, already signed: still trusted
