"""Benchmarks of the progress card (`python -m bench cards`).

- drawing one card (Pillow, PNG encoded), p50/p95 over varied cards, against the same card's
  calendar as Unicode text (the console's rendering) and a card the painter kept (cached);
- the weekly chart, drawn;
- `/me` through the shipped app (`open_app`, the core): the first of the day (drawn) against
  a second (kept);
- `studybot --help` start-up, as shipped (no Pillow) and with the drawing module imported
  first (what importing Pillow at start-up would cost every command).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from bot.app import open_app
from bot.charts.model import DayBar, ProgressCard, TopicBar, WeekChart
from bot.charts.painter import Painter
from bot.charts.read import calendar
from bot.charts.text import calendar_text
from bot.settings import Settings
from bot.store.activity import ActKind
from bot.types import ChannelRef, Locale, User

CARDS = 60
TODAY = date(2026, 3, 29)
REPO = Path(__file__).resolve().parents[1]
T = TypeVar("T")
TOPICS = ("distributed", "gpu", "inference", "python", "training", "data-pipelines")


def main() -> None:
    from bot.charts import draw  # Pillow, loaded for this suite only

    rng = random.Random(3)
    cards = [_card(rng, locale) for _ in range(CARDS // 2) for locale in Locale]
    draw.card_png(cards[0])  # fonts loaded once, as in a running bot
    print(f"card, drawn:          {_ms(lambda c: draw.card_png(c), cards)}")
    print(f"card, as Unicode:     {_ms(lambda c: calendar_text(c.calendar, c.locale), cards)}")
    painter = Painter()
    for card in cards:
        asyncio.run(painter.card("bench", card))
    print(f"card, kept (cached):  {_ms(lambda c: asyncio.run(painter.card('bench', c)), cards)}")
    charts = [_chart(rng) for _ in range(CARDS)]
    print(f"weekly chart, drawn:  {_ms(lambda c: draw.week_png(c), charts)}")
    print(f"PNG size: card {len(draw.card_png(cards[0])) / 1024:.1f} KiB, "
          f"chart {len(draw.week_png(charts[0])) / 1024:.1f} KiB")  # fmt: skip
    asyncio.run(_me())
    _startup()


def _card(rng: random.Random, locale: Locale) -> ProgressCard:
    counts = {TODAY - timedelta(days=n): rng.choice((0, 0, 1, 2, 3, 5, 8)) for n in range(84)}
    frozen = frozenset(d for d, n in counts.items() if n == 0 and rng.random() < 0.2)
    topics = tuple(TopicBar(t, rng.randint(0, 9), 10) for t in TOPICS)
    return ProgressCard(locale, "member", calendar(counts, frozen, TODAY), rng.randint(0, 40),
                        40, rng.randint(0, 3000), topics)  # fmt: skip


def _chart(rng: random.Random) -> WeekChart:
    first = TODAY - timedelta(days=6)
    days = tuple(DayBar(first + timedelta(days=n), rng.randint(0, 40), rng.randint(0, 20))
                 for n in range(7))  # fmt: skip
    return WeekChart(Locale.EN, days)


def _ms(work: Callable[[T], object], items: list[T]) -> str:
    took = []
    for item in items:
        start = time.perf_counter()
        work(item)
        took.append((time.perf_counter() - start) * 1000)
    took.sort()
    return f"p50 {statistics.median(took):7.3f} ms  p95 {took[int(len(took) * 0.95)]:7.3f} ms"


async def _me() -> None:
    """`/me` as a member with 84 days of acts: the first (drawn), then the same day again."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.from_mapping(
            {
                "STUDYBOT_DATABASE": f"{folder}/bench.sqlite3",
                "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
            }
        )
        async with open_app(settings, grading=False) as app:
            member, here = User("bench", "u1", "member"), ChannelRef("bench", "c1", "w1")
            now = datetime.now(UTC)
            for n in range(84):
                await app.ledger.record(ActKind.QUIZ, member, here, "python-gil", correct=True,
                                        points=10, at=now - timedelta(days=n),
                                        dedupe=f"bench:{n}")  # fmt: skip
            for label in ("drawn", "kept"):
                start = time.perf_counter()
                await app.core.handle_line("/me", user=member, channel=here, locale=Locale.EN)
                print(
                    f"/me through the app, {label}: {(time.perf_counter() - start) * 1000:.1f} ms"
                )


def _startup() -> None:
    help_ = (
        "import runpy, sys; sys.argv = ['studybot', '--help']; "
        "runpy.run_module('bot', run_name='__main__')"
    )
    shipped, drawing = ("as shipped", help_), ("with the drawing module imported",
                                               "import bot.charts.draw; " + help_)  # fmt: skip
    for label, code in (shipped, drawing):
        took = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                           check=False)  # fmt: skip
            took.append((time.perf_counter() - start) * 1000)
        print(f"studybot --help, {label}: median {statistics.median(took):.0f} ms")
