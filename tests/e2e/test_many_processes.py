"""Three `studybot run` processes, one PostgreSQL database, the Discord stub, no leader.

Each process runs one of three Discord shards and the same scheduler over the shared
database. 500 channels' daily questions fall due in the same minute: each is posted exactly
once between them; one process is killed (SIGKILL) while the minute's posts are going out,
and the other two post what it had claimed and not sent once its claims' lease lapses.

With two `studybot grader` processes beside them, members of three servers (one per shard)
send solutions through Discord's form: each gets one verdict, from whichever bot process
runs their server's shard, though one grader is killed with SIGKILL in the middle of it.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.store.postgres.database import open_postgres
from bot.store.postgres.db import PostgresDatabase
from bot.store.schedules import ScheduleStore
from bot.types import ChannelRef
from tests.adapters.discord.stub import GUILD_ID, TOKEN, DiscordStub
from tests.adapters.discord.test_grading import SOLUTION, form_submit
from tests.adapters.discord.test_interactions import MODAL
from tests.e2e.process import Run, studybot_run
from tests.grading.queue_support import Graders, scalar, until

CHANNELS = 500
FIRST_CHANNEL = 500_000
CLOCK = "2026-01-05T08:59:55+00:00*10"  # ten times as fast: a 60 s lease lapses in 6 s


async def _schedules(dsn: str) -> set[str]:
    """500 channels' daily questions at 09:00 UTC, their answers hours later."""
    channels = {str(FIRST_CHANNEL + i) for i in range(CHANNELS)}
    async with open_postgres(dsn, max_size=2) as pool:
        store = ScheduleStore(PostgresDatabase(pool))
        for channel in sorted(channels):
            await store.save(Schedule(
                id=0, channel=ChannelRef("discord", channel, GUILD_ID),
                post_at=parse_local_time("09:00"), zone=parse_zone("UTC"),
                days=parse_days("daily"), coding_days=parse_days("none"),
                answer=AnswerTiming.parse("+8h"),
            ))  # fmt: skip
    return channels


def _questions(stub: DiscordStub, channels: set[str]) -> Counter[str]:
    """Messages each channel holds (the stub keeps one per nonce, as Discord does)."""
    return Counter(m["channel_id"] for m in stub.messages.values() if m["channel_id"] in channels)


async def test_each_post_goes_out_once_and_a_killed_process_loses_none(
    postgres_dsn: str, discord_stub: DiscordStub, tmp_path: Path
) -> None:
    stub, channels = discord_stub, await _schedules(postgres_dsn)
    stub.latency = 0.2  # posts in flight when the process dies
    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": stub.api,
           "DISCORD_GATEWAY_URL": stub.ws_url, "DISCORD_SHARD_COUNT": "3"}  # fmt: skip
    async with AsyncExitStack() as stack:
        runs: list[Run] = []
        for shard in range(3):
            runs.append(await stack.enter_async_context(studybot_run(
                postgres_dsn, CLOCK, cwd=tmp_path, DISCORD_SHARD_IDS=str(shard), **env
            )))  # fmt: skip
        await asyncio.gather(*(run.wait_log("platform discord attached", 90) for run in runs))
        await stub.wait_for(lambda: sum(_questions(stub, channels).values()) >= 10, within=60)
        # Kill a process in the middle of the minute's posts: one holding claims not yet sent
        # (frozen first, so it still holds them when killed).
        doomed = await _holding_unsent(postgres_dsn, runs)
        doomed.process.kill()
        await doomed.process.wait()
        await stub.wait_for(lambda: set(_questions(stub, channels)) == channels, within=90)
        # Every question recorded sent, none left claimed: a question goes out only for a
        # pending claim, a slot is claimed once, and a resend of a sent one carries its
        # nonce, so nothing more can come, however slow the processes are.
        await until(postgres_dsn, "SELECT count(*) = %s FROM daily_posts WHERE "
                    "part = 'question' AND state = 'sent'", (CHANNELS,))  # fmt: skip
        held = _questions(stub, channels)
        survivors = [run for run in runs if run is not doomed]
        assert all(run.process.returncode is None for run in survivors)
    assert set(held) == channels and set(held.values()) == {1}, held.most_common(3)
    taken = sum("claim lapsed, taken over" in line for run in survivors for line in run.err)
    assert taken > 0  # the killed process held claims it never sent: the others sent them


