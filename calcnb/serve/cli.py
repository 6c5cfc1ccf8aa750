"""The command line: serve the notebooks as the classroom app (Voila, code hidden) or in JupyterLab.

``python -m calcnb app [NOTEBOOK]`` runs a notebook as a web app: the reader sees the prose, the
board and the buttons, never the code. ``python -m calcnb lab [PATH]`` opens JupyterLab on the
notebooks. Both print the address to open and stop cleanly on Ctrl-C. The same helpers
(:func:`voila_command`, :func:`start_server`, :func:`wait_until_serving`, :func:`stop_server`)
start and stop the servers of the browser tests, the screenshot script and the browser benchmark.
``--host 0.0.0.0`` is for a trusted classroom network only. How the servers are stopped, kept
safe, culled (:data:`CULL_IDLE_SECONDS`) and kept off the internet is told in ``docs/design.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import html
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import webbrowser
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import quote

from calcnb.game.errors import quote as quote_input
from calcnb.i18n import LANGUAGE_VARIABLE, LANGUAGES, get_language, message, set_language

DEFAULT_APP_NOTEBOOK = "play.ipynb"
DEFAULT_APP_PORT = 8866
DEFAULT_LESSON_PORT = 8868  # a lesson and the play app run side by side, each on its own port
DEFAULT_LAB_PORT = 8888
LOCALHOST = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"
PORT_RANGE = (0, 65535)  # 0: any free port, chosen when the server starts

# Kernels nobody is connected to are shut down after this long idle, checked this often (see the module notes).
CULL_IDLE_SECONDS = 40
CULL_INTERVAL_SECONDS = 10
MAX_PREHEAT = 200  # kernels kept ready: about 100 MB each
MAX_PAGES = 10_000  # the largest cap on pages (--max-kernels, --max-pages-per-device) the command takes
POOL_REFILL_DELAY_SECONDS = 5
CLASSROOM_KERNEL_MANAGER = "calcnb.serve.kernels.ClassroomKernelManager"
VOILA_MODULE = "calcnb.serve.voila_app"  # Voila, with /logout and /voila/templates/ answering as they should
IOPUB_OUTPUT_SECONDS = 60  # how long Voila waits for a finished cell's output (see voila_options)

# The Voila template of the app (Voila's "lab" page, nothing fetched from outside) and where Jupyter finds it.
VOILA_TEMPLATE = "calcnb"
JUPYTER_DATA_DIR = Path(__file__).resolve().parents[1] / "share"
# The JupyterLab extensions a page loads (see the module notes): the widget managers and the widget libraries
# the notebooks use (ipywidgets, ipyevents). A widget library added to the notebooks must be added here too.
VOILA_EXTENSIONS = ("@voila-dashboards/widgets-manager8", "@jupyter-widgets/jupyterlab-manager", "ipyevents")
# Voila's widget manager as Voila 0.5.8 built it, found before the one Voila installs: the page's JupyterLab core
# is 4.2.5 in every Voila 0.5, and only 0.5.8's widget manager was built against it (0.5.13's asks for ^4.5.10,
# and the browser console warned of 13 unsatisfied versions at every visit). The same source, other lock file.
VOILA_LABEXTENSIONS = JUPYTER_DATA_DIR / "voila" / "labextensions"

# Debian's chromium, driven by playwright in the browser tests, screenshots and benchmark (never downloaded).
CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


class AppError(Exception):
    """A problem with what was asked (a missing notebook, a busy port): reported in one line, no traceback."""


# ------------------------------------------------------------ where the notebooks are


def notebooks_dir() -> Path:
    """The notebooks folder of a repository checkout: ``calcnb/../notebooks``."""
    return Path(__file__).resolve().parents[2] / "notebooks"


def resolve_target(
    path: str | os.PathLike | None, default_name: str | None = None, *, language: str | None = None
) -> Path:
    """The notebook or folder to serve, as an absolute path.

    ``path`` may be absolute, relative to the current folder, or a name inside
    the notebooks folder (``02_wraparound.ipynb``). None means ``default_name``
    in the notebooks folder, or the notebooks folder itself. With a
    ``language`` other than English, a name inside the notebooks folder is
    looked for first among that language's twins (``notebooks/pt/``). Raises
    :class:`AppError` saying what is missing.
    """
    folders = [notebooks_dir()]
    if language and language != "en":
        folders.insert(0, notebooks_dir() / language)
    if path is None:
        if not folders[-1].is_dir():
            raise AppError(message("app.no_notebooks_dir", path=folders[-1]))
        for folder in folders:
            target = folder / default_name if default_name else folder
            if target.exists():
                return target
        raise AppError(message("app.not_found", path=target))
    try:
        candidate = Path(path).expanduser()
        if not candidate.exists() and not candidate.is_absolute():
            # A bare name inside the notebooks folder (the language's twin first), with or without its .ipynb.
            inside = [folder / name for folder in folders for name in (candidate, f"{candidate}.ipynb")]
            candidate = next((option for option in inside if option.exists()), candidate)
        if not candidate.exists():
            raise AppError(message("app.not_found", path=path))
        if candidate.is_file() and candidate.suffix != ".ipynb":
            raise AppError(message("app.not_notebook", path=path))
        return candidate.resolve()
    except OSError as error:  # a name the system cannot even look up: too long, or in a folder it may not read
        text = os.fspath(path)
        if error.errno == errno.ENAMETOOLONG:
            raise AppError(message("app.name_too_long", text=quote_input(text))) from None
        raise AppError(message("app.unreadable_path", text=quote_input(text), reason=error.strerror or error)) from None


def is_lesson(target: Path) -> bool:
    """Whether ``target`` is a lesson: a notebook with teacher's notes (``teacher/NAME_teacher.ipynb``)."""
    if not target.is_file():
        return False
    return any(
        (folder / "teacher" / f"{target.stem}_teacher.ipynb").exists() for folder in (target.parent, notebooks_dir())
    )


