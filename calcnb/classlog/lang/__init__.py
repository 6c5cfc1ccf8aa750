"""The words of calcnb.classlog, one module per language code (see calcnb.i18n.add_words)."""
