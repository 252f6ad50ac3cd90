"""PostgreSQL persistence (psycopg 3, async pool): the schema, its migrations and search.

The second backend beside SQLite (`bot.store`), for deployments past one machine. Today it
holds the schema (SQLite's, table for table), the migrations story and the search index;
the stores still run on SQLite only.
"""
