"""Benchmarks of the question bank at 10,000 questions (`python -m bench bank`).

Generates a synthetic bank of content files (Chinese and English vocabulary drawn from the
real bank's domain), then measures, each beside the obvious alternative in the same run:

- full load/index from files into a new database, and how much of it is parsing the files
- search p50/p95 (CJK bigram FTS5)                 vs  a plain `LIKE '%q%'` scan
- lookup by id p50/p95                             vs  a scan of the title column
- `studybot console` ready to answer (process start to first reply) vs bare `python -c pass`

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
from pathlib import Path

from bot.content.bank import read_bank
from bot.content.frontmatter import dump
from bot.content.loader import load_bank
from bot.store.database import open_database
from bot.store.db import SqliteDatabase
from bot.store.questions import QuestionStore

N = 10_000
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


def report(name: str, ours: list[float], baseline: list[float], target: str) -> None:
    p50, p95 = percentiles(ours)
    b50, b95 = percentiles(baseline)
    print(f"{name:<22} p50 {p50:8.3f} ms  p95 {p95:8.3f} ms   baseline p50 {b50:8.3f} ms  "
          f"p95 {b95:8.3f} ms   baseline/ours p95 x{b95 / p95:6.1f}   target {target}")  # fmt: skip


async def bench_store(work: Path) -> Path:
    content = work / "content"
    start = time.perf_counter()
    generate(content, N)
    print(f"generated {N} content files in {time.perf_counter() - start:.2f} s")

    database = work / "bank.sqlite3"
    start = time.perf_counter()
    async with open_database(database) as db:
        loaded = await load_bank(SqliteDatabase(db), content)
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    bank = await asyncio.to_thread(read_bank, content)
    parse_s = time.perf_counter() - start
    print(f"full load/index        {load_s:6.2f} s ({loaded.added} rows; of which parsing "
          f"{parse_s:.2f} s)   target <= 10 s")  # fmt: skip

    async with open_database(database) as db:
        store = QuestionStore(SqliteDatabase(db))
        for query in QUERIES:
            hits = await store.search(query)
            ours = await timed(lambda q=query: store.search(q), 100)  # type: ignore[misc]
            base = await timed(like_scan(database, query), 15)
            report(f"search {query!r} ({len(hits)})", ours, base, "p95 <= 5 ms")
        ids = [q.id for q in random.Random(1).sample(bank.questions, 200)]
        it = iter(ids * 2)
        ours = await timed(lambda: store.get(next(it)), 400)
        plain = sqlite3.connect(database)
        titles = iter([q.title for q in random.Random(1).sample(bank.questions, 50)])

        async def by_title() -> object:
            sql = "SELECT id FROM questions WHERE title = ?"
            return plain.execute(sql, (next(titles),)).fetchall()

        # Baseline: finding a question by its text instead of its id (a scan, sync driver).
        report("lookup by id", ours, await timed(by_title, 50), "p95 <= 1 ms")
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
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        database = asyncio.run(bench_store(work))
        bench_startup(database, work / "content")
