"""The rules of Calculation: the fixed facts, cards and their arithmetic, deals, the engine and the game in progress."""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
