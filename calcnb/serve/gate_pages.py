"""The class servers' own small pages: the class code's page, the refusals over a cap, the page not found.

Both servers (Voila's gate, :mod:`calcnb.serve.gate`, and the class server's, :mod:`calcnb.serve.solara_app`)
send these, in the class's language, with nothing fetched from outside; this module imports no server.
"""

from __future__ import annotations

import html

from calcnb.i18n import get_language, message
from calcnb.serve.caps import CODE_FIELD, MAX_CODE_LENGTH

__all__ = ["code_page", "missing_page", "refusal_page"]


def _page(title: str, body: str, *, status_note: str = "") -> str:
    """A small page of the app's own (no script from outside), in the class's language; ``body`` is HTML."""
    note = f'<p role="alert" class="note">{html.escape(status_note)}</p>' if status_note else ""
    return (
        f'<!DOCTYPE html><html lang="{html.escape(get_language())}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>"
        "body{font-family:sans-serif;max-width:40em;margin:10vh auto;padding:0 1em;line-height:1.5;color:#111}"
        "h1{font-size:1.8em}.note{border-left:.3em solid #b00020;padding-left:.6em;color:#7a0016}"
        "input,button{font-size:1.4em;padding:.3em .5em}input{width:9em;letter-spacing:.1em}"
        "</style></head><body>"
        f"<main><h1>{html.escape(title)}</h1>{note}{body}</main></body></html>\n"
    )


def refusal_page(reason: str, *, most: int) -> str:
    """The page of a visit refused over a cap (``"full"`` or ``"device"``; ``most``: the cap)."""
    title = message(f"gate.{reason}_title")
    return _page(title, f"<p>{html.escape(message(f'gate.{reason}', most=most))}</p>")


def code_page(xsrf_form_html: str, *, note: str = "") -> str:
    """The page that asks for the class code: one field; ``#code=...`` in the address fills and sends it."""
    label = html.escape(message("gate.code_label"))
    form = (
        f"<p>{html.escape(message('gate.code_prompt'))}</p>"
        f'<form method="post" id="calcnb-code">{xsrf_form_html}'
        f'<label for="{CODE_FIELD}">{label}</label><br>'
        f'<input id="{CODE_FIELD}" name="{CODE_FIELD}" autocomplete="off" autocapitalize="off" spellcheck="false"'
        f' autofocus required maxlength="{4 * MAX_CODE_LENGTH}"> '
        f'<button type="submit">{html.escape(message("gate.code_button"))}</button></form>'
        # The QR code's address carries the code after '#', which the browser never sends: send it from here.
        "<script>(function(){var m=location.hash.match(/^#code=([^&]*)/);if(!m)return;"
        "history.replaceState(null,'',location.pathname+location.search);"
        f"var f=document.getElementById('calcnb-code');f.elements['{CODE_FIELD}'].value=decodeURIComponent(m[1]);"
        "f.submit();})();</script>"
    )
    return _page(message("gate.code_title"), form, status_note=note)


def missing_page() -> str:
    """The page for an address that serves no notebook (a mistyped lesson's name)."""
    return _page(message("serve.page_missing"), "")
