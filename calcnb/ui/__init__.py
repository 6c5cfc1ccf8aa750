"""What a person sees in a notebook: the board drawn with matplotlib and the ipywidgets built on it."""
