"""JupyterHub for a school: every pupil logs in to the hub and meets the lessons on one class server, which costs
the hub one process for the whole class, not one per pupil.

Run it: ``jupyterhub -f deploy/jupyterhub_config.py`` in the environment where calcnb is installed, then open
http://127.0.0.1:8000/. The README's "Serving a school" says how to take it to The Littlest JupyterHub or to
Kubernetes (Zero to JupyterHub): each of the three parts below stands on its own, so a hub takes the parts it
needs.

* **calcnb's class server** (``CALCNB_HUB_SERVER`` unset or ``class``; any hub): the hub runs calcnb's class
  server as a service of its own (:mod:`calcnb.serve.class_server.hub`), at ``/services/calcnb/``: one Solara
  process, a virtual kernel per page, the same gate as on a teacher's laptop (class code, caps, server-gone
  banner). Pupils log in through the hub (its OAuth); the service knows each by their hub name, caps their pages
  by it, and refuses one pupil's page to another. Pupils land on it after logging in. The class log
  (``CALCNB_CLASS_LOG``), the class code (``CALCNB_CLASS_CODE``), Show answer off (``CALCNB_NO_REVEAL``) and the
  language (``CALCNB_LANG``) are read from the hub's environment and given to the service. With a class log, the
  teacher's two views of it are services of their own, for the hub's admins and the names in
  ``CALCNB_HUB_TEACHERS`` only: the class view (``/services/calcnb-class-view/``, nicknames and answers: the
  teacher's own screen) and the projector view (``/services/calcnb-projector/``, counts only: the wall). The
  notebooks served to pupils are a copy without ``teacher/`` (:func:`calcnb.serve.class_server.hub.pupil_notebooks`).
  ``CALCNB_HUB_SERVICE_PORT`` (default 8870; the class view the next port, the projector the one after) and, where
  the proxy runs elsewhere (Kubernetes), ``CALCNB_HUB_SERVICE_HOST`` say where they listen.
* **a pupil's own server** (the landing page with ``CALCNB_HUB_SERVER=voila``): Voila runs inside each pupil's
  Jupyter server, closed (:mod:`calcnb.serve.voila.hub`: Voila only, no JupyterLab, terminals, or code from the
  browser; no ``teacher/``), about 260 MB a pupil (the server and the page's kernel). It suits a hub whose
  pupils run long computations (the strategy lab's searches), which on one class server share one processor core.
* **a trial on one machine**: pupils log in with any name and the password ``calcnb`` (``CALCNB_HUB_PASSWORD`` to
  change it), and every server runs as the user who started the hub, in a home folder under the hub's working
  folder. That is for a trial or a test only: on a real hub keep the authenticator and spawner of TLJH or Zero
  to JupyterHub and take only the calcnb parts.
"""

# ruff: noqa: F821, E402  (``c`` and ``get_config`` are given by JupyterHub; each part brings its own imports)

from __future__ import annotations

c = get_config()

# ------------------------------------------------------------ calcnb's class server (a service of the hub)

import sys
from pathlib import Path

from calcnb.core.settings import (
    CLASS_CODE,
    CLASS_LOG,
    HUB_NOTEBOOKS,
    HUB_SERVER,
    HUB_SERVICE_HOST,
    HUB_SERVICE_PORT,
    HUB_TEACHERS,
    LANGUAGE,
    NO_REVEAL,
)
from calcnb.i18n import LANGUAGES, REFERENCE
from calcnb.serve.class_server.hub import pupil_notebooks
from calcnb.serve.cli.environments import class_log_environment, class_view_environment, projector_environment
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import ALL_INTERFACES, CLASS_VIEW_NOTEBOOK, LOCALHOST, PROJECTOR_NOTEBOOK

SERVICE = "calcnb"
CLASS_VIEW_SERVICE = "calcnb-class-view"
PROJECTOR_SERVICE = "calcnb-projector"
# The notebooks the class server serves: a copy without the teacher's, in the hub's working folder.
CLASS_NOTEBOOKS = Path.cwd() / "calcnb-class-notebooks"

