"""Text a solution sends back (printed output, error messages, compile errors, returned values,
notes) mentions nobody on any platform, inside code blocks or out, and encodes as UTF-8.

The grades come from the real judge, fed a hostile report through the real reading code; the
replies are rendered by each platform's real render function."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from adapters.console.render import render as console_render
from adapters.discord.render import render as discord_render
from adapters.slack.render import render as slack_render
from bot.commands.verdicts import grade_reply
from bot.grades import Grade
from bot.grading.grader import Grader
from bot.grading.problems import Problem, load_problems
from bot.grading.timing import FixedLimits
from bot.types import Locale, Reply
from tests.fakes import REPO
from tests.grading.playback import Playback, report

HOSTILE = ("@everyone @here @channel @Everyone <!channel> <!here> <!everyone> "
           "<!subteam^S1|team> <@U123> <@W9|bob> <#C42> <@123> <@!123> <@&456> <#789> "
           "```\n@everyone <!channel>\n``` \ud800 end")  # fmt: skip
SLACK = re.compile(r"<[!@#]|@(everyone|here|channel)", re.I)
DISCORD = re.compile(r"<[@#]|@(everyone|here)", re.I)
CONSOLE = SLACK


def hostile_reports(tests: int) -> dict[str, bytes]:
    compiled = {"event": "compiled", "notes": [HOSTILE]}
    done = {"event": "done", "output": HOSTILE * 3, "dropped": 0}
    return {
        "compile error": report({"event": "compile_error", "message": HOSTILE * 1000}),
        "rule": report({"event": "rule_violation", "rule": HOSTILE, "line": 1}),
        "load failure": report(compiled, {"event": "test", "i": -1, "status": "error",
                                          "kind": "runtime", "error": HOSTILE}, done),
        "sample error": report(compiled, {"event": "test", "i": 0, "status": "error",
                                          "kind": "runtime", "error": HOSTILE}, done),
        "wrong values": report(compiled, *({"event": "test", "i": i, "status": "ok",
                                            "value": HOSTILE} for i in range(tests)), done),
        "hidden error": report(compiled, *({"event": "test", "i": i, "status": "ok",
                                            "value": 1024.0} for i in range(3)),
                               *({"event": "test", "i": i, "status": "error", "kind": "runtime",
                                  "error": HOSTILE} for i in range(3, tests)), done),
    }  # fmt: skip


@pytest.fixture(scope="module")
def problems() -> dict[str, Problem]:
    return load_problems(REPO / "content")


@pytest.fixture
async def replies(problems: dict[str, Problem]) -> list[Reply]:
    fast_power = problems["fast-power"]
    made: list[Reply] = []
    for data in hostile_reports(len(fast_power.cases)).values():
        grader = Grader(Playback(data), problems, limits=FixedLimits())
        try:
            graded: list[Grade] = [await grader.grade(fast_power, "x"), await grader.run("x")]
        finally:
            grader.close()
        for grade in graded:
            for locale in Locale:
                made.append(grade_reply(grade, locale, "Fast power" if grade.problem else None))
    return made


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def assert_inert(texts: list[str], pattern: re.Pattern[str]) -> None:
    joined = "\n".join(texts)
    joined.encode("utf-8")  # no lone surrogate survives
    assert pattern.search(joined) is None, pattern.search(joined)
    assert "everyone" in joined  # the text is shown, only made inert


def test_slack_messages_mention_nobody(replies: list[Reply]) -> None:
    for reply in replies:
        payloads = [m.payload() for m in slack_render(reply)]
        json.dumps(payloads, ensure_ascii=False).encode("utf-8")
        assert_inert(list(strings(payloads)), SLACK)


def test_discord_messages_mention_nobody(replies: list[Reply]) -> None:
    for reply in replies:
        embeds = [e.to_dict() for page in discord_render(reply) for e in page.embeds]
        json.dumps(embeds, ensure_ascii=False).encode("utf-8")
        assert_inert(list(strings(embeds)), DISCORD)


def test_console_text_mentions_nobody(replies: list[Reply]) -> None:
    for reply in replies:
        assert_inert([console_render(reply)], CONSOLE)


def test_replies_are_short_whatever_was_sent(replies: list[Reply]) -> None:
    for reply in replies:
        assert len(reply.body) < 6000
        assert reply.footer is None or len(reply.footer) < 1000
