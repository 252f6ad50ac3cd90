"""studybot: daily AI-infrastructure interview practice for chat study groups.

The core in this package is platform-neutral; adapters in `adapters/` translate.
"""
