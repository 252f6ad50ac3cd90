"""Spaced review through the app that ships (open_app, the core) on a fake clock: ratings
under an explanation schedule a card when fsrs says, `/review` deals it then and not before,
with its quick check first; Again brings a card back sooner than Good; a workspace's
retention changes the spacing; replayed and foreign buttons change nothing; `/forget me`
removes cards and reviews."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card, Rating, Scheduler

from bot.app import App
from bot.review.spacing import LEARNING_STEPS, RELEARNING_STEPS
from bot.types import ActionKind, ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.content.test_new_format import write_item
from tests.fakes import FakeClock, write_question
from tests.quiz.shown import carried, letters, right_letter

ALICE, BOB = User("test", "u1", "alice"), User("test", "u2", "bob")
ADMIN = User("test", "u9", "root", is_admin=True)
WHERE = ChannelRef("test", "c1", "guild")
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # the FakeClock's start, a Monday


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """kv-cache-size (two quick checks) and python-gil (none), and a coding problem."""
    root = tmp_path / "content"
    write_item(root)
    write_question(root, "fast-power", "数值的整数次方", "快速幂：反复平方。", kind="coding",
                   topics=("algorithms",), signature="def my_pow(x, n)")  # fmt: skip
    return root


async def say(app: App, text: str, who: User = ALICE, locale: Locale = Locale.EN) -> Reply:
    return await app.core.handle_line(text, user=who, channel=WHERE, locale=locale)


async def press(app: App, reply: Reply, kind: ActionKind, label: str | None = None,
                who: User = ALICE, locale: Locale = Locale.EN) -> Reply:  # fmt: skip
    (button,) = [a for a in reply.actions if a.kind is kind and label in (None, a.label)]
    return await app.core.handle(Invocation(*button.invocation(), who, WHERE, locale))


async def rate(app: App, qid: str, label: str, who: User = ALICE) -> Reply:
    return await press(app, await say(app, f"/answer {qid}", who), ActionKind.RATE, label, who)


async def reviews(app: App, who: User = ALICE) -> list[tuple[str, int, str]]:
    rows = await app.db.fetch_all("SELECT question_id, rating, source FROM reviews "
                                   "WHERE user_id = ? ORDER BY id", (who.id,))  # fmt: skip
    return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]


def fsrs_due(*ratings: Rating, retention: float = 0.9) -> datetime:
    """Where fsrs alone puts a new card rated `ratings` in turn, each when it comes due."""
    scheduler = Scheduler(desired_retention=retention, learning_steps=LEARNING_STEPS,
                          relearning_steps=RELEARNING_STEPS, enable_fuzzing=False)  # fmt: skip
    card, at = Card(card_id=1, due=START), START
    for rating in ratings:
        card, _ = scheduler.review_card(card, rating, at)
        at = card.due
    return card.due


async def test_a_card_rated_good_comes_due_on_the_day_fsrs_says(app: App, clock: FakeClock) -> None:
    shown = await say(app, "/answer python-gil")
    labels = [a.label for a in shown.actions if a.kind is ActionKind.RATE]
    assert labels == ["Again", "Hard", "Good", "Easy"]
    assert (await say(app, "/review")).body.startswith("You have no review cards yet.")

    rated = await press(app, shown, ActionKind.RATE, "Good")
    due = fsrs_due(Rating.Good)
    assert due == START + timedelta(days=2)  # a new card rated Good leaves learning at once
    assert rated.ephemeral and rated.body == "Rated Good: next review in 2 days, on Wed 7 Jan."
    assert (await say(app, "/review")).body == ("Nothing is due for review. Your next card is "
                                                "due in 2 days, on Wed 7 Jan.")  # fmt: skip
    clock.set(due - timedelta(minutes=1))
    assert (await say(app, "/review")).body == ("Nothing is due for review. Your next card is "
                                                "due later today at 09:00.")  # fmt: skip
    clock.set(due)
    dealt = await say(app, "/review")
    assert dealt.ephemeral and dealt.title == "Review: GIL 是什么？"
    assert dealt.footer == "1 due now, this one included."
    assert [a.kind for a in dealt.actions] == [ActionKind.REVIEW_EXPLAIN]  # no quick check

    explained = await press(app, dealt, ActionKind.REVIEW_EXPLAIN)
    assert explained.ephemeral and not explained.in_thread and explained.body == "解析"
    again = await press(app, explained, ActionKind.RATE, "Good")
    # fsrs says 11 days, fuzzed within its range (9 to 13), here onto 11 with the seeded rng
    assert fsrs_due(Rating.Good, Rating.Good) == due + timedelta(days=11)
    assert again.body == "Rated Good: next review in 11 days, on Sun 18 Jan."
    assert await reviews(app) == [("python-gil", 3, "rating")] * 2


async def test_again_brings_a_card_back_sooner_than_good(app: App, clock: FakeClock) -> None:
    assert (await rate(app, "python-gil", "Again", ALICE)).body.startswith(
        "Rated Again: next review tomorrow, Tue 6 Jan."
    )
    await rate(app, "python-gil", "Good", BOB)
    clock.advance(timedelta(days=1))
    assert (await say(app, "/review", ALICE)).title == "Review: GIL 是什么？"
    assert (await say(app, "/review", BOB)).body.startswith("Nothing is due")
    clock.advance(timedelta(days=1))
    assert (await say(app, "/review", BOB)).title == "Review: GIL 是什么？"


async def test_review_deals_the_quick_check_then_the_explanation_then_the_next(
    app: App, clock: FakeClock
) -> None:
    await rate(app, "kv-cache-size", "Again")
    clock.advance(timedelta(minutes=1))
    await rate(app, "fast-power", "Again")
    clock.advance(timedelta(days=1))
    dealt = await say(app, "/review")
    assert dealt.footer == "2 due now, this one included."
    checks = [a for a in dealt.actions if a.kind is ActionKind.REVIEW_CHECK]
    assert [a.label for a in checks] == ["A", "B", "C", "D"]
    kv = await app.store.get("kv-cache-size")
    assert kv is not None
    quick = kv.quiz[1]  # the card was reviewed once, so the second check is asked
    assert quick.question.en in dealt.body

    wrong = quick.options[(quick.correct_index() + 1) % 4]
    shown = letters(dealt.body)[wrong.text.en]  # pressed by the letter the prompt shows
    checked = await press(app, dealt, ActionKind.REVIEW_CHECK, shown)
    assert checked.title is not None and checked.title.startswith("❌ Not this one")
    assert checked.title.startswith(f"❌ Not this one: {shown}. {wrong.text.en}")
    assert wrong.why.en in checked.body
    assert "Your card: next review tomorrow, Wed 7 Jan." in checked.body  # Again: a day
    replayed = await press(app, dealt, ActionKind.REVIEW_CHECK, right_letter(dealt.body, quick))
    assert replayed.body.startswith("Already rated") and replayed.tone is Tone.INFO

    explained = await press(app, checked, ActionKind.REVIEW_EXPLAIN)
    assert explained.title == "Answer: KV Cache 的大小怎么估算？" or explained.title
    assert [a.label for a in explained.actions if a.kind is ActionKind.RATE] == [
        "Again", "Hard", "Good", "Easy"]  # fmt: skip
    rated = await press(app, explained, ActionKind.RATE, "Hard")
    assert rated.body.startswith("Rated Hard: next review")
    coding = await press(app, rated, ActionKind.REVIEW_NEXT)
    assert coding.title == "Review: 数值的整数次方"
    assert "数值的整数次方 statement" in coding.body
    assert not any(a.kind is ActionKind.REVIEW_CHECK for a in coding.actions)
    await press(app, coding, ActionKind.RATE, "Easy")
    assert (await say(app, "/review")).body.startswith("Nothing is due for review.")
    assert [r[1:] for r in await reviews(app)] == [
        (1, "rating"), (1, "rating"), (1, "quiz"), (2, "rating"), (4, "rating")]  # fmt: skip


async def test_replayed_and_foreign_rating_buttons_change_nothing(app: App) -> None:
    shown = await say(app, "/answer python-gil")
    first = await press(app, shown, ActionKind.RATE, "Good")
    assert first.body.startswith("Rated Good")
    for label in ("Good", "Easy"):  # the same button again, or another of the same message
        replay = await press(app, shown, ActionKind.RATE, label)
        assert replay.body.startswith("Already rated: this card has been reviewed since")
    foreign = await press(app, shown, ActionKind.RATE, "Again", who=BOB)
    assert foreign.tone is Tone.USER_ERROR and "someone else's review" in foreign.body
    assert "`/answer python-gil`" in foreign.body
    forged = Invocation("rate", {"id": "python-gil", "seen": "1", "rating": "9", "owner": "u1"},
                        ALICE, WHERE, Locale.EN)  # fmt: skip
    assert (await app.core.handle(forged)).tone is Tone.USER_ERROR
    assert await reviews(app) == [("python-gil", 3, "rating")]
    assert await reviews(app, BOB) == []


async def test_forget_me_removes_cards_and_reviews(app: App) -> None:
    await rate(app, "python-gil", "Good")
    asked = await say(app, "/forget me")
    assert "1 review card(s)" in asked.body and "1 review rating(s)" in asked.body
    await press(app, asked, ActionKind.FORGET, "Delete all of it")
    for table in ("cards", "reviews"):
        assert (await app.db.fetch_all(f"SELECT count(*) FROM {table}"))[0][0] == 0
    assert (await say(app, "/review")).body.startswith("You have no review cards yet.")


async def test_the_workspace_retention_changes_the_next_interval(app: App) -> None:
    refused = await say(app, "/review retention:0.8")
    assert refused.tone is Tone.USER_ERROR and "Only an admin" in refused.body
    for bad in ("0.5", "0.99", "lots", "nan"):
        reply = await say(app, f"/review retention:{bad}", ADMIN)
        assert reply.tone is Tone.USER_ERROR and "0.7 to 0.97" in reply.body, bad
    rows = await app.db.fetch_all("SELECT count(*) FROM workspace_settings")
    assert rows[0][0] == 0
    assert (await rate(app, "python-gil", "Good", ALICE)).body.endswith("in 2 days, on Wed 7 Jan.")

    set_ = await say(app, "/review retention:0.97", ADMIN)
    assert set_.body.startswith("Desired retention here is now 0.97")
    assert fsrs_due(Rating.Good, retention=0.97) == START + timedelta(days=1)
    assert (await rate(app, "python-gil", "Good", BOB)).body.endswith("tomorrow, Tue 6 Jan.")
    await say(app, "/review retention:0.7", ADMIN)
    lax = await rate(app, "python-gil", "Good", ADMIN)
    # fsrs says 21 days; fuzzed within its range (18 to 24), reproducibly with the seeded rng
    assert fsrs_due(Rating.Good, retention=0.7) == START + timedelta(days=21)
    assert lax.body.endswith("in 20 days, on Sun 25 Jan."), lax.body
    elsewhere = ChannelRef("test", "c2", "another-guild")
    carol = User("test", "u3", "carol")
    shown = await app.core.handle_line("/answer python-gil", user=carol, channel=elsewhere,
                                       locale=Locale.EN)  # fmt: skip
    (good,) = [a for a in shown.actions if a.label == "Good"]
    other = await app.core.handle(Invocation(*good.invocation(), carol, elsewhere, Locale.EN))
    assert other.body.endswith("in 2 days, on Wed 7 Jan.")  # that server keeps the default


async def test_a_chinese_reader_gets_chinese_buttons_and_dates(app: App) -> None:
    shown = await say(app, "/answer python-gil", locale=Locale.ZH)
    labels = [a.label for a in shown.actions if a.kind is ActionKind.RATE]
    assert labels == ["重来", "困难", "良好", "简单"]
    rated = await press(app, shown, ActionKind.RATE, "良好", locale=Locale.ZH)
    assert rated.body == "已评为「良好」，下次复习：2 天后（1月7日 周三）。"
    none = await say(app, "/review", locale=Locale.ZH)
    assert none.body == "目前没有到期的复习。下一张卡片到期：2 天后（1月7日 周三）。"


async def test_a_review_check_is_answered_by_the_letters_it_shows(
    app: App, clock: FakeClock
) -> None:
    for who in (ALICE, BOB):
        await rate(app, "kv-cache-size", "Again", who)
    clock.advance(timedelta(days=1))
    kv = await app.store.get("kv-cache-size")
    assert kv is not None
    quick = kv.quiz[1]
    alices, bobs = await say(app, "/review", ALICE), await say(app, "/review", BOB)
    right = right_letter(alices.body, quick)
    assert right != "A"  # this prompt does not show the right option first
    again = await say(app, "/review", ALICE)  # the same prompt, dealt again: the same order
    assert letters(again.body) == letters(alices.body)
    assert [a.value for a in again.actions] == [a.value for a in alices.actions]
    checks = [a for a in alices.actions if a.kind is ActionKind.REVIEW_CHECK]
    assert [carried(a) for a in checks] == [0, 1, 2, 3]  # the places shown
    command, options = checks[0].invocation()
    for bad in ("4", "9", "-1", "B"):  # no such position, or not one: refused, nothing reviewed
        refused = await app.core.handle(Invocation(command, options | {"choice": bad}, ALICE,
                                                   WHERE, Locale.EN))  # fmt: skip
        assert refused.tone is Tone.USER_ERROR and refused.ephemeral
        assert refused.body.startswith("This review button is no longer valid")

    scored = await press(app, alices, ActionKind.REVIEW_CHECK, right)
    assert scored.title == f"✅ Right: {right}. {quick.options[quick.correct_index()].text.en}"
    assert right_letter(bobs.body, quick) != "A"
    missed = await press(app, bobs, ActionKind.REVIEW_CHECK, "A", BOB)
    assert missed.title is not None and missed.title.startswith("❌ Not this one: A.")
    assert [rating for _, rating, _ in await reviews(app)] == [1, 3]  # then Good: right
    assert [rating for _, rating, _ in await reviews(app, BOB)] == [1, 1]  # then Again: A


async def test_a_review_checks_buttons_do_not_give_the_right_option_away(
    app: App, clock: FakeClock
) -> None:
    """Each member's prompt carries, on the right option's button, where it is shown (the
    letter's place), not its index in the file: over members it is not always the same."""
    members = [User("test", f"m{i}", f"member {i}") for i in range(16)]
    for who in members:
        await rate(app, "kv-cache-size", "Again", who)
    clock.advance(timedelta(days=1))
    kv = await app.store.get("kv-cache-size")
    assert kv is not None
    quick = kv.quiz[1]
    rights = []
    for who in members:
        dealt = await say(app, "/review", who)
        right = right_letter(dealt.body, quick)
        (button,) = [a for a in dealt.actions
                     if a.kind is ActionKind.REVIEW_CHECK and a.label == right]  # fmt: skip
        rights.append(carried(button))
        assert rights[-1] == "ABCD".index(right)  # the letter's place
    assert len(set(rights)) >= 3, rights  # not the file's index (1) every time


async def test_the_digest_is_turned_on_and_off(app: App) -> None:
    on = await say(app, "/review digest:on")
    assert on.ephemeral and "Every morning at 08:00" in on.body
    off = await say(app, "/review digest:off")
    assert off.body.startswith("The morning digest of due reviews is off")
    bad = await say(app, "/review digest:maybe")
    assert bad.tone is Tone.USER_ERROR and "on, off" in bad.body


async def test_a_review_dealt_to_one_member_is_refused_to_another(
    app: App, clock: FakeClock
) -> None:
    await rate(app, "kv-cache-size", "Again")
    clock.advance(timedelta(days=1))
    dealt = await say(app, "/review")
    check = next(a for a in dealt.actions if a.kind is ActionKind.REVIEW_CHECK)
    theirs = await app.core.handle(Invocation(*check.invocation(), BOB, WHERE, Locale.EN))
    assert theirs.tone is Tone.USER_ERROR and "someone else's review" in theirs.body
    checked = await press(app, dealt, ActionKind.REVIEW_CHECK, "A")
    explain = next(a for a in checked.actions if a.kind is ActionKind.REVIEW_EXPLAIN)
    peek = await app.core.handle(Invocation(*explain.invocation(), BOB, WHERE, Locale.EN))
    assert peek.tone is Tone.USER_ERROR and "someone else's review" in peek.body
    assert await reviews(app, BOB) == [] and len(await reviews(app)) == 2


async def test_next_with_nothing_due_says_when_the_next_card_is(app: App) -> None:
    rated = await rate(app, "python-gil", "Easy")
    following = await press(app, rated, ActionKind.REVIEW_NEXT)
    assert following.body.startswith("Nothing is due for review. Your next card is due in ")


async def test_a_review_is_a_day_of_practice_once_and_scores_nothing(
    app: App, clock: FakeClock
) -> None:
    shown = await say(app, "/answer python-gil")
    await press(app, shown, ActionKind.RATE, "Good")
    await press(app, shown, ActionKind.RATE, "Good")  # the same button again: refused
    assert await app.ledger.activity.days(ALICE) == {START.date()}
    assert await app.ledger.activity.points(ALICE) == 0
    rows = await app.db.fetch_all("SELECT kind, correct FROM activity WHERE user_id = ?",
                           (ALICE.id,))  # fmt: skip
    assert [tuple(r) for r in rows] == [("review", 1)]
    clock.advance(timedelta(days=2))
    dealt = await press(app, await say(app, "/review"), ActionKind.REVIEW_EXPLAIN)
    await press(app, dealt, ActionKind.RATE, "Again")
    streak, _ = await app.ledger.streak(ALICE, clock.now())
    assert streak.days == 2 and streak.frozen == (START.date() + timedelta(days=1),)
