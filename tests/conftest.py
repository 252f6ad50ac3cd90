"""Shared fixtures. The bot itself (`app`, and its `core` and `scheduler`) is built by the
composition root, `open_app`, as `studybot run` builds it: the tests pass a fake clock at its
boundary and attach a fake platform named `test`, as a real adapter attaches once connected.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot.app import App, open_app
from bot.content.loader import load_bank
from bot.core import Studybot
from bot.scheduler import Scheduler
from bot.settings import Settings
from bot.store.database import open_database
from tests.fakes import FakeAdapter, FakeClock, write_question
from tests.postgres_fixtures import empty_postgres_dsn, postgres_cluster, postgres_dsn

__all__ = ["empty_postgres_dsn", "postgres_cluster", "postgres_dsn"]  # fixtures for every suite


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """A small bank: three explained questions and one coding problem."""
    root = tmp_path / "content"
    write_question(root, "python-gil", "Python全局解释器锁（GIL）是什么？",
                   "GIL是一把全局互斥锁，多线程无法并行执行字节码。", topics=("python",),
                   title_en="What is the GIL?")  # fmt: skip
    write_question(root, "ring-allreduce", "AllReduce通信开销怎么计算？",
                   "Ring All-Reduce 每个GPU发送 2(N-1)/N·M 数据，NCCL 会自动选择算法。",
                   topics=("distributed",))  # fmt: skip
    write_question(
        root,
        "gpu-memory",
        "显存不够怎么办？",
        "减小batch，使用梯度检查点，或者张量并行。",
        topics=("gpu", "distributed"),
    )
    write_question(root, "fast-power", "数值的整数次方", "快速幂：反复平方。",
                   kind="coding", topics=("algorithms",),
                   signature="def my_pow(x: float, n: int) -> float")  # fmt: skip
    return root


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with open_database(tmp_path / "data" / "test.sqlite3") as connection:
        yield connection


@pytest.fixture
async def loaded_db(db: aiosqlite.Connection, content_dir: Path) -> aiosqlite.Connection:
    await load_bank(db, content_dir)
    return db


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def adapter() -> FakeAdapter:
    return FakeAdapter()


@pytest.fixture
def settings(tmp_path: Path, content_dir: Path) -> Settings:
    """Settings over the test bank and the test database (the file `db` opens too)."""
    return Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "data" / "test.sqlite3"),
                                  "STUDYBOT_CONTENT_DIR": str(content_dir)})  # fmt: skip


@pytest.fixture
async def app(
    settings: Settings, loaded_db: aiosqlite.Connection, clock: FakeClock, adapter: FakeAdapter
) -> AsyncIterator[App]:
    """The bot as `open_app` builds it (no grading sandbox), the fake platform attached."""
    async with open_app(settings, clock=clock, rng=random.Random(7), grading=False) as opened:
        await opened.platforms.attach("test", adapter)
        yield opened


@pytest.fixture
def scheduler(app: App) -> Scheduler:
    """The real scheduler, posting to the fake platform `test`; tests tick it by hand."""
    return app.scheduler


@pytest.fixture
def core(app: App) -> Studybot:
    return app.core
