"""Discord's global rate limit, kept by a fleet (`python -m bench ratelimit`).

3,000 channels' daily questions due in one minute; three bot processes (real OS processes,
each `studybot run`'s own serve loop over one throwaway PostgreSQL database, each running one
of three gateway shards of the real discord.py client) against the local Discord of the
tests, which enforces 50 requests a second for the whole bot with Discord's 429s. Two rounds:

- shared: the processes take their turns from one budget in the database (what
  `studybot run` does on PostgreSQL), 45 requests a second for all of them;
- per process: each paces itself alone at the same rate (what a bot without the shared
  budget does), so together they ask for three times as much.

Figures per round: posts delivered (each channel once?), the ledger's states, 429s received
(Discord bans an address at 10,000 invalid requests in ten minutes), and the seconds from the
first post to the last (the minute itself is known only roughly here: each process's clock
starts once its imports are done, a few seconds after it was started), and the CPU the bot
processes spent from connecting to Discord to stopping (the posts' cost, for capacity).
The processes run the test clock at real speed, started `LEAD` seconds before the minute so
that all three are ready when it comes. `RATELIMIT_CHANNELS=300` makes a quick run.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psycopg

from adapters.discord import run as discord_run
from bot.app import App
from bot.cli.common import settings_from_env
from bot.cli.serve import serve
from bot.clock import SystemClock
from bot.pacing import LocalBudget, Pacer
from bot.ports import NoMetrics
from bot.store.postgres.database import open_postgres
from tests.adapters.discord.stub import GUILD_ID, TOKEN, DiscordStub
from tests.e2e.process import bot_env
from tests.fakes import REPO
from tests.postgres import Cluster, find_bindir, running_cluster

CHANNELS = int(os.environ.get("RATELIMIT_CHANNELS", "3000"))  # fewer for a quick look
PROCESSES = 3
LIMIT = 50  # the stub's global limit, requests a second
LEAD = 45.0  # seconds from starting the processes to the minute
PATIENCE = 240.0  # seconds after the minute before a round is given up
FIRST_CHANNEL = 600_000


# --- one bot process ---------------------------------------------------------------------


def _worker(mode: str) -> None:
    settings = settings_from_env(role="bot")
    discord = settings.discord
    assert discord is not None

    async def platform(app: App) -> None:
        cpu["ready"] = time.process_time()  # imports, the bank, the pool: before posting
        rate = discord.requests_per_second
        pacer = (app.pacers.pacer("discord", rate) if mode == "shared"
                 else Pacer(LocalBudget(rate, SystemClock()), NoMetrics(), "discord"))  # fmt: skip
        await discord_run.serve(app.core, app.platforms, discord, pacer=pacer)

    cpu: dict[str, float] = {}
    asyncio.run(serve(settings, [platform]))
    print(json.dumps({"cpu_posting": time.process_time() - cpu.get("ready", 0.0)}), flush=True)


# --- the run -------------------------------------------------------------------------------


def _database(cluster: Cluster, name: str) -> str:
    with psycopg.connect(cluster.dsn(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"'.encode())
        admin.execute(f'CREATE DATABASE "{name}"'.encode())
    return cluster.dsn(name)


def _schedules(dsn: str) -> set[str]:
    """3,000 channels' daily questions at 09:00 UTC (the schema made by a first process)."""
    channels = [str(FIRST_CHANNEL + i) for i in range(CHANNELS)]
    with psycopg.connect(dsn, autocommit=True) as conn, conn.cursor() as cursor:
        cursor.executemany(
            """INSERT INTO schedules (platform, workspace, channel, post_time, timezone, days,
                   coding_days, topic, answer) VALUES ('discord', %s, %s, '09:00', 'UTC', 127,
                   0, NULL, '+8h')""",
            [(GUILD_ID, c) for c in channels],
        )  # fmt: skip
    return set(channels)


def _settled(dsn: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM daily_posts WHERE part = 'question' "
                           "AND state <> 'pending'").fetchone()  # fmt: skip
    return int(row[0]) if row else 0


async def _migrate(dsn: str) -> None:
    """The schema, for the schedules (opening a pool migrates the database)."""
    async with open_postgres(dsn, max_size=1):
        pass


