"""The console, driven through stdin: the real `studybot` entry point in a subprocess, and the
adapter in-process for button presses and a submission that waits behind others."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from adapters.console.adapter import ConsoleAdapter
from bot.app import App
from bot.core import Studybot
from bot.review.digest import digest_reply
from bot.store.activity import ActKind
from bot.store.cards import Due
from bot.types import ChannelRef, User
from tests.fakes import REPO, FakeClock
from tests.grading.busy import busy
from tests.grading.conftest import reference
from tests.waiting import PATIENCE


def studybot(args: list[str], stdin: str, tmp: Path, content: Path = REPO / "content",
             **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    environment = {**os.environ, "STUDYBOT_DATABASE": str(tmp / "data" / "bot.sqlite3"),
                   "STUDYBOT_CONTENT_DIR": str(content), "LANG": "C.UTF-8", **env}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, cwd=tmp, env=environment,
        capture_output=True, text=True, encoding="utf-8", timeout=60, check=False,
    )  # fmt: skip


def test_run_without_tokens_opens_the_console_on_the_bundled_bank(tmp_path: Path) -> None:
    result = studybot(
        ["run"], "/search allreduce\n/answer allreduce-communication-cost\n", tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "starting the console" in result.stderr
    assert "┌ Search: allreduce" in result.stdout
    assert "`allreduce-communication-cost`" in result.stdout
    assert "→ /question allreduce-communication-cost" in result.stdout
    assert "Ring AllReduce" in result.stdout
    assert (tmp_path / "data" / "bot.sqlite3").exists()


def test_console_renders_tables_as_aligned_blocks_and_splits_long_answers(tmp_path: Path) -> None:
    result = studybot(["console", "--locale", "zh"], "/answer gpu-vs-cpu\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "|---" not in result.stdout  # no raw Markdown table reaches the chat
    assert "内存带宽" in result.stdout
    blocks = result.stdout.split("\n└")
    assert all(len(block) < 2400 for block in blocks)


def test_console_speaks_chinese_and_reports_mistakes(tmp_path: Path) -> None:
    script = "/question nope-such-id\n/question kind:essay\n/frob\nhello\n"
    result = studybot(["console", "--locale", "zh"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "没有 id 为 `nope-such-id` 的题目" in result.stdout
    assert "`kind` 只能是：qa, coding" in result.stdout
    assert "未知命令 `/frob`" in result.stdout
    assert "studybot：AI Infra 面试练习" in result.stdout  # plain text gets the help


def test_a_broken_bank_at_start_keeps_serving_the_last_good_one(tmp_path: Path) -> None:
    content = tmp_path / "content"
    subprocess.run(["cp", "-r", str(REPO / "content"), str(content)], check=True)
    assert studybot(["content", "load"], "", tmp_path, content).returncode == 0
    (content / "questions" / "python-gil.md").write_text("---\nbroken\n", encoding="utf-8")
    result = studybot(["run"], "/question python-gil\n", tmp_path, content)
    assert "python-gil.md:1: front matter is not closed" in result.stderr
    assert "GIL" in result.stdout and "⚠" not in result.stdout


def test_a_bad_setting_stops_start_up_naming_it(tmp_path: Path) -> None:
    result = studybot(["run"], "", tmp_path, STUDYBOT_LOG_LEVEL="chatty")
    assert result.returncode == 2
    assert "STUDYBOT_LOG_LEVEL" in result.stderr


async def test_typing_a_button_number_presses_it(core: Studybot) -> None:
    stdin = io.StringIO("/question python-gil\n1\n/quit\n/topics\n")
    stdout = io.StringIO()
    await ConsoleAdapter(core, stdin, stdout).run()
    out = stdout.getvalue()
    assert "[1] Show answer  → /answer python-gil" in out
    assert "┌ Answer: What is the GIL?" in out
    assert "GIL是一把全局互斥锁" in out
    assert "┌ Topics" not in out  # nothing after /quit


def test_the_console_runs_the_schedule_and_shows_the_daily_post(tmp_path: Path) -> None:
    script = "/schedule set 09:00 Asia/Shanghai days:weekdays\n/daily now\n1\n/schedule show\n"
    result = studybot(["run"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Saved. The daily question is on." in out
    post = out.index("[1] A  → /quiz post:")  # the daily question and its quiz, posted here
    assert out.index("Posted the next question.") > post
    answered = max(out.find("✅ Right: A."), out.find("❌ Not this one: A."))
    assert answered > post  # pressing 1 answered option A, privately
    assert "Days: weekdays" in out


def test_submit_pasted_code_from_the_console(tmp_path: Path) -> None:
    script = (
        "/submit rotate-matrix ```python\n"
        "def rotate(matrix):\n"
        "    n = len(matrix)\n"
        "    for i in range(n):\n"
        "        for j in range(i + 1, n):\n"
        "            matrix[i][j], matrix[j][i] = matrix[j][i], matrix[i][j]\n"
        "    for row in matrix:\n"
        "        row.reverse()\n"
        "```\n"
        "/submit rotate-matrix ```python\ndef rotate(m):\n    return m[::-1]\n```\n"
        "/me\n"
    )
    result = studybot(["console"], script, tmp_path, STUDYBOT_LOG_LEVEL="INFO")
    assert result.returncode == 0, result.stderr
    assert "grading sandbox ready; isolation active: process, rlimits" in result.stderr
    assert "┌ ✅ Accepted: Rotate a matrix" in result.stdout
    assert "12/12 tests passed." in result.stdout
    assert "┌ ❌ Wrong answer: Rotate a matrix" in result.stdout
    assert "expected: [[7, 4, 1], [8, 5, 2], [9, 6, 3]]" in result.stdout
    assert "Solved: `rotate-matrix`" in result.stdout


def test_the_submit_button_asks_for_the_code_like_a_form(tmp_path: Path) -> None:
    script = (
        "/question fast-power\n"
        "1\n"  # the "Submit solution" button
        "def my_pow(x, n):\n"
        "\n"  # a blank line inside the code does not end it
        "    return x ** n\n"
        "/end\n"
        "/question rotate-matrix\n"
        "1\n"
        "```python\n"
        "def rotate(m):\n"
        "    m.reverse()\n"
        "```\n"
    )
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Paste your solution to `fast-power`" in result.stdout
    assert "┌ ❌ Rule violation: Integer power of a number" in result.stdout
    assert "`**` (line 3) is not allowed here" in result.stdout
    assert "then a line with just /end to submit it" in result.stdout
    assert "┌ ❌ Wrong answer: Rotate a matrix" in result.stdout


def test_a_fence_inside_a_line_opens_no_block_and_a_wrong_number_says_so(tmp_path: Path) -> None:
    script = '/run print("```")\n/search GIL\n7\n'
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "┌ ✅ Run: finished" in result.stdout  # ran on its own ...
    assert "┌ Search: GIL" in result.stdout  # ... and the next line was not swallowed
    assert "There is no button 7: the last buttons shown are 1 to" in result.stdout


async def test_rating_an_explanation_by_number_and_a_direct_message(app: App) -> None:
    typed = "/rate id:python-gil seen:0 rating:3 owner:local"  # the button's command
    stdin = io.StringIO(f"/question python-gil\n1\n3\n{typed}\n")
    stdout = io.StringIO()
    console = ConsoleAdapter(app.core, stdin, stdout)
    await console.run()
    out = stdout.getvalue()
    assert f"[3] Good  → {typed}" in out
    assert "Rated Good: next review in 2 days, on Wed 7 Jan." in out
    assert "`/rate` is what a button does, and is not typed" in out  # (nor replayed so)
    await console.send_direct(User("console", "local", "you"), digest_reply(
        [Due("python-gil", datetime(2026, 1, 7, 9, tzinfo=UTC))]))  # fmt: skip
    assert "✉ to you" in stdout.getvalue() and "`python-gil`" in stdout.getvalue()


async def test_an_attachment_is_written_to_a_file_and_its_path_printed(
    app: App, clock: FakeClock, tmp_path: Path
) -> None:
    you, here = User("console", "local", "you"), ChannelRef("console", "terminal")
    await app.ledger.record(ActKind.QUIZ, you, here, "python-gil", correct=True, points=10,
                            at=clock.now(), dedupe="quiz:console")  # fmt: skip
    files = tmp_path / "exports"
    stdout = io.StringIO()
    script = io.StringIO("/export scores\n/export scores\n")
    await ConsoleAdapter(app.core, script, stdout, files=files).run()
    saved = sorted(files.iterdir())
    assert [p.name for p in saved] == [
        "scores-console-2026-01-05-2.csv",
        "scores-console-2026-01-05.csv",
    ]  # never overwritten
    assert f"📎 File saved: {saved[1]}" in stdout.getvalue()
    text = saved[1].read_bytes().decode("utf-8-sig")
    assert text.splitlines()[1] == "you,local,10,1,1,0,1"


class Watched(io.StringIO):
    """stdout, which tells a waiting test when `text` has been printed."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text, self.printed = text, asyncio.Event()

    def write(self, s: str) -> int:
        written = super().write(s)
        if self.text in self.getvalue():
            self.printed.set()
        return written


