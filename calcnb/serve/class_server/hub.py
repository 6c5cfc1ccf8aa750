"""The class server on a JupyterHub: one process for a whole class, run by the hub as a managed service.

JupyterHub starts ``python -m calcnb.serve.class_server.hub TARGET`` as a service (``deploy/jupyterhub_config.py``)
and its proxy sends ``/services/<name>/`` to it. :class:`HubDoor` stands in front of the class server's gate
(:class:`~calcnb.serve.class_server.gate.ClassGate`): it lets through only pupils the hub vouches for (the
hub's OAuth, :class:`jupyterhub.services.auth.HubOAuth`: the service's cookie, or a token), takes the
service's prefix off each address for the gate and Solara (and puts it back on redirects and on the
server-gone check), and hands the gate each pupil's hub name as their address: every pupil reaches the
service from the hub's proxy, one address, so the caps count a pupil's pages by name. A page's virtual kernel
belongs to the pupil who opened it; another pupil's request for it is refused.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import secrets
import shutil
import warnings
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from calcnb.serve.class_server.gate import ASGIApp, Receive, Scope, Send, request_cookies
from calcnb.serve.shared.gate_pages import READY_PATH

__all__ = [
    "CALLBACK_PATH",
    "HUB_ADDRESS_PREFIX",
    "HubDoor",
    "hub_address",
    "main",
    "pupil_notebooks",
]

_log = logging.getLogger("calcnb.serve")

#: Where the hub sends a pupil back to after its login (under the service's prefix): JupyterHub's own name.
CALLBACK_PATH = "/oauth_callback"
#: What the gate is given as a pupil's address: their hub name behind this, never an IP address.
HUB_ADDRESS_PREFIX = "hub:"
#: The addresses that name a page's virtual kernel: its websocket, Solara's kernel info and its close.
_KERNEL = re.compile(r"^/(?:jupyter/api/kernels|_solara/api/close)/(?P<kernel>[^/]+)")
#: The teacher's folder of notebooks (answer keys, the class view): never served to pupils.
TEACHER_FOLDER = "teacher"


def hub_address(name: str) -> str:
    """The address the gate counts a hub pupil's pages under: their hub name, not the proxy's address.

    >>> hub_address("ana")
    'hub:ana'
    """
    return f"{HUB_ADDRESS_PREFIX}{name}"


def pupil_notebooks(source: Path, folder: Path) -> Path:
    """A copy of ``source`` without the teacher's notebooks (``teacher/`` at any depth), rebuilt in ``folder``.

    Copied, not linked: the class server serves only what lies inside the folder it was given, and a link
    would lead out of it. Returns ``folder``.
    """
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns(TEACHER_FOLDER, ".*", "__pycache__"))
    return folder


def _header(scope: Scope, wanted: bytes) -> str:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return value.decode("latin-1")
    return ""


def _https(scope: Scope) -> bool:
    """Whether the pupil's browser reached the hub over https (the hub's proxy says so in X-Forwarded-Proto)."""
    return scope.get("scheme") in ("https", "wss") or _header(scope, b"x-forwarded-proto") == "https"


async def _answer(scope: Scope, receive: Receive, send: Send, status: int, headers: list | None = None) -> None:
    """A bare answer: a status with ``headers`` (a redirect, a refusal), or a closed websocket for a refusal."""
    if scope["type"] == "websocket":
        await receive()  # the connection request
        await send({"type": "websocket.close", "code": 4000 + status})
        return
    body = b"" if 300 <= status < 400 else f"{status}".encode()
    start = [(b"cache-control", b"no-store"), (b"content-length", str(len(body)).encode()), *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": body})


class HubDoor:
    """The hub's login in front of the class server (an ASGI middleware over the class server's gate).

    ``auth`` is the service's :class:`~jupyterhub.services.auth.HubOAuth` (it reads the hub's settings from
    the environment the hub gives its services). A request with no valid cookie or token is sent to the hub's
    login (a page) or refused (anything else); the OAuth callback sets the service's cookie. What goes on to
    ``app`` has the prefix taken off its path (Solara is told it once, in ``SOLARA_ROOT_PATH``), and the pupil's
    hub name as its client's address (:func:`hub_address`). The hub name is never the pupil's nickname in the
    class log: that stays the one the pupil types (``docs/design.md``).
    """

    def __init__(self, app: ASGIApp, auth: Any) -> None:
        self.app = app
        self.auth = auth
        self.prefix = auth.base_url if auth.base_url.endswith("/") else auth.base_url + "/"
        self.root = self.prefix.rstrip("/")
        #: Each page's kernel and the hub name of the pupil who opened it (kernels are ids, a few a visit).
        self.owners: dict[str, str] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request or connection: the login, a refusal, or on to the class server as the pupil."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == self.root:
            await _answer(scope, receive, send, 302, [(b"location", self.prefix.encode())])
            return
        if not path.startswith(self.prefix):
            await _answer(scope, receive, send, 404)
            return
        inner = path[len(self.root) :]
        if inner == CALLBACK_PATH and scope["type"] == "http":
            await self._callback(scope, receive, send)
            return
        user = await self._user(scope)
        if user is None:
            if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
                await self._login(scope, receive, send)
            else:
                await _answer(scope, receive, send, 401)
            return
        # The scopes the hub asks of the service's users (access:services!service=NAME); none asked: any user.
        if self.auth.access_scopes and not self.auth.check_scopes(self.auth.access_scopes, user):
            _log.info("calcnb: %s is not allowed on this service", user.get("name"))
            await _answer(scope, receive, send, 403)
            return
        name = user["name"]
        kernel = _KERNEL.match(inner)
        if kernel is not None and self.owners.setdefault(kernel["kernel"], name) != name:
            _log.warning("calcnb: %s asked for a page that is not theirs", name)
            await _answer(scope, receive, send, 403)
            return
        pupil = {**scope, "path": inner, "raw_path": inner.encode("utf-8"), "client": (hub_address(name), 0)}
        await self.app(pupil, receive, self._prefixed(send) if scope["type"] == "http" else send)

    async def _user(self, scope: Scope) -> dict[str, Any] | None:
        """The hub's model of the pupil (``name``, ``scopes`` ...) for the request's token or cookie, or None."""
        found = self.auth.auth_header_pat.match(_header(scope, b"authorization"))
        token = found.group(1) if found else request_cookies(scope).get(self.auth.cookie_name)
        if not token:
            return None
        try:
            return await self.auth.user_for_token(token, sync=False)
        except Exception:  # the hub not answering: the pupil is asked to log in again, which will say so
            _log.exception("calcnb: the hub could not say who a pupil is")
            return None

    async def _login(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the browser to the hub's OAuth (its login first, if need be), to come back to this address."""
        query = scope.get("query_string", b"").decode("latin-1")
        back = scope["path"] + (f"?{query}" if query else "")
        verifier, challenge, method = self.auth.generate_pkce_code_challenge()
        state = self.auth.generate_state(back, code_verifier=verifier)
        ask = {
            "client_id": self.auth.oauth_client_id,
            "redirect_uri": self.auth.oauth_redirect_uri,
            "response_type": "code",
            "state": state,
            "code_challenge": challenge,
            "code_challenge_method": method,
        }
        location = f"{self.auth.oauth_authorization_url}?{urlencode(ask)}"
        cookie = self._cookie(self.auth.state_cookie_name, state, scope, max_age=self.auth.oauth_state_max_age)
        await _answer(scope, receive, send, 302, [(b"location", location.encode()), cookie])

    async def _callback(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The hub's answer to :meth:`_login`: a code, traded for the pupil's token, kept in the service's cookie."""
        fields = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        code, state = (fields.get("code") or [""])[0], (fields.get("state") or [""])[0]
        verifier = self.auth.get_code_verifier(state) if state else None
        # The state must be this browser's own (its cookie) and this process's: else the login starts again.
        if (
            not code
            or verifier is None
            or not secrets.compare_digest(state, request_cookies(scope).get(self.auth.state_cookie_name, ""))
        ):
            await self._login({**scope, "path": self.prefix, "query_string": b""}, receive, send)
            return
        back = self.auth.get_next_url(state)
        self.auth.clear_oauth_state(state)
        token = await self.auth.token_for_code(code, code_verifier=verifier, sync=False)
        back = back if back.startswith(self.prefix) else self.prefix  # never away from the service
        forget = self._cookie(self.auth.state_cookie_name, "", scope, max_age=0)
        headers = [(b"location", back.encode()), self._cookie(self.auth.cookie_name, token, scope), forget]
        await _answer(scope, receive, send, 302, headers)

    def _cookie(self, name: str, value: str, scope: Scope, *, max_age: int | None = None) -> tuple[bytes, bytes]:
        """A cookie of this service only (its prefix), out of the page's scripts' reach."""
        parts = [f"{name}={value}", f"Path={self.prefix}", "HttpOnly", "SameSite=Lax"]
        if max_age is not None:
            parts.append(f"Max-Age={max_age}")
        if _https(scope):
            parts.append("Secure")
        return b"set-cookie", "; ".join(parts).encode("latin-1")

    def _prefixed(self, send: Send) -> Send:
        """``send`` that puts the service's prefix back: on a redirect to a path of the class server, and on the
        address a page asks to know its server is still there (the server-gone banner)."""
        root = self.root.encode()
        ping = b"fetch(" + json.dumps(f"/{READY_PATH}").encode()
        ping_here = b"fetch(" + json.dumps(f"{self.prefix}{READY_PATH}").encode()
        state: dict[str, Any] = {"start": None, "body": b""}

        async def prefixed(event: MutableMapping[str, Any]) -> None:
            if event["type"] == "http.response.start":
                headers = []
                for name, value in event.get("headers", []):
                    if name == b"location" and value.startswith(b"/") and not value.startswith(b"//"):
                        value = root + value
                    headers.append((name, value))
                event = {**event, "headers": headers}
                if dict(headers).get(b"content-type", b"").startswith(b"text/html"):
                    state["start"] = event  # held until the page's body is whole
                    return
            elif event["type"] == "http.response.body" and state["start"] is not None:
                state["body"] += event.get("body", b"")
                if event.get("more_body"):
                    return
                body = state["body"].replace(ping, ping_here)
                start = state["start"]
                headers = [(name, value) for name, value in start["headers"] if name != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                state["start"] = None
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": body, "more_body": False})
                return
            await send(event)

        return prefixed


def main(argv: list[str] | None = None) -> None:
    """``python -m calcnb.serve.class_server.hub TARGET``: the class server as a JupyterHub service, until stopped.

    Run by the hub (``services`` in its configuration), which gives it its address, prefix and OAuth client in
    the environment; the class code, the class log and the language come in the same environment, as on a laptop.
    """
    import uvicorn
    from jupyterhub.services.auth import HubOAuth

    parser = argparse.ArgumentParser(prog="python -m calcnb.serve.class_server.hub")
    parser.add_argument("target", type=Path)
    parser.add_argument("--max-pages", type=int, default=None)
    parser.add_argument("--pages-per-device", type=int, default=None)
    # Where to listen, when the hub's proxy reaches the service by a name of its own (Kubernetes: "hub").
    parser.add_argument("--ip", default=None, help="the address to listen on (default: the service URL's host)")
    arguments = parser.parse_args(argv)
    auth = HubOAuth()
    where = urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    # Solara writes its pages' addresses (scripts, websocket) under the service's prefix; what reaches it has the
    # prefix taken off (the gate reads the paths as on a laptop), so it is told the prefix here, not per request.
    os.environ["SOLARA_ROOT_PATH"] = auth.base_url.rstrip("/")
    os.environ["SOLARA_BASE_URL"] = f"{where.scheme}://{where.netloc}{auth.base_url}"
    from calcnb.serve.class_server.app import build_app, server_config
    from calcnb.serve.class_server.kernel_pool import POOL_SIZE

    app = build_app(
        arguments.target,
        max_pages=arguments.max_pages,
        pages_per_device=arguments.pages_per_device,
        kernels_ahead=POOL_SIZE,
    )
    warnings.filterwarnings("ignore", message="Cookies with samesite=none require https")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    _log.setLevel(logging.INFO)
    config = server_config(HubDoor(app, auth), arguments.ip or where.hostname or "127.0.0.1", where.port or 80)
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
