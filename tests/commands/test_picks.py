"""`/question` without an id picks for the asker: questions they have not seen first (not
shown, not opened, not answered, no review card), then the ones due for review, then the one
seen longest ago; never the one they saw last. Plain random fails each of these."""

from __future__ import annotations

import itertools
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.store.activity import ActKind
from bot.types import Action, ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import FakeClock, write_question

ALICE = User("test", "u1", "alice")
BOB = User("test", "u2", "bob")
WHERE = ChannelRef("test", "c1", "w1")
OS = [f"os-{i:02d}" for i in range(20)]
GPU = [f"gpu-{i}" for i in range(3)]


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """Twenty explained questions on `os`, three on `gpu` (one easy), one coding problem."""
    root = tmp_path / "content"
    for qid in OS:
        write_question(root, qid, f"题目 {qid}", "解释。", topics=("os",))
    for i, qid in enumerate(GPU):
        write_question(root, qid, f"题目 {qid}", "解释。", topics=("gpu",),
                       difficulty="easy" if i == 0 else "hard")  # fmt: skip
    write_question(root, "fast-power", "数值的整数次方", "快速幂。", kind="coding",
                   topics=("algorithms",),
                   signature="def my_pow(x: float, n: int) -> float")  # fmt: skip
    return root


async def ask(app: App, clock: FakeClock, text: str, user: User = ALICE) -> Reply:
    clock.advance(timedelta(minutes=1))  # members ask one after another, not all at once
    return await app.core.handle_line(text, user=user, channel=WHERE, locale=Locale.EN)


async def drawn(app: App, clock: FakeClock, text: str, times: int,
                user: User = ALICE) -> list[str]:  # fmt: skip
    ids = []
    for _ in range(times):
        reply = await ask(app, clock, text, user)
        assert reply.tone is Tone.INFO, reply.body
        ids.append(_shown_id(reply))
    return ids


def _shown_id(reply: Reply) -> str:
    """The id of the question a reply shows (its reveal button carries it)."""
    (reveal,) = [a for a in reply.actions if a.kind is ActionKind.REVEAL_ANSWER]
    return reveal.value


async def test_twenty_draws_over_twenty_questions_show_each_once(
    app: App, clock: FakeClock
) -> None:
    ids = await drawn(app, clock, "/question topic:os", 20)
    assert sorted(ids) == OS
    # Another member starts afresh: what Alice saw does not count for Bob.
    assert sorted(await drawn(app, clock, "/question topic:os", 20, BOB)) == OS


async def test_after_the_pool_the_longest_unseen_comes_back_never_the_last_one(
    app: App, clock: FakeClock
) -> None:
    first = await drawn(app, clock, "/question topic:gpu", 3)
    assert sorted(first) == GPU
    again = await drawn(app, clock, "/question topic:gpu", 6)
    assert again == first + first  # least recently seen first, so the same round again
    seq = first + again
    assert all(a != b for a, b in itertools.pairwise(seq))


async def test_a_pool_of_one_still_answers(app: App, clock: FakeClock) -> None:
    ids = await drawn(app, clock, "/question topic:gpu difficulty:easy", 3)
    assert ids == ["gpu-0"] * 3  # nothing else matches: the last one is better than nothing


async def test_opened_answered_and_carded_questions_count_as_seen(
    app: App, clock: FakeClock
) -> None:
    for qid in OS[:15]:
        reply = await ask(app, clock, f"/answer {qid}")
        assert reply.tone is Tone.INFO
    await app.ledger.record(ActKind.QUIZ, ALICE, WHERE, OS[15], correct=True, points=10,
                            at=clock.now(), dedupe="quiz:test")  # fmt: skip
    later = (clock.now() + timedelta(days=30)).isoformat()
    await app.db.execute("INSERT INTO cards VALUES ('test', 'u1', ?, '{}', ?)", (OS[16], later))
    ids = await drawn(app, clock, "/question topic:os", 3)
    assert sorted(ids) == OS[17:]


async def test_a_card_due_for_review_comes_before_the_least_recently_seen(
    app: App, clock: FakeClock
) -> None:
    first = await drawn(app, clock, "/question topic:gpu", 3)
    due = first[1]  # neither the oldest seen nor the latest
    await app.db.execute("INSERT INTO cards VALUES ('test', 'u1', ?, '{}', ?)",
                         (due, clock.now().isoformat()))  # fmt: skip
    assert await drawn(app, clock, "/question topic:gpu", 1) == [due]


async def test_filters_are_respected(app: App, clock: FakeClock) -> None:
    assert await drawn(app, clock, "/question kind:coding", 2) == ["fast-power"] * 2
    hard = await drawn(app, clock, "/question topic:gpu difficulty:hard", 2)
    assert sorted(hard) == ["gpu-1", "gpu-2"]
    reply = await ask(app, clock, "/question topic:gpu kind:coding")
    assert reply.tone is Tone.USER_ERROR and "No question fits" in reply.body


async def test_showing_a_question_by_button_or_answer_records_it_seen(
    app: App, clock: FakeClock
) -> None:
    button = Action(ActionKind.SHOW_QUESTION, "os-03", "os-03")
    shown = await app.core.handle(Invocation(*button.invocation(), ALICE, WHERE, Locale.EN))
    assert shown.title == "题目 os-03"
    await ask(app, clock, "/answer os-05")
    await ask(app, clock, "/question os-05")  # shown again later: the latest showing is kept
    rows = await app.db.fetch_all("SELECT question_id, seen_at FROM questions_seen "
                                   "WHERE user_id = 'u1' ORDER BY question_id")  # fmt: skip
    assert [r[0] for r in rows] == ["os-03", "os-05"]
    assert rows[1][1] == clock.now().isoformat()


async def test_the_last_one_seen_waits_even_when_due(app: App, clock: FakeClock) -> None:
    first = await drawn(app, clock, "/question topic:gpu", 3)
    await app.db.execute("INSERT INTO cards VALUES ('test', 'u1', ?, '{}', ?)",
                         (first[-1], clock.now().isoformat()))  # fmt: skip
    assert await drawn(app, clock, "/question topic:gpu", 2) == [first[0], first[-1]]
