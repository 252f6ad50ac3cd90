"""`studybot run` as a process, for tests that restart the bot for real.

Each run is a fresh interpreter over one database file and the bundled bank. Its clock is the
test clock of `STUDYBOT_TEST_CLOCK` (bot/settings.py `ClockOverride`): a chosen start, sped up,
so a run can begin at 09:02:20 and reach the 09:03 answer in a few wall-clock seconds. Output
is read as it comes: stdout (what the console prints) and stderr (the log) line by line.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.fakes import REPO
from tests.waiting import PATIENCE

WAIT = PATIENCE  # seconds: start-up (imports, bank, sandbox) plus the scenario, generously
PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy")


@dataclass
class Run:
    process: asyncio.subprocess.Process
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait_out(self, text: str, *, count: int = 1) -> None:
        await self._wait(lambda: sum(text in line for line in self.out) >= count, text)

    async def wait_log(self, text: str, within: float = WAIT) -> None:
        await self._wait(lambda: any(text in line for line in self.err), text, within)

    async def _wait(self, done: object, what: str, within: float = WAIT) -> None:
        assert callable(done)
        try:
            async with asyncio.timeout(within):
                while not done():
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"never saw {what!r}; log:\n" + "".join(self.err)) from None

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")

    async def stop(self) -> int:
        """SIGTERM, as a deploy or `docker stop` would, and the exit status."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(WAIT):
            return await self.process.wait()


def bot_env(database: Path | str, clock: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PROXIES and not k.startswith(
        ("DISCORD_", "SLACK_", "STUDYBOT_"))}  # fmt: skip
    return {**env, "STUDYBOT_DATABASE": str(database),
            "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
            "STUDYBOT_GRADING_ISOLATION": "relaxed", "STUDYBOT_LOG_LEVEL": "INFO",
            "STUDYBOT_TEST_CLOCK": clock, "LANG": "C.UTF-8", **extra}  # fmt: skip


@asynccontextmanager
async def studybot_run(database: Path | str, clock: str, *, cwd: Path | None = None,
                       command: str = "run", **extra: str) -> AsyncIterator[Run]:  # fmt: skip
    """`studybot run` (or another `command`) with the test clock `clock` (`<ISO instant>*
    <speed>`), on the SQLite file or PostgreSQL DSN `database`; stopped with SIGTERM when the
    block ends, killed if it does not stop."""
    folder = cwd or (database.parent if isinstance(database, Path) else Path.cwd())
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", command, cwd=folder,
        env=bot_env(database, clock, **extra), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    run = Run(process)
    readers = [asyncio.create_task(_read(process.stdout, run.out, run.changed)),
               asyncio.create_task(_read(process.stderr, run.err, run.changed))]  # fmt: skip
    try:
        yield run
        await run.stop()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await asyncio.gather(*readers)


async def _read(
    stream: asyncio.StreamReader | None, into: list[str], changed: asyncio.Event
) -> None:
    assert stream is not None
    while line := await stream.readline():
        into.append(line.decode(errors="replace"))
        changed.set()
