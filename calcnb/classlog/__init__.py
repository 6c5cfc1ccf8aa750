"""The class log without any widget: its tables, where it lives, what is written and read, and what the rows say.

Everything a class log does on its own sits here, below the widgets (:mod:`calcnb.ui`): the schema and the
nickname rules, :class:`~calcnb.classlog.store.ClassLog`, the outbox that writes a page's answers in order
(:mod:`calcnb.classlog.outbox`), the readings, tallies, health and exports. The pages that show it, the
students' recorder and the teacher's class view, are in :mod:`calcnb.classroom`.
"""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