async def test_a_submission_that_waits_prints_its_place_then_its_verdict(graded_app: App) -> None:
    typed = io.StringIO(f"/submit fast-power ```python\n{reference('fast-power')}```\n")
    stdout = Watched("Queued for a grader, 1 ahead of yours")
    console = ConsoleAdapter(graded_app.core, typed, stdout)
    async with busy(graded_app.grading):
        session = asyncio.create_task(console.run())
        await asyncio.wait_for(stdout.printed.wait(), PATIENCE)
        assert "Accepted" not in stdout.getvalue()
    await asyncio.wait_for(session, PATIENCE)
    out = stdout.getvalue()
    assert out.index("Queued for a grader") < out.index("Accepted")


def test_a_script_with_windows_line_endings_runs_as_typed(tmp_path: Path) -> None:
    script = "/run ```python\r\nprint(6 * 7)\r\n```\r\n/topics\r\n/search GIL\r"
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "┌ ✅ Run: finished" in result.stdout
    assert "42" in result.stdout and "print(6 * 7)" not in result.stdout
    assert "┌ Topics" in result.stdout and "┌ Search: GIL" in result.stdout
    assert "AI-infra interview practice" not in result.stdout  # no line fell through to /help


def test_a_block_left_open_at_the_end_is_refused_and_commands_in_it_still_run(
    tmp_path: Path,
) -> None:
    script = "/topics\n/run ```python\nprint('half a paste')\n/me\n"
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "The ``` block opened on line 2 is never closed, so it was not run" in result.stdout
    assert "Run:" not in result.stdout and "half a paste" not in result.stdout
    assert "┌ Your progress" in result.stdout  # /me was read as the command it is
    zh = studybot(["console", "--locale", "zh"], "/run ```\nx = 1\n", tmp_path)
    assert "第 1 行开始的 ``` 代码块没有结束" in zh.stdout


