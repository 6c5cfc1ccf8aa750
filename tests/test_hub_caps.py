"""A student's server on a school's hub holds one student's pages, and counts them by the address the hub's proxy
saw: a browser's own ``X-Real-Ip`` or ``X-Forwarded-For`` does not make one student pass for many devices (a
hostile trial held 12 kernels so), and a request that does not come from the proxy is taken at its own address.

The student's server here is built from what the hub gives it: the arguments ``deploy/jupyterhub_config.py``
sets in ``c.Spawner.args``, and ``trust_xheaders``, which JupyterHub's single-user server always turns on.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jupyter_server.serverapp import ServerApp
from loop_thread import LoopThread, run_in_thread
from tornado import web
from tornado.httpclient import AsyncHTTPClient, HTTPResponse
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port
from traitlets import TraitError
from traitlets.config.loader import PyFileConfigLoader

from calcnb.core.settings import CLASS_CODE
from calcnb.serve.cli.commands import cap_options
from calcnb.serve.shared.caps import CODE_COOKIE, CODE_FIELD, DEFAULT_PAGES_PER_DEVICE, Visit, default_max_kernels
from calcnb.serve.shared.settings import DEFAULT_APP_NOTEBOOK, LOCALHOST
from calcnb.serve.voila import hub
from calcnb.serve.voila.gate import GATE_SETTING

CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "jupyterhub_config.py"
PUPIL = "203.0.113.7"  # the student's device, as the hub's proxy saw it
PROXY = LOCALHOST  # where the hub's proxy reaches a student's server from, on one machine
ELSEWHERE = "127.0.0.2"  # another process on the machine, not the proxy
# JupyterHub's single-user server sets ServerApp.trust_xheaders (jupyterhub.singleuser): tornado reads the headers.
SINGLE_USER = ["--ServerApp.trust_xheaders=True"]


def _hub_arguments(folder: Path) -> list[str]:
    """The arguments ``deploy/jupyterhub_config.py`` gives every student's server (read in ``folder``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)  # the config makes the students' notebooks folder where it runs
        config = PyFileConfigLoader(CONFIG.name, str(CONFIG.parent)).load_config()
    return [*config.Spawner.args, *SINGLE_USER]


class StudentServerApp(ServerApp):
    """A student's server run in a test: its loop in a thread of its own (:mod:`loop_thread`), and the test
    process's signals left to pytest (a server's own handlers can only be set from the main thread)."""

    def init_signal(self) -> None:
        pass


def _student_server(arguments: list[str], routes: list) -> ServerApp:
    """A student's server's settings from ``arguments``, with the tornado app ``routes`` make, as the hub's
    extension (this module's, :mod:`calcnb.serve.voila.hub`) leaves it once loaded."""
    serverapp = ServerApp()
    serverapp.parse_command_line(arguments)
    serverapp.web_app = web.Application(routes)
    hub._load_jupyter_server_extension(serverapp)
    return serverapp


class Address(web.RequestHandler):
    """Answers with the address the server takes the visitor's to be (what the gate counts)."""

    def get(self) -> None:
        self.finish(self.request.remote_ip)


async def _fetch(url: str, *, source: str = PROXY, **options) -> HTTPResponse:
    client = AsyncHTTPClient(force_instance=True)
    try:
        return await client.fetch(url, network_interface=source, raise_error=False, **options)
    finally:
        client.close()


def _addresses_seen(serverapp: ServerApp, requests: list[tuple[str, dict[str, str]]]) -> list[str]:
    """The address the server sees for each (source address, headers) request, over HTTP with ``trust_xheaders``."""

    async def serve() -> list[str]:
        server = HTTPServer(serverapp.web_app, xheaders=serverapp.trust_xheaders)
        sock, port = bind_unused_port()
        server.add_sockets([sock])
        try:
            answers = [
                await _fetch(f"http://{LOCALHOST}:{port}/address", source=source, headers=headers)
                for source, headers in requests
            ]
        finally:
            server.stop()
        assert all(answer.code == 200 for answer in answers), [answer.code for answer in answers]
        return [answer.body.decode() for answer in answers]

    return run_in_thread(serve())  # not asyncio.run: a browser test's Playwright may hold this thread's loop


