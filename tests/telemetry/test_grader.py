"""`studybot grader` as a process with a metrics port: ready once its database and queue
answer, and counting what it grades (the verdict, the job's wait, the queue's depth), read
over HTTP as Prometheus reads it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.clock import SystemClock
from bot.settings import Settings
from bot.types import Locale, User
from tests.fakes import REPO
from tests.grading.queue_support import FAST, bot_process
from tests.telemetry.test_endpoint import PATIENCE, free_port

ALICE = User("test", "alice", "Alice")


@pytest.fixture
async def grader_port(postgres_dsn: str, tmp_path: Path, content_dir: Path
                      ) -> AsyncIterator[int]:  # fmt: skip
    port = free_port()
    env = {**os.environ, "STUDYBOT_DATABASE": postgres_dsn, "STUDYBOT_LOG_LEVEL": "WARNING",
           "STUDYBOT_CACHE_DIR": str(tmp_path / "cache"),
           "STUDYBOT_CONTENT_DIR": str(content_dir),
           "STUDYBOT_METRICS_PORT": str(port)}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "grader", *FAST, env=env, cwd=REPO, start_new_session=True
    )
    try:
        yield port
    finally:
        process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()


async def get(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    try:
        async with http.get(url) as response:
            return response.status, await response.text()
    except aiohttp.ClientConnectionError:
        return 0, ""


async def test_a_grader_is_ready_then_counts_its_gradings(
    grader_port: int, postgres_dsn: str, tmp_path: Path, content_dir: Path
) -> None:
    base = f"http://127.0.0.1:{grader_port}"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    seen: set[tuple[int, str]] = set()
    async with aiohttp.ClientSession() as http:
        while (answer := await get(http, base + "/readyz"))[0] != 200:
            seen.add(answer)
            assert loop.time() < deadline, f"not ready in time: {seen}"
            await asyncio.sleep(0.05)
        assert answer == (200, "ready\n")
        assert {status for status, _ in seen} <= {0, 503}
        assert (await get(http, base + "/healthz")) == (200, "ok\n")

        settings = Settings.load({"STUDYBOT_DATABASE": postgres_dsn,
                                  "STUDYBOT_CONTENT_DIR": str(content_dir),
                                  "STUDYBOT_CACHE_DIR": str(tmp_path / "cache")},
                                 env_file=None)  # fmt: skip
        async with bot_process(settings, SystemClock()) as grading:
            ran = await grading.run(ALICE, Locale.EN, "print(6 * 7)")
        assert ran.output == "42\n"

        status, text = await get(http, base + "/metrics")
    assert status == 200
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    assert samples[("studybot_verdicts_total", (("verdict", "accepted"),))] == 1
    assert samples[("studybot_verdicts_total", (("verdict", "wrong_answer"),))] == 0
    assert samples[("studybot_grading_queue_wait_seconds_count", ())] == 1
    assert samples[("studybot_grading_queue_depth", ())] == 0
    assert samples[("studybot_sandbox_restarts_total", ())] == 0
    layers = {dict(labels)["layer"] for (name, labels) in samples
              if name == "studybot_isolation_layer_active"}  # fmt: skip
    assert "seccomp" in layers