async def _holding_unsent(dsn: str, runs: list[Run], at_least: int = 10) -> Run:
    """A run caught holding `at_least` claimed posts it has not sent yet, in the middle of
    a batch (a claim names its process's pid), and frozen (SIGSTOP) while it still holds
    some: between a look at the ledger and a kill it could otherwise record them all."""
    sql = """SELECT coalesce((SELECT claimed_by FROM daily_posts
                              WHERE state = 'pending' AND part = 'question'
                              GROUP BY claimed_by HAVING count(*) >= %s LIMIT 1), '')"""
    held = "SELECT count(*) FROM daily_posts WHERE state = 'pending' AND claimed_by = %s"
    for _ in range(1000):
        owner = str(await scalar(dsn, sql, (at_least,)))
        for run in runs:
            if f":{run.process.pid}:" in owner:
                run.process.send_signal(signal.SIGSTOP)
                if int(str(await scalar(dsn, held, (owner,)))) > 0:
                    return run
                run.process.send_signal(signal.SIGCONT)
        await asyncio.sleep(0.005)
    raise AssertionError(f"no process was caught holding {at_least} unsent claims")


def _guild_on(shard: int, shards: int = 3) -> str:
    """A server id Discord would deliver on `shard`: (id >> 22) % shards."""
    return str(((999 * shards + shard) << 22) + 7)


async def test_solutions_from_every_shard_get_one_verdict_though_a_grader_dies(
    postgres_dsn: str, discord_stub: DiscordStub, tmp_path: Path
) -> None:
    stub, members = discord_stub, 24
    guilds = [_guild_on(shard) for shard in range(3)]
    for n, guild in enumerate(guilds):
        stub.add_guild(guild, str(700_000 + n))
    cache = tmp_path / "cache"
    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": stub.api,
           "DISCORD_GATEWAY_URL": stub.ws_url, "DISCORD_SHARD_COUNT": "3",
           "STUDYBOT_CACHE_DIR": str(cache)}  # fmt: skip
    graders = Graders(postgres_dsn, cache)
    async with AsyncExitStack() as stack:
        stack.push_async_callback(graders.stop_all)
        doomed = await graders.start()
        await graders.start()
        runs = [await stack.enter_async_context(studybot_run(
            postgres_dsn, "2026-01-05T10:00:00+00:00", cwd=tmp_path,
            DISCORD_SHARD_IDS=str(shard), **env)) for shard in range(3)]  # fmt: skip
        await asyncio.gather(*(run.wait_log("platform discord attached", 90) for run in runs))
        sent = [await stub.interact(
            MODAL, form_submit("code:submit:fast-power", SOLUTION),
            member=(str(8000 + n), f"m{n}"), guild_id=guilds[n % 3],
            channel_id=stub.guilds[guilds[n % 3]],
        ) for n in range(members)]  # fmt: skip
        await until(postgres_dsn, "SELECT count(*) >= 4 FROM submissions WHERE state = 'graded'")
        await graders.kill(doomed)  # mid-burst: it holds jobs it will never finish

        def edits(iid: str) -> list[Any]:
            return stub.calls("PATCH", f"/webhooks/1100/tok-{iid}/")

        def verdicts(iid: str) -> list[Any]:
            return [e for e in edits(iid) if "Accepted" in e.body["embeds"][0].get("title", "")]

        await stub.wait_for(lambda: all(verdicts(iid) for iid in sent), within=120)
        # Each solution scores once, by the grader that accepted it; one whose grader died
        # after the verdict and before the points scores when its job is retried. Once every
        # solve is counted and no job is left in the queue, no grading is left to announce.
        solves = "SELECT count(*) = %s FROM activity WHERE kind = 'solve'"
        await until(postgres_dsn, solves, (members,))
        await until(postgres_dsn, "SELECT count(*) = 0 FROM procrastinate_jobs "
                    "WHERE status IN ('todo', 'doing')")  # fmt: skip
        for iid in sent:  # one verdict, last; before it, at most notices of a place in line
            [verdict], shown = verdicts(iid), edits(iid)
            assert shown[-1] is verdict, [e.body for e in shown]
            assert all("Queued for a grader" in e.body["embeds"][0]["description"]
                       for e in shown[:-1])  # fmt: skip
    graded = await scalar(postgres_dsn, "SELECT count(*) FROM submissions WHERE state = 'graded'")
    assert graded == members
    assert await scalar(postgres_dsn, "SELECT count(*) FROM activity") == members
