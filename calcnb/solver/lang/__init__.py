"""The words of calcnb.solver, one module per language code (see calcnb.i18n.add_words)."""
