"""The command line, ``calcnb`` (``python -m calcnb``): what a teacher types, and the servers it starts and stops.

:mod:`.main` reads the command (:mod:`.parser`) and hands it to a runner (:mod:`.runners`); a runner builds
the server's command line (:mod:`.commands`) and environment (:mod:`.environments`) and runs it in the
foreground (:mod:`.process`), showing the class its address (:mod:`.address`). :mod:`.workspace` is the
user's own copy of the notebooks (``calcnb lab``), :mod:`.about` which calcnb runs (``--version``).
"""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this room, in its lang/ folder
