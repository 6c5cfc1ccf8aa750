"""A class at work, on screen: the students' recorder that feeds the class log from the lesson, and the teacher's
class view. The log itself, with no widget, is :mod:`calcnb.classlog`."""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
