"""The security headers every page of both servers carries: what a browser may load for it, and who may frame it.

A lesson's pages load everything from the machine that serves them (no CDN: ``tests/browser/test_serving.py``
checks that no page asks anything beyond it), so the Content-Security-Policy allows the page's own origin
alone, besides what the page frameworks need to run: inline scripts, ``eval`` and scripts made in the page
(``blob:``: Solara's widget modules, Vue's templates, the widget manager's JSON schemas), inline styles,
pictures as ``data:`` and ``blob:`` addresses (the board's PNG, which the page may read back), and its own
websocket (named by its host as well, for browsers whose ``'self'`` does not cover ``ws:``).
``frame-ancestors 'self'`` (and ``X-Frame-Options`` for older browsers) keeps another site from framing a
lesson to catch a pupil's clicks; ``nosniff`` keeps a browser from reading a file as a script it is not.
Both servers add them (:mod:`calcnb.serve.class_server.gate`, :mod:`calcnb.serve.voila.app`).
"""

from __future__ import annotations

import re

# A Host header as a browser sends it: a name or an IPv4 address, or an IPv6 address in brackets, and a port.
_HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")

_POLICY = (
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
)


def content_security_policy(host: str | None = None) -> str:
    """The Content-Security-Policy of a page asked for at ``host`` (the request's Host header).

    The page's websocket is allowed at ``host`` itself; a missing or malformed host allows ``'self'`` only.

    >>> content_security_policy("127.0.0.1:8866").endswith("ws://127.0.0.1:8866 wss://127.0.0.1:8866")
    True
    >>> "evil" in content_security_policy("x; connect-src evil")
    False
    """
    sockets = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return "; ".join((*_POLICY, f"connect-src 'self' blob: data:{sockets}"))


def security_headers(host: str | None = None) -> dict[str, str]:
    """Every security header of a response to a request for ``host``, by name."""
    return {
        "Content-Security-Policy": content_security_policy(host),
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "SAMEORIGIN",
        "Referrer-Policy": "same-origin",
    }
