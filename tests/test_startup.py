"""Start-up does not wait for grading: lookups answer at once, a submission waits for the
sandbox, and a sandbox that cannot start is an apology, never a hang."""

from __future__ import annotations

import asyncio
import subprocess
import threading
from pathlib import Path

import pytest

from bot.app import open_app
from bot.settings import Settings
from bot.types import Invocation, Tone
from tests.fakes import REPO
from tests.waiting import PATIENCE


def settings(tmp_path: Path) -> Settings:
    return Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                  "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip


async def test_lookups_answer_while_the_sandbox_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.grading.pool as pool

    release, real = threading.Event(), pool._spawn_zygote

    def held(control_fd: int, disabled: str) -> subprocess.Popen[bytes]:
        if not release.wait(PATIENCE):  # the sandbox's start is held here until released
            raise OSError("the test never released the sandbox's start")
        return real(control_fd, disabled)

    monkeypatch.setattr(pool, "_spawn_zygote", held)
    try:
        async with asyncio.timeout(PATIENCE), open_app(settings(tmp_path)) as app:
            assert app.grading is not None
            reply = await app.core.handle(Invocation("question", {"id": "python-gil"}))
            assert reply.title and not release.is_set()  # answered while the start is held
            release.set()
            ran = await app.core.handle(Invocation("run", {"code": "print(6 * 7)"}))
            assert ran.tone is not Tone.FAILURE and "42" in ran.body  # it waited for the start
    finally:
        release.set()


async def test_a_sandbox_that_cannot_start_is_an_apology(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.grading.pool as pool

    def broken(control_fd: int, disabled: str) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(pool, "_spawn_zygote", broken)
    async with open_app(settings(tmp_path)) as app:
        lookup = await app.core.handle(Invocation("question", {"id": "python-gil"}))
        assert lookup.tone is not Tone.FAILURE
        ran = await app.core.handle(Invocation("run", {"code": "print(1)"}))
        assert ran.tone is Tone.FAILURE  # the bot's own trouble, with a reference to the log
