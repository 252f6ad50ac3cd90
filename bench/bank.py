"""Benchmarks of the question bank at 10,000 questions (`python -m bench bank`).

Generates a synthetic bank of content files (Chinese and English vocabulary drawn from the
real bank's domain), then measures, each beside the obvious alternative in the same run:

- full load/index from files into a new database, and how much of it is parsing the files
- search p50/p95 (CJK bigram FTS5)                 vs  a plain `LIKE '%q%'` scan
- lookup by id p50/p95                             vs  a scan of the title column
- `studybot console` ready to answer (process start to first reply) vs bare `python -c pass`

Load, search and lookup are measured on PostgreSQL too, the same `QuestionStore` over
`PostgresDatabase` on a throwaway local cluster (`tests.postgres`; skipped where no server
is installed), each query's figures printed beside SQLite's.

Ratios are what to compare on a noisy machine; absolute times vary between runs.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from pathlib import Path

from bot.content.bank import read_bank
from bot.content.frontmatter import dump
from bot.content.loader import load_bank
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.questions import QuestionStore
from tests.postgres import find_bindir, running_cluster

N = 10_000
LOOKUP = "lookup by id"
BANK = Path(__file__).resolve().parents[1] / "content"
TOPICS = ["gpu", "distributed", "python", "inference", "pytorch", "os", "algorithms"]
QUERIES = ["显存", "通信", "并行", "GIL 多线程", "allreduce", "NCCL", "梯度 同步",
           "FlashAttention 显存", "流水线并行", "kv-cache", "量子计算"]  # fmt: skip


def real_sentences() -> list[str]:
    """Sentences of the bundled bank's explanations, so the synthetic one has real term
    frequencies. Read from the files as text, not through the schema, so the same corpus
    can be fed to an older studybot to compare like with like."""
    sentences = []
    for path in sorted((BANK / "questions").glob("*.md")):
        if path.name.endswith(".en.md"):
            continue
        body = path.read_text(encoding="utf-8").split("\n---\n", 1)[-1]
        sentences += [part.strip() for part in re.split(r"[。\n]", body) if len(part.strip()) > 8]
    return sentences


def generate(root: Path, n: int) -> None:
    rng = random.Random(2026)
    sentences = real_sentences()
    (root / "questions").mkdir(parents=True)
    for i in range(n):
        qid = f"q{i:05d}"
        meta = {
            "id": qid, "title": rng.choice(sentences)[:40] + "？", "kind": "qa",
            "difficulty": rng.choice(["easy", "medium", "hard"]),
            "topics": rng.sample(TOPICS, 2),
            "sources": [{"document": f"report-{i % 97}.txt", "title": "某公司 AI Infra 一面"}],
        }  # fmt: skip
        body = "\n\n".join(rng.sample(sentences, 8))
        (root / "questions" / f"{qid}.md").write_text(dump(meta, body), encoding="utf-8")


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


async def timed(fn: Callable[[], Awaitable[object]], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def like_scan(path: Path, query: str) -> Callable[[], Awaitable[object]]:
    """The baseline: every word as a LIKE '%w%' over title and answer, no index.

    It returns every match, since ranking needs them all; a LIMIT would only stop early on
    common words and still scan the whole table for rare ones.
    """
    db = sqlite3.connect(path)
    terms = query.split()
    where = " AND ".join("(title LIKE ? OR answer LIKE ?)" for _ in terms)
    params = [p for t in terms for p in (f"%{t}%", f"%{t}%")]
    sql = f"SELECT id, title FROM questions WHERE retired = 0 AND {where}"

    async def run() -> object:
        return db.execute(sql, params).fetchall()

    return run


def report(name: str, ours: list[float], baseline: list[float], target: str,
           postgres: list[float] | None) -> None:  # fmt: skip
    p50, p95 = percentiles(ours)
    b50, b95 = percentiles(baseline)
    pg = "postgres p50 {:7.3f} ms p95 {:7.3f} ms".format(*percentiles(postgres)) if postgres else ""
    print(f"{name:<24} sqlite p50 {p50:7.3f} ms p95 {p95:7.3f} ms   {pg}   baseline p50 "
          f"{b50:8.3f} ms p95 {b95:8.3f} ms   baseline/sqlite p95 x{b95 / p95:6.1f}   "
          f"target {target}")  # fmt: skip


async def load_into(db: Database, content: Path, engine: str, parse_s: float) -> None:
    start = time.perf_counter()
    loaded = await load_bank(db, content)
    print(f"full load/index {engine:<9}{time.perf_counter() - start:6.2f} s ({loaded.added} "
          f"rows; of which parsing {parse_s:.2f} s)   target <= 10 s")  # fmt: skip


async def measure(store: QuestionStore, ids: list[str]) -> dict[str, list[float]]:
    """Milliseconds per call: each query's search (100 times), then lookups by id (400)."""
    spent = {}
    for query in QUERIES:
        spent[query] = await timed(lambda q=query: store.search(q), 100)  # type: ignore[misc]
    it = iter(ids * 2)
    spent[LOOKUP] = await timed(lambda: store.get(next(it)), 400)
    return spent


