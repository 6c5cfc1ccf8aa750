"""Exercises with no lesson in them: items, attempts, the answer reader and judge, keys, tables, worksheets.

A lesson (``calcnb.lessons``) gives the exercises; this package asks, reads and judges them and prints them.
"""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
