"""The words of calcnb.lessons.rules_example, one module per language code (see calcnb.i18n.add_words)."""
