"""The project's base: the error every refusal is, and the settings every process reads.

The lowest layer: it imports nothing of calcnb, so every other layer (the language lookup
included) can build on it.
"""
