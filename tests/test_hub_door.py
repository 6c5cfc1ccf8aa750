"""The class server's door on a JupyterHub (:class:`calcnb.serve.class_server.hub.HubDoor`), driven as an ASGI app
with the hub's real :class:`~jupyterhub.services.auth.HubOAuth` (its states, PKCE and scope checks) and only the
two calls that ask the hub over the network answered here: who a token is, and the token for a code."""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

import pytest
from jupyterhub.services.auth import HubOAuth
from loop_thread import run_in_thread

from calcnb.serve.class_server.hub import HubDoor, hub_address, pupil_notebooks

PREFIX = "/services/calcnb/"
SCOPE = "access:services!service=calcnb"
TOKENS = {"ana-token": {"name": "ana", "scopes": [SCOPE]}, "bruno-token": {"name": "bruno", "scopes": [SCOPE]}}
TOKENS["eve-token"] = {"name": "eve", "scopes": ["self"]}  # a user of the hub the service is not for


class Hub(HubOAuth):
    """The hub's OAuth as a service has it, with the hub's two answers given here (no hub to ask)."""

    def user_for_token(self, token, use_cache=True, session_id="", *, sync=True):
        async def answer():
            return TOKENS.get(token)

        return answer()

    def token_for_code(self, code, *, code_verifier=None, sync=True):
        self.traded = (code, code_verifier)

        async def answer():
            return "ana-token"

        return answer()


def _auth() -> Hub:
    return Hub(
        api_token="service-secret",
        api_url="http://127.0.0.1:9/hub/api",
        oauth_client_id="service-calcnb",
        base_url=PREFIX,
        oauth_redirect_uri=f"{PREFIX}oauth_callback",
        access_scopes={SCOPE},
    )


class ClassServer:
    """What stands behind the door: records each request as it arrives, and answers as told."""

    def __init__(self, status: int = 200, headers=(), body: bytes = b"ok") -> None:
        self.seen: list[dict] = []
        self.status, self.headers, self.body = status, list(headers), body

    async def __call__(self, scope, receive, send) -> None:
        self.seen.append(scope)
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            return
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body})


def _call(door: HubDoor, path: str, *, cookies: dict | None = None, method: str = "GET", kind: str = "http", **more):
    """One request through the door: (status or close code, headers, body)."""
    headers = [(b"cookie", "; ".join(f"{k}={v}" for k, v in (cookies or {}).items()).encode())] if cookies else []
    headers += more.pop("headers", [])
    path, _, query = path.partition("?")
    scope = {"type": kind, "path": path, "query_string": query.encode(), "headers": headers, "client": ("127.0.0.1", 1)}
    if kind == "http":
        scope["method"] = method
    sent: list[dict] = []

    async def receive():
        return {"type": "websocket.connect"} if kind == "websocket" else {"type": "http.request", "body": b""}

    async def send(event):
        sent.append(event)

    run_in_thread(door(scope, receive, send))  # a browser test's Playwright may hold this thread's loop
    if kind == "websocket":
        return sent[0].get("code", "accepted"), {}, b""
    start = sent[0]
    body = b"".join(event.get("body", b"") for event in sent[1:])
    return start["status"], {name.decode(): value.decode() for name, value in start["headers"]}, body


def _set_cookies(headers_list) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for value in headers_list:
        jar.load(value)
    return {name: morsel.value for name, morsel in jar.items()}


def _all_headers(door: HubDoor, path: str, **options) -> tuple[int, list[tuple[str, str]]]:
    """Like :func:`_call`, but every header kept (a response sets several cookies)."""
    sent: list[dict] = []
    cookies = options.get("cookies") or {}
    headers = [(b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode())] if cookies else []
    path, _, query = path.partition("?")
    scope = {"type": "http", "method": "GET", "path": path, "query_string": query.encode(), "headers": headers}

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(event):
        sent.append(event)

    run_in_thread(door(scope, receive, send))  # a browser test's Playwright may hold this thread's loop
    return sent[0]["status"], [(name.decode(), value.decode()) for name, value in sent[0]["headers"]]


def test_a_visitor_without_the_hubs_login_is_sent_to_it_and_comes_back_logged_in():
    auth, server = _auth(), ClassServer()
    door = HubDoor(server, auth)
    status, headers = _all_headers(door, f"{PREFIX}02_wraparound?x=1")
    assert status == 302 and not server.seen
    location = dict(headers)["location"]
    assert location.startswith("/hub/api/oauth2/authorize?")
    asked = {key: values[0] for key, values in parse_qs(urlsplit(location).query).items()}
    assert asked["client_id"] == "service-calcnb" and asked["redirect_uri"] == f"{PREFIX}oauth_callback"
    assert asked["code_challenge_method"] == "S256"
    state_cookie = next(value for name, value in headers if name == "set-cookie")
    assert f"Path={PREFIX}" in state_cookie and "HttpOnly" in state_cookie
    state = _set_cookies([state_cookie])["service-calcnb-oauth-state"]
    assert state == asked["state"]

    # The hub sends the browser back with a code: traded for a token, kept in the service's cookie, and back.
    status, headers = _all_headers(
        door, f"{PREFIX}oauth_callback?code=the-code&state={state}", cookies={"service-calcnb-oauth-state": state}
    )
    assert status == 302 and dict(headers)["location"] == f"{PREFIX}02_wraparound?x=1"
    assert auth.traded[0] == "the-code" and auth.traded[1]  # with the PKCE verifier of the login it began
    cookies = _set_cookies([value for name, value in headers if name == "set-cookie"])
    assert cookies["service-calcnb"] == "ana-token" and cookies["service-calcnb-oauth-state"] == ""
    # The state is spent: the same callback again starts a new login, and sets no token.
    status, headers = _all_headers(
        door, f"{PREFIX}oauth_callback?code=the-code&state={state}", cookies={"service-calcnb-oauth-state": state}
    )
    assert dict(headers)["location"].startswith("/hub/api/oauth2/authorize?")
    assert "service-calcnb" not in _set_cookies([value for name, value in headers if name == "set-cookie"])


