"""Loading the bank into the database: read and check off the loop, then write in one go.

Reading happens in a worker thread (many small files, YAML parsing). If any file is broken,
`read_bank` raises `ContentError` before the database is touched, so the last good content
stays live.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite

from bot.content.bank import fingerprint, read_bank
from bot.store.ingest import LoadReport, stored_fingerprint, sync_bank


async def load_bank(db: aiosqlite.Connection, root: Path) -> LoadReport:
    bank = await asyncio.to_thread(read_bank, root)
    return await sync_bank(db, bank.questions, bank.fingerprint)


async def load_if_changed(db: aiosqlite.Connection, root: Path) -> LoadReport | None:
    """Reload only when the content directory changed since the last load (cheap stat check)."""
    current = await asyncio.to_thread(fingerprint, root)
    if current == await stored_fingerprint(db):
        return None
    return await load_bank(db, root)
