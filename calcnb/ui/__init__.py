"""What a person sees in a notebook: the board drawn with matplotlib and the ipywidgets built on it."""

from calcnb.i18n import add_words

add_words(__name__)  # the words of this package, in its lang/ folder
