from __future__ import annotations

from pathlib import Path

from bot.cli.doctor import diagnose
from bot.content.bank import read_bank
from bot.settings import Settings
from bot.store.db import SqliteDatabase
from tests.fakes import REPO


async def test_doctor_reports_a_missing_database_then_a_healthy_one(tmp_path: Path) -> None:
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content")})  # fmt: skip
    lines, healthy = await diagnose(settings)
    assert not healthy
    assert any("does not exist yet" in line for line in lines)
    shipped = len(read_bank(REPO / "content").questions)
    assert f"content: ok, {shipped} questions" in "\n".join(lines)

    from bot.content.loader import load_bank
    from bot.store.database import open_database

    async with open_database(settings.database) as db:
        await load_bank(SqliteDatabase(db), settings.content_dir)
    lines, healthy = await diagnose(settings)
    assert healthy, lines
    assert f"{shipped} questions, up to date" in "\n".join(lines)
    assert "STUDYBOT_LOG_LEVEL = INFO" in "\n".join(lines)
    assert "schedules: 0 active, 0 paused" in lines
    grading = lines.index("grading: isolation relaxed")  # no platform token: the console's
    assert lines[grading + 1 : grading + 3] == ["  process: on", "  rlimits: on"]
    shipped_problems = len(list((REPO / "content" / "problems").glob("*/judge.yaml")))
    assert f"  problems: {shipped_problems}" in lines

    async with open_database(settings.database) as db:
        await db.execute(
            "INSERT INTO schedules (platform, channel, post_time, timezone, days, answer, paused,"
            " pause_reason) VALUES ('slack', 'C1', '09:00', 'UTC', 127, '+8h', 1, 'not_in_channel')"
        )
    lines, healthy = await diagnose(settings)
    assert healthy and "  paused: slack #C1: not_in_channel" in lines


async def test_doctor_checks_the_discord_token_shape_and_masks_it(tmp_path: Path) -> None:
    from bot.cli.doctor import check_discord

    base = {"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3")}
    lines, ok = await check_discord(Settings.from_mapping(base))
    assert ok and lines == ["discord: off (DISCORD_TOKEN not set)"]
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
    settings = Settings.from_mapping({**base, "DISCORD_TOKEN": token, "DISCORD_GUILD_IDS": "42"})
    lines, ok = await check_discord(settings)
    assert ok and lines == ["discord: token looks right (bot 123456789012345678), "
                            "commands registered servers 42"]  # fmt: skip
    described, _ = await diagnose(settings)
    assert token not in "\n".join(described) and "DISCORD_TOKEN = MTIz…(" in "\n".join(described)
    lines, ok = await check_discord(Settings.from_mapping({**base, "DISCORD_TOKEN": "hunter2"}))
    assert not ok and "does not look like a bot token" in lines[0]


async def test_doctor_names_a_broken_judge_file(tmp_path: Path) -> None:
    import shutil

    from bot.cli.doctor import check_grading

    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    judge = content / "problems" / "fast-power" / "judge.yaml"
    judge.write_text(judge.read_text().replace("checker: close", "checker: nearly"))
    settings = Settings.from_mapping({"STUDYBOT_CONTENT_DIR": str(content)})
    lines, healthy = await check_grading(settings)
    assert not healthy
    assert any("fast-power/judge.yaml:" in line and "checker must be one of" in line
               for line in lines)  # fmt: skip
