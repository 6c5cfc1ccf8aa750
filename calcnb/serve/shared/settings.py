"""The servers' own settings, declared once: default ports and notebook, hosts, limits, Voila's template and extensions.

Every number and name the command line, the app's Voila, a hub's servers and the tests' browser share
lives here, typed and explained, so no module keeps a copy of its own. What the *kernels* read from
their environment is not here but in :mod:`calcnb.core.settings`. How the servers are culled
(:data:`CULL_IDLE_SECONDS`), kept safe and kept off the internet is told in ``docs/design.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from calcnb.core.resources import share_dir

__all__ = [
    "ALL_INTERFACES",
    "APP_SERVERS",
    "BUILD_SECONDS",
    "CHROMIUM_ARGS",
    "CHROMIUM_PATH",
    "CLASSROOM_KERNEL_MANAGER",
    "CLASS_VIEW_NOTEBOOK",
    "CULL_IDLE_SECONDS",
    "CULL_INTERVAL_SECONDS",
    "DEFAULT_APP_NOTEBOOK",
    "DEFAULT_APP_PORT",
    "DEFAULT_CLASS_VIEW_PORT",
    "DEFAULT_LAB_PORT",
    "DEFAULT_LESSON_PORT",
    "DEFAULT_PROJECTOR_PORT",
    "IOPUB_OUTPUT_SECONDS",
    "JUPYTER_DATA_DIR",
    "LOCALHOST",
    "MAX_PAGES",
    "MAX_PREHEAT",
    "POOL_REFILL_DELAY_SECONDS",
    "PORT_RANGE",
    "PROJECTOR_NOTEBOOK",
    "SOLARA_MODULE",
    "VOILA_EXTENSIONS",
    "VOILA_LABEXTENSIONS",
    "VOILA_MODULE",
    "VOILA_TEMPLATE",
]

# ------------------------------------------------------------ what is served, and where

DEFAULT_APP_NOTEBOOK: Final[str] = "play.ipynb"
#: The teacher's live view of a class log, inside the notebooks folder (served by ``class-view`` alone).
CLASS_VIEW_NOTEBOOK: Final[Path] = Path("teacher") / "class_view.ipynb"
#: What the whole class may see of a class log (served by ``class-view --projector`` alone, on its own port).
PROJECTOR_NOTEBOOK: Final[Path] = Path("teacher") / "projector.ipynb"
DEFAULT_APP_PORT: Final[int] = 8866
DEFAULT_LESSON_PORT: Final[int] = 8868  # a lesson and the play app run side by side, each on its own port
DEFAULT_CLASS_VIEW_PORT: Final[int] = 8867
DEFAULT_PROJECTOR_PORT: Final[int] = 8869  # apart from the class view's: the projector never shows its page
DEFAULT_LAB_PORT: Final[int] = 8888
LOCALHOST: Final[str] = "127.0.0.1"
ALL_INTERFACES: Final[str] = "0.0.0.0"  # ``--host 0.0.0.0``: for a trusted classroom network only
PORT_RANGE: Final[tuple[int, int]] = (0, 65535)  # 0: any free port, chosen when the server starts

# ------------------------------------------------------------ limits

# Kernels nobody is connected to are shut down after this long idle, checked this often (see docs/design.md).
CULL_IDLE_SECONDS: Final[int] = 40
CULL_INTERVAL_SECONDS: Final[int] = 10
MAX_PREHEAT: Final[int] = 200  # kernels kept ready: about 100 MB each
MAX_PAGES: Final[int] = 10_000  # the largest cap on pages (--max-kernels, --max-pages-per-device) the command takes
POOL_REFILL_DELAY_SECONDS: Final[int] = 5
IOPUB_OUTPUT_SECONDS: Final[int] = 60  # how long Voila waits for a finished cell's output (see voila_options)
# How long the class server lets one page's notebook run before it stops it and tells its pupil: pages are built
# in turns, so a notebook that never ends would keep every later pupil waiting. A page builds in well under a
# second alone and in a few on a busy laptop; a build ten times slower is stuck, not slow.
BUILD_SECONDS: Final[float] = 30.0

# ------------------------------------------------------------ the app's servers

#: The servers ``calcnb app --server`` runs, the default first: Solara (one process for the whole class, a
#: virtual kernel per page) and Voila (a kernel process per page).
APP_SERVERS: Final[tuple[str, ...]] = ("solara", "voila")
SOLARA_MODULE: Final[str] = "calcnb.serve.class_server.app"

# ------------------------------------------------------------ the app's Voila

CLASSROOM_KERNEL_MANAGER: Final[str] = "calcnb.serve.voila.kernels.ClassroomKernelManager"
VOILA_MODULE: Final[str] = "calcnb.serve.voila.app"  # Voila, with /logout and /voila/templates/ answering right
# The Voila template of the app (Voila's "lab" page, nothing fetched from outside) and where Jupyter finds it.
VOILA_TEMPLATE: Final[str] = "calcnb"
JUPYTER_DATA_DIR: Final[Path] = share_dir()
# The JupyterLab extensions a page loads: the widget managers and the widget libraries the notebooks use
# (ipywidgets, ipyvue). A widget library added to the notebooks must be added here too.
VOILA_EXTENSIONS: Final[tuple[str, ...]] = (
    "@voila-dashboards/widgets-manager8",
    "@jupyter-widgets/jupyterlab-manager",
    "jupyter-vue",  # the play board, its coach and the lessons' clickable pictures are Vue templates (ui/view.py)
)
# Voila's widget manager as Voila 0.5.8 built it, found before the one Voila installs: the page's JupyterLab core
# is 4.2.5 in every Voila 0.5, and only 0.5.8's widget manager was built against it (0.5.13's asks for ^4.5.10,
# and the browser console warned of 13 unsatisfied versions at every visit). The same source, other lock file.
VOILA_LABEXTENSIONS: Final[Path] = JUPYTER_DATA_DIR / "voila" / "labextensions"

# ------------------------------------------------------------ the browser of the tests, screenshots and benchmarks

# Debian's chromium, driven by playwright (never downloaded): its headless shell where installed (Debian's package
# chromium-headless-shell, the same Blink and V8 without the browser's window layers, as Playwright's own headless
# mode uses), which draws the same pages on a good third less processor; else the browser itself.
CHROMIUM_PATH: Final[str] = next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(path).exists()),
    "/usr/bin/chromium",
)
CHROMIUM_ARGS: Final[tuple[str, ...]] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
