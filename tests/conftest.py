"""Shared fixtures. The bot itself (`app`, and its `core` and `scheduler`) is built by the
composition root, `open_app`, as `studybot run` builds it: the tests pass a fake clock at its
boundary and attach a fake platform named `test`, as a real adapter attaches once connected.

The database engine is a fixture too: `engine` is "sqlite" here, and the suites that must
hold on both engines (commands, schedules, quizzes, reviews, scores, grading) override it
with both in their conftest, so `database`, `settings` and `app` (which follow it) run each
of their tests once on SQLite and once on a fresh PostgreSQL database. `db` and `loaded_db`
stay a raw SQLite connection, for the tests about SQLite itself.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import discord.gateway
import discord.http
import pytest

from bot.app import App, open_app
from bot.content.loader import load_bank
from bot.core import Studybot
from bot.scheduler import Scheduler
from bot.settings import Settings
from bot.store.database import open_database
from bot.store.db import Database, SqliteDatabase
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from tests.adapters.discord.stub import DiscordStub
from tests.fakes import REPO, FakeAdapter, FakeClock, write_question
from tests.postgres_fixtures import (
    empty_postgres_dsn,
    icu_english_dsn,
    postgres_cluster,
    postgres_dsn,
)

__all__ = [
    "empty_postgres_dsn",
    "icu_english_dsn",
    "postgres_cluster",
    "postgres_dsn",
]  # fixtures for every folder


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
def engine() -> str:
    """The engine under the bot's database; suites that run on both override this."""
    return "sqlite"


@pytest.fixture
def database_location(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """The SQLite file (the one `db` opens), or a fresh PostgreSQL database's DSN.

    Synchronous, so that the session's cluster starts outside any event loop."""
    if engine == "postgres":
        return str(request.getfixturevalue("postgres_dsn"))
    return tmp_path / "data" / "test.sqlite3"


@pytest.fixture
async def database(database_location: Path | str) -> AsyncIterator[Database]:
    """The bot's database on `engine`, migrated, behind the store boundary."""
    if isinstance(database_location, Path):
        async with open_database(database_location) as connection:
            yield SqliteDatabase(connection)
    else:
        async with open_postgres(database_location, max_size=4) as pool:
            yield PostgresDatabase(pool)


@pytest.fixture
async def loaded_database(database: Database, content_dir: Path) -> Database:
    await load_bank(database, content_dir)
    return database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with open_database(tmp_path / "data" / "test.sqlite3") as connection:
        yield connection


@pytest.fixture
async def loaded_db(db: aiosqlite.Connection, content_dir: Path) -> aiosqlite.Connection:
    await load_bank(SqliteDatabase(db), content_dir)
    return db


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def adapter() -> FakeAdapter:
    return FakeAdapter()


@pytest.fixture
def settings(database_location: Path | str, content_dir: Path) -> Settings:
    """Settings over the test bank and the test database (the one `database` opens)."""
    return Settings.from_mapping({"STUDYBOT_DATABASE": str(database_location),
                                  "STUDYBOT_CONTENT_DIR": str(content_dir)})  # fmt: skip


@pytest.fixture
async def app(
    settings: Settings, loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> AsyncIterator[App]:
    """The bot as `open_app` builds it (no grading sandbox), the fake platform attached."""
    async with open_app(settings, clock=clock, rng=random.Random(7), grading=False) as opened:
        await opened.platforms.attach("test", adapter)
        yield opened


@pytest.fixture
async def graded_app(tmp_path: Path, clock: FakeClock) -> AsyncIterator[App]:
    """The whole bot as `studybot run` opens it on SQLite, the grading sandbox included, over
    the bundled bank (its coding problems have judges)."""
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "graded.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    async with open_app(settings, clock=clock, rng=random.Random(7)) as opened:
        yield opened


@pytest.fixture
async def discord_stub() -> AsyncIterator[DiscordStub]:
    """A local Discord on 127.0.0.1 (tests/adapters/discord/stub.py); discord.py's API and
    gateway addresses, which the stub points at itself, are put back after the test."""
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    async with DiscordStub() as stub:
        yield stub
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest.fixture
def scheduler(app: App) -> Scheduler:
    """The real scheduler, posting to the fake platform `test`; tests tick it by hand."""
    return app.scheduler


@pytest.fixture
def core(app: App) -> Studybot:
    return app.core