async def _round(cluster: Cluster, stub: DiscordStub, mode: str, folder: Path) -> None:
    dsn = _database(cluster, f"ratelimit_{mode}")
    await _migrate(dsn)
    channels = _schedules(dsn)
    stub.reset()
    start = time.perf_counter()
    clock = f"2026-01-05T{_hms(9 * 3600 - LEAD)}+00:00*1"
    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": stub.api,
           "DISCORD_GATEWAY_URL": stub.ws_url, "DISCORD_SHARD_COUNT": str(PROCESSES),
           "STUDYBOT_LOG_LEVEL": "WARNING"}  # fmt: skip
    workers = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.ratelimit", mode, cwd=folder,
        env=bot_env(dsn, clock, DISCORD_SHARD_IDS=str(n), PYTHONPATH=str(REPO), **env),
        stdout=asyncio.subprocess.PIPE, stderr=(folder / f"{mode}{n}.log").open("wb"),
    ) for n in range(PROCESSES)]  # fmt: skip
    minute = start + LEAD
    # Polling other processes' work through the database: there is no event to await.
    while _settled(dsn) < CHANNELS and time.perf_counter() < minute + PATIENCE:
        if all(w.returncode is not None for w in workers):
            break
        await asyncio.sleep(0.5)
    await asyncio.sleep(1.0)  # anything posted twice would arrive about now
    for n, worker in enumerate(workers):
        if worker.returncode is not None:
            log = (folder / f"{mode}{n}.log").read_text(errors="replace")
            print(f"  process {n} stopped early ({worker.returncode}):\n{log[-2000:]}")
        else:
            worker.send_signal(signal.SIGTERM)
    outputs = await asyncio.gather(*(w.communicate() for w in workers))
    cpu = sum(json.loads(out.decode().strip().splitlines()[-1])["cpu_posting"]
              for out, _ in outputs if out.strip())  # fmt: skip
    _report(mode, stub, channels, minute, _counts(dsn), cpu)


def _counts(dsn: str) -> dict[str, int]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute("SELECT state, count(*) FROM daily_posts WHERE part = 'question' "
                            "GROUP BY state").fetchall()  # fmt: skip
    return {str(state): int(n) for state, n in rows}


def _report(mode: str, stub: DiscordStub, channels: set[str], minute: float,
            states: dict[str, int], cpu: float) -> None:  # fmt: skip
    held = Counter(m["channel_id"] for m in stub.messages.values() if m["channel_id"] in channels)
    refused = {id(r) for r in stub.refused}
    posts = [r.at for r in stub.requests if r.method == "POST" and r.path.startswith(
        "/channels/") and id(r) not in refused]  # fmt: skip
    first, last = min(posts, default=minute), max(posts, default=minute)
    print(json.dumps({
        "round": mode, "channels": len(channels), "posted": len(held),
        "posted_twice": sum(n > 1 for n in held.values()), "states": states,
        "refused_429": len(stub.refused), "minute_to_first_post_s": round(first - minute, 1),
        "first_to_last_post_s": round(last - first, 1),
        "posts_per_s": round(len(posts) / (last - first), 1) if last > first else None,
        "bot_cpu_s": round(cpu, 1), "bot_cpu_ms_per_post": round(1000 * cpu / max(len(held), 1), 1),
    }), flush=True)  # fmt: skip


def _hms(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


async def _main(cluster: Cluster) -> None:
    print(f"ratelimit: {CHANNELS} channels due in one minute, {PROCESSES} bot processes on "
          f"one PostgreSQL, the local Discord refusing past {LIMIT} requests a second")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordStub() as stub:
            stub.global_limit = LIMIT
            for mode in ("shared", "local"):
                await _round(cluster, stub, mode, Path(folder))


def main() -> None:
    bindir = find_bindir()
    if bindir is None:
        print("ratelimit skipped: no PostgreSQL server binaries (initdb, pg_ctl) installed")
        return
    with running_cluster(bindir) as cluster:
        asyncio.run(_main(cluster))


if __name__ == "__main__":
    _worker(sys.argv[1])
