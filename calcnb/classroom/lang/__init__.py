"""The words of calcnb.classroom, one module per language code (see calcnb.i18n.add_words)."""
