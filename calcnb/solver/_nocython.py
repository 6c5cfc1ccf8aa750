"""Stands for Cython's shadow module where Cython is not installed: then nothing is compiled."""

compiled = False
