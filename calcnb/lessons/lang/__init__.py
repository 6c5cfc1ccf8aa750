"""The words of calcnb.lessons, one module per language code (see calcnb.i18n.add_words)."""
