"""Players that see only what a person sees: the lean table they play on, the ladder, the blind player, the coach."""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
