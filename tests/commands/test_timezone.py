"""`/me timezone:<zone>` through the core: stored, used for the member's next days, cleared;
a bad zone is a helpful sentence and changes nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.app import App
from bot.store.activity import ActKind
from bot.types import ChannelRef, Locale, Reply, Tone, User
from tests.fakes import FakeClock

ALICE = User("test", "u1", "alice")
HERE = ChannelRef("test", "c1", "w1")
LATE = datetime(2026, 3, 2, 20, 30, tzinfo=UTC)  # Monday 20:30 UTC; Tuesday 04:30 in Shanghai


async def say(app: App, line: str, locale: Locale = Locale.EN) -> Reply:
    return await app.core.handle_line(line, user=ALICE, channel=HERE, locale=locale)


async def act(app: App, key: str) -> None:
    await app.ledger.record(ActKind.QUIZ, ALICE, HERE, "python-gil", correct=True, points=10,
                            at=LATE, dedupe=key)  # fmt: skip


async def test_a_member_sets_and_clears_their_zone(app: App, clock: FakeClock) -> None:
    clock.set(LATE)
    reply = await say(app, "/me timezone:Asia/Shanghai")
    assert reply.ephemeral and reply.tone is Tone.INFO
    assert reply.body == "Your streak days now count in Asia/Shanghai (it is Tue 04:30 there)."
    assert (await app.ledger.prefs.member(ALICE)).timezone == "Asia/Shanghai"
    await act(app, "a")
    assert await app.ledger.activity.days(ALICE) == {date(2026, 3, 3)}
    cleared = await say(app, "/me timezone:clear", Locale.ZH)
    assert cleared.body.startswith("已清除你的时区")
    assert (await app.ledger.prefs.member(ALICE)).timezone is None
    await act(app, "b")
    assert await app.ledger.activity.days(ALICE) == {date(2026, 3, 2), date(2026, 3, 3)}


async def test_a_bad_zone_says_what_would_do_and_changes_nothing(app: App) -> None:
    await say(app, "/me timezone:Europe/Berlin")
    for bad in ("Mars/Olympus", "Asia", "posixrules"):
        reply = await say(app, f"/me timezone:{bad}")
        assert reply.tone is Tone.USER_ERROR and reply.ephemeral
        assert reply.body == (f"'{bad}' is not an IANA time zone. Give one like Asia/Shanghai, "
                              "Europe/Berlin or America/New_York, or `clear`.")  # fmt: skip
    assert (await app.ledger.prefs.member(ALICE)).timezone == "Europe/Berlin"


async def test_zones_autocomplete(app: App) -> None:
    # (`/me` alone, the progress view, is tested with grading: tests/grading/test_commands.py)
    offered = await app.core.complete("me", "timezone", "shang", Locale.EN)
    assert [c.value for c in offered] == ["Asia/Shanghai"]
