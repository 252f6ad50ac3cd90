"""A Chinese reader sees Chinese: every reply the core builds, in the zh locale, has no English
words of the bot's own (ids, command and option names, code and the bank's own text aside)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.commands.spec import COMMANDS
from bot.core import Studybot
from bot.types import ChannelRef, Locale, Reply, User

ADMIN = User("test", "a1", "admin", is_admin=True)
WHERE = ChannelRef("test", "study", "guild")
WORD = re.compile(r"[A-Za-z][A-Za-z-]{2,}")
CODE = re.compile(r"`[^`]*`")
# Words that are names, not English: units, product and format names used in both languages.
NAMES = {"CPU", "MiB", "KB", "UTF-8", "UTF", "CSV", "Python", "python", "IANA", "Asia", "Shanghai",
         "CST", "UTC", "studybot", "Infra", "Discord", "Slack", "Test", "test",
         "English",  # the language button is labelled in the language it switches to
         "CUDA"}  # a topic's Chinese name: GPU 架构与 CUDA  # fmt: skip

LINES = [
    "/help",
    "/topics",
    "/question python-gil",
    "/question",
    "/answer python-gil",
    "/answer ring-allreduce",
    "/search 显存",
    "/search 量子计算",
    "/question nope",
    "/question topic:cooking",
    "/question topic:",
    "/question python-gil topic:gpu",
    "/qustion",
    "/frobnicate",
    "/question kind:banana",
    "/schedule show",
    "/schedule pause",
    "/daily now",
    "/schedule set 09:00 Asia/Shanghai coding:wed answer:08:00",
    "/schedule show",
    "/schedule set 25:00 Asia/Shanghai",
    "/schedule set 09:00 Mars/Base",
    "/daily now",
    "/schedule pause",
    "/schedule resume",
    "/schedule remove",
    "/search",
    "/answer",
    "/me",
    "/export scores",
]  # fmt: skip  (grading's replies: tests/commands/test_verdicts.py)


def english_words(reply: Reply, allowed: set[str]) -> set[str]:
    texts = [reply.title or "", reply.body, reply.footer or ""]
    texts += [f"{f.name} {f.value}" for f in reply.fields]
    texts += [a.label for a in reply.actions]
    words = set()
    for text in texts:
        words |= set(WORD.findall(CODE.sub(" ", text)))
    return words - allowed


def names_and_bank_words(content_dir: Path) -> set[str]:
    """Words that may appear in any language: the bank's own text, command and option names."""
    allowed = set(NAMES)
    for path in content_dir.rglob("*"):
        if path.is_file():
            allowed |= set(WORD.findall(path.read_text("utf-8")))
    for spec in COMMANDS:
        allowed |= {spec.name, *(o.name for o in spec.options)}
        allowed |= {choice for o in spec.options for choice in o.choices}
    return allowed


async def test_every_reply_in_chinese_has_no_english_of_the_bots_own(
    core: Studybot, content_dir: Path
) -> None:
    allowed = names_and_bank_words(content_dir)
    leaks = {}
    for line in LINES:
        reply = await core.handle_line(line, user=ADMIN, channel=WHERE, locale=Locale.ZH)
        # What the reader typed may be echoed back as typed.
        if found := english_words(reply, allowed | set(WORD.findall(line))):
            leaks[line] = sorted(found)
    assert leaks == {}
