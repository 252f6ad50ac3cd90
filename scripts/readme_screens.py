"""`python -m scripts.readme_screens [--check]`: what the README shows of the product.

The console (the real `ConsoleAdapter` over the app `open_app` builds, grading sandbox
included) is driven through a fixed scenario at a fixed instant, over a fresh database with a
member's ten weeks of practice: a daily post, its quiz answered, a solution submitted, `/me`.
The transcript goes into README.md between the markers below, and the `/me` card and the
channel's weekly chart into docs/ as PNGs (kept small: a few tens of KB each).

`--check` writes nothing and exits 1 when README.md is not what the scenario prints now, so
a test keeps it true. CPU times and memory vary from run to run: their digits are not
compared.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from adapters.console.adapter import ConsoleAdapter
from bot.app import App, open_app
from bot.charts import draw
from bot.charts.read import week_chart
from bot.learning.periods import week_before
from bot.schedule.times import parse_zone
from bot.settings import Settings
from bot.store.activity import ActKind
from bot.types import ChannelRef, Invocation, Locale, User

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
CARD, CHART = REPO / "docs" / "me-card.png", REPO / "docs" / "weekly-chart.png"
BEGIN, END = "<!-- console transcript: begin -->", "<!-- console transcript: end -->"
NOW = datetime(2026, 3, 11, 9, 5, tzinfo=UTC)  # a Wednesday morning
ME = User("console", "local", "you")
TERMINAL = ChannelRef("console", "terminal")
OTHERS = (User("console", "u2", "mei"), User("console", "u3", "sam"))
SOLUTION = """\
/submit fast-power ```python
def my_pow(x: float, n: int) -> float:
    if n < 0:
        x, n = 1 / x, -n
    result = 1.0
    while n:
        if n & 1:
            result *= x
        x *= x
        n >>= 1
    return result
```"""
# Two parts: the post's tally is edited in the background after the quiz answer ("1"), and is
# shown before the next command is read rather than wherever it happens to land.
# The bank the scenario runs on: a few items of the real one, so that a new item in the bank
# never changes which question the transcript's daily post asks.
QUESTIONS = ("python-generators-and-coroutines", "python-gil", "gpu-vs-cpu",
             "allreduce-communication-cost")  # fmt: skip
PROBLEMS = ("fast-power",)
_RELATED = re.compile(r"^related: \[[^\]]*\]\n", re.M)  # links to items left out
SCENARIO = (["/schedule set 09:00 UTC summary:weekly", "/daily now", "1"], [SOLUTION, "/me"])
VARYING = re.compile(r"^.*(CPU time|memory|ms\b|MiB).*$", re.M)


def main(argv: list[str]) -> int:
    transcript, card, chart = asyncio.run(screens())
    readme = README.read_text(encoding="utf-8")
    updated = with_transcript(readme, transcript)
    if "--check" in argv:
        if comparable(updated) != comparable(readme):
            print("README.md is not what `python -m scripts.readme_screens` prints now: run it")
            return 1
        return 0
    README.write_text(updated, encoding="utf-8")
    CARD.parent.mkdir(exist_ok=True)
    CARD.write_bytes(card)
    CHART.write_bytes(chart)
    print(f"wrote {README.name}, {CARD.name} ({len(card) // 1024} KB), "
          f"{CHART.name} ({len(chart) // 1024} KB)")  # fmt: skip
    return 0


async def screens() -> tuple[str, bytes, bytes]:
    """The console's transcript of the scenario, the member's card and the week's chart."""
    with tempfile.TemporaryDirectory() as folder:
        database, content = f"{folder}/screens.sqlite3", str(demo_bank(Path(folder)))
        settings = Settings.from_mapping({"STUDYBOT_DATABASE": database,
                                          "STUDYBOT_CONTENT_DIR": content})  # fmt: skip
        async with open_app(settings, clock=_Still(), rng=random.Random(7)) as app:
            await history(app)
            transcript = await console(app, Path(folder))
            me = await app.core.handle(Invocation("me", {}, ME, TERMINAL, Locale.EN))
            return transcript, me.attachments[0].data, await weekly_chart(app)


