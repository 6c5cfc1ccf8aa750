"""Voila and the hub: a kernel process per page, behind Voila's gate; and a student's server on a school's hub.

:mod:`.app` is the app's Voila (``python -m calcnb.serve.voila.app``), :mod:`.gate` its tornado adapter of the
shared caps and class code, :mod:`.kernels` its kernel manager (kernels warm up in turns, end with their
page). :mod:`.hub` makes a hub's student server serve Voila's pages and nothing else, behind the same gate.
"""

from calcnb.serve.shared import startup  # noqa: F401  (before Voila loads jsonschema: see its notes)