def _rotated(count: int, *, forwarded_for: str | None) -> list[dict[str, str]]:
    """The headers of ``count`` requests whose browser claims another address each time; the proxy, if any, added
    ``forwarded_for`` at the end of X-Forwarded-For (configurable-http-proxy appends, it does not strip)."""
    headers = []
    for n in range(count):
        claim = {"X-Real-Ip": f"10.0.0.{n + 1}"}
        if forwarded_for is None:
            claim["X-Forwarded-For"] = f"10.1.0.{n + 1}"
        else:
            claim["X-Forwarded-For"] = f"10.1.0.{n + 1}, {forwarded_for}"
        headers.append(claim)
    return headers


# ------------------------------------------------------------ one student's pages on their server


def test_a_students_server_holds_one_students_pages(tmp_path):
    serverapp = _student_server(_hub_arguments(tmp_path), [])
    caps = serverapp.web_app.settings[GATE_SETTING].caps
    # A few pages: a device's worth and a second device's few, not what the whole machine's memory holds.
    assert DEFAULT_PAGES_PER_DEVICE < caps.max_kernels <= 2 * DEFAULT_PAGES_PER_DEVICE, caps.max_kernels
    assert caps.max_kernels == hub.STUDENT_MAX_KERNELS
    assert caps.max_per_address == DEFAULT_PAGES_PER_DEVICE


@pytest.mark.parametrize(("given", "expected"), [(10, 10), (0, None)])
def test_the_hub_may_give_a_students_server_another_cap(tmp_path, given, expected):
    # As deploy/jupyterhub_config.py says: cap_options(...) in c.Spawner.args, after the student's server's own.
    serverapp = _student_server([*_hub_arguments(tmp_path), *cap_options(max_kernels=given)], [])
    caps = serverapp.web_app.settings[GATE_SETTING].caps
    assert caps.max_kernels == (default_max_kernels() if expected is None else expected)


# ------------------------------------------------------------ the visitor's address


def test_the_address_is_the_one_the_hubs_proxy_saw_whatever_the_browser_claims(tmp_path):
    serverapp = _student_server(_hub_arguments(tmp_path), [(r"/address", Address)])
    assert serverapp.trust_xheaders  # as on the hub: tornado reads the forwarding headers
    headers = _rotated(12, forwarded_for=PUPIL)
    assert _addresses_seen(serverapp, [(PROXY, claim) for claim in headers]) == [PUPIL] * 12
    # The hub's own requests, with no X-Forwarded-For, come from the proxy's machine; X-Real-Ip alone is not believed.
    alone = [{}, {"X-Real-Ip": "10.0.0.9"}]
    assert _addresses_seen(serverapp, [(PROXY, claim) for claim in alone]) == [PROXY, PROXY]


def test_a_request_not_from_the_hubs_proxy_is_taken_at_its_own_address(tmp_path):
    serverapp = _student_server(_hub_arguments(tmp_path), [(r"/address", Address)])
    headers = _rotated(3, forwarded_for=PUPIL) + _rotated(3, forwarded_for=None)
    assert _addresses_seen(serverapp, [(ELSEWHERE, claim) for claim in headers]) == [ELSEWHERE] * 6


def test_the_hubs_proxy_may_be_elsewhere_and_its_word_is_only_its_last_entry(monkeypatch):
    proxy = hub.HubProxy(addresses=["10.8.0.0/16"])
    assert proxy.visitor_address("10.8.3.4", f"10.0.0.1, {PUPIL}") == PUPIL
    assert proxy.visitor_address(PROXY, f"10.0.0.1, {PUPIL}") == PROXY  # not the proxy, as configured
    assert proxy.visitor_address("10.8.3.4", "10.0.0.1, not-an-address") == "10.8.3.4"
    assert proxy.visitor_address("::ffff:10.8.3.4", f"::ffff:{PUPIL}") == PUPIL  # a dual-stack proxy's addresses
    assert proxy.visitor_address(None, PUPIL) == hub.NO_ADDRESS  # not over IP: nobody's word is taken
    with pytest.raises(TraitError):
        hub.HubProxy(addresses=["the proxy"])
    # By default: this machine, and the hub's address when the hub tells its servers an IP address.
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://172.17.0.2:8081/hub/api")
    assert hub.HubProxy().visitor_address("172.17.0.2", PUPIL) == PUPIL
    assert hub.HubProxy().visitor_address("::1", PUPIL) == PUPIL
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://hub:8081/hub/api")
    assert hub.HubProxy().visitor_address("172.17.0.2", PUPIL) == "172.17.0.2"