async def bench_store(work: Path, dsn: str | None) -> Path:
    content = work / "content"
    start = time.perf_counter()
    generate(content, N)
    print(f"generated {N} content files in {time.perf_counter() - start:.2f} s")

    start = time.perf_counter()
    bank = await asyncio.to_thread(read_bank, content)
    parse_s = time.perf_counter() - start
    ids = [q.id for q in random.Random(1).sample(bank.questions, 200)]
    database = work / "bank.sqlite3"
    async with open_database(database) as db:
        await load_into(SqliteDatabase(db), content, "sqlite", parse_s)
        store = QuestionStore(SqliteDatabase(db))
        found = {query: len(await store.search(query)) for query in QUERIES}
        on_sqlite = await measure(store, ids)
    on_postgres: dict[str, list[float]] = {}
    if dsn is not None:
        async with open_postgres(dsn, max_size=4) as pool:
            await load_into(PostgresDatabase(pool), content, "postgres", parse_s)
            on_postgres = await measure(QuestionStore(PostgresDatabase(pool)), ids)

    for query in QUERIES:
        base = await timed(like_scan(database, query), 15)
        report(f"search {query!r} ({found[query]})", on_sqlite[query], base,
               "p95 <= 5 ms (pg 10)", on_postgres.get(query))  # fmt: skip
    plain = sqlite3.connect(database)
    titles = iter([q.title for q in random.Random(1).sample(bank.questions, 50)])

    async def by_title() -> object:
        sql = "SELECT id FROM questions WHERE title = ?"
        return plain.execute(sql, (next(titles),)).fetchall()

    # Baseline: finding a question by its text instead of its id (a scan, sync driver).
    report(LOOKUP, on_sqlite[LOOKUP], await timed(by_title, 50), "p95 <= 1 ms (pg 2)",
           on_postgres.get(LOOKUP))  # fmt: skip
    return database


def bench_startup(database: Path, content: Path) -> None:
    env = {**os.environ, "STUDYBOT_DATABASE": str(database), "STUDYBOT_CONTENT_DIR": str(content)}

    def once(args: list[str], stdin: str) -> float:
        start = time.perf_counter()
        subprocess.run(args, input=stdin, env=env, capture_output=True, text=True, check=True)
        return (time.perf_counter() - start) * 1000

    ready = [once([sys.executable, "-m", "bot", "console"], "/question q00042\n") for _ in range(5)]
    bare = [once([sys.executable, "-c", "pass"], "") for _ in range(5)]
    print(f"ready to answer        median {statistics.median(ready):7.0f} ms (start, open the "
          f"10k database, check content, answer, exit)   bare python median "
          f"{statistics.median(bare):5.0f} ms   target <= 1500 ms")  # fmt: skip


def main() -> None:
    print(f"studybot bench: {N} synthetic questions, SQLite {sqlite3.sqlite_version}")
    bindir = find_bindir()
    if bindir is None:
        print("PostgreSQL skipped: no server binaries (initdb, pg_ctl) installed")
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_cluster(bindir) if bindir else nullcontext() as cluster,
    ):
        work = Path(tmp)
        database = asyncio.run(bench_store(work, cluster.dsn() if cluster else None))
        bench_startup(database, work / "content")