def default_app_port(target: Path) -> int:
    """The port ``app`` listens on unless told: a lesson's own, so the play app can run beside it."""
    return DEFAULT_LESSON_PORT if is_lesson(target) else DEFAULT_APP_PORT


# ------------------------------------------------------------ server commands


def culling_options(section: str = "MappingKernelManager") -> list[str]:
    """Command-line settings that shut down kernels no page is connected to (see the module notes)."""
    return [
        f"--{section}.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--{section}.cull_interval={CULL_INTERVAL_SECONDS}",
        f"--{section}.cull_connected=False",
        f"--{section}.cull_busy=False",
    ]


def voila_options() -> list[str]:
    """Command-line settings of Voila's pages, for Voila alone or as a Jupyter server extension (JupyterHub).

    The calcnb template (nothing fetched from outside; the server's environment
    must come from :func:`server_environment` for Voila to find it), the widget
    extensions only, no Python tracebacks shown to a class, and a page rendered
    with its cells' output however late the output reaches a busy server.
    """
    return [
        "--VoilaConfiguration.show_tracebacks=False",
        # A cell's output (the board's widget view) can reach the server seconds after the cell's reply when
        # a class loads the machine; Voila's executor waits 4 s for it, then renders the page without it, and
        # that page never shows its board. Wait as long as it takes to come (an ended cell's output does).
        f"--VoilaExecutor.iopub_timeout={IOPUB_OUTPUT_SECONDS}",
        f"--VoilaConfiguration.template={VOILA_TEMPLATE}",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in VOILA_EXTENSIONS),
        f"--VoilaConfiguration.extra_labextensions_path={VOILA_LABEXTENSIONS}",
    ]


def kernel_options() -> list[str]:
    """Command-line settings of the kernels of any server of the apps (the app's Voila, a hub's servers)."""
    # The kernels talk to the server over Unix sockets, which only this machine's users reach, not local TCP.
    return ["--KernelManager.transport=ipc"]


def cap_options(max_kernels: int | None = None, pages_per_device: int | None = None) -> list[str]:
    """Command-line settings of the caps on pages with a kernel (:mod:`calcnb.serve.gate`); None: the default.

    ``max_kernels`` caps the pages in all (default: what the machine's memory holds), ``pages_per_device``
    the pages from one client address (default :data:`calcnb.serve.gate.DEFAULT_PAGES_PER_DEVICE`).
    """
    options = []
    if max_kernels is not None:
        options.append(f"--ClassroomGate.max_kernels={max_kernels}")
    if pages_per_device is not None:
        options.append(f"--ClassroomGate.max_pages_per_device={pages_per_device}")
    return options


def preheat_options(pool_size: int) -> list[str]:
    """Voila settings that keep ``pool_size`` kernels ready with the notebook already run (none for 0)."""
    if pool_size <= 0:
        return []
    return [
        "--VoilaConfiguration.preheat_kernel=True",
        f"--VoilaConfiguration.default_pool_size={pool_size}",
        # A class arrives together: the pool refills once the class has its pages, one kernel at a time behind
        # any student whose kernel is starting (calcnb.serve.kernels). A student arriving after the pool is spent waits
        # for the refill of the oldest place: at most this delay and one kernel's start.
        f"--VoilaKernelManager.fill_delay={POOL_REFILL_DELAY_SECONDS}",
    ]


