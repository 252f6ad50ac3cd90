"""SQLite persistence (aiosqlite, WAL): schema migrations and the repositories the core uses."""
