"""How often a question was asked (`bot.store.asked`), on SQLite and PostgreSQL: distinct
reports, the companies and rounds they name, a listing's counts in one query, and the
most-asked order of `/questions sort:asked`, page by page."""

from __future__ import annotations

from pathlib import Path

from bot.content.loader import load_bank
from bot.store.db import Database
from bot.store.questions import QuestionStore
from bot.types import Asked, AskedAt, ListOrder
from tests.asked import FIVE, OFTEN, often_count, write_asked_bank

SERVER = "discord:guild-1"


async def _store(backend: Database, content_dir: Path) -> QuestionStore:
    write_asked_bank(content_dir)
    await load_bank(backend, content_dir)
    return QuestionStore(backend)


def _most_asked_first() -> list[str]:
    counts = {"many-companies": 6, "kv-cache-size": 3, "written-here": 0,
              **dict.fromkeys(("fast-power", "gpu-memory", "python-gil", "ring-allreduce"), 1),
              **{f"often-{i:02d}": often_count(i) for i in range(OFTEN)}}  # fmt: skip
    return sorted(counts, key=lambda q: (-counts[q], q))


async def test_a_question_counts_its_distinct_reports_with_companies_and_rounds(
    backend: Database, content_dir: Path
) -> None:
    store = await _store(backend, content_dir)
    # a.txt is cited twice (once with a round, once without): one report
    assert await store.asked("kv-cache-size", SERVER) == Asked(3, (
        AskedAt("字节跳动", ("一面", "二面")), AskedAt("阿里", ("二面",))))  # fmt: skip
    many = await store.asked("many-companies")
    assert many.reports == 6  # m5.txt names no company, and still counts
    assert many.companies == tuple(AskedAt(c) for c in sorted(FIVE))  # one report each: by name
    assert await store.asked("python-gil") == Asked(1, ())  # a report that names no company


async def test_an_item_written_for_the_bank_and_an_unknown_id_count_nothing(
    backend: Database, content_dir: Path
) -> None:
    store = await _store(backend, content_dir)
    assert await store.asked("written-here") == Asked()
    assert await store.asked("no-such-question") == Asked()
    assert await store.asked_counts(["written-here", "no-such-question"]) == {}


async def test_a_listing_gets_every_count_in_one_query(
    backend: Database, content_dir: Path
) -> None:
    store = await _store(backend, content_dir)
    ids = ["kv-cache-size", "many-companies", "written-here", "often-03", "python-gil"]
    assert await store.asked_counts(ids, SERVER) == {"kv-cache-size": 3, "many-companies": 6,
                                                     "often-03": 3, "python-gil": 1}  # fmt: skip
    assert await store.asked_counts([]) == {}


async def test_most_asked_first_then_by_id_and_pages_keep_the_order(
    backend: Database, content_dir: Path
) -> None:
    store = await _store(backend, content_dir)
    total, everything = await store.browse(order=ListOrder.ASKED, limit=100, server=SERVER)
    assert total == len(everything) == 19
    assert [q.id for q in everything] == _most_asked_first()
    paged = []
    for offset in range(0, total, 4):
        _, page = await store.browse(order=ListOrder.ASKED, offset=offset, limit=4)
        paged += [q.id for q in page]
    assert paged == _most_asked_first()
    _, gpu = await store.browse(order=ListOrder.ASKED, topic="gpu", limit=3)
    assert [q.id for q in gpu] == ["often-03", "often-07", "often-11"]


async def test_the_default_order_is_still_easiest_first(
    backend: Database, content_dir: Path
) -> None:
    store = await _store(backend, content_dir)
    _, page = await store.browse(limit=3)
    _, same = await store.browse(limit=3, order=ListOrder.LEVEL)
    assert [q.id for q in page] == [q.id for q in same] == ["often-01", "often-02", "often-03"]
