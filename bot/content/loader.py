"""Loading the bank into the database: read and check off the loop, then write in one go.

Reading happens in a worker thread (many small files, YAML parsing). If any file is broken,
`read_bank` raises `ContentError` before the database is touched, so the last good content
stays live. Reading happens before the write transaction, so a slow read never holds the
database's writers up; several processes loading the same new content at once each read
it, and the first to write wins (`bot.store.ingest.sync_bank_if_new`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.content.bank import fingerprint, read_bank
from bot.store.db import Database
from bot.store.ingest import LoadReport, stored_fingerprint, sync_bank, sync_bank_if_new


async def load_bank(db: Database, root: Path) -> LoadReport:
    bank = await asyncio.to_thread(read_bank, root)
    return await sync_bank(db, bank.questions, bank.fingerprint)


async def load_if_changed(db: Database, root: Path) -> LoadReport | None:
    """Reload only when the content directory changed since the last load (cheap stat
    check); None when it had not, or when another process loaded it meanwhile."""
    current = await asyncio.to_thread(fingerprint, root)
    if current == await stored_fingerprint(db):
        return None
    bank = await asyncio.to_thread(read_bank, root)
    return await sync_bank_if_new(db, bank.questions, bank.fingerprint)
