"""The words of calcnb.game, one module per language code (see calcnb.i18n.add_words)."""
