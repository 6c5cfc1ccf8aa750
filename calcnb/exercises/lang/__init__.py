"""The words of calcnb.exercises, one module per language code (see calcnb.i18n.add_words)."""
