"""The security headers' policy (calcnb.serve.shared.headers): the page's own origin only, never framed elsewhere."""

from __future__ import annotations

import pytest

from calcnb.serve.shared.headers import content_security_policy, security_headers


def _directives(policy: str) -> dict[str, list[str]]:
    return {name: sources for name, *sources in (part.split() for part in policy.split(";"))}


def test_the_policy_allows_the_pages_own_origin_and_its_websocket_only():
    directives = _directives(content_security_policy("school.example:8866"))
    assert directives["default-src"] == ["'self'"]
    assert directives["connect-src"] == [
        "'self'",
        "blob:",
        "data:",
        "ws://school.example:8866",
        "wss://school.example:8866",
    ]
    assert directives["frame-ancestors"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    # nothing from another machine: every source is a keyword or a scheme of the page's own content
    others = [source for sources in directives.values() for source in sources if "://" in source]
    assert all(source.endswith("//school.example:8866") for source in others)


@pytest.mark.parametrize(
    "host", [None, "", "a b", "x; script-src https://evil.example", "host\r\nSet-Cookie: a=b", "[::1", "é.example"]
)
def test_a_missing_or_malformed_host_allows_self_alone(host):
    directives = _directives(content_security_policy(host))
    assert directives["connect-src"] == ["'self'", "blob:", "data:"]
    assert "evil" not in content_security_policy(host)


def test_ipv6_hosts_are_named():
    assert "ws://[::1]:8866" in content_security_policy("[::1]:8866")


def test_every_header_is_there():
    headers = security_headers("127.0.0.1:8866")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    assert headers["Content-Security-Policy"] == content_security_policy("127.0.0.1:8866")
