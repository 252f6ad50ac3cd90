"""Fakes at the core's boundaries, and helpers that write content files for tests."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from bot.types import ChannelRef, MessageRef, Reply, User

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "content"


class FakeClock:
    """A clock that moves only when told to; sleepers wake when it passes their time."""

    def __init__(self, start: datetime = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)) -> None:
        self.current = start
        self._sleepers: list[tuple[datetime, asyncio.Future[None]]] = []
        self.naps = 0  # sleeps begun: a loop that slept again has finished what woke it

    def now(self) -> datetime:
        return self.current

    async def sleep_until(self, when: datetime) -> None:
        if when <= self.current:
            return
        entry = (when, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        self.naps += 1
        try:
            await entry[1]
        finally:
            self._sleepers.remove(entry)

    @property
    def sleeping_until(self) -> list[datetime]:
        return sorted(when for when, _ in self._sleepers)

    def set(self, instant: datetime) -> None:
        self.current = instant
        for when, future in self._sleepers:
            if when <= instant and not future.done():
                future.set_result(None)

    def advance(self, delta: timedelta) -> None:
        self.set(self.current + delta)


class Ticks:
    """A monotonic clock that moves when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Sent:
    channel: ChannelRef
    reply: Reply
    thread_of: MessageRef | None
    nonce: str | None
    ref: MessageRef


class FakeAdapter:
    """A chat platform that records every post. It can refuse posts, hang mid-send (a crash
    after the platform accepted), and deduplicate by nonce as Discord does."""

    def __init__(self, *, dedupe_nonces: bool = False) -> None:
        self.sent: list[Sent] = []
        self.attempts: list[str | None] = []
        self.failures: list[Exception] = []
        self.hang_after_accepting = False
        self.dedupe_nonces = dedupe_nonces
        self.posted = asyncio.Event()
        self.edits: list[tuple[MessageRef, Reply]] = []
        self.directs: list[tuple[User, Reply]] = []
        self._ids = itertools.count(1000)

    async def send(
        self,
        channel: ChannelRef,
        reply: Reply,
        *,
        thread_of: MessageRef | None = None,
        nonce: str | None = None,
    ) -> MessageRef:
        self.attempts.append(nonce)
        if self.failures:
            raise self.failures.pop(0)
        earlier = next((s for s in self.sent if self.dedupe_nonces and s.nonce == nonce), None)
        if earlier is not None:
            return earlier.ref
        ref = MessageRef(channel, str(next(self._ids)))
        self.sent.append(Sent(channel, reply, thread_of, nonce, ref))
        self.posted.set()
        if self.hang_after_accepting:
            await asyncio.Event().wait()  # the process "dies" here: cancelled by the test
        return ref

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        self.edits.append((message, reply))

    async def send_direct(self, user: User, reply: Reply) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.directs.append((user, reply))

    def titles(self) -> list[str | None]:
        return [s.reply.title for s in self.sent]


def write_question(
    root: Path,
    qid: str,
    title: str,
    answer: str,
    *,
    topics: tuple[str, ...] = ("os",),
    kind: str = "qa",
    **extra: object,
) -> Path:
    """Write a valid content file (a problem folder for coding) and return its main path."""
    meta: dict[str, object] = {
        "id": qid, "title": title, "kind": kind, "difficulty": "medium",
        "topics": list(topics),
        "sources": [{"document": "report.txt", "title": "某公司 一面"}],
        **extra,
    }  # fmt: skip
    if kind == "coding" and "hints" not in meta:
        meta["hints"] = [{"zh": f"提示 {i}", "en": f"hint {i}"} for i in (1, 2, 3)]
    head = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
    if kind == "coding":
        folder = root / "problems" / qid
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "explanation.md").write_text(answer, encoding="utf-8")
        path, body = folder / "problem.md", f"{title} statement"
    else:
        (root / "questions").mkdir(parents=True, exist_ok=True)
        path, body = root / "questions" / f"{qid}.md", answer
    path.write_text(f"---\n{head}---\n{body}\n", encoding="utf-8")
    return path