def test_a_byte_order_mark_before_a_command_or_in_code_is_dropped(tmp_path: Path) -> None:
    script = (
        "\ufeff/topics\n"
        "/submit fast-power ```python\n"
        f"\ufeff{reference('fast-power')}"
        "```\n"
        "/submit fast-power \ufeffdef my_pow(x, n):\n"
    )
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "┌ Topics" in result.stdout
    assert "AI-infra interview practice" not in result.stdout
    assert "┌ ✅ Accepted: Integer power of a number" in result.stdout
    assert "U+FEFF" not in result.stdout and "\ufeff" not in result.stdout


def test_the_solution_form_can_be_dropped_or_left_and_says_how(tmp_path: Path) -> None:
    script = (
        "/end\n"  # no form is open
        "/question fast-power\n1\n"  # the "Submit solution" button opens the form
        "def my_pow(x, n):\n    return 1.0\n/cancel\n"
        "/me\n"  # a command again
        "/question fast-power\n1\n"
        "def my_pow(x, n):\n/quit\n"
        "/topics\n"  # never read: /quit left the console
    )
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "There is no code form open: /end ends or drops the code" in out
    assert "then a line with just /end to submit it, or /cancel to drop it" in out
    assert "Dropped: your solution to `fast-power` was not submitted." in out
    assert "┌ Your progress" in out
    assert "┌ Topics" not in out
    assert "Wrong answer" not in out and "Compile error" not in out  # nothing was graded
    ended = studybot(["console", "--locale", "zh"], "/question fast-power\n1\ndef f():\n", tmp_path)
    assert "输入在 /end 之前结束：`fast-power` 的解答没有提交。" in ended.stdout


