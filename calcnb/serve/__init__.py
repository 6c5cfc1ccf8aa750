"""Serving calcnb: the command line, the Voila and JupyterLab servers, and the kernel manager.

The command line (:mod:`~calcnb.serve.cli`) reads the command with :mod:`~calcnb.serve.parser` and
hands it to a runner (:mod:`~calcnb.serve.runners`); the servers' settings are in
:mod:`~calcnb.serve.settings`, the notebooks in :mod:`~calcnb.serve.notebooks`, the servers' command
lines in :mod:`~calcnb.serve.commands`, their processes in :mod:`~calcnb.serve.process`, what their
kernels are told in :mod:`~calcnb.serve.environments`, the address a class is given in
:mod:`~calcnb.serve.address`, the user's own copy of the notebooks in :mod:`~calcnb.serve.workspace`, and
which calcnb runs (``--version``) in :mod:`~calcnb.serve.about`. The servers themselves (:mod:`~calcnb.serve.voila_app`,
:mod:`~calcnb.serve.hub`, :mod:`~calcnb.serve.gate`, :mod:`~calcnb.serve.kernels`) depend on those
settings, never on the command line.
"""
