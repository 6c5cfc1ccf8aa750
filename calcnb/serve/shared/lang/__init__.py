"""The words of calcnb.serve.shared, one module per language code (see calcnb.i18n.add_words)."""
