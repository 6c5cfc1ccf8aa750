"""Every setting a calcnb process reads from its environment, declared once: name, type, default and meaning.

The command line starts servers whose kernels must know a few things (the language, the class log,
whether Show answer is allowed); it tells them through environment variables. Each such variable is
a :class:`Setting` here, and every reader and writer asks the setting, never ``os.environ`` by name:

>>> NO_REVEAL.read({"CALCNB_NO_REVEAL": "1"}), NO_REVEAL.read({})
(True, False)
>>> CLASS_LOG.read({"CALCNB_CLASS_LOG": "  lesson.db "}), CLASS_LOG.read({})
('lesson.db', None)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass

__all__ = [
    "CLASS_CODE",
    "CLASS_LOG",
    "CLASS_PROJECTOR",
    "CLASS_VIEW",
    "CLASS_VIEW_LESSON",
    "HUB_NOTEBOOKS",
    "HUB_PASSWORD",
    "HUB_SERVER",
    "HUB_SERVICE_HOST",
    "HUB_SERVICE_PORT",
    "HUB_TEACHERS",
    "INTERPRETED",
    "LANGUAGE",
    "NO_REVEAL",
    "SETTINGS",
    "VOILA_PREHEAT",
    "Setting",
]


@dataclass(frozen=True)
class Setting:
    """One environment variable calcnb reads: its name, whether it is a flag, and what it means.

    A flag is on for any value but "", "0", "false" and "no" (any case); a text setting is its value
    with the spaces around it taken off, or None when unset or blank.
    """

    variable: str
    flag: bool
    meaning: str

    def read(self, environment: Mapping[str, str] | None = None) -> str | bool | None:
        """The setting's value in ``environment`` (default: this process's environment)."""
        value = (os.environ if environment is None else environment).get(self.variable, "").strip()
        if self.flag:
            return value.lower() not in ("", "0", "false", "no")
        return value or None

    def write(self, environment: MutableMapping[str, str], value: str | bool | None) -> None:
        """Set the setting in ``environment`` (a child process's), or remove it for None or False."""
        environment.pop(self.variable, None)
        if value is True:
            environment[self.variable] = "1"
        elif value:
            environment[self.variable] = str(value)

    def pop(self, environment: MutableMapping[str, str] | None = None) -> str | bool | None:
        """Read the setting and take it out of ``environment`` (a secret the children must not see)."""
        environment = os.environ if environment is None else environment
        value = self.read(environment)
        environment.pop(self.variable, None)
        return value


LANGUAGE = Setting("CALCNB_LANG", False, "the language a process starts in (a language code; else English)")
CLASS_LOG = Setting("CALCNB_CLASS_LOG", False, "where the students' kernels record their answers (a class log)")
CLASS_VIEW = Setting("CALCNB_CLASS_VIEW", False, "the class log the teacher's view reads (never a student's kernel)")
CLASS_PROJECTOR = Setting("CALCNB_CLASS_PROJECTOR", False, "the class log the projector view reads (counts only)")
CLASS_VIEW_LESSON = Setting("CALCNB_CLASS_VIEW_LESSON", False, "the lesson the class view shows before any answer")
NO_REVEAL = Setting("CALCNB_NO_REVEAL", True, "Show answer is never offered (the teacher turned it off)")
INTERPRETED = Setting("CALCNB_INTERPRETED", True, "the solver runs interpreted even where it was compiled")
CLASS_CODE = Setting("CALCNB_CLASS_CODE", False, "the class code a server asks for (read once, then removed)")
VOILA_PREHEAT = Setting("VOILA_PREHEAT", True, "set by Voila in the kernels it starts ahead of any visitor")
HUB_NOTEBOOKS = Setting("CALCNB_HUB_NOTEBOOKS", False, "the notebooks a trial hub gives its students (else calcnb's)")
HUB_PASSWORD = Setting("CALCNB_HUB_PASSWORD", False, "every student's password on a trial hub (else calcnb)")
HUB_SERVER = Setting("CALCNB_HUB_SERVER", False, "how a hub serves its pupils: class (one class server, else) or voila")
HUB_SERVICE_HOST = Setting("CALCNB_HUB_SERVICE_HOST", False, "the name the hub's proxy reaches its class server by")
HUB_SERVICE_PORT = Setting(
    "CALCNB_HUB_SERVICE_PORT", False, "a hub's class server's local port (else 8870; class view: +1, projector: +2)"
)
HUB_TEACHERS = Setting(
    "CALCNB_HUB_TEACHERS", False, "the hub names, comma-separated, that may open a hub's class view and projector"
)

#: Every setting, by its environment variable.
SETTINGS: dict[str, Setting] = {
    setting.variable: setting
    for setting in (
        LANGUAGE,
        CLASS_LOG,
        CLASS_VIEW,
        CLASS_PROJECTOR,
        CLASS_VIEW_LESSON,
        NO_REVEAL,
        INTERPRETED,
        CLASS_CODE,
        VOILA_PREHEAT,
        HUB_NOTEBOOKS,
        HUB_PASSWORD,
        HUB_SERVER,
        HUB_SERVICE_HOST,
        HUB_SERVICE_PORT,
        HUB_TEACHERS,
    )
}
