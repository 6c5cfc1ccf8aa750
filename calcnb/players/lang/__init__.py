"""The words of calcnb.players, one module per language code (see calcnb.i18n.add_words)."""
