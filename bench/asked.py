"""The cost of `/questions sort:asked` (`python -m bench asked`), on the shipped bank.

The bot is built by the composition root (`open_app`) over the bundled content, and a page
of `/questions` is asked of its core, as a member would: the default order (easiest first)
beside `sort:asked` (most interview reports first: one grouped count joined to the page's
query, then the page's counts in one more query). Beside them, in the same run, the
obvious alternatives for the most-asked page, over the same `QuestionStore`:

- read every live question (its sources come along) and sort in Python, then cut the page
- the default page's query, then one `asked` query per line (N+1) for its counts

Each on the first page and on a page deep in the list, then again with the bank made dense
(every question cited by 0 to 9 synthetic reports from 30 companies, written straight into
`question_sources`: the shipped bank cites few). Then the same on PostgreSQL (a throwaway
local cluster, `tests.postgres`; skipped where no server is installed). Figures are
milliseconds per call, p50 and p95; ratios are what to compare on a noisy machine.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.app import App, open_app
from bot.commands.browse import PAGE_SIZE
from bot.settings import Settings
from bot.store.questions import QuestionStore
from bot.types import ChannelRef, Invocation, ListOrder, Locale, Question, Tone, User
from tests.postgres import find_bindir, running_cluster

BANK = Path(__file__).resolve().parents[1] / "content"
RUNS = 200
WHO, WHERE = User("bench", "u1", "member"), ChannelRef("bench", "c1", "guild")
COMPANIES = [f"公司{i:02d}" for i in range(30)]
ROUNDS = ["一面", "二面", "三面", "终面"]

Step = Callable[[], Awaitable[object]]


async def _timed(step: Step, runs: int = RUNS) -> list[float]:
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        await step()
        spent.append((time.perf_counter() - start) * 1000)
    return spent


def _report(label: str, spent: list[float]) -> None:
    cuts = statistics.quantiles(spent, n=100)
    print(f"  {label:<52} p50 {cuts[49]:7.3f} ms   p95 {cuts[94]:7.3f} ms")


def _command(app: App, sort: str | None, page: int) -> Step:
    options = {"page": str(page), **({"sort": sort} if sort else {})}
    inv = Invocation("questions", options, WHO, WHERE, Locale.EN)

    async def step() -> object:
        reply = await app.core.handle(inv)
        assert reply.tone is Tone.INFO, reply.body
        return reply

    return step


def _in_python(store: QuestionStore, page: int) -> Step:
    """Every live question read, sorted by its distinct reports in Python, a page cut."""

    def reports(q: Question) -> int:
        return len({s.document for s in q.sources})

    async def step() -> object:
        _, everything = await store.browse(limit=1_000_000)
        ranked = sorted(everything, key=lambda q: (-reports(q), q.id))
        return ranked[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]

    return step


def _one_by_one(store: QuestionStore, page: int) -> Step:
    """The default page, then each line's count by its own query (N+1)."""

    async def step() -> object:
        _, items = await store.browse(offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE)
        return [await store.asked(q.id, WHERE.server) for q in items]

    return step


async def _measure(app: App, label: str) -> None:
    total, _ = await app.store.browse(limit=1)
    deep = max(1, total // PAGE_SIZE - 1)
    print(f"{label}: {total} live questions, pages 1 and {deep}")
    for page in (1, deep):
        for name, step in ((f"/questions page:{page} (easiest first)", _command(app, None, page)),
                           (f"/questions sort:asked page:{page}", _command(app, "asked", page)),
                           (f"  alternative: sort in Python, page {page}",
                            _in_python(app.store, page)),
                           (f"  alternative: a count per line (N+1), page {page}",
                            _one_by_one(app.store, page))):  # fmt: skip
            await step()  # warm: statement caches, the pool
            _report(name, await _timed(step))
    _, top = await app.store.browse(order=ListOrder.ASKED, limit=1)
    asked = await app.store.asked(top[0].id)
    print(f"  most asked: {top[0].id}, {asked.reports} report(s)")


async def _densify(app: App) -> None:
    """Every question cited by 0..9 synthetic reports (a company and a round each)."""
    rng = random.Random(5)
    rows = []
    for qid in await app.store.ids():
        for i in range(rng.randrange(10)):
            rows.append((qid, 1000 + i, f"bench-{rng.randrange(400)}.txt", "bench report",
                         rng.choice(COMPANIES), None, rng.choice(ROUNDS)))  # fmt: skip
    async with app.db.transaction():
        await app.db.executemany(
            """INSERT INTO question_sources (question_id, position, document, title, company,
                                             role, round) VALUES (?, ?, ?, ?, ?, ?, ?)""",
            rows,
        )
    print(f"  (+{len(rows)} synthetic citations)")


async def _run(database: str, label: str) -> None:
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": database,
                                      "STUDYBOT_CONTENT_DIR": str(BANK)})  # fmt: skip
    async with open_app(settings, rng=random.Random(1), grading=False) as app:
        await _measure(app, f"{label}, the shipped bank")
        await _densify(app)
        await _measure(app, f"{label}, the shipped bank made dense")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_run(str(Path(folder) / "asked.sqlite3"), "SQLite"))
    bindir = find_bindir()
    if bindir is None:
        print("PostgreSQL skipped: no server binaries (initdb, pg_ctl) installed")
        return
    with running_cluster(bindir) as cluster:
        asyncio.run(_run(cluster.dsn(), "PostgreSQL"))


if __name__ == "__main__":
    main()
