"""The words of calcnb.ui, one module per language code (see calcnb.i18n.add_words)."""