def voila_command(
    target: Path,
    *,
    host: str = LOCALHOST,
    port: int = DEFAULT_APP_PORT,
    preheat: int = 0,
    max_kernels: int | None = None,
    pages_per_device: int | None = None,
) -> list[str]:
    """The command line that serves ``target`` (a notebook or a folder) with Voila, code hidden.

    The browser is never opened by Voila itself; :func:`serve` opens it once the
    server answers. Voila hides code cells by default (``strip_sources``). Start
    it with :func:`start_server`, which lets Voila find the ``calcnb`` template.
    ``max_kernels`` and ``pages_per_device`` are the caps (:func:`cap_options`);
    a class code goes in the server's environment (:func:`class_code_environment`).
    """
    return [
        sys.executable,
        "-m",
        VOILA_MODULE,
        str(target),
        f"--Voila.ip={host}",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",  # the address we print must be the one in use
        "--no-browser",
        *voila_options(),
        *culling_options(),
        # Kernels warm up a few at a time, students first; the culler spares kernels with no page yet (serve.kernels).
        f"--VoilaConfiguration.multi_kernel_manager_class={CLASSROOM_KERNEL_MANAGER}",
        *kernel_options(),
        *cap_options(max_kernels, pages_per_device),
        *preheat_options(preheat),
    ]


def lab_command(
    root: Path,
    *,
    host: str = LOCALHOST,
    port: int = DEFAULT_LAB_PORT,
    token: str | None = None,
    allow_root: bool | None = None,
) -> list[str]:
    """The command line that runs JupyterLab on the folder ``root``.

    The access token is never put on the command line (anyone on the machine can
    read a command line): pass it in the server's environment, with
    :func:`server_environment`. Only ``token=""`` (no token: local test servers)
    is written here. ``allow_root`` defaults to whether this process runs as root
    (containers do; Jupyter refuses root unless told).
    """
    if allow_root is None:
        allow_root = hasattr(os, "geteuid") and os.geteuid() == 0
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={root}",
        f"--ServerApp.ip={host}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.open_browser=False",
    ]
    if token == "":
        command.append("--IdentityProvider.token=")
    if allow_root:
        command.append("--ServerApp.allow_root=True")
    return command


def server_environment(*, language: str | None = None, token: str | None = None) -> dict[str, str]:
    """The environment of a server: this one's, plus where the calcnb template is, the language and the token.

    The server's kernels inherit it, so ``language`` (``CALCNB_LANG``) sets the
    language of everything they show; ``token`` (``JUPYTER_TOKEN``) is readable
    only by the server's own user (``/proc/PID/environ``), unlike a command line.
    """
    environment = dict(os.environ)
    paths = [str(JUPYTER_DATA_DIR), *filter(None, environment.get("JUPYTER_PATH", "").split(os.pathsep))]
    environment["JUPYTER_PATH"] = os.pathsep.join(dict.fromkeys(paths))
    if language is not None:
        environment[LANGUAGE_VARIABLE] = language
    if token is not None:
        environment["JUPYTER_TOKEN"] = token
    return environment


