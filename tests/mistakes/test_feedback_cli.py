"""`studybot content feedback`, run as a subprocess over the database the bot wrote, on both
engines: the shared bank's reports with their files, open ones or all, text or JSON."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.store.db import Database
from bot.store.mistakes import MistakeStore, NewReport
from bot.types import Locale, User

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALICE, MOD = User("discord", "u1", "alice"), User("discord", "m1", "mod", is_moderator=True)


async def feedback(location: Path | str, content: Path, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "STUDYBOT_DATABASE": str(location),
           "STUDYBOT_CONTENT_DIR": str(content), "LANG": "C.UTF-8"}  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "content", "feedback", *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode or 0, out.decode(), err.decode()


async def test_feedback_lists_the_shared_banks_reports(
    loaded_database: Database, database_location: Path | str, content_dir: Path
) -> None:
    store = MistakeStore(loaded_database)
    wrong = "10 s\nshould be 10 ms \x1b[31mred"
    first = await store.add(NewReport("python-gil", "discord:g1", ALICE, Locale.EN,
                                      "大约 10 秒", wrong), AT)  # fmt: skip
    await store.add(NewReport("a-servers-own-item", "discord:g1", ALICE, Locale.EN, "", "x"), AT)
    done = await store.add(NewReport("fast-power", "slack:T1", ALICE, Locale.ZH, "", "off"), AT)
    await store.resolve(done, "slack:T1", MOD, "fixed in 3f2a", AT)

    code, out, err = await feedback(database_location, content_dir)
    assert code == 0, err
    assert (
        f"#{first} python-gil questions/python-gil.md [open] discord:g1 2026-03-02 09:00 UTC" in out
    )
    assert "  quote: 大约 10 秒" in out and "  wrong: 10 s ⏎ should be 10 ms ?[31mred" in out
    assert "\x1b" not in out and "fast-power" not in out and "a-servers-own-item" not in out
    assert out.rstrip().endswith("1 open report(s)")

    code, out, err = await feedback(database_location, content_dir, "--all", "--json")
    assert code == 0, err
    reports = json.loads(out)["reports"]
    assert [(r["item"], r["state"]) for r in reports] == [("python-gil", "open"),
                                                          ("fast-power", "resolved")]  # fmt: skip
    resolved = reports[1]
    assert (
        resolved["file"] == "problems/fast-power/problem.md" and resolved["note"] == "fixed in 3f2a"
    )
    assert reports[0]["text"] == wrong and "alice" not in out  # reporters are not named