# ------------------------------------------------------------ a real student's server: the gate's own pages

CODE = "4821"


@pytest.fixture(scope="module")
def real_student_server(tmp_path_factory):
    """A student's Jupyter server as the hub starts it (Voila and this module's extension loaded, a class code),
    in this process, listening on 127.0.0.1, its loop in a thread of its own; yields ``(serverapp, url, loop)``,
    ``loop`` the :class:`loop_thread.LoopThread` to run coroutines on."""
    home = tmp_path_factory.mktemp("student")
    (home / "notebooks").mkdir()  # no notebook: a page let through would be "not found", with no kernel started
    with pytest.MonkeyPatch.context() as patch:
        for variable in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
            patch.setenv(variable, str(home / variable.lower()))
        patch.setenv(CLASS_CODE.variable, CODE)
        arguments = [
            *_hub_arguments(home),
            f"--ServerApp.root_dir={home / 'notebooks'}",
            "--IdentityProvider.token=student",
            "--ServerApp.open_browser=False",
        ]

        async def start() -> tuple[ServerApp, HTTPServer, int]:
            serverapp = StudentServerApp()
            serverapp.initialize(arguments, new_httpserver=False)
            await serverapp.extension_manager.start_all_extensions()  # Voila's pages gated (calcnb.serve.voila.hub)
            server = HTTPServer(serverapp.web_app, xheaders=serverapp.trust_xheaders)
            sock, port = bind_unused_port()
            server.add_sockets([sock])
            return serverapp, server, port

        async def stop() -> None:
            server.stop()
            await serverapp.cleanup_extensions()

        with LoopThread("student-server") as loop:
            serverapp, server, port = loop.run(start())
            try:
                yield serverapp, f"http://{LOCALHOST}:{port}", loop
            finally:
                loop.run(stop())


@pytest.mark.server
def test_a_page_over_the_device_cap_is_refused_whatever_address_the_browser_claims(real_student_server):
    serverapp, url, loop = real_student_server
    gate = serverapp.web_app.settings[GATE_SETTING]
    caps = gate.caps
    caps.visits[:] = [Visit(PUPIL) for _ in range(caps.max_per_address)]  # the student's pages, their kernels starting
    try:
        page = f"{url}/voila/render/{DEFAULT_APP_NOTEBOOK}"
        admitted = {"Authorization": "token student", "Cookie": f"{CODE_COOKIE}={gate.code.cookie_value()}"}
        headers = [{**claim, **admitted} for claim in _rotated(6, forwarded_for=PUPIL)]
        answers = [loop.run(_fetch(page, headers=claim)) for claim in headers]
        assert [answer.code for answer in answers] == [429] * 6
        assert b"Too many pages open on this device" in answers[0].body
        assert len(caps.visits) == caps.max_per_address  # no place was given
    finally:
        caps.visits.clear()


@pytest.mark.server
def test_wrong_class_codes_are_counted_against_the_device_the_proxy_saw(real_student_server):
    serverapp, url, loop = real_student_server
    burst = serverapp.web_app.settings[GATE_SETTING].code.burst  # the wrong codes one address may type at once
    page = f"{url}/voila/render/{DEFAULT_APP_NOTEBOOK}"
    # A guesser who sends no cookie (a new browser at every try, never locked alone) and claims another address
    # at every try: each wrong code spends the credit of the address the proxy saw.
    headers = [{**claim, "Authorization": "token student"} for claim in _rotated(burst + 3, forwarded_for=PUPIL)]
    answers = [loop.run(_fetch(page, method="POST", body=f"{CODE_FIELD}=0000", headers=claim)) for claim in headers]
    # Wrong, wrong, ... then busy: the rotating claims do not give the device new tries.
    assert [answer.code for answer in answers] == [403] * burst + [429] * 3
