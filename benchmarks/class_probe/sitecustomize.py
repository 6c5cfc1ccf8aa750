"""What ``benchmarks/bench_class.py`` reads inside the class server: how many Solara virtual kernels it holds.

Solara keeps a visit's virtual kernel in its own process, and the class server shows nobody a list of them
(``/resourcez`` is refused to a class), so the benchmark puts this folder on the Solara server's
``PYTHONPATH`` (Python imports ``sitecustomize`` at start-up) with ``CALCNB_BENCH_PROBE`` naming a file.
In the class server's process only (``python -m calcnb.serve.class_server.app``), a thread then writes into that
file, once a second, one line: the time, the virtual kernels Solara holds, those not yet closed, and the
pages connected to them. Anywhere else, or without the variable, this module does nothing. Reading a dict's
length once a second costs the server nothing measurable.
"""

from __future__ import annotations

import os
import sys

_FILE = os.environ.get("CALCNB_BENCH_PROBE")


def _watch(path: str) -> None:
    import time

    while True:
        module = sys.modules.get("solara.server.kernel_context")
        if module is not None:
            try:
                contexts = list(module.contexts.values())
                alive = [context for context in contexts if not context.closed_event.is_set()]
                connected = sum(
                    1
                    for context in alive
                    for status in list(context.page_status.values())
                    if status.name == "CONNECTED"
                )
                line = f"{time.time():.1f} {len(contexts)} {len(alive)} {connected}\n"
                with open(path + ".new", "w") as probe:
                    probe.write(line)
                os.replace(path + ".new", path)
            except Exception as error:  # a probe never takes the server down
                with open(path + ".error", "a") as probe:
                    probe.write(f"{type(error).__name__}: {error}\n")
        time.sleep(1.0)


if _FILE and "calcnb.serve.class_server.app" in getattr(sys, "orig_argv", ()):
    import threading

    threading.Thread(target=_watch, args=(_FILE,), name="calcnb-bench-probe", daemon=True).start()
