"""Measuring the game: studies of players and the solver, their statistics, the folklore and winnability."""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
