"""The address a class is given: this machine's network address, the QR code, and a page to project.

When the app is served to a class (``--host 0.0.0.0``), the teacher's terminal shows the address as
a QR code, with the class code (if any) framed big, and a page with both in big type is written for
the projector. The QR code's address carries the class code after ``#``, which no browser sends, so
no server log ever holds it.
"""

from __future__ import annotations

import contextlib
import html
import os
import socket
import tempfile
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from calcnb.i18n import get_language, message
from calcnb.serve.shared.caps import normal_code

__all__ = [
    "address_page",
    "browser_address",
    "class_code_banner",
    "network_address",
    "print_for_the_class",
    "with_class_code",
]


def network_address() -> str:
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
    return f"{url}#code={quote(normal_code(class_code), safe='')}"


def class_code_banner(class_code: str) -> str:
    """The class code for the teacher's terminal, framed and spaced out so it reads from the back of a room."""
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
def browser_address(url: str) -> Iterator[str]:
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
