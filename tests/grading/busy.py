"""Other members' gradings, in the bot's own in-process admission: every slot taken and some
more waiting, so the next submission waits behind them (and is told so)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.grading.admission import Admission
from bot.grading.service import Grading
from bot.types import Locale, User


@asynccontextmanager
async def busy(grading: Grading | None, waiting: int = 1) -> AsyncIterator[Admission]:
    """Hold every slot of `grading`'s admission and queue `waiting` more; free them on exit."""
    assert grading is not None and isinstance(grading.admission, Admission)
    admission, release = grading.admission, asyncio.Event()

    async def another(n: int) -> None:
        async with admission.admit(User("test", f"other-{n}", f"Other {n}"), Locale.EN):
            await release.wait()

    others = [asyncio.create_task(another(n))
              for n in range(admission.config.concurrency + waiting)]  # fmt: skip
    await asyncio.sleep(0)  # each runs to its ticket: a slot taken, or the wait for one
    assert admission.waiting == waiting
    try:
        yield admission
    finally:
        release.set()
        await asyncio.gather(*others)
