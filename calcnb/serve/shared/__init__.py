"""What the command line, the class server and Voila share; this room imports no other room, and no web server.

:mod:`.settings` (ports, limits, the servers' module names, declared once), :mod:`.notebooks` (where the
notebooks are, and what a server serves), :mod:`.caps` (the caps on pages and the class code, as decisions
each server's gate adapts), :mod:`.gate_pages` (the gates' own small pages), :mod:`.launcher` (a server's
watch on the command that started it) and :mod:`.errors` (what was asked cannot be done).
"""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this room, in its lang/ folder
