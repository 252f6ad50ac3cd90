"""The card in the terminal and at start-up, through the real `studybot` entry point: the
console prints `/me`'s calendar in Unicode in the member's language (no image file), and
`studybot --help` loads no Pillow (it is imported when a card is first drawn)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.app import open_app
from bot.settings import Settings
from bot.store.activity import ActKind
from bot.types import ChannelRef, User
from tests.adapters.console.test_console import studybot
from tests.fakes import REPO, FakeClock

ME = User("console", "local", "you")
TERMINAL = ChannelRef("console", "terminal")


async def practised(database: Path) -> None:
    """Tue 01-06 and Thu 01-08 2026 (Wed missed: frozen), twice on Thursday, as the console's
    member; days in UTC, the console's zone."""
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(database),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    async with open_app(settings, clock=FakeClock(), grading=False) as app:
        for day, n in [(6, 1), (8, 2)]:
            for i in range(n):
                at = datetime(2026, 1, day, 10, i, tzinfo=UTC)
                await app.ledger.record(ActKind.QUIZ, ME, TERMINAL, "python-gil", correct=True,
                                        points=10, at=at, dedupe=f"q{day}{i}")  # fmt: skip


def test_the_console_prints_the_calendar_in_unicode_in_chinese(tmp_path: Path) -> None:
    asyncio.run(practised(tmp_path / "data" / "bot.sqlite3"))
    clock = {"STUDYBOT_TEST_CLOCK": "2026-01-09T12:00:00+00:00*1"}  # Friday
    result = studybot(["console", "--locale", "zh"], "/me\n", tmp_path, **clock)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "最近 12 周" in out and "❄ 冻结" in out
    rows = {line.split()[1]: line for line in out.splitlines() if line[2:3] in "一二三四五六日"
            and line.startswith("│ ") and len(line.split()) > 2}  # fmt: skip
    assert rows["二"].endswith(" ░") and rows["三"].endswith(" ❄")
    assert rows["四"].endswith(" ▒") and rows["五"].endswith("[·]")  # today, nothing yet
    assert rows["六"].endswith(" ·")  # last Saturday: this week's ends before today
    assert not list(tmp_path.rglob("*.png"))  # printed, not saved


def loaded(code: str, tmp: Path) -> str:
    """What `code` run in a fresh interpreter printed last: here, the Pillow modules loaded."""
    probe = code + ("\nimport sys\nprint(sorted(m for m in sys.modules "
                    "if m.split('.')[0] == 'PIL' or m == 'bot.charts.draw'))")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp, capture_output=True,
                            text=True, timeout=60, check=False,
                            env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_help_and_the_bots_start_up_do_not_load_pillow(tmp_path: Path) -> None:
    help_ = ("import runpy, sys; sys.argv = ['studybot', '--help']\n"
             "try:\n    runpy.run_module('bot', run_name='__main__')\n"
             "except SystemExit:\n    pass")  # fmt: skip
    assert loaded(help_, tmp_path) == "[]"
    bot = "import bot.app, bot.cli, adapters.console.adapter, adapters.discord.run, adapters.slack"
    assert loaded(bot, tmp_path) == "[]"
