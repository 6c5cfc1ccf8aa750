"""The app's server under a flood of bad addresses: a missing file is a plain 404 and one line of log, and a path
that steps out of a served folder (``..``, encoded or not, a backslash) is a 404 that reads nothing outside it.

The flood and the traversals are sent to a real server (the app's Voila, started as the browser tests start
theirs), so they meet the routes and handlers Voila really has; :func:`calcnb.serve.voila.app.inside`, which
refuses the paths, is also tested on its own in the fast tier.
"""

from __future__ import annotations

import http.client
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import calcnb.serve.cli.main
from calcnb.serve.cli.commands import voila_command
from calcnb.serve.cli.process import free_port, start_server, stop_server, wait_until_serving
from calcnb.serve.shared.settings import JUPYTER_DATA_DIR, LOCALHOST

FIXTURES = Path(__file__).parent / "browser" / "fixtures"
SECRET = "calcnb-secret-8d2f6e: never served"
REQUESTS = 100

#: The static routes of Voila, and a file each of them serves (None: none in a bare install, where Voila finds no
#: JupyterLab theme; the route is there all the same).
ROUTES = {
    "/voila/templates/calcnb/static/": "labvariables.css",
    "/voila/labextensions/": "@voila-dashboards/widgets-manager8/package.json",
    "/voila/static/": "voila.js",
    "/voila/api/themes/": None,
}


class Served:
    def __init__(self, port: int, log: Path, secret: Path) -> None:
        self.port, self.log, self.secret = port, log, secret

    def get(self, path: str) -> tuple[int, bytes]:
        """The status and body of ``GET path``, the path sent exactly as written."""
        connection = http.client.HTTPConnection(LOCALHOST, self.port, timeout=60)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def log_lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The app's Voila on a folder of its own, with a secret file just outside that folder."""
    base = tmp_path_factory.mktemp("floods")
    root = base / "notebooks"
    root.mkdir()
    shutil.copy(FIXTURES / "transport.ipynb", root)
    secret = base / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    port = free_port()
    log_path = base / "voila.log"
    with log_path.open("wb") as log:
        server = start_server(voila_command(root, port=port), cwd=root, log=log)
        try:
            wait_until_serving(server, LOCALHOST, port, timeout=90)
            yield Served(port, log_path, secret)
        finally:
            stop_server(server)


def _settled(served: Served, seconds: float = 0.5) -> list[str]:
    """The server's log once it has written what the last requests made it write."""
    time.sleep(seconds)
    return served.log_lines()


@pytest.mark.server
@pytest.mark.parametrize("route", list(ROUTES))
def test_a_hundred_missing_files_are_a_hundred_plain_404s_and_a_line_of_log_each(served, route):
    if ROUTES[route] is not None:
        status, _body = served.get(route + ROUTES[route])
        assert status == 200  # the route serves files: what follows is about missing ones
    before = len(_settled(served))
    answers = {served.get(f"{route}missing-{number}.js")[0] for number in range(REQUESTS)}
    assert answers == {404}
    written = _settled(served)[before:]
    assert len(written) <= REQUESTS, "\n".join(written[:60])
    assert not any("Traceback" in line or "Uncaught exception" in line for line in written), "\n".join(written[:60])
    assert all(len(line) < 300 for line in written)


def _steps_out(to: Path) -> dict[str, str]:
    """Paths that climb out of any served folder (far enough to reach the root) and down to ``to``, written as an
    attacker writes them: the separator or the dots encoded, the dots doubly encoded, backslashes."""
    below_root = to.as_posix().lstrip("/")
    return {
        "plain": "../" * 16 + below_root,
        "encoded separator": "..%2f" * 16 + below_root.replace("/", "%2f"),
        "encoded dots": "%2e%2e/" * 16 + below_root,
        "all encoded": "%2e%2e%2f" * 16 + below_root.replace("/", "%2F"),
        "backslashes": "..%5c" * 16 + below_root.replace("/", "%5c"),
        "raw backslashes": "..\\" * 16 + below_root.replace("/", "\\"),
        "doubly encoded": "%252e%252e%252f" * 16 + below_root,
        "absolute": "/" + below_root,
        "encoded absolute": "%2f" + below_root,
    }


def _traversals() -> list[tuple[str, str, str]]:
    cases = []
    for route in ROUTES:
        for kind in _steps_out(Path("/x")):
            cases.append((route, kind, "secret"))
            cases.append((route, kind, "cli.py"))
    cases.append(("/voila/files/", "encoded separator", "secret"))
    return cases


@pytest.mark.server
@pytest.mark.parametrize(("route", "kind", "target"), _traversals())
def test_a_path_out_of_a_served_folder_is_not_found_and_nothing_outside_is_read(served, route, kind, target):
    file = served.secret if target == "secret" else Path(calcnb.serve.cli.main.__file__).resolve()
    status, body = served.get(route + _steps_out(file)[kind])
    assert status == 404, body[:300]
    assert SECRET.encode() not in body and b"def main(" not in body


@pytest.mark.server
@pytest.mark.parametrize(
    "path",
    [
        "/voila/templates/calcnb/static/../conf.json",  # the template's own settings, one step up
        "/voila/templates/calcnb/static/..%2fconf.json",
        "/voila/templates/calcnb/static/%2e%2e/%2e%2e/calcnb/conf.json",
        "/voila/templates/calcnb/static/..%2f..%2f..%2fcli.py",  # the trial's address
        "/voila/templates/calcnb/static/./labvariables.css",
        "/voila/templates/../templates/calcnb/static/labvariables.css",
        "/voila/templates/%2e%2e/static/voila.js",
        "/voila/labextensions/@voila-dashboards/..%2f..%2fvoila/templates/calcnb/conf.json",
    ],
)
def test_a_step_out_to_a_file_that_exists_is_not_found_either(served, path):
    before = len(_settled(served, 0.2))
    status, _body = served.get(path)
    assert status == 404
    assert not any("Traceback" in line for line in _settled(served)[before:])


def test_the_template_steps_out_to_files_that_exist():
    """The case above is a real one: one step up from the template's static files is a file of the template."""
    assert (JUPYTER_DATA_DIR / "voila" / "templates" / "calcnb" / "conf.json").is_file()


@pytest.mark.parametrize(
    "path",
    [
        "calcnb/static/../conf.json",
        "../../etc/passwd",
        "a/./b.js",
        "a/..",
        "/etc/passwd",
        "a\\..\\..\\b",
        "C:/Windows/win.ini",
        "a/b.js:stream",
        "a\0b",
    ],
)
def test_a_path_that_could_step_out_is_refused_before_any_file_is_looked_for(path):
    from tornado.web import HTTPError

    from calcnb.serve.voila.app import inside

    with pytest.raises(HTTPError) as refused:
        inside(path)
    assert refused.value.status_code == 404


@pytest.mark.parametrize("path", ["calcnb/static/labvariables.css", "@voila-dashboards/x/static/remoteEntry.1a2b.js"])
def test_a_path_inside_is_kept_as_it_is(path):
    from calcnb.serve.voila.app import inside

    assert inside(path) == path
