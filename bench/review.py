"""Spaced review at scale (`python -m bench review`): 100,000 cards held by 10,000 members
(ten each, with one rating logged per card), over the bundled bank, through the core.

Measures, end to end through `Studybot.handle` (option checks, handler, fsrs, SQLite):
- a rating button pressed: the card read with its review count, fsrs, the card written and
  the rating logged in one transaction, the next due date phrased;
- a quick-check answer of `/review` (the same review, as a quiz answer makes);
- `/review` dealing the member's next due card (or saying when the next one is due).
The issue's targets: a rating p95 under 5 ms, `/review` p95 under 10 ms.
"""

from __future__ import annotations

import asyncio
import gc
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fsrs import Card, State

from bot.app import App, open_app
from bot.settings import Settings
from bot.types import ChannelRef, Invocation, Locale, Reply, User

MEMBERS, PER_MEMBER, SAMPLES = 10_000, 10, 1_000
BANK = Path(__file__).resolve().parents[1] / "content"
WHERE = ChannelRef("bench", "c1", "guild")


async def populate(app: App, ids: list[str], rng: random.Random) -> None:
    now = datetime.now(UTC)
    cards, reviews = [], []
    for m in range(MEMBERS):
        for qid in rng.sample(ids, PER_MEMBER):
            due = now + timedelta(hours=rng.uniform(-240, 720))
            card = Card(card_id=len(cards) + 1, state=State.Review, stability=rng.uniform(1, 60),
                        difficulty=rng.uniform(1, 10), due=due,
                        last_review=due - timedelta(days=3))  # fmt: skip
            due_text = due.isoformat(timespec="seconds")
            cards.append(("bench", f"m{m}", qid, card.to_json(), due_text))
            reviews.append(("bench", f"m{m}", qid, 3, "rating", now.isoformat()))
    async with app.db.transaction():
        await app.db.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?)", cards)
        await app.db.executemany(
            "INSERT INTO reviews (platform, user_id, question_id, rating, source, reviewed_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", reviews)  # fmt: skip


async def timed(samples: int, step: Callable[[int], Awaitable[Reply]]) -> list[float]:
    spent = []
    for i in range(samples):
        start = time.perf_counter()
        await step(i)
        spent.append((time.perf_counter() - start) * 1000)
    return spent


def report(name: str, ms: list[float]) -> None:
    p95 = statistics.quantiles(ms, n=20)[-1]
    print(f"  {name:<34} p50 {statistics.median(ms):6.2f} ms   p95 {p95:6.2f} ms")


async def run() -> None:
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": f"{tmp}/review.sqlite3",
                                          "STUDYBOT_CONTENT_DIR": str(BANK)})  # fmt: skip
        async with open_app(settings, grading=False, rng=random.Random(1)) as app:
            ids = sorted(await app.store.ids())
            started = time.perf_counter()
            await populate(app, ids, rng)
            gc.collect()  # the set-up's garbage is not the bot's: not charged to the samples
            spent = time.perf_counter() - started
            print(f"review: {MEMBERS * PER_MEMBER:,} cards of {MEMBERS:,} members over "
                  f"{len(ids)} questions, written in {spent:.1f} s")  # fmt: skip
            await measure(app, rng)


async def measure(app: App, rng: random.Random) -> None:
    members = [User("bench", f"m{n}", "m") for n in rng.sample(range(MEMBERS), SAMPLES)]
    cards = []
    for who in members:
        row = await app.db.fetch_all(
            "SELECT question_id FROM cards WHERE platform = 'bench' AND user_id = ? LIMIT 1",
            (who.id,))  # fmt: skip
        cards.append(str(next(iter(row))[0]))

    async def rate(i: int) -> Reply:
        who = members[i]
        options = {"id": cards[i], "seen": "1", "rating": "3", "owner": who.id}
        return await app.core.handle(Invocation("rate", options, who, WHERE, Locale.EN))

    async def review(i: int) -> Reply:
        return await app.core.handle(Invocation("review", {}, members[i], WHERE, Locale.EN))

    report("rating pressed", await timed(SAMPLES, rate))
    report("/review", await timed(SAMPLES, review))


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
