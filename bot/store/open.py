"""Opening the database the settings name, on its engine, behind the `Database` boundary.

SQLite (the default, one process): the file at `STUDYBOT_DATABASE`, WAL, one shared
connection. PostgreSQL (`STUDYBOT_DATABASE=postgresql://…`, many bot and grader processes):
a connection pool. Either way the schema is migrated before the database is handed out, and
a schema newer than this studybot is refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.settings import Settings
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase

POOL_SIZE = 10  # connections per process: the scheduler's bursts plus commands and grading


@asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[Database]:
    if settings.postgres is None:
        async with open_database(settings.database) as connection:
            yield SqliteDatabase(connection)
        return
    # psycopg is imported only where PostgreSQL is used.
    from bot.store.postgres.database import open_postgres
    from bot.store.postgres.db import PostgresDatabase

    async with open_postgres(settings.postgres.reveal(), max_size=POOL_SIZE) as pool:
        yield PostgresDatabase(pool)
