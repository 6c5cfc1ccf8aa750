"""The words of calcnb.serve.cli, one module per language code (see calcnb.i18n.add_words)."""