if (HUB_SERVER.read() or "class") == "class":
    language = (LANGUAGE.read() or REFERENCE).lower()
    language = language if language in LANGUAGES else REFERENCE
    served = pupil_notebooks(Path(HUB_NOTEBOOKS.read() or notebooks_dir()), CLASS_NOTEBOOKS)
    served = served / language if (served / language).is_dir() else served  # the language's twins, if any
    # Where the hub's proxy reaches the services: this machine, or (Kubernetes) the hub's pod by its name.
    host, port = HUB_SERVICE_HOST.read() or LOCALHOST, int(HUB_SERVICE_PORT.read() or 8870)
    command = [sys.executable, "-m", "calcnb.serve.class_server.hub"]
    command += [] if host == LOCALHOST else [f"--ip={ALL_INTERFACES}"]
    # What the service is told (the hub passes a service little of its own environment): the language, and as
    # on a laptop the class log (opened now, so a bad location stops the hub with a clear message), the class
    # code and Show answer off.
    told = {LANGUAGE.variable: language}
    CLASS_CODE.write(told, CLASS_CODE.read())
    NO_REVEAL.write(told, NO_REVEAL.read())
    log = CLASS_LOG.read()
    if log is not None:
        told[CLASS_LOG.variable] = class_log_environment({}, log)[CLASS_LOG.variable]
    services = [
        {
            "name": SERVICE,
            "url": f"http://{host}:{port}",
            "command": [*command, str(served)],
            "environment": told,
            "oauth_no_confirm": True,  # a pupil is not asked whether calcnb may know their name
            "display": True,
        }
    ]
    # Every user of the hub may open the class server; pupils land there after logging in.
    roles = [{"name": "user", "scopes": ["self", f"access:services!service={SERVICE}"]}]
    c.JupyterHub.default_url = f"/services/{SERVICE}/"
    if log is not None:  # the teacher's two views of the log, on the next ports: for the admins and teachers named
        views = {
            CLASS_VIEW_SERVICE: (CLASS_VIEW_NOTEBOOK, class_view_environment),  # nicknames: the teacher's own screen
            # Counts only: its process is told the log as the projector's, so even the class view's notebook would
            # find no log there, and a projected screen cannot show a nickname.
            PROJECTOR_SERVICE: (PROJECTOR_NOTEBOOK, projector_environment),
        }
        for offset, (name, (notebook, view_environment)) in enumerate(views.items(), start=1):
            services.append(
                {
                    "name": name,
                    "url": f"http://{host}:{port + offset}",
                    "command": [*command, str(notebooks_dir() / notebook)],
                    "environment": {LANGUAGE.variable: language, **view_environment({}, log)},
                    "oauth_no_confirm": True,
                }
            )
        teachers = [name.strip() for name in (HUB_TEACHERS.read() or "").split(",") if name.strip()]
        # A pupil's role names only the class server: the hub refuses them both views (the admins may open any).
        scopes = [f"access:services!service={name}" for name in views]
        roles.append({"name": "calcnb-teachers", "scopes": scopes, "users": teachers})
    c.JupyterHub.services.extend(services)  # beside any service the hub already has
    c.JupyterHub.load_roles.extend(roles)

# ------------------------------------------------------------ a pupil's own server (Voila, closed)

import sys
from pathlib import Path

from calcnb.core.settings import HUB_NOTEBOOKS, LANGUAGE
from calcnb.i18n import LANGUAGES, REFERENCE
from calcnb.serve.cli.commands import cap_options, culling_options, kernel_options, server_environment, voila_options
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import CLASSROOM_KERNEL_MANAGER, DEFAULT_APP_NOTEBOOK
from calcnb.serve.voila.hub import student_notebooks, student_server_options

IDLE_SERVER_SECONDS = 15 * 60
# The pupils' notebooks folder: links to every notebook but the teacher's (CALCNB_HUB_NOTEBOOKS to serve others).
STUDENT_NOTEBOOKS = Path.cwd() / "hub-homes" / "_notebooks"

language = (LANGUAGE.read() or REFERENCE).lower()
language = language if language in LANGUAGES else REFERENCE
# The pupils' servers run this Python (the environment calcnb is installed in), whatever their PATH.
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.notebook_dir = str(student_notebooks(Path(HUB_NOTEBOOKS.read() or notebooks_dir()), STUDENT_NOTEBOOKS))
# Each pupil lands on the play app; the other notebooks are at /voila/render/<name>.ipynb beside it.
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
    # As in the app: kernels over Unix sockets, and the caps on pages (a pupil's pages from one device, and
    # in all: calcnb.serve.voila.gate; the defaults, or give numbers here). calcnb.serve.voila.hub gives the websockets
    # the app's ping.
    *kernel_options(),
    *cap_options(),
    # A pupil's server with no kernel and no activity for this long stops itself (and frees its memory).
    f"--ServerApp.shutdown_no_activity_timeout={IDLE_SERVER_SECONDS}",
]

# ------------------------------------------------------------ a trial on one machine

import os
from pathlib import Path

from calcnb.core.settings import HUB_PASSWORD
from calcnb.serve.shared.settings import LOCALHOST

c.JupyterHub.ip = LOCALHOST
c.JupyterHub.port = 8000
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = HUB_PASSWORD.read() or "calcnb"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"  # every server runs as this user: a trial, not a school
c.SimpleLocalProcessSpawner.home_dir_template = str(Path.cwd() / "hub-homes" / "{username}")
if hasattr(os, "geteuid") and os.geteuid() == 0:  # in a container: Jupyter refuses root unless told
    c.Spawner.args.append("--ServerApp.allow_root=True")
