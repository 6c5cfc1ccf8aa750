"""The words of calcnb.stats, one module per language code (see calcnb.i18n.add_words)."""
