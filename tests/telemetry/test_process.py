"""`studybot run` as a process, on the console (no platform token), with a metrics port:
ready once the console has attached and the sandbox started, counting what is typed, and
serving nothing once its input ends and it exits."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.telemetry.test_endpoint import PATIENCE, free_port


async def get(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    try:
        async with http.get(url) as response:
            return response.status, await response.text()
    except aiohttp.ClientConnectionError:
        return 0, ""


def answered(text: str) -> float:
    return next((s.value for family in text_string_to_metric_families(text)
                 for s in family.samples
                 if s.name == "studybot_interactions_total"
                 and s.labels == {"command": "question", "outcome": "ok"}), 0.0)  # fmt: skip


async def test_studybot_run_on_the_console_serves_its_metrics(
    tmp_path: Path, content_dir: Path
) -> None:
    port = free_port()
    env = {**os.environ, "STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
           "STUDYBOT_CONTENT_DIR": str(content_dir), "STUDYBOT_CACHE_DIR": str(tmp_path / "c"),
           "STUDYBOT_METRICS_PORT": str(port), "LANG": "en_US.UTF-8"}  # fmt: skip
    for name in ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN"):
        env.pop(name, None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdin is not None
    base = f"http://127.0.0.1:{port}"
    loop = asyncio.get_running_loop()
    try:
        async with aiohttp.ClientSession() as http:
            deadline = loop.time() + PATIENCE
            while (ready := await get(http, base + "/readyz"))[0] != 200:
                assert loop.time() < deadline and process.returncode is None, ready
                await asyncio.sleep(0.05)
            process.stdin.write(b"/question python-gil\n")
            await process.stdin.drain()
            deadline = loop.time() + PATIENCE
            while answered((await get(http, base + "/metrics"))[1]) != 1:
                assert loop.time() < deadline, "the question was not counted"
                await asyncio.sleep(0.05)
            process.stdin.close()
            assert await asyncio.wait_for(process.wait(), PATIENCE) == 0
            assert await get(http, base + "/healthz") == (0, "")
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
