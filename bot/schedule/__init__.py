"""Daily channel quizzes: when each channel's question and answer are due."""
