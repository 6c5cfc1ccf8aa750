"""The class server: one Solara process for the whole class, a virtual kernel (not a process) per pupil's page.

:mod:`.app` is the server (``python -m calcnb.serve.class_server.app``): Solara behind :mod:`.gate`, the
ASGI adapter of the shared caps and class code. :mod:`.page` is the page Solara gives each visit, built by
:mod:`.notebook_widgets` (a notebook run as widgets) in turns (:mod:`.turns`); :mod:`.asset_cache` keeps
the front end's fixed files in memory.
"""

from calcnb.i18n import add_words
from calcnb.serve.shared import startup  # noqa: F401  (before nbformat loads jsonschema: see its notes)

add_words(__name__)  # the words of this room, in its lang/ folder
