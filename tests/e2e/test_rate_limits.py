"""Three `studybot run` processes on one PostgreSQL database keep Discord's global rate limit
together.

The local Discord enforces 50 requests a second for the whole bot, as Discord does, with
real 429s (`retry_after`, `X-RateLimit-Global`). 500 channels' daily questions fall due in the
same minute, when all three processes are up: each process sends its share, and each takes
its turns from the one budget they share (45 a second by default), so the stub refuses
(almost) nothing; each post arrives once. Without the shared budget, three processes each
pacing itself would send up to three times the limit (bench: `python -m bench ratelimit`
measures both), and without any pacing the stub refuses hundreds.

The processes run on the test clock at real speed (the limit is in real seconds), started
far enough before the minute for all three to be ready; nothing asserts a duration.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

from tests.adapters.discord.stub import TOKEN, DiscordStub
from tests.e2e.process import Run, studybot_run
from tests.e2e.test_many_processes import _questions, _schedules
from tests.grading.queue_support import scalar, until

CHANNELS = 500  # test_many_processes' schedules: 500 channels at 09:00 UTC
LIMIT = 50  # requests a second, Discord's global limit
# Real speed (the limit is in real seconds), started 100 s before the minute, so that all
# three processes are up before it even on a slow or busy machine (one that starts late
# would leave the minute's posts to the others, and the test could not see them shared).
CLOCK = "2026-01-05T08:58:20+00:00*1"


async def test_three_processes_post_within_the_global_limit_together(
    postgres_dsn: str, discord_stub: DiscordStub, tmp_path: Path
) -> None:
    stub, channels = discord_stub, await _schedules(postgres_dsn)
    stub.global_limit = LIMIT
    env = {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": stub.api,
           "DISCORD_GATEWAY_URL": stub.ws_url, "DISCORD_SHARD_COUNT": "3"}  # fmt: skip
    async with AsyncExitStack() as stack:
        runs: list[Run] = [await stack.enter_async_context(studybot_run(
            postgres_dsn, CLOCK, cwd=tmp_path, DISCORD_SHARD_IDS=str(shard), **env
        )) for shard in range(3)]  # fmt: skip
        await asyncio.gather(*(run.wait_log("platform discord attached", 90) for run in runs))
        await stub.wait_for(lambda: set(_questions(stub, channels)) == channels, within=180)
        await until(postgres_dsn, "SELECT count(*) = %s FROM daily_posts WHERE "
                    "part = 'question' AND state = 'sent'", (CHANNELS,))  # fmt: skip
        held = _questions(stub, channels)
        senders = await scalar(postgres_dsn, "SELECT count(DISTINCT claimed_by) FROM daily_posts")
    assert set(held.values()) == {1}, held.most_common(3)  # each post once
    assert int(str(senders)) >= 2  # the minute's posts were shared out, and so was the budget
    refused = Counter(r.path.split("/")[1] for r in stub.refused)
    # Few or none: a process (or the stub) held up for a moment by a busy machine sends (or
    # reads) a few turns late and together. Allow a twentieth: each process pacing alone is
    # refused about four posts in five, and an unpaced bot more than it posts.
    assert sum(refused.values()) <= CHANNELS // 20, refused
