"""Structured logs, read as a collector would: the real `studybot` process, every stderr line
parsed as JSON, a token that must never show, and submitted code that must never be logged."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.logs import (
    REDACTED,
    ContextFilter,
    JsonFormatter,
    Redactor,
    interaction,
    on_shard,
    secret_values,
)
from bot.settings import Settings
from tests.grading.conftest import reference

TOKEN = "sekrit0token0Zq9vW"  # DISCORD_TOKEN's value in these runs
MARKER = "CODE_MARKER_7f3a"  # written into every submitted solution


def studybot(folder: Path, *args: str, stdin: str = "",
             **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("STUDYBOT_", "DISCORD_", "SLACK_"))}  # fmt: skip
    environment |= {"XDG_DATA_HOME": str(folder / "xdg"), "XDG_CACHE_HOME": str(folder / "cache"),
                    "LANG": "C.UTF-8", "STUDYBOT_LOG_FORMAT": "json", **env}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=folder, env=environment,
                          input=stdin, capture_output=True, text=True, timeout=180,
                          check=False)  # fmt: skip


def parsed(stderr: str) -> list[dict[str, Any]]:
    """Every stderr line as a JSON object (a line that is not one fails the test)."""
    return [json.loads(line) for line in stderr.splitlines()]


def test_the_console_logs_one_json_object_per_line_with_shared_ids(tmp_path: Path) -> None:
    script = f"/question python-gil\n/{TOKEN}\n/search GIL\n"
    done = studybot(tmp_path, "console", stdin=script, STUDYBOT_LOG_LEVEL="INFO",
                    DISCORD_TOKEN=TOKEN, STUDYBOT_GRADING_ISOLATION="relaxed")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert TOKEN not in done.stderr
    lines = parsed(done.stderr)
    assert lines and all(line["role"] == "console" for line in lines)
    for line in lines:
        assert {"time", "level", "logger", "message", "role"} <= line.keys()
        assert datetime.fromisoformat(line["time"]).utcoffset() == timedelta(0)
    core = [line for line in lines if line["logger"] == "bot.core"]
    ids = [line["interaction"] for line in core]
    assert [line["message"].split()[0] for line in core] == [
        "/question", "/question", "line", "/search", "/search"]  # fmt: skip
    assert ids[0] == ids[1] and ids[3] == ids[4]  # an interaction's lines share their id
    assert len({ids[0], ids[2], ids[3]}) == 3  # and each interaction has its own
    assert core[2]["message"] == "line not understood: /[redacted]"  # the pasted token
    assert not any("interaction" in line for line in lines if line["logger"] != "bot.core")


def test_run_without_a_platform_says_so_in_the_json_stream_too(tmp_path: Path) -> None:
    done = studybot(tmp_path, "run", stdin="/question python-gil\n", STUDYBOT_LOG_LEVEL="INFO")
    assert done.returncode == 0, done.stderr
    lines = parsed(done.stderr)  # the operator's lines are records too
    said = [line for line in lines if line["logger"] == "bot.cli"]
    assert [line["message"] for line in said] == ["No platform token set: starting the console."]
    assert {line["role"] for line in lines} == {"console"}


def test_text_stays_the_default_format_and_is_redacted_too(tmp_path: Path) -> None:
    done = studybot(tmp_path, "console", stdin=f"/{TOKEN}\n", STUDYBOT_LOG_LEVEL="INFO",
                    STUDYBOT_LOG_FORMAT="text", DISCORD_TOKEN=TOKEN,
                    STUDYBOT_GRADING_ISOLATION="relaxed")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert " INFO bot.core: line not understood: /[redacted]" in done.stderr
    assert TOKEN not in done.stderr and not done.stderr.startswith("{")


def test_submitted_code_never_reaches_the_log_even_at_debug(tmp_path: Path) -> None:
    solution = f"# {MARKER}\n" + reference("fast-power")
    failing = f"def power(base, exponent, modulus):\n    raise ValueError('{MARKER}')\n"
    broken = f"def power(:\n    '{MARKER}'\n"
    script = "".join(f"/submit fast-power ```python\n{code}```\n"
                     for code in (solution, failing, broken))  # fmt: skip
    done = studybot(tmp_path, "console", stdin=script, STUDYBOT_LOG_LEVEL="DEBUG",
                    STUDYBOT_GRADING_ISOLATION="relaxed")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Accepted" in done.stdout and "Compile error" in done.stdout
    assert MARKER not in done.stderr
    assert sum(line["message"].startswith("/submit answered") for line in parsed(done.stderr)) == 3
    (tmp_path / "solution.py").write_text(solution, encoding="utf-8")
    graded = studybot(tmp_path, "grade", "--problem", "fast-power", "solution.py",
                      STUDYBOT_LOG_LEVEL="DEBUG")  # fmt: skip
    assert graded.returncode == 0, graded.stderr
    assert MARKER not in graded.stderr
    assert all(line["role"] == "cli" for line in parsed(graded.stderr))


def formatted(record_exc: bool) -> dict[str, Any]:
    """One record through the real filter and formatter, with a shard and an interaction."""
    record = logging.LogRecord("bot.test", logging.ERROR, __file__, 1, "token %s failed",
                               (TOKEN,), None)  # fmt: skip
    if record_exc:
        try:
            raise RuntimeError(f"refused {TOKEN}")
        except RuntimeError:
            record.exc_info = sys.exc_info()
    with interaction() as id_, on_shard(3):
        ContextFilter("bot").filter(record)
        line = json.loads(JsonFormatter(Redactor([TOKEN])).format(record))
    assert line["interaction"] == id_
    return line


def test_an_exception_is_one_redacted_field_and_the_shard_is_named() -> None:
    line = formatted(record_exc=True)
    assert line["message"] == "token [redacted] failed"
    assert line["exc"].startswith("Traceback") and "RuntimeError: refused [redacted]" in line["exc"]
    assert line["shard"] == 3 and line["role"] == "bot" and line["level"] == "ERROR"
    assert "exc" not in formatted(record_exc=False)


@pytest.mark.parametrize("secret", ["", "short"])
def test_values_too_short_to_be_secrets_are_left_alone(secret: str) -> None:
    assert Redactor([secret])("a short word") == "a short word"


def test_an_interaction_inside_another_keeps_the_outer_id() -> None:
    with interaction() as outer, interaction() as inner:
        assert inner == outer
    with interaction() as later:
        assert later != outer


def test_every_secret_of_the_settings_is_redacted_and_the_database_password_alone_too() -> None:
    settings = Settings.from_mapping({
        "STUDYBOT_DATABASE": "postgresql://study:hunter2secret@db.example/studybot",
        "SLACK_BOT_TOKEN": "xoxb-bot-0123", "SLACK_APP_TOKEN": "xapp-app-4567",
        "DISCORD_TOKEN": TOKEN,
    })  # fmt: skip
    redact = Redactor(secret_values(settings))
    said = redact("dsn postgresql://study:hunter2secret@db.example/studybot, password "
                  f"hunter2secret, tokens xoxb-bot-0123 xapp-app-4567 {TOKEN}")  # fmt: skip
    assert said == f"dsn {REDACTED}, password {REDACTED}, tokens " + " ".join([REDACTED] * 3)
