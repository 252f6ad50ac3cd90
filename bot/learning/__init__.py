"""The learning loop: what members did, what it scores, and the streaks it makes."""
