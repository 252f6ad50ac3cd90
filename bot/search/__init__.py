"""Full-text search over the bank in Chinese and English."""
