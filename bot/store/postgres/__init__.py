"""PostgreSQL persistence (psycopg 3, async pool): the schema, its migrations and search.

The second backend beside SQLite (`bot.store`), for deployments past one machine. Today it
holds the schema (SQLite's, table for table), the migrations story, the search index, and
`PostgresDatabase` (`db.py`), the store boundary of `bot.store.db` over the pool; every store
that takes a `Database` runs here as on SQLite, the others still on SQLite only.
"""