def demo_bank(folder: Path) -> Path:
    """A copy of the scenario's items of the bank, their links to the others removed."""
    root = folder / "content"
    files = [REPO / "content" / "questions" / f"{q}{suffix}" for q in QUESTIONS
             for suffix in (".md", ".en.md")]  # fmt: skip
    files += [f for p in PROBLEMS for f in (REPO / "content" / "problems" / p).rglob("*")
              if f.is_file() and "__pycache__" not in f.parts]  # fmt: skip
    for source in files:
        target = root / source.relative_to(REPO / "content")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = source.read_bytes()
        if source.suffix == ".md":
            data = _RELATED.sub("", data.decode("utf-8")).encode("utf-8")
        target.write_bytes(data)
    return root


async def history(app: App) -> None:
    """Ten weeks of the member's practice (a missed day or two a week) and last week's quiz
    answers of two others in the channel."""
    rng = random.Random(11)
    for n in range(1, 70):
        if rng.random() < 0.22:
            continue
        for i in range(rng.choice((1, 1, 2, 3, 5))):
            await act(app, ME, NOW - timedelta(days=n, minutes=i), right=rng.random() < 0.7)
    for who in OTHERS:
        for n in range(3, 10):
            await act(app, who, NOW - timedelta(days=n), right=rng.random() < 0.6)


async def act(app: App, who: User, at: datetime, *, right: bool) -> None:
    qid = random.Random(at.isoformat()).choice(QUESTIONS[1:])
    await app.ledger.record(ActKind.QUIZ, who, TERMINAL, qid, correct=right,
                            points=10 if right else 0, at=at,
                            dedupe=f"screens:{who.id}:{at.isoformat()}")  # fmt: skip


async def console(app: App, files: Path) -> str:
    out = io.StringIO()
    for part in SCENARIO:
        adapter = ConsoleAdapter(app.core, _Echo("\n".join(part) + "\n", out), out,
                                 locale=Locale.EN, files=files)  # fmt: skip
        await app.platforms.attach("console", adapter)
        await adapter.run()
        await app.tallies.settled()
        app.platforms.detach("console")
    return out.getvalue()


async def weekly_chart(app: App) -> bytes:
    span, _ = week_before(NOW, parse_zone("UTC"))
    assert span.start is not None and span.end is not None
    chart = await week_chart(app.ledger.activity, TERMINAL, (span.start, span.end),
                             parse_zone("UTC"), Locale.EN)  # fmt: skip
    return draw.week_png(chart)


class _Still:
    """A clock stopped at NOW, so the transcript is the same at every run: what waits for a
    later time (a quiz post's tally, edited at most every few seconds) waits until the end."""

    def now(self) -> datetime:
        return NOW

    async def sleep_until(self, when: datetime) -> None:
        if when > NOW:
            await asyncio.Event().wait()


class _Echo(io.StringIO):
    """Input that shows each line where it is read, after the prompt, as a terminal would
    (`...>` inside a code block)."""

    def __init__(self, text: str, out: io.StringIO) -> None:
        super().__init__(text)
        self._out, self._in_code = out, False

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(-1 if size is None else size)
        if line:
            self._out.write(("...> " if self._in_code else "you> ") + line)
            opens = re.search(r"```[ \t]*(python3?|py)?[ \t]*$", line)
            self._in_code = line.strip() != "```" if self._in_code else bool(opens)
        return line


def with_transcript(readme: str, transcript: str) -> str:
    before, rest = readme.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    return f"{before}{BEGIN}\n```text\n{transcript.rstrip()}\n```\n{END}{after}"


def comparable(readme: str) -> str:
    return VARYING.sub(lambda line: re.sub(r"\d[\d,.]*", "#", line.group(0)), readme)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
