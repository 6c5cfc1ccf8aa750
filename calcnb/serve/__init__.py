"""Serving calcnb: the command line, the Voila and JupyterLab servers, and the kernel manager."""