def test_a_callback_whose_state_is_not_this_browsers_sets_no_token():
    auth = _auth()
    door = HubDoor(ClassServer(), auth)
    _status, headers = _all_headers(door, PREFIX)
    state = _set_cookies([value for name, value in headers if name == "set-cookie"])["service-calcnb-oauth-state"]
    # Another browser's state (a login forced on this one): its cookie does not match.
    status, headers = _all_headers(
        door, f"{PREFIX}oauth_callback?code=c&state={state}", cookies={"service-calcnb-oauth-state": "mine"}
    )
    assert status == 302 and not hasattr(auth, "traded")
    assert "service-calcnb" not in _set_cookies([value for name, value in headers if name == "set-cookie"])


def test_a_pupil_goes_through_as_their_hub_name_under_the_services_prefix():
    server = ClassServer(headers=[(b"location", b"/02_wraparound")], status=303)
    door = HubDoor(server, _auth())
    status, headers, _body = _call(door, f"{PREFIX}02_wraparound/", cookies={"service-calcnb": "ana-token"})
    (seen,) = server.seen
    assert seen["path"] == "/02_wraparound/" and seen["client"] == (hub_address("ana"), 0)
    assert status == 303 and headers["location"] == "/services/calcnb/02_wraparound"  # the prefix put back
    # A token in the Authorization header does as the cookie does.
    _call(door, f"{PREFIX}play", headers=[(b"authorization", b"token bruno-token")])
    assert server.seen[-1]["client"] == ("hub:bruno", 0)


def test_the_page_asks_the_service_whether_it_is_still_there():
    page = b'<html><head><script>fetch("/readyz",{cache:"no-store"})</script></head></html>'
    door = HubDoor(
        ClassServer(headers=[(b"content-type", b"text/html"), (b"content-length", b"99")], body=page), _auth()
    )
    _status, headers, body = _call(door, PREFIX, cookies={"service-calcnb": "ana-token"})
    assert b'fetch("/services/calcnb/readyz",' in body and b'"/readyz"' not in body
    assert headers["content-length"] == str(len(body))


def test_refused_a_stranger_a_user_the_service_is_not_for_and_another_pupils_page():
    server = ClassServer()
    door = HubDoor(server, _auth())
    kernel = f"{PREFIX}jupyter/api/kernels/k1/channels"
    assert _call(door, kernel, kind="websocket")[0] == 4401  # no login
    assert _call(door, f"{PREFIX}play", method="POST")[0] == 401
    assert _call(door, f"{PREFIX}play", cookies={"service-calcnb": "made-up"})[0] == 302  # to the login
    assert _call(door, f"{PREFIX}play", cookies={"service-calcnb": "eve-token"})[0] == 403
    assert not server.seen
    # Ana's page's kernel is hers: Bruno is refused its websocket, its address and its close.
    assert _call(door, kernel, kind="websocket", cookies={"service-calcnb": "ana-token"})[0] == "accepted"
    assert _call(door, kernel, kind="websocket", cookies={"service-calcnb": "bruno-token"})[0] == 4403
    assert _call(door, f"{PREFIX}jupyter/api/kernels/k1", cookies={"service-calcnb": "bruno-token"})[0] == 403
    closing = f"{PREFIX}_solara/api/close/k1"
    assert _call(door, closing, method="POST", cookies={"service-calcnb": "bruno-token"})[0] == 403
    assert _call(door, closing, method="POST", cookies={"service-calcnb": "ana-token"})[0] == 200
    # Nothing outside the prefix; the prefix without its slash is sent to it.
    assert _call(door, "/hub/login", cookies={"service-calcnb": "ana-token"})[0] == 404
    status, headers, _body = _call(door, PREFIX.rstrip("/"))
    assert status == 302 and headers["location"] == PREFIX


@pytest.mark.parametrize("scheme_header", [b"https", b"http"])
def test_the_services_cookie_is_secure_over_https(scheme_header):
    door = HubDoor(ClassServer(), _auth())
    sent: list[dict] = []
    scope = {"type": "http", "method": "GET", "path": PREFIX, "query_string": b""}
    scope["headers"] = [(b"x-forwarded-proto", scheme_header)]

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(event):
        sent.append(event)

    run_in_thread(door(scope, receive, send))  # a browser test's Playwright may hold this thread's loop
    cookie = dict(sent[0]["headers"])[b"set-cookie"].decode()
    assert ("Secure" in cookie) == (scheme_header == b"https")


def test_the_pupils_notebooks_leave_out_the_teachers(tmp_path):
    source = tmp_path / "notebooks"
    for name in ("play.ipynb", "teacher/key.ipynb", "pt/play.ipynb", "pt/teacher/key.ipynb", ".hidden/x.ipynb"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("{}")
    folder = pupil_notebooks(source, tmp_path / "served")
    assert sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.ipynb")) == [
        "play.ipynb",
        "pt/play.ipynb",
    ]
    assert not any(path.is_symlink() for path in folder.rglob("*"))
