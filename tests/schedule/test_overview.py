"""The schedules of one workspace, for dashboards: other workspaces and platforms stay out."""

from __future__ import annotations

from bot.core import Studybot
from bot.types import ChannelRef, Invocation, Locale, User

ADMIN = User("slack", "U1", "admin", is_admin=True)


async def set_schedule(core: Studybot, channel: ChannelRef, time: str) -> None:
    options = {"action": "set", "time": time, "timezone": "Asia/Shanghai"}
    await core.handle(Invocation("schedule", options, user=ADMIN, channel=channel))


async def test_a_workspace_lists_its_own_schedules_with_the_callers_channel_names(
    core: Studybot,
) -> None:
    here = Invocation("help", channel=ChannelRef("slack", "D1", "T1"))
    empty = await core.workspace_schedules(here, mention=lambda c: f"<#{c.channel}>")
    assert "No channel here has a daily question yet" in empty.body

    await set_schedule(core, ChannelRef("slack", "C1", "T1"), "09:00")
    await set_schedule(core, ChannelRef("slack", "C2", "T1"), "18:30")
    await set_schedule(core, ChannelRef("slack", "C3", "T2"), "07:00")
    await set_schedule(core, ChannelRef("discord", "C4", "T1"), "07:00")
    await core.handle(Invocation("schedule", {"action": "pause"}, user=ADMIN,
                                 channel=ChannelRef("slack", "C2", "T1")))  # fmt: skip
    listed = await core.workspace_schedules(here, mention=lambda c: f"<#{c.channel}>")
    assert listed.body.split("\n") == [
        "- <#C1>: 09:00 Asia/Shanghai, daily",
        "- <#C2>: 18:30 Asia/Shanghai, daily (paused)",
    ]
    zh = Invocation("help", channel=here.channel, locale=Locale.ZH)
    assert "（已暂停）" in (await core.workspace_schedules(zh, mention=str)).body
