"""The one error of the command line: what was asked cannot be done, said in one line with no traceback.

Every module of the command line (finding notebooks, checking ports, starting servers, opening a
class log) raises it; :func:`calcnb.serve.cli.main` prints it after the command's name and exits with 2.
"""

from __future__ import annotations

__all__ = ["AppError"]


class AppError(Exception):
    """A problem with what was asked (a missing notebook, a busy port): reported in one line, no traceback."""