def free_port(host: str = LOCALHOST) -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _probe() -> socket.socket:
    """A socket to try a port with, as the servers bind theirs: SO_REUSEADDR, so the connections of a server
    stopped a moment ago (TIME_WAIT, for a minute) do not make a free port look busy."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return probe


def port_is_free(host: str, port: int) -> bool:
    """Whether ``port`` can be listened on at ``host``."""
    with _probe() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
        return True


def _check_can_listen(host: str, port: int) -> None:
    """AppError unless ``port`` can be listened on at ``host``: busy port, or an address not of this machine."""
    with _probe() as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise AppError(message("app.port_busy", host=host, port=port)) from None
            reason = error.strerror or error
            raise AppError(message("app.unknown_host", text=quote_input(host), reason=reason)) from None


def start_server(
    command: Sequence[str],
    *,
    cwd: str | os.PathLike | None = None,
    log=None,
    env: dict[str, str] | None = None,
) -> subprocess.Popen:
    """Start a server command in a session of its own (a terminal's Ctrl-C does not reach it).

    ``log`` is a file to receive its output (default: this process's terminal);
    ``env`` its environment (default: :func:`server_environment`).
    """
    return subprocess.Popen(
        list(command),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT if log is not None else None,
        start_new_session=True,
        env=env if env is not None else server_environment(),
    )


def wait_until_serving(process: subprocess.Popen, host: str, port: int, timeout: float = 60.0) -> None:
    """Wait until ``process`` accepts connections on ``port``; AppError if it exits or takes too long.

    Only a connection is tried: a request to a Voila page would run the notebook.
    """
    probe_host = LOCALHOST if host in (ALL_INTERFACES, "") else host
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AppError(message("app.exited", code=process.returncode))
        with contextlib.suppress(OSError), socket.create_connection((probe_host, port), timeout=0.5):
            return
        time.sleep(0.1)
    raise AppError(message("app.no_start", seconds=timeout))


def _descendants(pid: int) -> list:
    try:
        import psutil  # installed with ipykernel

        return psutil.Process(pid).children(recursive=True)
    except Exception:  # psutil missing, or the process already gone
        return []


def stop_server(process: subprocess.Popen, timeout: float = 20.0) -> int:
    """Stop a server started by :func:`start_server` and everything it started; return its exit code.

    One SIGTERM lets Voila or Jupyter Server shut its kernels down and exit;
    whatever is still alive after ``timeout`` seconds (the server's process
    group, and any kernel it started in a session of its own) is killed.
    """
    children = _descendants(process.pid)  # kernels live in sessions of their own: note them now
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    for child in children:
        with contextlib.suppress(Exception):
            if child.is_running():
                child.kill()
    return process.returncode


def _network_address() -> str:
    """This machine's address on its network (no packet is sent), for the address to give a class."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def with_class_code(url: str, class_code: str | None) -> str:
    """``url`` carrying the class code after ``#`` (which a browser never sends, so no log holds it), if any.

    >>> with_class_code("http://10.0.0.5:8866/", "Ab 12")
    'http://10.0.0.5:8866/#code=ab12'
    """
    if not class_code:
        return url
    from calcnb.serve.caps import normal_code

    return f"{url}#code={quote(normal_code(class_code), safe='')}"


def class_code_banner(class_code: str) -> str:
    """The class code for the teacher's terminal, framed and spaced out so it reads from the back of a room."""
    from calcnb.serve.caps import normal_code

    line = message("app.class_code", code=" ".join(normal_code(class_code).upper()))
    rule = "═" * (len(line) + 4)
    return f"╔{rule}╗\n║  {line}  ║\n╚{rule}╝"


def address_page(url: str, class_code: str | None = None) -> str:
    """A page to project for the class: the address in big type, the class code if any, and a QR code (segno)
    of the address with the code, nothing else."""
    import segno

    code = segno.make(with_class_code(url, class_code), error="m").svg_inline(scale=12, dark="#000", light="#fff")
    title = html.escape(message("app.address_title"))
    shown_code = ""
    if class_code:
        from calcnb.serve.caps import normal_code

        shown_code = (
            f'<p style="font-size:4vh;margin:0">{html.escape(message("app.address_code"))}</p>'
            '<p style="font-size:12vh;font-weight:bold;margin:0 0 1vh;letter-spacing:.2em;font-family:monospace">'
            f"{html.escape(normal_code(class_code).upper())}</p>"
        )
    return (
        f'<!DOCTYPE html><html lang="{html.escape(get_language())}"><meta charset="utf-8"><title>{title}</title>'
        '<body style="font-family:sans-serif;text-align:center;margin:2vh 2vw">'
        f'<p style="font-size:4vh;margin:0">{title}</p>'
        f'<p style="font-size:7vh;font-weight:bold;margin:1vh 0;word-break:break-all">{html.escape(url)}</p>'
        f'{shown_code}<div style="display:inline-block">{code}</div></body></html>\n'
    )


def print_for_the_class(url: str, *, open_browser: bool, class_code: str | None = None) -> Path:
    """Show the class the address: a QR code in the terminal, and a page with it in big type to project.

    With a class code, the code is printed big and shown on the page, and the QR code's address carries
    it (:func:`with_class_code`), so scanning it opens the app at once. The page is written to a file of
    its own (named in the message printed, readable by this user only) and opened when a browser is.
    """
    import segno

    segno.make(with_class_code(url, class_code), error="m").terminal(compact=True)
    if class_code:
        print(class_code_banner(class_code), flush=True)
    descriptor, name = tempfile.mkstemp(prefix="calcnb-address-", suffix=".html")
    with os.fdopen(descriptor, "w", encoding="utf-8") as page:
        page.write(address_page(url, class_code))
    path = Path(name)
    print(message("app.address_page", path=path.as_uri()), flush=True)
    if open_browser:
        webbrowser.open(path.as_uri())
    return path


@contextlib.contextmanager
def _browser_address(url: str) -> Iterator[str]:
    """What to hand a web browser for ``url``: the address itself, or, when it carries a token, a page only
    this user can read that forwards to it (a browser is started with its address on its command line)."""
    if "token=" not in url:
        yield url
        return
    descriptor, name = tempfile.mkstemp(prefix="calcnb-open-", suffix=".html")  # mode 0600
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as page:
            page.write(f'<!DOCTYPE html><meta http-equiv="refresh" content="0;url={html.escape(url)}">\n')
        yield Path(name).as_uri()
    finally:
        # The browser has read the page by the time the server stops.
        with contextlib.suppress(OSError):
            os.unlink(name)


def serve(
    command: Sequence[str],
    *,
    host: str,
    port: int,
    path: str,
    what: str,
    open_browser: bool,
    token: str = "",
    env: dict[str, str] | None = None,
    class_code: str | None = None,
    notes: Sequence[str] = (),
) -> int:
    """Run a server in the foreground: print its address, open a browser, stop it cleanly on Ctrl-C.

    With a ``class_code`` (the server's own is in ``env``), the code is printed big with the address
    and carried by the QR code and the address the browser opens; ``notes`` are printed after the
    address. Returns 0 after Ctrl-C (or SIGTERM), or the server's own exit code if it stops by itself.
    """
    _check_can_listen(LOCALHOST if host == ALL_INTERFACES else host, port)
    query = f"?token={token}" if token else ""
    local_host = LOCALHOST if host == ALL_INTERFACES else host
    url = f"http://{local_host}:{port}{path}{query}"

    # SIGTERM (from a process manager) stops us as Ctrl-C does.
    def _terminate(_signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, _terminate)
    # Started in the background by a shell, Python inherits SIGINT ignored; Ctrl-C must still stop us.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    process = start_server(command, env=env)
    try:
        with _browser_address(with_class_code(url, class_code)) as address:
            wait_until_serving(process, host, port)
            print(message("app.serving", what=what, url=url), flush=True)
            if host == ALL_INTERFACES:
                network_url = f"http://{_network_address()}:{port}{path}{query}"
                print(message("app.serving_network", url=network_url), flush=True)
                if not token:  # an app for a class (never a token-carrying address on a projector)
                    print_for_the_class(network_url, open_browser=open_browser, class_code=class_code)
            elif class_code:
                print(class_code_banner(class_code), flush=True)
            for note in notes:
                print(note, flush=True)
            print(message("app.stop_hint"), flush=True)
            if open_browser:
                webbrowser.open(address)
            code = process.wait()
        print(message("app.exited", code=code), file=sys.stderr, flush=True)
        return code or 1
    except KeyboardInterrupt:
        # A second Ctrl-C while stopping must not leave a traceback or a half-stopped server.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        print("\n" + message("app.stopping"), flush=True)
        stop_server(process)
        print(message("app.stopped"), flush=True)
        return 0
    except BaseException:
        stop_server(process)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)


# ------------------------------------------------------------ the command line


def port_number(text: str) -> int:
    """An argparse type: a port, 1 to 65535, or 0 for any free one (a clear message otherwise)."""
    try:
        port = int(text.strip())
    except ValueError:
        port = -1
    if not PORT_RANGE[0] <= port <= PORT_RANGE[1]:
        raise argparse.ArgumentTypeError(message("app.bad_port", text=quote_input(text)))
    return port


def kernel_count(text: str) -> int:
    """An argparse type: how many kernels to keep ready, 0 to 200 (a clear message otherwise)."""
    try:
        count = int(text.strip())
    except ValueError:
        count = -1
    if not 0 <= count <= MAX_PREHEAT:
        raise argparse.ArgumentTypeError(message("app.bad_preheat", text=quote_input(text), most=MAX_PREHEAT))
    return count


def page_count(text: str) -> int:
    """An argparse type: a cap on pages (``--max-kernels``, ``--max-pages-per-device``), 1 to :data:`MAX_PAGES`."""
    try:
        count = int(text.strip())
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_PAGES:
        raise argparse.ArgumentTypeError(message("app.bad_cap", text=quote_input(text), most=MAX_PAGES))
    return count


def class_code_text(text: str) -> str:
    """An argparse type: a class code, 4 to 32 letters or digits (spaces and hyphens ignored)."""
    from calcnb.serve.caps import code_problem

    problem = code_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def add_cap_options(command: argparse.ArgumentParser) -> None:
    """The options of the caps on pages with a kernel (see :func:`cap_options`)."""
    from calcnb.serve.caps import DEFAULT_PAGES_PER_DEVICE, KERNEL_MEGABYTES, default_max_kernels

    command.add_argument(
        "--max-kernels",
        metavar="N",
        type=page_count,
        default=None,
        help=message("app.help.max_kernels", megabytes=KERNEL_MEGABYTES, default=default_max_kernels()),
    )
    command.add_argument(
        "--max-pages-per-device",
        metavar="N",
        type=page_count,
        default=None,
        help=message("app.help.max_pages_per_device", default=DEFAULT_PAGES_PER_DEVICE),
    )


def host_address(text: str) -> str:
    """An argparse type: an address to listen on, which must resolve (a clear message otherwise)."""
    host = text.strip()
    if not host:
        raise argparse.ArgumentTypeError(message("app.empty_host"))
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise argparse.ArgumentTypeError(message("app.unknown_host", text=quote_input(host), reason=reason)) from None
    return host


def _add_server_options(command: argparse.ArgumentParser, default_port: int | None) -> None:
    """The options every serving subcommand takes: port, host, browser, language.

    ``default_port`` None: the command chooses by what it serves (``app``: :func:`default_app_port`).
    """
    said = message("app.help.app_port", lesson=DEFAULT_LESSON_PORT, app=DEFAULT_APP_PORT)
    command.add_argument(
        "--port",
        type=port_number,
        default=default_port,
        help=said if default_port is None else message("app.help.port", default=default_port),
    )
    command.add_argument(
        "--host", type=host_address, default=LOCALHOST, help=message("app.help.host", default=LOCALHOST)
    )
    command.add_argument("--no-browser", action="store_true", help=message("app.help.no_browser"))
    command.add_argument(
        "--lang",
        type=str.lower,  # language tags ignore case: --lang PT is pt
        choices=LANGUAGES,
        default=None,
        help=message("app.help.lang", choices=", ".join(LANGUAGES), default="en"),
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m calcnb`` argument parser: one subparser per command, each naming its runner (``run``)."""
    parser = argparse.ArgumentParser(
        prog="python -m calcnb",
        description=message("app.description"),
        epilog=message("app.epilog"),
    )
    commands = parser.add_subparsers(dest="command", required=True)

    app = commands.add_parser(
        "app", help=message("app.help.app"), description=message("app.help.app"), epilog=message("app.epilog")
    )
    app.add_argument(
        "path", nargs="?", metavar="NOTEBOOK", help=message("app.help.app_notebook", default=DEFAULT_APP_NOTEBOOK)
    )
    _add_server_options(app, None)
    app.add_argument("--class-log", metavar="PATH_OR_URL", default=None, help=message("app.help.class_log"))
    app.add_argument("--no-reveal", action="store_true", help=message("app.help.no_reveal"))
    app.add_argument("--preheat", metavar="N", type=kernel_count, default=0, help=message("app.help.preheat"))
    add_cap_options(app)
    from calcnb.serve.caps import MAX_CODE_LENGTH, MIN_CODE_LENGTH

    app.add_argument(
        "--class-code",
        metavar="CODE",
        type=class_code_text,
        default=None,
        help=message("app.help.class_code", shortest=MIN_CODE_LENGTH, longest=MAX_CODE_LENGTH),
    )
    app.set_defaults(run=run_app)

    lab = commands.add_parser(
        "lab", help=message("app.help.lab"), description=message("app.help.lab"), epilog=message("app.epilog_lab")
    )
    lab.add_argument("path", nargs="?", metavar="PATH", help=message("app.help.lab_path"))
    _add_server_options(lab, DEFAULT_LAB_PORT)
    lab.set_defaults(run=run_lab)

    lessons = commands.add_parser("lessons", help=message("app.help.lessons"), description=message("app.help.lessons"))
    lessons.add_argument(
        "--lang",
        type=str.lower,
        choices=LANGUAGES,
        default=None,
        help=message("app.help.lang", choices=", ".join(LANGUAGES), default="en"),
    )
    lessons.set_defaults(run=run_lessons)

    view = commands.add_parser(
        "class-view",
        help=message("app.help.class_view"),
        description=message("app.help.class_view"),
        epilog=message("app.epilog_class_view"),
    )
    view.add_argument("log", metavar="PATH_OR_URL", help=message("app.help.class_view_log"))
    view.add_argument("--summary", metavar="FILE", default=None, help=message("app.help.summary"))
    view.add_argument("--lesson", metavar="NAME", default=None, help=message("app.help.class_view_lesson"))
    _add_server_options(view, DEFAULT_CLASS_VIEW_PORT)
    view.set_defaults(run=run_class_view)
    return parser


def _chosen_port(arguments: argparse.Namespace, default: int | None = None) -> int:
    """The port to use: the one asked for (``default`` when none was), or, for ``--port 0``, a free one (said aloud).

    AppError when the port is busy or the host is not this machine's: asked before anything is
    made (a class log, a server), so a refused command leaves nothing behind.
    """
    port = default if arguments.port is None else arguments.port
    host = LOCALHOST if arguments.host == ALL_INTERFACES else arguments.host
    _check_can_listen(host, port or 0)
    if port:
        return port
    port = free_port(host)
    print(message("app.port_chosen", port=port), flush=True)
    return port


def _lesson_name(target: Path) -> str | None:
    """The name of the lesson ``target`` serves (a notebook of the lesson index), or None."""
    from calcnb.lessons.catalogue import LESSONS

    return next((known.name for known in LESSONS if target.name == known.notebook and is_lesson(target)), None)


def run_app(arguments: argparse.Namespace) -> int:
    """``python -m calcnb app``: serve a notebook (or a folder) with Voila, code hidden.

    With ``--lang pt`` the Portuguese twin (``notebooks/pt/NAME``) is served when
    there is one, and the kernels run in Portuguese either way.
    """
    target = resolve_target(arguments.path, DEFAULT_APP_NOTEBOOK, language=arguments.lang)
    port = _chosen_port(arguments, default_app_port(target))
    environment = class_log_environment(
        server_environment(language=arguments.lang), arguments.class_log, lesson=_lesson_name(target)
    )
    environment = reveal_environment(environment, reveal=not arguments.no_reveal)
    environment = class_code_environment(environment, arguments.class_code)
    command = voila_command(
        target,
        host=arguments.host,
        port=port,
        preheat=arguments.preheat,
        max_kernels=arguments.max_kernels,
        pages_per_device=arguments.max_pages_per_device,
    )
    try:
        return serve(
            command,
            host=arguments.host,
            port=port,
            path="/",
            what=message("app.what_app", name=target.name),
            open_browser=not arguments.no_browser,
            env=environment,
            class_code=arguments.class_code,
            notes=[caps_note(arguments.max_kernels, arguments.max_pages_per_device)],
        )
    finally:
        checkpoint_class_log(arguments.class_log)


def run_lessons(arguments: argparse.Namespace) -> int:
    """``python -m calcnb lessons``: the lessons of calcnb.lessons.catalogue, with ages, lengths and commands."""
    from calcnb.lessons.catalogue import lesson_index

    print(lesson_index())
    return 0


def run_lab(arguments: argparse.Namespace) -> int:
    """``python -m calcnb lab``: JupyterLab on the notebooks folder (or the folder or notebook named).

    The token goes to the server in its environment, never on its command line.
    """
    target = resolve_target(arguments.path, language=arguments.lang)
    root, page = (target.parent, f"/lab/tree/{quote(target.name)}") if target.is_file() else (target, "/lab")
    token = secrets.token_hex(16)
    port = _chosen_port(arguments)
    return serve(
        lab_command(root, host=arguments.host, port=port),
        host=arguments.host,
        port=port,
        path=page,
        what=message("app.what_lab", name=target.name),
        open_browser=not arguments.no_browser,
        token=token,
        env=server_environment(language=arguments.lang, token=token),
    )


# ------------------------------------------------------------ the class log and the class view

DEFAULT_CLASS_VIEW_PORT = 8867
CLASS_VIEW_NOTEBOOK = Path("teacher") / "class_view.ipynb"


def _open_class_log(location: str):
    """Open (creating if new) the class log at ``location``, or AppError saying why it cannot be used."""
    from calcnb.classroom.log import (  # SQLAlchemy loads only when a class log is asked for
        ClassLogError,
        open_class_log,
    )

    try:
        return open_class_log(location)
    except ClassLogError as error:
        raise AppError(str(error)) from None


def _log_argument(location: str) -> str:
    """The class log as the kernels must read it: a URL with any relative file made absolute (kernels run in
    the notebooks' folder, not where the teacher typed the command)."""
    from calcnb.classroom.log import database_url

    return database_url(location).render_as_string(hide_password=False)


def checkpoint_class_log(location: str | None) -> None:
    """When a server stops: fold a SQLite log's write-ahead file into the one ``.db`` file a teacher copies."""
    if location is None:
        return
    from calcnb.classroom.log import ClassLogError, open_class_log

    with contextlib.suppress(ClassLogError):
        log = open_class_log(location)
        try:
            log.checkpoint()
        finally:
            log.close()


def class_log_environment(
    environment: dict[str, str], location: str | None, *, lesson: str | None = None
) -> dict[str, str]:
    """``environment`` for the students' kernels: recording into ``location``, or, for None, recording nothing.

    The line printed for the teacher gives the class view's command, with ``--lesson`` when ``lesson`` (the
    lesson served, a name of the lesson index) is given, so the view shows it before the first answer.

    The log is opened (and created if new) here, so a bad location stops the command with a
    clear message before any student arrives. Without a location the variable is removed, so
    a value left in the teacher's shell never turns recording on.
    """
    from calcnb.classroom.log import ENV_VAR, VIEW_ENV_VAR, shown_location

    environment = dict(environment)
    environment.pop(VIEW_ENV_VAR, None)  # the students' kernels never read the class view's log
    if location is None:
        environment.pop(ENV_VAR, None)
        return environment
    log = _open_class_log(location)
    argument = shown_location(location) + (f" --lesson {lesson}" if lesson else "")
    print(message("app.recording", location=log.location, argument=argument), flush=True)
    log.class_key()  # made now, so the teacher's notebook and worksheets can read it before anyone joins
    log.close()
    environment[ENV_VAR] = _log_argument(location)
    return environment


def class_code_environment(environment: dict[str, str], code: str | None) -> dict[str, str]:
    """``environment`` for the app's server: asking visitors for ``code``, or, for None, for nothing.

    The code travels in the environment, never on a command line (which any local user can read);
    the server removes it from its own before any kernel starts. Without a code the variable is
    removed, so a value left in the teacher's shell never turns the code on.
    """
    from calcnb.serve.caps import CLASS_CODE_VARIABLE, normal_code

    environment = dict(environment)
    environment.pop(CLASS_CODE_VARIABLE, None)
    if code is not None:
        environment[CLASS_CODE_VARIABLE] = normal_code(code)
    return environment


def caps_note(max_kernels: int | None, pages_per_device: int | None) -> str:
    """The caps on pages, said in the teacher's terminal (the defaults where none was given)."""
    from calcnb.serve.caps import DEFAULT_PAGES_PER_DEVICE, default_max_kernels

    most = max_kernels or default_max_kernels()
    return message("app.caps", most=most, per_device=pages_per_device or DEFAULT_PAGES_PER_DEVICE)


def reveal_environment(environment: dict[str, str], *, reveal: bool) -> dict[str, str]:
    """``environment`` for the students' kernels, with Show answer on (``reveal``) or off (``--no-reveal``).

    Without ``--no-reveal`` the variable is removed, so a value left in the teacher's shell never turns it off.
    """
    from calcnb.ui.lesson import NO_REVEAL_ENV_VAR

    environment = dict(environment)
    environment.pop(NO_REVEAL_ENV_VAR, None)
    if not reveal:
        environment[NO_REVEAL_ENV_VAR] = "1"
        print(message("app.no_reveal"), flush=True)
    return environment


def write_summary(log, path: Path, lesson: str | None = None) -> None:
    """Write the end-of-lesson summary of the open class ``log`` to ``path``: PDF or CSV, as its suffix says.

    Its exercises are numbered and ordered as the lesson's: ``lesson`` (a name of the lesson index) when given,
    else the lesson the log's answers belong to, as the class view tells it.
    """
    from calcnb.classroom.log import student_summaries
    from calcnb.classroom.summary import summary_csv, summary_pdf
    from calcnb.lessons.bank import LESSON_EXERCISES
    from calcnb.lessons.catalogue import lesson as find_lesson
    from calcnb.lessons.catalogue import lesson_for

    rows = log.attempts()
    found = find_lesson(lesson) if lesson else lesson_for(row["exercise_id"] for row in rows)
    order = found.exercises if found is not None else LESSON_EXERCISES
    summaries = student_summaries(log.students(), rows)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(summary_pdf(summaries, order, location=log.location))
    else:
        path.write_text(summary_csv(summaries, order), encoding="utf-8-sig", newline="")  # a BOM for spreadsheets


def run_class_view(arguments: argparse.Namespace) -> int:
    """``python -m calcnb class-view LOG [--lesson NAME]``: the teacher's live view of a class log, served with Voila.

    ``--lesson`` names the lesson whose exercises (and, for "Is the 80% true?", pooled deals) the view shows
    before anyone has answered; an unknown name is refused with the list of lessons, before anything starts.

    Only ``notebooks/teacher/class_view.ipynb`` is served, on a port of its own, and its
    kernels are the only ones told the log through ``CALCNB_CLASS_VIEW``. With ``--summary FILE``
    the end-of-lesson summary is written to FILE (``.pdf`` or ``.csv``) instead, and nothing is served.
    """
    from calcnb.classroom.lesson_view import LESSON_ENV_VAR
    from calcnb.classroom.log import ENV_VAR, VIEW_ENV_VAR
    from calcnb.lessons.catalogue import lesson as find_lesson

    lesson = None
    if arguments.lesson is not None:
        try:
            lesson = find_lesson(arguments.lesson).name
        except KeyError as error:
            raise AppError(error.args[0]) from None
    target = resolve_target(str(notebooks_dir() / CLASS_VIEW_NOTEBOOK))
    summary = Path(arguments.summary).expanduser() if arguments.summary else None
    if summary is not None and summary.suffix.lower() not in (".pdf", ".csv"):
        raise AppError(message("app.bad_summary", path=summary))
    # Served: the port is checked before the log is opened, so a busy port leaves no new log behind.
    port = _chosen_port(arguments) if summary is None else 0
    log = _open_class_log(arguments.log)
    location = log.location
    if summary is not None:
        try:
            write_summary(log, summary, lesson)
        except OSError as error:
            raise AppError(message("app.cannot_write_summary", path=summary, reason=error.strerror or error)) from None
        finally:
            log.close()
        print(message("app.summary_written", location=location, path=summary), flush=True)
        return 0
    log.close()
    environment = server_environment(language=arguments.lang)
    environment.pop(ENV_VAR, None)
    environment[VIEW_ENV_VAR] = _log_argument(arguments.log)
    environment.pop(LESSON_ENV_VAR, None)
    if lesson is not None:  # the lesson's exercises and figures from the start, before anyone has answered
        environment[LESSON_ENV_VAR] = lesson
    try:
        return serve(
            voila_command(target, host=arguments.host, port=port),
            host=arguments.host,
            port=port,
            path="/",
            what=message("app.what_class_view", location=location),
            open_browser=not arguments.no_browser,
            env=environment,
        )
    finally:
        checkpoint_class_log(arguments.log)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m calcnb``; returns the exit code (2 for a bad command line)."""
    arguments = build_parser().parse_args(argv)
    if getattr(arguments, "lang", None):
        set_language(arguments.lang)  # this command's own messages too
    try:
        return arguments.run(arguments)
    except AppError as error:
        print(f"calcnb {arguments.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C before the server started
        return 130
