"""The one error of what was asked: it cannot be done, said in one line with no traceback.

The command line raises it (checking ports, starting servers, opening a class log), and so does the shared
lookup of the notebooks (:mod:`calcnb.serve.shared.notebooks`); :func:`calcnb.serve.cli.main.main` prints it
after the command's name and exits with 2.
"""

from __future__ import annotations

__all__ = ["AppError"]


class AppError(Exception):
    """A problem with what was asked (a missing notebook, a busy port): reported in one line, no traceback."""
