"""JupyterHub for a school: every student logs in and gets a Jupyter server of their own, opened on the
calcnb play app (Voila, code hidden), with every student notebook at ``/user/NAME/voila/render/NAME.ipynb``.

Run it: ``jupyterhub -f deploy/jupyterhub_config.py`` in the environment where calcnb is installed
(the students' servers and kernels run in the same environment), then open http://127.0.0.1:8000/.

Two parts:

* **calcnb settings** (any hub: The Littlest JupyterHub, Zero to JupyterHub, this file): Voila runs
  inside each student's server as a Jupyter server extension, with the calcnb page (nothing fetched
  from beyond the hub), the widget extensions only, kernels culled 40 s after their page is closed
  but never before their page has had time to connect (calcnb's classroom kernel manager, as
  ``python -m calcnb app`` uses), and a student's server stopping itself after
  :data:`IDLE_SERVER_SECONDS` with no kernel left. A student's server is closed
  (:mod:`calcnb.serve.voila.hub`): Voila only, no JupyterLab, no terminals, no kernel, file or session API,
  no code from the browser run in a kernel, and a notebooks folder without ``teacher/`` (links to the
  students' notebooks, made in :data:`STUDENT_NOTEBOOKS`), so the teacher's answers are on no student's server.
  Its kernels talk over Unix sockets, and its pages are capped as the app's are (a few per device, and
  what the machine's memory holds in all).
  The settings come from :mod:`calcnb.serve.shared.settings` and :mod:`calcnb.serve.cli.commands` (and the
  notebooks from :mod:`calcnb.serve.shared.notebooks`), the same as ``python -m calcnb app`` uses.
* **a trial on one machine**: students log in with any name and the password ``calcnb``
  (``CALCNB_HUB_PASSWORD`` to change it), and every server runs as the user who started the hub, in a
  home folder under the hub's working folder. That is for a trial or a test only: on a real hub keep
  the authenticator and spawner of TLJH or Zero to JupyterHub and take only the calcnb settings.

``CALCNB_LANG=pt`` in the hub's environment runs every student's app in Portuguese.
"""

# ruff: noqa: F821  (``c`` and ``get_config`` are given by JupyterHub when it reads this file)

from __future__ import annotations

import os
import sys
from pathlib import Path

from calcnb.core.settings import HUB_NOTEBOOKS, HUB_PASSWORD, LANGUAGE
from calcnb.i18n import LANGUAGES, REFERENCE
from calcnb.serve.cli.commands import cap_options, culling_options, kernel_options, server_environment, voila_options
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import CLASSROOM_KERNEL_MANAGER, DEFAULT_APP_NOTEBOOK
from calcnb.serve.voila.hub import student_notebooks, student_server_options

c = get_config()

IDLE_SERVER_SECONDS = 15 * 60
# The students' notebooks folder: links to every notebook but the teacher's (CALCNB_HUB_NOTEBOOKS to serve others).
STUDENT_NOTEBOOKS = Path.cwd() / "hub-homes" / "_notebooks"

# ------------------------------------------------------------ calcnb settings (any hub)

language = (LANGUAGE.read() or REFERENCE).lower()
language = language if language in LANGUAGES else REFERENCE
# The students' servers run this Python (the environment calcnb is installed in), whatever their PATH.
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
source = Path(HUB_NOTEBOOKS.read() or notebooks_dir())
c.Spawner.notebook_dir = str(student_notebooks(source, STUDENT_NOTEBOOKS))
# Each student lands on the play app; the other notebooks are at /voila/render/<name>.ipynb beside it.
c.Spawner.default_url = f"/voila/render/{DEFAULT_APP_NOTEBOOK}"
# Where Voila finds the calcnb page, and the language of every kernel.
environment = server_environment(language=language)
c.Spawner.environment = {key: environment[key] for key in ("JUPYTER_PATH", LANGUAGE.variable)}
c.Spawner.args = [
    *voila_options(),
    *culling_options(),
    # Voila only: no JupyterLab, terminals, REST API beyond the page's own kernel, or code from the browser.
    *student_server_options(),
    # The culler spares a kernel whose page has not connected yet (a slow school network), as in the app.
    f"--ServerApp.kernel_manager_class={CLASSROOM_KERNEL_MANAGER}",
    # As in the app: kernels over Unix sockets, and the caps on pages (a student's pages from one device, and
    # in all: calcnb.serve.voila.gate; the defaults, or give numbers here). calcnb.serve.voila.hub gives the websockets
    # the app's ping.
    *kernel_options(),
    *cap_options(),
    # A student's server with no kernel and no activity for this long stops itself (and frees its memory).
    f"--ServerApp.shutdown_no_activity_timeout={IDLE_SERVER_SECONDS}",
]

# ------------------------------------------------------------ a trial on one machine

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = 8000
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = HUB_PASSWORD.read() or "calcnb"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"  # every server runs as this user: a trial, not a school
c.SimpleLocalProcessSpawner.home_dir_template = str(Path.cwd() / "hub-homes" / "{username}")
if hasattr(os, "geteuid") and os.geteuid() == 0:  # in a container: Jupyter refuses root unless told
    c.Spawner.args.append("--ServerApp.allow_root=True")
