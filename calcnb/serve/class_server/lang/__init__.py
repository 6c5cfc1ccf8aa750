"""The words of calcnb.serve.class_server, one module per language code (see calcnb.i18n.add_words)."""
