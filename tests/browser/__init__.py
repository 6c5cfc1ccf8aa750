"""Tests in a real browser (Debian's chromium via playwright) against local Voila and JupyterLab servers."""
