"""Maintenance scripts, run from the repository's root (`python -m scripts.<name>`)."""