def test_a_buttons_command_typed_is_refused_naming_the_button(tmp_path: Path) -> None:
    script = (
        "/question python-gil\n"  # something held: a question seen
        "/forget-confirm yes\n"  # typed without `/forget me`: refused, nothing deleted
        "/quiz post:1:2026-01-05:q choice:0\n"
        "/forget me\n"
        "1\n"  # its "Delete all of it" button
    )
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ("`/forget-confirm` is what a button does, and is not typed: press \"Delete all of "
            "it\" under the list `/forget me` shows (in the console, type the button's "
            "number).") in out  # fmt: skip
    assert "`/quiz` is what a button does" in out
    assert out.index("The bot holds on you:") < out.index("Deleted:")  # kept until the button
    zh = studybot(["console", "--locale", "zh"], "/forget-confirm yes\n", tmp_path)
    assert "`/forget-confirm` 是按钮执行的操作，不能直接输入" in zh.stdout


def test_the_console_logs_warnings_only_unless_told_and_to_stderr(tmp_path: Path) -> None:
    clock = {"STUDYBOT_TEST_CLOCK": "2026-01-05T08:00:00+00:00*1"}  # its start is a warning
    quiet = studybot(["console"], "/topics\n", tmp_path, STUDYBOT_LOG_LEVEL="", **clock)
    assert quiet.returncode == 0, quiet.stderr
    assert "WARNING bot.app: test clock: starting at" in quiet.stderr
    assert " INFO " not in quiet.stderr  # (content loaded, platform attached ...)
    assert "WARNING" not in quiet.stdout and "┌ Topics" in quiet.stdout
    told = studybot(["console"], "/topics\n", tmp_path, STUDYBOT_LOG_LEVEL="info")
    assert "INFO bot.platforms: platform console attached" in told.stderr


def test_a_line_that_is_not_utf8_is_read_with_replacements_and_said_so(tmp_path: Path) -> None:
    environment = {**os.environ, "STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                   "LANG": "C.UTF-8"}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "bot", "console"], input=b"/search GIL\xff\xfe\n/topics\n",
        cwd=tmp_path, env=environment, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode("utf-8")  # nothing came back as the bytes it was sent
    assert "⚠ Line 1 is not valid UTF-8: the bytes that are not read as �." in out
    assert "GIL��" in out and "┌ Topics" in out


def test_a_long_print_is_cut_with_a_note_and_leaves_no_empty_block(tmp_path: Path) -> None:
    script = (
        "/submit fast-power ```python\n"
        "def my_pow(x, n):\n"
        "    print('y' * 3000)\n"
        "    return 0.0\n"
        "```\n"
    )
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "┌ ❌ Wrong answer: Integer power of a number (fast exponentiation) (2/2)" in out
    assert "│ ```\n│ ```" not in out  # no block closes as soon as it opens
    first, second = out.split("(2/2)")
    assert "Printed output:" not in first  # its label went on with the block
    assert "│ Printed output:\n│ ```\n│ yyyy" in second
    assert "(output cut: " in second


def test_chinese_console_speaks_chinese_in_its_own_words_too(tmp_path: Path) -> None:
    """The private mark, weekdays, milliseconds and the sandbox's refused import are in
    Chinese; `/me` names topics in Chinese, shows the zone its days count in, and counts
    solutions and `/run` snippets as `/forget me` does, each list on its own lines."""
    script = (
        "/me timezone:Asia/Shanghai\n"
        "/submit fast-power ```python\nimport os\n```\n"
        "/run print(1)\n"
        "/me\n"
        "/forget me\n"
        "/question rotate-matrix\n"
    )
    result = studybot(["console", "--locale", "zh"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "（仅你可见）" in out and "only you can see" not in out
    assert "当地时间 周" in out  # a Chinese weekday, not "Sun"
    assert "沙箱不允许导入 `os`；可以导入：math" in out
    assert "毫秒" in out and " ms" not in out
    assert "你的日期按此时区计算: Asia/Shanghai" in out
    assert "提交次数: 解答 1 次 · /run 代码片段 1 次" in out
    assert "2 次提交（解答和 /run 代码片段）" in out
    assert "│ 按主题（答对 / 作答）: 暂无\n" in out  # a line of its own
    assert "主题: 算法" in out  # a card names its topics in Chinese too
