"""A daily quiz and a review's quick check in the console, typed into as a member would: a
line is typed once what it answers is printed, a button pressed by its number. The right
option is found by the letter the console shows it under, which here is not A; pressing it
is right and the reveal in the thread names it, pressing A is not."""

from __future__ import annotations

import asyncio
import io
import queue
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from adapters.console.adapter import ConsoleAdapter
from bot.app import App
from bot.quiz import QuizPost, check_for
from bot.types import QuickCheck
from tests.content.test_new_format import write_item
from tests.fakes import FakeClock
from tests.quiz.shown import right_letter

WAIT = 10  # seconds, should a reply never come


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    write_item(root)  # kv-cache-size, with two quick checks, and python-gil
    return root


class Keyboard(io.StringIO):
    """The console's stdin: each line as the test types it (the console reads it in a
    thread of its own, so waiting here blocks nothing); an empty line is the end of input."""

    def __init__(self) -> None:
        super().__init__()
        self._lines: queue.Queue[str] = queue.Queue()

    def type(self, line: str) -> None:
        self._lines.put(line + "\n")

    def close_input(self) -> None:
        self._lines.put("")

    def readline(self, size: int = -1, /) -> str:
        return self._lines.get()


class Screen(io.StringIO):
    """The console's stdout, which a test can wait on."""

    def __init__(self) -> None:
        super().__init__()
        self._printed = asyncio.Event()

    def write(self, s: str) -> int:
        written = super().write(s)
        self._printed.set()
        return written

    async def shows(self, text: str, since: int = 0) -> str:
        """What was printed from offset `since`, once it holds `text`."""
        async with asyncio.timeout(WAIT):
            while text not in self.getvalue()[since:]:
                self._printed.clear()
                await self._printed.wait()
        return self.getvalue()[since:]


class Session:
    """A member at the console: types a line, reads what it printed."""

    def __init__(self, keys: Keyboard, screen: Screen) -> None:
        self.keys, self.screen = keys, screen

    async def say(self, line: str, until: str) -> str:
        """Type `line`; what is printed from then on, once it holds `until`."""
        since = len(self.screen.getvalue())
        self.keys.type(line)
        return await self.screen.shows(until, since)


@asynccontextmanager
async def console(app: App) -> AsyncIterator[Session]:
    """The console attached as `studybot run` attaches it, running until its input ends."""
    keys, screen = Keyboard(), Screen()
    adapter = ConsoleAdapter(app.core, keys, screen)
    await app.platforms.attach("console", adapter)
    session = asyncio.create_task(adapter.run(), name="console")
    try:
        yield Session(keys, screen)
    finally:
        keys.close_input()
        await asyncio.wait_for(session, WAIT)
        app.platforms.detach("console")


def number_of(printed: str, label: str, command: str) -> str:
    """The number to type to press the button `label` that runs `command`."""
    found = re.findall(rf"\[(\d+)\] {re.escape(label)}  → /{command}\b", printed)
    assert found, printed
    return str(found[-1])


async def asked(app: App, printed: str) -> QuickCheck:
    """The quick check of the post whose buttons were printed (`/quiz post:<post> ...`)."""
    post = QuizPost.parse(re.findall(r"→ /quiz post:(\S+) choice:", printed)[-1])
    question = await app.store.get("kv-cache-size")
    assert post is not None and question is not None
    check = check_for(question, post.slot)
    assert check is not None
    return check


@pytest.mark.parametrize("pressing", ["right", "A"])
async def test_a_daily_quiz_is_answered_by_the_letter_shown(
    app: App, clock: FakeClock, pressing: str
) -> None:
    await app.scheduler.start()
    async with console(app) as you:
        await you.say("/schedule set 09:30 UTC topic:inference answer:+1h", "Saved.")
        since = len(you.screen.getvalue())
        clock.advance(timedelta(minutes=30))
        await app.scheduler.tick()
        post = await you.screen.shows("→ /quiz post:", since)
        right = right_letter(post, await asked(app, post))
        assert right != "A"  # this post does not show the right option first
        # The command printed for the right button names its letter's place, not the file's 0.
        assert re.search(rf"\] {right}  → /quiz post:\S+ choice:{'ABCD'.index(right)}\n", post)
        assert re.findall(r"→ /quiz post:\S+ choice:(\S+)", post) == ["0", "1", "2", "3"]
        letter = right if pressing == "right" else "A"
        said = await you.say(number_of(post, letter, "quiz"), "(only you can see this)")
        assert (f"┌ ✅ Right: {right}." if letter == right else "┌ ❌ Not this one: A.") in said

        since = len(you.screen.getvalue())
        clock.advance(timedelta(hours=1))
        await app.scheduler.tick()
        revealed = await you.screen.shows("↳ in thread of", since)
        assert f"✅ **{right}.**" in revealed  # the reveal names the letter shown
        assert f"1 answered so far, {int(letter == right)} right." in revealed


@pytest.mark.parametrize("pressing", ["right", "A"])
async def test_a_review_quick_check_is_answered_by_the_letter_shown(
    app: App, clock: FakeClock, pressing: str
) -> None:
    question = await app.store.get("kv-cache-size")
    assert question is not None
    check = question.quiz[0]  # reviewed twice: the first check is asked again
    async with console(app) as you:
        for _ in range(2):  # read twice, and rated Again each time
            explained = await you.say("/answer kv-cache-size", "Again")
            await you.say(number_of(explained, "Again", "rate"), "Rated Again")
        clock.advance(timedelta(days=1))
        dealt = await you.say("/review", "/review-check")
        assert check.question.en in dealt
        right = right_letter(dealt, check)
        assert right != "A"  # this prompt does not show the right option first
        printed = re.findall(r"\] ([A-D])  → /review-check id:\S+ seen:\d+ check:\d+ choice:(\d+)",
                             dealt)  # fmt: skip
        assert printed == [("A", "0"), ("B", "1"), ("C", "2"), ("D", "3")]  # places shown
        letter = right if pressing == "right" else "A"
        said = await you.say(number_of(dealt, letter, "review-check"), "Your card:")
        assert (f"┌ ✅ Right: {right}." if letter == right else "┌ ❌ Not this one: A.") in said
