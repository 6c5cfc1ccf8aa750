"""The words of calcnb.studies, one module per language code (see calcnb.i18n.add_words)."""
