"""Imported first by a process that loads Jupyter's libraries: leaves out a grammar that nothing here uses.

jsonschema, which Jupyter Server, Voila, nbformat and nbval import, loads ``rfc3987_syntax`` when it is installed
(``jsonschema[format-nongpl]``, which the Jupyter packages ask for) to check the "iri" formats, and that module
builds its Lark grammars at import: about 1.6 s of CPU at every start of a server (python-jsonschema/jsonschema
issue 1428). No schema these processes read uses the "iri" formats, so the import is refused before jsonschema
asks for it, and jsonschema leaves those two formats unchecked. Imported for this effect by :mod:`calcnb.serve.voila`
and :mod:`calcnb.serve.class_server` (so by every server calcnb starts: the lesson app on either server, the class
view, the projector, the hub's class server) and by pytest (``-p`` in ``pyproject.toml``), in each before jsonschema.
"""

from __future__ import annotations

import sys

SKIPPED_MODULE = "rfc3987_syntax"


def skip_iri_grammar() -> None:
    """Refuse this process's import of :data:`SKIPPED_MODULE` (jsonschema then skips the "iri" formats), unless
    jsonschema is loaded already (it made its choice) or the module is."""
    if "jsonschema" not in sys.modules:
        sys.modules.setdefault(SKIPPED_MODULE, None)


skip_iri_grammar()
