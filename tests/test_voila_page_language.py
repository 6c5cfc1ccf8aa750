"""The app's Voila server marks its pages with its language: ``<html lang="pt">`` for ``calcnb app --lang pt``
(:func:`calcnb.serve.voila.app.set_page_language`), checked on the calcnb template without a kernel or a browser."""

from __future__ import annotations

import signal

import nbformat
import pytest
from loop_thread import run_in_thread
from voila.exporter import VoilaExporter

from calcnb.i18n import set_language
from calcnb.serve.cli.commands import voila_command
from calcnb.serve.shared.notebooks import notebooks_dir
from calcnb.serve.shared.settings import DEFAULT_APP_NOTEBOOK, JUPYTER_DATA_DIR
from calcnb.serve.voila.app import AppVoila


def _server(monkeypatch, tmp_path, *options: str) -> AppVoila:
    """The app's Voila server as ``calcnb app`` sets it up (its command line, the calcnb template), not started."""
    monkeypatch.setenv("JUPYTER_PATH", str(JUPYTER_DATA_DIR))  # as server_environment() gives it: the template
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(tmp_path / "config"))  # none of this machine's Jupyter settings
    monkeypatch.setattr(signal, "signal", lambda *_args: None)  # Voila's SIGTERM handler: not in the test process
    app = AppVoila()
    _python, _m, _module, *arguments = voila_command(notebooks_dir() / DEFAULT_APP_NOTEBOOK, port=8866)
    app.initialize([*arguments, *options])
    return app


def _html_tag(app: AppVoila) -> str:
    """The ``<html ...>`` tag of a page the server renders (an empty notebook, through Voila's exporter)."""
    exporter = VoilaExporter(
        config=app.config, template_paths=app.template_paths, template_name=app.voila_configuration.template
    )

    async def head() -> str:
        page = ""
        chunks = exporter.generate_from_notebook_node(nbformat.v4.new_notebook(), resources={"base_url": "/"})
        async for chunk, _resources in chunks:
            page += chunk
            if ">" in page[page.find("<html") :]:
                break
        await chunks.aclose()
        start = page.index("<html")
        return page[start : page.index(">", start) + 1]

    return run_in_thread(head())


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_pages_html_lang_is_the_servers_language(monkeypatch, tmp_path, language):
    set_language(language)  # as CALCNB_LANG sets it when the server starts (``calcnb app --lang pt``)
    app = _server(monkeypatch, tmp_path)
    assert app.voila_configuration.template == "calcnb"
    assert _html_tag(app) == f'<html lang="{language}">'


def test_a_page_language_set_on_the_command_line_is_kept(monkeypatch, tmp_path):
    set_language("pt")
    app = _server(monkeypatch, tmp_path, "--HTMLExporter.language_code=en")
    assert _html_tag(app) == '<html lang="en">'
