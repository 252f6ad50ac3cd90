"""Spaced review: each (member, question) is an fsrs card, reviewed by quiz answers and by
the ratings a member gives after reading an explanation, and dealt again when it is due."""
