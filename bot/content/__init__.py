"""Content: reading and checking the bank's files, loading them, importing interview reports."""
