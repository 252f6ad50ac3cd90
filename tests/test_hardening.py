"""The bot's own process: tokens gone from its environment once read, and not dumpable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fakes import REPO

CANARY = "canary-discord-token-Zx81"


def test_a_running_bot_keeps_no_token_in_its_environment(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": CANARY, "STUDYBOT_DATABASE": str(tmp_path / "b.db"),
           "STUDYBOT_CONTENT_DIR": str(REPO / "content"), "LANG": "C.UTF-8"}  # fmt: skip
    with subprocess.Popen([sys.executable, "-m", "bot", "console"], cwd=tmp_path, env=env,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as bot:  # fmt: skip
        assert bot.stdin is not None and bot.stdout is not None
        try:
            bot.stdin.write(b"/search allreduce\n")
            bot.stdin.flush()
            assert bot.stdout.readline()  # the console answers: settings were read long before
            environ = Path(f"/proc/{bot.pid}/environ").read_bytes()
            assert CANARY.encode() not in environ
            assert b"STUDYBOT_DATABASE=" in environ  # the rest of the environment is untouched
        finally:
            bot.kill()


def test_the_bot_process_is_not_dumpable() -> None:
    probe = (
        "import ctypes; from bot.hardening import harden_process; harden_process(); "
        "print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))"
    )  # PR_GET_DUMPABLE
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, check=True, timeout=30)  # fmt: skip
    assert done.stdout.strip() == "0"


def test_forget_secrets_wipes_the_original_environment_block() -> None:
    probe = ("import os; from bot.hardening import forget_secrets; "
             "forget_secrets(['SLACK_BOT_TOKEN']); "
             "print('SLACK_BOT_TOKEN' in os.environ, "
             "open('/proc/self/environ', 'rb').read().count(b'xoxb-canary'))")  # fmt: skip
    env = {**os.environ, "SLACK_BOT_TOKEN": "xoxb-canary-123"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=REPO, env=env, check=True, timeout=30)  # fmt: skip
    assert done.stdout.split() == ["False", "0"]
