"""The class servers' own small pages: the class code's page, the refusals over a cap, the page not found.

Both servers' gates (Voila's, :mod:`calcnb.serve.voila.gate`, and the class server's,
:mod:`calcnb.serve.class_server.gate`) send these, in the class's language, with nothing fetched from outside;
this module imports no server.
"""

from __future__ import annotations

import html
import json

from calcnb.i18n import get_language, message
from calcnb.serve.shared.caps import CODE_FIELD, MAX_CODE_LENGTH

__all__ = [
    "READY_PATH",
    "REFUSED_CLOSE_CODES",
    "code_page",
    "missing_page",
    "refusal_page",
    "refusal_script",
    "server_watch_script",
]

#: The address (under the server's base) that answers while the server is up: a page asks it every few seconds.
READY_PATH = "readyz"
#: The codes a page's kernel websocket is closed with when a cap refuses it, by reason (HTTP's 429 and 503, as the
#: refusal pages' statuses): :func:`refusal_script` shows the refusal page's words for them.
REFUSED_CLOSE_CODES = {"device": 4429, "full": 4503}

_PAGE_STYLE = (
    "body{font-family:sans-serif;max-width:40em;margin:10vh auto;padding:0 1em;line-height:1.5;color:#111}"
    "h1{font-size:1.8em}.note{border-left:.3em solid #b00020;padding-left:.6em;color:#7a0016}"
)


def _page(title: str, body: str, *, status_note: str = "") -> str:
    """A small page of the app's own (no script from outside), in the class's language; ``body`` is HTML."""
    note = f'<p role="alert" class="note">{html.escape(status_note)}</p>' if status_note else ""
    return (
        f'<!DOCTYPE html><html lang="{html.escape(get_language())}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_PAGE_STYLE}"
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


def _script_value(value: object) -> str:
    """``value`` (a string, or lists and dicts of them) as JavaScript inside a <script> element (no "</" that could
    end the element)."""
    return json.dumps(value).replace("</", "<\\/")


def server_watch_script(ping: str) -> str:
    """A script for the head of a pupil's page that says, within seconds, that the server has stopped answering.

    A page whose server is gone (stopped, killed, its laptop asleep) keeps showing what it showed last, so a
    pupil would go on answering into nothing. The page asks ``ping`` (the server's :data:`READY_PATH`) every
    2 s; two misses in a row show ``serve.server_gone`` in a red banner across the top (an alert, read out by
    screen readers), and an answer takes it away.
    """
    return (
        "<script>(function(){var misses=0,banner=null;"
        "function show(gone){if(gone&&!banner){banner=document.createElement('div');"
        "banner.className='calcnb-server-gone';banner.setAttribute('role','alert');"
        "banner.style.cssText='position:fixed;top:0;left:0;right:0;z-index:10000;padding:0.8em 1.2em;"
        "background:#7a0016;color:#fff;font-size:18px;font-weight:bold;font-family:sans-serif';"
        f"banner.textContent={_script_value(message('serve.server_gone'))};document.body.appendChild(banner);}}"
        "else if(!gone&&banner){banner.remove();banner=null;}}"
        "setInterval(function(){var late=new AbortController();var limit=setTimeout(function(){late.abort();},3000);"
        f"fetch({_script_value(ping)},{{cache:'no-store',signal:late.signal}})"
        # the answer is read to its end: a request left half read stays open, and the page never looks idle
        ".then(function(answer){return answer.text().then(function(){misses=answer.ok?0:misses+1;});})"
        ".catch(function(){misses+=1;})"
        ".finally(function(){clearTimeout(limit);show(misses>=2);});},2000);})();</script>"
    )


def refusal_script(*, per_device: int, in_all: int) -> str:
    """A script for the head of a pupil's page that shows the refusal page's words (:func:`refusal_page`) in place
    of the app when a cap refuses the page's kernel websocket (closed with a code of :data:`REFUSED_CLOSE_CODES`).

    The class server sends a page before it knows whether the page may connect: several tabs of one browser
    opened at once, or reloads of one tab, are told apart only by which of them connect, and a tab whose
    connection is refused would otherwise keep loading for ever. Once refused, the page opens no other kernel
    websocket (its kernel's reconnections are given sockets that never open), so a place freed later is never
    taken by a page that shows no app; reloading the page asks again. ``per_device`` and ``in_all`` are the caps.
    """
    words = {
        str(REFUSED_CLOSE_CODES[reason]): [message(f"gate.{reason}_title"), message(f"gate.{reason}", most=most)]
        for reason, most in (("device", per_device), ("full", in_all))
    }
    return (
        "<script>(function(){var Native=window.WebSocket;if(!Native)return;"
        f"var words={_script_value(words)};var refused=false;"
        # A socket that never opens: what the page's kernel is given once refused (it reconnects on its own).
        "function quiet(url){return{url:String(url),readyState:0,binaryType:'arraybuffer',protocol:'',"
        "extensions:'',bufferedAmount:0,onopen:null,onclose:null,onmessage:null,onerror:null,send:function(){},"
        "close:function(){},addEventListener:function(){},removeEventListener:function(){},"
        "dispatchEvent:function(){return false;}};}"
        "function show(said){refused=true;document.title=said[0];var style=document.createElement('style');"
        f"style.textContent={_script_value(_PAGE_STYLE)};var main=document.createElement('main');"
        "main.className='calcnb-refused';var heading=document.createElement('h1');heading.textContent=said[0];"
        "var text=document.createElement('p');text.textContent=said[1];main.appendChild(heading);"
        "main.appendChild(text);var body=document.body;while(body.firstChild){body.removeChild(body.firstChild);}"
        "body.className='';body.appendChild(style);body.appendChild(main);}"
        "function Watched(url,protocols){var kernel=/\\/api\\/kernels\\//.test(String(url));"
        "if(kernel&&refused)return quiet(url);"
        "var socket=protocols===undefined?new Native(url):new Native(url,protocols);"
        "if(kernel){socket.addEventListener('close',function(event){var said=words[String(event.code)];"
        "if(said&&!refused)show(said);});}return socket;}"
        "Watched.prototype=Native.prototype;"
        "['CONNECTING','OPEN','CLOSING','CLOSED'].forEach(function(name){Watched[name]=Native[name];});"
        "window.WebSocket=Watched;})();</script>"
    )
