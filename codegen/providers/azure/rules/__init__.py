"""The Azure annotation rules (``run.py`` lists them in order)."""
