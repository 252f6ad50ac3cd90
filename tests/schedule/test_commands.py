"""`/schedule` and `/daily now` through the core: admins change, everyone sees, mistakes
get clear replies and change nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core import Studybot
from bot.store.db import Database
from bot.store.schedules import ScheduleStore
from bot.types import ChannelRef, Invocation, Locale, Tone, User
from tests.fakes import FakeAdapter, FakeClock

CHANNEL = ChannelRef("test", "study", "guild")
ADMIN = User("test", "a1", "admin", is_admin=True)
MEMBER = User("test", "m1", "member")


def run(command: str, user: User = ADMIN, locale: Locale = Locale.EN, **options: str) -> Invocation:
    return Invocation(command, options, user=user, channel=CHANNEL, locale=locale)


@pytest.fixture(autouse=True)
def monday_morning(clock: FakeClock) -> None:
    clock.set(datetime(2026, 3, 2, 0, 0, tzinfo=UTC))  # Monday 08:00 in Shanghai


async def stored(db: Database) -> object:
    return await ScheduleStore(db).for_channel(CHANNEL)


async def test_an_admin_sets_a_schedule_and_sees_the_next_five_posts(core: Studybot) -> None:
    options = {"time": "09:00", "timezone": "Asia/Shanghai", "coding": "wed", "answer": "18:00"}
    reply = await core.handle(run("schedule", action="set", **options))
    assert reply.tone is Tone.INFO
    assert reply.body.splitlines()[0] == "Saved. The daily question is on."
    assert reply.body.splitlines()[2:] == [
        "- Mon 2026-03-02 09:00 CST", "- Tue 2026-03-03 09:00 CST",
        "- Wed 2026-03-04 09:00 CST (coding)", "- Thu 2026-03-05 09:00 CST",
        "- Fri 2026-03-06 09:00 CST",
    ]  # fmt: skip
    fields = {f.name: f.value for f in reply.fields}
    assert fields["Posts at"] == "09:00 Asia/Shanghai" and fields["Answer"] == "18:00"
    assert fields["Status"] == "active"


async def test_everyone_can_show_but_only_admins_change(
    core: Studybot, loaded_database: Database
) -> None:
    refused = await core.handle(run("schedule", MEMBER, action="set", time="09:00",
                                    timezone="Asia/Shanghai"))  # fmt: skip
    assert refused.tone is Tone.USER_ERROR and "Only members who can manage" in refused.body
    assert await stored(loaded_database) is None
    await core.handle(run("schedule", action="set", time="09:00", timezone="Asia/Shanghai"))
    for action in ("pause", "remove"):
        denied = await core.handle(run("schedule", MEMBER, action=action))
        assert denied.tone is Tone.USER_ERROR
    now = await core.handle(run("daily", MEMBER, action="now"))
    assert now.tone is Tone.USER_ERROR
    shown = await core.handle(run("schedule", MEMBER, action="show"))
    assert shown.tone is Tone.INFO and "Mon 2026-03-02 09:00 CST" in shown.body


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"time": "25:00", "timezone": "Asia/Shanghai"}, "time: '25:00' is not a time of day"),
        ({"time": "09:00", "timezone": "Mars/Base"}, "timezone: 'Mars/Base' is not an IANA"),
        ({"time": "09:00", "timezone": "UTC", "lang": "fr"}, "`lang` must be one of: en, zh"),
        ({"time": "09:00", "timezone": "UTC", "topic": "cooking"}, "No question has topic"),
        ({"time": "09:00", "timezone": "UTC", "days": "someday"}, "days: 'someday' is not a day"),
        ({"time": "09:00", "timezone": "UTC", "days": "none"}, "at least one posting day"),
        ({"time": "09:00", "timezone": "UTC", "answer": "+30h"}, "from +1m to +23h59m"),
    ],
)
async def test_bad_input_gets_a_clear_reply_and_changes_nothing(
    core: Studybot, loaded_database: Database, options: dict[str, str], says: str
) -> None:
    await core.handle(run("schedule", action="set", time="07:00", timezone="Europe/Paris"))
    reply = await core.handle(run("schedule", action="set", **options))
    assert reply.tone is Tone.USER_ERROR
    assert says in reply.body
    kept = await ScheduleStore(loaded_database).for_channel(CHANNEL)
    assert kept is not None and kept.zone.key == "Europe/Paris"


async def test_pause_resume_and_remove(core: Studybot, loaded_database: Database) -> None:
    missing = await core.handle(run("schedule", action="pause"))
    assert missing.tone is Tone.USER_ERROR and "no daily question to pause" in missing.body
    await core.handle(run("schedule", action="set", time="09:00", timezone="Asia/Shanghai"))
    await core.handle(run("schedule", action="pause"))
    shown = await core.handle(run("schedule", action="show"))
    assert {f.name: f.value for f in shown.fields}["Status"] == "paused: paused by an admin"
    assert "Next posts" not in shown.body
    await core.handle(run("schedule", action="resume"))
    shown = await core.handle(run("schedule", action="show"))
    assert {f.name: f.value for f in shown.fields}["Status"] == "active"
    await core.handle(run("schedule", action="remove"))
    assert await stored(loaded_database) is None
    none = await core.handle(run("schedule", action="show"))
    assert "no daily question yet" in none.body


async def test_a_pause_after_failures_is_explained_in_show(
    core: Studybot, loaded_database: Database
) -> None:
    await core.handle(run("schedule", action="set", time="09:00", timezone="Asia/Shanghai"))
    schedule = await ScheduleStore(loaded_database).for_channel(CHANNEL)
    assert schedule is not None
    await ScheduleStore(loaded_database).set_paused(
        schedule.id, True, "posting failed 5 time(s): x"
    )
    shown = await core.handle(run("schedule", action="show"))
    status = {f.name: f.value for f in shown.fields}["Status"]
    assert status == "paused: posting failed 5 time(s): x"


async def test_daily_now_posts_into_the_channel(core: Studybot, adapter: FakeAdapter) -> None:
    no_schedule = await core.handle(run("daily", action="now"))
    assert no_schedule.tone is Tone.USER_ERROR
    await core.handle(run("schedule", action="set", time="09:00", timezone="Asia/Shanghai",
                          topic="gpu"))  # fmt: skip
    reply = await core.handle(run("daily", action="now"))
    assert reply.body == "Posted the next question." and reply.ephemeral
    assert adapter.sent[0].channel == CHANNEL
    assert adapter.sent[0].reply.title == "显存不够怎么办？"  # the only `gpu` question


async def test_an_unknown_action_lists_the_choices(core: Studybot) -> None:
    reply = await core.handle(run("schedule", action="explode"))
    assert reply.tone is Tone.USER_ERROR
    assert "set, show, pause, resume, remove" in reply.body


async def test_replies_in_chinese(core: Studybot) -> None:
    reply = await core.handle(run("schedule", MEMBER, Locale.ZH, action="set", time="09:00",
                                  timezone="UTC"))  # fmt: skip
    assert "只有能管理本频道的成员" in reply.body


async def test_options_that_do_more_than_they_say_are_explained(core: Studybot) -> None:
    options = {"time": "09:00", "timezone": "Asia/Shanghai", "days": "mon-fri", "coding": "sat",
               "answer": "08:30"}  # fmt: skip
    reply = await core.handle(run("schedule", action="set", **options))
    lines = reply.body.splitlines()
    assert lines[:3] == [
        "Saved. The daily question is on.",
        "Note: coding days sat are not among the posting days, so the channel also gets a "
        "post on them.",
        "Note: 08:30 is not after the post time, so each answer comes the next day at 08:30.",
    ]
    short = await core.handle(run("schedule", action="set", time="09:00", timezone="UTC",
                                  days="daily", coding="none", answer="2h"))  # fmt: skip
    assert {f.name: f.value for f in short.fields}["Answer"] == "+2h"  # read as a delay
    assert "Note:" not in short.body


async def test_the_schedule_view_speaks_chinese_throughout(core: Studybot) -> None:
    reply = await core.handle(run("schedule", ADMIN, Locale.ZH, action="set", time="09:00",
                                  timezone="Asia/Shanghai", coding="wed"))  # fmt: skip
    assert "- 周三 2026-03-04 09:00 CST（编程题）" in reply.body.splitlines()
    assert "(coding)" not in reply.body and "Wed" not in reply.body


async def test_daily_now_says_what_happened(core: Studybot, adapter: FakeAdapter) -> None:
    none = await core.handle(run("daily", action="now"))
    assert none.body.startswith("This channel has no daily question yet, so there is nothing")
    zh = await core.handle(run("daily", ADMIN, Locale.ZH, action="now"))
    assert zh.body.startswith("本频道还没有每日一题") and "now" not in zh.body
    await core.handle(run("schedule", action="set", time="09:00", timezone="UTC"))
    first = await core.handle(run("daily", action="now"))
    again = await core.handle(run("daily", action="now"))  # the same second
    assert first.body == "Posted the next question."
    assert again.body == "A question was posted here a moment ago; nothing more was posted."
    assert len(adapter.sent) == 1


async def test_a_schedule_topic_may_be_named_in_chinese(
    core: Studybot, loaded_database: Database
) -> None:
    reply = await core.handle(run("schedule", ADMIN, Locale.ZH, action="set", time="09:00",
                                  timezone="UTC", topic="分布式"))  # fmt: skip
    assert reply.tone is Tone.INFO, reply.body
    saved = await stored(loaded_database)
    assert saved is not None and getattr(saved, "topic", None) == "distributed"


async def test_set_on_a_schedule_changes_what_it_names_and_keeps_the_rest(
    core: Studybot, loaded_database: Database
) -> None:
    new = await core.handle(run("schedule", action="set", days="weekdays"))
    assert new.tone is Tone.USER_ERROR and "A new daily question needs a time and a time zone" \
        in new.body  # fmt: skip
    full = {"time": "09:00", "timezone": "Asia/Shanghai", "days": "mon,wed,fri", "coding": "wed",
            "topic": "gpu", "answer": "18:00", "summary": "weekly", "lang": "zh"}  # fmt: skip
    await core.handle(run("schedule", action="set", **full))
    moved = await core.handle(run("schedule", action="set", time="10:30"))
    assert moved.tone is Tone.INFO, moved.body
    assert ("Kept as they were (give them to change them): timezone, days, coding, topic, "
            "answer, summary, lang.") in moved.body.splitlines()  # fmt: skip
    saved = await ScheduleStore(loaded_database).for_channel(CHANNEL)
    assert saved is not None
    assert (saved.post_at.strftime("%H:%M"), saved.zone.key, saved.days, saved.coding_days,
            saved.topic, str(saved.answer), saved.weekly_summary, saved.locale) == (
        "10:30", "Asia/Shanghai", frozenset({0, 2, 4}), frozenset({2}), "gpu", "18:00", True,
        Locale.ZH)  # fmt: skip
    await core.handle(run("schedule", action="set", topic="any", summary="off", lang="en"))
    saved = await ScheduleStore(loaded_database).for_channel(CHANNEL)
    assert saved is not None and saved.topic is None and not saved.weekly_summary
    assert saved.locale is Locale.EN and saved.post_at.strftime("%H:%M") == "10:30"
